"""Assemblies written in Python: subclasses of hopsim.Assembly built by the C++ machinery.

The acceptance test builds one tree twice, once from the stock C++ assemblies and once from
Python subclasses doing the same calls (a body, a vehicle, gravity, a container wiring two
ModelAssembly children by signal ties, and a PD loop on the body), and requires every recorded
variable to be bit for bit equal: the Python layer only changes who makes the calls, so any
difference is a bug, and no tolerance applies. The free fall of the vehicle is also checked
against the closed form, so the equal runs are not equally wrong.
"""

import gc
import math
import textwrap

import numpy as np
import pytest

import hopsim


# ---- Python twins of the stock assemblies -------------------------------------------------------


def _unit_quaternion(q):
    norm = math.sqrt(sum(x * x for x in q))
    return None if abs(norm - 1.0) <= 1e-6 else f"is not a unit quaternion (norm {norm:.17g})"


class PyBody(hopsim.Assembly):
    """BodyAssembly in Python: one body from BodyParams, named config.body or the assembly."""

    class Config(hopsim.Config):
        body = hopsim.Field(str, optional=True, doc="the body's name")

    class Context(hopsim.Context):
        parentBody = hopsim.Field(str, optional=True, doc="the parent body")

    class Params(hopsim.BodyParams):
        pass

    @property
    def body_name(self):
        return self.config.body or self.name

    def add_models(self):
        self.add_body(self.body_name, self.params)

    def bind_state(self):
        self.set_body_state(self.body_name, self.params)


class PyVehicle(hopsim.Assembly):
    """VehicleAssembly in Python: a base body and the bodies its graph {child: parent} joins."""

    class Config(hopsim.Config):
        basename = hopsim.Field(str, doc="the base body")
        bodygraph = hopsim.Field(dict[str, str], default={}, doc="{child: parent}")

    class Context(hopsim.Context):
        parentBody = hopsim.Field(str, optional=True)

    class Params(hopsim.Params):
        bodies = hopsim.Field(dict[str, hopsim.BodyParams], doc="the bodies by name")
        position = hopsim.Field(list[float], unit="m", length=3, optional=True)
        attitude = hopsim.Field(list[float], length=4, optional=True, checks=[_unit_quaternion])

        def validate(self, values):
            if len(values.bodies) == 0:
                values.fail("bodies", "a vehicle needs at least one body")
            if ("position" in values) != ("attitude" in values):
                missing = "attitude" if "position" in values else "position"
                values.fail(missing, "is missing: position and attitude are given together or "
                                     "not at all")

    def add_models(self):
        bodies = self.params.bodies
        graph = self.config.bodygraph
        made = set()
        while len(made) < len(bodies):  # parents first, in the order of params.bodies
            for name, body in bodies.items():
                parent = graph.get(name)
                if name in made or (parent is not None and parent not in made):
                    continue
                self.add_body(name, body, parent)
                made.add(name)

    def bind_state(self):
        for name, body in self.params.bodies.items():
            self.set_body_state(name, body)
        if self.params.position is not None:
            q = np.asarray(self.params.attitude)
            q = q / math.sqrt(float(q @ q))
            self.sim.multibody.set_body_q(self.config.basename,
                                          np.concatenate([q, self.params.position]))


class PyGravity(hopsim.Assembly):
    """GravityAssembly in Python."""

    class Params(hopsim.Params):
        g = hopsim.Field(list[float], unit="m/s^2", length=3, default=[0.0, 0.0, -9.81])

    def bind_params(self):
        self.sim.multibody.gravity = self.params.g


class PySharedSignal(hopsim.Assembly):
    """The A of the seed's A/B/C example: signal a, B's output and C's input tied to it."""

    def add_signals(self):
        self.add_signal("a", float)

    def add_assemblies(self):
        self.add_assembly("ModelAssembly", "B", config={"model": "SineWave"},
                          params={"amplitude": 2.0, "frequency": "0.5 Hz"},
                          signal_ties={"y": "a"})
        self.add_assembly("ModelAssembly", "C", config={"model": "Gain"}, params={"k": 3.0},
                          signal_ties={"u": "a"})


SCENARIO = """\
hopsim: 1
simulation: {{end_time: 2 s, io_step: 20 ms, integration_steps: 10, integrator: rk4}}
assemblies:
  gravity:
    class: {gravity}
    params: {{g: [0, 0, -3.71]}}
  lander:
    class: {vehicle}
    basename: body
    bodygraph: {{leg: body}}
    params:
      position: [0, 0, 20 m]
      attitude: [0.5, 0.5, 0.5, 0.5]
      bodies:
        body: {{mass: 1200 kg, inertia: [800, 800, 600]}}
        leg:
          mass: 50 kg
          inertia: [5, 5, 1]
          cm: [0, 0, -0.5 m]
          hinge: {{type: LOCKED, inboard_position: [0, 0, -1 m]}}
          nodes: {{foot: {{position: [0, 0, -1 m]}}}}
  pendulum:
    class: {body}
    params:
      mass: 1 kg
      cm: [0, 0, 1 m]
      inertia: [0.01, 0.01, 0.01]
      hinge: {{type: PIN, axes: [0, 1, 0], q: [0.1], u: [0.05]}}
  A:
    {shared}
signals:
  angle: {{unit: rad}}
  rate: {{unit: rad/s}}
  torque: {{unit: N*m}}
models:
  encoder: {{class: HingeEncoder, body: pendulum, ties: {{q: angle, u: rate}}}}
  controller:
    class: PdController
    params: {{kp: 30, kd: 8, limit: 50}}
    ties: {{q: angle, qdot: rate, u: torque}}
  motor: {{class: GeneralizedForceMotor, body: pendulum, ties: {{force: torque}}}}
logging:
  variables: ["signals.**", "models.**", "multibody.**", "assemblies.**"]
"""

NATIVE_A = """signals: {a: {type: double}}
    assemblies:
      B:
        class: ModelAssembly
        model: SineWave
        params: {amplitude: 2, frequency: 0.5 Hz}
        signal_ties: {y: a}
      C:
        class: ModelAssembly
        model: Gain
        params: {k: 3}
        signal_ties: {u: a}"""


def _write(tmp_path, name, **classes):
    path = tmp_path / name
    path.write_text(SCENARIO.format(**classes))
    return str(path)


def test_a_python_tree_in_a_scenario_gives_bit_identical_results(tmp_path):
    native = hopsim.load(_write(tmp_path, "native.yaml", gravity="GravityAssembly",
                                vehicle="VehicleAssembly", body="BodyAssembly", shared=NATIVE_A))
    python = hopsim.load(_write(tmp_path, "python.yaml", gravity="PyGravity",
                                vehicle="PyVehicle", body="PyBody",
                                shared="class: PySharedSignal"))
    native.run()
    python.run()
    assert python.columns == native.columns
    assert len(native.columns) > 60  # signals, model fields, bodies, assembly inputs
    assert np.array_equal(python.times(), native.times())
    for column in native.columns:
        assert np.array_equal(python.values(column), native.values(column), equal_nan=True), column
    # The same variables exist, with the same final values (the unlogged strings included).
    assert python.sim.list("") == native.sim.list("")

    # Not equally wrong: the lander falls freely from 20 m in Mars gravity (rk4 integrates the
    # quadratic exactly; 1e-9 m allows rounding over 1000 steps), the loop holds the pendulum,
    # and C's output is 3 * 2 sin(pi t) at the I/O samples.
    t = python.times()
    z = python.values("multibody.bodies.body.Q[6]")
    np.testing.assert_allclose(z, 20.0 - 0.5 * 3.71 * t**2, rtol=0, atol=1e-9)
    assert python.values("multibody.bodies.body.Q[0]")[-1] == 0.5
    assert abs(python.values("multibody.bodies.pendulum.Q")[-1]) < 0.05
    np.testing.assert_allclose(python.values("signals.A.C.y")[1:],
                               6.0 * np.sin(np.pi * t[1:]), rtol=0, atol=1e-12)


def _build(top, classes):
    """The tree of SCENARIO from a run script, with the given classes."""
    top.add_assembly(classes["gravity"], "gravity", params={"g": [0, 0, -3.71]})
    top.add_assembly(classes["vehicle"], "lander", config={"basename": "body",
                                                            "bodygraph": {"leg": "body"}},
                     params={"position": [0, 0, "20 m"], "attitude": [0.5, 0.5, 0.5, 0.5],
                             "bodies": {"body": {"mass": "1200 kg", "inertia": [800, 800, 600]},
                                        "leg": {"mass": 50, "inertia": [5, 5, 1],
                                                "cm": [0, 0, -0.5],
                                                "hinge": {"type": "LOCKED",
                                                          "inboard_position": [0, 0, -1]}}}})
    top.add_assembly(classes["body"], "pendulum",
                     params={"mass": 1.0, "cm": [0, 0, 1], "inertia": [0.01] * 3,
                             "hinge": {"type": "PIN", "axes": [0, 1, 0], "q": [0.1]}})
    if classes["shared"] is None:
        # A plain Assembly, given its signal and children afterwards as a definition would.
        a = top.add_assembly("Assembly", "A")
        a.add_signal("a")
        a.add_assembly("ModelAssembly", "B", config={"model": "SineWave"},
                       params={"amplitude": 2.0, "frequency": 0.5}, signal_ties={"y": "a"})
        a.add_assembly("ModelAssembly", "C", config={"model": "Gain"}, params={"k": 3.0},
                       signal_ties={"u": "a"})
    else:
        top.add_assembly(classes["shared"], "A")
    for name, unit in (("angle", "rad"), ("rate", "rad/s"), ("torque", "N*m")):
        top.add_signal(name, unit=unit)
    top.add_model("HingeEncoder", "encoder", body="pendulum")
    top.add_model("PdController", "controller", {"kp": 30, "kd": 8, "limit": 50})
    top.add_model("GeneralizedForceMotor", "motor", body="pendulum")
    for model, port, signal in (("encoder", "q", "angle"), ("encoder", "u", "rate"),
                                ("controller", "q", "angle"), ("controller", "qdot", "rate"),
                                ("controller", "u", "torque"), ("motor", "force", "torque")):
        top.tie(model, port, signal)


def _run_script(classes):
    sim = hopsim.Simulation(io_step_size=0.02, integrator="rk4")
    sim.integration_steps = 10
    top = hopsim.SimulationAssembly(sim)
    _build(top, classes)
    sim.lock()
    paths = [p for p in sim.list("") if not isinstance(sim.get(p), str)]
    samples = []
    for _ in range(50):
        sim.advance_time_by(0.02)
        samples.append([np.atleast_1d(sim.get(p)) for p in paths])
    return top, paths, samples


def test_a_python_tree_from_a_run_script_gives_bit_identical_results():
    stock = dict(gravity="GravityAssembly", vehicle="VehicleAssembly", body="BodyAssembly",
                 shared=None)
    ours = dict(gravity=PyGravity, vehicle=PyVehicle, body=PyBody, shared=PySharedSignal)
    _, paths, expected = _run_script(stock)
    top, python_paths, got = _run_script(ours)
    assert python_paths == paths and len(paths) > 60
    for step, (e, g) in enumerate(zip(expected, got)):
        for i, p in enumerate(paths):
            assert np.array_equal(e[i], g[i], equal_nan=True), (step, p)
    assert [c.name for c in top.children] == ["gravity", "lander", "pendulum", "A"]
    assert isinstance(top.child("lander"), PyVehicle)
    assert top.find("A.B").class_name == "ModelAssembly"
    assert top.child("A").parent.path == ""


# ---- schemas: types, units, validation ------------------------------------------------------


class Thruster(hopsim.Schema):
    """One thruster."""

    thrust = hopsim.Field(float, unit="N", above=0.0, doc="vacuum thrust")
    direction = hopsim.Field(list[float], length=3, default=[0.0, 0.0, 1.0])


class Lander(hopsim.Assembly):
    """A lander body with thrusters (for the schema tests)."""

    class Config(hopsim.Config):
        mode = hopsim.Field(str, choices=["throttled", "pulsed"], default="throttled")
        count = hopsim.Field(int, bounds=(1, 8), default=1)

    class Params(hopsim.Params):
        mass = hopsim.Field(float, unit="kg", above=0.0, doc="dry mass")
        distance = hopsim.Field(float, unit="m", default=0.0)
        armed = hopsim.Field(bool, default=False)
        thrusters = hopsim.Field(dict[str, Thruster], default={})
        main = hopsim.Field(Thruster, default={"thrust": 1.0})
        ratio = hopsim.Field(float, bounds=(0.0, 1.0), optional=True,
                             checks=[("NotHalf", lambda x: "is one half" if x == 0.5 else None)])

        def validate(self, values):
            if values.armed and len(values.thrusters) == 0:
                values.fail("armed", "an armed lander needs a thruster")


def _top():
    sim = hopsim.Simulation()
    return sim, hopsim.SimulationAssembly(sim)


def test_inputs_are_parsed_with_units_defaults_and_nested_records():
    _, top = _top()
    lander = top.add_assembly(Lander, "l", config={"count": "3"},
                              params={"mass": "1200 kg",
                                      "distance": "12 km",
                                      "thrusters": {"a": {"thrust": "2 kN"},
                                                    "b": {"thrust": 5, "direction": [1, 0, 0]}}})
    p = lander.params
    assert p.mass == 1200.0 and p.distance == 12000.0 and p.armed is False
    assert p.ratio is None and "ratio" not in p and "mass" in p
    assert lander.config.mode == "throttled" and lander.config.count == 3
    assert p.thrusters["a"].thrust == 2000.0
    assert np.array_equal(p.thrusters["b"].direction, [1.0, 0.0, 0.0])
    assert p.main.thrust == 1.0 and p["main"].path == "assemblies.l.params.main"
    assert p.unit("distance") == "m" and p.description("mass") == "dry mass"
    assert p.source("distance") == "" and p.source("armed") == "default"
    plain = p.to_dict()["thrusters"]["a"]
    assert plain["thrust"] == 2000.0 and np.array_equal(plain["direction"], [0.0, 0.0, 1.0])
    # The inputs are variables, with their units, writable until bound.
    sim = lander.sim
    assert sim.get("assemblies.l.params.thrusters.a.thrust") == 2000.0
    sim.set("assemblies.l.params.mass", 1300.0)
    assert lander.params.mass == 1300.0
    # A ParamValues is input too: a twin made from the first one's (SI) values.
    twin = top.add_assembly(Lander, "twin", params=lander.params)
    assert twin.params.thrusters["a"].thrust == 2000.0 and twin.params.mass == 1300.0
    assert [f.name for f in Lander.Params.fields()] == [
        "mass", "distance", "armed", "thrusters", "main", "ratio"]
    assert Lander.Params.fields()[3].type_name == "map<Thruster>"


@pytest.mark.parametrize("params, message", [
    ({"mas": 1.0}, "assemblies.x.params: unknown field 'mas' (did you mean 'mass' or 'main'?) "
                   "[Lander 'x']"),
    ({}, "assemblies.x.params.mass: missing required field [Lander 'x']"),
    ({"mass": -1}, "assemblies.x.params.mass: value -1 failed check: must be > 0 "
                   "(bounds (0, inf)) [Lander 'x']"),
    ({"mass": "3 m"}, "assemblies.x.params.mass: value \"3 m\" has the wrong dimension: '3 m' is "
                      "a length, expected a mass (kg) [Lander 'x']"),
    ({"mass": 1, "armed": "maybe"}, "assemblies.x.params.armed: expected bool, got \"maybe\" "
                                    "[Lander 'x']"),
    ({"mass": 1, "thrusters": {"a": {"thrust": 0}}},
     "assemblies.x.params.thrusters.a.thrust: value 0 failed check: must be > 0 "
     "(bounds (0, inf)) [Lander 'x']"),
    ({"mass": 1, "main": {"thrust": 1, "direction": [1, 0]}},
     "assemblies.x.params.main.direction: expected double[3], got 2 elements [Lander 'x']"),
    ({"mass": 1, "ratio": 0.5}, "assemblies.x.params.ratio: value 0.5 failed check NotHalf: is "
                                "one half [Lander 'x']"),
    ({"mass": 1, "armed": True}, "assemblies.x.params.armed: an armed lander needs a thruster "
                                 "[Lander 'x']"),
])
def test_bad_params_raise_the_cpp_messages_and_leave_nothing(params, message):
    sim, top = _top()
    with pytest.raises(hopsim.InputError) as error:
        top.add_assembly(Lander, "x", params=params)
    assert str(error.value) == message
    assert top.children == [] and sim.list("") == []


def test_bad_config_raises_naming_the_field():
    _, top = _top()
    with pytest.raises(hopsim.InputError, match=r"assemblies.x.config.mode: value \"fast\" failed "
                                                r"check: must be one of throttled, pulsed"):
        top.add_assembly(Lander, "x", config={"mode": "fast"}, params={"mass": 1})
    with pytest.raises(hopsim.InputError, match=r"config.count: value 9 failed check: must be "
                                                r"<= 8 \(bounds \[1, 8\]\)"):
        top.add_assembly(Lander, "x", config={"count": 9}, params={"mass": 1})
    with pytest.raises(hopsim.InputError, match="cannot use a object"):
        top.add_assembly(Lander, "x", params={"mass": object()})


def test_declaration_errors_name_the_class_and_field():
    with pytest.raises(hopsim.ModelError, match=r"Bad.Params: parameter field 'x': unit 'km' is "
                                                r"not an SI unit"):
        class Bad(hopsim.Assembly, register=False):
            class Params(hopsim.Params):
                x = hopsim.Field(float, unit="km")
    with pytest.raises(hopsim.ModelError, match="bounds on a string field"):
        class Bad2(hopsim.Schema):
            s = hopsim.Field(str, bounds=(0, 1))
    with pytest.raises(hopsim.ModelError, match="invalid default"):
        class Bad3(hopsim.Schema):
            n = hopsim.Field(int, default=-1, bounds=(0, None))
    with pytest.raises(TypeError, match="unsupported field type"):
        class Bad4(hopsim.Schema):
            s = hopsim.Field(complex)
    with pytest.raises(TypeError, match="must be a subclass of hopsim.Params"):
        class Bad5(hopsim.Assembly, register=False):
            Params = dict


def test_schemas_parse_on_their_own():
    values = Thruster.parse({"thrust": "1 kN"}, "t")
    assert values.thrust == 1000.0 and values.path == "t"
    with pytest.raises(hopsim.InputError, match=r"^t: unknown field 'thrst' \(did you mean "
                                                r"'thrust'\?\)$"):
        Thruster.parse({"thrst": 1}, "t")
    body = hopsim.BodyParams.parse({"mass": 2, "inertia": [1, 1, 1]}, "b")
    assert body.hinge.type == "FULL6DOF" and body.schema.name == "BodyParams"


# ---- registration and scenarios -------------------------------------------------------------


def test_registration_by_name_and_duplicates():
    assert {"PyBody", "PyVehicle", "PyGravity", "PySharedSignal", "Lander"} <= set(
        hopsim.assembly_classes())
    info = hopsim.assembly_class("Lander")
    assert info.doc == "A lander body with thrusters (for the schema tests)."
    assert [f.name for f in info.params.fields][:2] == ["mass", "distance"]
    with pytest.raises(hopsim.ModelError, match="assembly class 'Lander' is already registered"):
        class Lander(hopsim.Assembly):  # noqa: F811
            pass
    with pytest.raises(hopsim.ModelError, match="'BodyAssembly' is already registered"):
        class BodyAssembly(hopsim.Assembly):
            pass

    class Other(hopsim.Assembly, name="RenamedAssembly"):
        pass

    class Hidden(hopsim.Assembly, register=False):
        def add_signals(self):
            self.add_signal("h", int)

    assert "RenamedAssembly" in hopsim.assembly_classes()
    assert "Hidden" not in hopsim.assembly_classes()
    sim, top = _top()
    assert top.add_assembly("RenamedAssembly", "r").class_name == "RenamedAssembly"
    assert isinstance(top.add_assembly(Hidden, "h"), Hidden)
    assert sim.signal_names() == ["h.h"]
    with pytest.raises(hopsim.InputError, match=r"^assembly 'x': unknown assembly class 'Landr' "
                                                r"\(did you mean 'Lander'\?\)$"):
        top.add_assembly("Landr", "x")


def test_a_python_class_in_a_scenario_takes_config_context_params_and_ties(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(textwrap.dedent("""\
        hopsim: 1
        simulation: {end_time: 1, io_step: 0.1}
        signals: {wave: {}}
        models:
          sine: {class: SineWave, params: {amplitude: 1, frequency: 1}, ties: {y: wave}}
        assemblies:
          probe:
            class: Probe
            scale: 4
            params: {offset: 10 cm}
            signal_ties: {u: wave}
        logging: {variables: [signals.probe.y]}
        """))

    class Probe(hopsim.Assembly):
        """y = scale * u + offset, by a Gain and a Bias... here one Gain and the offset as a
        second Gain input."""

        class Config(hopsim.Config):
            scale = hopsim.Field(float, default=1.0)

        class Params(hopsim.Params):
            offset = hopsim.Field(float, unit="m", default=0.0)

        def add_signals(self):
            self.add_signal("u")
            self.add_signal("y")

        def add_models(self):
            gain = self.add_model("Gain", "gain", {"k": self.config.scale})
            self.tie(gain, "u", "u")
            self.tie("gain", "y", "y")

    scenario = hopsim.load(str(path))
    assert scenario.sim.get("assemblies.probe.params.offset") == pytest.approx(0.1)
    assert "probe.gain" in scenario.sim.model_names()
    scenario.run()
    t = scenario.times()
    np.testing.assert_allclose(scenario.values("signals.probe.y")[1:],
                               4.0 * np.sin(2 * np.pi * t[1:]), rtol=0, atol=1e-12)

    path.write_text(path.read_text().replace("params: {offset: 10 cm}",
                                             "params: {offset: 10 kg}"))
    with pytest.raises(hopsim.InputError, match=r"s.yaml:10:22: assemblies.probe.params.offset: "
                                                r"value \"10 kg\" has the wrong dimension"):
        hopsim.load(str(path))


# ---- failures: rollback, exceptions, lifetimes ----------------------------------------------


class Boom(hopsim.Assembly, register=False):
    """Creates a signal, a model, a body and a child, then fails in add_models."""

    seen = []

    def add_signals(self):
        self.add_signal("s", float, 3)

    def add_models(self):
        Boom.seen.append(self)
        self.add_model("Gain", "g")
        self.tie("g", "u", "s")
        self.add_body("boom_body", {"mass": 1, "inertia": [1, 1, 1]})
        raise RuntimeError("add_models failed on purpose")


class BoomParent(hopsim.Assembly, register=False):
    def add_signals(self):
        self.add_signal("p")

    def add_assemblies(self):
        self.add_assembly(PyBody, "ok", params={"mass": 1, "inertia": [1, 1, 1]})
        self.add_assembly(Boom, "boom")


def test_an_exception_in_a_stage_propagates_and_rolls_the_child_back():
    sim, top = _top()
    top.add_signal("kept")
    before = sim.list("")
    with pytest.raises(RuntimeError, match="add_models failed on purpose") as error:
        top.add_assembly(BoomParent, "parent")
    # The original exception, with the stage in its traceback.
    assert any(entry.name == "add_models" for entry in error.traceback)
    assert top.children == []
    assert sim.list("") == before and sim.signal_names() == ["kept"]
    assert sim.model_names() == []
    # The failed assembly's handle is dead, cleanly.
    with pytest.raises(hopsim.ModelError, match="assembly 'parent.boom' no longer exists"):
        Boom.seen[-1].params
    # The same names can be used again.
    top.add_assembly(PyBody, "parent", config={"body": "boom_body"},
                     params={"mass": 1, "inertia": [1, 1, 1]})
    sim.lock()


def test_an_exception_in_bind_params_fails_the_lock():
    class BadBind(hopsim.Assembly, register=False):
        def bind_params(self):
            raise ValueError("no params today")

    sim, top = _top()
    top.add_assembly(BadBind, "b")
    with pytest.raises(ValueError, match="no params today"):
        sim.lock()
    assert not sim.locked()


def test_handles_fail_cleanly_without_a_tree():
    class Free(hopsim.Assembly, register=False):
        pass

    with pytest.raises(hopsim.ModelError, match="not part of an assembly tree"):
        Free().name
    sim, top = _top()
    a = top.add_assembly(Free, "a")
    g = top.add_assembly("GravityAssembly", "g")
    assert a.name == "a" and np.array_equal(g.params.g, [0, 0, -9.81])
    del top
    gc.collect()
    with pytest.raises(hopsim.ModelError, match="assembly 'a' no longer exists"):
        a.path
    with pytest.raises(hopsim.ModelError, match="assembly 'g' no longer exists"):
        g.params
    assert "assemblies" not in " ".join(sim.list(""))


def test_signal_ties_and_tie_errors():
    class Sized(hopsim.Assembly, register=False):
        def add_signals(self):
            offered = self.offered_tie("v")
            self.add_signal("v", float, offered.length if offered else 1)

    sim, top = _top()
    top.add_signal("big", length=5)
    s = top.add_assembly(Sized, "s", signal_ties={"v": {"signal": "big", "offset": 1,
                                                        "length": 3}})
    ref = s.signal("v")
    assert (ref.signal, ref.offset, ref.length) == ("big", 1, 3)
    t = top.add_assembly(Sized, "t", signal_ties={"v": ("big", 4, 1)})
    assert t.signal("v").offset == 4
    with pytest.raises(hopsim.InputError, match="unknown key 'ofset'"):
        top.add_assembly(Sized, "u", signal_ties={"v": {"signal": "big", "ofset": 1}})
    top.add_assembly(Sized, "w", signal_ties={"vv": "big"})
    with pytest.raises(hopsim.ModelError, match=r"signal tie 'vv' -> 'big' given by the top "
                                                r"assembly to assembly 'w'.*never consumed"):
        top.bind()


def test_the_documented_pendulum_swings_to_the_other_side_in_half_a_period():
    """docs/assemblies.md, "A runnable example": a 2 deg swing of a 50 cm pendulum reaches
    -2 deg after half the small-angle period pi sqrt(l / g); the amplitude correction to the
    period is (theta0^2 / 16) ~ 8e-5 of it, at the turning point, so the angle is within 1e-6
    rad of -2 deg (rk4 at 1 ms adds far less)."""

    class DocPendulum(hopsim.Assembly, register=False):
        """A bob on a massless rod, on a pin hinge about y, hanging from its context body."""

        class Context(hopsim.Context):
            parentBody = hopsim.Field(str, optional=True, doc="the body the hinge is on")

        class Params(hopsim.Params):
            mass = hopsim.Field(float, unit="kg", above=0.0, doc="bob mass")
            length = hopsim.Field(float, unit="m", above=0.0, doc="rod length")
            angle = hopsim.Field(float, unit="rad", default=0.0, bounds=(-3.2, 3.2))

        def add_models(self):
            p = self.params
            self.add_body(self.name, {"mass": p.mass, "cm": [0.0, 0.0, -p.length],
                                      "inertia": [1e-9 * p.mass] * 3,
                                      "hinge": {"type": "PIN", "axes": [0, 1, 0]}})

        def bind_state(self):
            self.sim.multibody.set_body_q(self.name, [self.params.angle])

    sim = hopsim.Simulation(io_step_size=0.001, integrator="rk4")
    top = hopsim.SimulationAssembly(sim)
    top.add_assembly("GravityAssembly", "gravity")
    top.add_assembly(DocPendulum, "pendulum",
                     params={"mass": "2 kg", "length": "50 cm", "angle": "2 deg"})
    sim.lock()
    sim.advance_time_to(math.pi * math.sqrt(0.5 / 9.81))
    assert sim.get("multibody.bodies.pendulum.Q") == pytest.approx(-math.radians(2), abs=1e-6)
