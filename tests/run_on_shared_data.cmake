# Runs a test's command when the shared data directory exists, and otherwise prints why the
# test is skipped (tests/shared_data.cmake matches the line with SKIP_REGULAR_EXPRESSION).
# Usage: cmake -DDATA=<dir> -DCOMMAND=<program|arg|...> -DREASON=<text> -P run_on_shared_data.cmake
# The command's output goes to this process's output unchanged, for the test's regular
# expressions; a non-zero exit status fails the script.
if(NOT IS_DIRECTORY "${DATA}")
  message("hopsim test skipped: ${REASON}")
  return()
endif()
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "exit status ${status}: ${command}")
endif()
