#!/usr/bin/env bash
# The N-link pendulum against MuJoCo (docs/benchmarks.md#against-mujoco): the same uniform chain
# (N hinge links, 1 m and 1 kg in all, point bobs, released straight at 45 degrees, gravity
# 9.81 m/s^2, no contacts, RK4 at the same step) stepped by MuJoCo's mj_step
# (scripts/mujoco_chain.cpp) and by `springlab run` on a scene file with the uniform generator.
# Prints one row per N: microseconds per step of each (the least of REPEATS runs, each at least
# a second of stepping) and their ratio; then a check that the two chains are the same system:
# the angles of the first and last links after CHECK_T seconds at a small step, side by side.
#
#   bash scripts/bench_mujoco.sh [SPRINGLAB]     (default: build/src/springlab)
#
# Needs MuJoCo's headers and library (Debian 12: libmujoco-dev, MuJoCo 2.2.2), installed with
# apt-get when missing. Not part of the test suite.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
springlab=${1:-$root/build/src/springlab}
sizes=(10 100 1000)
dt=1e-6         # s, both sides' step (a step's cost does not depend on it)
repeats=3       # runs of each; the least time is kept
check_dt=1e-5   # s, the agreement check's step
check_t=0.5     # s, the agreement check's time
check_sizes=(2 10)

die() { echo "bench_mujoco: $*" >&2; exit 1; }

[ -x "$springlab" ] || die "no springlab binary at $springlab (build it first: bash scripts/run.sh)"
if [ ! -f /usr/include/mujoco/mujoco.h ]; then
  echo "bench_mujoco: MuJoCo is missing; installing libmujoco-dev with apt-get" >&2
  if ! { apt-get install -y libmujoco-dev || { apt-get update && apt-get install -y libmujoco-dev; }; } \
      >/dev/null 2>&1; then
    die "cannot install libmujoco-dev (apt-get failed: run as root on Debian 12, or install MuJoCo 2.2.2's headers and libmujoco yourself)"
  fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g++ -std=c++17 -O2 -o "$tmp/mujoco_chain" "$root/scripts/mujoco_chain.cpp" -lmujoco \
  || die "cannot compile scripts/mujoco_chain.cpp against libmujoco"
mujoco_version=$(dpkg-query -W -f='${Version}' libmujoco-dev 2>/dev/null || echo "unknown")

# scene N DT DURATION: the uniform chain as a springlab scene file; prints its path
scene() {
  local file="$tmp/chain_$1.json"
  cat >"$file" <<EOF
{"name": "Uniform chain of $1 links", "gravity": [0, -9.81, 0], "integrator": "rk4",
 "dt": $2, "duration": $3,
 "system": {"type": "pendulum",
            "uniform": {"links": $1, "length": $(awk "BEGIN {printf \"%.17g\", 1 / $1}"),
                        "mass": $(awk "BEGIN {printf \"%.17g\", 1 / $1}"),
                        "angle": 0.78539816339744828}}}
EOF
  echo "$file"
}

# the least of the values on standard input
least() { sort -g | head -n 1; }

printf 'N-link chain, 1 m and 1 kg in all, released at 45 degrees, rk4 at dt = %s s\n' "$dt"
printf 'microseconds per step, the least of %d runs; MuJoCo %s (mj_step), springlab run\n\n' \
  "$repeats" "$mujoco_version"
printf '%6s %14s %12s %18s\n' N MuJoCo springlab MuJoCo/springlab
for n in "${sizes[@]}"; do
  # about a second of springlab's stepping: its step is about N/10 microseconds
  duration=$(awk "BEGIN {printf \"%.17g\", 1e7 / $n * $dt}")
  file=$(scene "$n" "$dt" "$duration")
  ours=$(for _ in $(seq "$repeats"); do
    "$springlab" run "$file" | sed -n 's/.*(\([0-9.e+-]*\) us per step).*/\1/p'
  done | least)
  theirs=$(for _ in $(seq "$repeats"); do
    "$tmp/mujoco_chain" time "$n" "$dt" 1 | cut -d' ' -f1
  done | least)
  [ -n "$ours" ] && [ -n "$theirs" ] || die "no timing for N = $n"
  printf '%6d %14.2f %12.2f %18.0f\n' "$n" "$theirs" "$ours" \
    "$(awk "BEGIN {print $theirs / $ours}")"
done

printf '\nthe same system? angles (rad) from the downward vertical after %s s at dt = %s s\n' \
  "$check_t" "$check_dt"
printf '%6s %6s %22s %22s %10s\n' N link MuJoCo springlab difference
for n in "${check_sizes[@]}"; do
  file=$(scene "$n" "$check_dt" "$check_t")
  read -r m1 mn < <("$tmp/mujoco_chain" state "$n" "$check_dt" "$check_t")
  # springlab's last row: bob positions x0,y0,z0,x1,...; a link's angle from its two ends
  read -r s1 sn < <("$springlab" run "$file" --every 1000000000 --out - | tail -n 1 | awk -F, \
    -v n="$n" '{px = $(3 * n - 4); py = $(3 * n - 3); if (n == 1) {px = 0; py = 0}
      printf "%.17g %.17g\n", atan2($2, -$3), atan2($(3 * n - 1) - px, -($(3 * n) - py))}')
  for pair in "1 $m1 $s1" "$n $mn $sn"; do
    read -r link a b <<<"$pair"
    printf '%6d %6d %22.15f %22.15f %10.2e\n' "$n" "$link" "$a" "$b" \
      "$(awk "BEGIN {d = $a - $b; print d < 0 ? -d : d}")"
  done
done
