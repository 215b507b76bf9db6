#!/usr/bin/env bash
# A family swept three ways on this machine: one process (all cores), K local shards
# (scripts/sweep-shards.sh: K background processes with --threads 1, then sweep-merge), and a
# Slurm job array of K tasks of one CPU each (scripts/slurm/sweep.sbatch) on the one-node
# cluster of scripts/slurm/cluster.sh, timed from sbatch until the last task has ended
# (squeue polled every 0.2 s), then sweep-merge of its parts timed alone. Checks that all three
# give the same bytes. Prints a Markdown table; RUNS=R (default 3) repeats each measurement and
# prints the fastest and the slowest. Needs root and slurm-wlm and munge for the Slurm rows.
# Usage: [RUNS=3] scripts/bench-sweep-cluster.sh [FAMILY] [K] [nimsieve sweep options]
#        defaults: sub3:100 8
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
cargo build --release --quiet
export NIMSIEVE=$root/target/release/nimsieve
family=${1:-sub3:100} parts=${2:-8}
shift $(($# < 2 ? $# : 2))
source scripts/slurm/cluster.sh
work=$(mktemp -d /tmp/nimsieve-bench-sweep.XXXXXX)
chmod 755 "$work"
trap 'cluster_stop; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

now() { date +%s.%N; }
# Runs "$@" RUNS times; prints the fastest and slowest wall time in seconds, as "min max".
timed() {
  local start times=()
  for _ in $(seq "${RUNS:-3}"); do
    start=$(now)
    "$@" >/dev/null
    times+=("$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n '1p;$p' | tr '\n' ' '
}
row() { # what, "min max"
  read -r min max <<<"$2"
  if [ "$min" = "$max" ]; then echo "| $1 | $min |"; else echo "| $1 | $min – $max |"; fi
}

one() {
  rm -rf "$work/one" && "$NIMSIEVE" sweep "$family" -o "$work/one/" --quiet "$@"
}
local_shards() {
  rm -rf "$work/local" && mkdir "$work/local" && cd "$work/local" &&
    "$root/scripts/sweep-shards.sh" "$family" "$parts" --threads 1 "$@" && cd "$root"
}
slurm_array() {
  local job
  rm -rf "$work/slurm" && mkdir "$work/slurm" && cd "$work/slurm" &&
    cp "$root/scripts/slurm/sweep.sbatch" . &&
    job=$(sbatch --parsable --array=1-"$parts" --cpus-per-task=1 sweep.sbatch "$family" "$parts" "$@") &&
    cluster_wait "$job" && cd "$root"
}
merge() {
  "$NIMSIEVE" sweep-merge "$work/slurm" --quiet
}

games=$("$NIMSIEVE" sweep "$family" --shard "$parts/$parts" -f json -o - "$@" | tail -n 1 | sed 's/{"index":\([0-9]*\),.*/\1/')
echo "$family: $((games + 1)) games, K = $parts, $(nproc) cores, RUNS=${RUNS:-3}"
echo
echo "| run | wall time (s) |"
echo "|---|---|"
row "1 process, $(nproc) threads" "$(timed one "$@")"
row "$parts local shards, --threads 1 each, merge included (scripts/sweep-shards.sh)" "$(timed local_shards "$@")"
stem=$(basename "$(ls "$work/one/"*.jsonl)" .jsonl)
for ext in csv jsonl; do
  cmp -s "$work/one/$stem.$ext" "$work/local/output/$stem.$ext" || { echo "local shards: $ext differs" >&2; exit 1; }
done
start=$(now)
if cluster_start "$work/cluster"; then
  row "start the one-node Slurm cluster (munged, slurmctld, slurmd)" "$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.2f %.2f", b - a, b - a }')"
  row "Slurm array of $parts tasks, --cpus-per-task=1, sbatch until the last task ended" "$(timed slurm_array "$@")"
  row "sweep-merge of the $parts Slurm parts" "$(timed merge)"
  for ext in csv jsonl; do
    cmp -s "$work/one/$stem.$ext" "$work/slurm/$stem.$ext" || { echo "Slurm array: $ext differs" >&2; exit 1; }
  done
  echo
  echo "all three runs wrote the same bytes ($(wc -c <"$work/one/$stem.csv") bytes of CSV, $(wc -c <"$work/one/$stem.jsonl") of JSON lines)"
else
  echo
  echo "no Slurm rows: $cluster_error"
fi
