# Files hopsim reads, end to end (docs/scenario-yaml.md, "File limits"): a directory, a device, a
# FIFO and a file over the size limit are refused before anything is read, as the file given to
# hopsim check and as an include, with status 1 and a message naming the file and the reason.
# (Reading /dev/zero or a FIFO would never end: this test's TIMEOUT catches a regression.)
# -DHOPSIM=<hopsim> -DWORK=<scratch dir>
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
include(${CMAKE_CURRENT_LIST_DIR}/hopsim_cli.cmake)

execute_process(COMMAND mkfifo ${WORK}/fifo.yaml RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mkfifo ${WORK}/fifo.yaml failed")
endif()
# A sparse file one byte over the 64 MiB limit: refused from its size.
execute_process(COMMAND truncate -s 67108865 ${WORK}/big.yaml RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "truncate -s 67108865 ${WORK}/big.yaml failed")
endif()

foreach(case "/dev/zero@a character device" "${WORK}/fifo.yaml@a FIFO" "${WORK}@a directory")
  string(REPLACE "@" ";" case "${case}")
  list(GET case 0 path)
  list(GET case 1 kind)
  hopsim_fails("^hopsim: error: cannot read '${path}': not a regular file \\(${kind}\\)\n$"
    check ${path})
  file(WRITE ${WORK}/includes.yaml "hopsim: 1\nsimulation: {end_time: 1}\ninclude: [${path}]\n")
  hopsim_fails("^hopsim: error: ${WORK}/includes.yaml:3:11: include: cannot read '${path}': not a regular file \\(${kind}\\)\n$"
    check ${WORK}/includes.yaml)
endforeach()
hopsim_fails("^hopsim: error: cannot read '${WORK}/big.yaml': the file holds 67108865 bytes \\(64.0 MiB\\), more than the limit of 67108864 bytes \\(64.0 MiB\\) for an input file\n$"
  check ${WORK}/big.yaml)
