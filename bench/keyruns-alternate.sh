#!/bin/sh
# keyruns-alternate.sh N REPS LABEL=QUENCH...: issue #35 section 1's
# generate --db measured by hand (docs/STORE-KEYRUNS.md, "A real generate
# --db ..."): REPS rounds, each running every LABEL's binary once in turn
# (alternating, so that a shared machine's load falls on all alike) on N
# classic 7x7 puzzles, --seed 1 --jobs 2, into a fresh database. Prints
# a line a run: round, label, exit status, user and system CPU seconds of
# every thread (/usr/bin/time), wall seconds, the database's bytes, the
# load average at its start. Run from the project's root; files go to
# $KR_DIR (default /tmp/keyruns-alternate), kept for checks (stdout in
# LABEL.out, the database in LABEL.db).
set -u
N=$1 REPS=$2
shift 2
D=${KR_DIR:-/tmp/keyruns-alternate}
mkdir -p "$D"
echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ $i -lt "$REPS" ]; do
    i=$((i + 1))
    for lp in "$@"; do
        l=${lp%%=*} q=${lp#*=}
        rm -f "$D/$l.db" "$D/$l.db-wal" "$D/$l.db-shm"
        la=$(cut -d' ' -f1 /proc/loadavg)
        /usr/bin/time -f "%U %S %e" -o "$D/$l.time" "$q" -q generate \
            rules/classic-7x7.yaml -n "$N" --seed 1 --jobs 2 \
            --db "$D/$l.db" >"$D/$l.out"
        rc=$?
        echo "$i $l rc=$rc $(cat "$D/$l.time") bytes=$(stat -c %s "$D/$l.db") load=$la"
    done
done
echo "end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
