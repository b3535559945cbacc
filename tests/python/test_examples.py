"""Every Python run script in examples/ runs as it is and passes its own physics check.

Each script compares its outcome with an independent reference (statics, an analytic solution)
and exits non-zero when the check fails; this test runs each one with the interpreter running
the tests and the package under test, and also asks it for its plot where it offers one.
"""

import os
import pathlib
import subprocess
import sys

import pytest

import hopsim

EXAMPLES = sorted((pathlib.Path(__file__).resolve().parents[2] / "examples").glob("*.py"))


def test_there_are_python_examples():
    assert EXAMPLES, "examples/ holds no Python run script"


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda path: path.name)
def test_example_runs_and_checks_its_physics(script, tmp_path):
    command = [sys.executable, str(script)]
    if "--plot" in script.read_text():
        command += ["--plot", str(tmp_path / "plot.png")]
    # The package under test, by absolute path: the script runs in a scratch directory.
    package_root = str(pathlib.Path(hopsim.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [package_root] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path,
                            timeout=600)
    assert result.returncode == 0, f"{script.name} failed:\n{result.stdout}\n{result.stderr}"
    if "--plot" in command:
        assert (tmp_path / "plot.png").stat().st_size > 0
        assert "Warning" not in result.stderr, result.stderr  # matplotlib's included
