#!/usr/bin/env bash
# Installs what is missing, builds hopsim, and runs every test: the Release suite (unit tests and,
# registered with ctest as "python: pytest", the Python tests).
#
#   ./test.sh              the Release suite (what CI runs; the time from a fresh clone is in
#                          docs/performance.md, "Build time")
#   ./test.sh --sanitize   then the unit tests again under AddressSanitizer and
#                          UndefinedBehaviorSanitizer, in build-sanitize/ (a second build of the
#                          whole tree: about 22 minutes more from scratch, a few when little
#                          changed); run it before submitting a change to C++ code
set -euo pipefail
cd "$(dirname "$0")"

sanitize=0
for argument in "$@"; do
  case "$argument" in
    --sanitize) sanitize=1 ;;
    -h | --help)
      awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
      exit 0
      ;;
    *)
      echo "test.sh: unknown argument '$argument' (expected --sanitize or --help)" >&2
      exit 2
      ;;
  esac
done

source scripts/common.sh
hopsim_install_packages

hopsim_build build -DCMAKE_BUILD_TYPE=Release -DHOPSIM_PYTHON=ON
(cd build && ctest --output-on-failure -j 2)

[ "$sanitize" -eq 1 ] || exit 0

# -g1: line tables are all a sanitizer report needs, and full debug information costs a fifth of
# the compile time.
hopsim_build build-sanitize -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
  -DHOPSIM_SANITIZE=ON -DHOPSIM_BENCH=OFF -DHOPSIM_PYTHON=OFF
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
