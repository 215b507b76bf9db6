#!/usr/bin/env bash
# The published frequency tables of an octal game matched: runs `grundy octal:CODE` to 2^K + 1
# positions keeping no table (`-f json,freq`), then compares each block `n = 2^k` of its
# frequency table with the published file `PUBLISHED/CODE/2^k` (one line `value count` a value,
# zeros included) wherever that file exists. Prints one line a power of two (`equal`, `differs`
# or `not published`) and the run's time and peak RSS; exits 1 if any published file differs.
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
cd "$(dirname "$0")/.."

code=$1 k=$2 published=$3
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
for ((j = 0; j <= k; j++)); do
  heaps=$((1 << j))
  file="$published/$code/$heaps"
  if [[ ! -f $file ]]; then
    echo "2^$j: not published"
    continue
  fi
  # The block `n = 2^j` of the frequency table, and the published lines without zero counts.
  ours=$(awk -v want="n = $heaps" '$0 == want { on = 1; next } on && NF == 0 { exit } on' "$freq")
  theirs=$(awk '$2 != 0' "$file")
  if [[ $ours == "$theirs" ]]; then
    echo "2^$j: equal"
  else
    echo "2^$j: differs"
    status=1
  fi
done
read -r wall user system peak < "$out/time.txt"
cpu=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.1f", u + s }')
echo "octal:$code to 2^$k + 1: ${wall} s wall, $cpu CPU s, peak RSS $((peak / 1024)) MiB"
exit $status
