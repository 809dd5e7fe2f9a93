#!/bin/sh
# t470: databases are never hurt by the commands around them (issue #17,
# part 2): read-only commands never create a database; `db merge` checks
# every input before OUT changes, names a damaged input, and knows OUT by
# its device and inode whatever it is called; two copies of one
# `generate --db` never share a run, so every count stays true.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules
C3=$R/classic-3x3.yaml
C5=$R/classic-5x5.yaml
C9=$R/classic-9x9.yaml

# 1. Read-only commands: a missing --db is an error (66), not a new file.
#    And (1b, below) they read a database where they cannot write.
for cmd in "pack list" "pack show p" "pack show p --svg" "pack show p --json" \
           "db stats" "db check" "export p --format json" \
           "pack add p 1" "pack remove p 1" "pack move p 1 1" "pack sort p" \
           "pack rename p q" "pack delete p"; do
    # shellcheck disable=SC2086
    q $cmd --db typo.db
    expect_rc 66 "$cmd on a missing database: exit 66"
    expect_err "typo.db" "$cmd on a missing database: names it"
    expect_eq "$(ls typo.db* 2>/dev/null)" "" "$cmd created no database"
done
echo 000/000/001 >one.txt
q validate "$C3" one.txt --db typo.db
expect_rc 66 "validate --db (no --into) on a missing database: exit 66"
expect_eq "$(ls typo.db* 2>/dev/null)" "" "validate --db created no database"
QUENCH_DB=env-typo.db "$QUENCH" pack list >/dev/null 2>&1
expect_eq "$?" 66 "pack list on a missing \$QUENCH_DB: exit 66"
expect_eq "$(ls env-typo.db* 2>/dev/null)" "" "pack list created no \$QUENCH_DB"
q pack create fresh --db made.db
expect_rc 0 "pack create still creates the database"
# a database that is there but cannot be opened is a missing input too
mkdir dir.db
for cmd in "pack list" "db stats" "generate $C3 -n 2 --seed 1"; do
    # shellcheck disable=SC2086
    q $cmd --db dir.db
    expect_rc 66 "$cmd on a directory as the database: exit 66"
    expect_err "dir.db: cannot open database: Is a directory" "$cmd on a directory: says why"
done
cp made.db locked.db && chmod 000 locked.db && chmod 755 "$TMP"
as_user "$QUENCH" pack list --db "$TMP/locked.db" >/dev/null 2>"$TMP/err"
rc=$?
expect_rc 66 "pack list on an unreadable database: exit 66"
expect_err "Permission denied" "pack list on an unreadable database: says why"

# 2. db merge: inputs checked first, OUT untouched when one is bad.
q -q generate "$C3" -n 5 --seed 1 --db a.db --pack pa
expect_rc 0 "set-up: shard a"
q -q generate "$C5" -n 40 --seed 2 --db b.db --pack pb
expect_rc 0 "set-up: shard b"
q -q generate "$C5" -n 7 --seed 3 --db out.db --pack po
expect_rc 0 "set-up: OUT with content"
# damaged: the page type byte of the puzzles table's root page made
# invalid (a b-tree page is type 2, 5, 10 or 13: SQLite file format 1.6)
cp b.db damaged.db
python3 - damaged.db <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
root = db.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'puzzles'").fetchone()[0]
size = db.execute("PRAGMA page_size").fetchone()[0]
db.close()
with open(sys.argv[1], "r+b") as f:
    f.seek((root - 1) * size + (100 if root == 1 else 0))
    f.write(b"\xff")
PY
cp b.db newer.db
python3 -c "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA user_version = 9999')" newer.db
cp b.db older.db
python3 -c "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA user_version = 0')" older.db
sum_out() { cat out.db out.db-wal 2>/dev/null | cksum; }
before=$(sum_out)
for bad in "nothere.db:66:cannot open" "damaged.db:74:damaged" \
           "newer.db:78:newer" "older.db:65:schema version 0"; do
    f=${bad%%:*} rest=${bad#*:}
    want=${rest%%:*} says=${rest#*:}
    q db merge out.db a.db "$f"
    expect_rc "$want" "merge with a bad last input $f: exit $want"
    expect_err "$f: " "merge with $f: the message names $f"
    expect_err "$says" "merge with $f: says '$says'"
    expect_eq "$(sum_out)" "$before" "merge with $f: OUT untouched"
    q db merge new-out.db a.db "$f"
    expect_eq "$(ls new-out.db* 2>/dev/null)" "" "merge with $f: no OUT created"
    q db merge new-dir/out.db a.db "$f"
    expect_rc "$want" "merge into a new directory with $f: exit $want"
    expect_eq "$(ls -d new-dir 2>/dev/null)" "" \
        "merge with $f: no directory for OUT created"
done
# the first input damaged: its copy fails, or the check stops it first
q db merge new-out.db damaged.db a.db
expect_rc 74 "merge with a damaged first input: exit 74"
expect_err "damaged.db: " "merge with a damaged first input: names it"
expect_eq "$(ls new-out.db* 2>/dev/null)" "" \
    "merge with a damaged first input: no OUT created"
q db merge out.db damaged.db a.db
expect_eq "$(sum_out)" "$before" "merge with a damaged first input: OUT untouched"
q db check --db out.db
expect_rc 0 "OUT still passes db check"

# OUT under another name: refused at once (64), not a 5 s wait for a lock
ln -s out.db link-to-out.db
ln out.db hard-out.db
for other in link-to-out.db hard-out.db ./out.db; do
    q db merge out.db a.db "$other"
    expect_rc 64 "merge OUT $other (OUT itself): exit 64"
    expect_err "is OUT" "merge OUT $other: says it is OUT"
done
expect_eq "$(sum_out)" "$before" "OUT untouched by the refusals"
q db merge out.db a.db b.db
expect_rc 0 "a good merge still merges"

# 3. Two copies of one generate --db: the second is refused (75) while the
#    first writes, and the first's counts are true. The second names the
#    other writer whichever lock it meets first: the first's claim on the
#    run, or SQLite's write lock, which the first holds while it generates
#    a batch (a second that waited for it was refused "database is locked"
#    once the busy timeout ran out). The first writes into a pipe no one
#    reads: after its first commit it blocks there, holding its claim and
#    no transaction, so each case below is what it says, at any speed.
ARGS="$C9 -n 1000000 --seed 11 --batch 200 --db two.db"
mkfifo first.fifo holder.fifo
# shellcheck disable=SC2086
"$QUENCH" -q generate $ARGS >first.fifo 2>first.err &
first=$!
exec 3<first.fifo
stored() { # the run's stored count, once a batch is in
    python3 - two.db <<'PY' 2>/dev/null
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
print(db.execute("SELECT stored FROM runs").fetchone()[0])
PY
}
# a batch of 200 9x9 puzzles (120 kB) is more than a pipe holds (64 kB)
i=0
while [ $i -lt 3000 ] && [ "$(stored)" = "" -o "$(stored)" = 0 ]; do
    sleep 0.1
    i=$((i + 1))
done
[ "$(stored)" = 200 ] && ok || not_ok "set-up: the first committed one batch ($(stored))"
# (not through q: the allocation-failure sweep runs its commands in a
# copy of the directory, where no first copy is running)
# shellcheck disable=SC2086
"$QUENCH" -q generate $ARGS >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 75 "the same generate --db while it runs: exit 75"
expect_err "being written by another process" "the second says why"
expect_eq "$(grep -c '"type":"puzzle"' "$TMP/out")" 0 "the second prints no puzzle"
# SQLite's write lock held by another connection (as the first holds it
# while it generates): the second still names the run's writer, at once
cat >holder.py <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=600, isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()  # until the test closes the pipe
db.execute("ROLLBACK")
PY
python3 holder.py two.db <holder.fifo >holder.out &
holder=$!
exec 4>holder.fifo
i=0
while [ $i -lt 3000 ] && ! grep -q locked holder.out; do
    sleep 0.1
    i=$((i + 1))
done
grep -q locked holder.out && ok || not_ok "set-up: another connection holds the write lock"
# shellcheck disable=SC2086
QUENCH_BUSY_TIMEOUT=100 "$QUENCH" -q generate $ARGS >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 75 "the same generate --db while another holds the write lock: exit 75"
expect_err "being written by another process" "the second names the run's writer, not the lock"
expect_eq "$(grep -c '"type":"puzzle"' "$TMP/out")" 0 "the second prints no puzzle (lock held)"
exec 4>&-
wait $holder
expect_eq "$?" 0 "the lock's holder let go"
cat <&3 >first.jsonl &
drain=$!
exec 3<&-
kill -TERM $first
wait $first
expect_eq "$?" 143 "the first stops on SIGTERM"
wait $drain
python3 - two.db first.jsonl >counts.txt <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
runs = db.execute("SELECT id, stored, status FROM runs").fetchall()
stored_in_db = db.execute("SELECT count(*) FROM puzzles").fetchone()[0]
recs = [json.loads(l) for l in open(sys.argv[2])]
printed = sum(r["type"] == "puzzle" for r in recs)
emitted = recs[-1]["emitted"]
print(len(runs), runs[0][1], runs[0][2], stored_in_db, printed, emitted)
PY
set -- $(cat counts.txt)
expect_eq "$1" 1 "one run row"
expect_eq "$3" interrupted "the run is marked interrupted"
if [ "$2" = "$4" ] && [ "$4" = "$5" ] && [ "$5" = "$6" ]; then ok; else
    not_ok "counts disagree: run.stored $2, puzzles $4, printed $5, summary $6"
fi
# the claim goes with the process: the same command now resumes the run
: >third.jsonl
# shellcheck disable=SC2086
"$QUENCH" -q generate $ARGS >third.jsonl 2>third.err &
third=$!
i=0
while [ $i -lt 600 ] && kill -0 $third 2>/dev/null &&
      ! grep -q '"type":"puzzle"' third.jsonl; do
    sleep 0.1
    i=$((i + 1))
done
kill -TERM $third 2>/dev/null
wait $third
rc=$?
[ "$rc" -eq 143 ] && ok || not_ok "resume after the writer ended: exit $rc, want 143 ($(head -c 200 third.err))"

# 3b. The claim answers before SQLite's write lock is waited for: a
#     holder of run 1's claim that also holds the write lock (as a writer
#     busy with batch after batch nearly always does) still gets the
#     second copy refused as "being written by another process", at once,
#     not "database is locked" after the busy timeout.
python3 - two.db holder.ready <<'PY' &
import fcntl, os, sqlite3, struct, sys, time
F_OFD_SETLK = 37  # linux/fcntl.h
db = sqlite3.connect(sys.argv[1], isolation_level=None)
run = db.execute("SELECT id FROM runs").fetchone()[0]
fd = os.open(sys.argv[1] + "-lock", os.O_RDWR | os.O_CREAT, 0o666)
# struct flock: l_type, l_whence, l_start, l_len, l_pid (0 for OFD locks)
fcntl.fcntl(fd, F_OFD_SETLK, struct.pack("hh4xqqi4x", fcntl.F_WRLCK, 0, run, 1, 0))
db.execute("BEGIN IMMEDIATE")
open(sys.argv[2], "w").close()
time.sleep(60)
PY
holder=$!
trap 'kill $holder 2>/dev/null; rm -rf "$TMP"' EXIT
i=0
while [ $i -lt 300 ] && [ ! -e holder.ready ] && kill -0 $holder 2>/dev/null; do
    sleep 0.1
    i=$((i + 1))
done
if [ -e holder.ready ]; then
    # shellcheck disable=SC2086
    QUENCH_BUSY_TIMEOUT=2000 "$QUENCH" -q generate $ARGS >"$TMP/out" 2>"$TMP/err"
    rc=$?
    expect_rc 75 "the claim held with the write lock: exit 75"
    expect_err "being written by another process" "the claim is named, not the lock"
else
    not_ok "the claim and lock holder did not start"
fi
kill $holder 2>/dev/null
wait $holder 2>/dev/null
trap 'rm -rf "$TMP"' EXIT

# 1b. A database in a folder its reader cannot write (a package's share/,
#     read-only media). quench's databases are in WAL mode, which SQLite
#     reads through an index DB-shm it must create beside the file, so
#     every read failed ("attempt to write a readonly database"). The
#     read-only commands now open read-only, and read such a file in
#     SQLite's immutable mode when that is safe: no log DB-wal holding
#     changes not yet in the file, and nothing can change it (no write
#     permission bit on the file nor its folder; docs/STORE.md). Else they
#     say what to do. Root ignores file modes: the readers run as nobody.
chmod 755 "$TMP"
q -q generate "$C3" -n 5 --seed 3 --db rosrc.db --pack p
expect_rc 0 "1b: set-up"
q export p --format json --db rosrc.db -o ro-want.json
readers() { # the read-only commands, one a line
    cat <<'CMDS'
pack list
pack show p
pack show p --json
export p --format json
db stats
db check
CMDS
}
# ro_run DIR: every reader as nobody on DIR/q.db; "rc files" per line
ro_run() {
    readers | while read -r cmd; do
        # shellcheck disable=SC2086
        as_user "$QUENCH" $cmd --db "$1/q.db" >"$TMP/ro.out" 2>"$TMP/ro.err"
        echo "$? $(ls "$1" | tr '\n' ' ')"
        case $cmd in export*) cp "$TMP/ro.out" "$TMP/ro-got.json" ;; esac
    done
}
mkro() { # DIR FILE-MODE DIR-MODE: a copy of rosrc.db as DIR/q.db
    rm -rf "$1" && mkdir "$1" && cp rosrc.db "$1/q.db"
    chmod "$2" "$1/q.db" && chmod "$3" "$1"
}
# a file and its folder nobody may write: read, immutable, nothing made
mkro ro1 444 555
expect_eq "$(ro_run ro1 | sort -u)" "0 q.db " "1b: every reader reads a 0444 database in a 0555 folder, and makes nothing there"
cmp -s ro-got.json ro-want.json && ok || not_ok "1b: the export from the read-only folder is the export from the writable one"
as_user "$QUENCH" pack show p --db ro1/q.db >/dev/null 2>&1
expect_eq "$?" 0 "1b: pack show"
# a file its owner may write, in a folder the reader cannot: not safe to
# read without the index (a writer could change it meanwhile): 74, and
# what to do
mkro ro2 644 555
expect_eq "$(ro_run ro2 | sort -u)" "74 q.db " "1b: a 0644 file in a 0555 folder: exit 74, nothing made"
grep -q "ro2/q.db: cannot read the database where this user cannot write: SQLite needs an index ro2/q.db-shm beside it, and reads it without one only if nothing can change it; copy it to a folder you can write, or make it and its folder read-only for everyone (chmod a-w)" ro.err && ok || not_ok "1b: what to do ($(cat ro.err))"
# committed changes still in the log: with their index DB-shm (readable),
# SQLite reads them; without it the file alone would be stale: 74
rm -rf ro3 && mkdir ro3 && cp rosrc.db ro3/q.db
python3 - ro3/q.db <<'PY'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("PRAGMA wal_autocheckpoint = 0")
c.execute("UPDATE packs SET title = 'only in the log'")
c.commit()
os._exit(0)  # no checkpoint: the change stays in q.db-wal
PY
[ -s ro3/q.db-wal ] && [ -e ro3/q.db-shm ] && ok || not_ok "1b: set-up: a log with a change"
chmod 444 ro3/q.db ro3/q.db-wal ro3/q.db-shm && chmod 555 ro3
as_user "$QUENCH" pack list --db ro3/q.db >"$TMP/ro.out" 2>"$TMP/ro.err"
expect_eq "$?" 0 "1b: a log and its index: read"
grep -q "only in the log" ro.out && ok || not_ok "1b: the change in the log is read ($(cat ro.out ro.err))"
chmod 755 ro3 && rm ro3/q.db-shm && chmod 555 ro3
expect_eq "$(ro_run ro3 | sort -u)" "74 q.db q.db-wal " "1b: a log without its index: exit 74, nothing made"
grep -q "ro3/q.db: cannot read the database where this user cannot write: its log ro3/q.db-wal holds changes not yet in it, which SQLite reads only through an index ro3/q.db-shm it cannot create here; copy both files to a folder you can write and read the copy" ro.err && ok || not_ok "1b: the log: what to do ($(cat ro.err))"
# an empty log (all of it copied into the file) is no change: immutable
chmod 755 ro3 && : >ro3/q.db-wal && cp rosrc.db ro3/q.db && chmod 444 ro3/* && chmod 555 ro3
expect_eq "$(ro_run ro3 | sort -u)" "0 q.db q.db-wal " "1b: an empty log: every reader reads"
# where the reader may write, it leaves nothing beside the file (SQLite
# removes its log and index when the last connection closes, which a
# read-only connection cannot do), and the file is the same
mkro ro4 666 777
expect_eq "$(ro_run ro4 | sort -u)" "0 q.db " "1b: in a writable folder every reader reads and leaves no q.db-wal, q.db-shm"
cmp -s ro4/q.db rosrc.db && ok || not_ok "1b: a reader changed the database"
# writers still refuse, and change nothing
as_user "$QUENCH" pack create new --db ro1/q.db >/dev/null 2>"$TMP/ro.err"
expect_eq "$?" 74 "1b: a writer on the read-only folder: 74"
cmp -s ro1/q.db rosrc.db && ok || not_ok "1b: the read-only database changed"
chmod -R u+w ro1 ro2 ro3 ro4

done_testing
