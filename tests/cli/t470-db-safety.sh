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
#    first writes, and the first's counts are true.
ARGS="$C9 -n 1000000 --seed 11 --batch 200 --db two.db"
# shellcheck disable=SC2086
"$QUENCH" -q generate $ARGS >first.jsonl 2>first.err &
first=$!
stored() { # the run's stored count, once a batch is in
    python3 - two.db <<'PY' 2>/dev/null
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
print(db.execute("SELECT stored FROM runs").fetchone()[0])
PY
}
i=0
while [ $i -lt 600 ] && [ "$(stored)" = "" -o "$(stored)" = 0 ]; do
    sleep 0.1
    i=$((i + 1))
done
# (not through q: the allocation-failure sweep runs its commands in a
# copy of the directory, where no first copy is running)
# shellcheck disable=SC2086
"$QUENCH" -q generate $ARGS >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 75 "the same generate --db while it runs: exit 75"
expect_err "being written by another process" "the second says why"
expect_eq "$(grep -c '"type":"puzzle"' "$TMP/out")" 0 "the second prints no puzzle"
kill -TERM $first
wait $first
expect_eq "$?" 143 "the first stops on SIGTERM"
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

done_testing
