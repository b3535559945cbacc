#!/usr/bin/python3
"""SciPy's solve_ivp (LSODA, BDF, RK45) on the problems of bench/integrators.cpp.

Same problems, spans, initial values and tolerance pairs as the C++ benchmark, so that the two
tables compare row by row (docs/performance.md, "Integrators against SciPy"):

  robertson  Robertson's kinetics (stiff), y(0) = (1, 0, 0), to t = 4e10,
             atol = rtol (1e-6, 1e-12, 1e-4)
  vdp1000    Van der Pol, mu = 1000 (stiff), x(0) = (2, 0), to t = 3000, atol = rtol
  chain100   a hanging chain of 100 PIN bodies, x = [q; u], to t = 1 s, atol = rtol; the
             accelerations come from hopsim's ABA through the Python module
             (MultibodySystem.forward_dynamics), so both sides integrate the same function

rtol = 1e-6, 1e-8, 1e-10. Reported per (problem, method, rtol): the wall time of one solve_ivp
call (median of --repeat runs, time.perf_counter) and its CPU time (time.process_time); the
error max_i |x_i(T) - ref_i| / max(|ref_i|, floor), floor 0 for robertson and 1 for the others
(as in the C++ benchmark); the derivative evaluations nfev (with the finite-difference Jacobian
columns for BDF; LSODA's own Jacobian evaluations are not visible to SciPy and not counted).

References, at rtol 1e-13 and atol 1e-3 rtol times the problem's scales, checked before anything
is timed (a failed check prints the discrepancy and exits with status 1): Radau (implicit
Runge-Kutta, none of the timed methods) for robertson, continued to t = 1e11 where it must
match the published values of the Test Set for IVP Solvers (problem ROBER) to 1e-9, and for
vdp1000, where LSODA at rtol 1e-12 must agree to 1e-7; DOP853 (explicit Runge-Kutta of order 8)
for chain100, where it must agree with itself at rtol 1e-12 to 1e-9 and with LSODA at rtol 1e-12
to 1e-6.

RK45 is explicit: on the two stiff problems its stability limit costs millions of steps (for
vdp1000, 2.6 s and 188,000 evaluations for the first 30 s of the 3000 s span, measured; on
robertson some 1e14 steps), so it runs on chain100 only.

Usage: /usr/bin/python3 bench/scipy_integrators.py [--build build] [--repeat 3] [--json FILE]
"""

import argparse
import json
import math
import os
import platform
import statistics
import sys
import time

import numpy as np
import scipy
from scipy.integrate import solve_ivp

RTOL_EXPONENTS = (6, 8, 10)
METHODS = ("LSODA", "BDF", "RK45")


def robertson(_t, y):
    slow = 0.04 * y[0]
    fast = 1e4 * y[1] * y[2]
    quadratic = 3e7 * y[1] * y[1]
    return np.array([-slow + fast, slow - fast - quadratic, quadratic])


def van_der_pol(_t, x):
    mu = 1000.0
    return np.array([x[1], mu * (1.0 - x[0] * x[0]) * x[1] - x[0]])


def make_chain(hopsim, bodies=100):
    """The chain of bench/integrators.cpp (ChainDynamics), built through the Python module:
    body k has mass 1 + 0.25 sin k, CM 0.05 m below its origin, inertia about the CM
    m diag(1e-3, 1e-3, 2e-4), a PIN about x (k odd) or y (k even), 0.1 m below its parent;
    initial angles 0.1 sin(0.7 k), at rest."""
    sim = hopsim.Simulation(0.01)
    mb = sim.multibody
    mb.gravity = [0.0, 0.0, -9.81]
    for k in range(1, bodies + 1):
        mass = 1.0 + 0.25 * math.sin(k)
        inertia = hopsim.SpatialInertia(mass, com=[0.0, 0.0, -0.05],
                                        inertia=mass * np.diag([1e-3, 1e-3, 2e-4]))
        axis = [1.0, 0.0, 0.0] if k % 2 == 1 else [0.0, 1.0, 0.0]
        inboard = None if k == 1 else hopsim.RigidTransform.from_translation([0.0, 0.0, -0.1])
        mb.add_body(f"b{k}", k - 1, hopsim.Hinge.pin(axis), inertia, inboard=inboard)
    n = mb.nq
    x0 = np.zeros(2 * n)
    x0[:n] = 0.1 * np.sin(0.7 * np.arange(1, n + 1))
    forward_dynamics = mb.forward_dynamics

    def rhs(_t, x):
        # Pins: q' = u. The accelerations are hopsim's ABA with zero generalized forces.
        return np.concatenate((x[n:], forward_dynamics(q=x[:n], u=x[n:])))

    # The simulation owns the multibody system: keep it alive with the function.
    rhs.simulation = sim
    return rhs, x0


def solve(f, x0, t_end, method, rtol, atol):
    result = solve_ivp(f, (0.0, t_end), x0, method=method, rtol=rtol, atol=atol)
    if not result.success:
        raise RuntimeError(f"{method} failed at rtol {rtol:g}: {result.message}")
    return result


def fail_check(problem, what, found, bound):
    print(f"scipy_integrators: {problem}: {what} = {found:.3e} exceeds {bound:.1e}; "
          "nothing timed", file=sys.stderr)
    sys.exit(1)


def error(x, ref, floor):
    """max_i |x_i - ref_i| / max(|ref_i|, floor), the measure of bench/integrators.cpp."""
    return float(np.max(np.abs(x - ref) / np.maximum(np.abs(ref), floor)))


def reference(problem):
    """The reference x(T) of the module docstring, checked before it is used."""
    name, f, x0, t_end, scales, floor = problem
    tight = 1e-13

    def run(method, rtol, y0=x0, span=t_end):
        return solve(f, y0, span, method, rtol, 1e-3 * rtol * scales).y[:, -1]

    def agree(what, other, ref, bound):
        found = error(other, ref, floor)
        if not found <= bound:
            fail_check(name, what, found, bound)

    if name == "robertson":
        ref = run("Radau", tight)
        at_1e11 = run("Radau", tight, ref, 1e11 - t_end)
        published = np.array([0.2083340149701255e-07, 0.8333360770334713e-13,
                              0.9999999791665050e+00])
        found = float(np.max(np.abs((at_1e11 - published) / published)))
        if not found <= 1e-9:
            fail_check(name, "reference error against the published values at t = 1e11",
                       found, 1e-9)
    elif name == "vdp1000":
        ref = run("Radau", tight)
        agree("error of LSODA at rtol 1e-12 against the reference", run("LSODA", 1e-12), ref,
              1e-7)
    else:
        ref = run("DOP853", tight)
        agree("error of DOP853 at rtol 1e-12 against the reference", run("DOP853", 1e-12), ref,
              1e-9)
        agree("error of LSODA at rtol 1e-12 against the reference", run("LSODA", 1e-12), ref,
              1e-6)
    return ref


def problems(build):
    """(name, f, x0, T, atol scales, error floor) of each problem, as in integrators.cpp."""
    yield ("robertson", robertson, np.array([1.0, 0.0, 0.0]), 4e10,
           np.array([1e-6, 1e-12, 1e-4]), 0.0)
    yield "vdp1000", van_der_pol, np.array([2.0, 0.0]), 3000.0, np.ones(2), 1.0
    module_dir = os.path.join(build, "python")
    sys.path.insert(0, module_dir)
    try:
        import hopsim  # noqa: E402  (from the build tree)
    except ImportError as error_:
        print(f"chain100 skipped: the hopsim module is not importable from {module_dir} "
              f"({error_}); configure with -DHOPSIM_PYTHON=ON and build hopsim_python",
              file=sys.stderr)
        return
    f, x0 = make_chain(hopsim)
    yield "chain100", f, x0, 1.0, np.ones(x0.size), 1.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build", help="hopsim build dir (for chain100)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per row (median reported)")
    parser.add_argument("--json", help="also write the rows to this file as JSON")
    args = parser.parse_args()

    print(f"SciPy {scipy.__version__}, NumPy {np.__version__}, Python {platform.python_version()}"
          f", {platform.processor() or platform.machine()}")
    print(f"{'problem':10} {'method':6} {'rtol':>7} {'wall [ms]':>12} {'CPU [ms]':>12} "
          f"{'error':>10} {'nfev':>9} {'njev':>6}")
    rows = []
    for problem in problems(args.build):
        name, f, x0, t_end, scales, floor = problem
        ref = reference(problem)
        for method in METHODS:
            if method == "RK45" and name != "chain100":
                continue  # explicit on a stiff problem: see the module docstring
            for k in RTOL_EXPONENTS:
                rtol = 10.0 ** -k
                atol = rtol * scales
                # Checked before timing, as in the C++ benchmark: within 1e-2 of the reference.
                first = solve(f, x0, t_end, method, rtol, atol)
                err = error(first.y[:, -1], ref, floor)
                if not err <= 1e-2:
                    fail_check(name, f"{method} rtol {rtol:g} error before timing", err, 1e-2)
                wall, cpu = [], []
                for _ in range(args.repeat):
                    start, start_cpu = time.perf_counter(), time.process_time()
                    result = solve(f, x0, t_end, method, rtol, atol)
                    wall.append(time.perf_counter() - start)
                    cpu.append(time.process_time() - start_cpu)
                rows.append({"problem": name, "method": method, "rtol": rtol,
                             "wall_ms": 1e3 * statistics.median(wall),
                             "cpu_ms": 1e3 * statistics.median(cpu), "error": err,
                             "nfev": int(result.nfev), "njev": int(result.njev)})
                row = rows[-1]
                print(f"{name:10} {method:6} {rtol:7.0e} {row['wall_ms']:12.3f} "
                      f"{row['cpu_ms']:12.3f} {err:10.2e} {row['nfev']:9d} {row['njev']:6d}",
                      flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(rows, out, indent=1)


if __name__ == "__main__":
    main()
