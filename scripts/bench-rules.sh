#!/usr/bin/env bash
# Rules written down, measured three ways:
#  1. tb: spellings of catalogued games against the catalogued names, interleaved, the median
#     of 5 runs each (the spelling must cost at most 1.3x: it runs on the same engine);
#  2. the general engine on the forms no catalogued engine takes (and hex codes that split
#     into three): seconds, positions a second and peak memory at the n given, one thread (the
#     engine is single-threaded), with the reference engine's time on the same table where it
#     finishes within a minute;
#  3. finite rules of at most two heaps with some splits unequal, on the rare-values engine,
#     against the general engine on the same table.
#
#   scripts/bench-rules.sh [path/to/nimsieve]
set -euo pipefail
scripts=$(dirname "$(realpath "$0")")
bin=$(realpath "${1:-target/release/nimsieve}")
cd "$(mktemp -d)"
# shellcheck source=scripts/timing.sh
source "$scripts/timing.sh"
echo "spelling,catalogued,n,spelling_s,catalogued_s,ratio"
pairs=(
  "tb:0.77 kayles 4194304"
  "tb:0.07 dawsons-kayles 4194304"
  "tb:4!.0 grundys-game 1048576"
  "tb:4.[3] lasker 100000000"
  "tb:0.[3] nim 100000000"
  "tb:0.8 hex:0.8 3000"
  "sub:1,2|sub:4 sub:1,2,4 100000000"
)
for pair in "${pairs[@]}"; do
  read -r written catalogued n <<<"$pair"
  a=() b=()
  for _ in 1 2 3 4 5; do
    a+=("$(seconds "$bin" grundy "$written" -n "$n" -f json -o /dev/null -q)")
    b+=("$(seconds "$bin" grundy "$catalogued" -n "$n" -f json -o /dev/null -q)")
  done
  sa=$(printf '%s\n' "${a[@]}" | median)
  sb=$(printf '%s\n' "${b[@]}" | median)
  echo "$written,$catalogued,$n,$sa,$sb,$(echo "scale=2; $sa / $sb" | bc)"
done
echo
echo "rule,n,seconds,positions_per_s,peak_rss_mib,reference_s"
rules=(
  "squares@7 100000"
  "squares|tb:4.0 100000"
  "primes@3+leave1 100000"
  "tb:8?.0 10000"
  "tb:8!.0 3000"
  "tb:0.{2,3} 10000"
  "hex:0.8 10000"
  "tb:{2+}.0 3000"
  "tb:0.[37] 10000"
  "tb:0.[{0+}=] 10000"
  "tb:{2+}!.0 3000"
)
for rule in "${rules[@]}"; do
  read -r spec n <<<"$rule"
  /usr/bin/time -f "%e %M" -o time.txt "$bin" grundy "$spec" -n "$n" -f json -o /dev/null -q
  read -r s kb <time.txt
  if timeout 60 /usr/bin/time -f "%e" -o reference.txt "$bin" grundy "$spec" -n "$n" -f json -o /dev/null -q --engine reference 2>/dev/null; then
    reference=$(cat reference.txt)
  else
    reference=">60"
  fi
  echo "$spec,$n,$s,$(echo "$n / $s" | bc),$((kb / 1024)),$reference"
done
echo
# 3. Finite rules of at most two heaps with some splits unequal (`!`, `?`): the rare-values
#    engine (chosen) against the general engine on the same table, one thread each.
echo "rule,n,rare_values_s,general_s,ratio,rare_values_peak_rss_mib"
mixed=(
  "tb:0.7?7 100000"
  "tb:0.4!4 100000"
  "tb:4!.4 100000"
  "tb:0.16!6 100000"
  "tb:0.6!4 100000"
)
for rule in "${mixed[@]}"; do
  read -r spec n <<<"$rule"
  /usr/bin/time -f "%e %M" -o time.txt "$bin" grundy "$spec" -n "$n" -f json -o /dev/null -q --threads 1
  read -r s kb <time.txt
  g=$(seconds "$bin" grundy "$spec" -n "$n" -f json -o /dev/null -q --threads 1 --engine general)
  echo "$spec,$n,$s,$g,$(echo "scale=1; $g / $s" | bc),$((kb / 1024))"
done
