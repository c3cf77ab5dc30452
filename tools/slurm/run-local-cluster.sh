#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, to check the Slurm recipe end to end:
#   1. installs Debian's slurm-wlm and munge (apt-get), starts munged, slurmctld and slurmd on
#      localhost with a minimal slurm.conf written here (this host's name, CPUS CPUs);
#   2. for a buggy and a fixed variant: submits tools/slurm/fuzz-array.sbatch as a 4-task array over
#      seeds 0..<SEEDS, waits (at most WAIT_SECONDS), runs `simrun merge`, and checks that the merged
#      verdict is the one `simrun fuzz` prints on one machine over the same seeds (same lowest failing
#      seed and failure, same exit code); with one shard's result removed, merge must fail naming the
#      missing seeds;
#   3. prints shards x schedules/s, and stops every daemon and removes every file it made.
#
#   tools/slurm/run-local-cluster.sh              # builds simrun in release mode first
#   SIMRUN=.build/debug/simrun SEEDS=40000 tools/slurm/run-local-cluster.sh
#
# Runs as root (apt-get, and the daemons run as root here). Exit 0 when every check passed.
# Environment: SIMRUN (the executable; default: `swift build -c release --product simrun`),
# SCENARIO (lost-input-navigation), SEEDS (200000), TASKS (4), CPUS (2), WAIT_SECONDS (600),
# SLURM_PORT (16817: slurmctld; slurmd gets the next one).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)

scenario=${SCENARIO:-lost-input-navigation}
seeds=${SEEDS:-200000}
tasks=${TASKS:-4}
cpus=${CPUS:-2}
wait_seconds=${WAIT_SECONDS:-600}
ctld_port=${SLURM_PORT:-16817}
slurmd_port=$((ctld_port + 1))

say() { echo "run-local-cluster: $*" >&2; }
die() {
  say "FAILED: $*"
  exit 1
}

[ "$(id -u)" = 0 ] || die "run me as root (apt-get, and the Slurm daemons run as root here)"

# --- 1. packages --------------------------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  say "installing slurm-wlm and munge"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq slurm-wlm munge >/dev/null
fi

if [ -z "${SIMRUN:-}" ]; then
  say "building simrun (release)"
  swift build -c release --product simrun 2>&1 | tail -3 >&2
  SIMRUN="$(swift build -c release --show-bin-path)/simrun"
fi
simrun=$(cd "$(dirname "$SIMRUN")" && pwd)/$(basename "$SIMRUN")
[ -x "$simrun" ] || die "no simrun executable at $simrun"

# --- 2. the cluster -----------------------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/simrun-slurm.XXXXXX")
pids=()
job=""
cleanup() {
  set +e
  if [ -n "$job" ]; then scancel "$job" 2>/dev/null; fi
  # Daemons in reverse order of start, by the process ids this script got when it started them.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

host=$(hostname -s)
mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/logs" "$work/results"
chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
socket="$work/munge/munge.socket"

cat >"$work/slurm.conf" <<CONF
# Written by tools/slurm/run-local-cluster.sh: one node, this machine, nothing kept afterwards.
ClusterName=simrunlocal
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/logs/slurmctld.log
SlurmdLogFile=$work/logs/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"

say "starting munged, slurmctld and slurmd on $host ($cpus CPUs, ports $ctld_port/$slurmd_port)"
munged -F --force --socket="$socket" --key-file="$work/munge/munge.key" --pid-file="$work/munge/munged.pid" \
  --log-file="$work/logs/munged.log" --seed-file="$work/munge/seed" >"$work/logs/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || die "munged did not start: $(tail -3 "$work/logs/munged.out" "$work/logs/munged.log" 2>/dev/null)"
slurmctld -D -f "$SLURM_CONF" >"$work/logs/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >"$work/logs/slurmd.out" 2>&1 &
pids+=($!)

# The node must be up before a job can start (bounded: 60 s).
state=""
for _ in $(seq 120); do
  state=$(sinfo -h -N -o %t 2>/dev/null | head -1 || true)
  case "$state" in idle | mix | alloc) break ;; esac
  sleep 0.5
done
case "$state" in
  idle | mix | alloc) ;;
  *) die "the node is not up (state '$state'): $(tail -5 "$work/logs/slurmctld.log" "$work/logs/slurmd.log" 2>/dev/null)" ;;
esac
say "node $host is $state"

# The shard variables of the calling environment must not leak into the array tasks.
unset SIMRUN_SHARD SIMRUN_SHARD_COUNT JOB_COMPLETION_INDEX

# The FAIL lines and the exit code: the verdict as a user reads it.
verdict() { grep -E '^(FAIL|CRASH) at seed' "$1" || echo "no failure"; }

report=()
check_variant() {
  local variant=$1 results="$work/results/$1"
  mkdir -p "$results"
  say "$variant: submitting a $tasks-task array over seeds 0..<$seeds"
  local start end
  start=$(date +%s.%N)
  job=$(SIMRUN="$simrun" SIMRUN_RESULTS="$results" sbatch --parsable --array="0-$((tasks - 1))" \
    --chdir="$work" --output="$work/logs/$variant-%A_%a.log" \
    "$repo/tools/slurm/fuzz-array.sbatch" "$scenario" --variant "$variant" --seeds "0..<$seeds")
  local waited=0
  while [ -n "$(squeue -h -j "$job" 2>/dev/null)" ]; do
    if ! awk -v w="$waited" -v limit="$wait_seconds" 'BEGIN { exit !(w < limit) }'; then
      die "$variant: array job $job still running after $wait_seconds s"
    fi
    sleep 0.2
    waited=$(awk -v w="$waited" 'BEGIN { print w + 0.2 }')
  done
  end=$(date +%s.%N)
  job=""
  # Each task's verdict and summary (not its progress lines or timeline).
  for log in "$work/logs/$variant"-*.log; do
    grep -E '^(fuzz |FAIL|CRASH|summary|interrupted|simrun:)' "$log" | sed "s|^|  $(basename "$log" .log): |" >&2 || true
  done

  local merged=0 single=0
  "$simrun" merge "$results" --out "$work/merged-$variant" >"$work/merge-$variant.txt" 2>&1 || merged=$?
  "$simrun" fuzz "$scenario" --variant "$variant" --seeds "0..<$seeds" --jobs "$cpus" --no-show \
    --out "$work/single-$variant" >"$work/single-$variant.txt" 2>/dev/null || single=$?
  sed 's/^/  merge: /' "$work/merge-$variant.txt" >&2
  [ "$merged" = "$single" ] || die "$variant: merge exited $merged, one machine $single"
  [ "$(verdict "$work/merge-$variant.txt")" = "$(verdict "$work/single-$variant.txt")" ] ||
    die "$variant: merged verdict '$(verdict "$work/merge-$variant.txt")' differs from one machine's '$(verdict "$work/single-$variant.txt")'"
  say "$variant: merged verdict = one machine's: exit $merged, $(verdict "$work/merge-$variant.txt")"

  # shards x schedules/s: every shard's schedules over the array's wall time (submit to last task
  # end), beside one machine's rate with --jobs CPUS over the same seeds.
  local schedules one
  schedules=$(grep -ho '"schedules" *: *[0-9]*' "$results"/shard-*.json | grep -o '[0-9]*$' | awk '{ s += $1 } END { print s + 0 }')
  one=$(grep -o '^summary: .*' "$work/single-$variant.txt" | grep -o '([0-9]*/s)' | tr -d '(/s)')
  report+=("$(awk -v v="$variant" -v t="$tasks" -v c="$cpus" -v n="$schedules" -v s="$start" -v e="$end" -v one="${one:-0}" \
    'BEGIN { printf "%s: %d shards on %d CPUs: %d schedules in %.2f s wall (submit to last task end): %.0f schedules/s; one machine, --jobs %d: %d schedules/s", v, t, c, n, e - s, n / (e - s), c, one }')")
}

check_variant buggy
check_variant fixed

# A lost shard is never a silent pass: without shard 2's result, merge fails and names its seeds.
mkdir -p "$work/dropped"
for file in "$work/results/fixed"/shard-*.json; do
  [ "$(basename "$file")" = "shard-1.json" ] || cp "$file" "$work/dropped/"
done
dropped=0
"$simrun" merge "$work/dropped" --out "$work/merged-dropped" >"$work/merge-dropped.txt" 2>&1 || dropped=$?
sed 's/^/  merge without shard 2: /' "$work/merge-dropped.txt" >&2
[ "$dropped" = 66 ] || die "merge without shard 2 exited $dropped, not 66"
grep -q "missing" "$work/merge-dropped.txt" || die "merge without shard 2 did not name the missing seeds"
say "merge without shard 2's result: exit 66, names the missing seeds"

for line in "${report[@]}"; do echo "$line"; done
say "every check passed"
