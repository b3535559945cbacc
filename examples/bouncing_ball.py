"""A ball bouncing on the ground: a Python ContinuousModel, a zero crossing and a Python event.

The ball (height h, velocity v, h'' = -g) is a ContinuousModel written in Python. A zero
crossing on its height, falling through zero, ends the hop exactly at the impact; its Python
callback reverses the velocity with a coefficient of restitution e. The script records the
height, compares every impact time with the closed form, and with ``--plot FILE.png`` draws the
run.

Physics check: dropped from rest at height H, the ball lands at t1 = sqrt(2 H / g) with speed
v1 = g t1; after impact k it leaves at e^k v1 and lands again 2 e^k v1 / g later. The impact
times must match to 1e-9 s (the crossing is located to the tick, 1 ns; rk4 integrates the
parabola exactly up to rounding).

Run it: ``/usr/bin/python3 examples/bouncing_ball.py [--plot ball.png]``.
"""

import argparse
import math
import sys

import hopsim

GRAVITY = 9.81
HEIGHT = 2.0  # m, dropped from rest
RESTITUTION = 0.8


class Ball(hopsim.ContinuousModel):
    """A point mass in uniform gravity: h' = v, v' = -g."""

    g = hopsim.Param(float, unit="m/s^2", default=9.81, min=0.0, doc="gravity")
    h = hopsim.ContinuousState(float, unit="m", default=1.0, doc="height above the ground")
    v = hopsim.ContinuousState(float, unit="m/s", default=0.0, doc="upward velocity")

    def post_deriv(self, t):
        self.derivatives.h = self.v
        self.derivatives.v = -self.g


def impact_times(count):
    """The first `count` impact times of the closed form."""
    first = math.sqrt(2.0 * HEIGHT / GRAVITY)
    times, speed = [first], GRAVITY * first
    for _ in range(count - 1):
        speed *= RESTITUTION
        times.append(times[-1] + 2.0 * speed / GRAVITY)
    return times


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", metavar="FILE.png", help="draw the height")
    parser.add_argument("--end", type=float, default=4.0, help="end time, s")
    args = parser.parse_args(argv)

    sim = hopsim.Simulation(io_step_size=0.01, integrator="rk4")
    sim.add_model(Ball("ball", g=GRAVITY))
    sim.set("models.ball.continuousStates.h", HEIGHT)
    sim.lock()

    impacts = []

    def bounce(s, t):
        impacts.append(t)
        v = s.get("models.ball.continuousStates.v")
        s.set("models.ball.continuousStates.v", -RESTITUTION * v)

    sim.register_zero_crossing("ground", lambda s, t: s.get("models.ball.continuousStates.h"),
                               hopsim.CrossingDirection.FALLING, bounce)
    recorder = sim.record("models.ball.continuousStates.h", rate=200.0)
    sim.advance_time_to(args.end)

    expected = [t for t in impact_times(50) if t <= args.end]
    worst = max((abs(a - b) for a, b in zip(impacts, expected)), default=0.0)
    print(f"{len(impacts)} impacts, the closed form has {len(expected)}; "
          f"largest timing error {worst:.2e} s; lowest recorded height "
          f"{min(recorder.values('models.ball.continuousStates.h')):.2e} m")
    if args.plot:
        hopsim.plot.save(hopsim.plot.time_series(recorder), args.plot)
        print("wrote", args.plot)
    if len(impacts) != len(expected) or worst > 1e-9:
        print("FAILED: the impacts do not follow the closed form", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
