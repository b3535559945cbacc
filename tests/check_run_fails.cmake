# Runs `${HOPSIM} ${ARGS}` (ARGS separated by `|`) and fails unless the exit status is 1 and
# stderr matches MATCH: a bad command line is an error naming the option, not a CLI11 code.
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${HOPSIM} ${args} RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "hopsim ${args}: exit status ${rc}, expected 1; stderr:\n${err}")
endif()
if(NOT err MATCHES "${MATCH}")
  message(FATAL_ERROR "hopsim ${args}: stderr does not match '${MATCH}':\n${err}")
endif()
