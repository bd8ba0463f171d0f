#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, docs/fuzzing.md) with clang, ASan and UBSan in
# build-fuzz/ and runs each, one at a time, for SECONDS (default 60) on a scratch copy of its seed
# corpus with its dictionary. Prints one line per target: its executions and the coverage reached
# (libFuzzer's final "#N DONE cov: X ft: Y") and its random seed, then the executions of all. Exits 1
# on a finding, printing the reproducer's path (and the input as base64, when it is small).
# Usage: bash scripts/fuzz.sh [SECONDS]   (FUZZ_TARGETS="scene obj" runs only those)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: SECONDS must be a whole number >= 1, not \"$seconds\"" >&2
  exit 2
fi
targets=(${FUZZ_TARGETS:-scene obj method provenance specs options})
dir=build-fuzz
# One input running longer than this is a hang; a process above this memory, a leak or a limit
# that did not hold (the largest scene the limits allow is built well under it).
timeout_s=25
rss_limit_mb=3072

# clang 14 and its libFuzzer runtime (Debian 12), besides what the normal build needs
bash scripts/install-deps.sh
missing=()
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

CC=clang CXX=clang++ cmake -S . -B "$dir" -DSPRINGLAB_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" >/dev/null
cmake --build "$dir" -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
findings="$dir/findings"
status=0
total=0
max_shown_bytes=4096
for t in "${targets[@]}"; do
  corpus="$scratch/$t"
  mkdir -p "$corpus" "$findings/$t"
  cp tests/fuzz/corpus/"$t"/* "$corpus"/
  log="$dir/fuzz_$t.log"
  rc=0
  "$dir/tests/fuzz/fuzz_$t" "$corpus" -dict="tests/fuzz/$t.dict" -max_total_time="$seconds" \
    -timeout="$timeout_s" -rss_limit_mb="$rss_limit_mb" -artifact_prefix="$findings/$t/" \
    -print_final_stats=1 >"$log" 2>&1 || rc=$?
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true)
  if [ "$rc" -eq 0 ] && [ -n "$done_line" ]; then
    read -r execs cov ft <<<"$(sed -E 's/^#([0-9]+).*cov: ([0-9]+).*ft: ([0-9]+).*/\1 \2 \3/' <<<"$done_line")"
    seed=$(sed -nE 's/^INFO: Seed: ([0-9]+).*/\1/p' "$log" | head -n 1)
    echo "fuzz_$t: $execs executions in ${seconds} s, cov $cov, ft $ft (seed $seed)"
    total=$((total + execs))
  else
    status=1
    reproducer=$(ls -t "$findings/$t"/* 2>/dev/null | head -n 1 || true)
    echo "fuzz_$t: FINDING (exit $rc): reproducer ${reproducer:-none written}, log $log"
    grep -E 'ERROR|fuzz_'"$t"':|SUMMARY' "$log" | head -n 5 | sed 's/^/  /'
    # the input itself, for a machine whose files are gone afterwards (CI): base64 -d restores it
    if [ -n "$reproducer" ] && [ "$(stat -c %s "$reproducer")" -le "$max_shown_bytes" ]; then
      echo "  reproducer as base64: $(base64 -w 0 "$reproducer")"
    fi
  fi
done
echo "fuzz: $total executions in all"
exit "$status"
