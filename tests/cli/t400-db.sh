#!/bin/sh
# t400: quench db init|migrate|check|stats|merge on real database files:
# where the database lives, schema versions, witness verification, and the
# failure modes with their exit codes (66 missing, 74 damaged, 75 busy,
# 78 newer). Rows are inserted with the sqlite3 shell when it is installed
# (the generator that normally writes them is tested elsewhere).
. "$(dirname "$0")/lib.sh"

RULES=$TOP/rules/classic-5x5.yaml
HASH=$("$QUENCH" rules show "$RULES" --json | sed 's/.*"hash":"\([0-9a-f]*\)".*/\1/')

# sql DB SQL: SQL (a query, or "-": a script on standard input) with the
# packed states of docs/STORE.md written and read apart from quench:
# state_blob(text, layout, colours), state_text(blob, layout, colours)
sql() { python3 "$TOP/tests/state_blob.py" "$@"; }
B5=00000/00000/00000/00000/00000 # the classic 5x5 board's layout
blob5() { echo "state_blob('$1', '$B5', 2)"; }

# seed DB: the classic rule and three puzzles with real witnesses
seed() {
    sql "$1" - <<SQL
PRAGMA foreign_keys = ON;
INSERT INTO rules (hash, name, yaml, cells, colours, layout)
  VALUES ('$HASH', 'classic-5x5', CAST(readfile('$RULES') AS TEXT), 25, 2,
          '$B5');
INSERT INTO puzzles (rule_id, state, canon, min_presses, optimal, witness,
                     grade, seed, stream_index, provenance, uid) VALUES -- grade 1: easy
 (1, $(blob5 11000/10000/00000/00000/00000), x'01', 1, 1,
  $(blob5 10000/00000/00000/00000/00000), 1, 'ab', $2, 2, 0),
 (1, $(blob5 01110/00100/00000/00000/00000), x'02', 1, 1,
  $(blob5 00100/00000/00000/00000/00000), 1, 'ab', $(($2 + 1)), 2, 0),
 (1, $(blob5 11000/10000/00000/00001/00011), x'03', 2, 1,
  $(blob5 10000/00000/00000/00000/00001), 1, 'ab', $(($2 + 2)), 2, 0);
SQL
    keys "$1" 1 2 3
    runs_from_rows "$1"
}
# keys DB ROW...: each row's canonical key and puzzle id from its state, by
# the independent implementation (the store's unique key needs both right),
# all rows in one python3
keys() {
    python3 - "$TOP/tests" "$HASH" "$B5" "$@" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import puzzle_id, state_blob
rule_hash, layout, db = sys.argv[2], sys.argv[3], state_blob.connect(sys.argv[4])
for row in map(int, sys.argv[5:]):
    st, = db.execute("SELECT state_text(state, ?, 2) FROM puzzles WHERE id = ?",
                     (layout, row)).fetchone()
    rows = st.split('/')
    n, c = len(rows), puzzle_id.canonical(rows)
    canon = '/'.join(''.join('%d' % v for v in c[i * n:(i + 1) * n]) for i in range(n))
    uid = int(puzzle_id.puzzle_id(rule_hash, st), 16)
    uid -= (uid >> 63) << 64  # as SQL's CAST(0x... AS INTEGER): signed
    db.execute("UPDATE puzzles SET canon = state_blob(?, ?, 2), uid = ? WHERE id = ?",
               (canon, layout, uid, row))
db.commit()
PY
}

# the default database: db/quench.db in the working directory
q db init
expect_rc 0 "db init"
expect_out "db/quench.db: schema version $SCHEMA" "db init reports the version"
[ -f db/quench.db ] && ok || not_ok "db init creates db/quench.db"
q db init
expect_rc 0 "db init twice"
# --db and QUENCH_DB
q db --db "$TMP/sub/dir/x.db" init
expect_rc 0 "db init --db in a new directory"
[ -f "$TMP/sub/dir/x.db" ] && ok || not_ok "--db PATH is created"
QUENCH_DB="$TMP/env.db" "$QUENCH" db init >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 0 "QUENCH_DB"
[ -f "$TMP/env.db" ] && ok || not_ok "QUENCH_DB names the database"
q db migrate --db "$TMP/x.db"
expect_rc 0 "db migrate"
expect_out "schema version 0 -> $SCHEMA" "db migrate reports"
q db --db "$TMP/x.db" stats
expect_rc 0 "stats of an empty database"
expect_out "puzzles:   0" "empty stats"
q db --db "$TMP/x.db" frobnicate
expect_rc 64 "unknown db subcommand"
q db --db "$TMP/x.db" check extra
expect_rc 64 "db check takes no operand"

# missing inputs: 66
q db --db "$TMP/none.db" check
expect_rc 66 "check of a missing database"
expect_err "none.db" "missing database named"
[ ! -e "$TMP/none.db" ] && ok || not_ok "check does not create the database"
q db merge "$TMP/m.db" "$TMP/none.db"
expect_rc 66 "merge of a missing input"

# not a database: 74; another application's database: 65
head -c 8192 /dev/urandom >"$TMP/junk.db"
q db --db "$TMP/junk.db" stats
expect_rc 74 "a file that is not a database"
expect_err "junk.db: file is not a database" "sqlite message"

if command -v sqlite3 >/dev/null 2>&1; then
    seed "$TMP/x.db" 0
    q db --db "$TMP/x.db" stats
    expect_rc 0 "stats"
    expect_out "puzzles:   3" "stats counts puzzles"
    expect_out "classic-5x5" "stats names the rule"
    grep -qE '^ +1 +2$' "$TMP/out" && ok || not_ok "histogram: 2 puzzles of 1 press"
    grep -qE '^ +2 +1$' "$TMP/out" && ok || not_ok "histogram: 1 puzzle of 2 presses"
    q db --db "$TMP/x.db" check
    expect_rc 0 "check of good puzzles"
    expect_out "3 witnesses verified" "check verifies every witness"

    # a wrong witness and a wrong minimum are found
    cp "$TMP/x.db" "$TMP/bad.db"
    sql "$TMP/bad.db" - <<SQL
UPDATE puzzles SET witness = $(blob5 01000/00000/00000/00000/00000) WHERE id = 2;
UPDATE puzzles SET min_presses = 3 WHERE id = 3
SQL
    q db --db "$TMP/bad.db" check
    expect_rc 65 "check finds bad puzzles"
    expect_err "(#2, classic-5x5): the witness does not solve the state" "bad witness named"
    expect_err "(#3, classic-5x5): the stored minimum is not the minimum" "bad minimum named"
    expect_err "2 of 3 puzzles failed" "check summary"

    # the unique key refuses a duplicate (the same id, rule and key: a
    # row without an id is refused by NOT NULL before that)
    if sqlite3 "$TMP/x.db" "INSERT INTO puzzles (rule_id, state, canon, min_presses, optimal, witness, provenance, uid) SELECT 1, x'00', canon, 1, 1, x'00', 2, uid FROM puzzles WHERE id = 1" 2>"$TMP/dup.err"; then
        not_ok "duplicate canonical key accepted"
    elif grep -q "UNIQUE constraint failed: puzzles.uid, puzzles.rule_id, puzzles.canon" "$TMP/dup.err"; then ok
    else not_ok "refused, but not by the unique key: $(cat "$TMP/dup.err")"; fi

    # merge: two shards into one, twice
    q db --db "$TMP/s1.db" init
    q db --db "$TMP/s2.db" init
    seed "$TMP/s1.db" 0
    seed "$TMP/s2.db" 10
    sql "$TMP/s2.db" "UPDATE puzzles SET state = $(blob5 00000/00000/00000/00000/11000), witness = $(blob5 $B5) WHERE id = 3"
    keys "$TMP/s2.db" 3
    runs_from_rows "$TMP/s2.db" # (db merge checks the runs against the states)
    q db merge "$TMP/m.db" "$TMP/s1.db" "$TMP/s2.db"
    expect_rc 0 "db merge"
    expect_out "s1.db: +3 puzzles (0 duplicates)" "merge counts new puzzles"
    expect_out "s2.db: +1 puzzle (2 duplicates)" "merge counts duplicates"
    q db merge "$TMP/m.db" "$TMP/s1.db" "$TMP/s2.db"
    expect_rc 0 "db merge again"
    expect_out "s2.db: +0 puzzles (3 duplicates)" "merge is idempotent"
    expect_eq "$(sqlite3 "$TMP/m.db" 'SELECT count(*) FROM puzzles')" 4 "merged puzzles"
    expect_eq "$(sqlite3 "$TMP/m.db" 'SELECT count(*) FROM rules')" 1 "merged rules"
    q db merge "$TMP/m.db" "$TMP/m.db"
    expect_rc 64 "merge into itself"

    # newer database: 78, and nothing changed
    cp "$TMP/x.db" "$TMP/new.db"
    sqlite3 "$TMP/new.db" "PRAGMA user_version = 99"
    q db --db "$TMP/new.db" stats
    expect_rc 78 "a newer database is refused"
    expect_err "newer than this quench" "newer message"
    q db merge "$TMP/m.db" "$TMP/new.db"
    expect_rc 78 "merge refuses a newer input"

    # another application's SQLite file: 65
    sqlite3 "$TMP/other.db" "CREATE TABLE t (x)"
    q db --db "$TMP/other.db" stats
    expect_rc 65 "another application's database"
    expect_err "not a quench database" "foreign database message"

    # busy: another writer holds the lock past the timeout -> 75
    (echo "BEGIN IMMEDIATE; INSERT INTO packs (name) VALUES ('held');"; sleep 3) | sqlite3 "$TMP/x.db" &
    holder=$!
    sleep 1
    QUENCH_BUSY_TIMEOUT=200 "$QUENCH" pack --db "$TMP/x.db" create other >"$TMP/out" 2>"$TMP/err"
    rc=$?
    expect_rc 75 "a locked database"
    expect_err "database is locked" "busy message"
    wait $holder
    q pack --db "$TMP/x.db" list
    expect_rc 0 "after the lock"
    if grep -q other "$TMP/out"; then not_ok "busy create half-written"; else ok; fi

    # damaged file: overwrite pages in the middle -> 74, no crash
    cp "$TMP/x.db" "$TMP/dmg.db"
    size=$(wc -c <"$TMP/dmg.db")
    if [ "$size" -gt 12288 ]; then
        printf '%04096d' 0 | tr 0 '\245' | dd of="$TMP/dmg.db" bs=4096 seek=2 conv=notrunc 2>/dev/null
        q db --db "$TMP/dmg.db" check
        expect_rc 74 "a damaged database"
        [ -s "$TMP/err" ] && ok || not_ok "damage reported"
    fi
else
    echo "# sqlite3 shell not installed: row-level db tests skipped"
fi

# QUENCH_BUSY_TIMEOUT must be milliseconds 0..86400000: anything else is a
# usage error naming the variable, before any database is made (atoi read
# "abc" as 0 ms and 99999999999 as -1 ms)
for v in abc -1 99999999999 86400001 1.5 12ms; do
    QUENCH_BUSY_TIMEOUT=$v "$QUENCH" pack --db "$TMP/bt.db" create p >"$TMP/out" 2>"$TMP/err"
    rc=$?
    expect_rc 64 "QUENCH_BUSY_TIMEOUT=$v: usage error"
    expect_err "QUENCH_BUSY_TIMEOUT is '$v': it must be a number of milliseconds, 0 to 86400000" "QUENCH_BUSY_TIMEOUT=$v: the variable named"
    [ -e "$TMP/bt.db" ] && not_ok "QUENCH_BUSY_TIMEOUT=$v: a database was made" || ok
    rm -f "$TMP/bt.db"*
done
for v in 0 86400000 ""; do
    QUENCH_BUSY_TIMEOUT=$v "$QUENCH" pack --db "$TMP/bt.db" list >"$TMP/out" 2>"$TMP/err"
    rc=$?
    expect_rc 66 "QUENCH_BUSY_TIMEOUT='$v' is fine (the missing database is what is said)"
done

# read-only file (root ignores permissions, so only as a user)
if [ "$(id -u)" != 0 ]; then
    q db --db "$TMP/ro.db" init
    chmod 444 "$TMP/ro.db"
    q pack --db "$TMP/ro.db" create p
    expect_rc 74 "read-only database"
    expect_err "readonly" "read-only message"
fi

done_testing
