# hopsim plot end to end (docs/scenario-yaml.md, "hopsim plot"): `hopsim run` writes the lander's
# CSV and units sidecar, `hopsim plot` draws them to a PNG (every column, panels by unit and range) and
# to an SVG (named columns), and the run's HDF5 file to a PNG; every error exits with status 1
# and one message, leaving no image behind: an unknown file, an unknown column (with the nearest
# names), a bad extension, a bad --dpi, an interpreter that cannot be run.
# -DHOPSIM=<hopsim> -DSCENARIO=<examples/lander.yaml> -DWORK=<scratch dir>
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

include(${CMAKE_CURRENT_LIST_DIR}/hopsim_cli.cmake)

# Fails unless `path` starts with the 8-byte PNG signature and has more than a header.
function(check_png path)
  if(NOT EXISTS ${path})
    message(FATAL_ERROR "hopsim plot wrote no ${path}")
  endif()
  file(READ ${path} signature LIMIT 8 HEX)
  file(SIZE ${path} size)
  if(NOT signature STREQUAL "89504e470d0a1a0a" OR size LESS 1000)
    message(FATAL_ERROR "${path} is no PNG image (${size} bytes, starting ${signature})")
  endif()
endfunction()

hopsim_ok(run ${SCENARIO} --quiet --out ${WORK}/lander.csv)
if(NOT EXISTS ${WORK}/lander.units.json)
  message(FATAL_ERROR "hopsim run --out ${WORK}/lander.csv wrote no units sidecar")
endif()
hopsim_ok(plot ${WORK}/lander.csv -o ${WORK}/lander.png)
# The kg columns split: the mass's 20 kg of change beside its 1000 kg would draw flat.
set(kg_note "note: the columns in [kg]: 3 columns in 2 panels (ranges more than 20 times apart get their own axes)\n")
if(NOT out STREQUAL "${kg_note}wrote ${WORK}/lander.png (6 columns in 5 panels)\n")
  message(FATAL_ERROR "hopsim plot -o lander.png printed:\n${out}")
endif()
check_png(${WORK}/lander.png)
# Named columns, SVG by extension; without -o, F.png beside F.csv.
hopsim_ok(plot ${WORK}/lander.csv altitude signals.thrust -o ${WORK}/two.svg)
if(NOT out STREQUAL "wrote ${WORK}/two.svg (2 columns in 2 panels)\n")
  message(FATAL_ERROR "hopsim plot altitude signals.thrust -o two.svg printed:\n${out}")
endif()
file(READ ${WORK}/two.svg svg LIMIT 200)
if(NOT svg MATCHES "^<\\?xml")
  message(FATAL_ERROR "hopsim plot -o two.svg wrote no SVG")
endif()
file(COPY ${WORK}/lander.csv ${WORK}/lander.units.json DESTINATION ${WORK}/beside)
hopsim_ok(plot ${WORK}/beside/lander.csv mass --dpi 50)
check_png(${WORK}/beside/lander.png)

# The HDF5 file of the same run (units as dataset attributes, read with h5py).
hopsim_ok(run ${SCENARIO} --quiet --out ${WORK}/lander.h5)
hopsim_ok(plot ${WORK}/lander.h5 -o ${WORK}/lander_h5.png)
if(NOT out STREQUAL "${kg_note}wrote ${WORK}/lander_h5.png (6 columns in 5 panels)\n")
  message(FATAL_ERROR "hopsim plot lander.h5 -o lander_h5.png printed:\n${out}")
endif()
check_png(${WORK}/lander_h5.png)

# Errors: exit status 1, `hopsim: error: ...`, no image.
hopsim_fails("^hopsim: error: cannot read '[^']*missing\\.csv': no such file\n$"
  plot ${WORK}/missing.csv -o ${WORK}/missing.png)
hopsim_fails("^hopsim: error: no column 'altitud' in '[^']*lander\\.csv' \\(did you mean 'altitude'\\?\\)\n$"
  plot ${WORK}/lander.csv signals.thrust altitud -o ${WORK}/unknown.png)
hopsim_fails("^hopsim: error: plot -o '[^']*lander\\.bmpx': unknown extension '\\.bmpx'"
  plot ${WORK}/lander.csv -o ${WORK}/lander.bmpx)
hopsim_fails("--dpi: expected an integer from 1 to 10000, got '0'"
  plot ${WORK}/lander.csv --dpi 0 -o ${WORK}/dpi.png)
execute_process(COMMAND ${CMAKE_COMMAND} -E env HOPSIM_PYTHON=${WORK}/no_python
  ${HOPSIM} plot ${WORK}/lander.csv -o ${WORK}/no_python.png RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "^hopsim: error: plot: cannot run the Python interpreter '[^']*no_python': No such file or directory \\(set HOPSIM_PYTHON")
  message(FATAL_ERROR "hopsim plot with HOPSIM_PYTHON=no_python: exit status ${rc}; stderr:\n${err}")
endif()
foreach(left missing.png unknown.png lander.bmpx dpi.png no_python.png)
  if(EXISTS ${WORK}/${left})
    message(FATAL_ERROR "a failing hopsim plot left ${WORK}/${left} behind")
  endif()
endforeach()
