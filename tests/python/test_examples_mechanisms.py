"""The mechanism examples, loaded and run as they are, each checked against a physical outcome
computed here independently of the engine.

- examples/pendulum.yaml (native scenario): the large-angle period, from the recorded angle's
  zero crossings, against T = 4 sqrt(I_p / (m g d)) K(sin(theta0 / 2)); the energy over the run.
- examples/double_pendulum.yaml (native scenario): the initial angular accelerations against
  the Lagrangian equations written out here; the energy, from the recorded angles and rates with
  the Lagrangian's T and V, over the run.
- examples/fourbar.yaml (MBSE format): the loop closure (the output crank's far end on its
  ground pivot, the coupler's ends on its neighbours' ends, the link lengths), Freudenstein's
  equation between the recorded input and output angles, and the energy.
- examples/slider_crank.yaml (Chrono simulation file): the slider's x against the crank angle,
  x = r cos(theta) + sqrt(l^2 - r^2 sin^2(theta)), at every sample.
"""

import math

import numpy as np
import pytest

import hopsim

from double_pendulum_reference import C1, C2, L1, M1, M2, lagrangian_terms

G = 9.81


def complete_elliptic_k(k):
    """K(k) by the arithmetic-geometric mean: K = pi / (2 AGM(1, sqrt(1 - k^2)))."""
    a, b = 1.0, math.sqrt(1.0 - k * k)
    for _ in range(30):  # quadratic convergence: ~6 steps reach round-off
        a, b = 0.5 * (a + b), math.sqrt(a * b)
    return math.pi / (2.0 * a)


def complete_elliptic_k_quadrature(k):
    """K(k) = int_0^{pi/2} dphi / sqrt(1 - k^2 sin^2 phi) by 80-point Gauss-Legendre."""
    x, w = np.polynomial.legendre.leggauss(80)
    phi = 0.25 * math.pi * (x + 1.0)
    return 0.25 * math.pi * float(np.sum(w / np.sqrt(1.0 - (k * np.sin(phi)) ** 2)))


def zero_crossings(times, q, u):
    """The times where q crosses zero, each found inside its sample interval on the cubic
    Hermite interpolant of q (values q, slopes u = dq/dt) by bisection then Newton: the
    interpolant's error is O(h^4) (~1e-10 rad at h = 10 ms here)."""
    crossings = []
    for i in range(len(times) - 1):
        if q[i] == 0.0 or q[i] * q[i + 1] >= 0.0:
            continue
        t0, h = times[i], times[i + 1] - times[i]
        p0, p1, m0, m1 = q[i], q[i + 1], u[i] * h, u[i + 1] * h

        def hermite(s):
            return ((2 * s**3 - 3 * s**2 + 1) * p0 + (s**3 - 2 * s**2 + s) * m0
                    + (-2 * s**3 + 3 * s**2) * p1 + (s**3 - s**2) * m1)

        lo, hi = 0.0, 1.0
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            if hermite(lo) * hermite(mid) <= 0.0:
                hi = mid
            else:
                lo = mid
        crossings.append(t0 + 0.5 * (lo + hi) * h)
    return np.array(crossings)


# ---- examples/pendulum.yaml -------------------------------------------------------------------

# The numbers of examples/pendulum.yaml.
P_MASS, P_D, P_ICM, P_THETA0 = 1.0, 1.0, 0.01, 2.0


def test_the_pendulum_swings_with_the_exact_large_angle_period(repository_root):
    """The period between zero crossings in the same direction, and the half period between
    successive ones, agree with 4 sqrt(I_p/(m g d)) K(sin(theta0/2)) to 1e-6 relative (the
    measured error is ~2e-12: rkf45 at rtol 1e-12 and the O(h^4) interpolation); the energy
    1/2 I_p u^2 - m g d cos q, from the recorded q and u, holds to 1e-10 relative (measured
    ~1e-12); the angle
    swings between -theta0 and theta0."""
    scenario = hopsim.load(repository_root / "examples" / "pendulum.yaml")
    assert scenario.warnings == []
    scenario.run()
    assert scenario.sim.time() == pytest.approx(10.0)
    times = scenario.times()
    q = scenario.values("multibody.bodies.pendulum.Q")
    u = scenario.values("multibody.bodies.pendulum.U")
    assert len(times) == 1001
    assert q[0] == P_THETA0 and u[0] == 0.0

    pivot_inertia = P_ICM + P_MASS * P_D**2
    k = math.sin(P_THETA0 / 2.0)
    K = complete_elliptic_k(k)
    assert K == pytest.approx(complete_elliptic_k_quadrature(k), rel=1e-14)
    period = 4.0 * math.sqrt(pivot_inertia / (P_MASS * G * P_D)) * K
    small_angle = 2.0 * math.pi * math.sqrt(pivot_inertia / (P_MASS * G * P_D))
    assert period / small_angle == pytest.approx(1.3289, abs=1e-4)  # truly a large angle

    crossings = zero_crossings(times, q, u)
    assert len(crossings) == 7  # 10 s is about 3.7 periods of 2.68 s
    # The first crossing is a quarter period after release (from rest, by symmetry).
    assert crossings[0] == pytest.approx(period / 4.0, rel=1e-6)
    np.testing.assert_allclose(np.diff(crossings), period / 2.0, rtol=1e-6)
    np.testing.assert_allclose(crossings[2:] - crossings[:-2], period, rtol=1e-6)

    energy = 0.5 * pivot_inertia * u**2 - P_MASS * G * P_D * np.cos(q)
    energy0 = -P_MASS * G * P_D * math.cos(P_THETA0)
    assert np.max(np.abs(energy - energy0)) < 1e-10 * abs(energy0)
    assert np.min(q) == pytest.approx(-P_THETA0, abs=1e-4)  # sampled near the turning points
    assert np.max(np.abs(q)) <= P_THETA0 + 1e-9


# ---- examples/double_pendulum.yaml ------------------------------------------------------------

# examples/double_pendulum.yaml has the numbers of double_pendulum_reference.py.
DP_Q0 = np.array([math.pi / 2.0, 0.0])


def double_pendulum_energy(q, u):
    M, _, _ = lagrangian_terms(q, u)
    potential = -G * (M1 * C1 + M2 * L1) * math.cos(q[0]) - M2 * G * C2 * math.cos(q[0] + q[1])
    return 0.5 * u @ M @ u + potential


def test_the_double_pendulum_starts_as_the_lagrangian_says_and_keeps_its_energy(
        repository_root):
    """The initial angular accelerations (forward dynamics at the loaded state) solve the
    Lagrangian's M u' = -C - G to 1e-10 relative (an exact algorithm against a closed form);
    the recorded rates at the first two samples give the same by Richardson extrapolation,
    (4 u(h) - u(2h)) / (2h) = u'(0) + O(h^2), to 1e-3 relative (measured 2e-5); the energy,
    computed here from the recorded angles and rates, stays at its initial value to 1e-8 of
    the potential energy's scale over the 10 s of chaotic motion (measured: ~1e-12)."""
    scenario = hopsim.load(repository_root / "examples" / "double_pendulum.yaml")
    assert scenario.warnings == []
    mb = scenario.sim.multibody
    np.testing.assert_allclose(mb.q, DP_Q0)
    np.testing.assert_allclose(mb.u, [0.0, 0.0])
    M, C, Gq = lagrangian_terms(DP_Q0, np.zeros(2))
    expected = np.linalg.solve(M, -C - Gq)
    np.testing.assert_allclose(mb.forward_dynamics(), expected, rtol=1e-10)
    assert expected[0] < 0.0 < expected[1]  # the upper link falls, the lower one lags

    scenario.run()
    times = scenario.times()
    q = np.column_stack([scenario.values("multibody.bodies.upper.Q"),
                         scenario.values("multibody.bodies.lower.Q")])
    u = np.column_stack([scenario.values("multibody.bodies.upper.U"),
                         scenario.values("multibody.bodies.lower.U")])
    assert len(times) == 1001
    h = times[1] - times[0]
    assert times[2] - times[1] == pytest.approx(h)
    np.testing.assert_allclose((4.0 * u[1] - u[2]) / (2.0 * h), expected, rtol=1e-3)

    # Released with the upper link horizontal, the energy is 0 J: the tolerance is relative to
    # the potential energy's scale, g (m1 c1 + m2 (l1 + c2)) = 31 J.
    energy0 = double_pendulum_energy(DP_Q0, np.zeros(2))
    assert energy0 == pytest.approx(0.0, abs=1e-13)
    scale = G * (M1 * C1 + M2 * (L1 + C2))
    energies = np.array([double_pendulum_energy(qi, ui) for qi, ui in zip(q, u)])
    assert np.max(np.abs(energies - energy0)) < 1e-8 * scale
    # It does move a lot: the lower link turns well past the horizontal relative to the upper.
    assert np.max(np.abs(q[:, 1])) > 2.0


# ---- examples/fourbar.yaml --------------------------------------------------------------------

# The numbers of examples/fourbar.yaml: A = point 0 and B = point 3 are the ground pivots; the
# links (input crank a, coupler b, output crank c) are uniform rods of these masses.
FB_A, FB_B = np.array([0.0, 0.0]), np.array([4.0, 0.0])
FB_LENGTHS = [1.0, 2.0, math.sqrt(13.0)]
FB_MASSES = [1.0, 2.0, 4.0]


def planar_angle(scenario, body):
    """The body frame's turn about z from its orientation quaternion (a rotation about z only:
    e1 = e2 = 0)."""
    e0 = scenario.values(f"bodies.{body}.orientation.e0")
    e3 = scenario.values(f"bodies.{body}.orientation.e3")
    return 2.0 * np.arctan2(e3, e0)


def test_the_fourbar_closes_its_loop_follows_freudenstein_and_keeps_its_energy(
        repository_root):
    """From the recorded body frames (origin at each link's first point, x along the link):
    each link's far end is where the next link starts and the output crank's far end is on B
    (loop closure) to 1e-9 m (measured ~1e-12 m); the recorded points are the links' ends to
    1e-12 m; the recorded input and output angles satisfy Freudenstein's equation
    K1 cos(t4) - K2 cos(t2) + K3 = cos(t2 - t4), K1 = d/a, K2 = d/c,
    K3 = (a^2 - b^2 + c^2 + d^2) / (2 a c), to 1e-9 (measured ~3e-13); the energy of the three
    rods (1/2 m v_G^2 + 1/2 m l^2/12 w^2 + m g y_G, g = 9.81 along -y) holds to 1e-6 of the
    potential energy's swing (rk4 at 1 ms with the loop constraint projected: measured 7e-11
    of a 47 J swing over 4 s)."""
    scenario = hopsim.load(repository_root / "examples" / "fourbar.yaml", ["simulation.end_time=4"])
    assert scenario.warnings == []  # the end time is given
    scenario.run()
    times = scenario.times()
    assert times[-1] == pytest.approx(4.0)
    bodies = ["body0", "body1", "body2"]
    origin = {b: np.column_stack([scenario.values(f"bodies.{b}.position.x"),
                                  scenario.values(f"bodies.{b}.position.y")]) for b in bodies}
    angle = {b: planar_angle(scenario, b) for b in bodies}
    far_end = {b: origin[b] + length * np.column_stack([np.cos(angle[b]), np.sin(angle[b])])
               for b, length in zip(bodies, FB_LENGTHS)}
    points = {i: np.column_stack([scenario.values(f"points.{i}.position.x"),
                                  scenario.values(f"points.{i}.position.y")]) for i in range(4)}

    # Loop closure: A - body0 - point 1 - body1 - point 2 - body2 - B.
    np.testing.assert_allclose(origin["body0"], np.tile(FB_A, (len(times), 1)), atol=1e-12)
    np.testing.assert_allclose(far_end["body0"], origin["body1"], atol=1e-9)
    np.testing.assert_allclose(far_end["body1"], origin["body2"], atol=1e-9)
    np.testing.assert_allclose(far_end["body2"], np.tile(FB_B, (len(times), 1)), atol=1e-9)
    np.testing.assert_allclose(points[1], origin["body1"], atol=1e-12)
    np.testing.assert_allclose(points[2], origin["body2"], atol=1e-12)
    np.testing.assert_allclose(points[3], np.tile(FB_B, (len(times), 1)), atol=1e-12)
    for (i, j), length in zip([(0, 1), (1, 2), (2, 3)], FB_LENGTHS):
        np.testing.assert_allclose(np.linalg.norm(points[j] - points[i], axis=1), length,
                                   rtol=1e-9)

    # Freudenstein's equation, with the recorded relative coordinates as the angles.
    t2 = scenario.values("relative_coordinates.0.angle")
    t4 = scenario.values("relative_coordinates.1.angle")
    a, b, c = FB_LENGTHS
    d = float(np.linalg.norm(FB_B - FB_A))
    # The recorded angles are unwrapped: compare them with the points' directions modulo 2 pi.
    for angles, start, end in ((t2, FB_A, points[1]), (t4, FB_B, points[2])):
        direction = np.arctan2(end[:, 1] - start[1], end[:, 0] - start[0])
        np.testing.assert_allclose(np.angle(np.exp(1j * (angles - direction))), 0.0, atol=1e-9)
    k1, k2, k3 = d / a, d / c, (a * a - b * b + c * c + d * d) / (2.0 * a * c)
    residual = k1 * np.cos(t4) - k2 * np.cos(t2) + k3 - np.cos(t2 - t4)
    assert np.max(np.abs(residual)) < 1e-9
    assert np.ptp(t2) > 1.0  # the input crank swings through more than a radian

    # Energy.
    kinetic = np.zeros(len(times))
    potential = np.zeros(len(times))
    for body, length, mass in zip(bodies, FB_LENGTHS, FB_MASSES):
        v_o = np.column_stack([scenario.values(f"bodies.{body}.velocity.x"),
                               scenario.values(f"bodies.{body}.velocity.y")])
        w = scenario.values(f"bodies.{body}.angular_velocity.z")
        r = 0.5 * length * np.column_stack([np.cos(angle[body]), np.sin(angle[body])])
        v_g = v_o + w[:, None] * np.column_stack([-r[:, 1], r[:, 0]])  # v_O + w x r
        kinetic += 0.5 * mass * np.sum(v_g**2, axis=1) + 0.5 * mass * length**2 / 12.0 * w**2
        potential += mass * G * (origin[body][:, 1] + r[:, 1])
    energy = kinetic + potential
    swing = np.ptp(potential)
    assert swing > 10.0  # joules: it really falls
    assert np.max(np.abs(energy - energy[0])) < 1e-6 * swing


# ---- examples/slider_crank.yaml ---------------------------------------------------------------

SC_R, SC_L = 2.0, 4.0  # crank radius and rod length of examples/slider_crank_model.yaml


def rotation_from_quaternion(e0, e1, e2, e3):
    """R_WB of a unit quaternion, scalar first (written out)."""
    return np.array([
        [1 - 2 * (e2 * e2 + e3 * e3), 2 * (e1 * e2 - e0 * e3), 2 * (e1 * e3 + e0 * e2)],
        [2 * (e1 * e2 + e0 * e3), 1 - 2 * (e1 * e1 + e3 * e3), 2 * (e2 * e3 - e0 * e1)],
        [2 * (e1 * e3 - e0 * e2), 2 * (e2 * e3 + e0 * e1), 1 - 2 * (e1 * e1 + e2 * e2)],
    ])


def test_the_slider_crank_slider_follows_the_crank_angle(repository_root):
    """The crank pin, from the crank's recorded pose (its frame starts at (-1, 0, 0), the pin at
    (-1, 0, 0) in the frame), stays on the circle of radius r in the xz plane (1e-9 m); the
    crank angle theta = atan2(z, x) of the pin gives the slider's x = r cos(theta) +
    sqrt(l^2 - r^2 sin^2(theta)) to 1e-9 m at every 50 ms sample over the 16 s (measured:
    ~1e-12); the slider stays on its guide (y = z = 0, no rotation); the motor's angle follows
    the speed profile (4 x 3.14 rad turned by t = 5 s, back to 0 at 16 s)."""
    scenario = hopsim.load(repository_root / "examples" / "slider_crank.yaml")
    assert scenario.warnings == []
    scenario.run()
    times = scenario.times()
    assert times[-1] == pytest.approx(16.0)
    assert len(times) == 321  # 20 fps

    crank_origin = np.column_stack([scenario.values(f"bodies.crank.position.{c}")
                                    for c in "xyz"])
    quaternions = np.column_stack([scenario.values(f"bodies.crank.orientation.e{i}")
                                   for i in range(4)])
    pins = np.array([o + rotation_from_quaternion(*e) @ [-1.0, 0.0, 0.0]
                     for o, e in zip(crank_origin, quaternions)])
    np.testing.assert_allclose(np.linalg.norm(pins, axis=1), SC_R, rtol=1e-9)
    np.testing.assert_allclose(pins[:, 1], 0.0, atol=1e-9)
    theta = np.arctan2(pins[:, 2], pins[:, 0])

    x = scenario.values("bodies.slider.position.x")
    expected = SC_R * np.cos(theta) + np.sqrt(SC_L**2 - SC_R**2 * np.sin(theta) ** 2)
    np.testing.assert_allclose(x, expected, atol=1e-9)
    assert np.min(x) == pytest.approx(SC_L - SC_R, abs=1e-3)  # both dead centres are reached
    assert np.max(x) == pytest.approx(SC_L + SC_R, abs=1e-3)
    for column in ("bodies.slider.position.y", "bodies.slider.position.z"):
        np.testing.assert_allclose(scenario.values(column), 0.0, atol=1e-9)
    np.testing.assert_allclose(scenario.values("bodies.slider.orientation.e0"), 1.0, atol=1e-9)
    # The rod keeps its length between the pin and the slider.
    slider = np.column_stack([x, scenario.values("bodies.slider.position.y"),
                              scenario.values("bodies.slider.position.z")])
    np.testing.assert_allclose(np.linalg.norm(slider - pins, axis=1), SC_L, rtol=1e-9)

    motor = scenario.values("motors.ground_crank.q[0]")
    assert abs(motor[times.searchsorted(5.0)]) == pytest.approx(4 * 3.14, rel=1e-9)
    assert motor[-1] == pytest.approx(0.0, abs=1e-9)
