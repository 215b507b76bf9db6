#!/usr/bin/env bash
# The frontier octal games (those whose published record runs are still being extended) and
# Grundy's game: nimsieve's rate per core, the baseline the speed work on them is measured
# against. For each game: `grundy GAME -n N -f json` on one thread, its CPU time (user + system,
# GNU time), values per CPU second and peak RSS; then on two threads, its wall time and the
# speed-up over one thread. The JSON summaries of the two runs must agree (counts and first
# occurrences), so results do not depend on the thread count. Last, two one-thread runs at once,
# as two processes: twice the one-thread wall time over the slower of theirs is the most any
# two threads could gain on this machine, since the two processes share nothing but the
# processor (PAIRS=no leaves them out: they add more than half again to the script's time).
# With RUNS=k, the one- and two-thread runs of each game take turns k times: the table gives
# the medians, and the speed-up of each turn in brackets, since single runs of a virtual
# machine spread by 10-20%. With AGAINST=PATH another build's one-thread run takes its turn
# before each of this build's (its summary must agree too), and the table gains that build's
# CPU time over this one's: a gain measured side by side, not against a number from another
# day. Prints a Markdown table; exits 1 if a check failed.
#
# Usage: scripts/bench-frontier.sh [N]      N: positions (2^24); as nimsieve takes sizes
# Environment: GAMES (the seven below, space-separated), PAIRS (yes), RUNS (1), AGAINST (none),
# OUT (target/bench-frontier), NIMSIEVE
# (target/release/nimsieve, built if missing). Needs GNU time as /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."

n=${1:-2^24}
games=${GAMES:-octal:0.167 octal:0.161 octal:0.034 octal:0.014 octal:0.172 octal:0.6 grundys-game}
pairs=${PAIRS:-yes}
runs=${RUNS:-1}
against=${AGAINST:-}
out=${OUT:-target/bench-frontier}
nimsieve=${NIMSIEVE:-target/release/nimsieve}
[[ -x $nimsieve ]] || cargo build --release --quiet
mkdir -p "$out"

# run THREADS GAME [BUILD NAME]: "cpu_seconds wall_seconds peak_kib" of BUILD (this one), the
# summary in $out/GAME-NAME.json (NAME: THREADS)
run() {
  local threads=$1 game=$2 build=${3:-$nimsieve} stem
  stem="$out/$(echo "$game" | tr ':' '_')-${4:-$threads}"
  /usr/bin/time -f '%U %S %e %M' -o "$stem.time" \
    "$build" grundy "$game" -n "$n" -f json -q --threads "$threads" -o "$stem.json"
  awk '{ printf "%.2f %.2f %d\n", $1 + $2, $3, $4 }' "$stem.time"
}

# The fields of a summary that must not depend on the thread count.
facts() {
  python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); print(json.dumps([s["n"], s["max_value"], s["counts"], s["first_occurrence"], s.get("sparse_space")]))' "$1"
}

# pair GAME: the wall seconds of the slower of two one-thread runs started together.
pair() {
  local game=$1 stem
  stem="$out/$(echo "$game" | tr ':' '_')"
  for side in a b; do
    /usr/bin/time -f '%e' -o "$stem-pair-$side.time" \
      "$nimsieve" grundy "$game" -n "$n" -f json -q --threads 1 -o "$stem-pair-$side.json" &
  done
  wait
  sort -n "$stem-pair-a.time" "$stem-pair-b.time" | tail -n 1
}

# median FILE: the median of each of the columns of FILE's lines.
median() {
  python3 -c 'import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
print(*(statistics.median_low(float(r[i]) for r in rows) for i in range(len(rows[0]))))' "$1"
}

failed=0
echo "N = $n, $(nproc) cores; one thread: CPU time; two threads: wall time"
echo
other=
[[ -z $against ]] || other=" against $against |"
echo "| game | CPU s (1 thread) | values / CPU s | peak RSS | wall s (2 threads) | speed-up | two processes at once |$other same summary |"
echo "|---|---|---|---|---|---|---|${other:+---|}---|"
for game in $games; do
  stem="$out/$(echo "$game" | tr ':' '_')"
  : > "$stem-runs-1.txt"
  : > "$stem-runs-2.txt"
  : > "$stem-runs-against.txt"
  turns=()
  for ((turn = 0; turn < runs; turn++)); do
    [[ -z $against ]] || run 1 "$game" "$against" against >> "$stem-runs-against.txt"
    run 1 "$game" >> "$stem-runs-1.txt"
    run 2 "$game" >> "$stem-runs-2.txt"
    turns+=("$(tail -n 1 "$stem-runs-1.txt" | cut -d' ' -f2) $(tail -n 1 "$stem-runs-2.txt" | cut -d' ' -f2)")
  done
  read -r cpu1 wall1 rss1 < <(median "$stem-runs-1.txt")
  read -r cpu2 wall2 rss2 < <(median "$stem-runs-2.txt")
  rss1=${rss1%.*}
  both=
  [[ $pairs == no ]] || both=$(pair "$game")
  same=yes
  [[ $(facts "$stem-1.json") == "$(facts "$stem-2.json")" ]] || { same=NO; failed=1; }
  gain=
  if [[ -n $against ]]; then
    [[ $(facts "$stem-1.json") == "$(facts "$stem-against.json")" ]] || { same=NO; failed=1; }
    read -r cpu0 _ < <(median "$stem-runs-against.txt")
    gain=" $(awk -v a="$cpu0" -v b="$cpu1" 'BEGIN { printf "%.2f", a / (b > 0 ? b : 0.01) }') |"
  fi
  values=$(python3 -c "import json; print(json.load(open('$stem-1.json'))['n'])")
  rate=$(awk -v v="$values" -v c="$cpu1" 'BEGIN { printf "%.2f·10^6", v / (c > 0 ? c : 0.01) / 1e6 }')
  speedup=$(awk -v a="$wall1" -v b="$wall2" 'BEGIN { printf "%.2f", a / (b > 0 ? b : 0.01) }')
  if ((runs > 1)); then
    each=$(printf '%s\n' "${turns[@]}" | awk '{ printf "%s%.2f", (NR > 1 ? ", " : ""), $1 / ($2 > 0 ? $2 : 0.01) }')
    speedup="$speedup ($each)"
  fi
  ceiling=-
  [[ -z $both ]] || ceiling=$(awk -v a="$wall1" -v b="$both" 'BEGIN { printf "%.2f", 2 * a / (b > 0 ? b : 0.01) }')
  echo "| \`$game\` | $cpu1 | $rate | $((rss1 / 1024)) MiB | $wall2 | $speedup | $ceiling |$gain $same |"
done
exit $failed
