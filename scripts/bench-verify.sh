#!/usr/bin/env bash
# `nimsieve verify` on subtract-a-square and subtract-a-prime tables: computes each table once
# with nimsieve (kept in DIR for later runs; a table of an older .bin version is computed
# again), then times verify with THREADS threads (default 2). Prints a Markdown table: wall
# time, values/s, peak RSS (from /usr/bin/time -v; it counts the pages of the table file that
# verify maps and reads in place) and verify's own note on the cost of its method.
# Usage: [THREADS=2] scripts/bench-verify.sh [SQUARES_N] [PRIMES_N] [DIR]
#        defaults: 1e8 1e8 /tmp/nimsieve-bench-verify (N accepts 1e8, 2^24, …)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=$PWD/target/release/nimsieve
dir=${3:-/tmp/nimsieve-bench-verify}
threads=${THREADS:-2}
mkdir -p "$dir"
echo "| game | N | threads | verify time (s) | values/s | peak RSS (MiB) | cost |"
echo "|---|---|---|---|---|---|---|"
for c in "squares ${1:-1e8}" "primes ${2:-1e8}"; do
  read -r game n <<<"$c"
  table="$dir/$game-$n.bin"
  version=$([ -f "$table" ] && od -An -tu4 -j8 -N4 "$table" | tr -d ' ' || echo none)
  [ "$version" = 2 ] || "$bin" grundy "$game" -n "$n" -f bin -o "$table" -q
  log=$(mktemp)
  /usr/bin/time -v "$bin" verify "$table" --threads "$threads" >"$log.out" 2>"$log"
  verdict=$(cat "$log.out")
  values=$(sed -E 's/^verified: [^,]*, ([0-9]+) .*/\1/' <<<"$verdict")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$log")
  rss=$(awk -F': ' '/Maximum resident set size/ { print int($2 / 1024) }' "$log")
  cost=$(sed -n 's/^cost: //p' "$log")
  awk -v g="$game" -v n="$values" -v t="$threads" -v w="$wall" -v r="$rss" -v c="${cost:--}" \
    'BEGIN { printf "| %s | %s | %s | %.1f | %.3g | %d | %s |\n", g, n, t, w, n / w, r, c }'
  rm -f "$log" "$log.out"
done
