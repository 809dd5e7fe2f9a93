#!/bin/sh
# t405: the test helpers that read and write puzzles apart from quench
# (tests/state_blob.py, tests/keyruns.py, lib.sh's put_sql, runs_from_rows,
# wrong_id, rekey) agree with quench, on today's schema and on a copy
# flipped by hand as the flip of the key-run store will flip it
# (docs/STORE-KEYRUNS.md, "The flip": puzzles without `canon`, `uid` and
# their unique key), so the tests built on them check the same facts
# after the flip.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules
SB=$TOP/tests/state_blob.py
command -v sqlite3 >/dev/null 2>&1 || {
    echo "# sqlite3 shell not installed: skipped"
    done_testing
    exit
}

# g.db: three square rules (one of 4 colours), the first in three
# batches (three runs of level 0): 540 rows and quench's own runs
q -q generate "$R/classic-7x7.yaml" -n 300 --seed 5 --batch 128 --db g.db -o /dev/null
q -q generate "$R/classic-5x5.yaml" -n 200 --seed 5 --db g.db -o /dev/null
q -q generate "$R/four-colour-10x10.yaml" -n 40 --seed 5 --db g.db -o /dev/null
expect_rc 0 "generate g.db"
cnt() { sqlite3 "$1" 'SELECT count(*) FROM puzzles'; }

# the ids and canonical forms computed in Python are the stored ones
if has_column g.db puzzles uid; then
    expect_eq "$(python3 "$SB" g.db "SELECT sum(p.uid = puzzle_uid(p.state,
        r.layout, r.colours, r.hash)), sum(p.canon = puzzle_canon(p.state,
        r.layout, r.colours)), sum(p.uid = run_uid(p.id)) FROM puzzles p
        JOIN rules r ON r.id = p.rule_id")" "540 540 540" \
        "puzzle_uid, puzzle_canon and run_uid: each row's uid and canon"
fi
# and the ids quench prints are those the runs hold, as puzzle_uid says
python3 "$SB" g.db "SELECT printf('%016x %016x', run_uid(p.id),
    puzzle_uid(p.state, r.layout, r.colours, r.hash)) FROM puzzles p
    JOIN rules r ON r.id = p.rule_id" >ids.txt
expect_eq "$(awk '$1 != $2' ids.txt | wc -l) $(wc -l <ids.txt)" "0 540" \
    "run_uid of every row is its puzzle_uid"
q -q generate "$R/classic-5x5.yaml" -n 200 --seed 5 --db g.db -o gen.jsonl
expect_eq "$(grep -o '"id":"[0-9a-f]*"' gen.jsonl | cut -d'"' -f4 | sort)" \
    "$(python3 "$SB" g.db "SELECT printf('%016x', run_uid(id)) FROM puzzles
       WHERE rule_id = 2" | sort)" "run_uid: the ids generate printed"

# keyruns.py's runs of the rows: the pairs of quench's runs, and (while
# migration 0008 can build them) the very bytes it builds
pairs() {
    python3 - "$TOP/tests" "$1" <<'PY'
import sqlite3, sys
sys.path.insert(0, sys.argv[1])
import keyruns
db = sqlite3.connect(sys.argv[2])
print(sorted((rule, p) for rule, b in db.execute(
    'SELECT rule_id, keys FROM key_runs') for p in keyruns.decode(b)))
PY
}
cp g.db p.db
runs_from_rows p.db
expect_eq "$(pairs p.db | md5sum)" "$(pairs g.db | md5sum)" "runs_from_rows: the pairs of quench's runs"
expect_eq "$(sqlite3 -separator ' ' p.db 'SELECT count(*), sum(count) FROM key_runs')" "3 540" "one run a rule"
q db check --db p.db
expect_rc 0 "db check of keyruns.py's runs"
if has_column g.db puzzles uid; then
    cp g.db m.db
    sqlite3 m.db "DROP TABLE key_runs; PRAGMA user_version = 7"
    "$QUENCH" -q db migrate --db m.db >/dev/null
    runs() { sqlite3 "$1" 'SELECT rule_id, level, first_key, last_key, count, hex(keys) FROM key_runs ORDER BY rule_id'; }
    expect_eq "$(runs p.db | md5sum)" "$(runs m.db | md5sum)" "runs_from_rows: migration 0008's bytes"
fi

# put_sql and rekey: a row written by hand gets its canon and uid (while
# there are such columns) and its run; db check passes it. The puzzle:
# classic 5x5 with two opposite corners pressed (cells 0, 1, 5 and 19,
# 23, 24 lit: bits LSB first), two presses, one optimal plan
S2=x\'23008801\' P2=x\'01000001\'
put_fixture() {
    put_sql "$1" <<SQL
INSERT INTO new_puzzles (rule_id, state, min_presses, optimal, witness,
                         provenance)
  VALUES (2, $S2, 2, 1, $P2, 2);
SQL
}
cp g.db w.db
sqlite3 w.db "UPDATE puzzles SET state = $S2, witness = $P2, min_presses = 2, optimal = 1 WHERE id = 301"
rekey w.db 301
runs_from_rows w.db
q db check --db w.db
expect_rc 0 "rekey and runs_from_rows: db check of a row changed by hand"
cp g.db w.db
put_fixture w.db
expect_eq "$(cnt w.db)" 541 "put_sql: a row"
q db check --db w.db
expect_rc 0 "put_sql: db check of it"
# wrong_id: the id the runs hold for row 7 wrong (no row keeps one)
cp g.db w.db
wrong_id w.db 7
q db check --db w.db
expect_rc 74 "wrong_id: db check"
expect_err "key runs: rule set 1: row 7: its state gives id " "wrong_id: named"
expect_eq "$(python3 "$SB" w.db "SELECT run_uid(7) - run_uid(8) = (SELECT run_uid(7) - run_uid(8) FROM puzzles LIMIT 1), run_uid(7) = puzzle_uid(p.state, r.layout, r.colours, r.hash) + 1 FROM puzzles p JOIN rules r ON r.id = p.rule_id WHERE p.id = 7")" \
    "1 1" "wrong_id: run_uid is the id plus one"

# the same helpers on a copy flipped by hand: no canon, no uid, no
# unique key (quench cannot open it yet: only the helpers are checked)
flip() {
    python3 - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
sql, = db.execute("SELECT sql FROM sqlite_schema WHERE name = 'puzzles'").fetchone()
keep = [c[1] for c in db.execute('PRAGMA table_info(puzzles)')
        if c[1] not in ('canon', 'uid')]
lines = [l for l in sql.split('\n')[1:]
         if not l.strip().startswith(('canon ', 'uid ', 'UNIQUE'))]
end = max(i for i, l in enumerate(lines) if l.startswith(')'))
code, _, note = lines[end - 1].partition('--')  # no comma before ')'
lines[end - 1] = code.rstrip().rstrip(',') + (' --' + note if note else '')
new = 'CREATE TABLE flipped (\n' + '\n'.join(lines)
db.executescript('PRAGMA foreign_keys = OFF; BEGIN; %s; INSERT INTO flipped'
                 ' SELECT %s FROM puzzles; DROP TABLE puzzles; ALTER TABLE'
                 ' flipped RENAME TO puzzles; COMMIT;' % (new, ', '.join(keep)))
PY
}
cp g.db f.db
flip f.db
expect_eq "$(sqlite3 f.db "SELECT count(*) FROM pragma_table_info('puzzles') WHERE name IN ('canon', 'uid')") $(sqlite3 f.db "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'sqlite_autoindex_puzzles%'") $(cnt f.db)" \
    "0 0 540" "the flipped copy: no canon, no uid, no unique key, every row"
if has_column f.db puzzles uid; then not_ok "has_column: uid in the flipped copy"; else ok; fi
cp f.db f2.db
runs_from_rows f2.db
expect_eq "$(pairs f2.db | md5sum)" "$(pairs g.db | md5sum)" "flipped: runs_from_rows computes every id from the states"
put_fixture f2.db
expect_eq "$(cnt f2.db)" 541 "flipped: put_sql inserts"
put_fixture f2.db
expect_eq "$(cnt f2.db)" 542 "flipped: a duplicate is no longer refused by SQLite"
expect_eq "$(python3 "$SB" f2.db "SELECT count(DISTINCT run_uid(p.id)), sum(run_uid(p.id) = puzzle_uid(p.state, r.layout, r.colours, r.hash)) FROM puzzles p JOIN rules r ON r.id = p.rule_id WHERE p.id > 540")" \
    "1 2" "flipped: both copies in the runs with their id"
rekey f2.db
expect_eq "$(pairs f2.db | md5sum)" "$(cp f2.db f3.db && runs_from_rows f3.db && pairs f3.db | md5sum)" "flipped: rekey changes nothing"
cp f.db f4.db
wrong_id f4.db 7
expect_eq "$(python3 "$SB" f4.db "SELECT run_uid(7) = puzzle_uid(p.state, r.layout, r.colours, r.hash) + 1, (SELECT count(*) FROM puzzles q JOIN rules s ON s.id = q.rule_id WHERE run_uid(q.id) != puzzle_uid(q.state, s.layout, s.colours, s.hash)) FROM puzzles p JOIN rules r ON r.id = p.rule_id WHERE p.id = 7")" \
    "1 1" "flipped: wrong_id changes row 7's id in its run, and only it"
# scripts/corrupt.py edits no column the flipped table lacks
py_ok "flipped: corrupt.py's row edits" "$TOP/scripts" f.db <<'PY'
import random, shutil, sqlite3, sys
sys.path.insert(0, sys.argv[1])
import corrupt
for i in range(200):
    shutil.copy(sys.argv[2], 'e.db')
    db = sqlite3.connect('e.db')
    what = corrupt.row_edit(db, random.Random(i))
    assert 'no such column' not in what, what
    db.close()
PY

done_testing
