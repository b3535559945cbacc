"""The multibody system from Python: trees built procedurally, integrated by the simulation and
queried (frames, energies, momenta, mass matrix, inverse and forward dynamics).

Every check compares against an independent reference (a closed form derived by hand, an
elliptic integral, a Lagrangian mass matrix, a conservation law); the tolerances and why are
stated with each check.
"""

import math
import os
import subprocess
import sys

import numpy as np
import pytest

import hopsim
from hopsim import Hinge, RigidTransform, SpatialInertia

from double_pendulum_reference import C1, C2, I1, I2, L1, M1, M2, lagrangian_terms

G = 9.81


def rot_x(angle):
    """R_AB of a frame B turned by ``angle`` about A's x axis (written out by hand)."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def tight_simulation():
    """rkf45 at tolerances far below the test tolerances."""
    options = hopsim.IntegratorOptions()
    options.relative_tolerance = 1e-12
    options.absolute_tolerance = 1e-13
    return hopsim.Simulation(0.01, integrator="rkf45", integrator_options=options)


# ---- poses ------------------------------------------------------------------------------------


def test_rigid_transform_conventions():
    """Quaternions are scalar first, R_AB maps B components to A, @ composes X_AB @ X_BC."""
    quarter = RigidTransform.from_axis_angle([0, 0, 1], math.pi / 2, [1.0, 2.0, 3.0])
    # A quarter turn about z: B's x axis is A's y axis; q = [cos 45°, 0, 0, sin 45°].
    np.testing.assert_allclose(quarter.rotation[:, 0], [0, 1, 0], atol=1e-15)
    h = math.sqrt(0.5)
    np.testing.assert_allclose(quarter.quaternion, [h, 0, 0, h], atol=1e-15)
    np.testing.assert_allclose(quarter @ [1.0, 0.0, 0.0], [1.0, 3.0, 3.0], atol=1e-15)
    np.testing.assert_allclose(quarter.apply_to_vector([1.0, 0.0, 0.0]), [0, 1, 0], atol=1e-15)
    same = RigidTransform.from_quaternion([2 * h, 0, 0, 2 * h], [1, 2, 3])  # normalized
    assert same.is_approx(quarter, 1e-15)
    assert (quarter @ quarter.inverse()).is_approx(RigidTransform.identity(), 1e-15)
    np.testing.assert_allclose(RigidTransform.from_matrix(quarter.matrix).matrix, quarter.matrix)
    # Intrinsic XYZ = R_x(a) R_y(b) R_z(c), a GIMBAL's convention.
    a, b, c = 0.3, -0.2, 1.1
    X = RigidTransform.from_euler("XYZ", [a, b, c])
    Rz = RigidTransform.from_axis_angle([0, 0, 1], c).rotation
    Ry = RigidTransform.from_axis_angle([0, 1, 0], b).rotation
    np.testing.assert_allclose(X.rotation, rot_x(a) @ Ry @ Rz, atol=1e-15)


def test_inertia_helpers_match_textbook_formulas():
    """The solid helpers against the textbook moments (exact up to round-off, 1e-15)."""
    box = hopsim.box_inertia(12.0, [1.0, 2.0, 3.0])
    np.testing.assert_allclose(np.diag(box.inertia), [13.0, 10.0, 5.0], rtol=1e-15)
    rod = hopsim.rod_inertia(3.0, [0, 0, -2.0])
    # About its end, perpendicular to it: m l² / 3; along it: zero.
    np.testing.assert_allclose(rod.inertia_about_origin, np.diag([4.0, 4.0, 0.0]), atol=1e-14)
    np.testing.assert_allclose(rod.com, [0, 0, -1.0])
    cyl = hopsim.cylinder_inertia(2.0, 0.5, 3.0, axis=0)
    np.testing.assert_allclose(np.diag(cyl.inertia), [0.25, 1.625, 1.625], rtol=1e-15)
    np.testing.assert_allclose(hopsim.sphere_inertia(5.0, 2.0).inertia, 8.0 * np.eye(3))
    # From the inertia about the origin: the same body (parallel axes).
    again = SpatialInertia.from_origin_inertia(3.0, rod.com, rod.inertia_about_origin)
    np.testing.assert_allclose(again.inertia, rod.inertia, atol=1e-14)


# ---- a simple pendulum integrated by the simulation -------------------------------------------


def complete_elliptic_k_agm(k):
    """K(k) by the arithmetic-geometric mean: K = π / (2 AGM(1, √(1 - k²)))."""
    a, b = 1.0, math.sqrt(1.0 - k * k)
    for _ in range(30):  # quadratic convergence: ~6 steps reach round-off, a fixed count is safe
        a, b = 0.5 * (a + b), math.sqrt(a * b)
    return math.pi / (2.0 * a)


def complete_elliptic_k_quadrature(k):
    """K(k) = ∫_0^{π/2} dφ / √(1 - k² sin² φ) by 80-point Gauss-Legendre (smooth integrand)."""
    x, w = np.polynomial.legendre.leggauss(80)
    phi = 0.25 * math.pi * (x + 1.0)
    return 0.25 * math.pi * float(np.sum(w / np.sqrt(1.0 - (k * np.sin(phi)) ** 2)))


def test_pendulum_swings_with_the_exact_large_angle_period():
    """A point mass on a massless rod released from 1.2 rad: it reaches -1.2 rad at T/2 and
    returns at T = 4 √(l/g) K(sin(θ0/2)), the exact period, and keeps its energy.

    Reference: K by the AGM, confirmed by Gauss-Legendre quadrature (agree to 1e-14). Tolerances:
    1e-8 rad on the angle and rad/s on the rate (rkf45 at rtol 1e-12 over 1.5 periods gives
    ~1e-10); energy 1e-10 relative.
    """
    length, mass, theta0 = 0.8, 1.5, 1.2
    k = math.sin(theta0 / 2.0)
    K = complete_elliptic_k_agm(k)
    assert K == pytest.approx(complete_elliptic_k_quadrature(k), rel=1e-14)
    period = 4.0 * math.sqrt(length / G) * K

    sim = tight_simulation()
    mb = sim.multibody
    mb.gravity = [0, 0, -G]
    mb.add_body("bob", "world", Hinge.pin([1, 0, 0]),
                SpatialInertia.point_mass(mass, [0, 0, -length]))
    mb.add_node("mass", "bob", RigidTransform.from_translation([0, 0, -length]))
    mb.set_body_q("bob", [theta0])
    sim.lock()
    energy0 = mb.energy_and_momentum().total_energy
    assert energy0 == pytest.approx(-mass * G * length * math.cos(theta0), rel=1e-15)

    sim.advance_time_to(period / 2.0)
    assert mb.body_q("bob")[0] == pytest.approx(-theta0, abs=1e-8)
    assert mb.body_u("bob")[0] == pytest.approx(0.0, abs=1e-8)
    sim.advance_time_to(period)
    assert mb.q[0] == pytest.approx(theta0, abs=1e-8)
    assert mb.u[0] == pytest.approx(0.0, abs=1e-8)
    # The variable tree shows the same coordinates.
    assert sim.get("multibody.bodies.bob.Q") == mb.q[0]

    energies = []
    for _ in range(50):
        sim.advance_time_by(0.01)
        energies.append(mb.energy_and_momentum().total_energy)
    assert np.max(np.abs(np.array(energies) - energy0)) < 1e-10 * abs(energy0)
    # The node is where the angle puts it: (0, l sin θ, -l cos θ).
    theta = mb.q[0]
    np.testing.assert_allclose(mb.relative_pose("mass").translation,
                               [0, length * math.sin(theta), -length * math.cos(theta)],
                               atol=1e-15)


# ---- a double pendulum: mass matrix and dynamics against the Lagrangian ------------------------



def double_pendulum():
    """Two links pinned about x, the second at the end (0, 0, -L1) of the first; each CM on its
    link axis, inertia tensors with products (which a rotation about x alone does not feel)."""
    sim = hopsim.Simulation(0.01, integrator="rkf45")
    mb = sim.multibody
    mb.gravity = [0, 0, -G]
    inertia1 = np.array([[I1, 0.01, -0.02], [0.01, 0.3, 0.015], [-0.02, 0.015, 0.12]])
    inertia2 = np.array([[I2, -0.005, 0.01], [-0.005, 0.1, 0.0], [0.01, 0.0, 0.05]])
    mb.add_body("upper", "world", Hinge.pin([1, 0, 0]),
                SpatialInertia(M1, [0, 0, -C1], inertia1))
    mb.add_body("lower", "upper", Hinge.pin([1, 0, 0]),
                SpatialInertia(M2, [0, 0, -C2], inertia2),
                inboard=RigidTransform.from_translation([0, 0, -L1]))
    return sim, mb


def test_double_pendulum_mass_matrix_and_dynamics_match_the_lagrangian():
    """CRBA's M equals the Lagrangian M (1e-13 relative), RNEA's τ = M u̇ + C + G, ABA's u̇ solves
    it, ID(FD(τ)) = τ (1e-10), KE = ½ uᵀ M u and V match the closed forms (1e-13): all are
    round-off level identities, the tolerances leave two to three orders of margin."""
    sim, mb = double_pendulum()
    rng = np.random.default_rng(8)
    for _ in range(10):
        q, u = rng.uniform(-3, 3, 2), rng.uniform(-2, 2, 2)
        tau, udot = rng.uniform(-5, 5, 2), rng.uniform(-4, 4, 2)
        M, C, Gq = lagrangian_terms(q, u)
        scale = np.max(np.abs(M))
        np.testing.assert_allclose(mb.mass_matrix(q), M, atol=1e-13 * scale)
        np.testing.assert_allclose(mb.inverse_dynamics(udot, q, u), M @ udot + C + Gq,
                                   atol=1e-12 * (1 + np.max(np.abs(M @ udot + C + Gq))))
        accel = mb.forward_dynamics(tau, q, u)
        np.testing.assert_allclose(accel, np.linalg.solve(M, tau - C - Gq), rtol=1e-10,
                                   atol=1e-12)
        np.testing.assert_allclose(mb.inverse_dynamics(accel, q, u), tau, atol=1e-10)
        ke = mb.kinetic_energy(q, u)
        assert ke == pytest.approx(0.5 * u @ M @ u, rel=1e-13)
        assert ke == pytest.approx(0.5 * u @ mb.mass_matrix(q) @ u, rel=1e-13)
        potential = (-G * (M1 * C1 + M2 * L1) * math.cos(q[0])
                     - M2 * G * C2 * math.cos(q[0] + q[1]))
        assert mb.potential_energy(q) == pytest.approx(potential, rel=1e-13, abs=1e-13)
    # Without q and u the queries use the system's state, and do not change it.
    mb.q, mb.u = [0.4, -0.7], [1.0, 0.5]
    M, C, Gq = lagrangian_terms([0.4, -0.7], [1.0, 0.5])
    np.testing.assert_allclose(mb.forward_dynamics(), np.linalg.solve(M, -C - Gq), rtol=1e-10)
    np.testing.assert_allclose(mb.q, [0.4, -0.7])
    np.testing.assert_allclose(mb.u, [1.0, 0.5])


def every_hinge_chain():
    """A chain with every hinge type, offset frames, CMs off the origin and full inertias."""
    sim = hopsim.Simulation(0.01)
    mb = sim.multibody
    mb.gravity = [0.3, -1.0, -9.0]
    hinges = [
        Hinge.full6dof(), Hinge.pin([0.2, 1, 0]), Hinge.slider([1, 0, 1]),
        Hinge.cylindrical([0, 0, 1]), Hinge.ujoint([1, 0, 0], [0, 1, 0]), Hinge.gimbal(),
        Hinge.ball(), Hinge.planar(), Hinge.translational(), Hinge.full6dof_inertial(),
        Hinge.locked(),
    ]
    assert {h.type for h in hinges} == set(hopsim.HingeType.__members__.values())
    rng = np.random.default_rng(3)
    parent = "world"
    for i, hinge in enumerate(hinges):
        name = f"b{i}"
        # A box's principal moments in random axes: a valid inertia of a real body.
        turn = RigidTransform.from_axis_angle(rng.normal(size=3), rng.uniform(0, 3)).rotation
        inertia = turn @ hopsim.box_inertia(1.0, rng.uniform(0.2, 1.0, 3)).inertia @ turn.T
        mb.add_body(name, parent, hinge,
                    SpatialInertia(rng.uniform(0.5, 2), rng.normal(size=3) * 0.3, inertia),
                    inboard=RigidTransform.from_euler("ZYX", rng.normal(size=3),
                                                      translation=rng.normal(size=3)),
                    outboard=RigidTransform.from_axis_angle(rng.normal(size=3), 0.4,
                                                            rng.normal(size=3) * 0.2))
        mb.add_node(f"n{i}", name, RigidTransform.from_translation(rng.normal(size=3)))
        parent = name
    return sim, mb, rng


def random_state(mb, rng):
    q = []
    for name in mb.body_names()[1:]:
        hinge = mb.hinge(name)
        part = rng.normal(size=hinge.nq)
        if hinge.type in (hopsim.HingeType.BALL, hopsim.HingeType.FULL6DOF,
                          hopsim.HingeType.FULL6DOF_INERTIAL):
            part[:4] /= np.linalg.norm(part[:4])
        q.extend(part)
    return np.array(q), rng.normal(size=mb.nu)


def test_every_hinge_type_inverse_of_forward_dynamics_and_kinetic_energy():
    """On a chain with all 11 hinge types: ID(FD(τ, F_ext)) = τ (1e-10 relative: both are
    exact algorithms, round-off grows with the depth), M symmetric positive definite, KE = ½ uᵀ
    M u (1e-12), and the frame Jacobian J u equals the node's world velocity (1e-12)."""
    sim, mb, rng = every_hinge_chain()
    assert mb.nq == 7 + 1 + 1 + 2 + 2 + 3 + 4 + 2 + 3 + 7 + 0
    assert mb.nu == 6 + 1 + 1 + 2 + 2 + 3 + 3 + 2 + 3 + 6 + 0
    for _ in range(5):
        q, u = random_state(mb, rng)
        tau = rng.normal(size=mb.nu)
        forces = {"b3": rng.normal(size=6), 7: rng.normal(size=6)}
        udot = mb.forward_dynamics(tau, q, u, body_forces=forces)
        back = mb.inverse_dynamics(udot, q, u, body_forces=forces)
        np.testing.assert_allclose(back, tau, atol=1e-10 * (1 + np.max(np.abs(tau))))
        M = mb.mass_matrix(q)
        np.testing.assert_allclose(M, M.T, atol=1e-14 * np.max(np.abs(M)))
        assert np.min(np.linalg.eigvalsh(M)) > 0
        assert mb.kinetic_energy(q, u) == pytest.approx(0.5 * u @ M @ u, rel=1e-12)
        # Gravity alone: M u̇ = τ - (C + G) with C + G = ID(0).
        bias = mb.inverse_dynamics(np.zeros(mb.nu), q, u)
        np.testing.assert_allclose(M @ mb.forward_dynamics(tau, q, u), tau - bias,
                                   atol=1e-10 * (1 + np.max(np.abs(tau - bias))))
        for node in ("n4", "n9"):
            J = mb.frame_jacobian(node, q)
            np.testing.assert_allclose(J @ u, mb.relative_velocity(node, "world", q=q, u=u),
                                       atol=1e-12 * (1 + np.max(np.abs(J @ u))))


# ---- frame queries against hand-computed values -----------------------------------------------


def test_relative_frames_of_a_known_configuration():
    """Double pendulum at θ1 = a, θ2 = b with rates and accelerations: the tip node (0, 0, -1) on
    the lower link (whose origin is at (0, 0, -L1) on upper), seen from the upper link, sits at
    p = (0, sin b, -L1 - cos b) in upper; its
    velocity and acceleration relative to upper are the time derivatives of p (derived by
    hand), expressed in the world (× R_x(a)) and in the lower link (× R_x(-b)). Exact formulas:
    tolerance 1e-14."""
    sim, mb = double_pendulum()
    mb.add_node("tip", "lower", RigidTransform.from_translation([0, 0, -1.0]))
    mb.add_node("hub", "upper", RigidTransform.from_axis_angle([0, 0, 1], 0.5, [0.1, 0, 0]))
    a, b, da, db, dda, ddb = 0.7, -1.1, 0.9, 1.7, -0.4, 2.3
    mb.q, mb.u = [a, b], [da, db]

    X = mb.relative_pose("node:tip", "upper")
    np.testing.assert_allclose(X.rotation, rot_x(b), atol=1e-15)
    np.testing.assert_allclose(X.translation, [0, math.sin(b), -L1 - math.cos(b)], atol=1e-15)
    # In the world: the upper link turns everything by a.
    X_W = mb.relative_pose("tip")
    np.testing.assert_allclose(X_W.translation,
                               rot_x(a) @ ([0, 0, -L1] + rot_x(b) @ [0, 0, -1.0]), atol=1e-15)
    # A frame on another body: the node "hub" of upper, then upper in hub.
    hub = RigidTransform.from_axis_angle([0, 0, 1], 0.5, [0.1, 0, 0])
    assert mb.relative_pose("tip", "hub").is_approx(hub.inverse() @ X, 1e-15)
    assert mb.relative_pose("hub", "node:tip").is_approx(X.inverse() @ hub, 1e-15)

    v_rel = np.array([0, math.cos(b), math.sin(b)]) * db  # d/dt p in upper
    w_rel = np.array([db, 0, 0])
    np.testing.assert_allclose(mb.relative_velocity("tip", "upper"), np.r_[w_rel, v_rel],
                               atol=1e-14)
    np.testing.assert_allclose(mb.relative_velocity("tip", "upper", "world"),
                               np.r_[rot_x(a) @ w_rel, rot_x(a) @ v_rel], atol=1e-14)
    np.testing.assert_allclose(mb.relative_velocity("tip", "upper", "lower"),
                               np.r_[rot_x(-b) @ w_rel, rot_x(-b) @ v_rel], atol=1e-14)
    R_hub = hub.rotation
    np.testing.assert_allclose(mb.relative_velocity("tip", "upper", "hub"),
                               np.r_[R_hub.T @ w_rel, R_hub.T @ v_rel], atol=1e-14)

    acc_rel = (np.array([0, -math.sin(b), math.cos(b)]) * db**2
               + np.array([0, math.cos(b), math.sin(b)]) * ddb)
    np.testing.assert_allclose(
        mb.relative_acceleration("tip", "upper", udot=[dda, ddb]),
        np.r_[ddb, 0, 0, acc_rel], atol=1e-14)
    # The upper hinge's own outboard frame relative to its inboard frame: the pin's motion.
    np.testing.assert_allclose(mb.relative_velocity("outboard:upper", "inboard:upper"),
                               [da, 0, 0, 0, 0, 0], atol=1e-15)
    # World velocity of the tip: ω × r summed along the chain, in W (by hand).
    p_elbow = rot_x(a) @ [0, 0, -L1]
    p_tip = X_W.translation
    v_tip = (np.cross([da, 0, 0], p_tip) + np.cross([db, 0, 0], p_tip - p_elbow))
    np.testing.assert_allclose(mb.relative_velocity("tip"), np.r_[da + db, 0, 0, v_tip],
                               atol=1e-14)
    # Passive acceleration (no udot): that of forward_dynamics(), gravity only.
    passive = mb.forward_dynamics()
    np.testing.assert_allclose(mb.relative_acceleration("tip"),
                               mb.relative_acceleration("tip", udot=passive), atol=1e-13)


def test_acceleration_of_a_free_falling_body_is_g():
    """A free body under gravity: its true acceleration is g whatever its spin (exact)."""
    sim = hopsim.Simulation(0.01)
    mb = sim.multibody
    mb.gravity = [0.5, 0, -9.81]
    mb.add_body("ball", "world", Hinge.full6dof(), hopsim.sphere_inertia(2.0, 0.1))
    mb.set_body_u("ball", [0, 0, 0, 1.0, 2.0, 3.0])
    np.testing.assert_allclose(mb.relative_acceleration("ball", expressed_in="world"),
                               [0, 0, 0, 0.5, 0, -9.81], atol=1e-14)


# ---- a free-floating body conserves its momenta -----------------------------------------------


def test_free_floating_body_conserves_momentum_over_a_run():
    """A torque-free asymmetric body with its CM off the body origin, tumbling without gravity
    for 5 s: L = m v_cm and H about the world origin equal their initial values computed by
    hand, the CM moves on the straight line c + v_cm t, and the kinetic energy stays.

    Tolerances: 1e-9 relative (rkf45 at rtol 1e-12 over 500 hops; the engine's own test sees
    drift below 2e-13)."""
    mass = 3.0
    com = np.array([0.1, -0.2, 0.05])
    inertia = np.array([[0.4, 0.02, -0.01], [0.02, 0.3, 0.03], [-0.01, 0.03, 0.2]])
    w0 = np.array([0.8, -2.5, 1.9])   # ω in M = B at identity attitude
    v0 = np.array([0.3, 0.1, -0.2])   # velocity of Bo
    sim = tight_simulation()
    mb = sim.multibody
    mb.add_body("tumbler", "world", Hinge.full6dof(), SpatialInertia(mass, com, inertia))
    mb.set_body_u("tumbler", np.r_[w0, v0])
    sim.lock()

    v_cm = v0 + np.cross(w0, com)
    L0 = mass * v_cm
    H0 = inertia @ w0 + np.cross(com, L0)
    ke0 = 0.5 * mass * v_cm @ v_cm + 0.5 * w0 @ inertia @ w0
    e = mb.energy_and_momentum()
    np.testing.assert_allclose(e.linear_momentum, L0, rtol=1e-14)
    np.testing.assert_allclose(e.angular_momentum, H0, rtol=1e-14)
    assert e.kinetic_energy == pytest.approx(ke0, rel=1e-14)
    assert e.total_mass == mass
    np.testing.assert_allclose(e.center_of_mass, com)
    # About the CM: the spin part only.
    np.testing.assert_allclose(e.angular_momentum_about(com), inertia @ w0, rtol=1e-14)
    np.testing.assert_allclose(mb.angular_momentum(about=com), inertia @ w0, rtol=1e-14)

    for _ in range(10):
        sim.advance_time_by(0.5)
        e = mb.energy_and_momentum()
        t = sim.time()
        np.testing.assert_allclose(e.linear_momentum, L0, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(e.angular_momentum, H0, rtol=1e-9,
                                   atol=1e-9 * np.linalg.norm(H0))
        assert e.kinetic_energy == pytest.approx(ke0, rel=1e-9)
        np.testing.assert_allclose(e.center_of_mass, com + v_cm * t, atol=1e-9)
    # The body did tumble: its attitude moved far from the identity.
    assert abs(mb.body_q("tumbler")[0]) < 0.99


# ---- building, coordinates and errors ----------------------------------------------------------


def test_structure_coordinates_and_introspection():
    sim, mb = double_pendulum()
    mb.add_node("tip", "lower", RigidTransform.from_translation([0, 0, -1.0]))
    assert mb.body_names() == ["world", "upper", "lower"]
    assert mb.node_names() == ["tip"]
    assert (mb.body_count, mb.node_count, mb.nq, mb.nu) == (3, 1, 2, 2)
    assert mb.body_index("lower") == 2 and mb.parent("lower") == "upper"
    assert mb.node_body("tip") == "lower"
    assert mb.hinge("upper").type == hopsim.HingeType.PIN
    np.testing.assert_allclose(mb.hinge("upper").axes[0], [1, 0, 0])
    np.testing.assert_allclose(mb.inboard_placement("lower").translation, [0, 0, -L1])
    assert mb.outboard_placement("lower").is_approx(RigidTransform(), 0.0)
    assert mb.mass_properties("lower").mass == M2
    assert (mb.q_start("lower"), mb.u_start("lower")) == (1, 1)
    mb.set_body_u("lower", [0.25])
    np.testing.assert_allclose(mb.u, [0.0, 0.25])
    np.testing.assert_allclose(mb.gravity, [0, 0, -G])
    mb.set_joint_limits("lower", 0, -2.0, 2.0)
    assert mb.joint_limits("lower", 0) == (-2.0, 2.0)
    mb.clear_joint_limits("lower", 0)
    assert mb.joint_limits("lower", 0) is None
    assert mb.remove_body("lower") == ["lower"]
    assert mb.node_names() == [] and mb.nu == 1


def test_masked_pin_holds_its_angle_and_reports_the_holding_torque():
    """A masked PIN is not integrated (no MotorModel drives it, so it stays) and the dynamics
    returns the torque its (zero) acceleration needs: the gravity torque m g c sin θ of the held
    link, and the hinge force carrying its weight (closed forms; 1e-12). A free body beside it
    keeps the integration running."""
    sim = hopsim.Simulation(0.01, integrator="rk4")
    mb = sim.multibody
    mb.gravity = [0, 0, -G]
    mb.add_body("held", "world", Hinge.pin([1, 0, 0]), SpatialInertia(2.0, [0, 0, -0.5]))
    mb.add_body("free", "world", Hinge.slider([0, 0, 1]), SpatialInertia(1.0))
    mb.set_body_q("held", [0.6])
    mb.set_masked("held")
    assert mb.prescribed == [True, False]
    sim.lock()
    sim.advance_time_to(0.5)
    assert mb.body_q("held")[0] == 0.6
    assert mb.generalized_forces[0] == pytest.approx(2.0 * G * 0.5 * math.sin(0.6), rel=1e-12)
    # The hinge carries the weight (m g up, seen in M turned by θ) and the holding torque about
    # x; no other moment (the CM is on the body's z axis and nothing moves).
    weight = 2.0 * G
    np.testing.assert_allclose(mb.hinge_forces()["held"],
                               [weight * 0.5 * math.sin(0.6), 0, 0,
                                0, weight * math.sin(0.6), weight * math.cos(0.6)],
                               rtol=1e-12, atol=1e-12)
    # The free slider fell as g t²/2 (rk4 is exact on a quadratic).
    assert mb.body_q("free")[0] == pytest.approx(-0.5 * G * 0.25, rel=1e-12)
    assert mb.udot[1] == pytest.approx(-G, rel=1e-12)


def test_bad_names_raise_not_found_errors_with_suggestions():
    sim, mb = double_pendulum()
    mb.add_node("tip", "lower", RigidTransform.from_translation([0, 0, -1.0]))
    with pytest.raises(hopsim.NotFoundError, match=r"no body named 'lowr' \(did you mean 'lower'"):
        mb.add_body("x", "lowr", Hinge.ball(), SpatialInertia(1.0))
    with pytest.raises(KeyError):  # NotFoundError is also a KeyError
        mb.body_q("uper")
    with pytest.raises(hopsim.NotFoundError, match=r"no node named 'tpi' \(did you mean 'tip'"):
        mb.relative_pose("node:tpi")
    with pytest.raises(hopsim.NotFoundError,
                       match=r"relative_to: no frame 'uppr'.*did you mean 'upper'"):
        mb.relative_velocity("tip", "uppr")
    with pytest.raises(hopsim.NotFoundError, match=r"'nod:tip' \(did you mean 'node:tip'"):
        mb.relative_pose("nod:tip")
    with pytest.raises(hopsim.InputError, match="body index 7 does not exist"):
        mb.mass_properties(7)
    with pytest.raises(hopsim.InputError, match="the world has no hinge"):
        mb.body_q("world")
    mb.add_node("upper", "upper")
    with pytest.raises(hopsim.InputError, match="names both a body and a node"):
        mb.relative_pose("upper")
    assert mb.relative_pose("body:upper").is_approx(RigidTransform(), 1e-15)
    with pytest.raises(hopsim.InputError, match="already exists"):
        mb.add_node("tip", "lower")


def test_bad_shapes_and_types_name_the_argument_and_the_expected_shape():
    sim, mb = double_pendulum()
    with pytest.raises(hopsim.InputError,
                       match=r"Hinge.pin: axis: expected a vector of 3 numbers \(shape \(3,\)\), "
                             r"got an array of shape \(2,\)"):
        Hinge.pin([1, 0])
    with pytest.raises(ValueError, match=r"q: expected a vector of nq = 2 numbers"):
        mb.q = [1.0, 2.0, 3.0]
    with pytest.raises(hopsim.InputError,
                       match=r"inverse_dynamics: udot: expected a vector of nu = 2 .*shape \(3,\)"):
        mb.inverse_dynamics([1.0, 2.0, 3.0])
    with pytest.raises(hopsim.InputError, match=r"mass_matrix: q: .*shape \(2, 1\)"):
        mb.mass_matrix(np.zeros((2, 1)))
    with pytest.raises(hopsim.TypeMismatchError, match=r"set_body_u\('lower'\): expected"):
        mb.set_body_u("lower", ["fast"])
    with pytest.raises(TypeError, match="a body is given by name"):
        mb.body_q(1.5)
    with pytest.raises(hopsim.InputError, match=r"SpatialInertia: inertia: expected a 3x3 matrix"):
        SpatialInertia(1.0, [0, 0, 0], np.eye(2))
    with pytest.raises(hopsim.InputError, match="mass"):
        SpatialInertia(-1.0)
    with pytest.raises(hopsim.InputError, match="not a rotation matrix"):
        RigidTransform(2 * np.eye(3))
    with pytest.raises(hopsim.InputError, match="element 1 is nan"):
        mb.u = [0.0, float("nan")]
    with pytest.raises(hopsim.InputError, match=r"body_forces\['upper'\]: expected a vector of 6"):
        mb.forward_dynamics(body_forces={"upper": [1, 2, 3]})
    with pytest.raises(TypeError, match="expected a RigidTransform"):
        mb.add_node("n", "upper", [0, 0, 1])
    with pytest.raises(hopsim.InputError, match="parallel"):
        Hinge.ujoint([1, 0, 0], [2, 0, 0])
    # A rejected value changes nothing.
    np.testing.assert_allclose(mb.u, [0.0, 0.0])


def test_tree_is_frozen_while_locked_but_mass_and_gravity_are_not():
    sim, mb = double_pendulum()
    sim.lock()
    with pytest.raises(hopsim.ModelError, match="locked"):
        mb.add_body("third", "lower", Hinge.pin([1, 0, 0]), SpatialInertia(1.0))
    mb.gravity = [0, 0, -1.62]
    mb.set_mass_properties("lower", SpatialInertia(2 * M2, [0, 0, -C2]))
    assert mb.mass_properties("lower").mass == 2 * M2
    sim.unlock()
    mb.add_body("third", "lower", Hinge.pin([1, 0, 0]), SpatialInertia(1.0, [0, 0, -0.3]))
    assert mb.nu == 3 and mb.mass_matrix().shape == (3, 3)


def test_the_documented_walk_through_runs(repository_root):
    """docs/multibody.md, "From Python": the snippet runs as written (its own asserts check the
    energy, ½ uᵀ M u and ID(FD) = τ), so the documentation stays true."""
    text = (repository_root / "docs" / "multibody.md").read_text(encoding="utf-8")
    section = text.split("## From Python", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    namespace = {}
    exec(compile(code, "docs/multibody.md (From Python)", "exec"), namespace)  # noqa: S102
    assert namespace["sim"].time() == 2.0


def _cpu_kernels_in_a_process_with(setting):
    """What hopsim.cpu_kernels() gives (or raises) in an interpreter with HOPSIM_CPU_KERNELS set
    to ``setting`` (None: unset)."""
    env = {k: v for k, v in os.environ.items() if k != "HOPSIM_CPU_KERNELS"}
    if setting is not None:
        env["HOPSIM_CPU_KERNELS"] = setting
    script = ("import hopsim\n"
              "try:\n    print(hopsim.cpu_kernels())\n"
              "except hopsim.InputError as e:\n    print('InputError:', e)\n")
    result = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                            text=True, timeout=60, env=env)
    return result.stdout.strip()


def test_cpu_kernels_names_the_variant_the_environment_asks_for():
    # The multibody kernels' compiled variant (docs/performance.md): chosen once per process.
    assert hopsim.cpu_kernels() in ("generic", "x86-64-v3")
    assert _cpu_kernels_in_a_process_with("generic") == "generic"
    assert _cpu_kernels_in_a_process_with("auto") == _cpu_kernels_in_a_process_with(None)
    assert _cpu_kernels_in_a_process_with("avx512") == (
        "InputError: HOPSIM_CPU_KERNELS is 'avx512' (expected auto, generic or x86-64-v3)")
