#!/bin/sh
# t700: the Slurm job array of docs/STORE.md on a real single-node cluster
# (issue #22). The two blocks of that section (gen.sh, and the commands
# that submit it and its merge) are taken from the markdown and run
# unchanged: an 8-shard run with one task requeued while it runs, and an
# 8-shard run with one failing task, submitted again. Each merged pack is
# compared, byte for byte, with the same run made on one machine.
# Needs root, slurmctld, slurmd, slurm-client and munge (make check-cluster).
# KEEP=1 keeps the temporary directory (logs, job outputs, databases).
. "$(dirname "$0")/../cli/lib.sh"
. "$TOP/tests/cluster/cluster.sh"

# The daemons and jobs are stopped whatever ends the test; a signal ends
# it through exit, which runs the EXIT trap.
trap 'cluster_stop; [ -n "${KEEP:-}" ] || rm -rf "$TMP"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# munged refuses a socket below a directory not searchable by all
chmod 755 "$TMP"
if cluster_start "$TMP/cluster"; then ok; else
    not_ok "a single-node Slurm cluster starts"
    done_testing
    exit
fi

# --- the documented blocks --------------------------------------------------
awk '/^### Slurm job array$/ { in_s = 1; next }
     in_s && /^##/ { exit }
     in_s && /^```sh$/ { n++; out = n == 1 ? "gen.sh" : "submit.sh"; next }
     in_s && /^```$/ { out = ""; next }
     out != "" { print > out }' "$TOP/docs/STORE.md"
head -n 1 gen.sh | grep -qx '#!/bin/sh' && grep -q 'sbatch' submit.sh && ok ||
    not_ok "docs/STORE.md's Slurm section holds gen.sh and the submit block"
mkdir bin && ln -s "$QUENCH" bin/quench

# submit VAR=VALUE...: the submit block, as documented, in the environment
# given; sets ARRAY and MERGE to the two job ids.
submit() {
    (
        # shellcheck disable=SC2163 # "$@" holds NAME=VALUE words
        export QN_CLUSTER="$CL_DIR" PATH="$TMP/bin:$PATH" "$@"
        . "$TMP/submit.sh"
        echo "array job $JOBID"
    ) >"$TMP/submit.out" 2>&1
    ARRAY=$(sed -n 's/^array job \([0-9]*\)$/\1/p' "$TMP/submit.out")
    MERGE=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$TMP/submit.out")
    if [ -n "$ARRAY" ] && [ -n "$MERGE" ]; then ok; else
        not_ok "submit block: no job ids"
        sed 's/^/    /' "$TMP/submit.out"
    fi
    # (checked at once: the array's tasks take seconds)
    expect_eq "$(job "$MERGE" JobState) $(job "$MERGE" Dependency)" \
        "PENDING afterok:${ARRAY}_*(unfulfilled)" "the merge job waits for the whole array"
}

# poll TENTHS CMD...: run CMD until it succeeds, at most TENTHS/10 seconds.
poll() {
    n=$1
    shift
    while [ "$n" -gt 0 ]; do
        "$@" && return 0
        sleep 0.1
        n=$((n - 1))
    done
    return 1
}
queued() { [ -n "$(squeue -h -o %i -j "$1" 2>/dev/null)" ]; }
not_queued() { ! queued "$@"; }
# job JOB FIELD: a field of scontrol's record of JOB (an id or ID_TASK).
job() {
    scontrol -o show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1
}
# finish JOBS: wait until the jobs (comma-separated) have left the queue.
finish() {
    poll 3000 not_queued "$1" && return 0
    not_ok "jobs $1 still queued after 300 s"
    squeue
    return 1
}
expect_tasks() { # array-job, the states of tasks 0..7, label
    got=$(scontrol -o show job "$1" 2>/dev/null | wc -l | tr -d ' ')
    for i in 0 1 2 3 4 5 6 7; do
        got="$got $(job "$1_$i" JobState)/$(job "$1_$i" ExitCode)"
    done
    expect_eq "$got" "$2" "$3"
}
# expect_merged ARRAY MERGE: the merge job ran once, successfully, and
# not before the array's last task ended (afterok).
expect_merged() {
    last=$(for i in 0 1 2 3 4 5 6 7; do job "$1_$i" EndTime; done | sort | tail -n 1)
    start=$(job "$2" StartTime)
    expect_eq "$(scontrol -o show job "$2" | wc -l | tr -d ' ') $(job "$2" JobState)/$(job "$2" ExitCode)" \
        "1 COMPLETED/0:0" "the merge job ran once and succeeded"
    # ISO times: the later one sorts last
    later=$(printf '%s\n%s\n' "$last" "$start" | sort | tail -n 1)
    [ -n "$last" ] && [ "$later" = "$start" ] && ok ||
        not_ok "the merge started at $start, before the array's end at $last"
}
# export_pack DB PACK FILE: the pack as JSON, from quench.
export_pack() {
    q export "$2" --format json --db "$1" -o "$3"
    expect_rc 0 "export $2 from $1"
}
DONE8="8 COMPLETED/0:0 COMPLETED/0:0 COMPLETED/0:0 COMPLETED/0:0 COMPLETED/0:0 COMPLETED/0:0 COMPLETED/0:0 COMPLETED/0:0"

# --- 1. eight shards, task 3 requeued while it runs -------------------------
# Task 3 must be requeued mid-run, and generate keeps getting faster (the
# hard 7x7 run once used took 3 s a shard, then 0.4 s; a 19x19 one 3 s,
# then 0.6 s: CI saw the task end first, twice). So the test holds the
# task itself: it stops task 3's quench (SIGSTOP) as soon as it exists,
# lets it run in slices of 50 ms until it has committed puzzles, requeues
# it while it is stopped, and lets it go on only once Slurm's SIGTERM is
# pending. A 19x19 classic board (kernel of dimension 16) keeps each
# task alive for a second or more, so that its process is found first.
sed 's/\[9, 9\]/[19, 19]/; s/9x9/19x19/g' \
    "$TOP/rules/classic-9x9.yaml" >classic-19x19.yaml
grep -q '^board: {grid: \[19, 19\]' classic-19x19.yaml && ok ||
    not_ok "the 19x19 rule is derived from rules/classic-9x9.yaml"
R19=classic-19x19.yaml
SEED_A=5eed0a
submit SHARDS=8 RULE="$R19" COUNT=480 SEED=$SEED_A PACK=hard OUT=main \
    "OPTS=--batch 2"
stored3() { sqlite3 -cmd '.timeout 2000' main/shard-3.db \
    "SELECT status || ' ' || stored FROM runs" 2>/dev/null; }
# task 3's quench: the process writing main/shard-3.db that carries this
# cluster's mark (gen.sh execs quench, so it is the batch step itself)
pid3() {
    for c in $(grep -las -- 'main/shard-3\.db' /proc/[0-9]*/cmdline); do
        p=${c#/proc/}
        p=${p%/cmdline}
        grep -qzxF "QN_CLUSTER=$CL_DIR" "/proc/$p/environ" 2>/dev/null &&
            [ "$(readlink "/proc/$p/exe")" = "$(readlink -f "$QUENCH")" ] &&
            echo "$p" && return 0
    done
    return 1
}
found3() { P3=$(pid3) && kill -STOP "$P3" 2>/dev/null; }
# a 50 ms slice of task 3's run; true once it has committed puzzles and
# is still short of half its ~60 (mid-run), false while it has none
slice3() {
    kill -CONT "$P3" 2>/dev/null || return 2
    sleep 0.05
    kill -STOP "$P3" 2>/dev/null || return 2
    stored3 | grep -qx 'running [1-9]\|running [12][0-9]'
}
# SIGTERM (15: bit 14) pending on the process, or the process gone
term3() {
    m=$(sed -n 's/^ShdPnd:[[:space:]]*//p' "/proc/$P3/status" 2>/dev/null) ||
        return 0
    [ -z "$m" ] || [ $((0x$m & 0x4000)) -ne 0 ]
}
P3=
if poll 1200 found3; then
    n=0
    while [ $n -lt 400 ] && ! slice3; do n=$((n + 1)); done
    if stored3 | grep -qx 'running [1-9]\|running [12][0-9]'; then
        ok
        echo "# task 3 requeued at '$(stored3)' of about 60, after $n slices"
        scontrol requeue "${ARRAY}_3"
        rc=$?
        expect_rc 0 "scontrol requeue of task 3 while it runs"
        poll 300 term3 || not_ok "no SIGTERM reached task 3 within 30 s"
    else
        not_ok "task 3 stored no puzzles in 400 slices: run '$(stored3)'"
    fi
    kill -CONT "$P3" 2>/dev/null
else
    not_ok "task 3's quench never seen running: $(job "${ARRAY}_3" JobState), run '$(stored3)'"
fi
finish "$ARRAY,$MERGE"
expect_tasks "$ARRAY" "$DONE8" "every task of the array completed"
expect_eq "$(job "${ARRAY}_3" Restarts)" 1 "task 3 ran twice (Restarts=1)"
grep -q 'terminated (SIGTERM): [0-9]* puzzles stored' "slurm-${ARRAY}_3.out" && ok ||
    not_ok "task 3's first run stopped on SIGTERM and said what it stored"
# slurmstepd saw that run end with status 143 (job_rc is a wait status:
# 143 << 8); Slurm keeps only the last run's status (ExitCode above)
id3=$(job "${ARRAY}_3" JobId)
grep -q "\[$id3.batch\] job $id3 completed with slurm_rc = 0, job_rc = $((143 * 256))\$" "$CL_DIR/slurmd.log" && ok ||
    not_ok "slurmd logs task 3's first run ending with status 143"
grep -q 'resuming run [0-9]*: [1-9][0-9]* puzzles already stored' "slurm-${ARRAY}_3.out" && ok ||
    not_ok "task 3's second run resumed its shard"
expect_merged "$ARRAY" "$MERGE"
q db check --db main/merged.db
expect_rc 0 "db check of the merged database"
# the same run on one machine, and shard 3 alone, never interrupted
q generate "$R19" --count 480 --seed $SEED_A --batch 2 --jobs 2 --db one.db --pack hard
expect_rc 0 "the single-machine run"
export_pack one.db hard one.json
export_pack main/merged.db hard merged.json
cmp -s one.json merged.json && ok ||
    not_ok "the merged pack exports the single-machine run's bytes"
q generate "$R19" --count 480 --seed $SEED_A --batch 2 --jobs 2 --shard 3/8 --db s3.db --pack hard
export_pack s3.db hard s3.json
export_pack main/shard-3.db hard shard3.json
cmp -s s3.json shard3.json && ok ||
    not_ok "the requeued shard holds what shard 3 holds when never interrupted"

# --- 2. a shard that fails, then the array submitted again ------------------
# Task 5's database path is a directory: quench cannot open it (66).
R5=$TOP/rules/classic-5x5.yaml
SEED_B=5eed0b
mkdir -p fail/shard-5.db
submit SHARDS=8 RULE="$R5" COUNT=4000 SEED=$SEED_B PACK=easy OUT=fail
finish "$ARRAY,$MERGE"
expect_tasks "$ARRAY" "8 COMPLETED/0:0 COMPLETED/0:0 COMPLETED/0:0 COMPLETED/0:0 COMPLETED/0:0 FAILED/66:0 COMPLETED/0:0 COMPLETED/0:0" \
    "task 5 failed (66, its database is a directory), the others completed"
grep -q 'shard-5.db: cannot open database' "slurm-${ARRAY}_5.out" && ok ||
    not_ok "task 5's output names its database"
expect_eq "$(job "$MERGE" JobState) $(job "$MERGE" Reason)" "CANCELLED DependencyNeverSatisfied" \
    "the merge job is cancelled, never run"
[ ! -e fail/merged.db ] && ok || not_ok "nothing merged"
sha256sum fail/shard-[0-46-7].db >sums
rmdir fail/shard-5.db
submit SHARDS=8 RULE="$R5" COUNT=4000 SEED=$SEED_B PACK=easy OUT=fail
finish "$ARRAY,$MERGE"
expect_tasks "$ARRAY" "$DONE8" "submitted again, every task completed"
expect_merged "$ARRAY" "$MERGE"
sha256sum -c --quiet sums >/dev/null 2>&1 && ok ||
    not_ok "the finished shards' databases are byte for byte unchanged"
again=
for i in 0 1 2 3 4 6 7; do
    grep -q '^quench: [0-9]* puzzles of finished run 1, from the database$' "slurm-${ARRAY}_$i.out" ||
        again="$again $i"
done
expect_eq "$again" "" "finished tasks print their run from the database, not made again"
grep -q 'from the database\|resuming' "slurm-${ARRAY}_5.out" &&
    not_ok "task 5 made its shard from the start" || ok
q db check --db fail/merged.db
expect_rc 0 "db check of the merged database"
q generate "$R5" --count 4000 --seed $SEED_B --db one-b.db --pack easy
expect_rc 0 "the single-machine run"
export_pack one-b.db easy one-b.json
export_pack fail/merged.db easy merged-b.json
cmp -s one-b.json merged-b.json && ok ||
    not_ok "the merged pack exports the single-machine run's bytes"

[ "$FAIL" -eq 0 ] || cluster_logs
if cluster_stop; then ok; else not_ok "every process the test started is gone"; fi
done_testing
