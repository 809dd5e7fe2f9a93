# cluster.sh: sourced by tests/cluster/*.sh. Starts a single-node Slurm
# cluster (munged, slurmctld, slurmd) as root in a temporary directory and
# stops everything it started, by pid, whatever happens. It never touches
# /etc/munge, /etc/slurm or systemd, so a system munge or Slurm goes on
# undisturbed: its own key, socket, ports, state, spool, logs and pids.
#
# cluster_start DIR   start the daemons with their files under DIR (whose
#                     parents munged wants searchable by all); sets
#                     SLURM_CONF (exported) and CL_* variables; returns 1
#                     with a message if the node is not idle in time
# cluster_stop        cancel the jobs, stop the daemons, wait for them;
#                     1 if a process it started is still there
# cluster_marked      the pids of every process this cluster started
#
# Every daemon starts with QN_CLUSTER=DIR in its environment and every job
# is submitted with it, so slurmstepd (which outlives slurmd by design)
# and the jobs' processes are found by that mark, never by a name.

CL_DIR=
CL_PIDS=
CL_MUNGED=
CL_CTLD=
CL_SLURMD=

cluster_need() {
    if [ "$(id -u)" != 0 ]; then
        echo "cluster: needs root (slurmd launches jobs as their user)" >&2
        return 1
    fi
    for c in munged mungekey slurmctld slurmd sbatch squeue scontrol sinfo python3; do
        command -v "$c" >/dev/null && continue
        echo "cluster: '$c' not found: install slurmctld slurmd slurm-client munge (scripts/install-deps)" >&2
        return 1
    done
}

# Two ports nothing listens on now (the kernel picks them), for slurmctld
# and slurmd, so a system Slurm on 6817/6818 or another test run is left
# alone.
free_ports() {
    python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss:
    s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])'
}

# The node as slurmd itself sees it (CPUs, sockets, cores, memory), so the
# configuration never claims more than the machine has (slurmd would
# drain the node) and the tasks run on its real cores.
write_conf() { # dir host ctld_port slurmd_port
    node=$(slurmd -C | sed -n '1s/^NodeName=[^ ]* //p')
    cat >"$1/slurm.conf" <<EOF
ClusterName=quenchtest
SlurmctldHost=$2(127.0.0.1)
SlurmctldPort=$3
SlurmdPort=$4
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# cred_expire is also how long a requeued job waits before it may start
# again (default 120 s)
AuthInfo=socket=$1/munge.socket,cred_expire=10
StateSaveLocation=$1/state
SlurmdSpoolDir=$1/spool
SlurmctldPidFile=$1/slurmctld.pid
SlurmdPidFile=$1/slurmd.pid
SlurmctldLogFile=$1/slurmctld.log
SlurmdLogFile=$1/slurmd.log
PlugStackConfig=$1/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$1/jobcomp.log
ReturnToService=2
KillWait=5
# verbose: slurmd logs each batch script's exit status (job_rc)
SlurmdDebug=verbose
NodeName=$2 NodeAddr=127.0.0.1 $node State=UNKNOWN
PartitionName=test Nodes=$2 Default=YES MaxTime=INFINITE State=UP
EOF
    : >"$1/plugstack.conf"
}

# Start "$@" in the background with the mark, record its pid.
spawn() { # log cmd...
    log=$1
    shift
    env QN_CLUSTER="$CL_DIR" "$@" >>"$log" 2>&1 </dev/null &
    CL_PIDS="$! $CL_PIDS"
}

cluster_start() { # dir
    cluster_need || return 1
    CL_DIR=$1
    mkdir -p "$CL_DIR/state" "$CL_DIR/spool"
    chmod 755 "$CL_DIR"
    CL_HOST=$(hostname -s)
    # shellcheck disable=SC2046
    set -- $(free_ports)
    write_conf "$CL_DIR" "$CL_HOST" "$1" "$2"
    SLURM_CONF=$CL_DIR/slurm.conf
    export SLURM_CONF
    mungekey --create --keyfile="$CL_DIR/munge.key" || return 1
    # munged 0.5.15 runs as root without --force (the Debian service runs
    # it as user munge); -F keeps it in the foreground, so $! is its pid.
    # It refuses a socket below a directory not searchable by all.
    spawn "$CL_DIR/munged.out" munged -F --key-file="$CL_DIR/munge.key" \
        --socket="$CL_DIR/munge.socket" --pid-file="$CL_DIR/munged.pid" \
        --seed-file="$CL_DIR/munged.seed" --log-file="$CL_DIR/munged.log"
    CL_MUNGED=$!
    until_time 10 munge_up || {
        echo "cluster: munged did not start:" >&2
        cat "$CL_DIR/munged.out" >&2
        return 1
    }
    spawn "$CL_DIR/slurmctld.out" slurmctld -D
    CL_CTLD=$!
    spawn "$CL_DIR/slurmd.out" slurmd -D -N "$CL_HOST"
    CL_SLURMD=$!
    until_time 60 node_idle && return 0
    echo "cluster: node $CL_HOST not idle after 60 s:" \
        "$(timeout 10 sinfo -h -o '%T %E' 2>&1)" >&2
    cluster_logs >&2
    return 1
}

munge_up() {
    alive "$CL_MUNGED" || return 2
    [ -S "$CL_DIR/munge.socket" ]
}
node_idle() {
    [ "$(timeout 10 sinfo -h -n "$CL_HOST" -o %T 2>/dev/null)" = idle ]
}

# until_time SECONDS CMD...: run CMD every 0.2 s until it succeeds (0),
# gives up (status 2) or SECONDS have passed (1).
until_time() {
    end=$(($(date +%s) + $1))
    shift
    while :; do
        "$@"
        case $? in 0) return 0 ;; 2) return 1 ;; esac
        [ "$(date +%s)" -lt "$end" ] || return 1
        sleep 0.2
    done
}

cluster_logs() {
    for f in munged.log slurmctld.log slurmd.log; do
        [ -f "$CL_DIR/$f" ] || continue
        echo "--- $CL_DIR/$f (last lines)"
        tail -n 15 "$CL_DIR/$f"
    done
}

# A pid that runs: a zombie (killed, not yet reaped by init) has ended.
alive() {
    kill -0 "$1" 2>/dev/null || return 1
    [ "$(sed 's/.*) //; s/ .*//' "/proc/$1/stat" 2>/dev/null)" != Z ]
}

cluster_marked() {
    [ -n "$CL_DIR" ] || return 0
    for e in /proc/[0-9]*/environ; do
        grep -qzxF "QN_CLUSTER=$CL_DIR" "$e" 2>/dev/null || continue
        p=${e#/proc/}
        echo "${p%/environ}"
    done
}

no_jobs() { [ -z "$(timeout 10 squeue -h -o %i 2>/dev/null)" ]; }
gone() { # pids
    for p in "$@"; do alive "$p" && return 1; done
    return 0
}

# Stop pid: SIGTERM, then SIGKILL after 10 s; reap it if it is our child.
stop_pid() {
    if alive "$1"; then
        kill -TERM "$1" 2>/dev/null
        until_time 10 gone "$1" || kill -KILL "$1" 2>/dev/null
    fi
    wait "$1" 2>/dev/null
}

cluster_stop() {
    [ -n "$CL_DIR" ] || return 0
    # Jobs first, while slurmctld can still end them cleanly: slurmstepd
    # and the job's processes outlive slurmd by design.
    if alive "${CL_CTLD:-0}" && alive "${CL_MUNGED:-0}"; then
        timeout 10 scancel --user=root --quiet 2>/dev/null
        until_time 30 no_jobs
    fi
    for p in ${CL_SLURMD:-} ${CL_CTLD:-}; do stop_pid "$p"; done
    # Whatever carries the mark now (a step whose slurmd was gone, a
    # daemon's helper) is ours and is killed.
    # shellcheck disable=SC2046
    set -- $(cluster_marked | grep -vxF "${CL_MUNGED:-0}")
    [ $# -eq 0 ] || kill -KILL "$@" 2>/dev/null
    until_time 10 gone "$@"
    for p in ${CL_MUNGED:-} $CL_PIDS; do stop_pid "$p"; done
    left=$(cluster_marked | tr '\n' ' ')
    CL_DIR=
    [ -z "$left" ] && return 0
    echo "cluster: processes left behind: $left" >&2
    return 1
}
