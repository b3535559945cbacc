"""Building a simulation from Python: models by class name, ties, sorting with algebraic-loop
detection and breaks, lock/unlock rules, activation, and the model registry and its reference
documentation (DESIGN.md sections 3 and 5). Expected messages are those the C++ core writes."""

import numpy as np
import pytest

import hopsim


def gain_loop():
    """Two Gains in a loop: a.u <- 'b_to_a' <- b.y and b.u <- 'a_to_b' <- a.y."""
    sim = hopsim.Simulation()
    sim.add_signal("a_to_b")
    sim.add_signal("b_to_a")
    sim.add_signal("side")
    sim.add_model("Gain", "a", {"k": 1.0})
    sim.add_model("Gain", "b", {"k": 2.0})
    sim.add_model("Gain", "c")  # reads the loop but is not part of it
    sim.tie("a", "u", "b_to_a")
    sim.tie("a", "y", "a_to_b")
    sim.tie("b", "u", "a_to_b")
    sim.tie("b", "y", "b_to_a")
    sim.tie("c", "u", "a_to_b")
    sim.tie("c", "y", "side")
    return sim


def test_an_algebraic_loop_fails_at_lock_with_the_cycle_and_its_feed_through():
    sim = gain_loop()
    with pytest.raises(hopsim.ModelError) as error:
        sim.lock()
    message = str(error.value)
    assert "algebraic loop" in message
    assert "a.y -> 'a_to_b' -> b.u   (feed-through Gain declares u -> y)" in message
    assert "b.y -> 'b_to_a' -> a.u" in message
    assert "c.u" not in message
    assert "addBreak" in message
    assert not sim.locked()  # a failed lock leaves the simulation unlocked


def test_a_declared_break_runs_the_loop_reading_the_broken_input_one_evaluation_late():
    sim = gain_loop()
    sim.add_break("a", "u")
    sim.lock()
    order = sim.model_order()
    assert order.flow_models[:2] == ["a", "b"]
    assert order.breaks == ["b.y -> 'b_to_a' -> a.u"]
    sim.set("signals.b_to_a", 1.0)  # b's output before its first evaluation

    seen = []  # (a's output, the b output a read) right after each evaluation of a

    def after_a(s, t):
        seen.append((s.get("signals.a_to_b"), s.get("signals.b_to_a")))

    sim.register_model_event(
        "a evaluated", "a", hopsim.ModelMethod.UPDATE_FLOW_OUTS, hopsim.EventTiming.AFTER, after_a)
    sim.advance_over_hop()

    assert len(seen) >= 3
    for i, (a_out, b_out) in enumerate(seen):
        # a (k = 1) copies b's output of the previous evaluation, which b (k = 2) then doubles.
        assert a_out == b_out == 2.0**i


def test_an_untied_port_stops_lock_naming_model_and_port():
    sim = hopsim.Simulation()
    sim.add_signal("x")
    sim.add_model("ZeroOrderHold", "zoh")
    sim.tie("zoh", "y", "x")
    with pytest.raises(hopsim.ModelError) as error:
        sim.lock()
    assert str(error.value) == "model 'zoh' (ZeroOrderHold): flowIn 'u' is not tied to a signal"


def test_structure_changes_need_an_unlocked_simulation_and_time_needs_a_locked_one():
    sim = hopsim.Simulation()
    sim.add_model("SineWave", "sine")
    sim.add_signal("y")
    sim.tie("sine", "y", "y")
    sim.lock()
    sim.lock()  # twice is harmless
    with pytest.raises(hopsim.ModelError) as error:
        sim.add_signal("v")
    assert str(error.value) == "addSignal('v'): the simulation is locked; call unlock() first"
    with pytest.raises(hopsim.ModelError):
        sim.add_model("Gain", "g")
    sim.advance_time_by(0.05)
    sim.unlock()
    with pytest.raises(hopsim.ModelError, match=r"call lock\(\) first"):
        sim.advance_time_by(0.01)


def test_models_are_created_by_class_name_with_validated_params():
    sim = hopsim.Simulation()
    sim.add_model("SineWave", "sine", {"amplitude": 2, "phase": 0.5})
    assert sim.get("models.sine.params.amplitude") == 2.0
    assert sim.get("models.sine.params.phase") == 0.5
    with pytest.raises(hopsim.InputError) as error:
        sim.add_model("SineWav", "s2")
    assert str(error.value) == "no model class 'SineWav' is registered (did you mean 'SineWave'?)"
    with pytest.raises(hopsim.InputError, match="frequency"):
        sim.add_model("SineWave", "s3", {"frequency": -2.0})
    with pytest.raises(hopsim.InputError, match="did you mean 'amplitude'"):
        sim.add_model("SineWave", "s4", {"amplitud": 1.0})
    with pytest.raises(hopsim.InputError, match=r"^models\.s5\.params\.k: cannot use a dict"):
        sim.add_model("Gain", "s5", {"k": {}})
    with pytest.raises(hopsim.InputError, match="a model named 'sine' already exists"):
        sim.add_model("Gain", "sine")
    assert sim.model_names() == ["sine"]  # nothing half-built is left behind
    assert sim.model_spec("sine").class_name == "SineWave"


def test_a_port_tied_to_a_slice_reads_and_writes_only_those_elements():
    sim = hopsim.Simulation()
    sim.add_signal("bus", "double", 4)
    sim.add_signal("out", "double", 2)
    sim.add_model("Gain", "g", {"k": 10.0})
    sim.tie("g", "u", "bus", offset=1, length=2)
    sim.tie("g", "y", "out")
    sim.lock()
    sim.set("signals.bus", [1.0, 2.0, 3.0, 4.0])
    sim.advance_over_hop()
    np.testing.assert_array_equal(sim.get("signals.out"), [20.0, 30.0])
    sim.unlock()
    with pytest.raises(hopsim.InputError, match="give both offset and length"):
        sim.tie("g", "u", "bus", offset=1)


def test_a_deactivated_model_is_skipped_until_reactivated():
    sim = hopsim.Simulation(io_step_size=0.1)
    sim.add_signal("wave")
    sim.add_signal("held")
    sim.add_model("SineWave", "sine")
    sim.add_model("ZeroOrderHold", "zoh")
    sim.tie("sine", "y", "wave")
    sim.tie("zoh", "u", "wave")
    sim.tie("zoh", "y", "held")
    sim.lock()
    sim.advance_time_to(0.3)
    assert sim.get("models.zoh.discreteStates.samples") == 3
    sim.deactivate("zoh")
    assert not sim.is_active("zoh")
    sim.advance_time_to(0.6)
    assert sim.get("models.zoh.discreteStates.samples") == 3
    sim.activate("zoh")
    sim.advance_time_to(0.8)
    assert sim.get("models.zoh.discreteStates.samples") == 5


def test_output_granularity_is_declared_raised_and_reported_as_sets_of_sweeps():
    S = hopsim.Sweep
    sim = hopsim.Simulation()
    sim.add_signal("wave")
    sim.add_signal("held")
    sim.add_model("SineWave", "sine")
    sim.add_model("ZeroOrderHold", "zoh")
    sim.tie("sine", "y", "wave")
    sim.tie("zoh", "u", "wave")
    sim.tie("zoh", "y", "held")
    declared = sim.model_spec("zoh").output_granularity()
    assert declared == S.START_HOP | S.END_HOP
    assert S.START_HOP in declared and S.START_IO not in declared
    sim.raise_output_granularity("zoh", S.START_IO)
    sim.lock()
    assert sim.output_granularity("zoh") == hopsim.Granularity([S.START_IO, S.START_HOP, S.END_HOP])
    assert str(sim.output_granularity("zoh")) == "STARTIO|STARTHOP|ENDHOP"
    assert sim.output_granularity("sine") == hopsim.Granularity.all()


def test_the_registry_lists_the_standard_models_and_their_declarations():
    registry = hopsim.standard_registry()
    # The full list is checked in C++ (tests/unit/models/test_standard_models.cpp); here, that
    # Python sees the same registry: sorted, one entry per class, every family of docs/models.
    classes = hopsim.model_classes()
    assert classes == sorted(set(classes))
    assert {"BodyLoad", "Gain", "PointMassGravity", "RateGyro", "ReactionWheel", "SoftJointStop",
            "ThrottledThruster", "FuelTank", "CompliantContact", "Locomotion", "Pid",
            "UserClock", "ZeroOrderHold"} <= set(classes)
    assert "Gain" in registry and "Gian" not in registry
    spec = registry.spec("Gain")
    assert (spec.class_name, spec.kind) == ("Gain", "FlowModel")
    assert spec.doc
    (k,) = spec.fields(hopsim.FieldRole.PARAM)
    assert (k.name, k.type, k.unit, k.default, k.vector) == (
        "k", hopsim.ElementType.DOUBLE, "1", 1.0, False)
    (y,) = spec.fields(hopsim.FieldRole.FLOW_OUT)
    assert (y.length_symbol, y.feeds_from, y.type_name()) == ("n", [0], "double[n]")
    assert spec.feeds_through(0, 0)
    frequency = registry.spec("SineWave").fields(hopsim.FieldRole.PARAM)[1]
    assert (frequency.name, frequency.unit, frequency.lower, frequency.upper) == (
        "frequency", "Hz", 0.0, None)
    with pytest.raises(hopsim.InputError, match="did you mean 'Gain'"):
        registry.spec("Gian")


def test_the_model_reference_is_the_generated_documentation(repository_root):
    # docs/reference/models.md is what `hopsim models --doc` writes (checked by ctest).
    expected = (repository_root / "docs" / "reference" / "models.md").read_text()
    assert hopsim.model_reference() == expected
    gain = hopsim.model_reference("Gain")
    assert gain in expected and "y = k u" in gain
    with pytest.raises(hopsim.InputError, match="no model class 'Gian'"):
        hopsim.model_reference("Gian")
