#!/bin/sh
# t480: grades as codes (migration 0007, issue #35 section 1): a row keeps
# an integer naming a row of grades, the defaults at ids 1..5, a rule's
# own tier names appended; every reader shows the name as before. Checked
# against the tiers written here (not read from quench): (a) the stored
# codes and what export and pack show say, (b) a schema-6 database (made
# by SQL from a current one, with NULLs and a name of no rule) migrated
# row for row, its exports byte for byte those of the database it came
# from, (c) db merge of databases whose custom names got other codes.
# A rolled-back name's code: test_store.c (test_grade_codes).
. "$(dirname "$0")/lib.sh"
if ! command -v sqlite3 >/dev/null 2>&1; then
    echo "# sqlite3 shell not installed: skipped"
    done_testing
    exit
fi
C5=$TOP/rules/classic-5x5.yaml
GA=$TOP/tests/rules/ok/grading.yaml # trivial 1, easy 2-3, hard 4-7
# a second rule naming tiers in another order: its first stored puzzle is
# tough, so trivial gets another code here than in a database of GA alone
cat >gb.yaml <<'EOF'
quench: 1
name: graded-b
board: {grid: [3, 3]}
press: {stencil: plus}
grading:
  warmup: [1, 2]
  trivial: [3, 4]
  tough: [5, 9]
EOF
# the tiers as the rule files and docs/GENERATE.md give them, for Python:
# rule name -> [(name, lo, hi)]
cat >tiers.py <<'EOF'
TIERS = {
    'graded': [('trivial', 1, 1), ('easy', 2, 3), ('hard', 4, 7)],
    'graded-b': [('warmup', 1, 2), ('trivial', 3, 4), ('tough', 5, 9)],
    'classic-5x5': [('easy', 1, 7), ('medium', 8, 9), ('hard', 10, 10),
                    ('expert', 11, 12), ('master', 13, 15)],
}
DEFAULTS = ['easy', 'medium', 'hard', 'expert', 'master']


def tier(rule, presses):
    for name, lo, hi in TIERS[rule]:
        if lo <= presses <= hi:
            return name
    return None
EOF

# (a) three rules into one database: a.db
# (the default tiers of classic-5x5 come from its distribution: what
# generate printed for each puzzle, not through the store, is the truth)
q -q generate "$C5" -n 40 --seed 1 --db a.db --pack c -o gen-c.jsonl
expect_rc 0 "generate classic-5x5"
q -q generate "$GA" -n 150 --seed 3 --db a.db --pack g -o gen-g.jsonl
expect_rc 0 "generate graded"
q -q generate gb.yaml -n 40 --seed 2 --db a.db --pack b -o gen-b.jsonl
expect_rc 0 "generate graded-b"
for p in c g b; do
    q export "$p" --db a.db --format jsonl -o "a-$p.jsonl"
    expect_rc 0 "export $p"
    q pack show "$p" --db a.db --json
    cp out "a-$p.json"
done
py_checks "$TMP" "$TOP/tests" <<'EOF'
import json, sys
sys.path[:0] = sys.argv[1:3]
from tiers import TIERS, DEFAULTS, tier
import state_blob
db = state_blob.connect('a.db')
def check(cond, what):
    print('ok' if cond else 'not ok: ' + what)
grades = dict(db.execute('SELECT id, name FROM grades'))
check([grades.get(i) for i in range(1, 6)] == DEFAULTS,
      'defaults at 1..5: %r' % grades)
types = {t for (t,) in db.execute('SELECT DISTINCT typeof(grade) FROM puzzles')}
check(types == {'integer'}, 'every stored grade an integer code: %r' % types)
printed = {}
for p in 'cgb':
    for l in open('gen-%s.jsonl' % p):
        r = json.loads(l)
        if r.get('type') == 'puzzle':
            printed[r['id']] = r['grade']
def want(rule, presses, uid):
    return (printed.get('%016x' % (uid & (2 ** 64 - 1)))
            if rule == 'classic-5x5' else tier(rule, presses))
rows = db.execute('SELECT r.name, p.min_presses, p.grade, run_uid(p.id) FROM'
                  ' puzzles p JOIN rules r ON r.id = p.rule_id').fetchall()
bad = [r for r in rows if grades.get(r[2]) != want(r[0], r[1], r[3])]
check(len(rows) == 230 and not bad, '%d rows, codes naming another tier: %r'
      % (len(rows), bad[:3]))
bad = [r for r in rows if r[0] != 'classic-5x5' and
       printed.get('%016x' % (r[3] & (2 ** 64 - 1))) != tier(r[0], r[1])]
check(not bad, 'generate printed the tiers of the rule files: %r' % bad[:3])
custom = sorted(n for i, n in grades.items() if i > 5)
check(custom == ['tough', 'trivial', 'warmup'],
      'one row a custom name: %r' % custom)
seen = set()
for p, rule in (('c', 'classic-5x5'), ('g', 'graded'), ('b', 'graded-b')):
    recs = [json.loads(l) for l in open('a-%s.jsonl' % p)]
    recs = [r for r in recs if r.get('record') == 'puzzle']
    bad = [r['id'] for r in recs
           if r['grade'] != want(rule, r['min_presses'], int(r['id'], 16))]
    check(recs and not bad, 'export %s: grades of their tiers: %r' % (p, bad[:3]))
    show = json.load(open('a-%s.json' % p))['puzzles']
    bad = [r['id'] for r in show
           if r['grade'] != want(rule, r['min_presses'], int(r['id'], 16))]
    check(len(show) == len(recs) and not bad,
          'pack show %s --json: grades of their tiers: %r' % (p, bad[:3]))
    seen |= {r['grade'] for r in recs}
check({'trivial', 'warmup', 'tough', 'easy', 'hard'} <= seen,
      'the packs hold custom and default grades: %r' % seen)
EOF

# (b) a schema-6 database: a.db's rows with their names spelt out, as
# 0006 kept them (sqlite3, foreign keys off, then user_version 6), each
# row's canonical key and id as 0006 had them: from tests/state_blob.py
# and the key runs (the flip of the key-run store drops both columns)
to_v6() {
    python3 "$TOP/tests/state_blob.py" "$1" - <<'SQL'
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE p6 (
    id           INTEGER PRIMARY KEY,
    rule_id      INTEGER NOT NULL REFERENCES rules(id),
    state        BLOB NOT NULL,
    canon        BLOB NOT NULL,
    min_presses  INTEGER NOT NULL CHECK (min_presses >= 0),
    optimal      INTEGER NOT NULL CHECK (optimal >= 0),
    witness      BLOB NOT NULL,
    grade        TEXT,
    grader       TEXT NOT NULL DEFAULT '',
    seed         TEXT,
    stream_index INTEGER CHECK (stream_index >= 0),
    provenance   INTEGER NOT NULL CHECK (provenance BETWEEN 0 AND 2),
    run_id       INTEGER REFERENCES runs(id),
    uid          INTEGER NOT NULL,
    submission   TEXT,
    source       TEXT,
    meta TEXT, human_level INTEGER CHECK (human_level BETWEEN 0 AND 3),
    human_score INTEGER, human_model INTEGER CHECK (human_model >= 1),
    UNIQUE (uid, rule_id, canon)
) STRICT;
INSERT INTO p6 SELECT p.id, p.rule_id, p.state,
    puzzle_canon(p.state, r.layout, r.colours), p.min_presses,
    p.optimal, p.witness, g.name, p.grader, p.seed, p.stream_index,
    p.provenance, p.run_id, run_uid(p.id), p.submission, p.source, p.meta,
    p.human_level, p.human_score, p.human_model
    FROM puzzles p JOIN rules r ON r.id = p.rule_id
    LEFT JOIN grades g ON g.id = p.grade;
DROP TABLE puzzles;
ALTER TABLE p6 RENAME TO puzzles;
DROP TABLE grades;
DROP TABLE IF EXISTS key_runs; -- (0008's: built again by the migration)
PRAGMA user_version = 6;
COMMIT;
SQL
}
cp a.db v6.db
to_v6 v6.db
expect_eq "$(sqlite3 v6.db 'PRAGMA user_version')" 6 "the copy is at schema 6"
q db migrate --db v6.db
expect_rc 0 "db migrate of the schema-6 copy"
expect_out "schema version 6 -> $SCHEMA" "migrate says 6 -> $SCHEMA"
for p in c g b; do
    q export "$p" --db v6.db --format jsonl -o "m-$p.jsonl"
    cmp -s "m-$p.jsonl" "a-$p.jsonl" && ok || not_ok "export $p after the migration: byte for byte"
    q pack show "$p" --db v6.db --json
    cmp -s out "a-$p.json" && ok || not_ok "pack show $p --json after the migration: byte for byte"
done
# the same with NULLs and a name no rule has (a grade written by sqlite3,
# or by a grader long gone), first held by a later row than trivial's
cp a.db v6n.db
to_v6 v6n.db
sqlite3 v6n.db "UPDATE puzzles SET grade = NULL WHERE id % 7 = 0;
    UPDATE puzzles SET grade = 'legacy' WHERE id % 11 = 5;
    UPDATE puzzles SET grade = 'hard' WHERE id = 1"
sqlite3 -separator ' ' v6n.db "SELECT id, uid, coalesce(grade, '-'),
    hex(state), hex(witness), min_presses, coalesce(seed, '-'),
    coalesce(human_score, '-') FROM puzzles ORDER BY id" >before.txt
sqlite3 -separator ' ' v6n.db "SELECT pack_id, position, puzzle_id, slot,
    section FROM pack_puzzles ORDER BY 1, 2" >members-before.txt
nulls=$(sqlite3 v6n.db "SELECT count(*) FROM puzzles WHERE grade IS NULL")
q db migrate --db v6n.db
expect_rc 0 "db migrate with NULLs and a legacy name"
python3 "$TOP/tests/state_blob.py" v6n.db "SELECT p.id, run_uid(p.id), coalesce(g.name, '-'),
    hex(p.state), hex(p.witness), p.min_presses, coalesce(p.seed, '-'),
    coalesce(p.human_score, '-') FROM puzzles p LEFT JOIN grades g
    ON g.id = p.grade ORDER BY p.id" >after.txt
cmp -s before.txt after.txt && ok || not_ok "every row's grade name (NULL too) and columns kept"
sqlite3 -separator ' ' v6n.db "SELECT pack_id, position, puzzle_id, slot,
    section FROM pack_puzzles ORDER BY 1, 2" >members-after.txt
cmp -s members-before.txt members-after.txt && ok || not_ok "pack members, slots and sections kept"
expect_eq "$(sqlite3 v6n.db "SELECT count(*) FROM puzzles WHERE grade IS NULL") $nulls" \
    "$nulls $nulls" "NULL stays NULL"
[ "$nulls" -gt 0 ] && ok || not_ok "the schema-6 copy holds NULL grades"
sqlite3 v6n.db "SELECT name FROM grades ORDER BY id" >names.txt
# the ids: the defaults, then each other name in the order of its first row
py_checks before.txt names.txt <<'EOF'
import sys
first = {}
for line in open(sys.argv[1]):
    rid, _, name = line.split(' ')[:3]
    if name != '-':
        first.setdefault(name, int(rid))
defaults = ['easy', 'medium', 'hard', 'expert', 'master']
others = sorted((i, n) for n, i in first.items() if n not in defaults)
want = defaults + [n for _, n in others]
got = open(sys.argv[2]).read().split('\n')[:-1]
print('ok' if got == want else 'not ok: grade ids %r, want %r' % (got, want))
EOF
q db check --db v6n.db
expect_rc 0 "db check of the migrated database"
expect_eq "$(sqlite3 v6n.db "SELECT count(*) FROM sqlite_schema WHERE name IN ('puzzles_v7', 'm7_members')")" 0 "no scratch table left"
expect_eq "$(sqlite3 v6n.db "SELECT count(*) FROM sqlite_schema WHERE name = 'puzzles' AND sql LIKE '%STRICT'")" 1 "STRICT kept"
# (the unique key until the flip of the key-run store drops it)
if has_column v6n.db puzzles uid; then
    expect_eq "$(sqlite3 v6n.db "SELECT count(*) FROM sqlite_schema WHERE name = 'puzzles' AND sql LIKE '%UNIQUE (uid, rule_id, canon)%'")" 1 "the unique key kept"
fi

# (c) merge: e.db holds graded alone (trivial 6), d.db graded-b alone
# (tough 6, trivial 7, warmup 8): merged either way, every puzzle keeps
# its name
q -q generate "$GA" -n 150 --seed 3 --db e.db --pack g -o /dev/null
q -q generate gb.yaml -n 40 --seed 2 --db d.db --pack b -o /dev/null
q -q generate "$C5" -n 20 --seed 4 --db d.db -o /dev/null
expect_eq "$(sqlite3 e.db "SELECT id FROM grades WHERE name = 'trivial'") $(sqlite3 d.db "SELECT id FROM grades WHERE name = 'trivial'")" \
    "6 7" "the inputs number trivial differently"
q db merge m1.db e.db d.db
expect_rc 0 "merge e d"
q db merge m2.db d.db e.db
expect_rc 0 "merge d e"
q db merge m3.db e.db
q db merge m3.db m2.db
expect_rc 0 "merge a merge"
py_checks "$TOP/tests" <<'EOF'
import sqlite3, sys
sys.path.insert(0, sys.argv[1])
import state_blob
def names(path):
    db = state_blob.connect(path)
    return dict(db.execute('SELECT run_uid(p.id), g.name FROM puzzles p LEFT'
                           ' JOIN grades g ON g.id = p.grade'))
want = {**names('e.db'), **names('d.db')}
for m in ('m1.db', 'm2.db', 'm3.db'):
    got = names(m)
    bad = [u for u in want if got.get(u, '?') != want[u]]
    print('ok' if len(got) == len(want) and not bad else
          'not ok: %s: %d puzzles, %d with another name' % (m, len(got), len(bad)))
    db = sqlite3.connect(m)
    n = db.execute('SELECT count(*) FROM grades').fetchone()[0]
    d = db.execute('SELECT count(DISTINCT name) FROM grades').fetchone()[0]
    print('ok' if n == d == 8 else 'not ok: %s: %d grades rows, %d names' % (m, n, d))
EOF
for m in m1 m2 m3; do
    q db check --db $m.db
    expect_rc 0 "db check $m"
done
# a code without its grades row: a foreign-key problem for db check
cp a.db bad.db
sqlite3 bad.db "PRAGMA foreign_keys = OFF; UPDATE puzzles SET grade = 99 WHERE id = 3"
q db check --db bad.db
expect_rc 74 "db check: a dangling grade code"
expect_err "foreign key check: puzzles row 3 refers to a missing grades row" "db check names it"

done_testing
