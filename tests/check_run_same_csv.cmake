# Runs `${HOPSIM} run ${ARGS}` twice, the first time with ${BASE} when given, the second time
# with ${EXTRA} (all `|`-separated), and fails unless both succeed and write the same CSV byte
# for byte: what only observes or paces a run (the progress lines, --realtime) must not change
# its results. The second run's stderr must
# match MATCH and, when MIN_WALL is given, it must take at least MIN_WALL s of wall time.
string(REPLACE "|" ";" args "${ARGS}")
string(REPLACE "|" ";" extra "${EXTRA}")
string(REPLACE "|" ";" base "${BASE}")
file(MAKE_DIRECTORY ${DIR})
execute_process(COMMAND ${HOPSIM} run ${args} ${base} --out ${DIR}/plain.csv
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hopsim run ${args}: exit status ${rc}:\n${err}")
endif()
string(TIMESTAMP start "%s%f" UTC)
execute_process(COMMAND ${HOPSIM} run ${args} ${extra} --out ${DIR}/extra.csv
  RESULT_VARIABLE rc ERROR_VARIABLE err)
string(TIMESTAMP end "%s%f" UTC)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hopsim run ${args} ${extra}: exit status ${rc}:\n${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DIR}/plain.csv ${DIR}/extra.csv
  RESULT_VARIABLE differ)
if(differ)
  message(FATAL_ERROR "${extra} changed the CSV: compare ${DIR}/plain.csv and ${DIR}/extra.csv")
endif()
if(NOT err MATCHES "${MATCH}")
  message(FATAL_ERROR "hopsim run ${args} ${extra}: stderr does not match '${MATCH}':\n${err}")
endif()
if(DEFINED MIN_WALL)
  # Microseconds since the epoch: 16 digits, within CMake's 64-bit integer math.
  math(EXPR elapsed "${end} - ${start}")
  math(EXPR minimum "${MIN_WALL}")
  if(elapsed LESS minimum)
    message(FATAL_ERROR "hopsim run ${args} ${extra} took ${elapsed} us, expected at least "
      "${minimum} us")
  endif()
endif()
