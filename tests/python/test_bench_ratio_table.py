"""bench/ratio_table.py, the table of benchmark ratios that bench/run_all.sh prints, on Google
Benchmark JSON written the way the benchmark programs write it: with repetitions (aggregate
rows, the median taken), with the "/iterations:1/real_time" suffixes of a benchmark that fixes
its iterations and uses real time, with SkipWithError rows, and with programs missing."""

import importlib.util
import json
import subprocess
import sys

import pytest

from conftest import ROOT

SCRIPT = ROOT / "bench" / "ratio_table.py"


@pytest.fixture(scope="module")
def ratio_table():
    spec = importlib.util.spec_from_file_location("ratio_table", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def aggregates(run_name, repetitions=3, **fields):
    """The aggregate rows of --benchmark_report_aggregates_only for one benchmark; the median
    carries `fields`, the mean a different value, so that a table reading the mean is caught."""
    rows = []
    for name, scale in (("mean", 1.5), ("median", 1.0), ("stddev", 0.1), ("cv", 0.01)):
        row = {"name": f"{run_name}_{name}", "run_name": run_name, "run_type": "aggregate",
               "repetitions": repetitions, "aggregate_name": name}
        row.update({k: v * scale if isinstance(v, float) else v for k, v in fields.items()})
        rows.append(row)
    return rows


def skipped(run_name, message, repetitions=3):
    """The rows of a benchmark that called SkipWithError in every repetition."""
    return [{"name": run_name, "run_name": run_name, "run_type": "iteration",
             "repetitions": repetitions, "repetition_index": i, "error_occurred": True,
             "error_message": message, "iterations": 1, "real_time": 0.0, "cpu_time": 0.0,
             "time_unit": "ns"} for i in range(repetitions)]


def write(directory, program, rows, context=None):
    (directory / f"{program}.json").write_text(
        json.dumps({"context": context or {}, "benchmarks": rows}))


def by_quantity(rows):
    return {quantity: (value, target, status) for quantity, value, target, status in rows}


def test_memory_rows_come_from_the_medians_of_repeated_runs(tmp_path, ratio_table):
    rows = []
    for shape in ("chain", "tree"):
        for bodies in (1000, 10000):
            rows += aggregates(f"BM_Simulation/{shape}/bodies:{bodies}/iterations:1/real_time",
                               bytes_per_body=8861.0, allocs_per_hop=0.0, time_unit="ms",
                               real_time=15.0, cpu_time=0.2)
        rows += skipped(f"BM_Simulation/{shape}/bodies:100000/iterations:1/real_time",
                        "std::bad_alloc: needs more than the 8 GiB address-space limit")
    write(tmp_path, "hopsim_bench_memory", rows)
    table = by_quantity(ratio_table.build_table(str(tmp_path)))

    assert table["memory, chain of 1000 bodies: resident bytes per body"] == ("8861", "-", "report")
    assert table["memory, tree of 10000 bodies: allocations per steady-state hop"] == (
        "0", "0", "met")
    assert table["memory, tree of 100000 bodies: resident size"] == ("> 8 GiB", "-", "error")
    assert table["memory, tree of 100000 bodies: allocations per steady-state hop"] == (
        "n/a", "0", "not run")


def test_an_allocating_hop_misses_its_target(tmp_path, ratio_table):
    write(tmp_path, "hopsim_bench_memory",
          aggregates("BM_Simulation/chain/bodies:1000/iterations:1/real_time",
                     bytes_per_body=9000.0, allocs_per_hop=2.0))
    table = by_quantity(ratio_table.build_table(str(tmp_path)))
    assert table["memory, chain of 1000 bodies: allocations per steady-state hop"] == (
        "2", "0", "MISSED")


def test_forward_dynamics_against_the_fastest_peer(tmp_path, ratio_table):
    rows = []
    times = {"chain7": {"hopsim": 1.2, "mujoco": 1.8, "bullet": 2.0},
             "chain30": {"hopsim": 4.9, "mujoco": 12.0, "bullet": 10.0},
             "chain100": {"hopsim": 17.0, "dart": 60.0, "bullet": 32.0}}
    for model, engines in times.items():
        for engine, us in engines.items():
            rows += aggregates(f"BM_Forward/{engine}/{model}", cpu_time=us, real_time=us,
                               time_unit="us")
    write(tmp_path, "hopsim_bench_peers", rows)
    table = by_quantity(ratio_table.build_table(str(tmp_path)))
    assert table["Forward chain7: hopsim / fastest peer (mujoco)"] == ("0.667", "<= 1", "met")
    assert table["Forward chain30: hopsim / fastest peer (bullet)"] == ("0.49", "<= 0.5", "met")
    assert table["Forward chain100: hopsim / fastest peer (bullet)"] == (
        "0.531", "<= 0.5", "MISSED")


def test_dynamics_derivatives_against_central_differences(tmp_path, ratio_table):
    rows = []
    for bodies, analytic, differences, agreement in ((7, 2.0, 9.0, 3e-10), (30, 20.0, 90.0, 2e-9),
                                                    (100, 200.0, 1500.0, 5e-8)):
        suffix = f"/bodies:{bodies}/branched:0"
        rows += aggregates("BM_AbaDerivativesAnalytic" + suffix, cpu_time=analytic,
                           real_time=analytic, time_unit="us", agreement=agreement)
        rows += aggregates("BM_AbaDerivativesCentralDifferences" + suffix, cpu_time=differences,
                           real_time=differences, time_unit="us", agreement=agreement)
    write(tmp_path, "hopsim_bench_aba_derivatives", rows)
    table = by_quantity(ratio_table.build_table(str(tmp_path)))
    assert table["ABA derivatives, 7-PIN chain: central differences / analytic"] == (
        "4.5", "-", "report")
    assert table["ABA derivatives, 30-PIN chain: central differences / analytic"] == (
        "4.5", ">= 5", "MISSED")
    assert table["ABA derivatives, 100-PIN chain: central differences / analytic"] == (
        "7.5", "-", "report")
    assert table["ABA derivatives, 30-PIN chain: analytic against differences"] == (
        "2e-09", "<= 1e-8", "met")
    assert table["ABA derivatives, 100-PIN chain: analytic against differences"] == (
        "5e-08", "<= 1e-8", "MISSED")


def test_missing_programs_are_reported_as_not_run(tmp_path, ratio_table):
    table = by_quantity(ratio_table.build_table(str(tmp_path)))
    assert table["executive: hopsim / hand-written, 100 models"] == ("n/a", "<= 1.3", "not run")
    assert table["multibody against MuJoCo, DART, Bullet (peers not built)"][2] == "not run"
    assert table["memory, chain of 1000 bodies: resident bytes per body"][2] == "not run"
    assert table["robertson: cvode / LSODA wall time at equal error"] == (
        "n/a", "<= 0.25", "not run")


def test_the_script_prints_one_table(tmp_path):
    write(tmp_path, "hopsim_bench_executive",
          aggregates("BM_LinearChain/states:32/real_time", states=32.0, ratio=1.25))
    result = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True,
                            text=True, check=True)
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["quantity", "value", "target", "status"]
    row = next(line for line in lines if "100 models of 32 states" in line)
    assert row.split()[-4:] == ["1.25", "<=", "1.3", "met"]


def test_the_executive_rows_name_the_form_of_the_model(tmp_path, ratio_table):
    write(tmp_path, "hopsim_bench_executive",
          aggregates("BM_LinearChain/models:100/states:2/real_time", states=2.0, ratio=6.5)
          + aggregates("BM_LinearChain/models:100/states:8/real_time", states=8.0, ratio=1.25)
          + aggregates("BM_GainChain/models:100/states:2/real_time", states=2.0, ratio=1.9)
          + aggregates("BM_LinearChainBatched/models:100/states:2/real_time", states=2.0, ratio=1.8)
          + aggregates("BM_LinearChainBatched/models:100/states:8/real_time", states=8.0,
                       ratio=1.15))
    table = by_quantity(ratio_table.build_table(str(tmp_path)))
    prefix = "executive: hopsim / hand-written, 100 models of "
    # Models written the ordinary way: 2.0 below 8 states, 1.3 from 8 up; batch methods: 1.3.
    assert table[prefix + "2 states, per instance"] == ("6.5", "<= 2", "MISSED")
    assert table[prefix + "8 states, per instance"] == ("1.25", "<= 1.3", "met")
    assert table[prefix + "2 states, library Gain"] == ("1.9", "<= 2", "met")
    assert table[prefix + "2 states, batch methods"] == ("1.8", "<= 1.3", "MISSED")
    assert table[prefix + "8 states, batch methods"] == ("1.15", "<= 1.3", "met")


def test_the_script_names_its_argument(tmp_path):
    result = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True)
    assert result.returncode == 2
    assert "usage: ratio_table.py <results-dir>" in result.stderr


def test_the_script_first_says_what_the_programs_ran_on(tmp_path):
    # Every program reports its build (bench/bench_context.h); the multibody kernels' variant
    # changes the multibody rows, so a table that mixes variants must show both.
    context = {"num_cpus": 2, "mhz_per_cpu": 2600, "build_type": "Release",
               "compiler": "GCC 12.2.0", "cpu_kernels": "x86-64-v3"}
    write(tmp_path, "hopsim_bench_executive",
          aggregates("BM_LinearChain/states:32/real_time", states=32.0, ratio=1.25), context)
    write(tmp_path, "hopsim_bench_multibody", [], dict(context, cpu_kernels="generic"))
    (tmp_path / "scipy.json").write_text(json.dumps([]))
    result = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True,
                            text=True, check=True)
    lines = result.stdout.splitlines()
    assert lines[0] == ("measured: Release; GCC 12.2.0; multibody kernels x86-64-v3, generic; "
                        "2 CPUs at 2600 MHz")
    assert lines[1].split() == ["quantity", "value", "target", "status"]
