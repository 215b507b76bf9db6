#!/usr/bin/env python3
"""Every three-digit octal code: nimsieve against the independent solver ogsolve 0.0.7.

For each code 0.d1d2d3 (d3 non-zero: 448 codes) the script runs nimsieve (its default engine, on
all cores unless --threads says otherwise) and `ogsolve CODE -m rc` (one thread; its -n is the last
position, so it gets N - 1) on the same N, each as its own process timed by the wall clock around
it, and checks that the two agree: ogsolve's checksum (Fletcher-32 over its u16 values) against
the same sum of nimsieve's table. It prints one Markdown row a code as it is measured (both times, values per
second, peak RSS from GNU time, the ratio ogsolve time / nimsieve time), then the geometric mean
of the ratios, the ten worst codes, the codes below 1.5x and each tool's total time. Exits 1 when
a check fails.

With --against BINARY, another build of nimsieve takes ogsolve's place (run exactly as nimsieve
is, its table compared value for value with nimsieve's; the ratio is its time / nimsieve's): what
a change to an engine does over the whole family.

With --proofs, it runs instead the period proofs of the solved games `.376` (period 4 from
2,268,248) and `.354` (period 1,180 from 10,061,916): `grundy octal:CODE --until-period`, whose
table ends at the proof's length 2(n0 + p) + 3, against ogsolve over the same positions; each
proven period is checked against the published one.

Usage: scripts/bench-octal-codes.py [-n N] [--codes .354,.376] [--lead 0|4] [--threads T]
                                    [--out DIR] [--runs R] [--timeout S] [--proofs]
                                    [--against BINARY]
  -n N        positions of each game (default 2^16; 65536, 2^20 and 1e6 are all sizes)
  --codes     only these codes (comma-separated, with or without the leading 0)
  --lead      the digit before the point (default 0; ogsolve's 4. codes are the same notation)
  --threads   nimsieve's worker threads (default: all cores)
  --runs      runs of each measurement, the fastest kept (default 1); a run of more than a
              second is not repeated
  --against   another nimsieve build in ogsolve's place
  --timeout   seconds after which a run counts as not finished (default 600)
  --out       where nimsieve's tables go (default: /dev/shm/nimsieve-bench-octal-codes where
              /dev/shm exists, else target/bench-octal-codes). nimsieve flushes a finished table
              to its disk before renaming it into place, and ogsolve writes no table: on a RAM
              disk that flush costs nothing, on a busy disk it took 6 of 12 ms at 2^16.
Environment: NIMSIEVE (target/release/nimsieve, built if missing); OGSOLVE_ROOT
(target/bench-octal/ogsolve), where `cargo install ogsolve --version 0.0.7` puts the solver unless
it is there already. Needs NumPy and GNU time as /usr/bin/time.
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

try:
    import numpy as np
except ImportError:
    sys.exit("bench-octal-codes.py: error: NumPy is missing; install it (python3 -m pip install numpy, in a "
             "virtual environment if the system's Python refuses) and run it again")

ROOT = Path(__file__).resolve().parent.parent
# Seconds from which a run is not repeated (--runs).
REPEATED_BELOW = 1.0


def size(text):
    """A size as nimsieve writes it: 65536, 65_536, 2^16 or 1e6."""
    s = text.replace("_", "")
    if "^" in s:
        base, exp = s.split("^")
        return int(base) ** int(exp)
    value = float(s)
    if value != int(value) or value < 2:
        raise argparse.ArgumentTypeError(f"not a size: {text}")
    return int(value)


def measure(cmd, runs, timeout, out):
    """The fastest wall time of `runs` runs of cmd (None when one did not finish), its peak RSS in
    KiB, and the standard output of the fastest run. The first run goes under GNU time, for the
    peak RSS (a child started straight from this script would count the script's own memory,
    which it had before its exec); the others, timed from their start to the moment the kernel
    reports them ended (`os.wait4`), have no wrapper process, whose own start (about 2 ms here)
    would blur the ratio of runs of a few milliseconds. A run of more than REPEATED_BELOW
    seconds is not repeated: its noise is small against its time."""
    best, rss, stdout = None, 0, ""
    timing = out / "time.txt"
    for run in range(runs):
        wrapper = ["/usr/bin/time", "-f", "%M", "-o", str(timing)] if run == 0 else []
        with open(out / "stdout.txt", "w+") as log, open(out / "stderr.txt", "w+") as err:
            start = time.perf_counter()
            child = subprocess.Popen([*wrapper, *cmd], stdout=log, stderr=err)
            killed = threading.Event()
            timer = threading.Timer(timeout, lambda: (killed.set(), child.kill()))
            timer.start()
            _, status, _ = os.wait4(child.pid, 0)
            secs = time.perf_counter() - start
            timer.cancel()
            child.returncode = os.waitstatus_to_exitcode(status)
            if killed.is_set():
                return None, 0, ""
            if child.returncode != 0:
                err.seek(0)
                sys.exit(f"failed ({child.returncode}): {' '.join(map(str, cmd))}\n{err.read()}")
            if run == 0:
                rss = int(timing.read_text().split()[-1])
            if best is None or secs < best:
                log.seek(0)
                best, stdout = secs, log.read()
        if secs > REPEATED_BELOW:
            break
    return best, rss, stdout


def fletcher(values):
    """ogsolve's checksum: Fletcher-32 over the values as u16 (None when one does not fit)."""
    if len(values) and int(values.max()) > 0xFFFF:
        return None
    v = values.astype(np.int64)
    n = len(v)
    a = int(v.sum()) % 65536
    weights = (n - np.arange(n, dtype=np.int64)) % 65536
    b = int((weights * v).sum()) % 65536
    return b << 16 | a


def ensure_tools(against):
    nimsieve = Path(os.environ.get("NIMSIEVE", ROOT / "target/release/nimsieve"))
    if not nimsieve.exists():
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    if against:
        return str(nimsieve), str(against)
    root = Path(os.environ.get("OGSOLVE_ROOT", ROOT / "target/bench-octal/ogsolve"))
    ogsolve = root / "bin/ogsolve"
    version = ""
    if ogsolve.exists():
        version = subprocess.run([ogsolve, "-V"], capture_output=True, text=True).stdout.strip()
    if version != "ogsolve 0.0.7":
        print(f"installing ogsolve 0.0.7 into {root}", file=sys.stderr)
        subprocess.run(
            ["cargo", "install", "ogsolve", "--version", "0.0.7", "--locked", "--root", str(root),
             "--quiet"],
            check=True,
        )
    if not Path("/usr/bin/time").exists():
        sys.exit("needs GNU time as /usr/bin/time (apt-get install time)")
    return str(nimsieve), str(ogsolve)


# The solved games whose proofs the --proofs run times: code, preperiod, period (published).
PROOFS = [("0.376", 2_268_248, 4), ("0.354", 10_061_916, 1_180)]


def proofs(args, nimsieve, ogsolve, threads):
    """The period proofs of PROOFS, each against ogsolve over the same positions."""
    failed = False
    print("| code | proof length | nimsieve --until-period (s) | RSS (MiB) | ogsolve (s) "
          "| RSS (MiB) | ogsolve / nimsieve | check |")
    print("|---|---|---|---|---|---|---|---|")
    for code, preperiod, period in PROOFS:
        length = 2 * (preperiod + period) + 3
        print(f"{code} to its proof, {length} positions", file=sys.stderr)
        summary = args.out / f"{code}-proof.json"
        ours, our_rss, _ = measure(
            [nimsieve, "grundy", f"octal:{code}", "-n", str(2 * length), "--until-period", "-f",
             "json", "-o", str(summary), "-q", *threads],
            args.runs, args.timeout, args.out)
        theirs, their_rss, _ = measure(
            [ogsolve, code, "-m", "rc", "-n", str(length - 1)], args.runs, args.timeout, args.out)
        check = "not finished"
        if ours is not None:
            found = json.loads(summary.read_text())
            want = {"preperiod": preperiod, "period": period, "saltus": 0}
            if found["period"] == want and found["n"] == length:
                check = f"period {period} from {preperiod}, {length} values"
            else:
                check = f"DIFFERS: period {found['period']}, {found['n']} values"
                failed = True
        ratio = f"{theirs / ours:.2f}x" if ours and theirs else "-"
        shown = lambda t: f"{t:.1f}" if t is not None else f"> {args.timeout:.0f}"
        print(f"| {code} | {length} | {shown(ours)} | {our_rss / 1024:.1f} | {shown(theirs)} "
              f"| {their_rss / 1024:.1f} | {ratio} | {check} |")
    return failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=size, default=2**16)
    parser.add_argument("--codes")
    parser.add_argument("--lead", choices=["0", "4"], default="0")
    parser.add_argument("--threads", type=int)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600)
    shm = Path("/dev/shm")
    out = shm / "nimsieve-bench-octal-codes" if shm.is_dir() else ROOT / "target/bench-octal-codes"
    parser.add_argument("--out", type=Path, default=out)
    parser.add_argument("--proofs", action="store_true")
    parser.add_argument("--against", type=Path)
    args = parser.parse_args()
    nimsieve, ogsolve = ensure_tools(args.against)
    other = f"{args.against}" if args.against else "ogsolve"
    if args.against and args.proofs:
        sys.exit("--proofs times ogsolve; give --against without it")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.proofs:
        threads = ["--threads", str(args.threads)] if args.threads else []
        sys.exit(1 if proofs(args, nimsieve, ogsolve, threads) else 0)
    if args.codes:
        codes = [c if c.startswith(("0.", "4.")) else args.lead + "." + c.lstrip(".")
                 for c in args.codes.split(",")]
    else:
        codes = [f"{args.lead}.{a}{b}{c}" for a in range(8) for b in range(8) for c in range(1, 8)]
    threads = ["--threads", str(args.threads)] if args.threads else []
    load_start = Path("/proc/loadavg").read_text().split()[:3]
    version = subprocess.run([nimsieve, "--version"], capture_output=True, text=True).stdout.split()
    against = f"{other} (same options)" if args.against else "ogsolve 0.0.7 -m rc"
    print(f"nimsieve {version[-1]} against {against}; N = {args.n}; nimsieve threads: "
          f"{args.threads or os.cpu_count()}; {os.cpu_count()} cores; load average at the start "
          f"{' '.join(load_start)}; fastest of {args.runs} run(s)")
    print()
    print(f"| code | nimsieve (s) | values/s | RSS (MiB) | {other} (s) | values/s | RSS (MiB) "
          f"| {other} / nimsieve | check |")
    print("|---|---|---|---|---|---|---|---|---|", flush=True)
    ratios, failed = [], False
    total = {"nimsieve": 0.0, "ogsolve": 0.0}
    for code in codes:
        print(f"{code}, N = {args.n}", file=sys.stderr)
        table = args.out / f"{code}.npy"
        run = lambda binary, to: [binary, "grundy", f"octal:{code}", "-n", str(args.n), "-f", "npy",
                                  "-o", str(to), "-q", *threads]
        ours, our_rss, _ = measure(run(nimsieve, table), args.runs, args.timeout, args.out)
        other_table = args.out / f"{code}-other.npy"
        theirs, their_rss, log = measure(
            run(ogsolve, other_table) if args.against
            else [ogsolve, code, "-m", "rc", "-n", str(args.n - 1)],
            args.runs, args.timeout, args.out)
        check = "-"
        if ours is not None and theirs is not None and args.against:
            same = np.array_equal(np.load(table), np.load(other_table))
            check = "tables equal" if same else "tables DIFFER"
            failed |= not same
            other_table.unlink(missing_ok=True)
        elif ours is not None and theirs is not None:
            found = re.search(r"checksum: ([0-9A-F]+)", log)
            mine = fletcher(np.load(table))
            if mine is None:
                check = "values past 2^16: not compared"
            elif found and int(found.group(1), 16) == mine:
                check = "checksums equal"
            else:
                check = "checksums DIFFER"
                failed = True
        table.unlink(missing_ok=True)
        ratio = theirs / ours if ours and theirs else None
        if ratio is not None:
            ratios.append((ratio, code))
            total["nimsieve"] += ours
            total["ogsolve"] += theirs
        shown = lambda s: f"{s:.3f}" if s is not None else f"> {args.timeout:.0f}"
        rate = lambda s: f"{args.n / s:.3g}" if s else "-"
        print(
            f"| {code} | {shown(ours)} | {rate(ours)} | {our_rss / 1024:.1f} | {shown(theirs)} | "
            f"{rate(theirs)} | {their_rss / 1024:.1f} | "
            f"{f'{ratio:.2f}x' if ratio is not None else '-'} | {check} |", flush=True)
    print()
    print(f"load average at the end {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    if ratios:
        geo = math.exp(sum(math.log(r) for r, _ in ratios) / len(ratios))
        worst = sorted(ratios)[:10]
        below = [c for r, c in sorted(ratios) if r < 1.5]
        print()
        print(f"codes timed by both: {len(ratios)} of {len(codes)}; geometric mean of "
              f"{other} / nimsieve: {geo:.2f}x")
        print("ten worst: " + ", ".join(f"{c} {r:.2f}x" for r, c in worst))
        if not args.against:
            print(f"below 1.5x: {len(below)}" + (f" ({', '.join(below)})" if below else ""))
        print(f"total time: nimsieve {total['nimsieve']:.1f} s, {other} {total['ogsolve']:.1f} s")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
