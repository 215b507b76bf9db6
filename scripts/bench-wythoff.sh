#!/usr/bin/env bash
# The Grundy table of Wythoff's game: the kernel of `grundy wythoff` against the mex over every
# option (`naive`, O(N^3)) at the same N, then the kernel alone at larger N on 1 and 2 threads,
# then the whole command line at N = 2^14 (all four formats written) under /usr/bin/time -v.
# Each run is its own process, so peak memory is its own. Prints Markdown tables. RUNS=K
# (default 1) runs each kernel measurement K times and keeps the fastest. Arguments override
# the sizes: "BASELINE_N N..." (default "2^10 2^12 2^13 2^14").
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --example bench_wythoff --bin nimsieve
bin=target/release/examples/bench_wythoff
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(2^10 2^12 2^13 2^14)
best() { # engine n threads: the fastest of RUNS runs, as "n seconds max rss"
  local out secs fastest=""
  for _ in $(seq "${RUNS:-1}"); do
    out=$("$bin" "$@")
    secs=$(cut -d' ' -f4 <<<"$out")
    if [ -z "$fastest" ] || awk -v a="$secs" -v b="$(cut -d' ' -f2 <<<"$fastest")" 'BEGIN { exit !(a < b) }'; then
      fastest=$(cut -d' ' -f2,4- <<<"$out")
    fi
  done
  echo "$fastest"
}
row() { # engine threads n seconds max rss base
  awk -v e="$1" -v t="$2" -v n="$3" -v s="$4" -v m="$5" -v r="$6" -v b="$7" \
    'BEGIN { printf "| %d | %s | %s | %.3f | %s | %.3g | %s | %d |\n", n, e, t, s, (b == "" ? "" : sprintf("%.0fx", b / s)), n * n / s, m, r / 1024 }'
}
echo "| N | engine | threads | time (s) | vs naive | cells/s | max value | peak RSS (MiB) |"
echo "|---|---|---|---|---|---|---|---|"
read -r n base max rss < <(best naive "${sizes[0]}" 1)
row naive 1 "$n" "$base" "$max" "$rss" "$base"
for size in "${sizes[@]}"; do
  for t in 1 2; do
    read -r n secs max2 rss < <(best wythoff "$size" "$t")
    if [ "$size" = "${sizes[0]}" ]; then
      [ "$max" = "$max2" ] || { echo "max values differ: naive $max, wythoff $max2" >&2; exit 1; }
      row wythoff "$t" "$n" "$secs" "$max2" "$rss" "$base"
    else
      row wythoff "$t" "$n" "$secs" "$max2" "$rss" ""
    fi
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
