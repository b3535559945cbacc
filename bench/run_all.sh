#!/usr/bin/env bash
# Runs every benchmark program built in <build>/bench (the peers' ones only if they were built,
# with -DHOPSIM_BENCH_PEERS=ON) and bench/scipy_integrators.py, then prints one table of the
# ratios with their targets (bench/ratio_table.py on their JSON; docs/performance.md,
# "Running everything"). Builds nothing.
#
#   bench/run_all.sh [build-dir]            (default: build)
#
# HOPSIM_BENCH_MIN_TIME (default 0.05 s) is passed to every program as --benchmark_min_time and
# HOPSIM_BENCH_REPETITIONS (default 3) as --benchmark_repetitions, whose median the table uses;
# HOPSIM_SCIPY_REPEAT (default 3) is the SciPy script's --repeat. With the defaults a whole
# run with the peers took 171 s on a 2-core machine (2026-11-30, docs/performance.md). The exit status is 1
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
echo "=== ratios and targets ($((SECONDS - started)) s)"
"$python" "$source_dir/bench/ratio_table.py" "$results"
table_status=$?

if (( ${#failed[@]} > 0 )); then
  echo "run_all.sh: failed: ${failed[*]}" >&2
  exit 1
fi
exit $table_status
