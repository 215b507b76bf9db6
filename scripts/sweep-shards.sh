#!/usr/bin/env bash
# Runs `nimsieve sweep FAMILY` as K shards in parallel (background processes, all writing into
# one temporary run folder), waits for all, fails if any fails, merges the parts with
# `nimsieve sweep-merge` and moves the result to output/sweep-<family>.csv and .jsonl (the names
# an unsharded run writes). With --compare, also runs the family unsharded and fails unless
# both files are byte-identical.
#
#   scripts/sweep-shards.sh [--compare] FAMILY K [nimsieve sweep options: -n N, --threads T, ...]
#
# NIMSIEVE names the binary to run (default: build target/release/nimsieve).
set -euo pipefail

compare=false
if [ "${1:-}" = "--compare" ]; then
  compare=true
  shift
fi
if [ $# -lt 2 ]; then
  echo "usage: $0 [--compare] FAMILY K [nimsieve sweep options]" >&2
  exit 2
fi
family=$1 parts=$2
shift 2
case $parts in
  '' | *[!0-9]* | 0) echo "$0: K must be a whole number from 1, not '$parts'" >&2; exit 2 ;;
esac
for arg in "$@"; do
  case $arg in
    -o | --output | -o* | --output=* | -f | --format | -f* | --format=* | --shard | --shard=*)
      echo "$0: $arg is not allowed: the script chooses shards, formats and output files" >&2
      exit 2 ;;
  esac
done

if [ -z "${NIMSIEVE:-}" ]; then
  (cd "$(dirname "$0")/.." && cargo build --release --quiet)
  NIMSIEVE=$(cd "$(dirname "$0")/.." && pwd)/target/release/nimsieve
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The parts and their manifests: $work/parts/sweep-<family>-partIofK.*; an unsharded run: $work/whole/.
run() { # folder, then sweep options
  local folder=$1
  shift
  "$NIMSIEVE" sweep "$family" --format csv,json --quiet -o "$folder/" "$@"
}

pids=()
for ((i = 1; i <= parts; i++)); do
  run "$work/parts" --shard "$i/$parts" "$@" 2>"$work/$i.err" &
  pids+=($!)
done
failed=0
for ((i = 1; i <= parts; i++)); do
  if ! wait "${pids[i - 1]}"; then
    echo "shard $i/$parts failed: $(cat "$work/$i.err")" >&2
    failed=1
  fi
done
[ $failed = 0 ] || exit 1

"$NIMSIEVE" sweep-merge --quiet "$work/parts"
name=$(basename "$(ls "$work/parts/"*-part1of"$parts".manifest.json)" -part1of"$parts".manifest.json)
mkdir -p output
mv "$work/parts/$name.csv" "$work/parts/$name.jsonl" output/
echo "wrote output/$name.csv and output/$name.jsonl (shards: $parts)"

if $compare; then
  run "$work/whole" "$@"
  for ext in csv jsonl; do
    if ! cmp -s "output/$name.$ext" "$work/whole/$name.$ext"; then
      echo "DIFFERENT: the merged $ext differs from an unsharded run" >&2
      exit 1
    fi
  done
  echo "same as an unsharded run"
fi
