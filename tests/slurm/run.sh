#!/usr/bin/env bash
# The Slurm end-to-end test of .ci/run: installs Slurm from Debian's packages if needed, starts
# a one-node cluster on localhost, runs tests/slurm/tiny.ron as the job array that
# `evomcts slurm` writes, waits for the merge job, and checks that every table equals the one a
# local run of the same spec produces. Fails with the daemons' logs if the cluster won't start.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=$(realpath "${1:-target/release/evomcts}")
S=/tmp/evomcts-slurm-ci
W=$(mktemp -d /tmp/evomcts-slurm-test.XXXXXX)
# The run folder's name holds a space, a quote and shell syntax: the scripts must quote it
# for the shell and for Slurm's own reading of #SBATCH lines.
CL="$W/clu ster's \$(x)"

logs() {
    echo "---- slurm test failed: $*" >&2
    for f in "$S/slurmctld.log" "$S/slurmd.log" "$CL"/slurm/logs/*; do
        [ -f "$f" ] && { echo "==== $f" >&2; tail -n 40 "$f" >&2; }
    done
    exit 1
}
teardown() {
    for p in "$S/slurmd.pid" "$S/slurmctld.pid"; do
        [ -f "$p" ] && kill "$(cat "$p")" 2>/dev/null || true
    done
}
trap teardown EXIT

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    bash tests/apt-install.sh slurm-wlm munge
fi
[ -s /etc/munge/munge.key ] || mungekey --create --keyfile=/etc/munge/munge.key
chown munge:munge /etc/munge/munge.key
chmod 600 /etc/munge/munge.key
install -d -o munge -g munge -m 0755 /run/munge
pgrep -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged
munge -n | unmunge >/dev/null || logs "munge does not work"

teardown
rm -rf "$S"
mkdir -p "$S/state" "$S/spool"
H=$(hostname -s)
C=$(nproc)
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=evomcts-ci
SlurmctldHost=$H(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
MailProg=/bin/true
DependencyParameters=kill_invalid_depend
ReturnToService=2
NodeName=$H NodeAddr=127.0.0.1 CPUs=$C RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=$H Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld || logs "slurmctld did not start"
slurmd || logs "slurmd did not start"
for _ in $(seq 120); do
    [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && break
    sleep 0.5
done
[ "$(sinfo -h -o %t)" = idle ] || logs "the node never became idle"

"$BIN" slurm tests/slurm/tiny.ron --tasks 3 --out "$CL" --cpus-per-task 1 --mem 200M --time 00:10:00
array=$(sbatch --parsable "$CL/slurm/league.sbatch") || logs "sbatch of the array failed"
merge=$(sbatch --parsable --wait --dependency=afterok:"$array" --kill-on-invalid-dep=yes \
    "$CL/slurm/merge.sbatch") || logs "the merge job failed"
scontrol show job "$merge" | grep -q "JobState=COMPLETED" || logs "the merge job did not complete"
[ -s "$CL/slurm/logs/merge.out" ] || logs "the merge job's log is not where #SBATCH --output says"

"$BIN" league tests/slurm/tiny.ron --out "$W/local" --threads 2 --quiet >/dev/null
for f in standings.csv ratings.csv statistics.csv win_rates.csv matches.csv games.csv; do
    cmp "$W/local/$f" "$CL/$f" || logs "$f of the cluster run differs from the local run"
done
echo "slurm: 3 array tasks + merge job reproduced the local league's tables"
rm -rf "$W"
