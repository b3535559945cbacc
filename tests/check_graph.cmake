# hopsim graph end to end (docs/scenario-yaml.md, "hopsim graph"): the DOT of each file in FILES
# (separated by `|`) renders with Graphviz's `dot -Tsvg` with no message at all, is the same on
# every run, and `-o F.svg` writes SVG; tests/data/graph_features.yaml draws nested clusters,
# slices, breaks and escaped quotes as documented; every error exits with status 1 and a
# message (unknown file, bad -o extension, bad --set override, `dot` not on PATH), leaving no
# output file behind.
# -DHOPSIM=<hopsim> -DFILES=<a.yaml|b.yaml> -DFEATURES=<graph_features.yaml> -DWORK=<scratch dir>
find_program(DOT dot)
if(NOT DOT)
  message(FATAL_ERROR "Graphviz's dot is not on PATH: install the graphviz package")
endif()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

include(${CMAKE_CURRENT_LIST_DIR}/hopsim_cli.cmake)

# Fails unless `dot -Tsvg` renders `dotFile` to `svgFile`, exiting 0 with no warning.
function(render dotFile svgFile)
  execute_process(COMMAND ${DOT} -Tsvg ${dotFile} -o ${svgFile} RESULT_VARIABLE rc
    OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT err STREQUAL "" OR NOT out STREQUAL "")
    message(FATAL_ERROR "dot -Tsvg ${dotFile}: exit status ${rc}; output:\n${out}${err}")
  endif()
  file(READ ${svgFile} svg)
  if(NOT svg MATCHES "<svg ")
    message(FATAL_ERROR "dot -Tsvg ${dotFile} wrote no SVG to ${svgFile}")
  endif()
endfunction()

string(REPLACE "|" ";" files "${FILES}")
foreach(yaml IN LISTS files FEATURES)
  get_filename_component(name ${yaml} NAME_WE)
  hopsim_ok(graph ${yaml} -o ${WORK}/${name}.dot)
  if(NOT out STREQUAL "wrote ${WORK}/${name}.dot (Graphviz DOT)\n")
    message(FATAL_ERROR "hopsim graph ${yaml} -o ${name}.dot printed '${out}'")
  endif()
  render(${WORK}/${name}.dot ${WORK}/${name}.svg)
  # Deterministic: stdout without -o is the same text, twice.
  file(READ ${WORK}/${name}.dot written)
  hopsim_ok(graph ${yaml})
  set(first "${out}")
  hopsim_ok(graph ${yaml})
  if(NOT first STREQUAL written OR NOT out STREQUAL written)
    message(FATAL_ERROR "hopsim graph ${yaml}: the DOT differs between runs")
  endif()
  # -o F.svg runs dot itself.
  hopsim_ok(graph ${yaml} -o ${WORK}/${name}_direct.svg)
  if(NOT out STREQUAL "wrote ${WORK}/${name}_direct.svg (SVG)\n")
    message(FATAL_ERROR "hopsim graph ${yaml} -o ${name}_direct.svg printed '${out}'")
  endif()
  file(READ ${WORK}/${name}_direct.svg svg)
  if(NOT svg MATCHES "^<\\?xml.*<svg ")
    message(FATAL_ERROR "hopsim graph ${yaml} -o ${name}_direct.svg wrote no SVG")
  endif()
endforeach()

# What graph_features.yaml draws, as literal DOT lines in output order.
file(READ ${WORK}/graph_features.dot dot)
set(expected
  [=["signal:v" [shape=ellipse, label="v\ndouble[4], in\"\\"]]=]
  [=[  subgraph "cluster_outer" {]=]
  [=[    label="outer\nAssembly"]=]
  [=[    "signal:outer.wave" [shape=ellipse, label="outer.wave\ndouble"]]=]
  [=[    subgraph "cluster_outer.source" {]=]
  [=[      "model:outer.source" [shape=box, label="outer.source\nSineWave (FlowModel)"]]=]
  [=[    subgraph "cluster_outer.scaled" {]=]
  [=[  "signal:a" -> "model:first" [label="u -> y\nbreak", style="bold,dashed"]]=]
  [=[  "model:head" -> "signal:v" [label="y[2:4]"]]=]
  [=[  "signal:v" -> "model:head" [label="u[0:2] -> y", style="bold"]]=]
  [=[  "signal:b" -> "model:second" [label="u -> y", style="bold"]]=])
set(rest "${dot}")
foreach(line IN LISTS expected)
  string(FIND "${rest}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "graph_features.dot lacks, or has out of order, the line\n${line}\nin:\n${dot}")
  endif()
  string(SUBSTRING "${rest}" ${at} -1 rest)
endforeach()

# Errors: exit status 1, `hopsim: error: ...` on stderr, no output file.
list(GET files 0 yaml)
hopsim_fails("hopsim: error: cannot read '[^']*no_such_file\\.yaml'"
  graph ${WORK}/no_such_file.yaml -o ${WORK}/missing.dot)
hopsim_fails("hopsim: error: graph -o '[^']*graph\\.png': unknown extension '\\.png' \\(expected FILE\\.dot or FILE\\.gv for DOT, FILE\\.svg for SVG\\)"
  graph ${yaml} -o ${WORK}/graph.png)
hopsim_fails("hopsim: error: graph -o '[^']*graph': no extension"
  graph ${yaml} -o ${WORK}/graph)
hopsim_fails("hopsim: error: override no\\.such\\.variable=1:1:1: no variable 'no\\.such\\.variable'"
  graph ${yaml} --set no.such.variable=1 -o ${WORK}/override.dot)
hopsim_fails("hopsim: error: override simulation\\.end_time=soon:1:1: .*expected"
  graph ${yaml} --set simulation.end_time=soon -o ${WORK}/override.dot)
# Without dot on PATH, SVG is an error naming the package; DOT still works.
file(MAKE_DIRECTORY ${WORK}/empty_path)
execute_process(COMMAND ${CMAKE_COMMAND} -E env PATH=${WORK}/empty_path
  ${HOPSIM} graph ${yaml} -o ${WORK}/no_dot.svg RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "hopsim: error: cannot write '[^']*no_dot\\.svg': Graphviz's `dot` is not on PATH \\(install the graphviz package")
  message(FATAL_ERROR "hopsim graph -o F.svg without dot on PATH: exit status ${rc}; stderr:\n${err}")
endif()
foreach(left missing.dot graph.png graph override.dot no_dot.svg)
  if(EXISTS ${WORK}/${left})
    message(FATAL_ERROR "a failing hopsim graph left ${WORK}/${left} behind")
  endif()
endforeach()
