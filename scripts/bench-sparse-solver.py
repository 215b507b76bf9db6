#!/usr/bin/env python3
"""The frontier octal games, nimsieve against the public sparse-space solver, one thread each.

The public solver (rogalski-wmii-uni-lodz-pl/octal, the source of the published frequency files
of `.167`, `.161`, `.034`, `.014` and `.172`) is built from a checkout given on the command line,
twice: with its default features (values in a bit vector of any length) and with `bits_u128`
(values in one 128-bit word, for games whose values stay below 63). Each game then runs once in
each tool on one core: `octal CODE N 0` (all N values in memory; it has no threads) and
`nimsieve grundy octal:CODE -n N -f freq --threads 1`. The script compares nimsieve's block
`n = N - 1` of its frequency table (heaps 1 to N - 1) with the solver's last frequency list
(heap 0 and zero counts left out), and prints one Markdown row a game: each tool's CPU time (user + system, GNU time), values
per CPU second, peak RSS and the ratio of the CPU times. Of the solver's two builds the faster
whose frequencies are right counts; the `bits_u128` build runs only where nimsieve's values stay
below 63 (past its word it gives wrong values, without a word, and slowly: `.161` ran for more
than 9 minutes at 2^24). Exits 1 when nimsieve's frequencies differ from the solver's.

Usage: scripts/bench-sparse-solver.py SOLVER [-n N] [--codes 0.167,0.161]
  SOLVER    a checkout of the public solver's repository
  -n N      positions, heaps 0 to N - 1 (default 2^24 + 1, so that the last block is 2^24)
  --codes   the games (default 0.167,0.161,0.034,0.014,0.172,0.6)
Environment: NIMSIEVE (target/release/nimsieve, built if missing). Needs GNU time as
/usr/bin/time and cargo (to build the solver; its dependencies are fetched by cargo).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODES = "0.167,0.161,0.034,0.014,0.172,0.6"
# Values below which the solver's `bits_u128` build is right: it needs (largest + 2) rounded up
# to a power of two, plus 2, bits.
U128_BELOW = 63


def size(text):
    """A size as nimsieve writes it: 16777217, 2^24 + 1 or 2^24+1."""
    total = 0
    for term in text.replace(" ", "").replace("_", "").split("+"):
        base, _, exp = term.partition("^")
        total += int(base) ** int(exp) if exp else int(base)
    return total


def timed(cmd, cwd, stdout):
    """Runs cmd under GNU time with its standard output to the file stdout: (CPU seconds, peak
    RSS in MiB)."""
    timing = Path(cwd) / "time.txt"
    with open(stdout, "w") as out:
        subprocess.run(
            ["/usr/bin/time", "-f", "%U %S %M", "-o", str(timing), *cmd],
            cwd=cwd,
            stdout=out,
            check=True,
        )
    user, system, peak = timing.read_text().split()[-3:]
    return float(user) + float(system), int(peak) // 1024


def solver_frequencies(stdout):
    """The solver's last frequency list (printed as JSON after a line `N freqs after T`) as
    `value count` lines of heaps 1 to N - 1, zero counts left out: the list counts heap 0 too
    (value 0), which nimsieve's blocks and the published files leave out."""
    lines = Path(stdout).read_text().splitlines()
    last = max(i for i, line in enumerate(lines) if " freqs after " in line)
    end = next(i for i in range(last + 1, len(lines)) if lines[i] == "]")
    freqs = json.loads("\n".join(lines[last + 1 : end + 1]))
    counts = [f["frequency"] - (f["nimber"] == 0) for f in freqs]
    return [f"{value} {count}" for value, count in enumerate(counts) if count != 0]


def nimsieve_frequencies(path, heaps):
    """nimsieve's block `n = heaps` of a frequency table, as its lines."""
    block, on = [], False
    for line in Path(path).read_text().splitlines():
        if line == f"n = {heaps}":
            on = True
        elif on and not line:
            break
        elif on:
            block.append(line)
    return block


def build(solver, features):
    """The solver built with the features given (its own target folder for each set)."""
    target = Path(solver) / ("target" if not features else f"target-{features}")
    cmd = ["cargo", "build", "--release", "--quiet", "--bin", "octal"]
    cmd += ["--manifest-path", str(Path(solver) / "Cargo.toml"), "--target-dir", str(target)]
    if features:
        cmd += ["--features", features]
    subprocess.run(cmd, check=True)
    return target / "release" / "octal"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("solver")
    parser.add_argument("-n", type=size, default=(1 << 24) + 1)
    parser.add_argument("--codes", default=CODES)
    args = parser.parse_args()

    nimsieve = Path(os.environ.get("NIMSIEVE", ROOT / "target/release/nimsieve")).resolve()
    if not nimsieve.exists():
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    builds = {"default": build(args.solver, ""), "bits_u128": build(args.solver, "bits_u128")}

    n, failed = args.n, False
    print(f"N = {n} (heaps 0 to {n - 1}), one thread each; CPU time (user + system)\n")
    print("| game | solver CPU s | solver build | solver values / CPU s | solver peak RSS "
          "| nimsieve CPU s | nimsieve values / CPU s | nimsieve peak RSS | ratio | frequencies |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for code in args.codes.split(","):
        code = code if code.startswith("0") else "0" + code
        with tempfile.TemporaryDirectory() as work:
            cpu, rss = timed(
                [nimsieve, "grundy", f"octal:{code}", "-n", str(n), "-f", "freq", "-q",
                 "--threads", "1", "-o", f"{work}/"],
                work,
                f"{work}/nimsieve.txt",
            )
            ours = nimsieve_frequencies(f"{work}/octal_{code}-{n}.freq.txt", n - 1)
            largest = max(int(line.split()[0]) for line in ours)
            best = None
            for name, binary in builds.items():
                if name == "bits_u128" and largest >= U128_BELOW:
                    continue
                their_cpu, their_rss = timed([binary, code, str(n), "0"], work, f"{work}/{name}.txt")
                if solver_frequencies(f"{work}/{name}.txt") != ours:
                    continue
                if best is None or their_cpu < best[1]:
                    best = (name, their_cpu, their_rss)
        if best is None:
            failed = True
            print(f"| `{code}` | | | | | {cpu:.2f} | | {rss} MiB | | DIFFER |")
            continue
        name, their_cpu, their_rss = best
        print(
            f"| `{code}` | {their_cpu:.2f} | {name} | {n / their_cpu / 1e6:.2f}·10^6 | {their_rss} MiB "
            f"| {cpu:.2f} | {n / cpu / 1e6:.2f}·10^6 | {rss} MiB | {their_cpu / cpu:.1f}× | equal |",
            flush=True,
        )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
