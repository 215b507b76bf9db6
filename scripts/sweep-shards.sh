#!/usr/bin/env bash
# Runs `nimsieve sweep FAMILY` as K shards in parallel (background processes), waits for all,
# fails if any fails, and merges the parts into output/sweep-<family>.csv and .jsonl (the
# names an unsharded run writes): the CSV keeps the first part's header, the JSON lines are
# concatenated. With --compare, also runs the family unsharded and fails unless both files
# are byte-identical.
#
#   scripts/sweep-shards.sh [--compare] FAMILY K [nimsieve sweep options: -n N, --threads T, ...]
#
# NIMSIEVE names the binary to run (default: build target/release/nimsieve). The shards run in
# a temporary folder, so relative paths in the arguments are not supported.
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

# Each run writes its default files in its own folder: <folder>/output/sweep-<family>[-partIofK].*
run() { # folder, then sweep options
  local folder=$1
  shift
  mkdir -p "$folder"
  (cd "$folder" && "$NIMSIEVE" sweep "$family" --format csv,json --quiet "$@")
}

pids=()
for ((i = 1; i <= parts; i++)); do
  run "$work/$i" --shard "$i/$parts" "$@" 2>"$work/$i.err" &
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

first=$(ls "$work/1/output/"*.csv)
name=$(basename "$first" .csv)
name=${name%-part1of"$parts"}
mkdir -p output
{
  cat "$first"
  for ((i = 2; i <= parts; i++)); do tail -n +2 "$work/$i/output/$name-part${i}of$parts.csv"; done
} >"$work/merged.csv"
for ((i = 1; i <= parts; i++)); do
  if [ "$parts" = 1 ]; then part=$name; else part=$name-part${i}of$parts; fi
  cat "$work/$i/output/$part.jsonl"
done >"$work/merged.jsonl"
mv "$work/merged.csv" "output/$name.csv"
mv "$work/merged.jsonl" "output/$name.jsonl"
echo "wrote output/$name.csv and output/$name.jsonl (shards: $parts)"

if $compare; then
  run "$work/whole" "$@"
  for ext in csv jsonl; do
    if ! cmp -s "output/$name.$ext" "$work/whole/output/$name.$ext"; then
      echo "DIFFERENT: the merged $ext differs from an unsharded run" >&2
      exit 1
    fi
  done
  echo "same as an unsharded run"
fi
