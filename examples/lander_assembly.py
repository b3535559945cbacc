"""A lander descending under a throttled engine, built as a tree of Python assemblies.

The run script defines two assembly classes, the way a Dshell run script does:

- ``Engine``: a Python FlowModel (the throttle) commanding a C++ BodyLoad (the thrust force on a
  node), with its thrust and throttle setting as typed params;
- ``Lander``: a body on a vertical SLIDER hinge with a landing-leg node, and an ``Engine`` child
  tied to its ``thrust`` signal.

The top of the tree also holds the stock ``GravityAssembly`` with Mars gravity. Params are given
with units and checked against each class's schema. The lander starts at rest; the engine's
thrust is less than its weight, so it descends with constant acceleration a = T/m - g. A zero
crossing on the altitude stops the run at touchdown.

Physics check: touchdown at t = sqrt(2 h0 / (g - T/m)) with speed (g - T/m) t; the run must
match both to 1e-9 (the crossing is located to the tick; rk4 integrates the parabola exactly up
to rounding).

Run it: ``/usr/bin/python3 examples/lander_assembly.py [--plot lander.png]``.
"""

import argparse
import math
import sys

import hopsim

MARS_GRAVITY = 3.72076  # m/s^2


class Throttle(hopsim.FlowModel):
    """Thrust command along +z: F = throttle * max_thrust."""

    max_thrust = hopsim.Param(float, unit="N", min=0.0, doc="thrust at full throttle")
    throttle = hopsim.Param(float, unit="1", default=0.0, min=0.0, max=1.0, doc="setting")
    force = hopsim.FlowOut(float, length=3, unit="N", feeds_from=[], doc="force in world axes")

    def update_flow_outs(self, t):
        self.force = [0.0, 0.0, self.throttle * self.max_thrust]


class Engine(hopsim.Assembly):
    """A throttled engine pushing on a node of its context body."""

    class Context(hopsim.Context):
        node = hopsim.Field(str, doc="the node the thrust acts on")

    class Params(hopsim.Params):
        max_thrust = hopsim.Field(float, unit="N", above=0.0, doc="thrust at full throttle")
        throttle = hopsim.Field(float, unit="1", default=0.5, bounds=(0.0, 1.0),
                                doc="throttle setting")

    def add_signals(self):
        self.add_signal("thrust", length=3, unit="N")

    def add_models(self):
        p = self.params
        self.add_model(Throttle, "throttle",
                       {"max_thrust": p.max_thrust, "throttle": p.throttle})
        self.tie("throttle", "force", "thrust")
        # A load controller: the load is the command as it is (the unused modulation
        # function still needs its coefficients).
        self.add_model("BodyLoad", "load", {"type": "FORCE", "local_load": False,
                                             "controlled": True, "coefficients": [1.0]},
                       node=self.context.node)
        self.tie("load", "command", "thrust")


class Lander(hopsim.Assembly):
    """A lander on a vertical slider, with a node at its feet and an engine."""

    class Params(hopsim.Params):
        mass = hopsim.Field(float, unit="kg", above=0.0, doc="lander mass")
        altitude = hopsim.Field(float, unit="m", above=0.0, doc="initial altitude")
        max_thrust = hopsim.Field(float, unit="N", above=0.0, doc="engine thrust at full throttle")
        throttle = hopsim.Field(float, unit="1", default=0.5, bounds=(0.0, 1.0))

    def body(self):
        """The lander's BodyParams: mass, a slider along z starting at the altitude, feet."""
        p = self.params
        inertia = 0.1 * p.mass
        return {"mass": p.mass, "inertia": [inertia, inertia, inertia],
                "hinge": {"type": "SLIDER", "axes": [0, 0, 1], "q": [p.altitude]},
                "nodes": {"feet": {"position": [0.0, 0.0, 0.0]}}}

    def add_models(self):
        self.add_body(self.name, self.body())

    def bind_state(self):
        self.set_body_state(self.name, self.body())  # the hinge's q: the initial altitude

    def add_assemblies(self):
        p = self.params
        self.add_assembly(Engine, "engine", context={"node": "feet"},
                          params={"max_thrust": p.max_thrust, "throttle": p.throttle})


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", metavar="FILE.png", help="draw altitude and thrust")
    args = parser.parse_args(argv)

    sim = hopsim.Simulation(io_step_size=0.01, integrator="rk4")
    top = hopsim.SimulationAssembly(sim)  # keep it as long as the simulation is used
    top.add_assembly("GravityAssembly", "gravity", params={"g": [0.0, 0.0, -MARS_GRAVITY]})
    top.add_assembly(Lander, "lander", params={
        "mass": "1200 kg", "altitude": "0.15 km", "max_thrust": "6 kN", "throttle": 0.6})
    sim.lock()

    altitude = "multibody.bodies.lander.Q"
    sim.register_zero_crossing("touchdown", lambda s, t: s.get(altitude),
                               hopsim.CrossingDirection.FALLING,
                               lambda s, t: s.request_stop(), one_shot=True)
    recorder = sim.record(altitude, rate=10.0,
                          columns={"thrust": "signals.lander.engine.thrust[2]"})
    sim.advance_time_to(60.0)

    mass, h0, thrust = 1200.0, 150.0, 0.6 * 6000.0
    descent = MARS_GRAVITY - thrust / mass
    expected_time = math.sqrt(2.0 * h0 / descent)
    speed = -sim.get("multibody.bodies.lander.U")
    print(f"touchdown at {sim.time():.9f} s at {speed:.9f} m/s; the closed form says "
          f"{expected_time:.9f} s at {descent * expected_time:.9f} m/s")
    if args.plot:
        hopsim.plot.save(hopsim.plot.panels(recorder), args.plot)
        print("wrote", args.plot)
    if abs(sim.time() - expected_time) > 1e-9 or abs(speed - descent * expected_time) > 1e-9:
        print("FAILED: the touchdown does not follow the closed form", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
