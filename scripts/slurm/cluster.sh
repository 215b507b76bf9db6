# shellcheck shell=bash disable=SC2034  # cluster_error is read by the scripts that source this
# A one-node Slurm cluster on this machine, from Debian's slurm-wlm and munge, for the tests and
# benchmarks of sweeps on a cluster. Source it from bash, then:
#
#   cluster_start DIR     start munged, slurmctld and slurmd with every file in DIR (new or
#                         empty, its parent searchable by others) and export SLURM_CONF; on
#                         failure, stop what started, set cluster_error to the reason, return 1
#   cluster_stop          stop the daemons cluster_start started (by pid) and wait for them
#   cluster_wait JOB      wait until no task of JOB is pending or running (at most 10 minutes)
#   cluster_states JOB    print "TASK STATE" for each task of JOB (COMPLETED, CANCELLED, ...)
#
# Runs as root (munged as the munge user, the Slurm daemons and jobs as root), with
# proctrack/linuxproc, task/none and no accounting, so it needs neither cgroups nor slurmdbd;
# nothing in /etc is read or changed (SLURM_CONF points into DIR, munged's socket and key are
# in DIR). The daemons run in the foreground as children of the sourcing shell, so that
# cluster_stop can reap them.

cluster_pids=()
cluster_error=""

# A TCP port from $1 up that nothing listens on.
cluster_free_port() {
  local port=$1
  while grep -qi ":$(printf '%04X' "$port") [0-9A-F:]* 0A " /proc/net/tcp /proc/net/tcp6 2>/dev/null; do
    port=$((port + 1))
  done
  echo "$port"
}

# Runs "$@" every 0.2 s until it succeeds, at most $1 seconds (the first argument); false after.
cluster_retry() {
  local seconds=$1 tries
  shift
  for ((tries = seconds * 5; tries > 0; tries--)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  return 1
}

cluster_controller_up() { scontrol ping | grep -q UP; }
cluster_node_idle() { [ "$(sinfo -h -N -o %T)" = idle ]; }

# Sets cluster_error to $1 and the end of log file $2, stops what started, and fails.
cluster_fail() {
  cluster_error="$1${2:+: $(tail -n 3 "$2" 2>/dev/null | tr '\n' ' ')}"
  cluster_stop
  return 1
}

cluster_start() {
  local dir=$1 command host node ctld_port slurmd_port
  for command in munged munge slurmctld slurmd sbatch squeue scontrol setpriv; do
    if ! command -v "$command" >/dev/null; then
      cluster_error="$command is not installed (apt-get install slurm-wlm munge)"
      return 1
    fi
  done
  if [ "$(id -u)" -ne 0 ]; then
    cluster_error="the one-node cluster runs its daemons as root and munge"
    return 1
  fi
  if ! id munge >/dev/null 2>&1; then
    cluster_error="there is no munge user (apt-get install munge makes it)"
    return 1
  fi
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
  dir=$(cd "$dir" && pwd)
  if ! setpriv --reuid=munge --regid=munge --clear-groups test -x "$(dirname "$dir")"; then
    cluster_error="the munge user cannot reach $dir: every folder above it must be searchable by others"
    return 1
  fi
  # munged checks that its socket folder is reachable by all and its key readable by it alone.
  chmod 755 "$dir" "$dir/munge"
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge/munge.key"
  chown -R munge:munge "$dir/munge"
  setpriv --reuid=munge --regid=munge --clear-groups munged --foreground \
    --socket="$dir/munge/socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed" 2>>"$dir/munge/munged.log" &
  cluster_pids+=($!)
  cluster_retry 10 munge -n -S "$dir/munge/socket" ||
    { cluster_fail "munged did not start" "$dir/munge/munged.log"; return 1; }

  host=$(hostname -s)
  node=$(slurmd -C | head -n 1)
  ctld_port=$(cluster_free_port 16817)
  slurmd_port=$(cluster_free_port $((ctld_port + 1)))
  cat >"$dir/slurm.conf" <<CONF
ClusterName=nimsieve-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -D -c 2>>"$dir/slurmctld.log" &
  cluster_pids+=($!)
  cluster_retry 30 cluster_controller_up ||
    { cluster_fail "slurmctld did not start" "$dir/slurmctld.log"; return 1; }
  slurmd -D -N "$host" 2>>"$dir/slurmd.log" &
  cluster_pids+=($!)
  cluster_retry 30 cluster_node_idle ||
    { cluster_fail "slurmd did not start" "$dir/slurmd.log"; return 1; }
}

cluster_stop() {
  local pid i
  # Last started, first stopped: slurmd, slurmctld, munged.
  for ((i = ${#cluster_pids[@]} - 1; i >= 0; i--)); do
    pid=${cluster_pids[i]}
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  cluster_pids=()
}

cluster_wait() {
  local job=$1 tries
  for ((tries = 3000; tries > 0; tries--)); do
    [ -z "$(squeue -h -j "$job" -t PENDING,RUNNING,COMPLETING,CONFIGURING 2>/dev/null)" ] && return 0
    sleep 0.2
  done
  echo "job $job did not finish in 10 minutes" >&2
  return 1
}

cluster_states() {
  scontrol show job "$1" -o | sed -n 's/.*ArrayTaskId=\([0-9]*\) .*JobState=\([A-Z_]*\) .*/\1 \2/p' | sort -n
}
