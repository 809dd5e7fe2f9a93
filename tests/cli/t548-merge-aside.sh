#!/bin/sh
# t548: db merge builds a new OUT aside (docs/STORE.md, "A new OUT is built
# aside"): in OUT.quench-merge-PID-N beside it, renamed OUT once every input
# is merged. A failure, a stop signal or a kill -9 half-way leaves no OUT
# (a kill -9 leaves only that temporary file); an OUT that exists is
# merged into in place; an OUT another process makes meanwhile is left as
# it is (75). The database itself is the one a merge into an existing
# empty OUT makes, in WAL mode, with the mode a new database gets.
. "$(dirname "$0")/lib.sh"

C5=$TOP/rules/classic-5x5.yaml
C7=$TOP/rules/classic-7x7.yaml
S=$TMP/s
mkdir -p "$S"

# the files of directory $1, one a line, sorted
files() { (cd "$1" && ls -A | sort); }
# the tables of database $1, ids included
tables() {
    for t in rules runs puzzles packs pack_puzzles; do
        sqlite3 "$1" "SELECT * FROM $t ORDER BY 1"
    done
}
# wait_for GLOB: poll up to 20 s for a file matching GLOB; 0 when seen
wait_for() {
    n=0
    while [ "$n" -lt 2000 ]; do
        # shellcheck disable=SC2086
        for f in $1; do [ -e "$f" ] && return 0; done
        sleep 0.01
        n=$((n + 1))
    done
    return 1
}

q generate "$C5" -n 300 --seed 5 --shard 0/2 --db "$S/a0.db" --pack p
q generate "$C5" -n 300 --seed 5 --shard 1/2 --db "$S/a1.db" --pack p
expect_rc 0 "the shards"

# --- 1. a new OUT: the database of a merge into an empty one -------------
mkdir "$TMP/o"
q db merge "$TMP/o/new.db" "$S/a0.db" "$S/a1.db"
expect_rc 0 "merge into a new OUT"
expect_eq "$(files "$TMP/o")" "new.db" "no temporary file, log or index left"
expect_eq "$(sqlite3 "$TMP/o/new.db" 'PRAGMA journal_mode')" "wal" "OUT in WAL mode"
expect_eq "$(sqlite3 "$TMP/o/new.db" 'PRAGMA integrity_check')" "ok" "OUT passes integrity_check"
q db init --db "$TMP/o/old.db"
ino=$(stat -c %i "$TMP/o/old.db")
q db merge "$TMP/o/old.db" "$S/a0.db" "$S/a1.db"
expect_rc 0 "merge into an existing empty OUT"
expect_eq "$(stat -c %i "$TMP/o/old.db")" "$ino" "an existing OUT merged in place"
[ "$(tables "$TMP/o/new.db")" = "$(tables "$TMP/o/old.db")" ] && ok ||
    not_ok "built aside: the tables, ids included, of the merge in place"
expect_eq "$(sqlite3 "$TMP/o/new.db" 'SELECT count(*) FROM puzzles')" 300 "every puzzle"
q db check --db "$TMP/o/new.db"
expect_rc 0 "db check of OUT"
# the file mode a new database gets (0666 less the umask)
(umask 027 && "$QUENCH" -q db merge "$TMP/o/mode.db" "$S/a0.db")
expect_eq "$(stat -c %a "$TMP/o/mode.db")" 640 "OUT's mode under umask 027"

# --- 2. a failure while building: no OUT, nothing said merged ------------
cp "$S/a1.db" "$S/wrong.db"
sqlite3 "$S/wrong.db" "UPDATE puzzles SET state = (SELECT state FROM puzzles WHERE id = 6) WHERE id = 7"
mkdir "$TMP/f"
q db merge "$TMP/f/out.db" "$S/a0.db" "$S/wrong.db"
expect_rc 74 "the second input's wrong puzzle id"
expect_err "wrong.db: puzzle at row 7: its id in the key runs is not its state's" "the row named"
expect_eq "$(files "$TMP/f")" "" "no OUT and no temporary file"
expect_empty_out "the first input is not said merged"
# No PRAGMA quick_check of the inputs of an OUT built aside: the copy's
# own pass refuses a row that sqlite3 deleted, or added, behind the
# input's key runs (the runs hold every row, each with its state's id),
# first input or second; and a damaged page, found by the copy's read
cp "$S/a1.db" "$S/gone.db"
sqlite3 "$S/gone.db" "PRAGMA foreign_keys = OFF; DELETE FROM puzzles WHERE id = (SELECT max(id) / 2 FROM puzzles)"
cp "$S/a1.db" "$S/extra.db"
sqlite3 "$S/extra.db" "INSERT INTO puzzles (rule_id, state, min_presses, optimal, witness, grade, grader, seed, stream_index, provenance, run_id) SELECT rule_id, state, min_presses, optimal, witness, grade, grader, seed, stream_index + 1, provenance, run_id FROM puzzles WHERE id = 3"
# (a leaf of the puzzles table whose type byte is made invalid, in a
# shard without a pack: the cheap checks before the merge read none)
q generate "$C5" -n 300 --seed 5 --shard 1/2 --db "$S/page.db"
python3 - "$S/page.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
leaves = [r[0] for r in db.execute("SELECT pageno FROM dbstat WHERE name = 'puzzles' AND pagetype = 'leaf' ORDER BY pageno")]
size = db.execute("PRAGMA page_size").fetchone()[0]
db.close()
with open(sys.argv[1], "r+b") as f:
    f.seek((leaves[len(leaves) // 2] - 1) * size)
    f.write(b"\xff")
PY
for bad in gone extra page; do
    for order in first second; do
        if [ "$order" = first ]; then
            q db merge "$TMP/f/out.db" "$S/$bad.db" "$S/a0.db"
        else
            q db merge "$TMP/f/out.db" "$S/a0.db" "$S/$bad.db"
        fi
        expect_rc 74 "$bad.db merged $order: refused"
        expect_err "$bad.db: " "$bad.db merged $order: the input named"
        expect_eq "$(files "$TMP/f")" "" "$bad.db merged $order: no OUT and no temporary file"
    done
done
expect_err "page.db: database is damaged: Page " "the damaged page said so"
# a state changed to another shard's puzzle (new to OUT, so every row is
# copied by row and OUT's runs are the input's, moved): refused all the
# same, the row named
cp "$S/a1.db" "$S/alter.db"
sqlite3 "$S/alter.db" "ATTACH '$S/a0.db' AS o; UPDATE puzzles SET state = (SELECT state FROM o.puzzles WHERE id = 1) WHERE id = 7"
q db merge "$TMP/f/out.db" "$S/alter.db"
expect_rc 74 "alter.db merged alone: refused"
expect_err "alter.db: puzzle at row 7: its id in the key runs is not its state's" "alter.db: the row named"
expect_eq "$(files "$TMP/f")" "" "alter.db: no OUT and no temporary file"
# An OUT that exists keeps the promise by reading every input whole
# (PRAGMA quick_check) before its first commit: a damaged second input
# leaves it as it was, the first input not merged either
mkdir "$TMP/e"
cp "$S/a1.db" "$TMP/e/old.db"
before=$(tables "$TMP/e/old.db")
q db merge "$TMP/e/old.db" "$S/a0.db" "$S/page.db"
expect_rc 74 "an OUT that exists, page.db second: refused"
expect_err "page.db: database is damaged: Page " "an OUT that exists: the input named"
[ "$(tables "$TMP/e/old.db")" = "$before" ] && ok ||
    not_ok "an OUT that exists, page.db second: OUT as it was"
# a file size limit (a full disk) while OUT is built: 74, OUT's name
# said, no OUT and no temporary file
q generate "$C7" -n 60000 --seed 9 --db "$S/big.db"
(ulimit -f 256 && "$QUENCH" db merge "$TMP/f/lim.db" "$S/big.db" >"$TMP/out" 2>"$TMP/err")
rc=$?
expect_rc 74 "merge past a file size limit"
expect_err "$TMP/f/lim.db:" "OUT named"
expect_eq "$(files "$TMP/f")" "" "past the limit: no OUT and no temporary file"
# a directory that cannot be written: OUT's name, 73
mkdir "$TMP/ro" "$TMP/u" && chmod 555 "$TMP/ro" && chmod 777 "$TMP/u" &&
    chmod 755 "$TMP" && cp "$S/a0.db" "$TMP/u/a0.db" && chmod 666 "$TMP/u/a0.db"
as_user "$QUENCH" db merge "$TMP/ro/out.db" "$TMP/u/a0.db" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 73 "merge into a directory that cannot be written"
expect_err "$TMP/ro/out.db: cannot create: Permission denied" "OUT named"
expect_eq "$(files "$TMP/ro")" "" "nothing made there"

# --- 3. killed half-way: no OUT; a kill -9 leaves only the temporary ----
mkdir "$TMP/k"
"$QUENCH" db merge "$TMP/k/out.db" "$S/big.db" >/dev/null 2>&1 &
pid=$!
wait_for "$TMP/k/out.db.quench-merge-*" && ok || not_ok "kill -9: the temporary file never seen"
kill -9 "$pid" 2>/dev/null
wait "$pid"
expect_eq "$(files "$TMP/k")" "out.db.quench-merge-$pid-0" "kill -9: no OUT, only OUT.quench-merge-PID-0"
q db merge "$TMP/k/out.db" "$S/big.db"
expect_rc 0 "the merge run again"
expect_eq "$(sqlite3 "$TMP/k/out.db" 'SELECT count(*) FROM puzzles')" 60000 "run again: every puzzle"
rm -f "$TMP/k"/*
for sig in TERM INT; do
    (dfl "$QUENCH" db merge "$TMP/k/out.db" "$S/big.db" >/dev/null 2>&1) &
    pid=$!
    wait_for "$TMP/k/out.db.quench-merge-*" && ok || not_ok "SIG$sig: the temporary file never seen"
    kill -"$sig" "$pid" 2>/dev/null
    wait "$pid"
    expect_eq "$(files "$TMP/k")" "" "SIG$sig: no OUT and no temporary file"
done

# --- 4. an OUT made by another process meanwhile is left as it is ---------
mkdir "$TMP/c"
"$QUENCH" db merge "$TMP/c/out.db" "$S/big.db" >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_for "$TMP/c/out.db.quench-merge-*" && ok || not_ok "race: the temporary file never seen"
kill -STOP "$pid" 2>/dev/null
sqlite3 "$TMP/c/out.db" "CREATE TABLE mine (x); INSERT INTO mine VALUES (42)"
kill -CONT "$pid" 2>/dev/null
wait "$pid"
rc=$?
expect_rc 75 "OUT made while the merge built it"
expect_err "another process created it" "said so"
expect_eq "$(sqlite3 "$TMP/c/out.db" 'SELECT x FROM mine')" 42 "the other process's OUT as it was"
expect_eq "$(files "$TMP/c")" "out.db" "no temporary file left"

done_testing
