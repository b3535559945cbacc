"""Simulation.linearize and Simulation.trim from Python, against references: the mass-spring-
damper and a DC motor exactly, the double pendulum away from equilibrium against the Jacobian of
its Lagrangian equations by sympy, the lander's hover throttle against the thrust law; numpy
arrays, scipy.signal.StateSpace, and the command line's .npz, CSV and JSON files."""

import json
import math
import pathlib
import subprocess

import numpy as np
import pytest

import hopsim
from double_pendulum_reference import lagrangian_terms


@pytest.fixture
def hopsim_program():
    """The hopsim program of the build tree the package comes from (<build>/python/hopsim ->
    <build>/apps/hopsim)."""
    program = pathlib.Path(hopsim.__file__).resolve().parents[2] / "apps" / "hopsim"
    if not program.exists():
        pytest.skip(f"the hopsim program is not beside the package: {program} does not exist")
    return program


def msd(m=2.0, k=8.0, c=0.6):
    sim = hopsim.Simulation(0.01)
    sim.add_model("MassSpringDamper", "msd", {"m": m, "k": k, "c": c})
    for signal in ("F", "x", "v"):
        sim.add_signal(signal)
        sim.tie("msd", signal, signal)
    sim.lock()
    sim.set("signals.F", 0.5)
    sim.set("models.msd.continuousStates.x", 0.1)
    return sim


def test_the_mass_spring_damper_is_exact_and_converts_to_scipy():
    m, k, c = 2.0, 8.0, 0.6
    sim = msd(m, k, c)
    lin = sim.linearize(inputs=["signals.F"], outputs=["signals.x", "signals.v"])
    np.testing.assert_allclose(lin.A, [[0, 1], [-k / m, -c / m]], rtol=0, atol=1e-9)
    np.testing.assert_allclose(lin.B, [[0], [1 / m]], rtol=0, atol=1e-9)
    np.testing.assert_allclose(lin.C, np.eye(2), rtol=0, atol=1e-9)
    np.testing.assert_allclose(lin.D, [[0], [0]], rtol=0, atol=1e-12)
    assert lin.state_names == ["models.msd.continuousStates.x", "models.msd.continuousStates.v"]
    assert lin.state_units == ["m", "m/s"]
    assert lin.input_units == [""] or lin.input_units == ["N"]
    assert lin.scheme == "richardson"
    assert lin.x0.tolist() == [0.1, 0.0]
    system = lin.to_scipy()
    np.testing.assert_allclose(system.A, lin.A)
    # Sampled at the I/O step: a discrete StateSpace with the step as dt.
    sampled = sim.linearize(inputs=["signals.F"], outputs=["signals.x"], discrete="sampled")
    assert sampled.discrete and sampled.to_scipy().dt == 0.01
    scipy_linalg = pytest.importorskip("scipy.linalg")
    np.testing.assert_allclose(sampled.A, scipy_linalg.expm(lin.A * 0.01), rtol=1e-12)


def test_a_dc_motor_on_a_pin_is_exact():
    # J θ'' = N (K_t i - b N θ'), i = (V - K_t N θ') / R: A = [0 1; 0 -N² (K_t²/R + b) / J],
    # B = [0; N K_t / (R J)].
    J, kt, r, b, n = 0.05, 0.08, 1.5, 1e-3, 4.0
    sim = hopsim.Simulation(0.01)
    sim.multibody.add_body("shaft", "world", hopsim.Hinge.pin([0, 0, 1]),
                           hopsim.SpatialInertia(1.0, [0, 0, 0], np.diag([1.0, 1.0, J])))
    for signal in ("V", "i", "tau", "P"):
        sim.add_signal(signal)
    sim.add_model("DCMotorVin", "motor", {"K_t": kt, "R": r, "damping": b, "gear_ratio": n},
                  ties={"voltage": "V", "current": "i", "torque": "tau", "power": "P"},
                  body="shaft")
    sim.lock()
    sim.set("signals.V", 2.0)
    sim.multibody.set_body_u("shaft", [3.0])
    lin = sim.linearize(inputs=["signals.V"])
    np.testing.assert_allclose(lin.A, [[0, 1], [0, -n * n * (kt * kt / r + b) / J]], atol=1e-9)
    np.testing.assert_allclose(lin.B, [[0], [n * kt / (r * J)]], atol=1e-9)


def test_the_double_pendulum_away_from_rest_matches_sympys_jacobian(repository_root):
    sympy = pytest.importorskip("sympy")
    scenario = hopsim.load(repository_root / "examples" / "double_pendulum.yaml")
    sim = scenario.sim
    sim.advance_time_to(0.3)  # moving, far from rest
    q = np.array([sim.multibody.body_q("upper")[0], sim.multibody.body_q("lower")[0]])
    u = np.array([sim.multibody.body_u("upper")[0], sim.multibody.body_u("lower")[0]])
    lin = sim.linearize()
    # The reference: u' = M(q)^-1 (-C(q, u) - G(q)) from double_pendulum_reference's formulas,
    # differentiated symbolically.
    t1, t2, d1, d2 = sympy.symbols("t1 t2 d1 d2")
    import double_pendulum_reference as ref
    m11 = ref.I1 + ref.M1 * ref.C1**2 + ref.I2 + ref.M2 * (
        ref.L1**2 + ref.C2**2 + 2 * ref.L1 * ref.C2 * sympy.cos(t2))
    m12 = ref.I2 + ref.M2 * (ref.C2**2 + ref.L1 * ref.C2 * sympy.cos(t2))
    m22 = ref.I2 + ref.M2 * ref.C2**2
    h = ref.M2 * ref.L1 * ref.C2 * sympy.sin(t2)
    coriolis = sympy.Matrix([-h * (2 * d1 * d2 + d2 * d2), h * d1 * d1])
    gravity = sympy.Matrix([
        ref.G * (ref.M1 * ref.C1 + ref.M2 * ref.L1) * sympy.sin(t1)
        + ref.M2 * ref.G * ref.C2 * sympy.sin(t1 + t2),
        ref.M2 * ref.G * ref.C2 * sympy.sin(t1 + t2)])
    accel = sympy.Matrix([[m11, m12], [m12, m22]]).inv() * (-coriolis - gravity)
    jac = accel.jacobian([t1, t2, d1, d2])
    values = {t1: q[0], t2: q[1], d1: u[0], d2: u[1]}
    reference = np.array(jac.subs(values).evalf(), dtype=float)
    # The check of the reference itself: its accelerations are the simulation's.
    mass, cor, grav = lagrangian_terms(q, u)
    # X is [Q_upper, U_upper, Q_lower, U_lower]: rows U_upper, U_lower; columns q1, q2, u1, u2.
    rows = [1, 3]
    columns = [0, 2, 1, 3]
    np.testing.assert_allclose(lin.xdot0[rows], np.linalg.solve(mass, -cor - grav), rtol=1e-9)
    np.testing.assert_allclose(lin.A[np.ix_(rows, columns)], reference, rtol=1e-7, atol=1e-8)


def test_the_lander_hovers_at_the_throttle_that_balances_lunar_gravity(repository_root):
    scenario = hopsim.load(repository_root / "examples" / "lander.yaml")
    sim = scenario.sim
    sim.advance_time_to(0.1)
    trim = sim.trim(free_inputs=["signals.throttle"],
                    zero_rates=["multibody.bodies.lander.U[5]"])
    # The tank's mass properties at this state: the CM 0.5 m above the feet; the thrust is
    # 1000 N + throttle (5000 - 1000) N along the upright body's z.
    inertia = sim.multibody.mass_properties("lander")
    mass = inertia.mass
    height = sim.multibody.body_q("lander")[6] + inertia.com[2]
    weight = mass * 4.9048695e12 / (1737.4e3 + height) ** 2
    assert trim.inputs[0] == pytest.approx((weight - 1000.0) / 4000.0, rel=1e-8)
    assert sim.get("signals.throttle") == trim.inputs[0]
    assert abs(trim.residual[0]) <= 1e-10


def test_linearize_and_trim_report_bad_requests():
    sim = msd()
    with pytest.raises(hopsim.InputError, match="matches no numeric variable"):
        sim.linearize(inputs=["signals.G"])
    with pytest.raises(hopsim.InputError, match="unknown difference scheme 'fast'"):
        sim.linearize(scheme="fast")
    with pytest.raises(hopsim.InputError, match="expected 'hold' or 'sampled'"):
        sim.linearize(discrete="zoh")
    sim.set("models.msd.continuousStates.v", 1.0)
    # x' = v whatever F is: no force brings both rates to zero with x held.
    with pytest.raises(hopsim.NumericalError, match="does not decrease"):
        sim.trim(free_inputs=["signals.F"])
    assert sim.get("signals.F") == 0.5


@pytest.mark.parametrize("extension", ["npz", "csv", "json"])
def test_the_command_line_writes_the_model(repository_root, hopsim_program, tmp_path, extension):
    out = tmp_path / ("pendulum." + extension)
    result = subprocess.run(
        [hopsim_program, "linearize", str(repository_root / "examples" / "pendulum.yaml"),
         "--at", "0.5", "--outputs", "multibody.bodies.pendulum.Q", "-o", str(out)],
        capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "wrote" in result.stdout and "2 states, 0 inputs, 1 outputs" in result.stdout
    scenario = hopsim.load(repository_root / "examples" / "pendulum.yaml")
    scenario.sim.advance_time_to(0.5)
    expected = scenario.sim.linearize(outputs=["multibody.bodies.pendulum.Q"])
    if extension == "npz":
        data = np.load(out)
        np.testing.assert_array_equal(data["A"], expected.A)
        np.testing.assert_array_equal(data["C"], expected.C)
        assert list(data["state_names"]) == expected.state_names
        assert str(data["scheme"][0]) == "richardson"
    elif extension == "json":
        data = json.loads(out.read_text())
        np.testing.assert_array_equal(np.array(data["A"]), expected.A)
        assert data["output_names"] == ["multibody.bodies.pendulum.Q"]
    else:
        lines = out.read_text().splitlines()
        assert lines[0] == "array,row,column,value"
        entry = ("A,multibody.bodies.pendulum.U[0],multibody.bodies.pendulum.Q[0],")
        value = [line for line in lines if line.startswith(entry)][0].split(",")[-1]
        assert float(value) == expected.A[1, 0]
    # The pendulum's own small-angle physics there: θ'' = -m g d cos θ / I_p δθ.
    q = scenario.sim.multibody.body_q("pendulum")[0]
    assert expected.A[1, 0] == pytest.approx(-9.81 * math.cos(q) / 1.01, rel=1e-8)


def test_the_command_line_refuses_an_unknown_output_format(hopsim_program, repository_root):
    result = subprocess.run(
        [hopsim_program, "linearize", str(repository_root / "examples" / "pendulum.yaml"),
         "-o", "model.mat"], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert "expected FILE.npz, FILE.csv or FILE.json" in result.stderr
