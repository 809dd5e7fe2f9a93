#!/bin/sh
# t485: migration 0009 (issue #35 section 1: the store at its floor) on a
# database the quench before it wrote (tests/golden/store-v8, made as its
# README says). The unique key (uid, rule_id, canon) and the two columns
# go; the key runs and the store's own check before each insert keep one
# row a puzzle. Checked: every row kept as it was, the exports byte for
# byte what the old quench exported (ids included, now computed from the
# states), the schema without the key and columns, and uniqueness after
# the migration counted apart from quench: the canonical forms of the
# stored states (tests/puzzle_id.py, the square's 8 symmetries) are as
# many as the rows, after the same runs again and a new one.
. "$(dirname "$0")/lib.sh"

GOLD=$TOP/tests/golden/store-v8
C5=$TOP/rules/classic-5x5.yaml
R8=$TOP/rules/ring6-mod8.yaml
DB=$TMP/v8.db
cp "$GOLD/v8.db" "$DB"
cp "$GOLD/v8.db" "$TMP/old.db"

q db migrate --db "$DB"
expect_rc 0 "db migrate of a schema-8 database"
expect_out "schema version 8 -> $SCHEMA" "migrate says 8 -> $SCHEMA"
q db check --db "$DB"
expect_rc 0 "db check after the migration"
expect_out "68 witnesses verified" "every puzzle kept and verified"

# --- 1. the schema: no key, no uid, no canon -------------------------------
expect_eq "$(sqlite3 "$DB" "SELECT count(*) FROM pragma_table_info('puzzles') WHERE name IN ('uid', 'canon')")" 0 "uid and canon dropped"
expect_eq "$(sqlite3 "$DB" "SELECT count(*) FROM sqlite_schema WHERE tbl_name = 'puzzles' AND (type = 'index' OR sql LIKE '%UNIQUE%')")" 0 "no unique key nor index on puzzles"
expect_eq "$(sqlite3 "$DB" "SELECT count(*) FROM sqlite_schema WHERE name LIKE '%v9%' OR name LIKE 'm9%'")" 0 "no scratch table left"
expect_eq "$(sqlite3 "$DB" "SELECT sql LIKE '%STRICT' FROM sqlite_schema WHERE name = 'puzzles'")" 1 "still STRICT"

# --- 2. every row and membership as it was ---------------------------------
same=$(sqlite3 "$DB" "ATTACH '$TMP/old.db' AS o;
  SELECT count(*) FROM puzzles a JOIN o.puzzles b ON b.id = a.id
  WHERE a.rule_id = b.rule_id AND a.state = b.state
  AND a.min_presses = b.min_presses AND a.optimal = b.optimal
  AND a.witness = b.witness AND a.grade IS b.grade AND a.grader = b.grader
  AND a.seed IS b.seed AND a.stream_index IS b.stream_index
  AND a.provenance = b.provenance AND a.run_id IS b.run_id
  AND a.submission IS b.submission AND a.source IS b.source
  AND a.meta IS b.meta AND a.human_level IS b.human_level
  AND a.human_score IS b.human_score AND a.human_model IS b.human_model")
expect_eq "$same" 68 "all 68 rows kept, column by column"
expect_eq "$(sqlite3 "$DB" "SELECT count(*) FROM puzzles")" 68 "no row added"
expect_eq "$(sqlite3 "$DB" "SELECT group_concat(x, ',') FROM (SELECT rowid || ':' || pack_id || ':' || puzzle_id || ':' || position || ':' || slot || ':' || coalesce(section, '') AS x FROM pack_puzzles ORDER BY rowid)")" \
    "$(sqlite3 "$TMP/old.db" "SELECT group_concat(x, ',') FROM (SELECT rowid || ':' || pack_id || ':' || puzzle_id || ':' || position || ':' || slot || ':' || coalesce(section, '') AS x FROM pack_puzzles ORDER BY rowid)")" \
    "pack membership kept row for row"

# --- 3. what it exports: the old quench's bytes -----------------------------
for p in eight ring subs; do
    for f in json csv; do
        q export $p --format $f -o "$TMP/$p.$f" --db "$DB"
        expect_rc 0 "export $p $f"
        cmp -s "$TMP/$p.$f" "$GOLD/$p.$f" && ok ||
            not_ok "export $p --format $f differs from the old quench's"
    done
done
q db stats --db "$DB"
tail -n +2 "$TMP/out" >"$TMP/stats"
tail -n +2 "$GOLD/stats.txt" | cmp -s - "$TMP/stats" && ok ||
    not_ok "db stats differs from the old quench's (past its first line)"

# --- 4. one row a puzzle, after the migration --------------------------------
# The same runs again store nothing new (their ids are in the migrated
# runs); a new run of classic 5x5 adds what it draws that is not stored.
q generate -n 40 --seed 81 --db "$DB" --pack eight "$C5"
expect_rc 0 "generate seed 81 again"
q generate -n 25 --seed 82 --db "$DB" --pack ring "$R8"
expect_rc 0 "generate seed 82 again"
printf '10101/01010/10101/01010/10101\n' >"$TMP/subs.txt"
qin "$TMP/subs.txt" validate "$C5" - --db "$DB" --into subs
expect_rc 1 "validate a stored puzzle again: a duplicate (exit 1)"
expect_err "1 duplicate" "validate says duplicate"
expect_eq "$(sqlite3 "$DB" "SELECT count(*) FROM puzzles")" 68 "the same runs and submission again added nothing"
q generate -n 200 --seed 83 --db "$DB" "$C5"
expect_rc 0 "a new run of classic 5x5"
q db check --db "$DB"
expect_rc 0 "db check after the new rows"

# every stored classic 5x5 state, its canonical form and id computed
# apart from quench; and the ids the export prints
python3 "$TOP/tests/state_blob.py" "$DB" "SELECT r.hash, state_text(p.state, r.layout, r.colours) FROM puzzles p JOIN rules r ON r.id = p.rule_id WHERE r.colours = 2 ORDER BY p.id" >"$TMP/states"
q export eight --format csv -o "$TMP/eight2.csv" --db "$DB"
py_checks "$TMP/states" "$TMP/eight2.csv" "$TOP/tests" <<'PY'
import csv, sys
sys.path.insert(0, sys.argv[3])
import puzzle_id
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
forms = {}
for h, s in rows:
    forms.setdefault(puzzle_id.canonical(s.split('/')), []).append(s)
twice = [v for v in forms.values() if len(v) > 1]
print("ok" if len(rows) > 43 and not twice else
      "not ok: %d rows, %d canonical forms, stored twice: %s" %
      (len(rows), len(forms), twice[:2]))
# the run of 200 from seed 83: it draws distinct puzzles, so the rows
# past the first 69 are at most 200, and at least 200 minus the 43
# classic 5x5 puzzles stored before it
new = len(rows) - 43
print("ok" if 157 <= new <= 200 else "not ok: %d new rows" % new)
h = rows[0][0]
got = [(r["id"], r["state"]) for r in csv.DictReader(open(sys.argv[2]))]
bad = [g for g in got if puzzle_id.puzzle_id(h, g[1]) != g[0]]
print("ok" if len(got) == 40 and not bad else
      "not ok: %d exported, ids wrong: %s" % (len(got), bad[:2]))
PY

# --- 5. a second copy written by hand is found by db check --------------------
# (a classic 5x5 database: tests/keyruns.py computes ids of square boards)
q generate -n 20 --seed 84 --db "$TMP/dup.db" "$C5"
expect_rc 0 "generate a classic 5x5 database"
sqlite3 "$TMP/dup.db" "INSERT INTO puzzles (rule_id, state, min_presses, optimal, witness, provenance) SELECT rule_id, state, min_presses, optimal, witness, 2 FROM puzzles WHERE id = 5"
q db check --db "$TMP/dup.db"
expect_rc 74 "db check: a row in no key run"
expect_err "row 21 (id " "names the row"
runs_from_rows "$TMP/dup.db"
q db check --db "$TMP/dup.db"
expect_rc 65 "db check: a puzzle stored twice"
expect_err "the same puzzle as #5 is stored" "db check names the first copy"

done_testing
