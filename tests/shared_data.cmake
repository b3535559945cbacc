# Tests that read third-party example files: Project Chrono's MBS YAML examples and libmbse's
# mechanisms, in the shared data directory beside the checkout (../shared/data). They are not
# part of the repository, so a clone alone does not have them. The tests are registered either
# way and decide when they run: without the directory each one prints why and ctest reports it
# as skipped (the doctest program exits with 77, the command-line tests print a line that
# SKIP_REGULAR_EXPRESSION matches). The project's own files in tests/data/ cover the same ground
# and always run (docs/chrono-yaml.md, "How it is validated").
get_filename_component(shared_data_default "${PROJECT_SOURCE_DIR}/../shared/data" ABSOLUTE)
set(HOPSIM_SHARED_DATA_DIR "${shared_data_default}" CACHE PATH
  "Directory of the third-party example files (chrono-examples/, mbse-examples/); its tests are skipped when it does not exist")

set(shared_data_skip_reason
  "HOPSIM_SHARED_DATA_DIR '${HOPSIM_SHARED_DATA_DIR}' is not a directory (the third-party Chrono and libmbse example files are not part of the repository)")
if(NOT IS_DIRECTORY "${HOPSIM_SHARED_DATA_DIR}")
  message(STATUS "Skipping the tests of the third-party example files ('shared_data_tests: *', "
    "'* on shared data', 'fuzz: * replays the shared examples'): ${shared_data_skip_reason}; "
    "set -DHOPSIM_SHARED_DATA_DIR=DIR to run them")
endif()

# The doctest cases (tests/unit/shared_data/): each is a ctest test, skipped by exit status 77.
hopsim_add_unit_tests(shared_data_tests
  MAIN unit/shared_data/shared_data_main.cpp
  SOURCES unit/shared_data/test_chrono_examples.cpp unit/shared_data/test_mbse_examples.cpp
    unit/shared_data/test_lowering_examples.cpp unit/shared_data/test_contact_example.cpp
    unit/shared_data/test_implicit_examples.cpp
  DEPS hopsim::assemblies
  PROPERTIES SKIP_RETURN_CODE 77)
target_include_directories(shared_data_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/unit/assemblies)
target_compile_definitions(shared_data_tests PRIVATE
  HOPSIM_SHARED_DATA_DIR="${HOPSIM_SHARED_DATA_DIR}"
  "HOPSIM_SHARED_DATA_SKIP_REASON=\"${shared_data_skip_reason}\"")

# A command-line test on the shared files: NAME runs COMMAND (a list) through
# run_on_shared_data.cmake, which skips it when the directory is missing; ARGN are test
# properties (PASS_REGULAR_EXPRESSION ...).
function(hopsim_add_shared_data_test name)
  cmake_parse_arguments(ARG "" "" "COMMAND;PROPERTIES" ${ARGN})
  string(REPLACE ";" "|" command "${ARG_COMMAND}")
  add_test(NAME "${name}"
    COMMAND ${CMAKE_COMMAND} "-DDATA=${HOPSIM_SHARED_DATA_DIR}" "-DCOMMAND=${command}"
      "-DREASON=${shared_data_skip_reason}" -P ${CMAKE_CURRENT_SOURCE_DIR}/run_on_shared_data.cmake)
  set_tests_properties("${name}" PROPERTIES SKIP_REGULAR_EXPRESSION "^hopsim test skipped: "
    ${ARG_PROPERTIES})
endfunction()

set(chrono_examples ${HOPSIM_SHARED_DATA_DIR}/chrono-examples)
hopsim_add_shared_data_test("apps: hopsim check --explain a Chrono MBS simulation file on shared data"
  COMMAND $<TARGET_FILE:hopsim> check ${chrono_examples}/mbs/mbs.yaml --explain
  PROPERTIES PASS_REGULAR_EXPRESSION
    "model +ModelFile.*crank +PIN.*joints\\.rod_slider +CUT_JOINT.*ChronoMotor \\(MotorModel\\), hinge of crank.*mbs\\.yaml: ok \\(4 bodies")
hopsim_add_shared_data_test("apps: hopsim run a Chrono simulation file with --end --dt --integrator --rtol --atol on shared data"
  COMMAND $<TARGET_FILE:hopsim> run ${chrono_examples}/mbs/mbs.yaml --end 0.5 --dt 1e-3
    --integrator rkf45 --rtol 1e-8 --atol 1e-10 --out ${CMAKE_CURRENT_BINARY_DIR}/shared_mbs.csv
  PROPERTIES PASS_REGULAR_EXPRESSION "simulated 0\\.5 s .* 3 warnings. wrote 11 samples")
hopsim_add_shared_data_test("apps: hopsim run an MBSE file on shared data"
  COMMAND $<TARGET_FILE:hopsim> run ${HOPSIM_SHARED_DATA_DIR}/mbse-examples/fourbars1.yaml
    --end 0.1 --dt 1e-3 --out ${CMAKE_CURRENT_BINARY_DIR}/shared_fourbars1.csv
  PROPERTIES PASS_REGULAR_EXPRESSION "simulated 0\\.1 s .* wrote 11 samples")
hopsim_add_shared_data_test("apps: hopsim run refuses a Chrono solver file on shared data"
  COMMAND $<TARGET_FILE:hopsim> run ${chrono_examples}/mbs/solver_mbs.yaml
  PROPERTIES PASS_REGULAR_EXPRESSION "hopsim: error: .*solver_mbs\\.yaml: is a Chrono solver file")

# The fuzz targets' replays (tests/fuzz/) over the example files, as over their seed corpora.
hopsim_add_shared_data_test("fuzz: chrono_yaml replays the shared examples"
  COMMAND $<TARGET_FILE:fuzz_chrono_yaml_replay> ${chrono_examples})
hopsim_add_shared_data_test("fuzz: mbse_yaml replays the shared examples"
  COMMAND $<TARGET_FILE:fuzz_mbse_yaml_replay> ${HOPSIM_SHARED_DATA_DIR}/mbse-examples)
