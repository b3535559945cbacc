"""Installation: `cmake --install` puts the package where /usr/bin/python3 looks under the prefix,
and scripts/common.sh's development .pth file makes `import hopsim` find the build tree.

Each check imports hopsim in a fresh interpreter started outside the repository, and asserts
where the package came from, so a build tree elsewhere on the path cannot make it pass.
"""

import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig

import pytest

import hopsim

from conftest import ROOT

#: The build directory of the package under test: <build>/python/hopsim/__init__.py.
BUILD = pathlib.Path(hopsim.__file__).resolve().parents[2]

CHECK = """
import pathlib, sys
import hopsim, hopsim.plot
sim = hopsim.Simulation(io_step_size=0.5)
sim.add_signal("wave")
sim.add_model("SineWave", "sine", {"frequency": 0.25})
sim.tie("sine", "y", "wave")
sim.lock()
rec = sim.record("signals.wave")
sim.advance_time_to(1.0)
# A working module, not just an importable file: sin(2 pi 0.25 t) at t = 1 s is 1.
assert abs(rec.values("signals.wave")[-1] - 1.0) < 1e-15, rec.values("signals.wave")
print(pathlib.Path(hopsim.__file__).resolve())
"""


def python(env_path, cwd, site_dir=None):
    """Runs CHECK with /usr/bin/python3 (this interpreter) in `cwd` with PYTHONPATH=`env_path`
    (None: unset), after site.addsitedir(site_dir) if given; returns the hopsim it imported."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if env_path is not None:
        env["PYTHONPATH"] = str(env_path)
    command, script = [sys.executable], CHECK
    if site_dir is not None:
        # What the interpreter does with its own site directories at startup, for site_dir and
        # the system's, except a system directory holding a hopsim-dev.pth: that one may point
        # at another checkout (the last ./test.sh run anywhere on the machine writes it).
        command.append("-S")
        script = (
            "import os, site\n"
            "for d in site.getsitepackages():\n"
            "    if not os.path.exists(os.path.join(d, 'hopsim-dev.pth')):\n"
            "        site.addsitedir(d)\n"
            f"site.addsitedir({str(site_dir)!r})\n" + CHECK)
    result = subprocess.run(command + ["-c", script], cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return pathlib.Path(result.stdout.strip())


def cache_entry(name):
    """A CMakeCache.txt entry of the build under test, or None."""
    for line in (BUILD / "CMakeCache.txt").read_text().splitlines():
        if line.startswith(name + ":"):
            return line.partition("=")[2]
    return None


@pytest.fixture
def build_tree():
    """The build directory, or a skip when the package under test is not in one."""
    if not (BUILD / "CMakeCache.txt").exists() or shutil.which("cmake") is None:
        pytest.skip(f"hopsim is not imported from a CMake build tree ({hopsim.__file__})")
    return BUILD


def test_cmake_install_places_the_package_where_the_interpreter_looks(build_tree, tmp_path):
    prefix = tmp_path / "prefix"
    # The install rules of python/CMakeLists.txt (the module and the .py files), as
    # `cmake --install <build>` runs them, without installing the C++ libraries and programs.
    result = subprocess.run(["cmake", "--install", str(build_tree / "python"),
                             "--prefix", str(prefix)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    relative = cache_entry("HOPSIM_PYTHON_INSTALL_DIR")
    assert relative == "lib/python%d.%d/%s" % (
        sys.version_info[0], sys.version_info[1],
        "dist-packages" if sysconfig.get_path("platlib").endswith("dist-packages")
        else "site-packages")
    site = prefix / relative
    installed = sorted(p.name for p in (site / "hopsim").iterdir())
    sources = sorted(p.name for p in (ROOT / "python" / "hopsim").glob("*.py"))
    assert set(sources) <= set(installed)
    assert any(name.startswith("_hopsim") and name.endswith(".so") for name in installed)

    imported = python(site, cwd=tmp_path)
    assert imported == (site / "hopsim" / "__init__.py").resolve()
    # With the default prefix that directory is on the interpreter's own path (Debian:
    # /usr/local/lib/python3.11/dist-packages), so no PYTHONPATH is needed after an install.
    paths = subprocess.run([sys.executable, "-c", "import sys; print('\\n'.join(sys.path))"],
                           capture_output=True, text=True, check=True, cwd=tmp_path,
                           env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert str(pathlib.Path("/usr/local") / relative) in paths.stdout.splitlines()


def common_sh(*args, cwd=ROOT):
    """Runs `hopsim_python_path ARGS...` from scripts/common.sh; returns its stdout."""
    result = subprocess.run(
        ["bash", "-c", 'set -euo pipefail; source scripts/common.sh; hopsim_python_path "$@"',
         "bash", *map(str, args)],
        cwd=cwd, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_development_pth_file_makes_import_hopsim_find_the_build_tree(build_tree, tmp_path):
    site = tmp_path / "site"
    out = common_sh(build_tree, site)
    pth = site / "hopsim-dev.pth"
    assert pth.read_text() == str(build_tree / "python") + "\n"
    assert out == f"hopsim: {pth} makes 'import hopsim' use {build_tree / 'python'}\n"
    # Idempotent: run again, nothing is written or said.
    written = pth.stat().st_mtime_ns
    assert common_sh(build_tree, site) == ""
    assert pth.stat().st_mtime_ns == written
    # No PYTHONPATH, started outside the repository: the .pth alone finds the build tree.
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    assert python(None, cwd=outside, site_dir=site) == build_tree / "python" / "hopsim" / \
        "__init__.py"


def test_without_write_permission_the_script_says_how_to_set_pythonpath(build_tree, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")  # a site directory under a file can be neither made nor written
    out = common_sh(build_tree, blocker / "site")
    assert out == f"hopsim: to import hopsim from this checkout: export PYTHONPATH=" \
                  f"{build_tree / 'python'}\n"
    assert not (blocker / "site").exists()


def test_a_build_without_the_module_writes_nothing(tmp_path):
    empty_build = tmp_path / "build"
    (empty_build / "python" / "hopsim").mkdir(parents=True)
    site = tmp_path / "site"
    assert common_sh(empty_build, site) == ""
    assert not site.exists()
