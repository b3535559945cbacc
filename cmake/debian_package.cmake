# The Debian package (docs/install.md): `cpack -G DEB` in a build configured with
# -DCMAKE_INSTALL_PREFIX=/usr writes hopsim_<version>_amd64.deb, which holds everything
# `cmake --install` installs: the hopsim program, the Python package, the headers, the static
# libraries, the CMake package and the examples. scripts/check_deb.sh builds, installs, uses and
# removes it.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME hopsim)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "multibody simulation framework in the style of DARTS/Dshell")
# The long description, in lines of the control file's width.
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
  "hopsim is a C++20 simulation framework: component models declared once in C++"
  "exchange values through typed signals, and a simulation executive advances time"
  "hop by hop, with multi-rate I/O steps, events, zero crossings and a multibody"
  "engine. This package holds the hopsim program (native scenario, Chrono MBS and"
  "MBSE YAML files; plots, replay pages, Monte Carlo campaigns), the Python package"
  "hopsim, and the headers, static libraries and CMake package for C++ programs"
  "(find_package(hopsim), hopsim::hopsim).")
set(HOPSIM_DEB_MAINTAINER "hopsim developers" CACHE STRING
  "The Maintainer field of the Debian package")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${HOPSIM_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# The program and the Python module without their symbol tables, as Debian ships binaries.
set(CPACK_STRIP_FILES TRUE)

# Depends: the shared libraries the program and the Python module load, as dpkg-shlibdeps finds
# them (libsundials-cvode6, libhdf5-103-1, ...), and by name: the interpreter the module is
# built for and numpy, which it needs to load; and the development packages the headers and the
# CMake package need (hopsimConfig.cmake finds them), at the versions hopsim is built with.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(depends "libeigen3-dev (>= 3.4)" "libsundials-dev (>= 6.4)" "libfcl-dev (>= 0.7)"
  libyaml-cpp-dev "libmuparser-dev (>= 2.3)" libhdf5-dev)
if(HOPSIM_PYTHON)
  math(EXPR next_minor "${Python3_VERSION_MINOR} + 1")
  list(PREPEND depends "python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR})"
    "python3 (<< ${Python3_VERSION_MAJOR}.${next_minor})" python3-numpy)
endif()
string(JOIN ", " CPACK_DEBIAN_PACKAGE_DEPENDS ${depends})
# hopsim plot (pandas, matplotlib; h5py for HDF5 recordings); hopsim campaign (Dask, SciPy,
# PyYAML) and hopsim graph -o F.svg (Graphviz's dot).
string(JOIN ", " CPACK_DEBIAN_PACKAGE_RECOMMENDS python3-pandas python3-matplotlib python3-h5py)
string(JOIN ", " CPACK_DEBIAN_PACKAGE_SUGGESTS python3-distributed python3-scipy python3-yaml
  graphviz)

# postinst byte-compiles the Python package and prerm removes the bytecode (dpkg does not know
# those files), so that removing the package leaves nothing behind.
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/debian/postinst
  ${CMAKE_CURRENT_LIST_DIR}/debian/prerm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)

# cpack refuses a build configured for another prefix (debian/cpack_project_config.cmake).
set(CPACK_HOPSIM_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/debian/cpack_project_config.cmake)
include(CPack)
