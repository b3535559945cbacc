# hopsim check on a chain of COUNT scenario files, each including the next and defining one
# signal: every signal arrives, and the check takes time linear in COUNT (the test's TIMEOUT is
# the guard; bench/include_chain.cpp measures the growth).
# -DHOPSIM=<hopsim> -DCOUNT=<files> -DWORK=<scratch dir>
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
include(${CMAKE_CURRENT_LIST_DIR}/hopsim_cli.cmake)

file(WRITE ${WORK}/top.yaml "hopsim: 1\nsimulation: {end_time: 1}\ninclude: [c0.yaml]\n")
math(EXPR last "${COUNT} - 1")
foreach(i RANGE ${last})
  math(EXPR next "${i} + 1")
  set(text "hopsim: 1\nsignals: {s${i}: {}}\n")
  if(i LESS last)
    string(APPEND text "include: [c${next}.yaml]\n")
  endif()
  file(WRITE ${WORK}/c${i}.yaml "${text}")
endforeach()
hopsim_ok(check ${WORK}/top.yaml)
if(NOT out MATCHES "top\\.yaml: ok \\(0 bodies, 0 models, ${COUNT} signals, ")
  message(FATAL_ERROR "hopsim check of ${COUNT} includes:\n${out}")
endif()
