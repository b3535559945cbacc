#!/usr/bin/env bash
# Installs what is missing, builds hopsim, and runs every test: the Release suite (unit tests and,
# registered with ctest as "python: pytest", the Python tests), then the unit tests again under
# AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/common.sh
hopsim_install_packages

hopsim_build build -DCMAKE_BUILD_TYPE=Release -DHOPSIM_PYTHON=ON
(cd build && ctest --output-on-failure -j 2)

hopsim_build build-sanitize -DCMAKE_BUILD_TYPE=Debug -DHOPSIM_SANITIZE=ON -DHOPSIM_BENCH=OFF \
  -DHOPSIM_PYTHON=OFF
# Left out under the sanitizers: the allocation test (it replaces operator new itself), the
# four timing-exactness tests that advance 1e7 periods (about 6 minutes of CPU there), and the
# tests named "(long)", which integrate seconds of stiff dynamics in small steps (contact, the
# LuGre momentum acceptance test, the DC motor step response: 20 to 100 s each there), and the
# example that runs the slider pushing its ball. The code they run is covered by the shorter
# tests (the contact law, the signed gaps, event-accurate contact, the friction laws one by one,
# the errors), and the Release pass above runs them all.
long_timing="over 1e5 s|over 1e7 periods|may be 1/3 s and stays exact"
long_runs="\\(long\\)|slider_pushes_ball"
(cd build-sanitize &&
  ctest --output-on-failure -j 2 -E "allocation_tests|${long_timing}|${long_runs}")
