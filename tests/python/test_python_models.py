"""Python subclasses of FlowModel and ContinuousModel (hopsim/models.py).

The references are C++ twins: a Python model that computes what a standard C++ model computes,
with the same floating-point operations in the same order, must give bit-identical results,
sort to the same place and declare the same feed-through and granularity. Zero crossings on a
Python model's state are checked against the analytic crossing time.
"""

import math
import traceback

import numpy as np
import pytest

import hopsim


class PyGain(hopsim.FlowModel):
    """Multiplies its input by a scalar: y = k u."""

    k = hopsim.Param(float, unit="1", default=1.0, doc="gain")
    u = hopsim.FlowIn(float, length="n", doc="input")
    y = hopsim.FlowOut(float, length="n", feeds_from=["u"], doc="output k u")

    def update_flow_outs(self, t):
        self.y = self.k * self.u


class PyMassSpringDamper(hopsim.ContinuousModel):
    """The C++ MassSpringDamper, written in Python: m x'' + c x' + k x = F."""

    m = hopsim.Param(float, unit="kg", default=1.0, min=0.0)
    k = hopsim.Param(float, unit="N/m", default=1.0, min=0.0)
    c = hopsim.Param(float, unit="N*s/m", default=0.0, min=0.0)
    x = hopsim.ContinuousState(float, unit="m", default=0.0)
    v = hopsim.ContinuousState(float, unit="m/s", default=0.0)
    force = hopsim.FlowIn(float, name="F", unit="N")
    position = hopsim.FlowOut(float, name="x", unit="m", feeds_from=[])
    velocity = hopsim.FlowOut(float, name="v", unit="m/s", feeds_from=[])

    def update_flow_outs(self, t):
        self.position = self.x
        self.velocity = self.v

    def post_deriv(self, t):
        self.derivatives.x = self.v
        self.derivatives.v = (self.force - self.c * self.v - self.k * self.x) / self.m


class FallingBall(hopsim.ContinuousModel):
    """A ball falling from rest: h'' = -g."""

    g = hopsim.Param(float, unit="m/s^2", default=9.81)
    h = hopsim.ContinuousState(float, unit="m", default=10.0)
    v = hopsim.ContinuousState(float, unit="m/s", default=0.0)

    def post_deriv(self, t):
        self.derivatives.h = self.v
        self.derivatives.v = -self.g


def oscillator(msd_model, gain_model):
    """A sine drives a gain that forces a mass-spring-damper; the models are given as
    (class name or Python class)."""
    sim = hopsim.Simulation(io_step_size=0.01, integrator="rkf45")
    for signal in ("wave", "force", "x", "v"):
        sim.add_signal(signal)
    sim.add_model("SineWave", "sine", {"frequency": 0.7})
    for name, model, params in (("gain", gain_model, {"k": 2.5}),
                                ("msd", msd_model, {"k": 4.0, "c": 0.3})):
        if isinstance(model, str):
            sim.add_model(model, name, params)
        else:
            sim.add_model(model(name, **params))
    for model, port, signal in (("sine", "y", "wave"), ("gain", "u", "wave"),
                                ("gain", "y", "force"), ("msd", "F", "force"),
                                ("msd", "x", "x"), ("msd", "v", "v")):
        sim.tie(model, port, signal)
    sim.lock()
    return sim


def test_python_twins_give_the_results_of_the_cpp_models_bit_for_bit():
    cpp = oscillator("MassSpringDamper", "Gain")
    python = oscillator(PyMassSpringDamper, PyGain)
    assert str(python.model_order()) == str(cpp.model_order())
    for sim in (cpp, python):
        sim.advance_time_to(2.0)
    for path in ("signals.force", "signals.x", "signals.v", "models.msd.continuousStates.x"):
        assert python.get(path) == cpp.get(path), path
    # Not a trivial agreement: the oscillator moved.
    assert abs(cpp.get("signals.x")) > 1e-3


def test_python_declarations_read_like_cpp_ones():
    spec = PyMassSpringDamper.declaration()
    cpp = hopsim.standard_registry().spec("MassSpringDamper")
    assert spec.kind == cpp.kind == "ContinuousModel"
    for role in (hopsim.FieldRole.PARAM, hopsim.FieldRole.CONTINUOUS_STATE,
                 hopsim.FieldRole.FLOW_IN, hopsim.FieldRole.FLOW_OUT):
        assert [f.name for f in spec.fields(role)] == [f.name for f in cpp.fields(role)]
        assert [f.unit for f in spec.fields(role)] == [f.unit for f in cpp.fields(role)]
    assert not spec.feeds_any_output(0)
    gain = PyGain.declaration()
    assert gain.feeds_through(0, 0)
    assert "y = k u" in gain.doc


def test_feed_through_decides_whether_a_loop_is_algebraic():
    class Through(hopsim.FlowModel):
        u = hopsim.FlowIn(float)
        y = hopsim.FlowOut(float, feeds_from="u")

        def update_flow_outs(self, t):
            self.y = self.u

    class Delay(hopsim.FlowModel):
        """Outputs its previous input: no feed-through."""

        u = hopsim.FlowIn(float)
        y = hopsim.FlowOut(float, feeds_from=[])
        held = hopsim.DiscreteState(float, default=0.0)

        def update_flow_outs(self, t):
            self.y = self.held

        def end_hop(self, t0, t1):
            self.held = self.u + 1.0

    def loop(second):
        sim = hopsim.Simulation(io_step_size=0.1)
        sim.add_signal("a")
        sim.add_signal("b")
        sim.add_model(Through("first"))
        sim.add_model(second("second"))
        sim.tie("first", "u", "a")
        sim.tie("first", "y", "b")
        sim.tie("second", "u", "b")
        sim.tie("second", "y", "a")
        return sim

    with pytest.raises(hopsim.ModelError, match="algebraic loop"):
        loop(Through).lock()
    sim = loop(Delay)
    sim.lock()
    order = [line.strip() for line in str(sim.model_order()).splitlines()]
    assert order.index("1. second") < order.index("2. first")
    sim.step(3)
    # Outputs are computed at the start of each hop and end_hop adds one to what went around
    # the loop, so after three hops a holds the count of the two hops before the last.
    assert sim.get("signals.a") == 2.0


def test_output_granularity_of_a_python_continuous_model_is_its_declaration():
    class Quiet(hopsim.ContinuousModel, output_granularity=hopsim.Granularity.none()):
        x = hopsim.ContinuousState(float, default=0.0)
        y = hopsim.FlowOut(float, feeds_from=[])

        def update_flow_outs(self, t):
            self.y = self.x

        def post_deriv(self, t):
            self.derivatives.x = 1.0

    sim = hopsim.Simulation(io_step_size=0.5)
    sim.add_signal("y")
    sim.add_model(Quiet("q"))
    sim.tie("q", "y", "y")
    sim.add_model(PyMassSpringDamper("msd"))
    sim.add_signal("F")
    sim.tie("msd", "F", "F")
    sim.add_signal("x")
    sim.add_signal("v")
    sim.tie("msd", "x", "x")
    sim.tie("msd", "v", "v")
    sim.set("signals.F", 0.0)
    sim.lock()
    assert sim.output_granularity("q") == hopsim.Granularity.none()
    cpp = hopsim.Simulation(io_step_size=0.5)
    for signal in ("F", "x", "v"):
        cpp.add_signal(signal)
    cpp.add_model("MassSpringDamper", "msd")
    for port in ("F", "x", "v"):
        cpp.tie("msd", port, port)
    cpp.set("signals.F", 0.0)
    cpp.lock()
    assert sim.output_granularity("msd") == cpp.output_granularity("msd")


def test_a_zero_crossing_on_a_python_state_is_located_to_a_nanosecond():
    sim = hopsim.Simulation(io_step_size=0.1, integrator="rkf45",
                            integrator_options=hopsim.IntegratorOptions(relative_tolerance=1e-12,
                                                                        absolute_tolerance=1e-12))
    sim.add_model(FallingBall("ball", g=9.81))
    sim.lock()
    landed = []
    sim.register_zero_crossing(
        "ground", lambda s, t: s.get("models.ball.continuousStates.h"),
        hopsim.CrossingDirection.FALLING, lambda s, t: landed.append(t))
    sim.advance_time_to(2.0)
    assert len(landed) == 1
    # h(t) = 10 - g t^2 / 2 is zero at sqrt(20 / g).
    assert landed[0] == pytest.approx(math.sqrt(20.0 / 9.81), abs=1e-9)


def test_vectors_ints_bools_and_strings_cross_as_python_values():
    class Mixed(hopsim.FlowModel):
        count = hopsim.DiscreteState(int, default=0)
        gains = hopsim.Param(float, length=3, default=[1.0, 2.0, 3.0])
        label = hopsim.Param(str, default="abc")
        flag = hopsim.DiscreteState(bool, default=False)
        y = hopsim.FlowOut(float, length=3, feeds_from=[])

        def start_hop(self, t0, t1):
            self.count = self.count + 1
            self.flag = self.label == "abc"

        def update_flow_outs(self, t):
            self.y = self.gains * self.count

    sim = hopsim.Simulation(io_step_size=0.1)
    sim.add_signal("y", length=3)
    sim.add_model(Mixed("m"))
    sim.tie("m", "y", "y")
    sim.lock()
    sim.step(2)
    np.testing.assert_array_equal(sim.get("signals.y"), [2.0, 4.0, 6.0])
    assert sim.get("models.m.discreteStates.count") == 2
    assert sim.get("models.m.discreteStates.flag") is True


def test_an_exception_in_a_model_method_surfaces_with_its_traceback_and_time_stays():
    class Faulty(hopsim.FlowModel):
        y = hopsim.FlowOut(float, feeds_from=[])
        armed = hopsim.Param(bool, default=False)

        def update_flow_outs(self, t):
            if self.armed:
                raise ZeroDivisionError("faulty model")
            self.y = t

    sim = hopsim.Simulation(io_step_size=0.1)
    sim.add_signal("y")
    sim.add_model(Faulty("f"))
    sim.tie("f", "y", "y")
    sim.lock()
    sim.step()
    sim.set("models.f.params.armed", True)
    with pytest.raises(ZeroDivisionError, match="faulty model") as raised:
        sim.step()
    assert "update_flow_outs" in "".join(traceback.format_tb(raised.value.__traceback__))
    assert sim.time() == pytest.approx(0.1)
    sim.set("models.f.params.armed", False)
    sim.step()
    assert sim.time() == pytest.approx(0.2)


def test_writes_are_checked_like_sets_by_path():
    class Writer(hopsim.FlowModel):
        level = hopsim.DiscreteState(float, default=0.0, min=0.0, max=1.0)
        y = hopsim.FlowOut(float, feeds_from=[])
        value = hopsim.Param(float, default=0.5)

        def start_hop(self, t0, t1):
            self.level = self.value

        def update_flow_outs(self, t):
            self.y = self.level

    sim = hopsim.Simulation(io_step_size=0.1)
    sim.add_signal("y")
    sim.add_model(Writer("w"))
    sim.tie("w", "y", "y")
    sim.lock()
    sim.step()
    assert sim.get("signals.y") == 0.5
    sim.set("models.w.params.value", 2.0)
    with pytest.raises(hopsim.InputError, match=r"models\.w\.discreteStates\.level: value 2 is "
                                                r"above the upper bound 1"):
        sim.step()


def test_outputs_are_written_only_in_update_flow_outs():
    class Eager(hopsim.FlowModel):
        y = hopsim.FlowOut(float, feeds_from=[])

        def start_hop(self, t0, t1):
            self.y = 1.0

    sim = hopsim.Simulation(io_step_size=0.1)
    sim.add_signal("y")
    sim.add_model(Eager("e"))
    sim.tie("e", "y", "y")
    sim.lock()
    with pytest.raises(hopsim.ModelError, match="updateFlowOuts"):
        sim.step()


def test_bad_declarations_name_the_class_and_field():
    with pytest.raises(hopsim.ModelError, match="'Bad'.*flowOut 'y' feeds from 'w'.*did you "
                                                "mean 'u'"):
        class Bad(hopsim.FlowModel):
            u = hopsim.FlowIn(float)
            y = hopsim.FlowOut(float, feeds_from=["w"])
    with pytest.raises(hopsim.ModelError, match="continuous state 'n' must be a float"):
        class BadState(hopsim.ContinuousModel):
            n = hopsim.ContinuousState(int)
    with pytest.raises(TypeError, match="bool, int, float, str"):
        hopsim.Param(complex)
    with pytest.raises(hopsim.ModelError, match="default"):
        class BadDefault(hopsim.FlowModel):
            k = hopsim.Param(float, default=-1.0, min=0.0)


def test_params_are_checked_when_the_model_is_created():
    with pytest.raises(hopsim.InputError, match=r"models\.msd\.params\.m"):
        PyMassSpringDamper("msd", m=-1.0)
    with pytest.raises(hopsim.NotFoundError, match="no param 'kk'.*did you mean 'k'"):
        PyMassSpringDamper("msd", kk=1.0)


def test_the_simulation_owns_the_model_and_a_removed_one_says_so():
    sim = hopsim.Simulation(io_step_size=0.1)
    model = PyGain("g")
    sim.add_model(model)
    assert model.name == "g"
    with pytest.raises(hopsim.ModelError, match="already belongs to a simulation"):
        sim.add_model(model)
    sim.remove_model("g")
    with pytest.raises(hopsim.ModelError, match="no longer exists"):
        model.name  # noqa: B018


def test_checkpoints_restore_python_model_states(tmp_path):
    def build():
        sim = hopsim.Simulation(io_step_size=0.05, integrator="rk4")
        sim.add_model(FallingBall("ball"))
        sim.lock()
        return sim

    sim = build()
    sim.advance_time_to(0.5)
    checkpoint = tmp_path / "ball.checkpoint"
    sim.save_checkpoint(checkpoint)
    sim.advance_time_to(1.0)
    expected = sim.get("models.ball.continuousStates.h")
    sim.restore_checkpoint(checkpoint)
    assert sim.time() == 0.5
    sim.advance_time_to(1.0)
    assert sim.get("models.ball.continuousStates.h") == expected
    # rk4 on a quadratic is exact up to rounding: h(1) = 10 - g / 2.
    assert expected == pytest.approx(10.0 - 9.81 / 2.0, abs=1e-12)


def test_a_registered_python_class_is_created_by_name():
    @hopsim.register_model
    class PyRegisteredGain(PyGain):
        """A gain registered by name."""

    sim = hopsim.Simulation(io_step_size=0.1)
    sim.add_signal("u")
    sim.add_signal("y")
    sim.add_model("PyRegisteredGain", "g", {"k": 4.0})
    sim.tie("g", "u", "u")
    sim.tie("g", "y", "y")
    sim.set("signals.u", 0.25)
    sim.lock()
    sim.step()
    assert sim.get("signals.y") == 1.0
    with pytest.raises(hopsim.ModelError, match="PyRegisteredGain' is registered twice"):
        hopsim.register_model(PyRegisteredGain)


class Scale(hopsim.FlowModel):
    """y = k u on one element; k carries a unit so that inputs may give other units."""

    k = hopsim.Param(float, unit="N/m", default=1.0, doc="stiffness-like gain")
    u = hopsim.FlowIn(float, unit="m")
    y = hopsim.FlowOut(float, unit="N", feeds_from=["u"])

    def update_flow_outs(self, t):
        self.y = self.k * self.u


def test_an_assembly_adds_a_python_model_class_with_unit_checked_params():
    class Spring(hopsim.Assembly):
        """A source of stretch and a Python model turning it into a force."""

        def add_signals(self):
            self.add_signal("stretch", unit="m")
            self.add_signal("force", unit="N")

        def add_models(self):
            self.add_model(Scale, "law", {"k": "2 N/mm"})
            self.tie("law", "u", "stretch")
            self.tie("law", "y", "force")

    sim = hopsim.Simulation(io_step_size=0.1)
    top = hopsim.SimulationAssembly(sim)
    top.add_assembly(Spring, "spring")
    sim.set("signals.spring.stretch", 0.003)
    sim.lock()
    sim.step()
    # 2 N/mm = 2000 N/m, times 3 mm.
    assert sim.get("models.spring.law.params.k") == 2000.0
    assert sim.get("signals.spring.force") == pytest.approx(6.0, rel=1e-15)
    sim.unlock()

    class Bad(Spring):
        def add_models(self):
            self.add_model(Scale, "law", {"k": "2 kg"})

    with pytest.raises(hopsim.InputError,
                       match=r"models\.other\.law\.params\.k: value \"2 kg\" has the wrong "
                             r"dimension"):
        top.add_assembly(Bad, "other")


def test_a_registered_python_model_class_is_used_by_a_scenario_file(tmp_path):
    @hopsim.register_model
    class PyScenarioScale(Scale):
        """Scale, registered for a scenario file."""

    scenario = tmp_path / "scale.yaml"
    scenario.write_text(
        "hopsim: 1\n"
        "simulation: {end_time: 0.3, io_step_size: 0.1}\n"
        "signals:\n"
        "  stretch: {value: 0.5}\n"
        "  force: {}\n"
        "models:\n"
        "  law:\n"
        "    class: PyScenarioScale\n"
        "    params: {k: 4.0}\n"
        "    ties: {u: stretch, y: force}\n")
    loaded = hopsim.load(scenario)
    loaded.run()
    assert loaded.sim.get("signals.force") == 2.0


def test_add_model_ties_ports_and_removes_the_model_when_a_tie_fails():
    sim = hopsim.Simulation(io_step_size=0.1)
    sim.add_signal("wave")
    sim.add_signal("out", length=2)
    sim.add_model("SineWave", "sine", {"frequency": 0.25}, ties={"y": "wave"})
    sim.add_model(PyGain("gain", k=2.0), ties={"u": "wave", "y": ("out", 1, 1)})
    sim.lock()
    sim.advance_time_to(1.0)
    assert sim.get("signals.out")[1] == 2.0 * sim.get("signals.wave")
    assert sim.get("signals.wave") == pytest.approx(1.0, abs=1e-15)  # sin(pi / 2)
    sim.unlock()
    with pytest.raises(hopsim.NotFoundError, match="no signal 'wav'"):
        sim.add_model("Gain", "second", ties={"u": "wav"})
    assert "second" not in sim.model_names()
    with pytest.raises(TypeError, match=r"ties\['u'\] must be a signal name"):
        sim.add_model("Gain", "second", ties={"u": 3})
    assert "second" not in sim.model_names()


def test_an_exception_in_setup_leaves_the_simulation_unlocked_and_usable():
    class Fragile(hopsim.FlowModel):
        fail = hopsim.Param(bool, default=True)

        def setup(self):
            if self.fail:
                raise RuntimeError("setup refused")

    sim = hopsim.Simulation(io_step_size=0.1)
    sim.add_model(Fragile("f"))
    with pytest.raises(RuntimeError, match="setup refused"):
        sim.lock()
    assert not sim.locked()
    sim.set("models.f.params.fail", False)
    sim.lock()
    sim.step()
    assert sim.time() == pytest.approx(0.1)


def test_only_declared_fields_are_restored_by_a_rollback():
    """A zero crossing rolls the hop back and re-runs it: a declared discrete state comes back,
    a plain attribute of the instance does not (it sees both runs of the hop)."""

    class Watcher(hopsim.ContinuousModel):
        hops = hopsim.DiscreteState(int, default=0)
        x = hopsim.ContinuousState(float, default=1.0)

        def __init__(self, name):
            super().__init__(name)
            self.calls = 0

        def start_hop(self, t0, t1):
            self.hops = self.hops + 1
            self.calls += 1

        def post_deriv(self, t):
            self.derivatives.x = -1.0

    sim = hopsim.Simulation(io_step_size=0.4, integrator="rk4")
    watcher = Watcher("w")
    sim.add_model(watcher)
    sim.lock()
    sim.register_zero_crossing("zero", lambda s, t: s.get("models.w.continuousStates.x"),
                               hopsim.CrossingDirection.FALLING, lambda s, t: None)
    sim.advance_time_to(1.2)
    # Hops [0, .4], [.4, .8], [.8, 1.2] crossing at 1.0: rolled back and re-run to 1.0, then
    # [1.0, 1.2]. The declared state counts 4 hops, the attribute 5 calls.
    assert sim.get("models.w.discreteStates.hops") == 4
    assert watcher.calls == 5


def test_the_family_bases_are_not_model_classes():
    with pytest.raises(TypeError, match="subclass of hopsim.FlowModel"):
        hopsim.FlowModel("f")
    with pytest.raises(TypeError, match="register_model expects a subclass"):
        hopsim.register_model(hopsim.ContinuousModel)


def test_a_value_set_between_hops_reaches_an_end_hop_output_before_the_next_hop():
    """A Python model declaring ENDHOP alone: a state or an input set from Python between hops is
    published before the next hop reads it (docs/executive.md, "Values set between hops"); the
    model writing its own state in start_hop is not such a set, and costs no extra update."""

    class Counter(hopsim.FlowModel, output_granularity=hopsim.Granularity([hopsim.Sweep.END_HOP])):
        u = hopsim.FlowIn(float)
        y = hopsim.FlowOut(float, feeds_from=[])
        x = hopsim.DiscreteState(float, default=0.0)
        updates = 0

        def start_hop(self, t0, t1):
            self.x = self.x + self.u

        def update_flow_outs(self, t):
            type(self).updates += 1
            self.y = self.x

    class Reader(hopsim.FlowModel):
        u = hopsim.FlowIn(float)
        seen = []

        def start_hop(self, t0, t1):
            type(self).seen.append(self.u)

    sim = hopsim.Simulation(io_step_size=0.1)
    for signal in ("u", "y"):
        sim.add_signal(signal)
    sim.add_model(Counter("counter"))
    sim.add_model(Reader("reader"))
    sim.tie("counter", "u", "u")
    sim.tie("counter", "y", "y")
    sim.tie("reader", "u", "y")
    sim.set("signals.u", 1.0)
    sim.lock()
    sim.step(3)
    assert Reader.seen == [0.0, 1.0, 2.0]
    assert Counter.updates == 4  # the step zero, then one per hop

    sim.set("models.counter.discreteStates.x", 10.0)
    sim.step()
    assert Reader.seen[-1] == 10.0
    assert Counter.updates == 6  # the update after the set, and the hop's own

    sim.set("signals.u", 5.0)
    sim.step(2)
    assert Reader.seen[-2:] == [11.0, 16.0]
    assert Counter.updates == 9
