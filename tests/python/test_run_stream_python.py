"""A Python recorder streams to a file as it records, keeping its arrays: Recorder.stream_to,
record(out=...), close() and `with`, the file's status after a completed, failed or
interrupted block, and the errors of a file that cannot be written (docs/recording.md,
"Streaming to a file")."""

import json

import numpy
import pytest

import hopsim
from conftest import ROOT

LANDER = str(ROOT / "examples" / "lander.yaml")


def mass_spring():
    """A locked simulation of a MassSpringDamper 'msd' pushed by a force F, in 10 ms hops."""
    sim = hopsim.Simulation(io_step_size=0.01)
    sim.add_model("MassSpringDamper", "msd", {"m": 1.0, "k": 4.0, "c": 0.1})
    for signal in ("F", "x", "v"):
        sim.add_signal(signal)
        sim.tie("msd", signal, signal)
    sim.set("signals.F", 1.0)
    sim.lock()
    return sim


def status(path):
    return json.loads(path.with_name(path.stem + ".status.json").read_text())


def test_a_streamed_csv_is_the_csv_of_the_arrays_which_stay(tmp_path):
    sim = mass_spring()
    csv = tmp_path / "run.csv"
    rec = sim.record("models.msd.continuousStates.*", rate=1000.0, out=str(csv))
    assert rec.streaming
    sim.advance_time_to(2.0)
    rec.close()
    assert not rec.streaming
    written = tmp_path / "written.csv"
    rec.write_csv(str(written))
    assert csv.read_text() == written.read_text()
    assert len(rec) == 2001 and rec.to_numpy().shape == (2001, 3)
    assert status(csv) | {"hopsim_git_commit": None} == {
        "status": "completed", "reason": "", "stop_time": 2.0, "samples": 2001, "scenario": "",
        "hopsim_version": hopsim.__version__, "hopsim_git_commit": None}
    units = json.loads((tmp_path / "run.units.json").read_text())
    assert list(units) == ["time", *rec.columns]
    # Closed: no more samples, and closing again does nothing.
    sim.advance_time_to(2.5)
    assert len(rec) == 2001
    rec.close()


def test_a_streamed_hdf5_file_holds_the_arrays(tmp_path):
    h5py = pytest.importorskip("h5py")
    sim = mass_spring()
    h5 = tmp_path / "run.h5"
    with sim.record("models.msd.continuousStates.*", rate=100.0).stream_to(str(h5)) as rec:
        sim.advance_time_to(1.0)
    with h5py.File(h5, "r") as f:
        assert f.attrs["status"] == "completed" and f.attrs["samples"] == 101
        assert numpy.array_equal(f["time"][()], rec.times())
        assert numpy.array_equal(f["models/msd/continuousStates/x"][()],
                                 rec.values("models.msd.continuousStates.x"))


@pytest.mark.parametrize("raised, expected", [
    (RuntimeError("the controller diverged"), ("failed", "the controller diverged")),
    (KeyboardInterrupt(), ("interrupted", "KeyboardInterrupt")),
])
def test_a_with_block_that_raises_records_how_the_recording_ended(tmp_path, raised, expected):
    sim = mass_spring()
    csv = tmp_path / "run.csv"
    with pytest.raises(type(raised)):
        with sim.record("models.msd.continuousStates.x", rate=100.0, out=str(csv)):
            sim.advance_time_to(0.5)
            raise raised
    ended = status(csv)
    assert (ended["status"], ended["reason"]) == expected
    assert ended["stop_time"] == 0.5 and ended["samples"] == 51
    assert len(csv.read_text().splitlines()) == 52


def test_a_scenario_recorder_streams_as_hopsim_run_writes(tmp_path):
    scenario = hopsim.load(LANDER, ["simulation.end_time=1"])
    csv = tmp_path / "lander.csv"
    with scenario.recorder.stream_to(str(csv)):
        scenario.run()
    header, *rows = csv.read_text().splitlines()
    assert header == "time," + ",".join(scenario.columns)
    assert len(rows) == 11 and numpy.array_equal(scenario.times(), [float(r.split(",")[0])
                                                                      for r in rows])


def test_a_file_that_cannot_be_written_raises_naming_it():
    sim = mass_spring()
    with pytest.raises(hopsim.InputError,
                       match=r"^cannot write '/dev/full': No space left on device$"):
        sim.record("models.msd.continuousStates.x", out="/dev/full")
    rec = sim.record("models.msd.continuousStates.x")
    with pytest.raises(hopsim.InputError, match=r"cannot write '/nonexistent/r.csv': No such"):
        rec.stream_to("/nonexistent/r.csv")
    assert not rec.streaming


def test_stream_to_twice_or_after_close_is_an_error(tmp_path):
    sim = mass_spring()
    rec = sim.record("models.msd.continuousStates.x", out=str(tmp_path / "a.csv"))
    with pytest.raises(hopsim.ModelError, match="streams to '.*a.csv' already"):
        rec.stream_to(str(tmp_path / "b.csv"))
    rec.close()
    with pytest.raises(hopsim.ModelError, match="has finished streaming"):
        rec.stream_to(str(tmp_path / "b.csv"))
