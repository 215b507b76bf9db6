#!/usr/bin/env bash
# Sweeps on a real Slurm cluster: starts a one-node cluster on this machine
# (scripts/slurm/cluster.sh), submits scripts/slurm/sweep.sbatch as a job array of 8 tasks for
# sub3:40, merges the parts with `nimsieve sweep-merge` and compares the result byte for byte
# with an unsharded run; then cancels one task of a second array before it runs, checks that
# the merge refuses (exit 2, naming the shard) and writes nothing, reruns that shard alone
# with two CPUs (and so --threads 2) and merges again.
#
#   tests/slurm.sh          (scripts/test.sh runs it after the Rust tests)
#
# NIMSIEVE names the binary (default target/release/nimsieve, which `cargo test --release`
# builds). Where the cluster cannot start (no slurm-wlm or munge, not root), the test is
# skipped with the reason; with CI set it fails instead. The daemons are stopped on every exit.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nimsieve=${NIMSIEVE:-$root/target/release/nimsieve}
source "$root/scripts/slurm/cluster.sh"

fail() {
  echo "tests/slurm.sh: FAILED: $*" >&2
  echo "slurm: 0 passed, 1 failed"
  exit 1
}
[ -x "$nimsieve" ] || fail "no binary at $nimsieve (build it with cargo build --release)"

work=$(mktemp -d /tmp/nimsieve-slurm.XXXXXX)
trap 'cluster_stop; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
chmod 755 "$work"
if ! cluster_start "$work/cluster"; then
  if [ -n "${CI:-}" ]; then
    fail "the one-node Slurm cluster did not start: $cluster_error"
  fi
  echo "tests/slurm.sh: SKIPPED: the one-node Slurm cluster did not start: $cluster_error (it needs root and Debian's slurm-wlm and munge: apt-get install slurm-wlm munge)"
  echo "slurm: 0 passed, 0 failed, 1 skipped"
  exit 0
fi

# Every task's command line goes to its log (slurm-JOB_TASK.out), to check --shard and --threads.
cat >"$work/nimsieve" <<EOF
#!/bin/sh
echo "nimsieve \$*" >&2
exec "$nimsieve" "\$@"
EOF
chmod +x "$work/nimsieve"
export NIMSIEVE=$work/nimsieve

# A run folder as docs/sweeps.md ("Sweeps on a cluster") makes one.
new_run() {
  mkdir -p "$work/$1"
  cp "$root/scripts/slurm/sweep.sbatch" "$work/$1/"
  cd "$work/$1"
}

# The states of JOB's tasks, one line "TASK STATE" each, must be $2.
expect_states() {
  local states
  states=$(cluster_states "$1" | tr '\n' ' ')
  [ "$states" = "$2" ] || fail "job $1: tasks ended as '$states', expected '$2'"
}

same_as_unsharded() {
  local ext
  for ext in csv jsonl; do
    cmp -s "sweep-sub3_40.$ext" "$work/whole/sweep-sub3_40.$ext" ||
      fail "$PWD/sweep-sub3_40.$ext differs from the unsharded run's"
  done
}

mkdir "$work/whole"
"$nimsieve" sweep sub3:40 -o "$work/whole/" --quiet
[ "$(wc -l <"$work/whole/sweep-sub3_40.csv")" = 9881 ] || fail "the unsharded run has not 9880 rows"

# 1. The whole array: 8 tasks, all completed, merged to the unsharded bytes.
new_run first
job=$(sbatch --parsable --array=1-8 sweep.sbatch sub3:40 8)
cluster_wait "$job"
expect_states "$job" "1 COMPLETED 2 COMPLETED 3 COMPLETED 4 COMPLETED 5 COMPLETED 6 COMPLETED 7 COMPLETED 8 COMPLETED "
for task in 1 2 3 4 5 6 7 8; do
  grep -q -- "sweep sub3:40 --shard $task/8 -o ./ --threads 1" "slurm-${job}_$task.out" ||
    fail "task $task did not run shard $task/8 with one thread: $(cat "slurm-${job}_$task.out")"
done
"$nimsieve" sweep-merge . --quiet || fail "the merge of a complete array failed"
same_as_unsharded

# 2. Task 3 of a held array cancelled before it runs: the merge refuses and writes nothing.
new_run second
job=$(sbatch --parsable --hold --array=1-8 sweep.sbatch sub3:40 8)
scancel "${job}_3"
scontrol release "$job"
cluster_wait "$job"
# A pending task that is cancelled leaves no record (without accounting) and no log.
expect_states "$job" "1 COMPLETED 2 COMPLETED 4 COMPLETED 5 COMPLETED 6 COMPLETED 7 COMPLETED 8 COMPLETED "
[ ! -e "slurm-${job}_3.out" ] || fail "the cancelled task 3 ran: $(cat "slurm-${job}_3.out")"
status=0
"$nimsieve" sweep-merge . 2>refusal.txt || status=$?
[ "$status" = 2 ] || fail "the merge without shard 3 exited with $status, not 2"
[ "$(wc -l <refusal.txt)" = 1 ] || fail "the refusal is not one line: $(cat refusal.txt)"
grep -q "shard 3 is missing.*sbatch --array=3 " refusal.txt ||
  fail "the refusal does not name shard 3: $(cat refusal.txt)"
if [ -e sweep-sub3_40.csv ] || [ -e sweep-sub3_40.jsonl ]; then fail "the refused merge wrote a file"; fi

# 3. Shard 3 rerun alone, with two CPUs: the merge takes it.
job=$(sbatch --parsable --array=3 --cpus-per-task=2 sweep.sbatch sub3:40 8)
cluster_wait "$job"
expect_states "$job" "3 COMPLETED "
grep -q -- "--shard 3/8 -o ./ --threads 2" "slurm-${job}_3.out" ||
  fail "the rerun did not run shard 3/8 with two threads: $(cat "slurm-${job}_3.out")"
"$nimsieve" sweep-merge . --quiet || fail "the merge with the rerun shard failed"
same_as_unsharded

echo "tests/slurm.sh: a job array of 8 shards of sub3:40 on a one-node Slurm cluster merged to the unsharded bytes; a cancelled task refused, rerun and merged"
echo "slurm: 1 passed, 0 failed"
