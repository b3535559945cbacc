"""hopsim run --out F.csv writes F.units.json beside the CSV: json and pandas read both.

Usage: check_run_sidecar.py HOPSIM SCENARIO WORKDIR (registered with ctest by
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

hopsim, scenario, workdir = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
workdir.mkdir(parents=True, exist_ok=True)
csv = workdir / "lander.csv"
sidecar = workdir / "lander.units.json"
for stale in (csv, sidecar):
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
assert frame["altitude"].iloc[0] == 600.0
for column, entry in units.items():
    assert set(entry) <= {"unit", "description", "variable"}, (column, entry)
    assert isinstance(entry["unit"], str) and isinstance(entry["description"], str)
print("ok")
