# hopsim's options and environment variables, end to end (docs/scenario-yaml.md, "hopsim run"):
# a value that is empty, not a number, out of its range or not one of its choices exits with
# status 1 and a message naming the option (or the environment variable), the value and what was
# expected, before the scenario loads; the command line wins over a bad variable, which is then
# not read.
# -DHOPSIM=<hopsim> -DSCENARIO=<a scenario that runs in a few hops> -DWORK=<scratch dir>
cmake_policy(SET CMP0007 NEW)  # list(GET) keeps the empty values
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
include(${CMAKE_CURRENT_LIST_DIR}/hopsim_cli.cmake)

# `hopsim run SCENARIO OPTION VALUE` fails naming OPTION, before the run; VALUE may be empty.
function(option_fails option value match)
  execute_process(COMMAND ${HOPSIM} run ${SCENARIO} ${option} "${value}"
    RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "^${option}: expected ${match}, got '")
    message(FATAL_ERROR "hopsim run ${option} '${value}': exit status ${rc}, stderr:\n${err}")
  endif()
endfunction()

option_fails(--end "" "a finite number")
option_fails(--end "1e999" "a finite number \\(within the range of a double\\)")
option_fails(--end "nan" "a finite number")
option_fails(--end "2 s" "a finite number")
option_fails(--dt "" "a finite number > 0")
option_fails(--dt "1e999" "a finite number > 0 \\(within the range of a double\\)")
option_fails(--dt "0x1p-10" "a finite number > 0")
option_fails(--rtol "-1e-6" "a finite number > 0")
option_fails(--atol "inf" "a finite number > 0")
option_fails(--steps "" "an integer from 1 to 2147483647")
option_fails(--steps "2147483648" "an integer from 1 to 2147483647")
option_fails(--steps "99999999999999999999" "an integer from 1 to 2147483647")
option_fails(--steps "0x10" "an integer from 1 to 2147483647")
option_fails(--steps "1.5" "an integer from 1 to 2147483647")
option_fails(--integrator "" "euler, rk4, rkf45, cvode, euler_implicit_linearized or euler_implicit")
option_fails(--integrator "rk5" "euler, rk4, rkf45, cvode, euler_implicit_linearized or euler_implicit")
option_fails(--log-rate "" "a finite number > 0")
option_fails(--realtime "0" "a finite number > 0")
option_fails(--out "" "a file name")
option_fails(--view "" "a file name")
# The nearest choice is suggested.
execute_process(COMMAND ${HOPSIM} run ${SCENARIO} --integrator rkf54 RESULT_VARIABLE rc
  ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT err MATCHES "did you mean 'rk4' or 'rkf45'")
  message(FATAL_ERROR "hopsim run --integrator rkf54: no suggestion:\n${err}")
endif()

# The numbers of the other commands, checked before Python starts.
foreach(case "plot|x.csv|--dpi|0x10|an integer from 1 to 10000"
    "plot|x.csv|--dpi||an integer from 1 to 10000"
    "campaign|x.yaml|--workers|-1|an integer from 0 to 2147483647"
    "campaign|x.yaml|--replay|9223372036854775808|an integer from 0 to 9223372036854775807")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 command)
  list(GET case 1 file)
  list(GET case 2 option)
  list(GET case 3 value)
  list(GET case 4 match)
  execute_process(COMMAND ${HOPSIM} ${command} ${file} ${option} "${value}"
    RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "^${option}: expected ${match}, got '")
    message(FATAL_ERROR "hopsim ${command} ${option} '${value}': exit status ${rc}:\n${err}")
  endif()
endforeach()

# `VARIABLE=VALUE hopsim run SCENARIO ARGN` fails naming the variable, its value and what was
# expected (MATCH, as written).
function(variable_fails variable value match)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${variable}=${value}
    ${HOPSIM} run ${SCENARIO} ${ARGN} RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  string(FIND "${err}"
    "hopsim: error: environment variable ${variable}: expected ${match}, got '${value}'" at)
  if(NOT rc EQUAL 1 OR NOT at EQUAL 0)
    message(FATAL_ERROR "${variable}=${value} hopsim run: exit status ${rc}, stderr:\n${err}")
  endif()
endfunction()

variable_fails(HOPSIM_END abc "a finite number")
variable_fails(HOPSIM_DT 0 "a finite number > 0" --end 0.05)
variable_fails(HOPSIM_RTOL 1e999 "a finite number > 0 (within the range of a double)" --end 0.05)
variable_fails(HOPSIM_ATOL x "a finite number > 0" --end 0.05)
variable_fails(HOPSIM_STEPS 2147483648 "an integer from 1 to 2147483647" --end 0.05)
variable_fails(HOPSIM_INTEGRATOR rk5 "euler, rk4, rkf45, cvode, euler_implicit_linearized or euler_implicit" --end 0.05)
variable_fails(HOPSIM_LOG_RATE -1 "a finite number > 0" --end 0.05)
variable_fails(HOPSIM_REALTIME fast "a finite number > 0" --end 0.05)
variable_fails(HOPSIM_QUIET maybe "1, true, yes or on (or 0, false, no or off)" --end 0.05)

# The command line wins: a bad variable it overrides is not read. An empty one is unset.
execute_process(COMMAND ${CMAKE_COMMAND} -E env HOPSIM_END=abc HOPSIM_DT=
  ${HOPSIM} run ${SCENARIO} --end 0.05 --quiet RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
  message(FATAL_ERROR "HOPSIM_END=abc hopsim run --end 0.05: exit status ${rc}:\n${err}")
endif()
# HOPSIM_QUIET=1 is --quiet: no summary.
execute_process(COMMAND ${CMAKE_COMMAND} -E env HOPSIM_QUIET=yes
  ${HOPSIM} run ${SCENARIO} --end 0.05 RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
  message(FATAL_ERROR "HOPSIM_QUIET=yes hopsim run: exit status ${rc}:\n${err}")
endif()
