#!/usr/bin/env bash
# Two builds of nimsieve timed side by side on runs of several engines, interleaved (one run of
# each build in turn, 5 rounds), the median of each: whether a change costs run time.
#
#   scripts/bench-compare-builds.sh OLD_BINARY NEW_BINARY
#
# Build OLD_BINARY from an earlier commit, e.g.
#   git worktree add /tmp/before <commit> && (cd /tmp/before && cargo build --release)
# and give /tmp/before/target/release/nimsieve and target/release/nimsieve.
set -euo pipefail
scripts=$(dirname "$(realpath "$0")")
old=$(realpath "$1")
new=$(realpath "$2")
cd "$(mktemp -d)"
cases=(
  "grundy octal:0.167 -n 4194304 -f json -o /dev/null -q"
  "grundy grundys-game -n 1048576 -f json -o /dev/null -q"
  "grundy squares -n 10000000 -f json -o /dev/null -q"
  "grundy primes -n 100000000 -f json -o /dev/null -q"
  "ppos sub:1,3,4,9,17 -n 100000000 -f json -o /dev/null -q"
  "grundy proper-divisors -n 10000000 -f json -o /dev/null -q"
  "grundy wythoff -n 4096 -f json -o /dev/null -q"
  "ppos wythoff -n 100000000 -f csv -o /dev/null -q"
)
# shellcheck source=scripts/timing.sh
source "$scripts/timing.sh"
for args in "${cases[@]}"; do
  before=() after=()
  for _ in 1 2 3 4 5; do
    # shellcheck disable=SC2086 # the arguments are split on purpose
    before+=("$(seconds "$old" $args)")
    # shellcheck disable=SC2086
    after+=("$(seconds "$new" $args)")
  done
  b=$(printf '%s\n' "${before[@]}" | median)
  a=$(printf '%s\n' "${after[@]}" | median)
  printf '%-60s before %7.3f s  after %7.3f s  after/before %.3f\n' "$args" "$b" "$a" \
    "$(echo "$a / $b" | bc -l)"
done
