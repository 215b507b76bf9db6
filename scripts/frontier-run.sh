#!/usr/bin/env bash
# The run of `.167` past its published record (2^40), carried from one machine to the next
# through this repository: its checkpoint (a window of 2^18 positions, about 256 KiB) is kept in
# results/octal_0.167/running/, so that a fresh clone goes on where the last one stopped.
#
#   scripts/frontier-run.sh start    copies the checkpoint kept here into DIR when it is further on
#                                    than DIR's own (or DIR has none) and starts the run there in
#                                    the background, taking only the cores other
#                                    work leaves (nice 19 and its own scheduling group at 19)
#   scripts/frontier-run.sh status   how far the run has gone, and whether it is running
#   scripts/frontier-run.sh save     copies its latest checkpoint, and each frequency file it wrote
#                                    past 2^36 (the last published one committed here), back into
#                                    results/octal_0.167/, to commit
#   scripts/frontier-run.sh check PUBLISHED
#                                    compares every block of each frequency file the run wrote,
#                                    and of those committed in results/octal_0.167/, with the
#                                    published file of the same 2^k (PUBLISHED: the
#                                    results/ folder of a clone of rogalski-wmii-uni-lodz-pl/octal;
#                                    scripts/compare-published.sh); exits 1 if any differs
#
# The run is `grundy octal:0.167 -n 2^41+1 -f json,freq --freq-each-power --resume --window 2^18`:
# it writes the frequency file of heaps 1..2^k each time it passes 2^k + 1. A window of 2^18
# keeps every one of `.167`'s 60 rare positions (the last is heap 1,303); a value it could not
# decide would stop the run with one line, never give a wrong count.
#
# Environment: DIR (/work/runs/octal_0.167-past), THREADS (2: the second marks the far pairs
# ahead, 1.35–1.5 times the values a second of one), NIMSIEVE (target/release/nimsieve, built
# if missing; copied into DIR, so that rebuilding here does not change the running binary).
set -euo pipefail
published=$(realpath -m "${2:-.}") # check's PUBLISHED, before leaving the caller's folder
cd "$(dirname "$0")/.."

dir=${DIR:-/work/runs/octal_0.167-past}
kept=results/octal_0.167/running
n=2199023255553
state=octal_0.167-$n.window.state.json
running() { pgrep -f "grundy octal:0.167 -n 2\^41\+1" >/dev/null; }
done_of() { head -n 1 "$1" | python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["done"])'; }

case ${1:-} in
start)
  running && { echo "frontier-run: already running" >&2; exit 1; }
  mkdir -p "$dir"
  nimsieve=${NIMSIEVE:-target/release/nimsieve}
  [[ -x $nimsieve ]] || cargo build --release --quiet
  cp "$nimsieve" "$dir/nimsieve"
  # The committed checkpoint replaces the local one when it is further on (or there is none).
  if [[ -f $kept/$state ]] && { [[ ! -f $dir/$state ]] ||
    (( $(done_of "$kept/$state") > $(done_of "$dir/$state") )); }; then
    cp "$kept/$state" "$dir/$state"
  fi
  (
    cd "$dir"
    # nice alone ranks a process only within its session's scheduling group (autogroup): a
    # group of its own at 19 too, so that the run yields to every other session's work.
    setsid sh -c 'echo 19 > /proc/self/autogroup 2>/dev/null; exec nice -n 19 ./nimsieve grundy octal:0.167 -n 2^41+1 -f json,freq --freq-each-power --resume -q --window 2^18 --threads "$0" -o ./' \
      "${THREADS:-2}" </dev/null >>run.log 2>&1 &
  )
  sleep 1
  running && echo "frontier-run: running in $dir (log: $dir/run.log)"
  ;;
status)
  if running; then echo "running in $dir"; else echo "not running"; fi
  for f in "$dir/$state" "$kept/$state"; do
    if [[ -f $f ]]; then echo "$f: $(done_of "$f") positions done ($(date -r "$f" '+%F %T'))"; fi
  done
  ;;
save)
  [[ -f $dir/$state ]] || { echo "frontier-run: no checkpoint in $dir" >&2; exit 1; }
  mkdir -p "$kept"
  cp "$dir/$state" "$kept/$state.tmp" && mv "$kept/$state.tmp" "$kept/$state"
  for f in "$dir"/octal_0.167-*.freq.txt; do
    [[ -e $f ]] || continue
    m=${f##*/octal_0.167-}; m=${m%.freq.txt}
    (( m > 68719476737 )) && cp "$f" results/octal_0.167/
  done
  echo "frontier-run: saved $(done_of "$kept/$state") positions done; commit results/octal_0.167/"
  ;;
check)
  [[ -n ${2:-} ]] || { echo "frontier-run: check needs PUBLISHED, the solver's results/ folder" >&2; exit 2; }
  status=0 any=0
  for f in "$dir"/octal_0.167-*.freq.txt results/octal_0.167/octal_0.167-*.freq.txt; do
    [[ -e $f ]] || continue
    any=1
    echo "$f:"
    scripts/compare-published.sh "$f" 0.167 "$published" | grep -v ': equal$' || status=1
  done
  (( any )) || { echo "frontier-run: no frequency file in $dir or results/octal_0.167/" >&2; exit 1; }
  exit $status
  ;;
*)
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 2
  ;;
esac
