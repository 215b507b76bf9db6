#!/usr/bin/env python3
"""The Python package against the command line, on the same tables, in one script.

Each measurement is its own process (so peak RSS is that run's alone): the command line
`nimsieve grundy GAME -n N -f npy -o FILE -q` (wall time around the process), and
`nimsieve.grundy(GAME, N)` in memory or `nimsieve.grundy(GAME, N, path=FILE)` (wall time around
the call, inside the process; importing the package is not counted; peak RSS as the call
returns, before the check reads the table back). Prints a Markdown table:
game, N, threads, how, time, time over the command line's, positions per second, peak RSS.
The tables are checked equal to the command line's file.

Usage (from the repository, with the package installed, as `scripts/test.sh` installs it):
    target/python-venv/bin/python scripts/bench-python.py [CASE ...]
CASE is GAME:N:HOW with HOW `memory` or `path`; the default cases are those of docs/python.md:
squares:2^24:memory and primes:1e9:path. Environment: RUNS (1), runs of each measurement, the
fastest kept; OUT (target/bench-python), the files; NIMSIEVE (target/release/nimsieve).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import nimsieve

ROOT = Path(__file__).resolve().parents[1]
CLI = Path(os.environ.get("NIMSIEVE", ROOT / "target" / "release" / "nimsieve"))
OUT = Path(os.environ.get("OUT", ROOT / "target" / "bench-python"))
RUNS = int(os.environ.get("RUNS", "1"))
DEFAULT_CASES = ["squares:2^24:memory", "primes:1e9:path"]

# Peak RSS is read when the call returns, before the check reads the whole table.
CHILD = """
import resource, sys, time
import numpy as np
import nimsieve
game, n, how, path, expected = sys.argv[1:6]
started = time.perf_counter()
table = nimsieve.grundy(game, n, path=path if how == "path" else None)
elapsed = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
same = np.array_equal(table, np.load(expected, mmap_mode="r"))
print(elapsed, peak, int(same))
"""


def measured(command: list[str]) -> tuple[float, float, str]:
    """Runs `command`; its wall time in seconds, its peak RSS in MiB, and what it printed."""
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    printed = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    if child.returncode != 0:
        sys.exit(f"failed ({child.returncode}): {' '.join(command)}")
    return wall, usage.ru_maxrss / 1024, printed


def fastest(command: list[str]) -> tuple[float, float, str]:
    runs = [measured(command) for _ in range(RUNS)]
    return min(runs, key=lambda r: r[0])


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    threads = os.cpu_count()
    print("| game | N | threads | how | time (s) | vs command line | positions/s | peak RSS (MiB) |")
    print("|---|---|---|---|---|---|---|---|")
    for case in sys.argv[1:] or DEFAULT_CASES:
        game, size, how = case.split(":")
        n = int(nimsieve._native.size(size))
        cli_file = OUT / f"cli-{game}.npy"
        cli_time, cli_rss, _ = fastest(
            [str(CLI), "grundy", game, "-n", size, "-f", "npy", "-o", str(cli_file), "-q"]
        )
        print(f"| {game} | {size} | {threads} | command line, npy | {cli_time:.2f} | 1.00x "
              f"| {n / cli_time:.3g} | {cli_rss:.0f} |", flush=True)
        py_file = OUT / f"python-{game}.npy"
        runs = [
            measured([sys.executable, "-c", CHILD, game, size, how, str(py_file), str(cli_file)])
            for _ in range(RUNS)
        ]
        _, _, printed = min(runs, key=lambda r: float(r[2].split()[0]))
        elapsed, peak, same = printed.split()
        elapsed_s, rss = float(elapsed), float(peak)
        if same != "1":
            sys.exit(f"{case}: the package's table differs from the command line's")
        label = "nimsieve.grundy(..., path=FILE)" if how == "path" else "nimsieve.grundy(...)"
        print(f"| {game} | {size} | {threads} | {label} | {elapsed_s:.2f} "
              f"| {elapsed_s / cli_time:.2f}x | {n / elapsed_s:.3g} | {rss:.0f} |", flush=True)
        for file in (cli_file, py_file):
            file.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
