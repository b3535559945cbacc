#!/usr/bin/env bash
# Installs what is missing, builds hopsim (Release) and runs the default scenario: the inverted
# pendulum of examples/pendulum_pd.yaml, held upright by a 50 Hz PD controller.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/common.sh
hopsim_install_packages
hopsim_build build -DCMAKE_BUILD_TYPE=Release
./build/apps/hopsim run examples/pendulum_pd.yaml --out build/pendulum_pd.csv
