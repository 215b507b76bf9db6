#!/usr/bin/env bash
# The published frequency tables of an octal game matched: runs `grundy octal:CODE` to 2^K + 1
# positions keeping no table (`-f json,freq`), then compares each block `n = 2^k` of its
# frequency table with the published file `PUBLISHED/CODE/2^k` (one line `value count` a value,
# zeros included) wherever that file exists (`scripts/compare-published.sh`). Prints one line a
# power of two (`equal`, `differs` or `not published`) and the run's time and peak RSS; exits 1
# if any published file differs.
# PUBLISHED is a clone's `results/` folder of the public sparse-space solver's repository
# (rogalski-wmii-uni-lodz-pl/octal), whose files are named by the number of heaps.
#
# The run is resumable: interrupted, the same command goes on from its last checkpoint (the
# times printed are then those of the last part only).
#
# Usage: scripts/match-published.sh CODE K PUBLISHED [OUT]    e.g. 0.167 31 ../octal/results
# Environment: NIMSIEVE (target/release/nimsieve, built if missing), THREADS (all cores).
# Needs GNU time as /usr/bin/time.
set -euo pipefail
code=$1 k=$2 published=$(realpath -m "$3")
cd "$(dirname "$0")/.."

out=${4:-results/octal_$code}
nimsieve=${NIMSIEVE:-target/release/nimsieve}
[[ -x $nimsieve ]] || cargo build --release --quiet
mkdir -p "$out"
n=$(( (1 << k) + 1 ))
threads=()
[[ -n ${THREADS:-} ]] && threads=(--threads "$THREADS")
/usr/bin/time -f '%e %U %S %M' -o "$out/time.txt" \
  "$nimsieve" grundy "octal:$code" -n "$n" -f json,freq --resume -q "${threads[@]}" -o "$out/"
freq="$out/octal_$code-$n.freq.txt"

status=0
scripts/compare-published.sh "$freq" "$code" "$published" || status=1
read -r wall user system peak < "$out/time.txt"
cpu=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.1f", u + s }')
echo "octal:$code to 2^$k + 1: ${wall} s wall, $cpu CPU s, peak RSS $((peak / 1024)) MiB"
exit $status
