#!/bin/sh
# t547: migration 0004 (issue #24: the puzzle row at generation speed) on
# a database the quench before it wrote (tests/golden/store-v3, made as
# its README says): every puzzle, id, seed, pack and run kept, the
# exports byte for byte what that quench exported, the interrupted run
# resumed, and the new unique key refusing what the old one refused.
. "$(dirname "$0")/lib.sh"

GOLD=$TOP/tests/golden/store-v3
C5=$TOP/rules/classic-5x5.yaml
C7=$TOP/rules/classic-7x7.yaml
DB=$TMP/v3.db
cp "$GOLD/v3.db" "$DB"

q db migrate --db "$DB"
expect_rc 0 "db migrate of a schema-3 database"
expect_out "schema version 3 -> $SCHEMA" "migrate says 3 -> $SCHEMA"
q db check --db "$DB"
expect_rc 0 "db check after the migration"
expect_out "60 witnesses verified" "every puzzle kept and verified"

# every row as the old quench stored it: the state and witness unpacked
# by the format's definition (tests/state_blob.py), the provenance by its
# code, the seed read back through its run where the row now keeps ''
# (the old file had it spelt out)
rows_of() {
python3 "$TOP/tests/state_blob.py" "$1" "SELECT p.id, printf('%016x', run_uid(p.id)),
  r.hash, state_text(p.state, r.layout, r.colours),
  state_text(p.witness, r.layout, r.colours), coalesce(iif(p.seed = '',
  (SELECT seed FROM runs WHERE id = p.run_id), p.seed), '-'),
  coalesce(p.stream_index, '-'),
  CASE p.provenance WHEN 0 THEN 'generate' WHEN 1 THEN 'validate'
  WHEN 2 THEN 'import' END, coalesce(p.run_id, '-'),
  coalesce(p.submission, '-')
  FROM puzzles p JOIN rules r ON r.id = p.rule_id ORDER BY p.id"
}
rows_of "$DB" >"$TMP/rows"
cmp -s "$TMP/rows" "$GOLD/rows.txt" && ok || not_ok "every puzzle row kept (id, puzzle id, state, witness, seed, index, provenance, run)"
expect_eq "$(sqlite3 "$DB" "SELECT count(*) FROM puzzles WHERE seed = ''")" 53 "the 53 generated rows keep '' for their run's seed"
expect_eq "$(sqlite3 "$DB" "SELECT count(*) FROM puzzles WHERE seed IS NULL")" 2 "validated rows: no seed"
sqlite3 -separator ' ' "$DB" "SELECT pack_id, position, puzzle_id FROM pack_puzzles
  ORDER BY pack_id, position" >"$TMP/members"
cmp -s "$TMP/members" "$GOLD/members.txt" && ok || not_ok "every pack membership kept"
expect_eq "$(sqlite3 "$DB" "SELECT count(*) FROM sqlite_schema WHERE name IN ('puzzles_uid', 'puzzles_run', 'puzzles_v4', 'm4_members')")" 0 "no old index nor scratch table left"

# what the old quench exported, byte for byte (the seed joined back)
for p in five mod8 imported; do
    q export "$p" --db "$DB" --format jsonl -o "$TMP/$p.jsonl"
    expect_rc 0 "export $p"
    # the play kit (#34) adds each rule's "kernel", the level slots (#34)
    # each puzzle's "slot" (its position: a migrated pack's slots are its
    # positions) and "section" (none before recipes kept them); every
    # other byte is the old quench's
    python3 - "$TMP/$p.jsonl" <<'PY' && ok || not_ok "export $p: migrated slots are the positions, sections empty"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])][1:]
assert recs and all(r["slot"] == r["position"] and r["section"] == "" for r in recs)
PY
    # #36 exports the tiers that graded a rule without tiers of its own,
    # where the old quench wrote []: each puzzle's grade must be the tier
    # its press count falls in; then those tiers read as the old []
    python3 - "$TMP/$p.jsonl" "$GOLD/$p.jsonl" "$TMP/$p.tiers" <<'PY' && ok || not_ok "export $p: each grade is the exported tier of its press count"
import json, sys
new = [json.loads(l) for l in open(sys.argv[1])]
old = json.loads(open(sys.argv[2]).readline())
was_empty = {r["hash"] for r in old["rules"] if r["tiers"] == []}
tiers = {r["hash"]: r["tiers"] for r in new[0]["rules"]}
for rec in new[1:]:
    t = [x["name"] for x in tiers[rec["rule"]]
         if x["lo"] <= rec["min_presses"] <= x["hi"]]
    assert t in ([rec["grade"]], []) and (t or not tiers[rec["rule"]]), rec
with open(sys.argv[3], "w") as f:
    f.write(" ".join(sorted(h for h in was_empty if tiers[h])))
PY
    # rows stored before #33 have no human grade: null in every export
    grep -q '"human_level":null,"human_level_number":null,"human_score":null,"human_model_version":null' "$TMP/$p.jsonl" &&
        ! grep -q '"human_level":"' "$TMP/$p.jsonl" && ok || not_ok "export $p: migrated rows have no human grade"
    sed -E 's/,"kernel":\[(\{[^{}]*\},?)*\]//g; s/,"slot":[0-9]+,"section":""//g;
            s/,"human_level":null,"human_level_number":null,"human_score":null,"human_model_version":null//g' "$TMP/$p.jsonl" >"$TMP/$p.old"
    if [ -s "$TMP/$p.tiers" ]; then
        sed -i -E 's/"tiers":\[(\{"name":"[a-z]+","lo":[0-9]+,"hi":[0-9]+\},?)+\]/"tiers":[]/g' "$TMP/$p.old"
    fi
    grep -q '"kernel":\[{"order":' "$TMP/$p.jsonl" && ok || not_ok "export $p: carries the kernel"
    cmp -s "$TMP/$p.old" "$GOLD/$p.jsonl" && ok || not_ok "export $p: the old quench's bytes"
done
q pack show five --db "$DB" --json
# #36 names a puzzle's fields as the exports do (solution, index, "" for
# none: t640); less the slot and section (#34) of each member, every
# other byte is the old quench's
sed -E 's/"witness":/"solution":/g; s/"stream_index":null/"index":-1/g;
        s/"stream_index":/"index":/g; s/":null/":""/g' "$GOLD/five-show.json" >"$TMP/five-show.new"
sed -E 's/,"slot":[0-9]+,"section":""//g;
        s/,"human_level":null,"human_level_number":null,"human_score":null,"human_model_version":null//g' "$TMP/out" >"$TMP/show.old"
cmp -s "$TMP/show.old" "$TMP/five-show.new" && ok || not_ok "pack show --json: the old quench's bytes"

# the finished run prints from the database as before; the interrupted
# one resumes and prints what the uninterrupted run printed
# (records gained the human grade (#33) after that quench: left out here)
records() { grep '"type":"puzzle"' "$1" |
    sed 's/,"human_level":[^,]*,"human_level_number":[^,]*,"human_score":[^,]*//'; }
q generate "$C5" -n 40 --seed 31 --db "$DB" --pack five
expect_rc 0 "the finished run again"
expect_err "40 puzzles of finished run 1, from the database" "printed from the database"
[ "$(records "$TMP/out")" = "$(records "$GOLD/gen-5x5.jsonl")" ] && ok || not_ok "the finished run's records, seeds joined back"
q generate "$C7" -n 6 --seed 33 --db "$DB"
expect_rc 0 "resume the run the old quench left interrupted"
expect_err "resuming run 3: 3 puzzles already stored" "found again"
[ "$(records "$TMP/out")" = "$(records "$GOLD/gen-7x7.jsonl")" ] && ok || not_ok "the resumed run prints the records the uninterrupted run printed"

# the new key refuses a duplicate up to symmetry as the old one did: a
# puzzle turned by a symmetry of the board, stored again by import
q export five --db "$DB" --format json -o "$TMP/five.json"
before=$(sqlite3 "$DB" 'SELECT count(*) FROM puzzles')
q import "$TMP/five.json" --db "$DB" --pack again
expect_rc 0 "import of the pack's own export"
expect_eq "$(sqlite3 "$DB" 'SELECT count(*) FROM puzzles')" "$before" "nothing stored twice"
# and by the database itself, whatever the writer believes: by the
# unique key while there is one, else (after the flip of the key-run
# store) by db check, which finds it from the states
cp "$DB" "$TMP/dup.db"
if put_sql "$TMP/dup.db" 2>"$TMP/dup.err" <<'SQL'
INSERT INTO new_puzzles (rule_id, state, min_presses, optimal, witness,
                         provenance)
  SELECT rule_id, state, min_presses, optimal, witness, 2 FROM puzzles
  ORDER BY id LIMIT 1
SQL
then
    if has_column "$TMP/dup.db" puzzles canon; then
        not_ok "a raw duplicate row accepted"
    else
        q db check --db "$TMP/dup.db"
        expect_rc 65 "db check of a raw duplicate row"
        expect_err "the same puzzle as #1 is stored" "the duplicate named"
    fi
else expect_eq "$(grep -c 'UNIQUE constraint failed' "$TMP/dup.err")" 1 "refused by the unique key"; fi

# a row sqlite3 damaged by hand cannot be packed: the migration fails,
# naming the row, and the file is as it was; so does a row whose rule set
# sqlite3 removed (foreign keys are off there by default), not dropped
for damage in "state = '00000/00000/00000/00000/0000' WHERE id = 5|puzzle at row 5: state at byte 29: expected a cell, got the end" \
              "rule_id = 99 WHERE id = 7|puzzle at row 7: its rule set is not in the database" \
              "witness = '10102/00000/00000/00000/00000' WHERE id = 9|puzzle at row 9: witness at byte 5: value 2, the rule set has 2 colours" \
              "state = '1010!/01100/10010/10011/11101' WHERE id = 1|puzzle at row 1: its rule set's board cannot be read"; do
    cp "$GOLD/v3.db" "$TMP/bad.db"
    sqlite3 "$TMP/bad.db" "UPDATE puzzles SET ${damage%%|*}"
    before=$(sha256sum <"$TMP/bad.db")
    q db migrate --db "$TMP/bad.db"
    expect_rc 74 "migrating a damaged row"
    expect_err "$TMP/bad.db: migration 0004_row_keys: ${damage#*|}" "the damaged row named"
    expect_eq "$(sha256sum <"$TMP/bad.db")" "$before" "the damaged database untouched"
    expect_eq "$(sqlite3 "$TMP/bad.db" 'PRAGMA user_version')" 3 "still at schema 3"
done

# a row whose stored puzzle id is not its puzzle's (the quench before
# 0004 stored a library caller's id unchecked) gets its own: the ids are
# the golden rows' again, so the key refuses its duplicates
cp "$GOLD/v3.db" "$TMP/uid.db"
sqlite3 "$TMP/uid.db" "UPDATE puzzles SET uid = 12345 WHERE id = 3; UPDATE puzzles SET uid = NULL WHERE id = 4"
q db migrate --db "$TMP/uid.db"
expect_rc 0 "migrating rows with a wrong and a missing id"
rows_of "$TMP/uid.db" >"$TMP/uid-rows"
cmp -s "$TMP/uid-rows" "$GOLD/rows.txt" && ok || not_ok "every id computed again: the golden rows"

# a database migrated while a second quench opens it: one migration
cp "$GOLD/v3.db" "$TMP/two.db"
"$QUENCH" -q db stats --db "$TMP/two.db" >/dev/null 2>&1 &
"$QUENCH" -q db stats --db "$TMP/two.db" >/dev/null 2>&1
wait
expect_eq "$(sqlite3 "$TMP/two.db" 'PRAGMA user_version')" "$SCHEMA" "two openers: migrated once, to $SCHEMA"
expect_eq "$(sqlite3 "$TMP/two.db" 'SELECT count(*) FROM puzzles')" 60 "and every puzzle there"

done_testing
