# `cmake --install BUILD --prefix PREFIX` (PREFIX emptied first), then a look at the exported
# targets: hopsim::hopsim is there, the libraries ask for C++20, and nothing of the build's own
# warning options (hopsim::options) is part of the installed interface.
# -DBUILD=<build dir> -DPREFIX=<prefix> -DLIBDIR=<lib dir relative to the prefix>
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD} --prefix ${PREFIX}: exit status ${rc}\n${out}${err}")
endif()

set(package ${PREFIX}/${LIBDIR}/cmake/hopsim)
foreach(file hopsimConfig.cmake hopsimConfigVersion.cmake hopsimTargets.cmake)
  if(NOT EXISTS ${package}/${file})
    message(FATAL_ERROR "the install has no ${package}/${file}")
  endif()
endforeach()
file(READ ${package}/hopsimTargets.cmake targets)
if(targets MATCHES "(hopsim_options|hopsim::options|-W[a-z-]+|-fsanitize[^ \"]*)")
  message(FATAL_ERROR "the installed interface carries the build's own '${CMAKE_MATCH_1}' "
    "(${package}/hopsimTargets.cmake)")
endif()
foreach(expected "add_library(hopsim::hopsim INTERFACE IMPORTED)"
    "INTERFACE_COMPILE_FEATURES \"cxx_std_20\"")
  string(FIND "${targets}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${package}/hopsimTargets.cmake has no ${expected}")
  endif()
endforeach()
