#!/usr/bin/env bash
# Builds of nimsieve compared on the same stretch of a long run: each binary resumes one saved
# checkpoint of `grundy GAME -n N` for SECONDS, stopped by one SIGINT, and the positions its own
# checkpoint then records are counted. The binaries take turns, ROUNDS times, so that a machine
# whose speed drifts treats them alike. Prints one Markdown row a run: positions a second of wall
# time and a CPU second (user + system, from GNU time; the CPU rate varies less on a shared
# machine). Where DIR/snapshot holds no checkpoint, the first binary makes one, running for
# MAKE_SECONDS (default 300) from position 0.
#
# Usage: scripts/bench-checkpoint-rate.sh DIR BINARY...
#   GAME (default grundys-game), N (default 2^29), RUN_SECONDS (default 40), ROUNDS (default 3)
# Example: scripts/bench-checkpoint-rate.sh /tmp/gg target/release/nimsieve /tmp/nimsieve-before
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dir=$(realpath -m "$1"); shift
game=${GAME:-grundys-game} n=${N:-2^29} seconds=${RUN_SECONDS:-40} rounds=${ROUNDS:-3}
bins=(); for b in "$@"; do bins+=("$(realpath "$b")"); done
snap="$dir/snapshot" trial="$dir/trial"
done_of() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['checkpoint']['done'])" "$1"; }
run() { # seconds folder binary: the run, stopped by one SIGINT after seconds
  (cd "$2" && /usr/bin/time -f "%U %S" -o "$dir/cpu" timeout --foreground -s INT "$1" \
    "$3" grundy "$game" -n "$n" --resume -f bin -o ./ -q 2>"$dir/stderr" || true)
}
mkdir -p "$snap"
if ! ls "$snap"/*.state.json >/dev/null 2>&1; then
  echo "making a checkpoint in $snap (${MAKE_SECONDS:-300} s)" >&2
  run "${MAKE_SECONDS:-300}" "$snap" "${bins[0]}"
fi
state=$(basename "$(ls "$snap"/*.state.json)")
start=$(done_of "$snap/$state")
echo "From the checkpoint at $start positions of \`grundy $game -n $n\`, $seconds s a run:"
echo
echo "| binary | positions | positions/s | positions/CPU-s | user (s) | system (s) |"
echo "|---|---|---|---|---|---|"
for _ in $(seq "$rounds"); do
  for bin in "${bins[@]}"; do
    rm -rf "$trial" && cp -r "$snap" "$trial"
    run "$seconds" "$trial" "$bin"
    gained=$(( $(done_of "$trial/$state") - start ))
    read -r user sys < <(tail -1 "$dir/cpu")
    awk -v b="$bin" -v g="$gained" -v t="$seconds" -v u="$user" -v s="$sys" \
      'BEGIN { printf "| %s | %d | %d | %d | %.1f | %.1f |\n", b, g, g / t, g / (u + s), u, s }'
  done
done
rm -rf "$trial"
