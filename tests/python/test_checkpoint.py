"""Checkpoint and restore from Python (DESIGN.md section 3): 10 s straight equals 5 s, a
checkpoint, a restore into a freshly built simulation and 5 s more, bit for bit in every
variable, with every integrator and with Python zero crossings and events in the scenario. A
damaged checkpoint is refused and leaves the simulation as it was; restore says which hopsim
wrote the file; a diverging fixed-step run stops where it diverges (docs/integrators.md,
"Divergence")."""

import math
import os
import pathlib

import numpy as np
import pytest

import hopsim


def build(integrator, journal):
    """A scenario with every kind of saved state: continuous states (a forced oscillator
    bouncing off a wall at x = 0 through a Python zero crossing, and an integrator of its
    velocity), discrete states (a hold at its own rate), a param changed by a periodic event,
    a state kicked by a timed event after the checkpoint, and a list event straddling it.
    Callbacks record what they did in `journal`."""
    sim = hopsim.Simulation(io_step_size=0.02, integration_steps=3, integrator=integrator)
    for signal in ("F", "x", "v", "y", "held"):
        sim.add_signal(signal)
    sim.add_model("SineWave", "push", {"amplitude": 0.5, "frequency": 0.3})
    sim.add_model("MassSpringDamper", "msd", {"m": 0.5, "k": 3.0, "c": 0.1})
    sim.add_model("ContinuousIntegrator", "int")
    sim.add_model("ZeroOrderHold", "zoh")
    sim.tie("push", "y", "F")
    sim.tie("msd", "F", "F")
    sim.tie("msd", "x", "x")
    sim.tie("msd", "v", "v")
    sim.tie("int", "u", "v")
    sim.tie("int", "y", "y")
    sim.tie("zoh", "u", "x")
    sim.tie("zoh", "y", "held")
    sim.set_model_rate("zoh", 30.0)
    sim.set("models.msd.continuousStates.x", 1.0)
    sim.lock()

    def bounce(s, t):
        journal["impacts"].append(t)
        s.set("models.msd.continuousStates.v", -0.9 * s.get("models.msd.continuousStates.v"))

    sim.register_zero_crossing("wall", lambda s, t: s.get("models.msd.continuousStates.x"),
                               hopsim.CrossingDirection.FALLING, bounce)

    def stiffen(s, t):
        s.set("models.msd.params.k", s.get("models.msd.params.k") * 1.01)

    sim.register_periodic_event("stiffen", 0.5, 0.75, stiffen)

    def kick(s, t):
        journal["kicks"].append(t)
        s.set("models.msd.continuousStates.v", 2.0)

    sim.register_timed_event("kick", 7.0, kick)
    sim.register_timed_event("list", [3.0, 6.0, 9.0], lambda s, t: journal["kicks"].append(t))
    return sim


def new_journal():
    return {"impacts": [], "kicks": []}


def same_bits(a, b):
    """numpy array equality of two variable values, plus equal dtypes and equal bytes (so
    0.0 and -0.0, or two NaNs with different payloads, count as different)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and np.array_equal(a, b) and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("integrator", hopsim.integrator_names())
def test_ten_seconds_straight_equal_five_plus_checkpoint_restore_and_five(integrator, tmp_path):
    straight_journal = new_journal()
    straight = build(integrator, straight_journal)
    straight.advance_time_to(10.0)

    path = tmp_path / f"{integrator}.ckpt"  # an os.PathLike
    first_journal = new_journal()
    first = build(integrator, first_journal)
    first.advance_time_to(5.0)
    first.save_checkpoint(path)
    del first

    resumed_journal = {key: list(values) for key, values in first_journal.items()}
    resumed = build(integrator, resumed_journal)
    resumed.restore_checkpoint(str(path))  # a str
    assert resumed.time() == 5.0
    resumed.advance_time_to(10.0)

    assert resumed.time() == straight.time() == 10.0
    assert resumed.hop_count() == straight.hop_count()
    assert resumed_journal == straight_journal
    assert len(straight_journal["impacts"]) >= 3  # the scenario really exercised crossings
    assert any(t > 5.0 for t in straight_journal["impacts"])
    paths = straight.list()
    assert resumed.list() == paths
    assert len(paths) > 20
    different = [p for p in paths if not same_bits(resumed.get(p), straight.get(p))]
    assert different == []


def test_a_checkpoint_restores_into_the_same_simulation_and_repeats_the_run(tmp_path):
    journal = new_journal()
    sim = build("rkf45", journal)
    sim.advance_time_to(2.0)
    path = os.fspath(tmp_path / "two.ckpt")
    sim.save_checkpoint(path)
    sim.advance_time_to(4.0)
    at_four = {p: sim.get(p) for p in sim.list()}
    sim.restore_checkpoint(pathlib.Path(path))
    assert sim.time() == 2.0
    sim.advance_time_to(4.0)
    assert all(same_bits(sim.get(p), value) for p, value in at_four.items())


def test_restoring_into_a_differently_built_simulation_names_the_mismatch(tmp_path):
    path = tmp_path / "mismatch.ckpt"
    sim = build("rk4", new_journal())
    sim.advance_time_to(1.0)
    sim.save_checkpoint(path)

    other = hopsim.Simulation(io_step_size=0.02, integration_steps=3)
    other.add_signal("F")
    other.add_signal("x")
    other.add_signal("v")
    other.add_model("MassSpringDamper", "mass")
    for port in ("F", "x", "v"):
        other.tie("mass", port, port)
    other.lock()
    before = other.get("models.mass.continuousStates.x")
    with pytest.raises(hopsim.InputError, match=str(path)):
        other.restore_checkpoint(path)
    assert other.time() == 0.0  # nothing applied
    assert other.get("models.mass.continuousStates.x") == before

    with pytest.raises(hopsim.ModelError):
        hopsim.Simulation().restore_checkpoint(path)  # not locked
    locked = hopsim.Simulation()
    locked.lock()
    with pytest.raises(hopsim.InputError, match="cannot read '.*missing.ckpt': No such file"):
        locked.restore_checkpoint(tmp_path / "missing.ckpt")
    with pytest.raises(hopsim.InputError):
        sim.save_checkpoint(tmp_path / "no" / "such" / "dir.ckpt")
    with pytest.raises(TypeError):
        sim.save_checkpoint(42)


def test_a_refused_restore_leaves_the_simulation_bit_for_bit_as_it_was(tmp_path):
    """A damaged checkpoint is refused naming the file, the line, the value and what was
    expected, and the simulation then runs on exactly as an untouched twin does."""
    path = tmp_path / "good.ckpt"
    source = build("rk4", new_journal())
    source.advance_time_to(1.0)
    source.save_checkpoint(path)
    lines = path.read_text().splitlines()
    field = next(i for i, line in enumerate(lines) if line.startswith('field params "k"'))
    broken_lines = list(lines)
    broken_lines[field] = ' '.join(lines[field].split()[:4] + ["nan"])
    broken = tmp_path / "broken.ckpt"
    broken.write_text("\n".join(broken_lines) + "\n")

    target = build("rk4", new_journal())
    twin = build("rk4", new_journal())
    target.advance_time_to(0.5)
    twin.advance_time_to(0.5)
    before = {p: target.get(p) for p in target.list()}
    expected = (f"checkpoint '{broken}' line {field + 1}: models.msd.params.k is nan; "
                "expected a number")
    with pytest.raises(hopsim.InputError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        target.restore_checkpoint(broken)
    assert target.time() == 0.5
    assert all(same_bits(target.get(p), value) for p, value in before.items())
    target.advance_time_to(2.0)
    twin.advance_time_to(2.0)
    assert all(same_bits(target.get(p), twin.get(p)) for p in twin.list())


def test_restore_returns_which_hopsim_wrote_the_checkpoint(tmp_path):
    path = tmp_path / "origin.ckpt"
    sim = build("rk4", new_journal())
    sim.advance_time_to(0.5)
    sim.save_checkpoint(path)
    origin = sim.restore_checkpoint(path)
    assert isinstance(origin, hopsim.CheckpointOrigin)
    assert origin.format_version == 8
    assert origin.hopsim_version == hopsim.__version__.split("+")[0].split(" ")[0]
    assert origin.same_build == (origin.note == "")
    assert "CheckpointOrigin(format_version=8" in repr(origin)

    lines = path.read_text().splitlines()
    assert lines[1].startswith('written_by "')
    lines[1] = 'written_by "0.0.1" ""'
    path.write_text("\n".join(lines) + "\n")
    other = sim.restore_checkpoint(path)
    assert not other.same_build
    assert other.note.startswith("written by hopsim 0.0.1, restored by hopsim ")


def test_a_diverging_fixed_step_run_stops_naming_the_state_the_time_and_the_integrator():
    """A spring of w = 1e4 rad/s with rk4 at 10 ms grows ~4e6 times per step: the run stops at
    the first step past the state bound instead of running on to 1e292."""
    def spring(**options):
        sim = hopsim.Simulation(io_step_size=0.01, integrator="rk4", **options)
        for signal in ("F", "x", "v"):
            sim.add_signal(signal)
        sim.add_model("MassSpringDamper", "msd", {"m": 1.0, "k": 1e8, "c": 0.0})
        for port in ("F", "x", "v"):
            sim.tie("msd", port, port)
        sim.set("signals.F", 0.0)
        sim.set("models.msd.continuousStates.x", 1.0)
        sim.lock()
        return sim

    sim = spring()
    assert sim.state_bound() == 1e15
    with pytest.raises(hopsim.NumericalError,
                       match=r"^models\.msd\.continuousStates\.v is .* at t = 0\.02 s after the "
                             r"rk4 step from t = 0\.01 s, beyond the state bound 1e\+15: the "
                             r"fixed-step integration diverges; use a smaller step"):
        sim.advance_time_to(1.0)
    assert sim.time() == 0.01

    looser = spring(state_bound=math.inf)
    looser.set_state_bound(1e30)
    assert looser.state_bound() == 1e30
    with pytest.raises(hopsim.NumericalError, match="beyond the state bound 1e\\+30"):
        looser.advance_time_to(1.0)
    with pytest.raises(hopsim.InputError, match="expected a positive magnitude"):
        looser.set_state_bound(0.0)
    with pytest.raises(hopsim.InputError, match="expected a positive magnitude"):
        hopsim.Simulation(state_bound=-1.0)
