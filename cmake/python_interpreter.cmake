# The Python interpreter hopsim builds its module for, and where the package is installed: for
# python/ (the module), apps/ (hopsim plot and hopsim campaign run that interpreter, with the
# package installed beside the program) and tests/.
#
# Debian's python3-* packages (numpy, pytest) are visible only to the system interpreter, which
# need not be the first python3 on PATH (DESIGN.md section 1).
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "The Python interpreter hopsim builds for")
endif()
find_package(Python3 COMPONENTS Interpreter)

# HOPSIM_PYTHON_IMPLEMENTATION: "CPython", "PyPy", ... (hopsim/_build_info.py records it).
# HOPSIM_PYTHON_INSTALL_DIR, relative to the prefix: for the prefix /usr, where Debian's own
# Python packages go (the interpreter's deb_system scheme: lib/python3/dist-packages); for any
# other prefix, where the interpreter looks under it: lib/python3.X/dist-packages on Debian
# (/usr/local/lib/python3.11/dist-packages for the default prefix), site-packages elsewhere.
if(Python3_Interpreter_FOUND)
  execute_process(
    COMMAND ${Python3_EXECUTABLE} -c [=[
import platform, sysconfig
print(platform.python_implementation())
print(sysconfig.get_path("platlib"))
if "deb_system" in sysconfig.get_scheme_names():
    print(sysconfig.get_path("platlib", "deb_system"))
]=]
    OUTPUT_VARIABLE answers OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(REPLACE "\n" ";" answers "${answers}")
  list(GET answers 0 HOPSIM_PYTHON_IMPLEMENTATION)
  list(GET answers 1 platlib)
  list(LENGTH answers count)
  if(CMAKE_INSTALL_PREFIX STREQUAL "/usr" AND count EQUAL 3)
    list(GET answers 2 debian_platlib)
    file(RELATIVE_PATH default_dir /usr "${debian_platlib}")
  elseif(platlib MATCHES "dist-packages$")
    set(default_dir lib/python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}/dist-packages)
  else()
    set(default_dir lib/python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}/site-packages)
  endif()
  set(HOPSIM_PYTHON_INSTALL_DIR ${default_dir}
    CACHE STRING "Where the hopsim Python package is installed, relative to the prefix")
endif()
