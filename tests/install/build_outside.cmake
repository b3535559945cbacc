# Configures tests/install/ (a project outside hopsim's tree) against the package installed in
# PREFIX, builds it and runs the two examples it builds; each checks its own result against a
# reference and exits non-zero when that check fails.
# -DPREFIX=<prefix> -DLIBDIR=<lib dir relative to the prefix> -DSOURCE=<tests/install>
# -DWORK=<build dir of the outside project> -DGENERATOR=<CMake generator> -DCXX=<C++ compiler>
# [-DLAUNCHER=<compiler launcher, ccache>] -DVERSION=<the project's version>
file(REMOVE_RECURSE "${WORK}")

# Runs ARGN; fails unless it exits 0. Sets `out` (stdout and stderr).
function(run_ok)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " line "${ARGN}")
    message(FATAL_ERROR "${line}: exit status ${rc}\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

set(configure ${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK} -G ${GENERATOR}
  -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${PREFIX})
if(LAUNCHER)
  list(APPEND configure -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
run_ok(${configure})
# The package found is the one just installed, with the project's version.
set(expected "-- hopsim ${VERSION} from ${PREFIX}/${LIBDIR}/cmake/hopsim\n")
string(FIND "${out}" "${expected}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "configuring ${SOURCE} did not say '${expected}':\n${out}")
endif()
run_ok(${CMAKE_COMMAND} --build ${WORK})
foreach(example custom_model rocket)
  run_ok(${WORK}/${example})
  message(STATUS "${example}:\n${out}")
endforeach()
