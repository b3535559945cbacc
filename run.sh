#!/usr/bin/env bash
# Installs what is missing, builds hopsim (Release) and runs the default example: the lander of
# examples/lander.yaml (a thruster burning a fuel tank down until touchdown). Its logged variables
# go to build/lander.csv (units in build/lander.units.json) and their plot to build/lander.png.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/common.sh
hopsim_install_packages
hopsim_build build -DCMAKE_BUILD_TYPE=Release
./build/apps/hopsim run examples/lander.yaml --out build/lander.csv
./build/apps/hopsim plot build/lander.csv -o build/lander.png
echo "lander: CSV  $PWD/build/lander.csv (units in $PWD/build/lander.units.json)"
echo "lander: plot $PWD/build/lander.png"
