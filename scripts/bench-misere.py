#!/usr/bin/env python3
"""Misère quotients of the two-digit octal games: size, period, preperiod and time.

For each code 0.d1d2 (d2 non-zero: 56 codes) the script runs `nimsieve misere octal:CODE -n N
-f json` as its own process, timed by the wall clock around it, and prints one Markdown row a
code: the quotient's size, its P-portion, the last heap that added a generator, the period and
preperiod of the heaps' elements (proven or only seen), tameness and the time; or the one-line
refusal when the quotient passes --max-size or is not computed.

Usage: scripts/bench-misere.py [-n N] [--max-size K] [--codes .77,.07] [--timeout S]
  -n N          heaps below N (default 1000)
  --max-size K  passed on (default: nimsieve's)
  --codes       only these codes (comma-separated, with or without the leading 0)
  --timeout     seconds after which a run counts as not finished (default 600)
Environment: NIMSIEVE (default target/release/nimsieve).
"""

import argparse
import json
import os
import subprocess
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", default="1000")
    parser.add_argument("--max-size")
    parser.add_argument("--codes")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    binary = os.environ.get("NIMSIEVE", "target/release/nimsieve")
    if args.codes:
        codes = ["0." + c.strip().lstrip("0").lstrip(".") for c in args.codes.split(",")]
    else:
        codes = [f"0.{a}{b}" for a in range(8) for b in range(1, 8)]
    print(f"Misère quotients, heaps below {args.n} (`{binary}`)\n")
    print("| code | size | P | last generator | period | preperiod | proven | tame | time |")
    print("|---|---|---|---|---|---|---|---|---|")
    total = 0.0
    for code in codes:
        command = [binary, "misere", f"octal:{code}", "-n", args.n, "-f", "json"]
        if args.max_size:
            command += ["--max-size", args.max_size]
        start = time.perf_counter()
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            print(f"| {code} | not finished in {args.timeout:.0f} s | | | | | | | |")
            continue
        seconds = time.perf_counter() - start
        total += seconds
        if run.returncode != 0:
            reason = run.stderr.strip().removeprefix("nimsieve: error: ")
            print(f"| {code} | {reason} | | | | | | | {seconds:.2f} s |")
            continue
        r = json.loads(run.stdout)
        p = r["period"] or {}
        print(
            f"| {code} | {r['size']} | {len(r['p_portion'])} | {r['last_generator'] or '-'} "
            f"| {p.get('period', '-')} | {p.get('preperiod', '-')} "
            f"| {'yes' if p.get('proven') else 'no'} | {'yes' if r['tame'] else 'no'} "
            f"| {seconds:.2f} s |"
        )
    print(f"\ntotal {total:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
