# docs/reference/cli.md is the help of the hopsim program and of each subcommand, as the program
# prints it. With -DEXPECTED=<file> this fails when the file differs from the help (a stale
# reference); with -DWRITE=<file> it writes the file.
# Usage: cmake -DHOPSIM=<hopsim> (-DEXPECTED=<cli.md> | -DWRITE=<cli.md>) -P cli_reference.cmake
set(doc "# Command-line reference\n\nThe help of `hopsim` and of each subcommand, as the program prints it (generated: `cmake -DHOPSIM=build/apps/hopsim -DWRITE=docs/reference/cli.md -P tests/cli_reference.cmake`; ctest checks it is current). [scenario-yaml.md](../scenario-yaml.md) explains the commands.\n")
foreach(command "" demo models run check graph plot view campaign)
  if(command STREQUAL "")
    set(args --help)
    set(title "hopsim")
  else()
    set(args ${command} --help)
    set(title "hopsim ${command}")
  endif()
  execute_process(COMMAND ${HOPSIM} ${args} OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${HOPSIM} ${args} failed with ${rc}")
  endif()
  # The usage line names the program as it was invoked; the reference calls it hopsim.
  string(REPLACE "${HOPSIM}" "hopsim" help "${help}")
  string(APPEND doc "\n## ${title}\n\n```\n${help}```\n")
endforeach()
if(DEFINED WRITE)
  file(WRITE ${WRITE} "${doc}")
else()
  file(READ ${EXPECTED} expected)
  if(NOT doc STREQUAL expected)
    message(FATAL_ERROR "${EXPECTED} is stale: regenerate it with `cmake -DHOPSIM=build/apps/hopsim "
      "-DWRITE=${EXPECTED} -P tests/cli_reference.cmake`")
  endif()
endif()
