"""The example scenarios of the standard model library, examples/lander.yaml and
examples/spacecraft_wheels.yaml, loaded and run as they are, each checked against a computation
written here independently of the engine.

- The lunar lander (PointMassGravity, ThrottledThruster, FuelTank, a touchdown zero crossing):
  its touchdown time and speed, and its recorded altitude and vertical speed, against a 1-D
  radial RK4 integration of the same equations in plain Python; its mass against the constant
  mass flow F / (Isp g0), and vehicle mass + fuel burned against the initial mass.
- The spacecraft with three LuGre reaction wheels: the total angular and linear momentum,
  computed here from the hinge coordinates and rates with the kinematics written out, stay at
  their initial values; the bus's spin changes opposite to the momentum the wheels gain.
"""

import math
import pathlib

import numpy as np
import pytest

import hopsim

# ---- the lunar lander --------------------------------------------------------------------------

# The numbers of examples/lander.yaml.
MU, MOON_RADIUS, G0 = 4.9048695e12, 1737.4e3, 9.80665
DRY_MASS, FUEL, CM_HEIGHT = 1000.0, 20.0, 0.5
MIN_LEVEL, MAX_LEVEL, THROTTLE, ISP = 1000.0, 5000.0, 0.45, 300.0
H0, V0 = 600.0, -25.0
THRUST = MIN_LEVEL + THROTTLE * (MAX_LEVEL - MIN_LEVEL)
MDOT = THRUST / (ISP * G0)
BURNOUT = FUEL / MDOT  # 21.014 s


def lander_derivative(t, z, v, burning):
    """z is the feet's altitude, so the CM is at r = R + z + the CM height from the Moon's
    centre; the thrust acts along the local vertical through the CM while the fuel lasts, on
    the mass m0 - mdot t."""
    r = MOON_RADIUS + z + CM_HEIGHT
    a = -MU / (r * r)
    if burning:
        a += THRUST / (DRY_MASS + FUEL - MDOT * t)
    return v, a


def rk4_step(t, z, v, h, burning):
    k1z, k1v = lander_derivative(t, z, v, burning)
    k2z, k2v = lander_derivative(t + h / 2, z + h / 2 * k1z, v + h / 2 * k1v, burning)
    k3z, k3v = lander_derivative(t + h / 2, z + h / 2 * k2z, v + h / 2 * k2v, burning)
    k4z, k4v = lander_derivative(t + h, z + h * k3z, v + h * k3v, burning)
    return (z + h / 6 * (k1z + 2 * k2z + 2 * k3z + k4z),
            v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v))


def reference_lander(sample_times, h=1e-3):
    """RK4 with steps of at most h between consecutive break points (the sample times and the
    burnout, so the thrust switch falls on a step boundary): the altitude and vertical speed at
    each sample time before touchdown, and the touchdown time and speed, touchdown being solved
    within its step by secant iteration on the step length. The global error is ~1e-11 (the
    results at h = 4e-3, 2e-3 and 1e-3 agree to ~1e-12 relative)."""
    t, z, v = 0.0, H0, V0
    samples = {}
    for target in sorted(set(float(s) for s in sample_times) | {BURNOUT}):
        if target > t:
            burning = target <= BURNOUT
            n = math.ceil((target - t) / h)
            dt = (target - t) / n
            for i in range(n):
                z, v = rk4_step(t + i * dt, z, v, dt, burning)
            t = target
            assert z > 0.0, "these samples all precede touchdown"
        samples[target] = (z, v)
    assert t >= BURNOUT
    # Free fall to the ground.
    while rk4_step(t, z, v, h, False)[0] > 0.0:
        z, v = rk4_step(t, z, v, h, False)
        t += h
    a, ga = 0.0, z
    b, gb = h, rk4_step(t, z, v, h, False)[0]
    for _ in range(60):
        if gb == ga or abs(b - a) < 1e-15:
            break
        a, ga, b = b, gb, b - gb * (b - a) / (gb - ga)
        gb = rk4_step(t, z, v, b, False)[0]
    touchdown_speed = -rk4_step(t, z, v, b, False)[1]
    return samples, t + b, touchdown_speed


EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def lander():
    """examples/lander.yaml, run to its touchdown event (once for the tests below)."""
    scenario = hopsim.load(EXAMPLES / "lander.yaml")
    scenario.run()
    return scenario


def test_the_lander_touches_down_when_and_as_fast_as_the_1d_equations_predict(lander):
    sim = lander.sim
    times = lander.times()
    samples, touchdown_time, touchdown_speed = reference_lander(times)
    # The touchdown event stopped the run at the crossing (end_time is 60 s), with the feet at
    # the ground, upright and not turning.
    q = sim.get("multibody.bodies.lander.Q")
    u = sim.get("multibody.bodies.lander.U")
    print(f"touchdown at t = {sim.time():.12g} s, {-u[5]:.12g} m/s; 1-D reference "
          f"{touchdown_time:.12g} s, {touchdown_speed:.12g} m/s")
    assert sim.time() == pytest.approx(touchdown_time, rel=1e-6)
    assert -u[5] == pytest.approx(touchdown_speed, rel=1e-6)
    assert abs(q[6]) < 1e-6
    np.testing.assert_allclose(q[:6], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(u[:5], 0.0, atol=1e-12)
    # The tank burned out on the way down (at ~21 s, ~326 m up), before touchdown at ~40.5 s.
    assert sim.get("models.tank.discreteStates.empty")
    assert BURNOUT < touchdown_time - 10.0

    # Every recorded sample (t = 0 to 40.5 s, every 0.1 s) follows the 1-D motion.
    assert len(times) == 406 and times[-1] == pytest.approx(40.5)
    altitude = lander.values("altitude")
    speed = lander.values("vertical_speed")
    for t, z, v in zip(times, altitude, speed):
        z_ref, v_ref = samples[float(t)]
        assert z == pytest.approx(z_ref, rel=1e-6, abs=1e-6), t
        assert v == pytest.approx(v_ref, rel=1e-6, abs=1e-6), t


def test_the_lander_mass_follows_the_flow_and_is_conserved(lander):
    sim = lander.sim
    times = lander.times()
    mass = lander.values("mass")
    fuel_used = lander.values("signals.fuel_used")
    initial = DRY_MASS + FUEL
    # The mass falls at the constant F / (Isp g0) until burnout, then stays at the dry mass.
    for t, m in zip(times, mass):
        assert m == pytest.approx(max(DRY_MASS, initial - MDOT * t), rel=1e-9), t
    # Vehicle mass + fuel burned by the engine = the initial mass, at every sample and at the
    # end, where the body's own mass is read from the multibody system.
    np.testing.assert_allclose(mass + fuel_used, initial, rtol=1e-9)
    body_mass = sim.multibody.energy_and_momentum().total_mass
    burned = sim.get("models.engine.continuousStates.fuel_used")
    print(f"final mass {body_mass!r} kg + fuel burned {burned!r} kg = {body_mass + burned!r} kg")
    assert body_mass + burned == pytest.approx(initial, rel=1e-9)
    assert body_mass == DRY_MASS


# ---- the spacecraft with reaction wheels -------------------------------------------------------

# The numbers of examples/spacecraft_wheels.yaml.
BUS_MASS, WHEEL_MASS = 60.0, 1.5
BUS_CM = np.array([0.04, -0.03, 0.06])
BUS_INERTIA = np.array([[8.0, 0.3, -0.2], [0.3, 10.0, 0.4], [-0.2, 0.4, 7.0]])
WHEELS = ["wheel_x", "wheel_y", "wheel_z"]
AXES = np.eye(3)
MOUNTS = np.array([[0.35, 0.05, 0.0], [-0.05, 0.3, 0.1], [0.1, -0.1, 0.4]])
WHEEL_SPIN_INERTIA = 0.03
RATES0 = [12.0, 0.3, -20.0]


def wheel_inertia(axis):
    """About the wheel's centre: 0.03 kg m^2 about its axis, 0.018 across."""
    return 0.018 * np.eye(3) + 0.012 * np.outer(axis, axis)


def rotation_from_quaternion(q):
    w, x, y, z = np.asarray(q) / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def rotation_about(axis, angle):
    k = np.array([[0.0, -axis[2], axis[1]], [axis[2], 0.0, -axis[0]], [-axis[1], axis[0], 0.0]])
    return np.eye(3) + math.sin(angle) * k + (1.0 - math.cos(angle)) * k @ k


def spacecraft_momentum(sim):
    """From the hinge coordinates and rates alone (the bus's FULL6DOF Q = [q_WB; p] and
    U = [ω; v] in bus axes, the wheels' pin angles and rates): the linear momentum, the
    angular momentum about the system CM (world axes), the system CM, the wheels' spin momentum
    relative to the bus (world axes) and the bus's angular velocity (world axes)."""
    mb = sim.multibody
    q, u = mb.body_q("bus"), mb.body_u("bus")
    R = rotation_from_quaternion(q[:4])
    p, omega, v = q[4:], u[:3], u[3:]
    # (mass, CM position, CM velocity, spin momentum about the CM), world axes
    parts = [(BUS_MASS, p + R @ BUS_CM, R @ (v + np.cross(omega, BUS_CM)),
              R @ BUS_INERTIA @ omega)]
    relative = np.zeros(3)
    for name, axis, mount in zip(WHEELS, AXES, MOUNTS):
        angle, rate = mb.body_q(name)[0], mb.body_u(name)[0]
        Rw = R @ rotation_about(axis, angle)
        omega_wheel = R @ (omega + rate * axis)
        parts.append((WHEEL_MASS, p + R @ mount, R @ (v + np.cross(omega, mount)),
                      Rw @ wheel_inertia(axis) @ Rw.T @ omega_wheel))
        relative += R @ (WHEEL_SPIN_INERTIA * rate * axis)
    mass = sum(part[0] for part in parts)
    cm = sum(part[0] * part[1] for part in parts) / mass
    v_cm = sum(part[0] * part[2] for part in parts) / mass
    angular = sum(part[3] + part[0] * np.cross(part[1] - cm, part[2] - v_cm) for part in parts)
    return mass * v_cm, angular, cm, relative, R @ omega


def test_the_spacecraft_wheels_conserve_total_momentum_and_turn_the_bus():
    scenario = hopsim.load(EXAMPLES / "spacecraft_wheels.yaml")
    sim = scenario.sim
    mb = sim.multibody
    L0, H0, cm0, relative0, omega0 = spacecraft_momentum(sim)
    # The kinematics written here agree with the engine's own momentum at the start.
    e = mb.energy_and_momentum()
    np.testing.assert_allclose(e.linear_momentum, L0, rtol=1e-13)
    np.testing.assert_allclose(e.center_of_mass, cm0, rtol=1e-13)
    np.testing.assert_allclose(e.angular_momentum_about(cm0), H0, rtol=1e-13)

    worst_angular = worst_linear = 0.0
    for k in range(1, 31):
        sim.advance_time_to(0.1 * k)
        L, H, _, _, _ = spacecraft_momentum(sim)
        worst_angular = max(worst_angular, np.linalg.norm(H - H0) / np.linalg.norm(H0))
        worst_linear = max(worst_linear, np.linalg.norm(L - L0) / np.linalg.norm(L0))
    # The scenario's whole run was the 3 s.
    assert sim.time() == pytest.approx(scenario.end_time)
    L, H, cm, relative, omega = spacecraft_momentum(sim)
    e = mb.energy_and_momentum()
    np.testing.assert_allclose(e.angular_momentum_about(cm), H, rtol=1e-12,
                               atol=1e-13 * np.linalg.norm(H))
    gained = relative - relative0
    turn = omega - omega0
    cosine = gained @ turn / (np.linalg.norm(gained) * np.linalg.norm(turn))
    rates = [mb.body_u(name)[0] for name in WHEELS]
    print(f"relative drift over 3 s: angular {worst_angular:.3g}, linear {worst_linear:.3g}; "
          f"the wheels gained {np.linalg.norm(gained) / np.linalg.norm(H0):.3g} of |H|; "
          f"cos(bus spin change, wheel momentum gained) = {cosine:.6f}; wheel rates {rates}")
    assert worst_angular < 1e-9
    assert worst_linear < 1e-9

    # The wheels did trade momentum with the bus (~20% of |H|, 1e8 times the bound above):
    # wheel_x spun up, wheel_z spun up the other way, wheel_y was driven through zero speed.
    assert np.linalg.norm(gained) > 0.05 * np.linalg.norm(H0)
    assert rates[0] > RATES0[0] + 2.0
    assert rates[2] < RATES0[2] - 1.0
    assert rates[1] * RATES0[1] < 0.0
    # The bus spins opposite to the wheels: its angular velocity changed against the
    # momentum the wheels gained (world axes; not exactly antiparallel, as the bus's inertia
    # is not isotropic and it tumbles).
    assert cosine < -0.99
