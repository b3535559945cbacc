"""Closed loops from Python: constraints added procedurally to a tree, integrated by the
simulation, evaluated and projected.

References are independent of the engine: the four-bar's coupler and rocker angles come from the
loop geometry solved by hand (two circles intersecting), the slider-crank's slider position from
its closed form x(θ) = r cos θ + √(l² - r² sin² θ), the Jacobian G and the bias γ from central
differences of the residuals, and energy conservation from the absence of dissipation. The
tolerances and why are stated with each check.
"""

import math

import numpy as np
import pytest

import hopsim
from hopsim import Hinge, RigidTransform, SpatialInertia

G = 9.81
PIN_Z = Hinge.pin([0, 0, 1])


def tight_simulation():
    """rkf45 at tolerances far below the test tolerances."""
    options = hopsim.IntegratorOptions()
    options.relative_tolerance = 1e-12
    options.absolute_tolerance = 1e-13
    return hopsim.Simulation(0.01, integrator="rkf45", integrator_options=options)


def bar(mass, length):
    """A uniform bar along its body x axis from the origin (I = m l² / 12 about its CM)."""
    inertia = mass * length * length / 12
    return SpatialInertia(mass, com=[0.5 * length, 0, 0],
                          inertia=np.diag([0.01 * inertia, inertia, inertia]))


def translation(x, y=0.0, z=0.0):
    return RigidTransform.from_translation([x, y, z])


# ---- a four-bar closed by a PIN cut joint -------------------------------------------------------

# Ground pivots O = 0 and D = (L0, 0), crank O-A (L1), coupler A-B (L2), rocker B-D (L3): a
# Grashof crank-rocker (L1 + L2 <= L0 + L3), so the crank turns fully without dead points.
L0, L1, L2, L3 = 3.0, 1.0, 3.0, 2.5


def four_bar_geometry(theta1):
    """The coupler angle θ2 (of B - A) and the rocker angle φ3 (of D - B) for crank angle θ1,
    solved by hand: B is where the circles about A (radius L2) and D (radius L3) meet, on the
    branch above the line A-D."""
    a = L1 * np.array([math.cos(theta1), math.sin(theta1)])
    d = np.array([L0, 0.0])
    ad = d - a
    dist = np.linalg.norm(ad)
    along = (L2 * L2 - L3 * L3 + dist * dist) / (2 * dist)
    across = math.sqrt(L2 * L2 - along * along)
    n = ad / dist
    b = a + along * n + across * np.array([-n[1], n[0]])
    return math.atan2(b[1] - a[1], b[0] - a[0]), math.atan2(d[1] - b[1], d[0] - b[0])


def four_bar_rates(theta1, theta2, phi3):
    """Coupler and rocker angular rates per unit crank rate, from the loop closure
    L1 e(θ1) + L2 e(θ2) + L3 e(φ3) = (L0, 0) differentiated."""
    def perp(t):
        return np.array([-math.sin(t), math.cos(t)])
    jacobian = np.column_stack([L2 * perp(theta2), L3 * perp(phi3)])
    return np.linalg.solve(jacobian, -L1 * perp(theta1))


def four_bar():
    """The four-bar in the x-y plane under gravity -y: a tree of PIN joints about z (each bar
    along its body x axis, the rocker's from B towards D) closed at D by a 3D PIN cut joint."""
    sim = tight_simulation()
    mb = sim.multibody
    mb.gravity = [0, -G, 0]
    mb.add_body("crank", "world", PIN_Z, bar(1.0, L1))
    mb.add_body("coupler", "crank", PIN_Z, bar(2.0, L2), inboard=translation(L1))
    mb.add_body("rocker", "coupler", PIN_Z, bar(1.5, L3), inboard=translation(L2))
    index = mb.add_cut_joint("closure", PIN_Z, "rocker", translation(L3), "world",
                             translation(L0))
    assert index == 0
    return sim, mb


def four_bar_state(theta1, omega1):
    """Q and U on the constraints, from the hand-solved geometry (tree coordinates are relative
    angles)."""
    theta2, phi3 = four_bar_geometry(theta1)
    k2, k3 = four_bar_rates(theta1, theta2, phi3)
    q = np.array([theta1, theta2 - theta1, phi3 - theta2])
    u = omega1 * np.array([1.0, k2 - 1.0, k3 - k2])
    return q, u


def test_four_bar_keeps_its_loop_closed_conserves_energy_and_follows_its_geometry():
    sim, mb = four_bar()
    assert mb.constraint_names() == ["closure"]
    assert (mb.constraint_count, mb.constraint_rows) == (1, 5)  # a 3D PIN: 3 + 2 rows
    info = mb.constraint("closure")
    assert (info["type"], info["body_a"], info["body_b"]) == ("CUT_JOINT", "rocker", "world")
    assert info["rows"] == slice(0, 5, 1)
    q0, u0 = four_bar_state(0.3, 6.0)
    # The hand-solved state is on the constraints (round-off of the geometry: 1e-14).
    assert np.abs(mb.constraint_residuals(q0)).max() < 1e-14
    assert np.abs(mb.constraint_jacobian(q0) @ u0).max() < 1e-13
    mb.q, mb.u = q0, u0
    sim.lock()
    e0 = mb.energy_and_momentum().total_energy
    assert e0 > 10.0  # potential and kinetic energy well away from zero, so relative is meaningful
    worst_closure = worst_energy = worst_angle = 0.0
    turned = 0.0
    for k in range(1, 301):  # 3 s: the crank makes more than a full turn
        sim.advance_time_to(0.01 * k)
        q = mb.q
        worst_closure = max(worst_closure, np.abs(mb.constraint_residuals()).max())
        worst_energy = max(worst_energy,
                           abs(mb.energy_and_momentum().total_energy - e0) / abs(e0))
        theta2, phi3 = four_bar_geometry(q[0])
        worst_angle = max(worst_angle,
                          abs(math.remainder(q[0] + q[1] - theta2, 2 * math.pi)),
                          abs(math.remainder(q[0] + q[1] + q[2] - phi3, 2 * math.pi)))
        turned = max(turned, abs(q[0] - q0[0]))
    assert turned > 2 * math.pi  # the whole geometry range is visited
    # Projection after every step keeps |φ| at the 1e-12 projection tolerance; 1e-9 is the bound.
    assert worst_closure < 1e-9
    # rkf45 at rtol 1e-12 without dissipation: energy drifts by ~1e-13 relative; bound 1e-8.
    assert worst_energy < 1e-8
    # The tree's angles are those of the closed geometry to the closure residual (~1e-12 rad).
    assert worst_angle < 1e-9
    # A planar loop closed by a 3D PIN: 2 of its 5 rows are independent.
    assert mb.constraint_rank() == 2
    assert mb.constraint_forces().shape == (3,)
    reactions = mb.constraint_reactions()
    np.testing.assert_allclose(reactions["closure"]["point"], [L0, 0, 0], atol=1e-9)
    # Planar motion: the pin carries no force along z and no moment about it.
    assert abs(reactions["closure"]["force"][2]) < 1e-9
    assert abs(reactions["closure"]["force"][5]) < 1e-9


# ---- a slider-crank closed by a DISTANCE constraint ----------------------------------------------

R_CRANK, L_ROD = 0.5, 1.5


def slider_position(theta):
    """x(θ) = r cos θ + √(l² - r² sin² θ): the slider at distance l from the crank pin."""
    return R_CRANK * math.cos(theta) + math.sqrt(L_ROD**2 - (R_CRANK * math.sin(theta)) ** 2)


def test_slider_crank_closed_by_a_distance_follows_the_closed_form():
    """Crank pinned at the world origin, slider on the world x axis, a massless rod of length l
    (DISTANCE) between the crank pin and the slider; passive, under gravity -y."""
    sim = tight_simulation()
    mb = sim.multibody
    mb.gravity = [0, -G, 0]
    mb.add_body("crank", "world", PIN_Z, bar(2.0, R_CRANK))
    mb.add_body("slider", "world", Hinge.slider([1, 0, 0]), SpatialInertia.point_mass(0.5, [0, 0, 0]))
    assert mb.add_distance("rod", "crank", [R_CRANK, 0, 0], "slider", [0, 0, 0], L_ROD) == 0
    assert mb.constraint("rod")["length"] == L_ROD
    theta0, omega0 = 0.2, 8.0
    h = 1e-7
    dxdtheta = (slider_position(theta0 + h) - slider_position(theta0 - h)) / (2 * h)
    # The finite-difference rate is off by ~1e-9; project_onto_constraints removes that part.
    q, u = mb.project_onto_constraints([theta0, slider_position(theta0)],
                                       [omega0, omega0 * dxdtheta])
    assert abs(q[1] - slider_position(theta0)) < 1e-14 and abs(u[0] - omega0) < 1e-7
    mb.q, mb.u = q, u
    sim.lock()
    e0 = mb.energy_and_momentum().total_energy
    worst_x = worst_energy = worst_closure = 0.0
    for k in range(1, 201):
        sim.advance_time_to(0.01 * k)
        theta, x = mb.q
        worst_x = max(worst_x, abs(x - slider_position(theta)))
        worst_energy = max(worst_energy, abs(mb.energy_and_momentum().total_energy - e0) / e0)
        worst_closure = max(worst_closure, abs(mb.constraint_residuals()[0]))
    assert mb.q[0] - theta0 > 2 * math.pi  # more than one crank turn
    # The closed form holds to the projection tolerance (1e-12 m); bound 1e-9.
    assert worst_x < 1e-9 and worst_closure < 1e-9
    assert worst_energy < 1e-8  # rkf45 at rtol 1e-12, no dissipation (see the four-bar)
    assert mb.constraint_rank() == 1


# ---- Jacobian and bias against finite differences ------------------------------------------------


def every_constraint_system():
    """A tree of PIN, SLIDER, BALL and UJOINT bodies with one constraint of each kind."""
    sim = hopsim.Simulation(0.01)
    mb = sim.multibody
    mb.gravity = [0, 0, -G]
    link = SpatialInertia(1.0, com=[0.3, 0.1, -0.2], inertia=np.diag([0.1, 0.2, 0.15]))
    mb.add_body("a", "world", Hinge.pin([0, 0, 1]), link)
    mb.add_body("b", "a", Hinge.slider([1, 0, 0]), link, inboard=translation(0.5, 0.2))
    mb.add_body("c", "b", Hinge.ball(), link, inboard=translation(0.1, -0.3, 0.4))
    mb.add_body("d", "world", Hinge.ujoint([1, 0, 0], [0, 1, 0]), link, inboard=translation(2.0))
    pose = RigidTransform.from_axis_angle([1, 2, 3], 0.4, [0.2, -0.1, 0.3])
    mb.add_cut_joint("cut", Hinge.ujoint([0, 0, 1], [1, 0, 0]), "c", pose, "d",
                     RigidTransform.from_translation([0.1, 0.2, 0.0]))
    mb.add_distance("dist", "a", [0.4, 0, 0], "d", [0.0, 0.3, 0.1], 1.7)
    mb.add_revolute_spherical("revsph", "world", [0, 1, 0], [0, 0, 1], "b", [0.2, 0, 0], 1.1)
    mb.add_revolute_translational("revtra", "c", [0, 0, 0.1], [0, 1, 0], "d", [0.3, 0, 0],
                                  [1, 0, 0], [0, 0, 1], 0.6)
    mb.add_point_on_line("line", "d", [0, 0, 0], [1, 1, 0], "a", [0.5, 0.1, 0])
    mb.add_point_on_plane("plane", "world", [0, 0, -1], [0, 0, 1], "c", [0.1, 0.1, 0.1])
    return sim, mb


def test_jacobian_and_bias_equal_central_differences_of_the_residuals():
    sim, mb = every_constraint_system()
    assert mb.constraint_rows == 4 + 1 + 2 + 4 + 2 + 1
    rng = np.random.default_rng(8)
    q = mb.neutral_configuration() + rng.uniform(-0.5, 0.5, mb.nq)
    u = rng.uniform(-1.0, 1.0, mb.nu)
    G_matrix = mb.constraint_jacobian(q)
    assert G_matrix.shape == (mb.constraint_rows, mb.nu)

    def moved(q, direction, h):
        # Along U: Q moves with Q̇ = Q̇(Q, direction); the ball's quaternion is renormalized by
        # the engine before use, which changes φ only at O(h²), the same for +h and -h.
        return q + h * mb.compute_qdot(q, direction)

    h = 1e-6
    for j in range(mb.nu):
        e = np.zeros(mb.nu)
        e[j] = 1.0
        difference = (mb.constraint_residuals(moved(q, e, h)) -
                      mb.constraint_residuals(moved(q, e, -h))) / (2 * h)
        # Central differences at h = 1e-6: truncation ~h² = 1e-12, round-off ~1e-16 / h =
        # 1e-10 on residuals of order one; 1e-8 leaves room for both.
        np.testing.assert_allclose(G_matrix[:, j], difference, atol=1e-8, err_msg=f"U[{j}]")
    # γ = -Ġ U: the derivative of G(Q(t)) U along Q̇ = Q̇(Q, U).
    gamma = mb.constraint_bias(q, u)
    difference = -(mb.constraint_jacobian(moved(q, u, h)) @ u -
                   mb.constraint_jacobian(moved(q, u, -h)) @ u) / (2 * h)
    np.testing.assert_allclose(gamma, difference, atol=1e-8)


def test_projection_puts_a_perturbed_state_on_the_constraints():
    sim, mb = four_bar()
    q0, u0 = four_bar_state(1.1, -2.0)
    rng = np.random.default_rng(3)
    q, u = mb.project_onto_constraints(q0 + rng.uniform(-0.03, 0.03, 3), u0 + 0.1)
    assert np.abs(mb.constraint_residuals(q)).max() <= 1e-12
    assert np.abs(mb.constraint_jacobian(q) @ u).max() <= 1e-12
    # The system's own Q and U are untouched.
    np.testing.assert_array_equal(mb.q, np.zeros(3))


def test_assemble_puts_the_locked_state_on_the_constraints_and_reports_the_violation():
    sim, mb = four_bar()
    q0, u0 = four_bar_state(1.1, -2.0)
    with pytest.raises(hopsim.ModelError, match="not locked since"):
        mb.assemble()
    off = q0 + np.array([0.0, 0.03, 0.0])
    mb.q, mb.u = off, u0 + 0.1
    sim.lock()
    expected = np.abs(mb.constraint_residuals(off)).max()
    report = mb.assemble()
    assert report["above_tolerance"]
    # The violation found is the residual at the given Q (the same evaluation: 1e-15 relative).
    assert report["position"] == pytest.approx(expected, rel=1e-15)
    assert report["velocity"] > 1e-3
    assert np.abs(mb.constraint_residuals()).max() <= 1e-12
    assert np.abs(mb.constraint_jacobian() @ mb.u).max() <= 1e-12
    # On the hand-solved geometry of the crank angle it reached (1e-10: the geometry's
    # conditioning times the 1e-12 closure).
    q = mb.q
    theta2, phi3 = four_bar_geometry(q[0])
    assert abs(math.remainder(q[0] + q[1] - theta2, 2 * math.pi)) < 1e-10
    assert abs(math.remainder(q[0] + q[1] + q[2] - phi3, 2 * math.pi)) < 1e-10
    # Assembled already: nothing more to correct.
    assert not mb.assemble()["above_tolerance"]


# ---- errors ----------------------------------------------------------------------------------


def test_bad_constraints_raise_errors_naming_the_argument():
    sim, mb = four_bar()
    with pytest.raises(hopsim.NotFoundError,
                       match=r"add_distance\('rod'\): body_b: no body named 'rokcer' "
                             r"\(did you mean 'rocker'"):
        mb.add_distance("rod", "crank", [1, 0, 0], "rokcer", [0, 0, 0], 1.0)
    with pytest.raises(hopsim.InputError, match="closure.*taken"):
        mb.add_cut_joint("closure", PIN_Z, "crank", None, "world", None)
    with pytest.raises(hopsim.InputError,
                       match=r"add_point_on_plane\('p'\): normal_a: expected a vector of 3"):
        mb.add_point_on_plane("p", "crank", [0, 0, 0], [0, 1], "world", [0, 0, 0])
    with pytest.raises(hopsim.InputError, match="length"):
        mb.add_distance("rod", "crank", [1, 0, 0], "rocker", [0, 0, 0], -1.0)
    with pytest.raises(TypeError, match="expected a RigidTransform"):
        mb.add_cut_joint("c2", PIN_Z, "crank", [0, 0, 0], "world", None)
    with pytest.raises(hopsim.NotFoundError, match=r"no constraint named 'closre' \(did you mean"):
        mb.constraint("closre")
    # A rejected constraint leaves the set as it was.
    assert mb.constraint_names() == ["closure"]
    # The last evaluation's results exist only once the simulation ran with constraints.
    with pytest.raises(hopsim.ModelError, match="no constraints"):
        mb.constraint_forces()
    with pytest.raises(hopsim.InputError, match="setProjection"):
        mb.set_projection(position_tolerance=0.0)
    mb.q, mb.u = four_bar_state(0.3, 0.0)
    sim.lock()
    with pytest.raises(hopsim.ModelError, match="locked"):
        mb.add_distance("rod", "crank", [1, 0, 0], "rocker", [0, 0, 0], 1.0)
    with pytest.raises(hopsim.ModelError, match="locked"):
        mb.clear_constraints()
    sim.unlock()
    mb.clear_constraints()
    assert (mb.constraint_count, mb.constraint_rows) == (0, 0)
    assert mb.constraint_residuals().shape == (0,)
    assert mb.constraint_jacobian().shape == (0, 3)


def test_the_documented_constraint_example_runs(repository_root):
    """docs/multibody.md, "From Python": the constraints snippet runs as written (its asserts
    check the slider-crank's closed form and the closure), so the documentation stays true."""
    text = (repository_root / "docs" / "multibody.md").read_text(encoding="utf-8")
    section = text.split("## From Python", 1)[1].split("**Constraints**", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    namespace = {}
    exec(compile(code, "docs/multibody.md (constraints)", "exec"), namespace)  # noqa: S102
    assert namespace["sim"].time() == 1.0


def test_a_beam_held_by_a_pin_and_a_rope_shares_its_weight_as_statics_says():
    """A 1 kg point mass at the middle of a massless beam of length 1 along y, pinned at the
    origin about x and held level by a vertical rope of 1 m from its tip to a point above.
    Statics: rope tension m g / 2, torque of the rope about the pin (m g / 2) * 1 m. The forces
    are those of the last derivative evaluation, after the end-of-step projection (9 digits: the
    level position is held by the projection to 1e-12)."""
    sim = hopsim.Simulation(0.01, integrator="rk4")
    mb = sim.multibody
    mb.gravity = [0, 0, -G]
    mb.add_body("beam", "world", Hinge.pin([1, 0, 0]),
                SpatialInertia.point_mass(1.0, [0, 0.5, 0]))
    mb.add_distance("rope", "world", [0, 1, 1], "beam", [0, 1, 0], 1.0)
    sim.lock()
    sim.advance_time_to(0.1)
    assert abs(mb.q[0]) < 1e-12  # it stays level
    assert abs(mb.constraint_multipliers()[0]) == pytest.approx(G / 2, rel=1e-9)
    np.testing.assert_allclose(mb.constraint_forces(), [G / 2], rtol=1e-9)
    rope = mb.constraint_reactions()["rope"]
    np.testing.assert_allclose(rope["point"], [0, 1, 0], atol=1e-12)
    np.testing.assert_allclose(rope["force"][3:], [0, 0, G / 2], atol=1e-9)
    np.testing.assert_allclose(rope["force"][:3], [0, 0, 0], atol=1e-9)
