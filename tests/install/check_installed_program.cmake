# The installed hopsim program, run from the prefix: a scenario with a replay page (the page
# template is compiled in: nothing is found at run time); `hopsim --version`, the installed
# CMake package's version file and the installed Python package report one version, the
# project's; and hopsim plot and hopsim campaign run the interpreter with the package that goes
# with the program first on PYTHONPATH: the one installed with it, or the build tree's for the
# build tree's program.
# -DPREFIX=<prefix> -DLIBDIR=... -DBINDIR=... (relative to the prefix) -DBUILD_PROGRAM=<the
# build tree's hopsim> -DSCENARIO=<a scenario file> -DWORK=<scratch dir> -DVERSION=<the project's
# version>; with the Python module: -DPYTHON=<its interpreter> -DPYTHON_DIR=<the package's
# install dir relative to the prefix> -DBUILD_PYTHON_DIR=<the build tree's package dir>
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(HOPSIM ${PREFIX}/${BINDIR}/hopsim)
include(${CMAKE_CURRENT_LIST_DIR}/../hopsim_cli.cmake)

hopsim_ok(run ${SCENARIO} --quiet --out ${WORK}/run.csv --view ${WORK}/run.html)
file(SIZE ${WORK}/run.html size)
file(READ ${WORK}/run.html head LIMIT 100)
if(size LESS 100000 OR NOT head MATCHES "^<!DOCTYPE html>")
  message(FATAL_ERROR "the installed hopsim wrote no replay page: ${WORK}/run.html has "
    "${size} bytes, starting '${head}'")
endif()

# One version: the program's, the CMake package's (what find_package reports as hopsim_VERSION)
# and the Python package's, and one commit.
hopsim_ok(--version)
if(NOT out MATCHES "^hopsim ([0-9.]+)( \\(git ([0-9a-f]+(-dirty)?)\\))?\n$")
  message(FATAL_ERROR "hopsim --version printed '${out}', expected 'hopsim VERSION (git COMMIT)'")
endif()
set(program_version ${CMAKE_MATCH_1})
set(program_commit "${CMAKE_MATCH_3}")
include(${PREFIX}/${LIBDIR}/cmake/hopsim/hopsimConfigVersion.cmake)
if(NOT program_version STREQUAL VERSION OR NOT PACKAGE_VERSION STREQUAL VERSION)
  message(FATAL_ERROR "project() says ${VERSION}, hopsim --version ${program_version}, the "
    "CMake package ${PACKAGE_VERSION}")
endif()
if(NOT PYTHON)
  return()
endif()
set(site ${PREFIX}/${PYTHON_DIR})
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${site} ${PYTHON} -c
    "import hopsim; print(hopsim.__version__, hopsim._hopsim.__git_commit__, hopsim.__file__)"
  WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE python ERROR_VARIABLE err
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "import hopsim from ${site}: exit status ${rc}\n${err}")
endif()
set(expected "${VERSION} ${program_commit} ${site}/hopsim/__init__.py")
if(NOT python STREQUAL expected)
  message(FATAL_ERROR "the installed Python package says '${python}', expected '${expected}'")
endif()

# The Python subcommands' PYTHONPATH, as an interpreter that prints it sees it.
set(printer ${WORK}/print-pythonpath)
file(WRITE ${printer} "#!/bin/sh\nprintf '%s\\n' \"$PYTHONPATH\"\n")
file(CHMOD ${printer} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
foreach(case "${HOPSIM}@${site}" "${BUILD_PROGRAM}@${BUILD_PYTHON_DIR}")
  string(REPLACE "@" ";" case "${case}")
  list(GET case 0 program)
  list(GET case 1 expected)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env --unset=PYTHONPATH HOPSIM_PYTHON=${printer}
      ${program} plot ${WORK}/run.csv
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out STREQUAL "${expected}\n")
    message(FATAL_ERROR "${program} plot ran its interpreter (exit status ${rc}) with "
      "PYTHONPATH='${out}', expected '${expected}'\n${err}")
  endif()
endforeach()
