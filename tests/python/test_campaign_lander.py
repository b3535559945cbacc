"""The lander campaign (examples/lander_campaign.yaml; docs/campaigns.md): 200 landings with the
dry mass, the throttle and the starting altitude dispersed, run serially, on a LocalCluster of
2 workers and on a separately started dask-scheduler + dask-worker pair on loopback.

- The three give the same results, bit for bit (every run is a deterministic simulation of
  parameters drawn from its own seed, stored in run order).
- Every run's touchdown velocity and time equal an independent 1-D integration (SciPy's DOP853)
  of the same equations with that run's parameters, to 1e-6 relative (the simulation's rkf45
  runs at rtol 1e-12; the lander's own test holds it to that bound), and so do the statistics.
- The dispersed parameters follow their declared distributions (means within 4.5 standard
  errors: the seed is fixed, so the check is deterministic; a seed would fail it by chance
  with probability under 1e-5 per check).
- A run that fails (a parameter out of range) is recorded with its error; the others run.
- A dispersion that does not apply as asked (a model's output, which the model computes again
  when the run starts) fails its run.
- Any run replays alone with the same results; ``hopsim campaign`` runs the file, sized and
  changed from the command line (``--runs``, ``--set``), writes where it is run or into
  ``--out-dir``, and carries the units into the summary, the results file and the plots.
"""

import math
import os
import pathlib
import subprocess
import sys
import time

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.special import ndtr

import hopsim
from hopsim.campaign import Campaign, CampaignResults

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
HOPSIM = pathlib.Path(hopsim.__file__).resolve().parents[2] / "apps" / "hopsim"
PACKAGE_DIR = str(pathlib.Path(hopsim.__file__).resolve().parents[1])

# examples/lander.yaml's fixed numbers (the dispersed ones come from each run).
MU, MOON_RADIUS, G0 = 4.9048695e12, 1737.4e3, 9.80665
FUEL, CM_HEIGHT, ISP, V0 = 20.0, 0.5, 300.0, -25.0
MIN_LEVEL, MAX_LEVEL = 1000.0, 5000.0
PATHS = ["models.tank.params.empty_mass", "signals.throttle",
         "assemblies.lander.params.position[2]"]


def campaign_file(tmp_path, **changes):
    """examples/lander_campaign.yaml with its scenario made absolute and its outputs in
    tmp_path (so that tests write nothing into the source tree), with top-level `changes`."""
    import yaml

    data = yaml.safe_load((EXAMPLES / "lander_campaign.yaml").read_text())
    data["scenario"] = str(EXAMPLES / "lander.yaml")
    data["outputs"] = {"file": str(tmp_path / "lander.h5"),
                       "summary": str(tmp_path / "summary.txt"),
                       "plots": dict(data["outputs"]["plots"], directory=str(tmp_path / "plots"))}
    data.update(changes)
    if "dispersions" in changes:  # the scatter plots name the example's dispersions
        data["outputs"]["plots"]["scatter"] = []
    path = tmp_path / "campaign.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def reference_landing(dry_mass, throttle, altitude, isp=ISP):
    """Touchdown time and velocity of the 1-D lander: the feet at altitude z, the CM 0.5 m above
    them at r = R + z + 0.5 from the Moon's centre; thrust along the vertical while the 20 kg of
    fuel last (mdot = thrust / (Isp g0)), then free fall."""
    thrust = MIN_LEVEL + throttle * (MAX_LEVEL - MIN_LEVEL)
    mdot = thrust / (isp * G0)
    burnout = FUEL / mdot

    def derivative(burning):
        def f(t, y):
            r = MOON_RADIUS + y[0] + CM_HEIGHT
            a = -MU / (r * r)
            if burning:
                a += thrust / (dry_mass + FUEL - mdot * t)
            return [y[1], a]
        return f

    def ground(t, y):
        return y[0]
    ground.terminal, ground.direction = True, -1
    tight = {"method": "DOP853", "rtol": 1e-13, "atol": 1e-12}
    burn = solve_ivp(derivative(True), (0.0, burnout), [altitude, V0], events=ground, **tight)
    assert burn.status == 0, "these landings all burn out before touchdown"
    fall = solve_ivp(derivative(False), (burnout, burnout + 1e3), burn.y[:, -1], events=ground,
                     **tight)
    return fall.t_events[0][0], fall.y_events[0][0][1], burnout


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    path = campaign_file(tmp_path_factory.mktemp("serial"))
    campaign = Campaign.from_file(path)
    return campaign, campaign.run(workers=0)


def assert_same(a, b):
    """Every field of two results but the wall times, bit for bit."""
    for field in ("parameters", "applied", "final", "events", "end_time"):
        assert np.array_equal(getattr(a, field), getattr(b, field), equal_nan=True), field
    assert np.array_equal(a.ok, b.ok)
    assert a.errors == b.errors
    assert (a.parameter_paths, a.final_names, a.event_names) == \
        (b.parameter_paths, b.final_names, b.event_names)


def test_every_landing_matches_the_independent_1d_integration(serial):
    _, results = serial
    assert results.runs.size == 200 and results.failures == 0
    assert results.parameter_paths == PATHS
    np.testing.assert_array_equal(results.applied, results.parameters)  # every one applied
    speeds, times, burnouts = [], [], []
    for dry_mass, throttle, altitude in results.parameters:
        t, v, b = reference_landing(dry_mass, throttle, altitude)
        times.append(t)
        speeds.append(v)
        burnouts.append(b)
    np.testing.assert_allclose(results.output("touchdown_velocity"), speeds, rtol=1e-6)
    np.testing.assert_allclose(results.output("touchdown"), times, rtol=1e-6)
    np.testing.assert_allclose(results.output("tank.burnout"), burnouts, rtol=1e-9)
    # The statistics the summary reports are those of the independent values.
    stats = results.summary()["outputs"]["touchdown_velocity"]
    assert stats["mean"] == pytest.approx(np.mean(speeds), rel=1e-6)
    assert stats["std"] == pytest.approx(np.std(speeds, ddof=1), rel=1e-5)
    assert stats["p5"] == pytest.approx(np.percentile(speeds, 5), rel=1e-6)
    assert stats["p95"] == pytest.approx(np.percentile(speeds, 95), rel=1e-6)
    # Mass balance: the lander ends with its dry mass (the fuel burned out).
    np.testing.assert_allclose(results.output("mass"), results.parameters[:, 0], rtol=1e-12)


def test_the_parameters_follow_their_distributions(serial):
    _, results = serial
    n = results.runs.size
    mass, throttle, altitude = results.parameters.T
    assert abs(mass.mean() - 1000.0) < 4.5 * 20.0 / math.sqrt(n)
    assert abs(mass.std(ddof=1) - 20.0) < 4.5 * 20.0 / math.sqrt(2 * (n - 1))
    assert throttle.min() >= 0.42 and throttle.max() < 0.48
    assert abs(throttle.mean() - 0.45) < 4.5 * 0.06 / math.sqrt(12 * n)
    assert altitude.min() >= 570.0 and altitude.max() <= 630.0
    # The truncated normal's mean is the untruncated one (symmetric truncation); its variance
    # is sigma^2 (1 - 2 a phi(a) / (2 Phi(a) - 1)) with a = 3.
    a = 3.0
    phi = math.exp(-a * a / 2) / math.sqrt(2 * math.pi)
    sd = 10.0 * math.sqrt(1 - 2 * a * phi / (ndtr(a) - ndtr(-a)))
    assert abs(altitude.mean() - 600.0) < 4.5 * sd / math.sqrt(n)


def test_a_local_cluster_of_two_workers_gives_the_same_results(serial, tmp_path):
    campaign, expected = serial
    assert_same(campaign.run(workers=2), expected)


def test_a_separate_scheduler_and_worker_on_loopback_give_the_same_results(serial, tmp_path):
    from distributed import Client

    campaign, expected = serial
    scheduler_file = tmp_path / "scheduler.json"
    env = dict(os.environ, PYTHONPATH=PACKAGE_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    bin_dir = pathlib.Path(sys.executable).parent
    scheduler = subprocess.Popen(
        [str(bin_dir / "dask-scheduler"), "--host", "127.0.0.1", "--port", "0",
         "--dashboard-address", ":0", "--scheduler-file", str(scheduler_file)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists():
            assert time.monotonic() < deadline, "dask-scheduler did not start in 60 s"
            time.sleep(0.1)
        worker = subprocess.Popen(
            [str(bin_dir / "dask-worker"), "--scheduler-file", str(scheduler_file),
             "--nworkers", "1", "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with Client(scheduler_file=str(scheduler_file), timeout=60) as client:
            client.wait_for_workers(1, timeout=60)
            assert all(address.startswith("tcp://127.0.0.1:")
                       for address in client.scheduler_info()["workers"])
            assert_same(campaign.run(client=client), expected)
    finally:
        for process in (worker, scheduler):
            if process is not None:
                process.terminate()
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()


def test_any_run_replays_alone(serial):
    campaign, results = serial
    row = campaign.replay(137)
    assert row["ok"]
    assert [row["applied"][p] for p in PATHS] == list(results.applied[137])
    assert row["final"]["touchdown_velocity"] == results.output("touchdown_velocity")[137]
    assert row["events"]["touchdown"] == results.output("touchdown")[137]


def test_results_file_holds_everything(serial, tmp_path):
    campaign, results = serial
    results.write_hdf5(tmp_path / "r.h5")
    back = CampaignResults.read_hdf5(tmp_path / "r.h5")
    assert_same(back, results)
    assert back.campaign_text == campaign.spec.text and back.seed == 20261127
    files = results.plot(tmp_path / "plots", ["touchdown_velocity"],
                         [("signals.throttle", "touchdown_velocity")])
    assert all(pathlib.Path(f).stat().st_size > 1000 for f in files) and len(files) == 2


def test_a_failing_run_is_recorded_and_the_others_run(tmp_path):
    masses = [1000.0, 990.0, -5.0, 1010.0, 1005.0]  # run 2: a negative dry mass
    path = campaign_file(tmp_path, runs=5, dispersions=[
        {"path": "models.tank.params.empty_mass", "distribution": "list", "values": masses}])
    results = Campaign.from_file(path).run(workers=2)
    assert list(results.ok) == [True, True, False, True, True]
    assert "empty_mass" in results.errors[2] and "-5" in results.errors[2], results.errors[2]
    assert all(e == "" for i, e in enumerate(results.errors) if i != 2)
    assert np.isnan(results.output("touchdown_velocity")[2])
    assert results.parameters[2, 0] == -5.0  # the parameters of a failed run are kept
    assert results.summary()["failures"] == 1
    assert "run 2: " in results.summary_text()


def test_a_dispersion_that_does_not_apply_as_asked_fails_its_run(tmp_path):
    # signals.mass is the tank's output: the load takes 500 kg, but the tank computes the mass
    # again when the run starts (1020 kg after the step-zero update), so the value never
    # reaches the dynamics. The read-back when the run starts catches it.
    path = campaign_file(tmp_path, runs=1, dispersions=[
        {"path": "signals.mass", "distribution": "list", "values": [500.0]}])
    results = Campaign.from_file(path).run(workers=0)
    assert list(results.ok) == [False]
    assert "did not apply" in results.errors[0] and "500.0" in results.errors[0], results.errors[0]
    assert results.applied[0, 0] == 1020.0  # 1000 kg dry and 20 kg of fuel


@pytest.mark.skipif(not HOPSIM.exists(), reason="needs the hopsim program of the build tree")
def test_hopsim_campaign_runs_the_file_and_replays_a_run(tmp_path):
    path = campaign_file(tmp_path, runs=6)
    done = subprocess.run([str(HOPSIM), "campaign", str(path), "--workers", "0"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "6 runs, 0 failed" in done.stdout
    assert (tmp_path / "lander.h5").exists() and (tmp_path / "summary.txt").exists()
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == [
        "hist_touchdown.png", "hist_touchdown_velocity.png", "scatter_touchdown_velocity_vs_0.png",
        "scatter_touchdown_velocity_vs_1.png"]
    replay = subprocess.run([str(HOPSIM), "campaign", str(path), "--replay", "4"],
                            capture_output=True, text=True, timeout=300)
    assert replay.returncode == 0, replay.stderr
    stored = CampaignResults.read_hdf5(tmp_path / "lander.h5")
    assert f"final touchdown_velocity = {stored.output('touchdown_velocity')[4]!r}" in replay.stdout
    bad = subprocess.run([str(HOPSIM), "campaign", str(path), "--replay", "6"],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 1 and "run 6: the campaign has runs 0 to 5" in bad.stderr
    # A results file that cannot be written stops the campaign before its first run.
    nowhere = subprocess.run([str(HOPSIM), "campaign", str(path), "--workers", "0", "--out",
                              str(tmp_path / "missing" / "r.h5")],
                             capture_output=True, text=True, timeout=300)
    assert nowhere.returncode == 1 and "does not exist or is not writable" in nowhere.stderr
    assert "/6 runs" not in nowhere.stderr  # no progress line: nothing ran



@pytest.mark.skipif(not HOPSIM.exists(), reason="needs the hopsim program of the build tree")
def test_the_command_line_sizes_and_changes_a_campaign_and_chooses_where_it_writes(tmp_path):
    before = sorted(p.name for p in EXAMPLES.iterdir())
    example = str(EXAMPLES / "lander_campaign.yaml")
    done = subprocess.run([str(HOPSIM), "campaign", example, "--workers", "0", "--runs", "3",
                           "--set", "models.engine.params.isp=310 s", "--out-dir", "out"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "3 runs, 0 failed" in done.stdout
    assert done.stdout.rstrip().endswith(
        "wrote out/lander_campaign.h5, out/lander_campaign_summary.txt and 4 plots in "
        "out/lander_campaign_plots"), done.stdout
    assert sorted(p.name for p in EXAMPLES.iterdir()) == before  # nothing beside the file
    results = CampaignResults.read_hdf5(tmp_path / "out" / "lander_campaign.h5")
    assert results.runs.size == 3
    for run in range(3):
        dry, throttle, altitude = results.parameters[run]
        t, v, _ = reference_landing(dry, throttle, altitude, isp=310.0)
        assert results.output("touchdown")[run] == pytest.approx(t, rel=1e-6)
        assert results.output("touchdown_velocity")[run] == pytest.approx(v, rel=1e-6)
    # The units, from the scenario's declarations, in the file and in the summary.
    assert results.unit("mass") == "kg" and results.unit("touchdown") == "s"
    assert results.unit("models.tank.params.empty_mass") == "kg"
    header, *rows = done.stdout.splitlines()[2:7]
    assert header.split()[:3] == ["output", "unit", "count"]
    assert [row.split()[:2] for row in rows] == [
        ["touchdown_velocity", results.unit("touchdown_velocity") or "-"], ["mass", "kg"],
        ["touchdown", "s"], ["tank.burnout", "s"]]
    # Without --out-dir the outputs land in the current directory.
    here = subprocess.run([str(HOPSIM), "campaign", example, "--workers", "0", "--runs", "1",
                           "--quiet"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert here.returncode == 0, here.stderr
    assert (tmp_path / "lander_campaign.h5").exists()
    assert (tmp_path / "lander_campaign_plots" / "hist_touchdown.png").exists()


@pytest.mark.skipif(not HOPSIM.exists(), reason="needs the hopsim program of the build tree")
@pytest.mark.parametrize("arguments, message", [
    (["--set", "nonsense"], "--set: 'nonsense' is not PATH=VALUE; expected e.g. "
                            "--set signals.throttle=0.45"),
    (["--set", "models.engine.params.isp=[1"], "--set models.engine.params.isp: '[1' is not "
                                                "a YAML value"),
    (["--set", "signals.throttle=0.5"], "dispersions[1].path: 'signals.throttle' is also set by "
                                        "overrides"),
    (["--set", "models.engine.params.isp[0]=3"], "--set models.engine.params.isp[0]: "
                                                  "'models.engine.params.isp[0]' is one element"),
    (["--runs", "0"], "--runs"),
    (["--replay", "1", "--out-dir", "x"], "--out-dir: a replay writes no file"),
])
def test_bad_command_line_changes_are_refused_naming_the_option(tmp_path, arguments, message):
    bad = subprocess.run([str(HOPSIM), "campaign", str(EXAMPLES / "lander_campaign.yaml"),
                          "--workers", "0"] + arguments, capture_output=True, text=True,
                         timeout=300, cwd=tmp_path)
    assert bad.returncode != 0
    assert message in bad.stderr, bad.stderr
    assert list(tmp_path.iterdir()) == []  # nothing ran, nothing was written


def test_time_series_are_recorded_at_their_rate_and_padded_after_a_run_ends(tmp_path):
    path = campaign_file(tmp_path, runs=3, record={
        "final": {"touchdown_velocity": "multibody.bodies.lander.U[5]"},
        "events": ["touchdown"],
        "series": {"rate": 2, "variables": {"velocity": "multibody.bodies.lander.U[5]",
                                            "altitude": "multibody.bodies.lander.Q[6]"}}})
    results = Campaign.from_file(path).run(workers=0)
    assert results.failures == 0 and results.series_names == ["velocity", "altitude"]
    altitude = results.series["altitude"]
    # Samples at k / 2 s from the start; each run has those before its touchdown, then NaN.
    np.testing.assert_array_equal(results.series_time, np.arange(results.series_time.size) / 2)
    for run in range(3):
        samples = int(math.floor(results.output("touchdown")[run] * 2)) + 1
        assert not np.isnan(altitude[run, :samples]).any()
        assert np.isnan(altitude[run, samples:]).all()
        # At t = 0, the feet are at the run's starting altitude.
        assert altitude[run, 0] == results.parameter("assemblies.lander.params.position[2]")[run]
        assert (altitude[run, 1:samples] < altitude[run, 0]).all()  # falling all the way
    results.write_hdf5(tmp_path / "series.h5")
    back = CampaignResults.read_hdf5(tmp_path / "series.h5")
    assert back.series_names == ["velocity", "altitude"]  # the file's order, not HDF5's
    np.testing.assert_array_equal(back.series["altitude"], altitude)
    np.testing.assert_array_equal(back.series["velocity"], results.series["velocity"])
    np.testing.assert_array_equal(back.series_time, results.series_time)
