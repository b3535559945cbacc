"""The standard model library from Python and from a scenario file: a model class created by
name, attached, tied and run, and its declared zero crossings visible as events. Reference: a
rotor spinning into a linear (n = 1, no damping) soft joint stop, whose motion is piecewise
analytic: θ = ω0 t until the stop at θ = upper, then θ = upper + (ω0/ωn) sin(ωn (t - t1)) with
ωn = sqrt(k / J) for half a period, then θ' = -ω0."""

import math

import numpy as np
import pytest

import hopsim
from hopsim import Hinge, SpatialInertia

J, K, OMEGA0, UPPER, LOWER = 0.5, 200.0, 2.0, 0.5, -1.0
OMEGA_N = math.sqrt(K / J)
T_ONSET = UPPER / OMEGA0
T_RELEASE = T_ONSET + math.pi / OMEGA_N


def rotor_angle(t):
    """The analytic angle of the rotor (valid until it would reach the lower stop)."""
    if t <= T_ONSET:
        return OMEGA0 * t
    if t <= T_RELEASE:
        return UPPER + OMEGA0 / OMEGA_N * math.sin(OMEGA_N * (t - T_ONSET))
    return UPPER - OMEGA0 * (t - T_RELEASE)


# rkf45 at rtol 1e-10: the located onset and release are exact to the time tolerance (1e-10 s)
# and the integration error stays below 1e-8 rad over one second.
TOLERANCE = 1e-8


def test_the_soft_joint_stop_declares_its_crossings_and_python_sees_them():
    spec = hopsim.standard_registry().spec("SoftJointStop")
    crossings = spec.crossings()
    assert [(name, direction) for name, direction, _ in crossings] == [
        ("upper", hopsim.CrossingDirection.EITHER), ("lower", hopsim.CrossingDirection.EITHER)]
    assert "upper stop" in crossings[0][2]
    assert "| `upper` | either |" in spec.reference()


def test_a_standard_model_built_from_python_follows_the_analytic_rotor():
    options = hopsim.IntegratorOptions()
    options.relative_tolerance = 1e-10
    options.absolute_tolerance = 1e-12
    sim = hopsim.Simulation(0.01, integrator="rkf45", integrator_options=options)
    mb = sim.multibody
    mb.add_body("rotor", "world", Hinge.pin([0, 0, 1]),
                SpatialInertia(2.0, [0, 0, 0], np.diag([0.3, 0.3, J])))
    mb.set_body_u("rotor", [OMEGA0])
    sim.add_signal("stop_torque", unit="N*m")
    sim.add_model("SoftJointStop", "stop",
                  {"k": K, "alpha": 0.0, "n": 1.0, "lower_bound": LOWER, "upper_bound": UPPER},
                  ties={"torque": "stop_torque"}, body="rotor")
    sim.lock()
    names = [e.name for e in sim.list_events()]
    assert "stop.upper" in names and "stop.lower" in names
    assert sim.find_event("stop.upper").kind == "zero crossing"

    for t in (0.2, T_ONSET + 0.05, T_ONSET + 0.1, T_RELEASE + 0.1, 1.0):
        sim.advance_time_to(t)
        assert mb.body_q("rotor")[0] == pytest.approx(rotor_angle(t), abs=TOLERANCE), t
    assert mb.body_u("rotor")[0] == pytest.approx(-OMEGA0, abs=TOLERANCE)
    assert sim.get("models.stop.discreteStates.contacts") == 1
    with pytest.raises(hopsim.InputError, match="goes with the model"):
        sim.remove_event("stop.upper")


def test_the_rotor_example_scenario_runs_the_same_motion(repository_root):
    scenario = hopsim.load(repository_root / "examples" / "rotor_soft_stop.yaml")
    scenario.run()
    sim = scenario.sim
    assert sim.time() == pytest.approx(1.0)
    assert sim.get("multibody.bodies.rotor.Q") == pytest.approx(rotor_angle(1.0), abs=TOLERANCE)
    assert sim.get("multibody.bodies.rotor.U") == pytest.approx(-OMEGA0, abs=TOLERANCE)
    assert sim.get("models.stop.discreteStates.contacts") == 1
    # The recorded torque is the stop's: zero outside the contact, k δ inside (from the first
    # hop on: the sample at t = 0 precedes the first output update, NaN).
    times = scenario.times()
    torque = scenario.values("signals.stop_torque")
    assert len(times) == 101
    for t, tau in zip(times[1:], torque[1:]):
        expected = -K * max(0.0, rotor_angle(t) - UPPER)
        assert tau == pytest.approx(expected, abs=K * TOLERANCE), t


def test_a_bad_standard_model_param_in_a_scenario_names_the_file_and_the_field(
        repository_root, tmp_path):
    text = (repository_root / "examples" / "rotor_soft_stop.yaml").read_text()
    bad = tmp_path / "bad_stop.yaml"
    bad.write_text(text.replace("k: 200 N*m/rad", "k: -5 N*m/rad"))
    with pytest.raises(hopsim.InputError) as error:
        hopsim.load(bad)
    message = str(error.value)
    assert "bad_stop.yaml:" in message
    assert "models.stop.params.k" in message
    assert "-5" in message
