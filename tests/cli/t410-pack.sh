#!/bin/sh
# t410: quench pack create|list|show|add|remove|move|sort|rename|delete on
# a real database file: dense positions, versions, JSON, and errors.
# Puzzles are inserted with the sqlite3 shell when it is installed.
. "$(dirname "$0")/lib.sh"

DB=$TMP/x.db
RULES=$TOP/rules/classic-5x5.yaml
HASH=$("$QUENCH" rules show "$RULES" --json | sed 's/.*"hash":"\([0-9a-f]*\)".*/\1/')

q pack --db "$DB" create starter --title "Starter" --author "t410"
expect_rc 0 "pack create"
expect_out "created pack 'starter'" "create message"
q pack --db "$DB" create starter
expect_rc 65 "pack create: name taken"
expect_err "pack 'starter' already exists" "name taken message"
q pack --db "$DB" list
expect_rc 0 "pack list"
expect_out "starter" "list names the pack"
q pack --db "$DB" show nope
expect_rc 66 "show of a missing pack"
expect_err "no pack named 'nope'" "missing pack message"
q pack --db "$DB" frob
expect_rc 64 "unknown pack subcommand"
q pack --db "$DB" create
expect_rc 64 "create without NAME"
q pack --db "$DB" add starter x1
expect_rc 64 "bad puzzle id"

if ! command -v sqlite3 >/dev/null 2>&1; then
    echo "# sqlite3 shell not installed: membership tests skipped"
    done_testing
    exit
fi

# Six puzzles with real ids (tests/puzzle_id.py): rows 1-4 states of one
# and two lights, rows 5 and 6 the first two states (from the 25-bit
# number 5 up) whose ids share their first 4 hex digits but not the 5th,
# row 5 the smaller; no other row shares a 4-digit prefix. Sets I1..I6
# (ids), P1..P6 (their 4 digits), P5L (row 5's 5 digits), V5 and V6
# (their states as numbers) and NONE (4 digits no id starts with).
eval "$(python3 - "$TOP/tests" "$HASH" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import puzzle_id
def pid(v):
    return puzzle_id.puzzle_id(sys.argv[2], '/'.join(
        ''.join(str(v >> (5 * r + c) & 1) for c in range(5)) for r in range(5)))
rows = {v: pid(v) for v in (1, 2, 3, 4)}
assert len({i[:4] for i in rows.values()}) == 4
seen, v = {}, 5
while True:
    i = pid(v)
    if i[:4] not in {j[:4] for j in rows.values()}:
        if i[:4] in seen and seen[i[:4]][1][4] != i[4]:
            pair = sorted([seen[i[:4]], (v, i)], key=lambda p: p[1])
            break
        seen.setdefault(i[:4], (v, i))
    v += 1
ids = [rows[1], rows[2], rows[3], rows[4], pair[0][1], pair[1][1]]
for n, i in enumerate(ids, 1):
    print('I%d=%s P%d=%s' % (n, i, n, i[:4]))
print('P5L=%s V5=%d V6=%d' % (ids[4][:5], pair[0][0], pair[1][0]))
print('NONE=%s' % next(d * 4 for d in '9876543210abcdef'
                       if not any(i.startswith(d * 4) for i in ids)))
PY
)"
blob4() { printf "x'%08x'" "$(($1 << 24 & 0xff000000 | $1 << 8 & 0xff0000 | $1 >> 8 & 0xff00 | $1 >> 24 & 0xff))"; }
put_sql "$DB" <<SQL
INSERT INTO rules (hash, name, yaml, cells, colours, layout)
  VALUES ('$HASH', 'classic-5x5', CAST(readfile('$RULES') AS TEXT), 25, 2,
          '00000/00000/00000/00000/00000');
INSERT INTO new_puzzles (rule_id, state, min_presses, optimal, witness,
                         grade, provenance) VALUES -- grade 1 easy, 2 medium (0007)
 (1, x'01000000', 5, 1, x'00000000', 1, 2),
 (1, x'02000000', 3, 1, x'00000000', 1, 2),
 (1, x'03000000', 9, 1, x'00000000', 2, 2),
 (1, x'04000000', 3, 1, x'00000000', 1, 2),
 (1, $(blob4 "$V5"), 1, 1, x'00000000', 1, 2),
 (1, $(blob4 "$V6"), 1, 1, x'00000000', 1, 2);
SQL
# (states packed as docs/STORE.md says: a bit a cell, LSB first; the
# all-zero witnesses solve none of them)

order() { sqlite3 "$DB" "SELECT group_concat(puzzle_id, ' ') FROM (SELECT puzzle_id FROM pack_puzzles WHERE pack_id = 1 ORDER BY position)"; }
dense() { sqlite3 "$DB" "SELECT count(*) = coalesce(max(position), 0) AND coalesce(min(position), 1) = 1 FROM pack_puzzles WHERE pack_id = 1"; }

q pack --db "$DB" add starter $P1 $I2 $P3 $P4
expect_rc 0 "pack add by id and by unique prefix"
expect_out "added 4 puzzles to 'starter'" "add message"
expect_eq "$(order)" "1 2 3 4" "appended in order"
q pack --db "$DB" add starter $P5
expect_rc 64 "an ambiguous prefix is refused"
expect_err "puzzle id '$P5' is ambiguous: $I5, $I6" "ambiguity names both"
q pack --db "$DB" add starter $P5L --at 2
expect_rc 0 "pack add --at, a longer prefix"
expect_eq "$(order)" "1 5 2 3 4" "inserted at 2"
q pack --db "$DB" add starter $P3
expect_rc 65 "add a member twice"
expect_err "already in the pack" "twice message"
q pack --db "$DB" add starter $NONE
expect_rc 66 "add a missing puzzle"
expect_err "no puzzle with id $NONE" "missing puzzle message"
q pack --db "$DB" add starter 12
expect_rc 64 "a prefix under 4 digits"
expect_err "'12' is not a puzzle id" "short prefix message"
q pack --db "$DB" add starter '#99'
expect_rc 66 "add a missing row"
expect_err "no puzzle at row 99" "missing row message"
# all-or-nothing: one bad id adds none
q pack --db "$DB" remove starter $P4 $NONE
expect_rc 66 "remove with a bad id"
expect_eq "$(order)" "1 5 2 3 4" "nothing removed"
q pack --db "$DB" move starter '#1' 5
expect_rc 0 "pack move by row"
expect_eq "$(order)" "5 2 3 4 1" "moved to the end"
v0=$(sqlite3 "$DB" "SELECT version FROM packs WHERE name = 'starter'")
q pack --db "$DB" move starter $P1 5
expect_rc 0 "pack move to where it is"
expect_eq "$(sqlite3 "$DB" "SELECT version FROM packs WHERE name = 'starter'")" "$v0" "a move that changes nothing keeps the version"
q pack --db "$DB" move starter $P1 6
expect_rc 65 "move past the end"
q pack --db "$DB" remove starter $P3
expect_rc 0 "pack remove"
expect_eq "$(order)" "5 2 4 1" "removed"
expect_eq "$(dense)" 1 "positions dense after remove"
q pack --db "$DB" sort starter
expect_rc 0 "pack sort"
expect_eq "$(order)" "5 2 4 1" "by min presses; ties (2, 4: 3 presses) keep their order"
q pack --db "$DB" move starter $P4 2
expect_eq "$(order)" "5 4 2 1" "by hand after sorting"
q pack --db "$DB" sort starter
expect_eq "$(order)" "5 4 2 1" "a tie keeps the designer's order, never the row ids"
v0=$(sqlite3 "$DB" "SELECT version FROM packs WHERE name = 'starter'")
q pack --db "$DB" sort starter
expect_eq "$(sqlite3 "$DB" "SELECT version FROM packs WHERE name = 'starter'")" "$v0" "sorting a sorted pack keeps the version"
q pack --db "$DB" move starter $I5 2
expect_eq "$(order)" "4 5 2 1" "by hand"
expect_eq "$(dense)" 1 "positions dense"

q pack --db "$DB" show starter
expect_rc 0 "pack show"
expect_out "pack:        starter" "show header"
expect_out "author:      t410" "show author"
expect_out "puzzles:     4" "show count"
grep -qE "^ +1  $I4  classic-5x5 +slot 4 +3 presses  easy +00100/00000/00000/00000/00000\$" "$TMP/out" && ok || not_ok "show row 1: position, id, rule"
q pack --db "$DB" show starter --json
expect_rc 0 "pack show --json"
expect_out '"name":"starter"' "json name"
expect_out "\"puzzles\":[{\"position\":1,\"id\":\"$I4\",\"row\":4," "json first puzzle"
expect_out '"min_presses":3' "json presses"
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [p["row"] for p in d["puzzles"]] == [4,5,2,1]' "$TMP/out" && ok || not_ok "json parses"
fi
v=$(sqlite3 "$DB" "SELECT version FROM packs WHERE name = 'starter'")
[ "$v" -gt 5 ] && ok || not_ok "version bumped by each change (got $v)"

q pack --db "$DB" create other
q pack --db "$DB" rename starter other
expect_rc 65 "rename onto a taken name"
q pack --db "$DB" rename starter first
expect_rc 0 "pack rename"
q pack --db "$DB" list --json
expect_rc 0 "pack list --json"
expect_out '{"name":"first","title":"Starter","version":' "list json"
# a puzzle in a pack cannot be deleted behind its back
if sqlite3 "$DB" "PRAGMA foreign_keys = ON; DELETE FROM puzzles WHERE id = 2" 2>/dev/null; then
    not_ok "a pack member was deleted"
else ok; fi
q pack --db "$DB" delete first
expect_rc 0 "pack delete"
expect_eq "$(sqlite3 "$DB" 'SELECT count(*) FROM pack_puzzles')" 0 "membership gone"
expect_eq "$(sqlite3 "$DB" 'SELECT count(*) FROM puzzles')" 6 "puzzles stay"
q pack --db "$DB" delete first
expect_rc 66 "delete twice"
q db --db "$DB" check
expect_rc 65 "fake witnesses fail the check"

done_testing
