#!/usr/bin/env bash
# Installs what is missing, builds what the default example needs (the hopsim program and the
# Python module behind `hopsim plot`, in the Release build of build/) and runs it: the lander of
# examples/lander.yaml (a thruster burning a fuel tank down until touchdown). Its logged variables
# go to build/lander.csv (units in build/lander.units.json) and their plot to build/lander.png.
# ./test.sh builds the rest (tests, benchmarks, examples) in the same build directory.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/common.sh
hopsim_install_packages
hopsim_build build -DCMAKE_BUILD_TYPE=Release -DHOPSIM_PYTHON=ON --target hopsim --target hopsim_python
./build/apps/hopsim run examples/lander.yaml --out build/lander.csv
./build/apps/hopsim plot build/lander.csv -o build/lander.png
echo "lander: CSV  $PWD/build/lander.csv (units in $PWD/build/lander.units.json)"
echo "lander: plot $PWD/build/lander.png"
