#!/bin/sh
# t545: one puzzle identity, and the same bytes however a pack was made
# (issue #19). The ids are checked against tests/puzzle_id.py, an
# independent implementation of the definition in docs/STORE.md; the
# migration against a database written by the quench before the ids
# (tests/golden/store-v1, and the ids that version printed); sharded runs
# against the single run, byte for byte.
. "$(dirname "$0")/lib.sh"

C5=$TOP/rules/classic-5x5.yaml
C7=$TOP/rules/classic-7x7.yaml
GOLD=$TOP/tests/golden/store-v1
PID="python3 $TOP/tests/puzzle_id.py"

# --- 1. the id is the definition's, whoever computes it -------------------
q generate "$C5" -n 40 --seed 21
expect_rc 0 "generate"
python3 - "$TMP/out" "$TOP/tests/puzzle_id.py" <<'EOF' && ok || not_ok "generate's ids are the independent implementation's"
import json, os, sys
sys.path.insert(0, os.path.dirname(sys.argv[2]))
from puzzle_id import puzzle_id
recs = [json.loads(l) for l in open(sys.argv[1])]
recs = [r for r in recs if r["type"] == "puzzle"]
assert len(recs) == 40
for r in recs:
    want = puzzle_id(r["rule_hash"], r["state"])
    assert r["id"] == want, (r["id"], want)
EOF

# --- 2. the migration, on a database of the quench before the ids --------
cp "$GOLD/v1.db" "$TMP/old.db"
q db migrate --db "$TMP/old.db"
expect_rc 0 "db migrate of a schema-1 database"
expect_out "schema version 1 -> $SCHEMA" "migrate says 1 -> $SCHEMA (0002 on)"
q db check --db "$TMP/old.db"
expect_rc 0 "db check after the migration: every stored id is its puzzle's"
expect_out "31 witnesses verified" "every puzzle checked"
python3 "$TOP/tests/state_blob.py" "$TMP/old.db" "SELECT r.hash,
  state_text(p.state, r.layout, r.colours), printf('%016x', run_uid(p.id))
  FROM puzzles p JOIN rules r ON r.id = p.rule_id" | sort >"$TMP/migrated"
missing=$(awk 'NR == FNR { id[$1 " " $2] = $3; next }
               ($1 " " $2) in id { n++; if (id[$1 " " $2] != $3) bad++ }
               END { print n + 0, bad + 0 }' "$GOLD/ids.txt" "$TMP/migrated")
expect_eq "$missing" "29 0" "29 generated puzzles: each migrated id is the one the old generate printed"
expect_eq "$(python3 "$TOP/tests/state_blob.py" "$TMP/old.db" 'SELECT count(*) FROM puzzles WHERE run_uid(id) IS NULL')" 0 "no puzzle left without an id"
# the same seen by a new quench opening it (migrating on open)
cp "$GOLD/v1.db" "$TMP/old2.db"
q pack show mixed --db "$TMP/old2.db" --json
expect_rc 0 "pack show of an old database migrates it"
first=$(sed -n 1p "$GOLD/ids.txt" | cut -d' ' -f3)
grep -q "\"id\":\"$first\"" "$TMP/out" && ok || not_ok "pack show names the old puzzles by the ids generate printed"
# a pack mixing rules names them in the list and on every row
q pack list --db "$TMP/old2.db"
expect_out "[classic-5x5, four-colour-10x10, hexagon-3, ring6, whack-a-mole-4x4]" "pack list names a mixed pack's rules"
q pack show mixed --db "$TMP/old2.db"
for r in classic-5x5 four-colour-10x10 hexagon-3 ring6 whack-a-mole-4x4; do
    expect_eq "$(grep -c "^ *[0-9]*  [0-9a-f]\{16\}  $r " "$TMP/out")" 4 "pack show: 4 rows name $r"
done
# the interrupted run of the old quench resumes under the new key (the
# count and the default --max-draws left it) and prints the whole run
q generate "$C7" -n 5 --seed 13 --db "$TMP/old.db"
expect_rc 0 "resume a run the old quench left interrupted"
expect_err "resuming run 7: 3 puzzles already stored" "found under the new key"
# (its puzzle records: the header and summary name this quench's grader
# and target fields)
# (records gained the human grade after that quench: left out here)
records() { grep '"type":"puzzle"' "$1" |
    sed 's/,"human_level":[^,]*,"human_level_number":[^,]*,"human_score":[^,]*//'; }
[ "$(records "$TMP/out")" = "$(records "$GOLD/gen-7x7.jsonl")" ] && ok || not_ok "the resumed run prints the records the uninterrupted run printed"

# --- 3. ids on the command line -------------------------------------------
DB=$TMP/ids.db
q generate "$C5" -n 6 --seed 22 --db "$DB" --pack p
cp "$TMP/out" "$TMP/gen"
ids=$(grep '"puzzle"' "$TMP/out" | sed 's/.*"id":"\([0-9a-f]*\)".*/\1/')
id3=$(echo "$ids" | sed -n 3p)
q solve --id "$id3" --db "$DB" --json
expect_rc 0 "solve --id"
st3=$(grep "\"id\":\"$id3\"" "$TMP/gen" | sed 's/.*"min_presses":\([0-9]*\).*/\1/')
expect_out "\"min_presses\":$st3" "solve --id solves that puzzle (its minimum)"
q pack show p --db "$DB"
expect_out "$id3" "pack show prints the id generate printed"
q pack remove p "$(echo "$id3" | cut -c1-6)" --db "$DB"
expect_rc 0 "pack remove by a 6-digit prefix"
q pack show p --db "$DB" --json
grep -q "\"id\":\"$id3\"" "$TMP/out" && not_ok "removed puzzle still shown" || ok
q solve --id 0123456789abcdeg --db "$DB"
expect_rc 64 "solve --id of a malformed id"
q solve --id 0123456789abcdef --db "$DB"
expect_rc 66 "solve --id of an unknown id"
# db check computes each row's id from its state and compares it with
# the id its key run holds: a state changed by hand (its first cell
# flipped) is named with both ids, each from tests/puzzle_id.py
ST=$TOP/tests/state_blob.py
L5=00000/00000/00000/00000/00000
H5=$("$QUENCH" rules show "$C5" --json | sed 's/.*"hash":"\([0-9a-f]*\)".*/\1/')
cp "$DB" "$TMP/bad.db"
old=$(python3 "$ST" "$TMP/bad.db" "SELECT state_text(state, '$L5', 2) FROM puzzles WHERE id = 2")
new=$(echo "$old" | sed 's/^0/x/; s/^1/0/; s/^x/1/')
python3 "$ST" "$TMP/bad.db" "UPDATE puzzles SET state = state_blob('$new', '$L5', 2) WHERE id = 2"
q db check --db "$TMP/bad.db"
expect_rc 74 "db check finds a row whose state is not its key run's id"
expect_err "key runs: rule set 1: row 2: its state gives id $($PID "$H5" "$new"), its key run holds $($PID "$H5" "$old")" "and names the row and both ids"
# a key run holding a wrong id for a row (tests/keyruns.py rewrites the
# run with the row's id plus one): named with both
cp "$DB" "$TMP/run.db"
wrong_id "$TMP/run.db" 2
id2=$($PID "$H5" "$old")
q db check --db "$TMP/run.db"
expect_rc 74 "db check finds a key run's id that is not its row's"
expect_err "key runs: rule set 1: row 2: its state gives id $id2, its key run holds $(python3 -c "print('%016x' % ((int('$id2', 16) + 1) % 2**64))")" "and names both"

# a validated submission keeps who sent it, shown by pack show
printf '{"id":"bob-1","state":"10000/11000/10000/00000/00000","author":"bob"}\n' >"$TMP/subs.jsonl"
q validate "$C5" "$TMP/subs.jsonl" --db "$DB" --into subs --jsonl
expect_rc 0 "validate --into"
sid=$(sed 's/.*"puzzle_id":"\([0-9a-f]*\)".*/\1/' "$TMP/out")
h5=$("$QUENCH" rules show "$C5" --json | sed 's/.*"hash":"\([0-9a-f]*\)".*/\1/')
expect_eq "$sid" "$($PID "$h5" 10000/11000/10000/00000/00000)" "validate's puzzle_id is the independent id"
q pack show subs --db "$DB"
expect_out "  $sid  classic-5x5" "pack show names the submission by its id"
expect_out "submitted as bob-1 at $TMP/subs.jsonl:1" "and says who sent it, from where"

# --- 4. sharded runs merged are the single run, byte for byte --------------
S=$TMP/shard
mkdir -p "$S"
q generate "$C5" -n 300 --seed 23 --db "$S/single.db" --pack camp
expect_rc 0 "the single run"
q export camp --format json --db "$S/single.db" -o "$S/single.json"
q pack sort camp --db "$S/single.db"
q export camp --format json --db "$S/single.db" -o "$S/single-sorted.json"
for n in 1 2 3 7; do
    i=0
    while [ "$i" -lt "$n" ]; do
        rm -f "$S/s$i.db"*
        q generate "$C5" -n 300 --seed 23 --shard "$i/$n" --db "$S/s$i.db" --pack camp
        i=$((i + 1))
    done
    fwd=$(i=0; while [ "$i" -lt "$n" ]; do printf '%s ' "$S/s$i.db"; i=$((i + 1)); done)
    rev=$(i=$((n - 1)); while [ "$i" -ge 0 ]; do printf '%s ' "$S/s$i.db"; i=$((i - 1)); done)
    for order in fwd rev; do
        rm -f "$S/m.db"*
        eval "files=\$$order"
        # shellcheck disable=SC2086
        q db merge "$S/m.db" $files
        expect_rc 0 "N=$n $order: db merge"
        q export camp --format json --db "$S/m.db" -o "$S/m.json"
        cmp -s "$S/m.json" "$S/single.json" && ok || not_ok "N=$n $order: the merged pack's json is the single run's, byte for byte"
        q pack sort camp --db "$S/m.db"
        q export camp --format json --db "$S/m.db" -o "$S/m.json"
        cmp -s "$S/m.json" "$S/single-sorted.json" && ok || not_ok "N=$n $order: sorted, still the single run's bytes"
    done
done
# one shard at a time, into the same database, in a scrambled order
rm -f "$S/m.db"*
for i in 2 0 1; do q db merge "$S/m.db" "$S/s$i.db"; done
q db merge "$S/m.db" "$S/s6.db" "$S/s3.db" "$S/s5.db" "$S/s4.db"
q export camp --format json --db "$S/m.db" -o "$S/m.json"
cmp -s "$S/m.json" "$S/single.json" && ok || not_ok "7 shards merged in four commands: the single run's bytes"
q pack list --db "$S/m.db"
expect_out "v1 " "the merged pack is version 1, as the single run's"

# --- 5. the same command twice: the same records, nothing changed ---------
R=$TMP/rerun.db
q generate "$C7" -n 30 --seed 24 --db "$R" --pack r
cp "$TMP/out" "$TMP/first"
before=$(sqlite3 "$R" .dump)
q generate "$C7" -n 30 --seed 24 --db "$R" --pack r
expect_rc 0 "the same command again"
cmp -s "$TMP/out" "$TMP/first" && ok || not_ok "prints the same records (from the database)"
expect_err "30 puzzles of finished run 1, from the database" "says where they came from"
[ "$(sqlite3 "$R" .dump)" = "$before" ] && ok || not_ok "and changes nothing in the database"
# without --db, with --db after a smaller run, extended: the same records
q generate "$C7" -n 3 --seed 99
cp "$TMP/out" "$TMP/nodb3"
E=$TMP/extend.db
q generate "$C7" -n 2 --seed 99 --db "$E"
q generate "$C7" -n 3 --seed 99 --db "$E"
expect_rc 0 "-n 3 after -n 2"
cmp -s "$TMP/out" "$TMP/nodb3" && ok || not_ok "-n 3 after -n 2 prints what -n 3 prints without --db"
expect_eq "$(sqlite3 "$E" 'SELECT count(*), max(requested) FROM runs')" "1|3" "one run, extended to 3"
q generate "$C7" -n 3 --seed 99 --db "$E"
cmp -s "$TMP/out" "$TMP/nodb3" && ok || not_ok "and once more, from the database"

# --- 6. pack sort and the demo twice change nothing ------------------------
D=$TMP/demo.db
for round in 1 2; do
    q generate "$C5" -n 100 --seed 2026 --db "$D" --pack starter
    q pack sort starter --db "$D"
    eval "dump$round=\$(sqlite3 \"\$D\" .dump)"
done
[ "$dump1" = "$dump2" ] && ok || not_ok "make demo's commands run twice change nothing"
expect_eq "$(sqlite3 "$D" "SELECT version FROM packs")" 2 "built at 1, sorted once: version 2"

done_testing
