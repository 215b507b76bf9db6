#!/usr/bin/env bash
# Octal games: nimsieve against the independent solver ogsolve 0.0.7 (its RC method, -m rc) on the
# same N. For each game and size: nimsieve's reference engine (O(N^2), so only at the small size
# REF_N), nimsieve's default engine (rare-values) on all cores and on one thread, and ogsolve
# (`-n N-1`: its -n is the last position). Each run is its own process; a row gives the wall time
# (clock read around the process), values per second, peak RSS (GNU time's %M) and the time over
# nimsieve's default run, which on an ogsolve row is ogsolve time / nimsieve time. Checks:
# ogsolve's first 1000 nimbers against nimsieve's CSV, the checksum ogsolve prints (Fletcher-32
# over its u16 nimbers) against the same sum of nimsieve's whole table, and the reference
# engine's JSON summary (max value, counts, first occurrences, period) against the default
# engine's. Prints a Markdown table; exits 1 if a check failed.
#
# With PROOF_N set (4.5e8 proves it), `.1777` is also run as its period proof: nimsieve with
# `--until-period` (checked: period 60,620,715 from preperiod 160,949,018, as published) against
# ogsolve over the same N.
#
# Usage: scripts/bench-octal.sh [N [DENSE_N]]
#   N        positions of 0.16, 0.1777 and Grundy's game, whose values have a sparse space (1e6)
#   DENSE_N  positions of Kayles (0.77) and Dawson's Kayles (0.07), where RC has no sparse space
#            and ogsolve is quadratic (1e5)
# Sizes are written as nimsieve takes them: 1000000, 1_000_000, 1e6 or 2^20.
# Environment: REF_N (2e4), the size at which the reference engine runs too; RUNS (1), runs of
# each measurement, the fastest kept; OUT (target/bench-octal/out), the tables and logs;
# OGSOLVE_ROOT (target/bench-octal/ogsolve), where `cargo install ogsolve --version 0.0.7` puts
# the solver unless it is there already; NIMSIEVE (target/release/nimsieve, built if missing).
# Grundy's game is nimsieve only: ogsolve's codes have no unequal-split rule (its 4.0 code
# allows splits into two equal heaps). Needs GNU time as /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."

to_int() { # a size as nimsieve writes it (1e6, 2^20, 1_000_000) -> a plain integer
  local s=${1//_/} v
  if [[ $s == *^* ]]; then v=$(( ${s%^*} ** ${s#*^} )); else v=$(awk -v x="$s" 'BEGIN { printf "%.0f", x }'); fi
  [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "not a size: $1" >&2; exit 2; }
  echo "$v"
}
n_sparse=$(to_int "${1:-1e6}")
n_dense=$(to_int "${2:-1e5}")
n_ref=$(to_int "${REF_N:-2e4}")
runs=${RUNS:-1}
out=${OUT:-target/bench-octal/out}
root=${OGSOLVE_ROOT:-target/bench-octal/ogsolve}
nimsieve=${NIMSIEVE:-target/release/nimsieve}
ogsolve=$root/bin/ogsolve
mkdir -p "$out"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

[ -x /usr/bin/time ] || { echo "needs GNU time as /usr/bin/time (apt-get install time)" >&2; exit 2; }
[ -x "$nimsieve" ] || cargo build --release --quiet
if ! [ -x "$ogsolve" ] || [ "$("$ogsolve" -V)" != "ogsolve 0.0.7" ]; then
  echo "installing ogsolve 0.0.7 into $root" >&2
  cargo install ogsolve --version 0.0.7 --locked --root "$root" --quiet
fi

# "SPEC OGSOLVE_CODE CLASS NAME": CLASS picks the size (sparse: N, dense: DENSE_N); - for no code.
cases=(
  "octal:0.77 0.77 dense Kayles"
  "octal:0.07 0.07 dense Dawson's Kayles"
  "octal:0.16 0.16 sparse 0.16"
  "octal:0.1777 0.1777 sparse 0.1777"
  "grundys-game - sparse Grundy's game"
)

measure() { # LOG CMD...: CMD with its standard output in LOG; sets secs (wall, fastest of RUNS), rss (KiB)
  local log=$1 t0 t1 s r best=""
  shift
  for _ in $(seq "$runs"); do
    t0=$(date +%s%N)
    /usr/bin/time -f "%e %M" -o "$out/time.txt" "$@" >"$log"
    t1=$(date +%s%N)
    s=$(awk -v d="$((t1 - t0))" 'BEGIN { printf "%.3f", d / 1e9 }')
    read -r _ r <"$out/time.txt"
    if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$s; rss=$r; fi
  done
  secs=$best
}
json_field() { # FILE KEY: a number of nimsieve's JSON summary
  sed -n "s/^ *\"$2\": \\([0-9.e+-]*\\),\\{0,1\\}$/\\1/p" "$1"
}
engine_of() { # FILE: the engine that nimsieve's JSON names
  sed -n 's/^ *"engine": "\(.*\)",\{0,1\}$/\1/p' "$1"
}
fletcher() { # nimsieve's CSV on standard input -> ogsolve's checksum of the values, in decimal
  awk -F, 'NR > 1 { if ($2 > 65535) big = 1; a = (a + $2) % 65536; b = (b + a) % 65536 }
    END { if (big) print "-"; else printf "%.0f\n", b * 65536 + a }'
}
summary() { # the fields of nimsieve's JSON that describe the table: max_value to stopped_at_period
  sed -n '/^  "max_value":/,/^  "stopped_at_period":/p' "$1"
}

rows=()
failed=0
row() { # game n engine threads secs rss base check
  rows+=("$(awk -v g="$1" -v n="$2" -v e="$3" -v t="$4" -v s="$5" -v r="$6" -v b="$7" -v c="$8" 'BEGIN {
    v = s > 0 ? sprintf("%.3g", n / s) : "-"
    q = b > 0 ? sprintf("%.3gx", s / b) : "-"
    printf "| %s | %d | %s | %s | %.3f | %s | %.1f | %s | %s |", g, n, e, t, s, v, r / 1024, q, c }')")
}

checks=()
for c in "${cases[@]}"; do
  read -r spec code class name <<<"$c"
  label="$name (\`$spec\`)"
  tag=${spec//[:.]/-}
  big=$n_sparse
  [ "$class" = dense ] && big=$n_dense
  sizes=("$n_ref")
  [ "$big" = "$n_ref" ] || sizes+=("$big")

  if [ "$code" != - ]; then # the first 1000 values, both ways
    "$ogsolve" "$code" -m rc -n 999 -p | sed -n 's/^ nimbers: //p' | tr ' ' '\n' >"$out/$tag-ogsolve-1000.txt"
    "$nimsieve" grundy "$spec" -n 1000 -f csv -o - -q | tail -n +2 | cut -d, -f2 >"$out/$tag-nimsieve-1000.txt"
    if cmp -s "$out/$tag-ogsolve-1000.txt" "$out/$tag-nimsieve-1000.txt"; then
      checks+=("- $label: ogsolve's first 1000 values equal nimsieve's")
    else
      checks+=("- $label: ogsolve's first 1000 values DIFFER from nimsieve's (see $out/$tag-*-1000.txt)")
      failed=1
    fi
  fi

  for n in "${sizes[@]}"; do
    echo "$spec, N = $n" >&2
    measure "$out/$tag-$n-default.log" "$nimsieve" grundy "$spec" -n "$n" -f json -o "$out/$tag-$n-default.json" -q
    base=$secs
    row "$label" "$n" "nimsieve $(engine_of "$out/$tag-$n-default.json")" \
      "$(json_field "$out/$tag-$n-default.json" threads)" "$secs" "$rss" "$base" "-"
    if [ "$(nproc)" -gt 1 ]; then
      measure "$out/$tag-$n-default-t1.log" "$nimsieve" grundy "$spec" -n "$n" --threads 1 -f json -o "$out/$tag-$n-default-t1.json" -q
      row "$label" "$n" "nimsieve $(engine_of "$out/$tag-$n-default-t1.json")" 1 "$secs" "$rss" "$base" "-"
    fi

    if [ "$n" -le "$n_ref" ]; then # the reference engine is single-threaded whatever --threads says
      measure "$out/$tag-$n-ref.log" "$nimsieve" grundy "$spec" -n "$n" --engine reference --threads 1 -f json -o "$out/$tag-$n-ref.json" -q
      check="summary = default"
      if [ -z "$(summary "$out/$tag-$n-ref.json")" ] ||
        ! diff <(summary "$out/$tag-$n-ref.json") <(summary "$out/$tag-$n-default.json") >"$out/$tag-$n-ref.diff"; then
        check="summary DIFFERS ($out/$tag-$n-ref.diff)"
        failed=1
      fi
      row "$label" "$n" "nimsieve reference" 1 "$secs" "$rss" "$base" "$check"
    fi

    if [ "$code" != - ]; then
      measure "$out/$tag-$n-ogsolve.log" "$ogsolve" "$code" -m rc -n "$((n - 1))"
      theirs=$(sed -n 's/.*checksum: \([0-9A-F]*\).*/\1/p' "$out/$tag-$n-ogsolve.log")
      ours=$("$nimsieve" grundy "$spec" -n "$n" -f csv -o - -q | fletcher)
      if [ -n "$theirs" ] && [ "$ours" = "$((16#$theirs))" ]; then
        check="checksum $theirs = nimsieve's"
      else
        check="checksum ${theirs:-missing} DIFFERS from nimsieve's"
        failed=1
      fi
      row "$label" "$n" "ogsolve -m rc" 1 "$secs" "$rss" "$base" "$check"
    fi
  done
done

if [ -n "${PROOF_N:-}" ]; then # .1777 to its period proof
  n=$(to_int "$PROOF_N")
  label="0.1777 proof (\`octal:0.1777 --until-period\`)"
  echo "octal:0.1777 --until-period, N = $n" >&2
  json=$out/octal-0-1777-$n-proof.json
  measure "$out/octal-0-1777-$n-proof.log" "$nimsieve" grundy octal:0.1777 -n "$n" --until-period -f json -o "$json" -q
  base=$secs
  found="$(json_field "$json" preperiod) $(json_field "$json" period)"
  check="period DIFFERS: preperiod and period $found"
  if [ "$found" = "160949018 60620715" ]; then
    check="period 60620715 from 160949018"
  else
    failed=1
  fi
  row "$label" "$n" "nimsieve $(engine_of "$json")" "$(json_field "$json" threads)" "$secs" "$rss" "$base" "$check"
  measure "$out/octal-0-1777-$n-ogsolve.log" "$ogsolve" 0.1777 -m rc -n "$((n - 1))"
  row "$label" "$n" "ogsolve -m rc" 1 "$secs" "$rss" "$base" "-"
fi

echo "nimsieve $("$nimsieve" --version | cut -d' ' -f2) against $("$ogsolve" -V); $(nproc) cores;" \
  "load average at the start $load_start, at the end $(cut -d' ' -f1-3 /proc/loadavg); fastest of $runs run(s)"
echo
echo "| game | N | engine | threads | wall (s) | values/s | peak RSS (MiB) | time / nimsieve default | check |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
printf '%s\n' "${checks[@]}"
exit "$failed"
