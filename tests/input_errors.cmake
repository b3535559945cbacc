# Errors say where and what (docs/scenario-yaml.md, "File limits" and "hopsim run"): the ctest
# registrations of the command-line checks of option values, environment variables, special
# and oversized files, and the cost of include chains. Included from tests/CMakeLists.txt.

# Every option value and HOPSIM_* variable of hopsim run (and the numbers of plot and campaign)
# is checked as it is read, naming where it came from.
add_test(NAME "apps: bad option values and environment variables fail naming them"
  COMMAND ${CMAKE_COMMAND} -DHOPSIM=$<TARGET_FILE:hopsim>
    -DSCENARIO=${PROJECT_SOURCE_DIR}/examples/pendulum_pd.yaml
    -DWORK=${CMAKE_CURRENT_BINARY_DIR}/option_errors
    -P ${CMAKE_CURRENT_SOURCE_DIR}/check_option_errors.cmake)

# A device, a FIFO, a directory or an oversized file is refused before reading: were one read,
# the test would hang until its TIMEOUT.
add_test(NAME "apps: hopsim check refuses special files and files over the size limit"
  COMMAND ${CMAKE_COMMAND} -DHOPSIM=$<TARGET_FILE:hopsim> -DWORK=${CMAKE_CURRENT_BINARY_DIR}/input_files
    -P ${CMAKE_CURRENT_SOURCE_DIR}/check_input_files.cmake)
set_tests_properties("apps: hopsim check refuses special files and files over the size limit"
  PROPERTIES TIMEOUT 60)

# 20,000 nested includes check in seconds (about 2 s of CPU time, files written included); the
# quadratic walk this replaced took minutes. The TIMEOUT is the guard, generous for a loaded
# machine.
add_test(NAME "apps: hopsim check of a chain of 20000 includes"
  COMMAND ${CMAKE_COMMAND} -DHOPSIM=$<TARGET_FILE:hopsim> -DCOUNT=20000
    -DWORK=${CMAKE_CURRENT_BINARY_DIR}/include_chain
    -P ${CMAKE_CURRENT_SOURCE_DIR}/check_include_chain.cmake)
set_tests_properties("apps: hopsim check of a chain of 20000 includes" PROPERTIES TIMEOUT 300)
