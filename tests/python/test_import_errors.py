"""`import hopsim` where the compiled module cannot be loaded says what is wrong and what to do
(hopsim/_interpreter.py): an interpreter of another Python version, one without numpy, the
source tree's package, a package without its module.

Each case imports hopsim in a fresh interpreter and reads its traceback's last line; none may
show the loader's own error chained behind it.
"""

import glob
import json
import os
import pathlib
import platform
import shutil
import subprocess
import sys

import pytest

import hopsim
from hopsim import _build_info

from conftest import ROOT

#: The directory holding the package under test (<build>/python).
PACKAGE_DIR = pathlib.Path(hopsim.__file__).resolve().parent
SITE = PACKAGE_DIR.parent

PROBE = """
import importlib.machinery, importlib.util, json, platform, sys
print(json.dumps({"executable": sys.executable, "implementation": platform.python_implementation(),
                  "version": "%d.%d" % sys.version_info[:2],
                  "suffixes": importlib.machinery.EXTENSION_SUFFIXES,
                  "numpy": importlib.util.find_spec("numpy") is not None}))
"""


def other_interpreters():
    """The Python 3 interpreters of this machine other than this one, as PROBE describes them:
    those on PATH (python3, python3.X) and pyenv's."""
    names = [shutil.which(name) for name in
             ["python3"] + ["python3.%d" % minor for minor in range(6, 16)]]
    pyenv = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    names += sorted(glob.glob(os.path.join(pyenv, "versions", "3.*", "bin", "python3")))
    seen = {os.path.realpath(sys.executable)}
    for name in filter(None, names):
        try:
            result = subprocess.run([name, "-c", PROBE], capture_output=True, text=True,
                                    timeout=60)
        except OSError:
            continue
        if result.returncode != 0:  # a pyenv shim of a version that is not selected
            continue
        found = json.loads(result.stdout)
        real = os.path.realpath(found["executable"])
        if real not in seen:
            seen.add(real)
            yield found


def import_error(interpreter, cwd, env_path=SITE, code="import hopsim"):
    """Runs `code` with `interpreter` in `cwd` with PYTHONPATH=`env_path`; returns the last line
    of its stderr after checking that it failed with nothing chained behind the error."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(env_path)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    result = subprocess.run([interpreter, "-c", code], capture_output=True, text=True, env=env,
                            cwd=cwd, timeout=120)
    assert result.returncode != 0, result.stdout
    assert "During handling of the above exception" not in result.stderr, result.stderr
    assert "was the direct cause" not in result.stderr, result.stderr
    return result.stderr.strip().splitlines()[-1]


def describe(interpreter):
    return "%s (%s %s)" % (interpreter["executable"], interpreter["implementation"],
                           interpreter["version"])


def test_an_interpreter_of_another_python_version_is_told_which_one_hopsim_was_built_for(
        tmp_path):
    other = next((found for found in other_interpreters()
                  if _build_info.MODULE_SUFFIX not in found["suffixes"]), None)
    if other is None:
        pytest.skip("no Python 3 interpreter on this machine (PATH, pyenv) needs another module "
                    "than " + _build_info.MODULE_SUFFIX)
    built = "%s (%s %s)" % (_build_info.PYTHON_EXECUTABLE, _build_info.PYTHON_IMPLEMENTATION,
                            _build_info.PYTHON_VERSION)
    assert import_error(other["executable"], tmp_path) == (
        "ImportError: hopsim was built for %s; this is %s: run with %s or rebuild hopsim with "
        "-DPython3_EXECUTABLE=%s" % (built, describe(other), _build_info.PYTHON_EXECUTABLE,
                                     other["executable"]))


def test_another_interpreter_without_numpy_is_told_how_to_get_it(tmp_path):
    # The first python3 on PATH may be such a one: the same Python version, another installation.
    other = next((found for found in other_interpreters()
                  if _build_info.MODULE_SUFFIX in found["suffixes"] and not found["numpy"]),
                 None)
    if other is None:
        pytest.skip("no other interpreter on this machine (PATH, pyenv) loads "
                    + _build_info.MODULE_SUFFIX + " modules and lacks numpy")
    assert import_error(other["executable"], tmp_path) == (
        "ImportError: hopsim needs numpy, which %s cannot import (No module named 'numpy'): "
        "%s -m pip install numpy, or run with %s, which hopsim was built for" % (
            describe(other), other["executable"], _build_info.PYTHON_EXECUTABLE))


def test_without_numpy_the_error_says_how_to_install_it(tmp_path):
    # The interpreter hopsim was built for, with numpy made unimportable (None in sys.modules).
    line = import_error(sys.executable, tmp_path,
                        code="import sys; sys.modules['numpy'] = None; import hopsim")
    remedy = ("apt-get install python3-numpy" if sys.prefix == "/usr"
              else sys.executable + " -m pip install numpy")
    assert line == (
        "ImportError: hopsim needs numpy, which %s (%s %d.%d) cannot import (import of numpy "
        "halted; None in sys.modules): %s" % (sys.executable, platform.python_implementation(),
                                              *sys.version_info[:2], remedy))


def test_the_source_tree_package_says_to_import_a_built_one(tmp_path):
    assert import_error(sys.executable, tmp_path, env_path=ROOT / "python") == (
        "ImportError: hopsim in %s is the source tree's package, without its compiled module: "
        "import the package of a build (PYTHONPATH=<build>/python) or an installed hopsim"
        % (ROOT / "python" / "hopsim"))


def test_a_package_without_its_compiled_module_says_to_build_it(tmp_path):
    copy = tmp_path / "site" / "hopsim"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    assert import_error(sys.executable, tmp_path, env_path=copy.parent) == (
        "ImportError: hopsim's compiled module %s is missing: build hopsim (cmake --build "
        "<build>) or install it again" % (copy / ("_hopsim" + _build_info.MODULE_SUFFIX)))
