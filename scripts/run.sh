#!/usr/bin/env bash
# Builds springlab and runs it on the default scene. Extra arguments go to `springlab run`.
# Usage: bash scripts/run.sh [SCENE] [options]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)" --target springlab
if [ $# -eq 0 ]; then set -- seed003_table1_case1; fi
./build/src/springlab run "$@"
