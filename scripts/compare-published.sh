#!/usr/bin/env bash
# Compares each block `n = 2^k` of a nimsieve frequency file (`-f freq`) with the published file
# `PUBLISHED/CODE/2^k` of the public sparse-space solver (rogalski-wmii-uni-lodz-pl/octal, whose
# `results/` folder names its files by the number of heaps and lists one `value count` line a
# value, zeros included). Prints one line a block (`2^k: equal`, `2^k: differs` or
# `2^k: not published`), then how many were equal; exits 1 if any block differs, or if the file
# has no block with a published file to compare.
#
# Usage: scripts/compare-published.sh FREQ CODE PUBLISHED    e.g. out.freq.txt 0.167 ../octal/results
set -euo pipefail

[[ $# -eq 3 ]] || {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
  exit 2
}
freq=$1 code=$2 published=$3
[[ -r $freq ]] || { echo "compare-published: cannot read $freq" >&2; exit 2; }
[[ -d $published/$code ]] || {
  echo "compare-published: no folder $published/$code (PUBLISHED is the solver's results/ folder)" >&2
  exit 2
}

equal=0 differ=0
# The blocks whose n is a power of two, as `k n`.
powers=$(awk '/^n = / { n = $3; k = 0; while (2 ^ k < n) k++; if (2 ^ k == n) print k, n }' "$freq")
while read -r k heaps; do
  [[ -n $k ]] || continue
  file="$published/$code/$heaps"
  if [[ ! -f $file ]]; then
    echo "2^$k: not published"
    continue
  fi
  # The block `n = 2^k`, and the published lines without zero counts.
  ours=$(awk -v want="n = $heaps" '$0 == want { on = 1; next } on && NF == 0 { exit } on' "$freq")
  theirs=$(awk '$2 != 0' "$file")
  if [[ $ours == "$theirs" ]]; then
    echo "2^$k: equal"
    equal=$((equal + 1))
  else
    echo "2^$k: differs"
    differ=$((differ + 1))
  fi
done <<<"$powers"
echo "$equal equal, $differ different"
(( differ == 0 && equal > 0 ))
