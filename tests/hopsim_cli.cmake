# Helpers of the end-to-end `hopsim` command tests run with `cmake -P` (check_graph.cmake,
# check_plot.cmake); HOPSIM is the program.

# Runs hopsim with ARGN; fails unless it exits 0 with nothing on stderr. Sets `out`.
function(hopsim_ok)
  execute_process(COMMAND ${HOPSIM} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    message(FATAL_ERROR "hopsim ${ARGN}: exit status ${rc}, expected 0; stderr:\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# Runs hopsim with ARGN; fails unless it exits 1 with stderr matching `match` and no stdout.
function(hopsim_fails match)
  execute_process(COMMAND ${HOPSIM} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "hopsim ${ARGN}: exit status ${rc}, expected 1; stderr:\n${err}")
  endif()
  if(NOT err MATCHES "${match}" OR NOT out STREQUAL "")
    message(FATAL_ERROR "hopsim ${ARGN}: stderr does not match '${match}':\n${err}${out}")
  endif()
endfunction()
