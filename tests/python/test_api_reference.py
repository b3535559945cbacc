"""docs/reference/python-api.md is the generated Python API reference: the committed file must be
what scripts/python_api_reference.py renders from the package under test, and the rendering must
cover every public name."""

import importlib.util
import os
import pathlib
import subprocess
import sys

import hopsim
import hopsim.plot

from conftest import ROOT

REFERENCE = ROOT / "docs" / "reference" / "python-api.md"


def generator():
    """scripts/python_api_reference.py as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location(
        "python_api_reference", ROOT / "scripts" / "python_api_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_python_api_reference_is_up_to_date():
    module = generator()
    expected = module.render(hopsim)
    committed = REFERENCE.read_text(encoding="utf-8") if REFERENCE.exists() else ""
    assert committed == expected, (
        f"docs/reference/python-api.md is out of date; regenerate with: {module.COMMAND}")


def test_the_reference_documents_every_public_name_and_the_plot_module():
    text = generator().render(hopsim)
    for name in hopsim.__all__:
        assert f"hopsim.{name}" in text, name
    for name in hopsim.plot.__all__:
        assert f"`hopsim.plot.{name}(" in text, name
    # Signatures read as the user writes them: no private module, no memory addresses.
    assert "hopsim._hopsim." not in text
    assert " at 0x" not in text
    # pybind11 signatures and docstrings come through, self left out.
    assert "#### `Recorder.values(column: str) -> numpy.ndarray[numpy.float64]`" in text
    assert "#### `Simulation.advance_time_to(t: float) -> None`" in text
    # Enumerations list their members with values.
    assert "| `FALLING` | 1 |" in text


def test_the_rendering_does_not_depend_on_the_process(tmp_path):
    # Another interpreter with another hash seed and working directory renders the same text,
    # through the command line the file header documents.
    build = pathlib.Path(hopsim.__file__).resolve().parents[2]
    output = tmp_path / "python-api.md"
    env = dict(os.environ, PYTHONHASHSEED="12345")
    env.pop("PYTHONPATH", None)
    subprocess.run([sys.executable, str(ROOT / "scripts" / "python_api_reference.py"),
                    "--build", str(build), "--output", str(output)],
                   check=True, cwd=tmp_path, env=env, capture_output=True, timeout=120)
    assert output.read_text(encoding="utf-8") == generator().render(hopsim)
