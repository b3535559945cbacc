# The installed package (docs/install.md), used as a program outside the build tree uses it.
# `cmake --install` of this build into a prefix in the build tree sets up the fixture; then an
# outside project (tests/install/CMakeLists.txt) that knows only find_package(hopsim) and
# hopsim::hopsim builds examples/custom_model.cpp and examples/rocket.cpp and runs them, and the
# installed program runs a scenario, writes a replay page, runs its Python subcommands with the
# package installed with it, and reports the version of the CMake package and the Python package.
set(install_work ${CMAKE_CURRENT_BINARY_DIR}/install)
set(install_prefix ${install_work}/prefix)

add_test(NAME "install: cmake --install gives a package without the build's own flags"
  COMMAND ${CMAKE_COMMAND} -DBUILD=${PROJECT_BINARY_DIR} -DPREFIX=${install_prefix}
    -DLIBDIR=${CMAKE_INSTALL_LIBDIR} -P ${CMAKE_CURRENT_SOURCE_DIR}/install/install_prefix.cmake)
set_tests_properties("install: cmake --install gives a package without the build's own flags"
  PROPERTIES FIXTURES_SETUP hopsim_installed)

add_test(NAME "install: an outside project builds and runs the examples with hopsim::hopsim"
  COMMAND ${CMAKE_COMMAND} -DPREFIX=${install_prefix} -DLIBDIR=${CMAKE_INSTALL_LIBDIR}
    -DSOURCE=${PROJECT_SOURCE_DIR}/tests/install -DWORK=${install_work}/outside
    -DGENERATOR=${CMAKE_GENERATOR} -DCXX=${CMAKE_CXX_COMPILER}
    -DLAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER} -DVERSION=${PROJECT_VERSION}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/install/build_outside.cmake)

if(HOPSIM_PYTHON)
  set(python_args -DPYTHON=${Python3_EXECUTABLE} -DPYTHON_DIR=${HOPSIM_PYTHON_INSTALL_DIR}
    -DBUILD_PYTHON_DIR=${PROJECT_BINARY_DIR}/python)
endif()
add_test(NAME "install: the installed hopsim runs a scenario and reports the package's version"
  COMMAND ${CMAKE_COMMAND} -DPREFIX=${install_prefix} -DLIBDIR=${CMAKE_INSTALL_LIBDIR}
    -DBINDIR=${CMAKE_INSTALL_BINDIR} -DBUILD_PROGRAM=$<TARGET_FILE:hopsim>
    -DSCENARIO=${PROJECT_SOURCE_DIR}/examples/lander_touchdown.yaml -DWORK=${install_work}/program
    -DVERSION=${PROJECT_VERSION} ${python_args}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/install/check_installed_program.cmake)

set_tests_properties("install: an outside project builds and runs the examples with hopsim::hopsim"
  "install: the installed hopsim runs a scenario and reports the package's version"
  PROPERTIES FIXTURES_REQUIRED hopsim_installed ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")

# A Debian package installs under /usr: cpack refuses a build configured for another prefix
# (cmake/debian/cpack_project_config.cmake) before it installs anything.
if(NOT CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  add_test(NAME "install: cpack -G DEB refuses a build configured for another prefix than /usr"
    COMMAND ${CMAKE_CPACK_COMMAND} -G DEB --config ${PROJECT_BINARY_DIR}/CPackConfig.cmake)
  set_tests_properties("install: cpack -G DEB refuses a build configured for another prefix than /usr"
    PROPERTIES PASS_REGULAR_EXPRESSION
    "this build is configured for the prefix '.*CPack Error: Cannot initialize the generator DEB")
endif()
