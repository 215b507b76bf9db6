#!/usr/bin/env bash
# Cross-checks the P-position sieve against the reference engine on subtract-a-square up to
# 2^24 (override: scripts/check-ppos.sh squares 2^20 cubes 2^22). Exits non-zero on any
# difference.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/nimsieve
[ $# -gt 0 ] && cases=("$@") || cases=(squares 2^24)
while [ ${#cases[@]} -ge 2 ]; do
  game=${cases[0]} n=${cases[1]} cases=("${cases[@]:2}")
  sieve=$("$bin" ppos "$game" -n "$n" --engine psieve -q -o - | sha256sum)
  reference=$("$bin" ppos "$game" -n "$n" --engine reference -q -o - | sha256sum)
  if [ "$sieve" != "$reference" ]; then
    echo "DIFFERENT: $game below $n" >&2
    exit 1
  fi
  echo "same: $game below $n (${sieve%% *})"
done
