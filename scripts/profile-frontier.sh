#!/usr/bin/env bash
# Where the time of the rare-values engine goes, per frontier game: `grundy GAME -n N -f json`
# on one thread under `perf record` (sampling at 999 Hz), its samples grouped by the engine's
# parts, and the rate each part alone would allow.
#
#   marks   the splits with a rare heap and with the smallest heaps, marked for a chunk of
#           positions at once (far_marks, the rows, the in-order lanes): R rare heaps and
#           SCANNED_FIRST (1,024) small heaps a splitting removal, whatever the position
#   search  the rare values below the first common value a position lacks, shown present:
#           the sweep over the next smallest heaps, the remembered witnesses, the region
#   value   the mex, the options reaching into the block, the scan when the mex is rare
#   other   the rest (the table, the statistics, the period checks)
#
# "if free" is the rate with that part's time removed: the limit a faster version of the other
# parts could reach. "at work" is the share of all samples, the kernel's included, in nimsieve's
# own code: on one thread nearly all; with THREADS=2 the rest is a thread waiting for the other
# (rayon, sched_yield), a measure of what two threads lose that the speed of a virtual
# machine, which drifts by 10-20% between runs, does not blur. Prints a Markdown table.
#
# Usage: scripts/profile-frontier.sh [N]      N: positions (2^24)
# Environment: GAMES (as scripts/bench-frontier.sh), THREADS (1), OUT (target/profile-frontier),
# NIMSIEVE (target/release/nimsieve, built if missing). Needs perf (Debian's linux-perf).
set -euo pipefail
cd "$(dirname "$0")/.."

n=${1:-2^24}
games=${GAMES:-octal:0.167 octal:0.161 octal:0.034 octal:0.014 octal:0.172 octal:0.6 grundys-game}
threads=${THREADS:-1}
out=${OUT:-target/profile-frontier}
nimsieve=${NIMSIEVE:-target/release/nimsieve}
[[ -x $nimsieve ]] || cargo build --release --quiet
mkdir -p "$out"

echo "N = $n, $threads thread(s), $(nproc) cores"
echo
echo "| game | values / CPU s | rare positions | largest value | marks | search | value | other | if marks free | if search free | at work |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for game in $games; do
  stem="$out/$(echo "$game" | tr ':' '_')"
  /usr/bin/time -f '%U %S' -o "$stem.time" perf record -q -F 999 -o "$stem.perf" -- \
    "$nimsieve" grundy "$game" -n "$n" -f json -q --threads "$threads" -o "$stem.json" 2>/dev/null
  perf report -i "$stem.perf" --no-children --stdio --sort sym 2>/dev/null > "$stem.report"
  python3 - "$stem" <<'EOF'
import json, re, sys
stem = sys.argv[1]
parts = {
    "marks": r"far_marks|mark_known_splits|LaneRows|ByteRows|BitRows|Lanes|in_order::compute",
    "search": r"Search|find_in_region|Fn<A> for &F>::call|High",
    "value": r"Block<V>::value|positions_in_order|block::compute|mark_rare_splits",
}
# nimsieve's own code, and the closures and copies it calls.
work = r"^nimsieve::|Fn<A> for &F>::call|^__mem(set|move|cpy)"
share = dict.fromkeys([*parts, "other"], 0.0)
at_work = 0.0
for line in open(stem + ".report"):
    m = re.match(r"\s+([\d.]+)%\s+\[.\]\s+(.*)", line)
    if not m:
        continue
    pct, sym = float(m.group(1)), m.group(2)
    at_work += pct if re.search(work, sym) else 0.0
    part = next((p for p, rx in parts.items() if re.search(rx, sym)), "other")
    share[part] += pct
user, system = map(float, open(stem + ".time").read().split())
summary = json.load(open(stem + ".json"))
rate = summary["n"] / (user + system)
sparse = summary.get("sparse_space") or {}
total = sum(share.values()) or 1
f = {k: v / total for k, v in share.items()}
fmt = lambda r: f"{r / 1e6:.2f}·10^6"
print(f"| `{summary['game']}` | {fmt(rate)} | {sparse.get('rare_positions', '–')} | {summary['max_value']} "
      f"| {f['marks']:.0%} | {f['search']:.0%} | {f['value']:.0%} | {f['other']:.0%} "
      f"| {fmt(rate / max(1 - f['marks'], 0.01))} | {fmt(rate / max(1 - f['search'], 0.01))} "
      f"| {at_work / total:.1%} |")
EOF
done
