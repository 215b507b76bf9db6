#!/usr/bin/env bash
# Grundy values: each fast engine against its baseline (the reference engine, or the textbook
# mex recursion) in one run. Each run is its own process, so peak memory is its own. Prints a
# Markdown table. Cases are lines "GAME N BASELINE ENGINE"; pass your own as arguments in that
# form ("squares 2^22 textbook value-layers") to override the defaults. RUNS=K (default 1) runs each
# measurement K times and keeps the fastest, which tames a noisy machine.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --example bench_grundy
bin=target/release/examples/bench_grundy
if [ $# -gt 0 ]; then cases=("$@"); else cases=(
  "sub:1,3,4 1e7 reference finite"
  "sub:6,34,40,141 1e7 reference finite"
  "proper-divisors 1e7 reference divisor-sieve"
  "aliquot 1e7 reference divisor-sieve"
  "primes 1e6 textbook prime-grundy"
  "squares 2^22 textbook value-layers"
  "squares 2^24 textbook value-layers"
); fi
echo "| game | N | engine | threads | time (s) | vs baseline | values/s | max value | peak RSS (MiB) |"
echo "|---|---|---|---|---|---|---|---|---|"
row() { # engine game n threads secs max rss base
  awk -v e="$1" -v g="$2" -v n="$3" -v t="$4" -v s="$5" -v m="$6" -v r="$7" -v b="$8" \
    'BEGIN { printf "| %s | %s | %s | %s | %s | %.1fx | %.3g | %s | %d |\n", g, n, e, t, s, b / s, n / s, m, r / 1024 }'
}
best() { # engine game n threads: the fastest of RUNS runs, as "n seconds max rss"
  local out secs fastest=""
  for _ in $(seq "${RUNS:-1}"); do
    out=$("$bin" "$@")
    secs=$(cut -d' ' -f5 <<<"$out")
    if [ -z "$fastest" ] || awk -v a="$secs" -v b="$(cut -d' ' -f2 <<<"$fastest")" 'BEGIN { exit !(a < b) }'; then
      fastest=$(cut -d' ' -f3,5- <<<"$out")
    fi
  done
  echo "$fastest"
}
for c in "${cases[@]}"; do
  read -r game n baseline engine <<<"$c"
  read -r nn base max rss < <(best "$baseline" "$game" "$n" 1)
  row "$baseline" "$game" "$nn" 1 "$base" "$max" "$rss" "$base"
  for t in 1 2; do
    read -r _ secs max2 rss < <(best "$engine" "$game" "$n" "$t")
    [ "$max" = "$max2" ] || { echo "max values differ for $game: $max vs $max2" >&2; exit 1; }
    row "$engine" "$game" "$nn" "$t" "$secs" "$max2" "$rss" "$base"
  done
done
