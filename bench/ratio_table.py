#!/usr/bin/env python3
"""The table of benchmark ratios and targets, from the JSON that bench/run_all.sh collects.

    bench/ratio_table.py <results-dir>

<results-dir> holds one Google Benchmark JSON file per program (<program>.json, as run_all.sh
writes them with --benchmark_out) and scipy.json from bench/scipy_integrators.py; a missing file
gives its rows the status "not run". Prints what the programs report of the build and machine
(build type, compiler, multibody kernels, CPUs), then one table (quantity, value, target, status: met,
MISSED, "report" where no target is set, "error" where a benchmark reported one) and
exits 0: a missed target is reported, not a failure (docs/performance.md, "Running everything").
"""

import glob
import json
import math
import os
import re
import sys

SCALE = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def benchmark_name(name):
    """A run's name without the suffixes Google Benchmark adds for UseRealTime and a fixed
    iteration count ("/iterations:1/real_time"): the name the program registered."""
    return re.sub(r"/iterations:\d+$", "", name.removesuffix("/real_time"))


def load(results, program, keep_errors=False):
    """{name: row} of one program's Google Benchmark JSON, or None without the file: the median
    of repetitions when there are any, else the one run. With keep_errors, a benchmark that
    reported an error (SkipWithError) and has no successful run is kept, with "error_occurred"."""
    path = os.path.join(results, program + ".json")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        rows = json.load(f)["benchmarks"]
    errors = {benchmark_name(r["run_name"]): r for r in rows
              if keep_errors and r.get("error_occurred")}
    runs = {benchmark_name(r["run_name"]): r for r in rows
            if r.get("run_type", "iteration") == "iteration" and not r.get("error_occurred")}
    medians = {benchmark_name(r["run_name"]): r for r in rows
               if r.get("run_type") == "aggregate" and r.get("aggregate_name") == "median"}
    return {**errors, **runs, **medians}


def seconds(row, which="cpu_time"):
    return row[which] * SCALE[row.get("time_unit", "ns")]


class Table:
    """The rows (quantity, value, target, status) in the order they are added."""

    def __init__(self):
        self.rows = []

    def add(self, quantity, value, target=None, met=None, digits=3):
        """A value (None: "not run") against its target; met None: no target ("report")."""
        if value is None:
            self.rows.append((quantity, "n/a", target or "-", "not run"))
            return
        text = f"{value:.{digits}g}" if isinstance(value, float) else str(value)
        status = "report" if met is None else ("met" if met else "MISSED")
        self.rows.append((quantity, text, target or "-", status))

    def add_text(self, quantity, text, target, status):
        self.rows.append((quantity, text, target or "-", status))


def multibody_against_peers(results, table):
    """BM_<Algorithm>/<engine>/<model>: hopsim / fastest peer (CPU time); BM_<family>/<run>
    (full simulations): each hopsim run against each other run."""
    programs = sorted(os.path.basename(p)[:-5]
                      for p in glob.glob(os.path.join(results, "hopsim_bench_peers*.json")))
    if not programs:
        table.add("multibody against MuJoCo, DART, Bullet (peers not built)", None, "<= 1 / <= 0.5")
    for program in programs:
        groups = {}
        runs = {}
        for name, row in (load(results, program) or {}).items():
            parts = name.split("/")
            if len(parts) == 2 and parts[0].startswith("BM_"):
                runs.setdefault(parts[0], {})[parts[1]] = seconds(row)
            if len(parts) == 3 and parts[0].startswith("BM_"):
                algorithm, engine, model = parts
                groups.setdefault((algorithm, model), {})[engine] = seconds(row)
        for (algorithm, model), times in sorted(groups.items()):
            peers = {e: t for e, t in times.items() if e != "hopsim"}
            if "hopsim" not in times or not peers:
                continue
            fastest = min(peers, key=peers.get)
            ratio = times["hopsim"] / peers[fastest]
            label = f"{algorithm[3:]} {model}: hopsim / fastest peer ({fastest})"
            if algorithm == "BM_Forward":
                bodies = re.search(r"\d+", model)
                limit = 1.0 if bodies and int(bodies.group()) <= 7 else 0.5
                table.add(label, ratio, f"<= {limit:g}", ratio <= limit)
            else:
                table.add(label, ratio)
        for family, times in sorted(runs.items()):
            for ours in sorted(r for r in times if r.startswith("hopsim")):
                for other in sorted(r for r in times if not r.startswith("hopsim")):
                    table.add(f"{family[3:]}: {ours} / {other}, time per run",
                              times[ours] / times[other])


def executive_overhead(results, table):
    """The dataflow against the hand-written loop, 100 models; the multibody rk4 hop against its
    hand-written step."""
    executive = load(results, "hopsim_bench_executive")
    if executive is None:
        table.add("executive: hopsim / hand-written, 100 models", None, "<= 1.3")
    else:
        # Models written the ordinary way (per instance, the library's): at most 2.0 below 8
        # states, 1.3 from 8 up; with batch methods, 1.3 throughout.
        forms = (("BM_LinearChain/", "per instance", True),
                 ("BM_GainChain/", "library Gain", True),
                 ("BM_LinearChainBatched/", "batch methods", False))
        for prefix, form, ordinary in forms:
            for name, row in sorted(executive.items(), key=lambda kv: kv[1].get("states", 0)):
                if name.startswith(prefix):
                    limit = 2.0 if ordinary and row["states"] < 8 else 1.3
                    table.add(f"executive: hopsim / hand-written, 100 models of "
                              f"{int(row['states'])} states, {form}", row["ratio"],
                              f"<= {limit:g}", row["ratio"] <= limit)
    simulation = load(results, "hopsim_bench_multibody_simulation") or {}
    for bodies in (7, 30, 100):
        hop = simulation.get(f"BM_SimulationHop/bodies:{bodies}")
        step = simulation.get(f"BM_HandWrittenRk4Step/bodies:{bodies}")
        if hop and step:
            table.add(f"multibody rk4 hop, {bodies} bodies: hopsim / hand-written",
                      seconds(hop) / seconds(step))


def python_costs(results, table):
    """No target: what a run script pays per call, in microseconds of CPU time, and the Python
    FlowModels against their C++ twin."""
    python = load(results, "hopsim_bench_python")
    if python is None:
        table.add("Python: costs per call and FlowModel / C++ twin", None)
        return

    def microseconds(name, baseline=None):
        if name not in python or (baseline and baseline not in python):
            return None
        return 1e6 * (seconds(python[name]) - (seconds(python[baseline]) if baseline else 0.0))

    table.add("Python: event callback, us per call (HopWithPythonEvent - HopCppGain)",
              microseconds("BM_HopWithPythonEvent", "BM_HopCppGain"))
    table.add("Python: FlowModel on floats, us added per hop (HopPythonScalarGain - HopCppGain)",
              microseconds("BM_HopPythonScalarGain", "BM_HopCppGain"))
    table.add("Python: sim.get by path, us per call", microseconds("BM_GetByPath"))
    table.add("Python: sim.set by path, us per call", microseconds("BM_SetByPath"))
    if "BM_HopCppGain" in python:
        for twin in ("BM_HopPythonScalarGain", "BM_HopPythonGain"):
            if twin in python:
                table.add(f"Python FlowModel / C++ twin ({twin[3:]} / HopCppGain)",
                          seconds(python[twin]) / seconds(python["BM_HopCppGain"]))


def memory(results, table):
    """A Simulation's peak resident growth per body, and the allocations of a steady-state hop
    (counted; the program fails when a hop allocates, so its rows are then "not run"). A size
    that does not fit the program's address-space limit is an error row of its JSON."""
    rows = load(results, "hopsim_bench_memory", keep_errors=True) or {}
    for shape in ("chain", "tree"):
        for bodies in (1000, 10000, 100000):
            row = rows.get(f"BM_Simulation/{shape}/bodies:{bodies}")
            label = f"memory, {shape} of {bodies} bodies"
            if row is not None and row.get("error_occurred"):
                limit = re.search(r"more than the (\S+ GiB)", row.get("error_message", ""))
                table.add_text(f"{label}: resident size",
                               f"> {limit.group(1)}" if limit else "error", None, "error")
                row = None
            else:
                table.add(f"{label}: resident bytes per body", row and round(row["bytes_per_body"]))
            table.add(f"{label}: allocations per steady-state hop", row and row["allocs_per_hop"],
                      "0", row and row["allocs_per_hop"] == 0)


def zero_crossings(results, table):
    """Derivative evaluations per located event, and the bisection baseline against them."""
    crossings = load(results, "hopsim_bench_zero_crossings")
    if crossings is None:
        table.add("zero crossings: derivative evaluations per event", None, "< 10")
        return
    # The hopsim rows and the baseline each is compared with: cvode continuing its history
    # across hops against the same restarting baseline (bisection re-integrates from the hop
    # start, so it restarts in any case); cvode with Adams has no baseline of its own.
    rows = (("rkf45", "rkf45"), ("cvode", "cvode"), ("cvode_continued", "cvode"),
            ("cvode_adams_continued", None), ("rk4", "rk4"), ("rkf45_hop10ms", "rkf45_hop10ms"))
    for scenario in ("ball", "balls100"):
        for integrator, baseline_row in rows:
            hopsim = crossings.get(f"BM_Hopsim/{scenario}/{integrator}_illinois")
            baseline = (None if baseline_row is None else
                        crossings.get(f"BM_BisectionBaseline/{scenario}/{baseline_row}"))
            if hopsim is None:
                continue
            where = f"{scenario}, {integrator}"
            table.add(f"zero crossings {where}: evaluations per event, localization",
                      hopsim["localize_derivs"], "< 10", hopsim["localize_derivs"] < 10)
            table.add(f"zero crossings {where}: evaluations per event, with the rolled-back pass",
                      hopsim["event_derivs"], "< 10", hopsim["event_derivs"] < 10)
            if baseline is not None:
                ratio = baseline["event_derivs"] / hopsim["event_derivs"]
                table.add(f"zero crossings {where}: bisection baseline / hopsim evaluations",
                          ratio, ">= 3", ratio >= 3)


def integrators_against_scipy(results, table):
    """hopsim at equal error against SciPy (wall time), the error being that of the SciPy method
    at rtol 1e-8: hopsim's time interpolated (log time linear in log error) between its two runs
    of adjacent rtol whose errors bracket it, and, as an upper bound, the time of its cheapest
    run whose error is at most it."""
    integrators = load(results, "hopsim_bench_integrators")
    scipy_path = os.path.join(results, "scipy.json")
    scipy = None
    if os.path.exists(scipy_path):
        with open(scipy_path, encoding="utf-8") as f:
            scipy = json.load(f)

    def at_equal_error(problem, ours, theirs, limit):
        label = f"{problem}: {ours} / {theirs} wall time at equal error"
        target = None if limit is None else f"<= {limit:g}"
        anchor = None if scipy is None else next(
            (r for r in scipy if r["problem"] == problem and r["method"] == theirs
             and abs(r["rtol"] - 1e-8) < 1e-20), None)
        runs = [] if integrators is None else sorted(
            (r for n, r in integrators.items() if n.startswith(f"BM_Solve/{problem}/{ours}/")),
            key=lambda r: -r["rtol"])
        if anchor is None or not runs:
            table.add(label, None, target)
            return
        error, theirs_s = anchor["error"], 1e-3 * anchor["wall_ms"]
        good = [r for r in runs if r["error"] <= error]
        if not good:
            best = min(r["error"] for r in runs)
            table.add_text(label, f"none <= {error:.2g} (best {best:.2g})", target,
                           "MISSED" if target else "report")
            return
        cheapest = min(good, key=lambda r: seconds(r, "real_time"))
        for loose, tight in zip(runs, runs[1:]):
            if loose["error"] >= error >= tight["error"] and loose["error"] > tight["error"]:
                w = math.log(loose["error"] / error) / math.log(loose["error"] / tight["error"])
                t_loose, t_tight = seconds(loose, "real_time"), seconds(tight, "real_time")
                ratio = t_loose * (t_tight / t_loose) ** w / theirs_s
                table.add(label + f", interpolated (rtol {loose['rtol']:.0e} to "
                          f"{tight['rtol']:.0e})", ratio, target,
                          None if limit is None else ratio <= limit)
                break
        ratio = seconds(cheapest, "real_time") / theirs_s
        table.add(label + f", cheapest run at or below it (rtol {cheapest['rtol']:.0e})", ratio)

    at_equal_error("robertson", "cvode", "LSODA", 0.25)
    at_equal_error("vdp1000", "cvode", "LSODA", 0.25)
    at_equal_error("chain100", "cvode", "LSODA", None)
    at_equal_error("chain100", "cvode_adams", "LSODA", None)
    at_equal_error("chain100", "cvode_adams_fixed_point", "LSODA", None)
    at_equal_error("chain100", "rkf45", "RK45", None)


def dynamics_derivatives(results, table):
    """The analytic derivatives of forward dynamics against central differences of ABA in the
    same process: the speed-up on PIN chains (target >= 5 at 30 bodies) and the agreement of the
    two (target <= 1e-8 relative)."""
    rows = load(results, "hopsim_bench_aba_derivatives") or {}
    for bodies in (7, 30, 100):
        suffix = f"/bodies:{bodies}/branched:0"
        analytic = rows.get("BM_AbaDerivativesAnalytic" + suffix)
        differences = rows.get("BM_AbaDerivativesCentralDifferences" + suffix)
        ratio = analytic and differences and seconds(differences) / seconds(analytic)
        target = ">= 5" if bodies == 30 else None
        table.add(f"ABA derivatives, {bodies}-PIN chain: central differences / analytic", ratio,
                  target, None if target is None or ratio is None else ratio >= 5)
        agreement = analytic and analytic["agreement"]
        table.add(f"ABA derivatives, {bodies}-PIN chain: analytic against differences", agreement,
                  "<= 1e-8", agreement is not None and agreement <= 1e-8)


SECTIONS = (multibody_against_peers, dynamics_derivatives, executive_overhead, python_costs, memory, zero_crossings,
            integrators_against_scipy)


def build_description(results):
    """What the table was measured on, from the programs' JSON context: the build type, compiler
    and multibody kernels the programs report (bench/bench_context.h), each distinct value once,
    and the CPU count and clock. Empty when no file carries them."""
    reported = {"build_type": [], "compiler": [], "cpu_kernels": []}
    cpus = []
    for path in sorted(glob.glob(os.path.join(results, "*.json"))):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        context = data.get("context", {}) if isinstance(data, dict) else {}
        for key, values in reported.items():
            if context.get(key) and context[key] not in values:
                values.append(context[key])
        if "num_cpus" in context and not cpus:
            cpus.append(f"{context['num_cpus']} CPUs at {context.get('mhz_per_cpu', '?')} MHz")
    parts = ([", ".join(reported["build_type"])] if reported["build_type"] else []) + \
        reported["compiler"] + \
        ([f"multibody kernels {', '.join(reported['cpu_kernels'])}"]
         if reported["cpu_kernels"] else []) + cpus
    return "measured: " + "; ".join(parts) if parts else ""


def build_table(results):
    """The table's rows, (quantity, value, target, status), from the files in results."""
    table = Table()
    for section in SECTIONS:
        section(results, table)
    return table.rows


def main(argv):
    if len(argv) != 2:
        print("usage: ratio_table.py <results-dir>", file=sys.stderr)
        return 2
    rows = build_table(argv[1])
    description = build_description(argv[1])
    if description:
        print(description)
    width = max(len(row[0]) for row in rows)
    print(f"{'quantity':{width}}  {'value':>12}  {'target':>8}  status")
    for quantity, value, target, status in rows:
        print(f"{quantity:{width}}  {value:>12}  {target:>8}  {status}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
