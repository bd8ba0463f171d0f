#!/usr/bin/env bash
# The memory soaks of docs/benchmarks.md#long-runs: the window under a private Xvfb with four lanes,
# the timeline and a stability map, or `record` of a long clip with the same lanes; the process's
# resident memory sampled every 10 s into out/soak-MODE.csv ("elapsed_s,rss_kb,hwm_kb"), then its
# start, peak and end. The window's preferences are a scratch folder's, with the timeline's budget
# history_mb.
# Usage: bash scripts/soak.sh window MINUTES [HISTORY_MB]   (default 30 minutes, 16 MB)
#        bash scripts/soak.sh record CLIP_SECONDS   (default 600 s; record keeps the session's own
#                                                 256 MiB timeline: it reads no preferences)
# Needs a Release build in build/ (bash scripts/test.sh), Xvfb and xdotool (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-window}
bin=${SPRINGLAB:-$PWD/build/src/springlab}  # SPRINGLAB=PATH: another build
scene=cloth_16
lanes=symplectic_euler,verlet,rk4,implicit_euler
interval_s=10
work=$(mktemp -d)
trap 'kill "${pid:-}" "${xvfb:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/config/springlab"
mkdir -p out  # (ignored by git)
csv=out/soak-$mode.csv

# Samples process $1's VmRSS and VmHWM every interval_s until it exits or $2 seconds have passed.
sample() {
  local start end
  start=$(date +%s)
  end=$((start + $2))
  echo "elapsed_s,rss_kb,hwm_kb" >"$csv"
  while kill -0 "$1" 2>/dev/null && [ "$(date +%s)" -lt "$end" ]; do
    awk -v t=$(($(date +%s) - start)) '/^VmRSS/{r=$2} /^VmHWM/{h=$2} END{print t "," r "," h}' \
      "/proc/$1/status" >>"$csv" 2>/dev/null || true
    sleep "$interval_s"
  done
}

summary() {
  awk -F, 'NR==2{s=$2} NR>1{if($2>p)p=$2; e=$2; t=$1} END{printf "soak %s: %d s: resident start %.1f MiB, peak %.1f MiB, end %.1f MiB (%s)\n", m, t, s/1024, p/1024, e/1024, f}' \
    m="$mode" f="$csv" "$csv"
}

if [ "$mode" = window ]; then
  minutes=${2:-30}
  printf 'history_mb=%s\n' "${3:-16}" >"$work/config/springlab/prefs.ini"
  display=${SOAK_DISPLAY:-:97}
  Xvfb "$display" -screen 0 1600x900x24 >/dev/null 2>&1 &
  xvfb=$!
  sleep 2
  export DISPLAY=$display
  XDG_CONFIG_HOME=$work/config "$bin" "$scene" --lanes "$lanes" --size 1280x720 >"$work/log" 2>&1 &
  pid=$!
  sleep 8
  # the panel scrolled by four wheel notches shows the lab's Stability map button at (67, 485)
  # for this scene and these lanes at this size. Each input is held over a few frames: a loaded
  # machine's software GL draws one in a few hundred ms, and ImGui sees a press only on a frame.
  xdotool mousemove 200 400
  for _ in 1 2 3 4; do xdotool click 5; sleep 0.5; done
  sleep 2
  xdotool mousemove 67 485
  sleep 1
  xdotool mousedown 1
  sleep 0.5
  xdotool mouseup 1
  sleep 1
  xdotool mousemove 800 300
  sample "$pid" $((minutes * 60))
  kill "$pid"
else
  seconds=${2:-600}
  XDG_CONFIG_HOME=$work/config "$bin" record "$scene" --lanes "$lanes" --seconds "$seconds" \
    --fps 30 --size 640x360 --stats --out "$work/soak.mp4" >"$work/log" 2>&1 &
  pid=$!
  sample "$pid" $((365 * 24 * 3600))
  wait "$pid"
  cat "$work/log"
fi
summary
