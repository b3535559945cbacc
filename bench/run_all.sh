#!/usr/bin/env bash
# Runs every benchmark program built in <build>/bench (the peers' ones only if they were built,
# with -DHOPSIM_BENCH_PEERS=ON) and bench/scipy_integrators.py, then prints one table of issue
# 11's ratios with their targets (docs/performance.md, "Running everything"). Builds nothing.
#
#   bench/run_all.sh [build-dir]            (default: build)
#
# HOPSIM_BENCH_MIN_TIME (default 0.05 s) is passed to every program as --benchmark_min_time and
# HOPSIM_BENCH_REPETITIONS (default 3) as --benchmark_repetitions, whose median the table uses;
# HOPSIM_SCIPY_REPEAT (default 3) is the SciPy script's --repeat. With the defaults the whole
# run took 197 s with the peers on a 2-core machine (docs/performance.md). The exit status is 1
# if a program failed (a benchmark that finds a wrong result exits non-zero before timing), 0
# otherwise: a missed target is reported in the table, not as a failure.

set -uo pipefail

build=${1:-build}
min_time=${HOPSIM_BENCH_MIN_TIME:-0.05}
repetitions=${HOPSIM_BENCH_REPETITIONS:-3}
if [[ ! "$repetitions" =~ ^[1-9][0-9]*$ ]]; then
  echo "run_all.sh: HOPSIM_BENCH_REPETITIONS is '$repetitions' (expected a positive integer)" >&2
  exit 2
fi
repeat=${HOPSIM_SCIPY_REPEAT:-3}
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python=/usr/bin/python3

if [[ ! -d "$build/bench" ]]; then
  echo "run_all.sh: $build/bench does not exist; configure and build the benchmarks first" \
       "(cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release && cmake --build $build)" >&2
  exit 2
fi

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
failed=()
started=$SECONDS

for program in "$build"/bench/hopsim_bench_*; do
  [[ -f "$program" && -x "$program" ]] || continue
  name=$(basename "$program")
  echo "=== $name"
  if ! "$program" --benchmark_min_time="$min_time" --benchmark_repetitions="$repetitions" \
       --benchmark_report_aggregates_only=true \
       --benchmark_out="$results/$name.json" --benchmark_out_format=json; then
    echo "run_all.sh: $name failed" >&2
    failed+=("$name")
    rm -f "$results/$name.json"
  fi
done
if ! compgen -G "$build/bench/hopsim_bench_peers*" > /dev/null; then
  echo "=== peers: not built (configure with -DHOPSIM_BENCH_PEERS=ON; bench/peers/README.md)"
fi

echo "=== scipy_integrators.py"
if ! "$python" "$source_dir/bench/scipy_integrators.py" --build "$build" --repeat "$repeat" \
     --json "$results/scipy.json"; then
  echo "run_all.sh: scipy_integrators.py failed" >&2
  failed+=("scipy_integrators.py")
  rm -f "$results/scipy.json"
fi

echo
echo "=== issue 11: ratios and targets ($((SECONDS - started)) s)"
"$python" - "$results" <<'EOF'
import glob
import json
import math
import os
import re
import sys

results = sys.argv[1]
SCALE = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def load(program):
    """{name: row} of one program's Google Benchmark JSON (names without "/real_time"): the
    median of repetitions when there are any, else the one run."""
    path = os.path.join(results, program + ".json")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        rows = [r for r in json.load(f)["benchmarks"] if not r.get("error_occurred")]
    medians = {r["run_name"].removesuffix("/real_time"): r for r in rows
               if r.get("run_type") == "aggregate" and r.get("aggregate_name") == "median"}
    runs = {r["name"].removesuffix("/real_time"): r for r in rows
            if r.get("run_type", "iteration") == "iteration"}
    return {**runs, **medians}


def seconds(row, which="cpu_time"):
    return row[which] * SCALE[row.get("time_unit", "ns")]


table = []  # (quantity, value, target, status)


def add(quantity, value, target=None, met=None, digits=3):
    if value is None:
        table.append((quantity, "n/a", target or "-", "not run"))
        return
    text = f"{value:.{digits}g}" if isinstance(value, float) else str(value)
    status = "report" if met is None else ("met" if met else "MISSED")
    table.append((quantity, text, target or "-", status))


# Multibody against the peers: BM_<Algorithm>/<engine>/<model>, hopsim / fastest peer (CPU).
peer_programs = sorted(os.path.basename(p)[:-5]
                       for p in glob.glob(os.path.join(results, "hopsim_bench_peers*.json")))
for program in peer_programs:
    rows = load(program) or {}
    groups = {}
    runs = {}  # BM_<family>/<run> (full simulations): hopsim's runs against the others
    for name, row in rows.items():
        parts = name.split("/")
        if len(parts) == 2 and parts[0].startswith("BM_"):
            runs.setdefault(parts[0], {})[parts[1]] = seconds(row)
        if len(parts) != 3 or not parts[0].startswith("BM_"):
            continue
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
            add(label, ratio, f"<= {limit:g}", ratio <= limit)
        else:
            add(label, ratio)
    for family, times in sorted(runs.items()):
        for ours in sorted(r for r in times if r.startswith("hopsim")):
            for other in sorted(r for r in times if not r.startswith("hopsim")):
                add(f"{family[3:]}: {ours} / {other}, time per run", times[ours] / times[other])
if not peer_programs:
    add("multibody against MuJoCo, DART, Bullet (peers not built)", None, "<= 1 / <= 0.5")

# Executive overhead: the dataflow against the hand-written loop, 100 models.
executive = load("hopsim_bench_executive")
if executive is None:
    add("executive: hopsim / hand-written, 100 models", None, "<= 1.3")
else:
    for name, row in sorted(executive.items(), key=lambda kv: kv[1].get("states", 0)):
        if name.startswith("BM_LinearChain/"):
            states = int(row["states"])
            add(f"executive: hopsim / hand-written, 100 models of {states} states", row["ratio"],
                "<= 1.3", row["ratio"] <= 1.3)

simulation = load("hopsim_bench_multibody_simulation")
if simulation:
    for bodies in (7, 30, 100):
        hop = simulation.get(f"BM_SimulationHop/bodies:{bodies}")
        step = simulation.get(f"BM_HandWrittenRk4Step/bodies:{bodies}")
        if hop and step:
            add(f"multibody rk4 hop, {bodies} bodies: hopsim / hand-written",
                seconds(hop) / seconds(step))

# Python (no target): what a run script pays per call, in microseconds of CPU time, and the
# Python FlowModels against their C++ twin.
python = load("hopsim_bench_python")
if python is None:
    add("Python: costs per call and FlowModel / C++ twin", None)
else:
    def python_us(name, baseline=None):
        if name not in python or (baseline and baseline not in python):
            return None
        return 1e6 * (seconds(python[name]) - (seconds(python[baseline]) if baseline else 0.0))
    add("Python: event callback, us per call (HopWithPythonEvent - HopCppGain)",
        python_us("BM_HopWithPythonEvent", "BM_HopCppGain"))
    add("Python: FlowModel on floats, us added per hop (HopPythonScalarGain - HopCppGain)",
        python_us("BM_HopPythonScalarGain", "BM_HopCppGain"))
    add("Python: sim.get by path, us per call", python_us("BM_GetByPath"))
    add("Python: sim.set by path, us per call", python_us("BM_SetByPath"))
    if "BM_HopCppGain" in python:
        for twin in ("BM_HopPythonScalarGain", "BM_HopPythonGain"):
            if twin in python:
                add(f"Python FlowModel / C++ twin ({twin[3:]} / HopCppGain)",
                    seconds(python[twin]) / seconds(python["BM_HopCppGain"]))

# Memory: a Simulation's peak resident growth per body, and the allocations of a steady-state
# hop (counted; the program fails when a hop allocates, so its rows are then "not run"). A size
# that does not fit the program's address-space limit is an error row of its JSON.
memory = {}
memory_path = os.path.join(results, "hopsim_bench_memory.json")
if os.path.exists(memory_path):
    with open(memory_path, encoding="utf-8") as f:
        for r in json.load(f)["benchmarks"]:
            memory[r["name"].removesuffix("/real_time").removesuffix("/iterations:1")] = r
for shape in ("chain", "tree"):
    for bodies in (1000, 10000, 100000):
        row = memory.get(f"BM_Simulation/{shape}/bodies:{bodies}")
        label = f"memory, {shape} of {bodies} bodies"
        if row is not None and row.get("error_occurred"):
            limit = re.search(r"more than the (\S+ GiB)", row.get("error_message", ""))
            table.append((f"{label}: resident size",
                          f"> {limit.group(1)}" if limit else "error", "-", "error"))
            row = None
        else:
            add(f"{label}: resident bytes per body", row and round(row["bytes_per_body"]))
        add(f"{label}: allocations per steady-state hop", row and row["allocs_per_hop"], "0",
            row and row["allocs_per_hop"] == 0)

# Zero crossings: derivative evaluations per located event, and the bisection baseline.
crossings = load("hopsim_bench_zero_crossings")
if crossings is None:
    add("zero crossings: derivative evaluations per event", None, "< 10")
else:
    for scenario in ("ball", "balls100"):
        for integrator in ("rkf45", "cvode", "rk4", "rkf45_hop10ms"):
            hopsim = crossings.get(f"BM_Hopsim/{scenario}/{integrator}_illinois")
            baseline = crossings.get(f"BM_BisectionBaseline/{scenario}/{integrator}")
            if hopsim is None:
                continue
            where = f"{scenario}, {integrator}"
            add(f"zero crossings {where}: evaluations per event, localization",
                hopsim["localize_derivs"], "< 10", hopsim["localize_derivs"] < 10)
            add(f"zero crossings {where}: evaluations per event, with the rolled-back pass",
                hopsim["event_derivs"], "< 10", hopsim["event_derivs"] < 10)
            if baseline is not None:
                ratio = baseline["event_derivs"] / hopsim["event_derivs"]
                add(f"zero crossings {where}: bisection baseline / hopsim evaluations", ratio,
                    ">= 3", ratio >= 3)

# Integrators: hopsim at equal error against SciPy (wall time), the error being that of the SciPy
# method at rtol 1e-8: hopsim's time interpolated (log time linear in log error) between its two
# runs of adjacent rtol whose errors bracket it, and, as an upper bound, the time of its cheapest
# run whose error is at most it.
integrators = load("hopsim_bench_integrators")
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
        add(label, None, target)
        return
    error, theirs_s = anchor["error"], 1e-3 * anchor["wall_ms"]
    good = [r for r in runs if r["error"] <= error]
    if not good:
        best = min(r["error"] for r in runs)
        table.append((label, f"none <= {error:.2g} (best {best:.2g})", target or "-",
                      "MISSED" if target else "report"))
        return
    cheapest = min(good, key=lambda r: seconds(r, "real_time"))
    for loose, tight in zip(runs, runs[1:]):
        if loose["error"] >= error >= tight["error"] and loose["error"] > tight["error"]:
            w = math.log(loose["error"] / error) / math.log(loose["error"] / tight["error"])
            t_loose, t_tight = seconds(loose, "real_time"), seconds(tight, "real_time")
            ratio = t_loose * (t_tight / t_loose) ** w / theirs_s
            add(label + f", interpolated (rtol {loose['rtol']:.0e} to {tight['rtol']:.0e})",
                ratio, target, None if limit is None else ratio <= limit)
            break
    ratio = seconds(cheapest, "real_time") / theirs_s
    add(label + f", cheapest run at or below it (rtol {cheapest['rtol']:.0e})", ratio)


at_equal_error("robertson", "cvode", "LSODA", 0.25)
at_equal_error("vdp1000", "cvode", "LSODA", 0.25)
at_equal_error("chain100", "cvode", "LSODA", None)
at_equal_error("chain100", "cvode_adams", "LSODA", None)
at_equal_error("chain100", "rkf45", "RK45", None)

width = max(len(row[0]) for row in table)
print(f"{'quantity':{width}}  {'value':>12}  {'target':>8}  status")
for quantity, value, target, status in table:
    print(f"{quantity:{width}}  {value:>12}  {target:>8}  {status}")
EOF
table_status=$?

if (( ${#failed[@]} > 0 )); then
  echo "run_all.sh: failed: ${failed[*]}" >&2
  exit 1
fi
exit $table_status
