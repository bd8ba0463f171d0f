#!/usr/bin/env bash
# Builds springlab and opens the viewer on a default scene worth looking at (the 32 x 32 cloth,
# horizontal, sagging into a dish: it moves in 3-D).
# Without a display it says so, renders the same scene headless to
# springlab-cloth_32_horizontal.png and runs the headless simulation instead. Extra arguments go to
# springlab.
# Usage: bash scripts/run.sh [SCENE] [options]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)" --target springlab
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec ./build/src/springlab "$@"
fi
echo "no display: rendering the default scene headless to springlab-cloth_32_horizontal.png instead"
./build/src/springlab cloth_32_horizontal --frames 120 \
  --screenshot springlab-cloth_32_horizontal.png "$@"
./build/src/springlab run cloth_32_horizontal --duration 1
