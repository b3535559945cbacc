# Read by cpack. A Debian package installs under /usr, where Debian's interpreter and CMake look
# (/usr/lib/python3/dist-packages, /usr/lib/<multiarch>/cmake), so the build it packs must have
# been configured for /usr: the install directories are chosen when configuring.
if(CPACK_GENERATOR STREQUAL "DEB" AND NOT CPACK_HOPSIM_INSTALL_PREFIX STREQUAL "/usr")
  message(FATAL_ERROR "this build is configured for the prefix '${CPACK_HOPSIM_INSTALL_PREFIX}'; "
    "a Debian package installs under /usr: configure a build with -DCMAKE_INSTALL_PREFIX=/usr "
    "(scripts/check_deb.sh does, in build-deb/)")
endif()
