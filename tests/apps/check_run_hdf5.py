"""hopsim run --out F.h5 writes HDF5 that h5py reads, with the values of --out F.csv.

Usage: check_run_hdf5.py HOPSIM EXAMPLES WORKDIR (registered with ctest by
tests/CMakeLists.txt). Exits 77 (skipped) when h5py, numpy or pandas is not installed.

Checks the layout docs/scenario-yaml.md "The HDF5 file" documents: /time, one dataset per
logged variable under groups for the dots of its path (1-D for a scalar, samples x elements
for a vector), the attributes unit/description/path/columns/elements and the root's
hopsim_version and scenario; the values equal the CSV's exactly (pandas parses its 17
significant digits with float_precision="round_trip"); an unwritable file exits 1 naming it.
"""

import json
import re
import pathlib
import subprocess
import sys

try:
    import h5py
    import numpy
    import pandas
except ImportError as missing:  # pragma: no cover - an environment without them
    print(f"{missing.name} is not installed: skipped")
    sys.exit(77)

hopsim, examples, workdir = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
workdir.mkdir(parents=True, exist_ok=True)


def run(scenario, out, *options):
    """Runs hopsim on examples/SCENARIO writing OUT (stale copies removed first)."""
    out.unlink(missing_ok=True)
    done = subprocess.run([hopsim, "run", str(examples / scenario), "--out", str(out), *options],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stderr


def strings(value):
    """An h5py string attribute (str, or an array of str) as Python strings."""
    return [str(v) for v in value] if isinstance(value, numpy.ndarray) else str(value)


def same_as_csv(h5, frame):
    """Every CSV column equals its dataset column exactly (NaN where the CSV has nan), and the
    datasets hold no other columns."""
    assert numpy.array_equal(h5["time"][()], frame["time"].to_numpy()), "time"
    seen = ["time"]

    def visit(name, item):
        if not isinstance(item, h5py.Dataset) or name == "time":
            return
        data = item[()]
        columns = strings(item.attrs["columns"])
        elements = list(item.attrs["elements"])
        assert len(columns) == len(elements), name
        assert data.shape[0] == len(frame), (name, data.shape)
        if data.ndim == 1:
            data = data.reshape(-1, 1)
            assert len(columns) == 1, name
        assert data.shape[1] == len(columns), (name, data.shape, columns)
        for k, column in enumerate(columns):
            assert numpy.array_equal(data[:, k], frame[column].to_numpy(), equal_nan=True), (
                name, column)
            seen.append(column)

    h5.visititems(visit)
    assert sorted(seen) == sorted(frame.columns), (seen, list(frame.columns))


def read(csv):
    return pandas.read_csv(csv, float_precision="round_trip")


# The rotor: scalar variables (a PIN hinge's Q and U have one element each).
h5file, csvfile = workdir / "r.h5", workdir / "r.csv"
(workdir / "r.units.json").unlink(missing_ok=True)
stderr = run("rotor_soft_stop.yaml", h5file)
assert f"wrote 101 samples to {h5file} (HDF5, units as attributes)" in stderr, stderr
assert not (workdir / "r.units.json").exists()  # no sidecar: the units are attributes
run("rotor_soft_stop.yaml", csvfile)
frame = read(csvfile)
with h5py.File(h5file, "r") as h5:
    assert dict(h5.attrs) == {"hopsim_version": h5.attrs["hopsim_version"],
                              "hopsim_git_commit": h5.attrs["hopsim_git_commit"],
                              "scenario": "rotor_soft_stop.yaml",
                              "viewer_scene": h5.attrs["viewer_scene"],
                              "status": "completed", "reason": "", "stop_time": 1.0,
                              "samples": 101}, dict(h5.attrs)
    # The scene hopsim view replays the recording with (docs/viewer.md): the rotor, whose pose
    # this recording does not hold.
    scene = json.loads(h5.attrs["viewer_scene"])
    assert [body["name"] for body in scene["bodies"]] == ["rotor"], scene
    assert "pose" not in scene["bodies"][0], scene
    assert isinstance(h5.attrs["hopsim_version"], str) and h5.attrs["hopsim_version"]
    # The commit of the checkout the program was built from, "" outside one.
    assert re.fullmatch(r"([0-9a-f]{40}(-dirty)?)?", h5.attrs["hopsim_git_commit"]), dict(h5.attrs)
    names = []
    h5.visititems(lambda name, item: names.append(name) if isinstance(item, h5py.Dataset)
                  else None)
    assert sorted(names) == ["multibody/bodies/rotor/Q", "multibody/bodies/rotor/U",
                             "signals/stop_torque", "time"], names
    time = h5["time"]
    assert time.dtype == numpy.float64 and time.shape == (101,), (time.dtype, time.shape)
    assert time.attrs["unit"] == "s" and time[0] == 0.0 and time[-1] == 1.0
    torque = h5["signals/stop_torque"]
    assert torque.shape == (101,) and torque.dtype == numpy.float64
    assert dict(torque.attrs) | {"columns": None, "elements": None, "units": None} == {
        "unit": "N*m", "description": "the torque of the stop on the rotor",
        "path": "signals.stop_torque", "columns": None, "elements": None, "units": None}, \
        dict(torque.attrs)
    assert strings(torque.attrs["units"]) == ["N*m"]
    assert strings(torque.attrs["columns"]) == ["signals.stop_torque"]
    assert list(torque.attrs["elements"]) == [0]
    q = h5["multibody/bodies/rotor/Q"]
    assert q.shape == (101,) and q.attrs["path"] == "multibody.bodies.rotor.Q"
    assert q.attrs["unit"] == "rad" and isinstance(q.attrs["description"], str)  # a PIN's angle
    assert h5["multibody/bodies/rotor/U"].attrs["unit"] == "rad/s"
    # The rotor reaches the stop at t = 0.25 s: no torque before (the first sample included:
    # it is taken after the outputs are first computed), a restoring one in contact.
    assert torque[0] == 0.0 and torque[1] == 0.0 and torque[()].min() < -19.0
    same_as_csv(h5, frame)

# The lander with a whole vector logged: a 2-D dataset, samples x elements.
h5file, csvfile = workdir / "lander.h5", workdir / "lander.csv"
options = ["--end", "1", "--log", "multibody.bodies.lander.Q", "--log", "signals.thrust"]
run("lander.yaml", h5file, *options)
run("lander.yaml", csvfile, *options)
frame = read(csvfile)
with h5py.File(h5file, "r") as h5:
    q = h5["multibody/bodies/lander/Q"]
    assert q.shape == (11, 7), q.shape
    assert strings(q.attrs["columns"]) == [f"multibody.bodies.lander.Q[{i}]" for i in range(7)]
    assert list(q.attrs["elements"]) == list(range(7))
    # FULL6DOF: a quaternion, then meters; no one unit for the dataset.
    assert strings(q.attrs["units"]) == ["1", "1", "1", "1", "m", "m", "m"]
    assert q.attrs["unit"] == ""
    assert h5["signals/thrust"].attrs["unit"] == "N" and h5["signals/thrust"].shape == (11,)
    assert q[0, 6] == 600.0  # the altitude at t = 0
    same_as_csv(h5, frame)

# The lander's own logging.columns: named columns read single elements of Q and U.
h5file, csvfile = workdir / "named.h5", workdir / "named.csv"
run("lander.yaml", h5file, "--end", "1")
run("lander.yaml", csvfile, "--end", "1")
frame = read(csvfile)
with h5py.File(h5file, "r") as h5:
    q = h5["multibody/bodies/lander/Q"]
    assert q.shape == (11, 1) and strings(q.attrs["columns"]) == ["altitude"]
    assert q.attrs["unit"] == "m" and strings(q.attrs["units"]) == ["m"]
    assert list(q.attrs["elements"]) == [6]
    assert h5["signals/mass"].attrs["unit"] == "kg"
    assert strings(h5["signals/mass"].attrs["columns"]) == ["mass"]
    same_as_csv(h5, frame)

# .hdf5 in any case is HDF5 too.
h5file = workdir / "upper.HDF5"
run("rotor_soft_stop.yaml", h5file)
with h5py.File(h5file, "r") as h5:
    assert h5["time"].shape == (101,)

# A file that cannot be created (the name of a directory): exit 1 with an error naming it, and
# no HDF5 error stack.
bad = workdir / "a directory.h5"
bad.mkdir(exist_ok=True)
done = subprocess.run([hopsim, "run", str(examples / "rotor_soft_stop.yaml"), "--out", str(bad)],
                      capture_output=True, text=True, check=False)
assert done.returncode == 1, (done.returncode, done.stderr)
assert done.stderr.startswith(f"hopsim: error: cannot write '{bad}': cannot create the file: "), \
    done.stderr
assert done.stderr.count("\n") == 1, done.stderr
# In a directory that does not exist: refused before the run.
missing = workdir / "no such directory" / "r.h5"
done = subprocess.run([hopsim, "run", str(examples / "rotor_soft_stop.yaml"), "--out",
                       str(missing)], capture_output=True, text=True, check=False)
assert done.returncode == 1, (done.returncode, done.stderr)
assert done.stderr == (f"hopsim: error: --out: cannot write '{missing}': the directory "
                       f"'{missing.parent}' does not exist or is not writable\n"), done.stderr
print("ok")
