#!/bin/sh
# Merges the CSV files of `springlab sweep --shard I/N` into the unsharded file (docs/cli.md#sweep).
# usage: scripts/merge-shards.sh part1.csv part2.csv ... partN.csv > sweep.csv
# The files must be given in shard order, 1 to N. Shard I holds the cells whose grid index is
# I - 1 modulo N, in grid order, so the grid's cell g is row g / N of shard g % N: the merge takes
# one row from each file in turn. Fails if the headers differ or the row counts do not fit.
set -eu
if [ "$#" -lt 1 ]; then
  echo "usage: $0 part1.csv ... partN.csv (in shard order) > sweep.csv" >&2
  exit 2
fi
awk -v n="$#" '
  FNR == 1 {
    file++
    if (file == 1) header = $0
    else if ($0 != header) { print FILENAME ": not the same header as the first file" > "/dev/stderr"; bad = 1; exit 2 }
    next
  }
  { rows[file, ++count[file]] = $0 }
  END {
    if (bad) exit 2
    for (f = 2; f <= n; f++)
      if (count[f] > count[1] || count[f] < count[1] - 1) {
        print "shard " f " has " count[f] " rows next to " count[1] " in shard 1: not shards of one sweep" > "/dev/stderr"
        exit 2
      }
    print header
    for (i = 1; i <= count[1]; i++)
      for (f = 1; f <= n; f++)
        if (i <= count[f]) print rows[f, i]
  }' "$@"
