"""Whether this interpreter can load hopsim's compiled module, checked before it is loaded.

The loader's own errors for a module built for another Python ("No module named
'hopsim._hopsim'") or for a missing numpy (a chained "initialization failed") hide the cause;
:func:`check` raises an :class:`ImportError` that names it and says what to do instead. What the
module was built for is in ``_build_info.py``, which the build writes beside this file.
"""

import importlib.machinery
import os
import pathlib
import platform
import sys

_PACKAGE = pathlib.Path(__file__).resolve().parent


def _this_interpreter():
    """"/usr/bin/python3 (CPython 3.11)": the running interpreter as the messages name it."""
    return "%s (%s %d.%d)" % (sys.executable or "this interpreter",
                              platform.python_implementation(), *sys.version_info[:2])


def _is_built_for(executable):
    """Whether the running interpreter is `executable` (a venv of it counts: same binary)."""
    return bool(sys.executable) and os.path.realpath(sys.executable) == os.path.realpath(executable)


def _numpy_remedy(built_for):
    """How to get numpy for the running interpreter: Debian's package for Debian's interpreter,
    pip for any other (a venv, pyenv), with the interpreter hopsim was built for as the
    alternative when this is not it."""
    if sys.prefix == "/usr" and os.path.isdir("/usr/lib/python3/dist-packages"):
        remedy = "apt-get install python3-numpy"
    else:
        remedy = "%s -m pip install numpy" % (sys.executable or "python3")
    if not _is_built_for(built_for):
        remedy += ", or run with %s, which hopsim was built for" % built_for
    return remedy


def check():
    """Raises ImportError saying what is wrong and what to do when the compiled module cannot be
    loaded here: the package is the source tree's (no build info), the module was built for
    another Python version or implementation, its file is missing, or numpy cannot be imported."""
    try:
        from hopsim import _build_info as built
    except ImportError:
        raise ImportError(
            "hopsim in %s is the source tree's package, without its compiled module: import the "
            "package of a build (PYTHONPATH=<build>/python) or an installed hopsim" % _PACKAGE
        ) from None
    if built.MODULE_SUFFIX not in importlib.machinery.EXTENSION_SUFFIXES:
        raise ImportError(
            "hopsim was built for %s (%s %s); this is %s: run with %s or rebuild hopsim with "
            "-DPython3_EXECUTABLE=%s" % (
                built.PYTHON_EXECUTABLE, built.PYTHON_IMPLEMENTATION, built.PYTHON_VERSION,
                _this_interpreter(), built.PYTHON_EXECUTABLE, sys.executable or "<python>"))
    module = _PACKAGE / ("_hopsim" + built.MODULE_SUFFIX)
    if not module.is_file():
        raise ImportError(
            "hopsim's compiled module %s is missing: build hopsim (cmake --build <build>) or "
            "install it again" % module)
    try:
        import numpy  # noqa: F401  (the module's arrays are numpy's)
    except ImportError as error:
        raise ImportError(
            "hopsim needs numpy, which %s cannot import (%s): %s" % (
                _this_interpreter(), error, _numpy_remedy(built.PYTHON_EXECUTABLE))) from None
