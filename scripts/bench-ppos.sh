#!/usr/bin/env bash
# P-positions of subtract-a-square: the textbook byte-array sieve against nimsieve's sieve with
# 1 and 2 threads, at N = 2^24, 2^26, 2^28 (override: scripts/bench-ppos.sh 20 22). Each run is
# its own process so peak memory is its own. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --example bench_ppos
bin=target/release/examples/bench_ppos

[ $# -gt 0 ] && sizes=("$@") || sizes=(24 26 28)
echo "| N | engine | threads | time (s) | vs textbook | positions/s | P-count | peak RSS (MiB) |"
echo "|---|---|---|---|---|---|---|---|"
for k in "${sizes[@]}"; do
  read -r _ _ _ base count rss < <("$bin" textbook "$k" 1)
  awk -v k="$k" -v s="$base" -v c="$count" -v r="$rss" \
    'BEGIN { printf "| 2^%s | textbook | 1 | %s | 1.0x | %.3g | %s | %d |\n", k, s, 2^k / s, c, r / 1024 }'
  for t in 1 2; do
    read -r _ _ _ secs count2 rss < <("$bin" psieve "$k" "$t")
    [ "$count" = "$count2" ] || { echo "P-counts differ at 2^$k: $count vs $count2" >&2; exit 1; }
    awk -v k="$k" -v t="$t" -v s="$secs" -v b="$base" -v c="$count2" -v r="$rss" \
      'BEGIN { printf "| 2^%s | psieve | %s | %s | %.1fx | %.3g | %s | %d |\n", k, t, s, b / s, 2^k / s, c, r / 1024 }'
  done
done
