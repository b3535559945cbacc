"""hopsim run keeps its data: it streams its recording, and a run stopped by a signal, an
error, a full disk, a file size limit or a closed pipe keeps every sample it could write and
says what happened.

Each failure is met the way a user meets it: a real signal sent to a real `hopsim run`
process, the real full device /dev/full, a real file size limit (RLIMIT_FSIZE, `ulimit -f`),
a pipe whose reader has gone (docs/recording.md, "What a run leaves behind").
"""

import json
import math
import pathlib
import re
import resource
import signal
import subprocess
import time

import numpy as np
import pytest

import hopsim

HOPSIM = pathlib.Path(hopsim.__file__).resolve().parents[2] / "apps" / "hopsim"
EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
# A pendulum logged at every 10 ms I/O step, run far longer than any test waits: about 50 000
# hops a second, so that a signal always lands in the middle of the run.
PENDULUM = str(EXAMPLES / "pendulum.yaml")
LONG = ["--end", "1e6"]
# A run that stops on a NumericalError at t = 0.27 s: the stop's stiffness is too much for rk4,
# whose step from there takes the rotor's rate past the state bound.
DIVERGING = [str(EXAMPLES / "rotor_soft_stop.yaml"), "--integrator", "rk4",
             "--set", "models.stop.params.k=1e7"]


# A progress line of hopsim run off a terminal (tests/python/test_run_progress.py and ctest's
# "apps: hopsim run prints progress lines" check them): what these tests compare comes after.
PROGRESS_LINE = re.compile(r"^t = \S+ / \S+ s  wall .*\n", flags=re.M)


def without_progress(stderr):
    return PROGRESS_LINE.sub("", stderr)


def run(*args, stdout=subprocess.PIPE, **kwargs):
    """hopsim run ARGS, its stderr without the progress lines."""
    done = subprocess.run([str(HOPSIM), "run", *args], stdout=stdout, stderr=subprocess.PIPE,
                          text=True, timeout=120, **kwargs)
    done.stderr = without_progress(done.stderr)
    return done


def start(*args):
    return subprocess.Popen([str(HOPSIM), "run", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_for_samples(path, process, minimum_bytes=4096):
    """Waits until the running `process` has written samples to `path` (a flush: a second of
    wall time or 64 Ki values), so that a signal sent now stops a run that is recording."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        if path.exists() and path.stat().st_size >= minimum_bytes:
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} got no samples in 30 s")


def csv_rows(path):
    """The header and the rows of a CSV `hopsim run` wrote, each row as floats. A last line
    without its newline is a row a killed writer cut short: dropped, as readers should."""
    text = path.read_text()
    lines = text.split("\n")
    partial = lines.pop()  # "" when the file ends on a whole line
    del partial
    header = lines[0].split(",")
    rows = [[float(v) for v in line.split(",")] for line in lines[1:]]
    assert all(len(row) == len(header) for row in rows)
    return header, rows


def assert_readers_take(recording, tmp_path):
    """`hopsim view` and `hopsim plot` read the recording a killed run left."""
    for command, output in (("view", "p.html"), ("plot", "p.png")):
        done = subprocess.run([str(HOPSIM), command, str(recording), "-o",
                               str(tmp_path / output)], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, (command, done.stderr)
        assert (tmp_path / output).stat().st_size > 0


def status_of(csv):
    return json.loads(csv.with_name(csv.stem + ".status.json").read_text())


# ---- interrupted runs -----------------------------------------------------------------------

@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_the_run_at_a_hop_end_with_every_sample_written(tmp_path, sig, status):
    csv = tmp_path / "p.csv"
    process = start(PENDULUM, *LONG, "--out", str(csv))
    wait_for_samples(csv, process)
    process.send_signal(sig)
    _, err = process.communicate(timeout=30)
    assert process.returncode == status, err
    name = signal.Signals(sig).name
    header, rows = csv_rows(csv)
    assert csv.read_text().endswith("\n")  # whole rows, every one
    assert header == ["time", "multibody.bodies.pendulum.Q", "multibody.bodies.pendulum.U"]
    stop = status_of(csv)
    assert stop["status"] == "interrupted" and stop["reason"] == name
    assert stop["samples"] == len(rows)
    # The run stopped at the end of a hop, which is an I/O step end: its sample is the last.
    assert rows[-1][0] == stop["stop_time"]
    assert f"interrupted at t = {stop['stop_time']:.6g} s ({name}); simulated " in err
    assert f"wrote {len(rows)} samples to {csv} (units in " in err


def test_an_interrupted_hdf5_file_opens_in_h5py_with_every_sample(tmp_path):
    h5py = pytest.importorskip("h5py")
    h5 = tmp_path / "p.h5"
    process = start(PENDULUM, *LONG, "--out", str(h5))
    wait_for_samples(h5, process, minimum_bytes=100_000)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    with h5py.File(h5, "r") as f:  # a plain open: the file was closed cleanly
        assert f.attrs["status"] == "interrupted" and f.attrs["reason"] == "SIGINT"
        samples = f["time"].shape[0]
        assert f.attrs["samples"] == samples
        assert f["multibody/bodies/pendulum/Q"].shape == (samples,)
        assert f["time"][-1] == f.attrs["stop_time"]
        assert f.attrs["hopsim_version"] == hopsim.__version__
    assert f"wrote {samples} samples to {h5} (HDF5" in err


def test_a_second_sigint_ends_the_process_at_once(tmp_path):
    # Paced at a thousandth of real time, a 10 ms hop takes 10 s of wall time: the first
    # SIGINT waits for its end, the second does not.
    csv = tmp_path / "p.csv"
    process = start(PENDULUM, "--end", "10", "--realtime", "1e-3", "--out", str(csv))
    wait_for_samples(csv, process, minimum_bytes=1)
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    time.sleep(0.3)
    assert process.poll() is None  # still in the hop
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=5)
    assert process.returncode == -signal.SIGINT
    assert status_of(csv)["status"] == "running"  # it never got to record its end


def test_after_sigkill_the_csv_holds_whole_rows_up_to_the_last_write(tmp_path):
    csv = tmp_path / "p.csv"
    process = start(PENDULUM, *LONG, "--out", str(csv), "--log", "multibody.bodies.**")
    wait_for_samples(csv, process, minimum_bytes=200_000)
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=30)
    assert status_of(csv)["status"] == "running"
    _, rows = csv_rows(csv)
    times = [row[0] for row in rows]
    assert len(times) > 100 and times == sorted(times)
    assert all(math.isclose(b - a, 0.01, rel_tol=1e-9) for a, b in zip(times, times[1:]))
    # The viewer and the plot read it too, dropping a last line cut short.
    assert_readers_take(csv, tmp_path)


def test_after_sigkill_the_hdf5_file_opens_for_swmr_reading_up_to_the_last_flush(tmp_path):
    h5py = pytest.importorskip("h5py")
    h5 = tmp_path / "p.h5"
    process = start(PENDULUM, *LONG, "--out", str(h5), "--log", "multibody.bodies.**")
    wait_for_samples(h5, process, minimum_bytes=300_000)
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=30)
    with pytest.raises(OSError, match="already open for write"):
        h5py.File(h5, "r")  # marked as still being written: SWMR reading opens it
    with h5py.File(h5, "r", swmr=True) as f:
        assert f.attrs["status"] == "running"
        time_ = f["time"][()]
        assert len(time_) > 100
        assert list(time_) == sorted(time_)
        # /time is written last: every dataset holds at least its samples.
        position = f["multibody/bodies/pendulum/position"]
        assert position.shape[0] >= len(time_) and position.shape[1] == 3
        assert math.isfinite(position[len(time_) - 1, 2])
    assert_readers_take(h5, tmp_path)


# ---- failed runs ----------------------------------------------------------------------------

def test_a_failed_run_writes_its_samples_and_its_page_and_records_the_failure(tmp_path):
    csv, page = tmp_path / "r.csv", tmp_path / "r.html"
    done = run(*DIVERGING, "--out", str(csv), "--view", str(page))
    assert done.returncode == 1
    summary, error = done.stderr.splitlines()[-2:]
    assert summary.startswith("failed at t = 0.27 s; simulated 0.27 s in ")
    assert summary.endswith(f"wrote 28 samples to {csv} (units in {tmp_path / 'r.units.json'});"
                            f" wrote the replay page {page} (28 frames)")
    assert error.startswith("hopsim: error: multibody.bodies.rotor.U[0] is ")
    assert "beyond the state bound 1e+15" in error
    _, rows = csv_rows(csv)
    assert len(rows) == 28 and rows[-1][0] == 0.27
    stop = status_of(csv)
    assert stop["status"] == "failed" and stop["stop_time"] == 0.27 and stop["samples"] == 28
    assert stop["reason"] == error.removeprefix("hopsim: error: ")
    assert page.read_text().count('"time":[0,') == 1


def test_a_failed_run_records_the_failure_in_the_hdf5_attributes(tmp_path):
    h5py = pytest.importorskip("h5py")
    h5 = tmp_path / "r.h5"
    done = run(*DIVERGING, "--out", str(h5))
    assert done.returncode == 1
    with h5py.File(h5, "r") as f:
        assert f.attrs["status"] == "failed"
        assert f.attrs["reason"].startswith("multibody.bodies.rotor.U[0] is ")
        assert f.attrs["stop_time"] == 0.27 and f.attrs["samples"] == 28
        assert f["time"].shape == (28,)


# ---- every write checked --------------------------------------------------------------------

def test_a_full_device_is_an_error_naming_it_and_no_summary():
    done = run(PENDULUM, "--out", "/dev/full")
    assert (done.returncode, done.stderr) == (
        1, "hopsim: error: cannot write '/dev/full': No space left on device\n")
    with open("/dev/full", "w") as full:
        done = run(PENDULUM, "--csv", stdout=full)
    assert (done.returncode, done.stderr) == (
        1, "hopsim: error: cannot write stdout: No space left on device\n")


def limit_file_size(size):
    """A preexec_fn: the child's file size limit (ulimit -f), in bytes. The child starts with
    SIGXFSZ's default action (subprocess restores it), which kills: hopsim ignores it."""
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def test_a_file_size_limit_is_an_error_and_the_csv_ends_on_a_whole_row(tmp_path):
    csv = tmp_path / "p.csv"
    done = run(PENDULUM, "--end", "100", "--out", str(csv),
               preexec_fn=limit_file_size(300_000))
    assert done.returncode == 1
    assert done.stderr == (f"hopsim: error: cannot write '{csv}': File too large "
                           "(the file size limit, ulimit -f)\n")
    assert 0 < csv.stat().st_size <= 300_000
    assert csv.read_text().endswith("\n")
    _, rows = csv_rows(csv)
    stop = status_of(csv)
    assert stop["status"] == "failed" and stop["samples"] == len(rows)
    assert stop["reason"] == done.stderr.removeprefix("hopsim: error: ").strip()


def test_a_file_size_limit_on_an_hdf5_file_is_an_error_naming_it(tmp_path):
    h5 = tmp_path / "p.h5"
    done = run(PENDULUM, "--end", "100", "--out", str(h5), preexec_fn=limit_file_size(100_000))
    assert done.returncode == 1
    assert done.stderr.startswith(f"hopsim: error: cannot write '{h5}': ")
    assert "File too large" in done.stderr and "wrote" not in done.stderr


def test_an_hdf5_file_cut_by_a_failed_write_keeps_the_writes_before_it(tmp_path):
    # 21 845 samples a write (64 Ki values of 3 columns, 512 KiB), or fewer when a second of wall
    # time passes first (a loaded machine): a 2 MB limit takes a few writes.
    h5py = pytest.importorskip("h5py")
    h5 = tmp_path / "p.h5"
    done = run(PENDULUM, "--end", "2000", "--out", str(h5), preexec_fn=limit_file_size(2_000_000))
    assert done.returncode == 1 and "File too large" in done.stderr
    with h5py.File(h5, "r", swmr=True) as f:  # shorter than it says: SWMR reading opens it
        assert f.attrs["status"] == "running"
        time = f["time"][:]
        # Every 10 ms sample from t = 0 up to the last write, none lost between.
        assert time.size > 0
        assert abs(time - 0.01 * np.arange(time.size)).max() < 1e-9
        samples = time.size
        assert f["multibody/bodies/pendulum/Q"].shape[0] >= samples
    plot = tmp_path / "p.png"
    done = subprocess.run([str(HOPSIM), "plot", str(h5), "-o", str(plot)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert plot.stat().st_size > 0


def test_a_closed_pipe_is_an_error_naming_stdout():
    # `hopsim run --csv | head -1`: the reader goes after one line, the run writes on.
    process = start(PENDULUM, "--end", "1000", "--csv")
    assert process.stdout.readline().startswith("time,")
    process.stdout.close()
    err = without_progress(process.stderr.read())
    process.wait(timeout=60)
    assert process.returncode == 1
    assert err == ("hopsim: error: cannot write stdout: Broken pipe "
                   "(the reader closed the pipe)\n")


def test_a_sidecar_or_page_that_cannot_be_written_is_an_error_naming_it(tmp_path):
    (tmp_path / "a.units.json").mkdir()
    done = run(PENDULUM, "--end", "0.1", "--out", str(tmp_path / "a.csv"))
    assert (done.returncode, done.stderr) == (
        1, f"hopsim: error: cannot write '{tmp_path / 'a.units.json'}': Is a directory\n")
    (tmp_path / "page.html").mkdir()
    done = run(PENDULUM, "--end", "0.1", "--view", str(tmp_path / "page.html"))
    assert (done.returncode, done.stderr) == (
        1, f"hopsim: error: cannot write '{tmp_path / 'page.html'}': Is a directory\n")


# ---- options that do what their help says ---------------------------------------------------

def test_log_event_adds_samples_at_events_to_the_periodic_ones():
    lander = [str(EXAMPLES / "lander.yaml"), "--log", "signals.fuel_remaining", "--csv", "--quiet"]
    periodic = run(*lander)
    both = run(*lander, "--log-event", "tank.*", "--log-event", "touchdown")
    # The events alone: logging.events without a rate.
    events = run(*lander, "--set", 'logging.events=["tank.*", touchdown]', "--set", "logging.rate=~")
    for done in (periodic, both, events):
        assert done.returncode == 0, done.stderr
    rows = periodic.stdout.splitlines()
    at_events = events.stdout.splitlines()[1:]
    assert len(at_events) == 2  # the burnout and the touchdown
    assert sorted(both.stdout.splitlines()[1:], key=lambda line: float(line.split(",")[0])) == \
        sorted(rows[1:] + at_events, key=lambda line: float(line.split(",")[0]))


def test_view_rate_is_capped_at_the_frame_cap_with_a_warning(tmp_path):
    page = tmp_path / "p.html"
    done = run(PENDULUM, "--end", "0.1", "--view", str(page), "--view-rate", "1e7")
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(
        "hopsim: warning: --view-rate 1e+07 Hz: a replay page holds at most 10000 frames, so the "
        "0.1 s run is recorded for it at 100000 Hz\n")
    assert "wrote the replay page" in done.stderr and "(10001 frames)" in done.stderr
    assert page.stat().st_size < 20_000_000
