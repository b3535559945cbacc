# Fails when a doctest test case name cannot be one ctest test. doctest_discover_tests passes
# each name to CMake as a list element, so a ';' splits it (and an unbalanced '[' glues the
# following names together): the pieces are registered as tests whose --test-case filter
# matches nothing, and doctest reports 0 test cases as success, so the test silently never
# runs. Usage: cmake -DTEST_EXECUTABLE=<path> -P check_test_names.cmake
execute_process(COMMAND "${TEST_EXECUTABLE}" --list-test-cases --no-version
  OUTPUT_VARIABLE names RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --list-test-cases failed (${status})")
endif()
# Brackets are replaced first so that the string functions below see plain text.
string(REPLACE "[" "<open bracket>" names "${names}")
string(REPLACE "]" "<close bracket>" names "${names}")
string(REPLACE ";" "<semicolon>" names "${names}")
string(REPLACE "\n" ";" lines "${names}")
set(bad "")
foreach(line IN LISTS lines)
  if(line MATCHES "<semicolon>" OR (line MATCHES "<open bracket>" AND NOT line MATCHES "<close bracket>"))
    string(APPEND bad "\n  ${line}")
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "test case names with ';' or an unclosed '[' are split by ctest and never "
    "run; use ',' instead (<semicolon>/<open bracket> mark the place):${bad}")
endif()
