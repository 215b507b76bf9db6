#!/usr/bin/env bash
# The Grundy table of Wythoff's game: the kernel of `grundy wythoff` against the mex over every
# option (`naive`, O(N^3)) at the same N, then the kernel alone at larger N on 1 and 2 threads,
# then the whole command line at the largest N (all four formats written) under
# /usr/bin/time -v. Each run is its own process, so peak memory is its own. Prints Markdown
# tables. Arguments override the sizes: "BASELINE_N N..." (default "2^10 2^12 2^13 2^14").
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --example bench_wythoff --bin nimsieve
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(2^10 2^12 2^13 2^14)
measure() { # engine n threads, printing "| N | engine | threads | time | vs naive | cells/s | max | RSS |"
  local engine n threads secs max rss
  read -r engine n threads secs max rss < <(RAYON_NUM_THREADS=$3 target/release/examples/bench_wythoff "$1" "$2")
  [ -n "${base:-}" ] || { base=$secs; naive_max=$max; }
  if [ "$4" = 1 ] && [ "$max" != "$naive_max" ]; then
    echo "max values differ at N = $n: naive $naive_max, $engine $max" >&2
    exit 1
  fi
  awk -v e="$engine" -v n="$n" -v t="$threads" -v s="$secs" -v m="$max" -v r="$rss" -v b="$base" -v same="$4" \
    'BEGIN { printf "| %d | %s | %s | %.3f | %s | %.3g | %s | %d |\n", n, e, t, s, (same ? sprintf("%.0fx", b / s) : ""), n * n / s, m, r / 1024 }'
}
echo "| N | engine | threads | time (s) | vs naive | cells/s | max value | peak RSS (MiB) |"
echo "|---|---|---|---|---|---|---|---|"
measure naive "${sizes[0]}" 1 1
for size in "${sizes[@]}"; do
  for t in 1 2; do
    measure wythoff "$size" "$t" "$([ "$size" = "${sizes[0]}" ] && echo 1 || echo 0)"
  done
done
last=${sizes[${#sizes[@]} - 1]}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo
echo "| command | threads | wall (s) | peak RSS (MiB) |"
echo "|---|---|---|---|"
for t in 1 2; do
  /usr/bin/time -v target/release/nimsieve grundy wythoff -n "$last" -f csv,json,npy,bin -o "$work/" -q --threads "$t" 2>"$work/time"
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$work/time")
  rss=$(awk -F': ' '/Maximum resident set size/ { print int($2 / 1024) }' "$work/time")
  echo "| \`nimsieve grundy wythoff -n $last -f csv,json,npy,bin\` | $t | $wall | $rss |"
done
