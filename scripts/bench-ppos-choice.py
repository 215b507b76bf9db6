#!/usr/bin/env python3
"""The engine `ppos` chooses, measured over every catalogued subtraction game given by its
elements (with +leave1 and +misere) and a family of random finite sets (seeded): for each game,
`nimsieve ppos GAME -n N -f u64` with the engine chosen, with the P-position sieve (`psieve`) and
with the engine the Grundy route chooses (`grundy`'s), each in its own process, timed, its peak
memory read by GNU time and its output compared with the others' (they must agree). Prints a
Markdown table, then the geometric mean of the chosen engine's time over the best of the two and
the worst cases. A run past the timeout counts as the timeout.

    scripts/bench-ppos-choice.py [--n 1e7] [--timeout 60] [--sets 20]
"""

import argparse
import hashlib
import math
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, "target", "release", "nimsieve")

CATALOGUE = [
    "squares", "cubes", "powers:4", "triangular", "fibonacci", "powers-of-2", "primes", "pim",
]


def games(sets: int) -> list[str]:
    """The catalogued games with their modifiers, and `sets` random finite sets of 3 and 5."""
    out = []
    for game in CATALOGUE:
        out += [game, game + "+leave1", game + "+misere"]
    rng = random.Random(48)
    for size, top in [(3, 100), (5, 1000)]:
        for _ in range(sets // 2):
            members = sorted(rng.sample(range(1, top + 1), size))
            out.append("sub:" + ",".join(map(str, members)))
    return out


def run(args: list[str], timeout: float, out: str) -> tuple[float, int, str]:
    """Seconds, peak RSS in KiB and the output's digest of one run (inf and '' past the
    timeout)."""
    stats = out + ".time"
    command = ["/usr/bin/time", "-f", "%M", "-o", stats, BINARY, *args, "-f", "u64", "-q", "-o", out]
    started = time.perf_counter()
    try:
        subprocess.run(command, check=True, timeout=timeout, stderr=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        subprocess.run(["pkill", "-f", out], check=False)
        return math.inf, 0, ""
    seconds = time.perf_counter() - started
    with open(stats) as f:
        rss = int(f.read().split()[-1])
    with open(out, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:12]
    os.remove(out)
    return seconds, rss, digest


def engine_of(game: str, listing: str) -> str:
    """The engine nimsieve chooses for `listing` (grundy or ppos) of `game` at n = 1000."""
    text = subprocess.run(
        [BINARY, listing, game, "-n", "1000", "-f", "json", "-o", "-", "-q"],
        check=True, capture_output=True, text=True,
    ).stdout
    return text.split('"engine": "')[1].split('"')[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", default="1e7")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--sets", type=int, default=20)
    opts = parser.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    print(f"n = {opts.n}, {os.cpu_count()} threads, timeout {opts.timeout:.0f} s\n")
    print("| game | chosen | psieve (s) | Grundy route | its time (s) | chosen / best | peak RSS chosen (MiB) |")
    print("|---|---|---|---|---|---|---|")
    ratios = []
    unfinished = []
    with tempfile.TemporaryDirectory() as folder:
        for game in games(opts.sets):
            chosen = engine_of(game, "ppos")
            route = engine_of(game, "grundy")
            times = {}
            digests = set()
            rss = {}
            for engine in dict.fromkeys(["psieve", route, chosen]):
                out = os.path.join(folder, f"{engine}.u64")
                args = ["ppos", game, "-n", opts.n, "--engine", engine]
                times[engine], rss[engine], digest = run(args, opts.timeout, out)
                if digest:
                    digests.add(digest)
            if len(digests) > 1:
                sys.exit(f"{game}: the engines disagree")
            best = min(times.values())
            ratio = times[chosen] / best if not math.isinf(best) else math.nan
            if math.isnan(ratio):
                unfinished.append(game)
            else:
                ratios.append((ratio, game, chosen))
            shown = lambda s: "timeout" if math.isinf(s) else f"{s:.2f}"
            print(
                f"| {game} | {chosen} | {shown(times['psieve'])} | {route} | {shown(times[route])} "
                f"| {ratio:.2f} | {rss[chosen] / 1024:.0f} |",
                flush=True,
            )
    finite = [r for r, _, _ in ratios if not math.isinf(r)]
    geomean = math.exp(sum(map(math.log, finite)) / len(finite))
    print(f"\ngeometric mean of chosen / best over {len(ratios)} games: {geomean:.2f}")
    print("worst: " + ", ".join(f"{g} ({c}) {r:.2f}" for r, g, c in sorted(ratios)[-3:]))
    if unfinished:
        print("no engine within the timeout: " + ", ".join(unfinished))


if __name__ == "__main__":
    main()
