# The one-node Slurm cluster on localhost that tests/slurm/run.sh and tests/slurm/measure.sh
# use, sourced by them: `start_cluster` installs Slurm from Debian's packages if needed, writes
# /etc/slurm/slurm.conf, starts munge, slurmctld and slurmd and waits for the node to be idle
# (calling the caller's `logs` function when something fails); `stop_cluster` stops the
# daemons it started. Needs root.
S=/tmp/evomcts-slurm-ci

stop_cluster() {
    for p in "$S/slurmd.pid" "$S/slurmctld.pid"; do
        [ -f "$p" ] && kill "$(cat "$p")" 2>/dev/null || true
    done
}

start_cluster() {
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

    stop_cluster
    rm -rf "$S"
    mkdir -p "$S/state" "$S/spool"
    H=$(hostname -s)
    # At least 4 CPUs, so a driver job of 3 tasks fits a 2-core machine (config_overrides: slurmd
    # trusts the configured count).
    C=$(nproc)
    [ "$C" -ge 4 ] || C=4
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
SlurmdParameters=config_overrides
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
}
