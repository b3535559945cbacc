"""State machines from Python (docs/state-machines.md): the same machine from a scenario's
`state_machines:` section and from Simulation.add_state_machine gives the same run bit for bit;
the machine state is recorded and checkpointed; Python actions run; errors are clear. Reference:
the analytic fall x = 10 - g t^2 / 2 of a unit mass under -9.81 N."""

import math
import pathlib
import struct

import numpy as np
import pytest

import hopsim
from conftest import python_blocks

G = 9.81
FALL = """hopsim: 1
simulation: {end_time: 5, io_step: 0.1, integrator: rk4}
signals:
  pos: {unit: m}
  vel: {unit: m/s}
  force: {unit: N, value: -9.81}
models:
  ball:
    class: MassSpringDamper
    params: {k: 0}
    ties: {x: pos, v: vel, F: force}
logging:
  rate: 100 Hz
  variables: [models.descent.discreteStates.state, models.ball.continuousStates.x]
"""
MACHINE = """state_machines:
  descent:
    states:
      coast:
      braking:
        entry: [{set: {signals.force: 0}}]
      landed:
        entry: [stop]
    transitions:
      - {from: coast, to: braking, when: {variable: models.ball.continuousStates.x, value: 4, direction: falling}}
      - {from: braking, to: landed, after: 0.5}
"""
X = "models.ball.continuousStates.x"


def bits(value):
    return struct.pack("<d", value) if isinstance(value, float) else value


def add_descent(sim):
    return sim.add_state_machine(
        "descent",
        [hopsim.MachineState("coast"),
         hopsim.MachineState("braking", entry=[hopsim.MachineAction.set_value("signals.force", 0.0)]),
         hopsim.MachineState("landed", entry=[hopsim.MachineAction.stop_run()])],
        [hopsim.MachineTransition("coast", "braking",
                                  hopsim.MachineGuard.crossing(X, 4.0,
                                                               hopsim.CrossingDirection.FALLING)),
         hopsim.MachineTransition("braking", "landed", hopsim.MachineGuard.time_in_state(0.5))])


def test_yaml_and_python_give_the_same_run_bit_for_bit(tmp_path):
    (tmp_path / "yaml.yaml").write_text(FALL + MACHINE)
    (tmp_path / "python.yaml").write_text(FALL.replace(
        "  variables: [models.descent.discreteStates.state, models.ball.continuousStates.x]\n",
        "  variables: [models.ball.continuousStates.x]\n"))
    from_yaml = hopsim.load(tmp_path / "yaml.yaml", {X: 10.0})
    from_python = hopsim.load(tmp_path / "python.yaml", {X: 10.0})
    assert add_descent(from_python.sim) == []
    from_yaml.run(progress=False)
    from_python.run(progress=False)

    braking = math.sqrt(2 * 6 / G)
    assert from_yaml.sim.machine_state("descent") == "landed"
    assert abs(from_yaml.sim.machine_entered("descent") - (braking + 0.5)) < 1e-9
    assert from_python.sim.list() == from_yaml.sim.list()
    for path in from_yaml.sim.list():
        assert bits(from_python.sim.get(path)) == bits(from_yaml.sim.get(path)), path
    # The recorded phase column: 0 (coast) before the braking time, 1 after.
    times = from_yaml.times()
    phase = from_yaml.values("models.descent.discreteStates.state")
    assert all(p == (0 if t < braking else 1 if t < braking + 0.5 else 2)
               for t, p in zip(times, phase))


def test_the_machine_state_survives_a_checkpoint(tmp_path):
    def build():
        sim = hopsim.Simulation(io_step_size=0.1, integrator="rkf45")
        sim.add_model("MassSpringDamper", "ball", {"k": 0.0})
        for port in ("F", "x", "v"):
            sim.add_signal(port)
            sim.tie("ball", port, port)
        sim.set("signals.F", -G)
        sim.set(X, 10.0)
        sim.lock()
        sim.add_state_machine(
            "descent", [hopsim.MachineState("coast"), hopsim.MachineState("braking")],
            [hopsim.MachineTransition("coast", "braking", hopsim.MachineGuard.crossing(
                X, 4.0, hopsim.CrossingDirection.FALLING))])
        return sim

    first = build()
    first.advance_time_to(1.5)
    assert first.machine_state("descent") == "braking"
    first.save_checkpoint(tmp_path / "c.ckpt")
    resumed = build()
    assert resumed.machine_state("descent") == "coast"
    resumed.restore_checkpoint(tmp_path / "c.ckpt")
    assert resumed.machine_state("descent") == "braking"
    assert bits(resumed.machine_entered("descent")) == bits(first.machine_entered("descent"))


def test_python_actions_and_raised_events():
    sim = hopsim.Simulation(io_step_size=0.1)
    sim.lock()
    calls = []
    sim.add_state_machine(
        "m",
        [hopsim.MachineState("idle"),
         hopsim.MachineState("busy", entry=[hopsim.MachineAction.call(
             "note", lambda s, t: calls.append((s.machine_state("m"), round(t, 9))))])],
        [hopsim.MachineTransition("idle", "busy", hopsim.MachineGuard.on_event("go"))])
    sim.advance_time_to(0.3)
    assert calls == []
    sim.raise_machine_event("go")
    assert calls == [("busy", 0.3)]
    assert sim.state_machine_names() == ["m"]
    assert sim.get("models.m.discreteStates.state") == 1


def test_a_bad_machine_raises_input_error_and_changes_nothing():
    sim = hopsim.Simulation(io_step_size=0.1)
    sim.lock()
    with pytest.raises(hopsim.InputError, match="unknown state 'b'"):
        sim.add_state_machine("m", [hopsim.MachineState("a")],
                              [hopsim.MachineTransition("a", "b", hopsim.MachineGuard.at_time(1))])
    with pytest.raises(hopsim.InputError, match="no model named 'engine'"):
        sim.add_state_machine(
            "m", [hopsim.MachineState("a", entry=[hopsim.MachineAction.activate("engine")])], [])
    assert sim.state_machine_names() == []
    assert sim.list() == []


def test_the_documentation_runs_as_written():
    namespace = {}
    for block in python_blocks("state-machines.md"):
        exec(compile(block, "docs/state-machines.md", "exec"), namespace)
    assert namespace["sim"].machine_state("rover") == "arrived"


# ---- examples/lander_phases.yaml against a 1-D integration ----------------------------------

MU, MOON_RADIUS, G0 = 4.9048695e12, 1737.4e3, 9.80665
DRY_MASS, FUEL, CM_HEIGHT = 1000.0, 200.0, 0.5
MIN_LEVEL, MAX_LEVEL, ISP = 1000.0, 5000.0, 300.0


def lander_derivative(z, v, m, thrust):
    """Radial motion of the CM (at R + z + the CM height) under mu / r^2 and the thrust, with
    the mass flow thrust / (Isp g0)."""
    r = MOON_RADIUS + z + CM_HEIGHT
    return v, -MU / (r * r) + thrust / m, -thrust / (ISP * G0)


def lander_step(state, thrust, h):
    k1 = lander_derivative(*state, thrust)
    k2 = lander_derivative(*(x + h / 2 * k for x, k in zip(state, k1)), thrust)
    k3 = lander_derivative(*(x + h / 2 * k for x, k in zip(state, k2)), thrust)
    k4 = lander_derivative(*(x + h * k for x, k in zip(state, k3)), thrust)
    return tuple(x + h / 6 * (a + 2 * b + 2 * c + d)
                 for x, a, b, c, d in zip(state, k1, k2, k3, k4))


def reference_phases(h=1e-3):
    """RK4 at steps of h through the three switches (altitude 350 m falling, speed -2 m/s rising,
    altitude 0 falling), each located within its step by secant iteration on the step length:
    the switch times and the state (z, v, m) at each. Halving h changes the times by < 1e-10 s."""
    t, state = 0.0, (600.0, -25.0, DRY_MASS + FUEL)
    phases = [(0.0, lambda s: s[0] - 350.0), (MAX_LEVEL, lambda s: -2.0 - s[1]),
              (MIN_LEVEL + 0.2 * (MAX_LEVEL - MIN_LEVEL), lambda s: s[0])]
    switches = []
    for thrust, ahead in phases:  # ahead(state) > 0 until the switch
        while ahead(lander_step(state, thrust, h)) > 0.0:
            state = lander_step(state, thrust, h)
            t += h
        a, ga, b, gb = 0.0, ahead(state), h, ahead(lander_step(state, thrust, h))
        for _ in range(60):
            if gb == ga or abs(b - a) < 1e-15:
                break
            a, ga, b = b, gb, b - gb * (b - a) / (gb - ga)
            gb = ahead(lander_step(state, thrust, b))
        state = lander_step(state, thrust, b)
        t += b
        switches.append((t, state))
    return switches


def test_the_lander_flies_its_four_phases_when_the_1d_equations_say():
    scenario = hopsim.load(pathlib.Path(__file__).resolve().parents[2] / "examples" /
                           "lander_phases.yaml")
    entries = []
    scenario.sim.add_event_observer(
        lambda s, name, t: entries.append((name, t)) if name.startswith("descent.") else None)
    scenario.run(progress=False)
    assert scenario.sim.machine_state("descent") == "landed"
    switches = reference_phases()
    names = ["descent.coast->braking", "descent.braking->terminal", "descent.terminal->landed"]
    assert [name for name, _ in entries] == names
    for (name, t), (t_ref, _) in zip(entries, switches):
        assert t == pytest.approx(t_ref, rel=1e-6), name
    # The run stopped at touchdown, at the speed and mass the 1-D motion gives.
    u = scenario.sim.get("multibody.bodies.lander.U")
    assert -u[5] == pytest.approx(-switches[2][1][1], rel=1e-6)
    assert scenario.sim.get("signals.mass") == pytest.approx(switches[2][1][2], rel=1e-8)
    # The recorded phase goes 0, 1, 2 in order (the landing ends the run at once).
    phase = scenario.values("models.descent.discreteStates.state")
    assert np.all(np.diff(phase) >= 0) and {0, 1, 2} <= set(phase.tolist())
