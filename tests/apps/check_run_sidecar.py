"""hopsim run --out F.csv writes F.units.json and F.status.json beside the CSV: json and pandas
read them.

Usage: check_run_sidecar.py HOPSIM SCENARIO WORKDIR VERSION (registered with ctest by
tests/CMakeLists.txt). Exits 77 (skipped) when pandas is not installed.
"""

import json
import pathlib
import subprocess
import sys

try:
    import pandas
except ImportError:  # pragma: no cover - an environment without pandas
    print("pandas is not installed: skipped")
    sys.exit(77)

hopsim, scenario, workdir, version = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3]), sys.argv[4]
workdir.mkdir(parents=True, exist_ok=True)
csv = workdir / "lander.csv"
sidecar = workdir / "lander.units.json"
for stale in (csv, sidecar, workdir / "lander.status.json"):
    stale.unlink(missing_ok=True)

run = subprocess.run([hopsim, "run", scenario, "--end", "1", "--out", str(csv)],
                     capture_output=True, text=True, check=False)
assert run.returncode == 0, run.stderr
assert f"wrote 11 samples to {csv} (units in {sidecar})" in run.stderr, run.stderr

frame = pandas.read_csv(csv)
units = json.loads(sidecar.read_text())
# One entry per column, in the CSV's order, time first.
assert list(units) == list(frame.columns), (list(units), list(frame.columns))
assert list(frame.columns)[0] == "time"
assert len(frame) == 11 and frame["time"].iloc[-1] == 1.0
assert units["time"]["unit"] == "s"
assert units["signals.thrust"] == {"unit": "N", "description": "engine thrust",
                                   "variable": "signals.thrust"}
assert units["mass"]["unit"] == "kg" and units["mass"]["variable"] == "signals.mass"
# A logging.columns entry names the element it reads.
assert units["altitude"]["variable"] == "multibody.bodies.lander.Q[6]"
assert units["altitude"]["unit"] == "m"  # the element's unit: FULL6DOF's Q[6] is a length
assert units["vertical_speed"]["unit"] == "m/s"
assert frame["altitude"].iloc[0] == 600.0
# The time entry names the program that wrote the file: the project's version, and the commit
# it was built from (empty outside a git checkout).
assert units["time"]["hopsim_version"] == version, units["time"]
commit = units["time"]["hopsim_git_commit"]
assert isinstance(commit, str)
for column, entry in units.items():
    extra = {"hopsim_version", "hopsim_git_commit"} if column == "time" else set()
    assert set(entry) <= {"unit", "description", "variable"} | extra, (column, entry)
    assert isinstance(entry["unit"], str) and isinstance(entry["description"], str)
# Beside them, the status of the recording: completed, at the end time, every sample.
status = json.loads((workdir / "lander.status.json").read_text())
assert status == {"status": "completed", "reason": "", "stop_time": 1.0, "samples": 11,
                  "scenario": "lander.yaml", "hopsim_version": version,
                  "hopsim_git_commit": commit}, status
print("ok")
