#!/bin/sh
# tier: full (300 commands on damaged databases, make torture's sample: 7 s of CPU)
# t455: damaged databases never crash quench (issue #17). A sample of
# `make torture`'s corruption sweep (scripts/corrupt.py): seeded damage to
# copies of real databases, then every command that reads a database: no
# signal, no sanitizer report, no exit 70, a message with every failure.
# Its named cases crashed export and pack show --svg before the fix. Then
# stored data that SQLite cannot tell from good data but that breaks
# quench's own invariants, with the status and message each must get.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

# 10 rounds (30 commands each) besides the named cases; 3 under the
# sanitizers, which run each command some 10x slower (CI's 30 minutes):
# make torture runs 500
rounds=10
case $QUENCH in */san/*) rounds=3 ;; esac
python3 "$TOP/scripts/corrupt.py" --quench "$QUENCH" --case all \
    --rounds $rounds --seed 450 --jobs 2 --out "$TMP/sweep" >sweep.txt 2>&1
expect_eq "$?" 0 "corruption sweep: $(tail -n 1 sweep.txt)"
if grep -q "$rounds rounds + 4 cases, $((rounds * 30 + 120)) command runs, 0 failures" sweep.txt
then ok; else
    not_ok "corruption sweep"
    grep -A 4 '^FAIL' sweep.txt | head -n 40
fi
rm -rf "$TMP/sweep" # (the allocation-failure sweep copies this directory)

# sql DB STATEMENT: run STATEMENT on DB with SQLite's CHECKs off
sql() {
    python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA ignore_check_constraints = ON")
db.execute(sys.argv[2])
db.commit()' "$@"
}
q -q generate "$R/classic-5x5.yaml" -n 12 --seed 1 --db good.db --pack p
expect_rc 0 "generate the pack"

# A minimal plan presses each cell a number of times that add up to the
# minimum: a stored min_presses of 2^62 cannot belong to its solution
# (pack show --svg sized a histogram by it and crashed; export wrote it).
cp good.db d.db
sql d.db "UPDATE puzzles SET min_presses = 4611686018427387904 WHERE id =
          (SELECT puzzle_id FROM pack_puzzles WHERE position = 3)"
for cmd in "export p --format json" "export p --format svg" \
           "pack show p --svg"; do
    # shellcheck disable=SC2086
    q $cmd --db d.db
    expect_rc 65 "$cmd, min_presses 2^62"
    expect_err "d.db: stored puzzle 3 of pack 'p' does not load: its solution has" "$cmd, min_presses 2^62"
    expect_empty_out "$cmd, min_presses 2^62"
done
q db check --db d.db
expect_rc 65 "db check, min_presses 2^62"
expect_err "the stored minimum is not the minimum" "db check, min_presses 2^62"

# One row a puzzle a rule: the unique index holds it for the stored
# canonical keys, so a second copy of puzzle #1 under #2's key (every
# column but the key copied) is one SQLite cannot see. db check finds it
# from the states themselves.
# (after the flip of the key-run store no uid column: the state gives it)
cp good.db d.db
uid=$(has_column d.db puzzles uid && echo ", uid")
sql d.db "UPDATE puzzles SET (state, min_presses, optimal, witness, grade,
          seed, stream_index$uid, human_level, human_score, human_model) =
          (SELECT state, min_presses, optimal, witness, grade, seed,
           stream_index$uid, human_level, human_score, human_model
           FROM puzzles WHERE id = 1) WHERE id = 2"
runs_from_rows d.db # (so that the key runs hold #2's new id)
q db check --db d.db
expect_rc 65 "db check, a puzzle stored twice"
expect_err "(#2, classic-5x5): the same puzzle as #1 is stored" "db check, a puzzle stored twice"
q db check --db good.db
expect_rc 0 "db check of the undamaged database"

# A rule is known by its hash: text that no longer hashes to it (the board
# now wraps) is not that rule, and export must not write its puzzles
# under another rule.
cp good.db d.db
sql d.db "UPDATE rules SET yaml = replace(yaml, 'wrap: none', 'wrap: both')"
q export p --format csv --db d.db
expect_rc 65 "export of a rule whose text changed"
expect_err "d.db: stored rule 1 (classic-5x5) hashes to" "export of a rule whose text changed"
q pack show p --svg --db d.db
expect_rc 65 "pack show --svg of a rule whose text changed"
q db check --db d.db
expect_rc 65 "db check of a rule whose text changed"

# Rule text that no longer loads.
cp good.db d.db
sql d.db "UPDATE rules SET yaml = replace(yaml, 'wrap: none', 'wrap: nne')"
q export p --format json --db d.db
expect_rc 65 "export of a rule that does not load"
expect_err "d.db: stored rule 1 does not load: " "export of a rule that does not load"

# The same run generated again into either file: each puzzle's id is
# found in the rule's set, and the stored state must be canonicalized to
# tell a duplicate from a puzzle sharing its id. A text that does not
# load, or is not the rule its hash names (a torus's symmetries would
# find every stored puzzle new), cannot: refused (74), nothing stored.
for change in "'wrap: none', 'wrap: nne'" "'wrap: none', 'wrap: both'"; do
    cp good.db d.db
    sql d.db "UPDATE rules SET yaml = replace(yaml, $change)"
    q -q generate "$R/classic-5x5.yaml" -n 12 --seed 1 --db d.db
    expect_rc 74 "generate again into a rule changed by replace($change)"
    expect_err "text does not load, so a puzzle sharing its id with a stored one cannot be told apart" \
        "generate again, replace($change): the reason"
    expect_eq "$(sqlite3 d.db "SELECT count(*) FROM puzzles")" 12 \
        "generate again, replace($change): no puzzle stored twice"
done

done_testing
