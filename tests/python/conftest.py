"""pytest configuration for the Python tests of hopsim.

The package under test is the one in the build tree: ctest runs these tests with
PYTHONPATH=<build>/python; by hand, for example::

    PYTHONPATH=build-py/python /usr/bin/python3 -m pytest tests/python -q
"""

import os
import pathlib
import re

import pytest

try:
    import hopsim  # noqa: F401  (fail early, with instructions)
except ImportError as error:  # pragma: no cover - a setup problem, not a test failure
    raise ImportError(
        "cannot import hopsim: build it (cmake --build <build>) and run pytest with "
        "PYTHONPATH=<build>/python using /usr/bin/python3"
    ) from error

#: The repository root (tests/python/conftest.py -> ../..).
ROOT = pathlib.Path(__file__).resolve().parents[2]

#: The third-party example files (Chrono's chrono-examples/, libmbse's mbse-examples/), not part
#: of the repository: HOPSIM_SHARED_DATA_DIR, which ctest sets from the CMake option of that name,
#: else ../shared/data beside the checkout.
SHARED = pathlib.Path(os.environ.get("HOPSIM_SHARED_DATA_DIR") or ROOT.parent / "shared" / "data")

#: Marks a test that reads the third-party example files: skipped, with the reason, without them.
needs_shared_data = pytest.mark.skipif(
    not SHARED.is_dir(),
    reason=f"the third-party example files are not there: {SHARED} is not a directory "
    "(set HOPSIM_SHARED_DATA_DIR)")


def python_blocks(document):
    """The ```python fenced blocks of docs/<document>, in order: a chapter's script."""
    text = (ROOT / "docs" / document).read_text()
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


@pytest.fixture
def repository_root():
    """The repository root, for files the tests compare against."""
    return ROOT
