#!/bin/sh
# t050: the words quench prints (issue #23): no "1 puzzles" anywhere,
# rules show's values in one column and its state counts comparable at a
# glance, --version naming jansson as pkg-config does, one wording and
# status for everything that cannot be created, plan coordinates said to
# be (row, col), a big board's lower bound that is a real one, and the
# progress line with its rate, ETA and a warning for an unreachable target.
. "$(dirname "$0")/lib.sh"

R=$TOP/rules
DB=$TMP/m.db

# ---- plurals: run what prints counts that can be 1, then look at it all ----
: >all.txt
keep() { cat out err >>all.txt; }
q generate "$R/classic-3x3.yaml" -n 1 --presses 1 --seed 1 --db "$DB" --pack one
expect_rc 0 "one puzzle of one press"
keep
q pack --db "$DB" list
expect_out " 1 puzzle " "pack list: 1 puzzle"
keep
q pack --db "$DB" show one
expect_out "  1 press  " "pack show: 1 press"
keep
q db --db "$DB" stats
expect_out "(1 entry)" "db stats: 1 entry"
keep
q db --db "$DB" check
expect_out "1 witness verified" "db check: 1 witness"
keep
q db merge "$TMP/m2.db" "$DB"
expect_out "+1 puzzle (0 duplicates), +1 rule, +1 pack, +1 pack entry, +1 run" "db merge: singulars"
keep
q export one --format json --db "$DB" -o one.json
q import one.json --db "$TMP/m3.db"
expect_out "imported pack 'one': 1 puzzle, 1 rule" "import: singulars"
keep
# the one-press state of classic 3x3: the centre's plus (rule file: plus)
q solve "$R/classic-3x3.yaml" --state 010/111/010 --all
expect_out "optimal plans: 1 of 1 solution" "solve: 1 solution (its matrix is invertible)"
expect_out "    1 press: " "solve --all: 1 press"
keep
q rules show "$R/classic-3x3.yaml"
expect_out "1 quiet pattern," "rules show: 1 quiet pattern"
keep
q rules check "$R/classic-3x3.yaml"
keep
q solve "$R/classic-3x3.yaml" --state 000
expect_rc 65 "a state of one row"
expect_err "state has 1 row, board has 3" "state: 1 row"
keep
q solve "$R/classic-3x3.yaml" --state 0/000/000
expect_rc 65 "a row of one character"
expect_err "row 0 has 1 character, board rows have 3" "state: 1 character"
keep
printf '1/0000/0000/0000\n' >short.txt
q validate "$R/whack-a-mole-4x4.yaml" short.txt
expect_out "row 0 has 1 character," "validate: 1 character"
keep
printf 'quench: 1\nname: one\ncolours: 2\nboard:\n  grid: [1, 1]\npress:\n  stencil: plus\n' >one.yaml
q rules check one.yaml
expect_out "1 cell, 2 colours" "rules check: 1 cell"
keep
q -v generate "$R/classic-3x3.yaml" -n 1 --seed 1
expect_err "quench: 1 puzzle from" "generate: 1 puzzle"
keep
# (a 1 that ends a decimal, "62.1 puzzles/s", is a rate: plural is right)
if grep -E "(^|[^0-9.])1 (puzzles|presses|cells|draws|rules|entries|solutions|patterns|rows|holes|witnesses|packs|runs|duplicates|sections|values|submissions|characters)\b" all.txt; then
    not_ok "a count of 1 with a plural noun (above)"
else ok; fi

# ---- rules show: one column of values; counts that compare ----
q rules show "$R/ring6-mod8.yaml"
python3 - out <<'PY' && ok || not_ok "rules show: every value starts in the same column"
import re, sys
cols = set()
for line in open(sys.argv[1]):
    m = re.match(r"([a-z][a-z ]*:)( +)\S", line)
    if m and not line.startswith("  "):
        cols.add(len(m.group(1)) + len(m.group(2)))
sys.exit(len(cols) != 1)
PY
# ring6: 8 colours on 6 cells (rule file), 8^6 = 2^18 states of which
# solvable_states (4096 = 2^12) are solvable
expect_out "solvable states:      4096 = 2^12 of 8^6 = 2^18" "rules show: solvable of all, one base"
q rules show "$R/four-colour-10x10.yaml"
# 4 colours, 100 cells, A invertible (all_solvable): 4^100 = 2^200 of them
expect_out "solvable states:      all 4^100 = 2^200" "rules show: all of 4^100 said as such"
q rules show "$R/classic-3x3.yaml"
expect_out "solvable states:      all 2^9 = 512" "rules show: a short count in decimal too"

# ---- --version lists jansson, as the library says ----
q --version
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists jansson; then
    expect_out "jansson $(pkg-config --modversion jansson)" "--version: jansson's version"
else
    expect_out "jansson 2." "--version: jansson"
fi

# ---- one wording and status for what cannot be created ----
touch afile
q db init --db afile/sub/q.db
expect_rc 73 "a database under a file: 73"
expect_err "quench: afile/sub: cannot create: Not a directory" "database directory: the wording"
q generate "$R/classic-3x3.yaml" -n 1 --seed 1 -o afile/x.jsonl
expect_rc 73 "-o under a file: 73"
expect_err "quench: afile/x.jsonl: cannot create: Not a directory" "-o: the same wording"
mkdir ro && chmod 555 ro
chmod 755 "$TMP"
as_user "$QUENCH" pack --db ro/q.db create p >out 2>err
rc=$?
expect_rc 73 "a database in a read-only directory: 73"
expect_err "quench: ro/q.db: cannot create: Permission denied" "read-only directory: the wording"
if [ -e ro/q.db ]; then not_ok "a database was made in a read-only directory"; else ok; fi

# ---- plans in (row, col) ----
q solve "$R/whack-a-mole-4x4.yaml" --state 0100/1110/0001/1101
expect_out "cells:         (row, col), from (0,0) at the top left" "solve: cells labelled"
python3 - out <<'PY' && ok || not_ok "solve: each (row,col) of the plan is pressed at that row and column"
import re, sys
text = open(sys.argv[1]).read()
plan = re.findall(r"\((\d+),(\d+)\)", text.split("plan:", 1)[1].split("\n", 1)[0])
grid = text.split("press counts:\n", 1)[1].split("\nreplay:", 1)[0].split("\n")
sys.exit(not plan or any(grid[int(r)][int(c)] == "0" for r, c in plan))
PY
q solve "$R/classic-5x5.yaml" --state 10000/00000/00000/00000/00000
expect_out "cells:         (row, col), from (0,0) at the top left" "unsolvable: cells labelled"

# ---- a big board's lower bound: a real one, or none ----
# 1025 x 1025 plus over GF(2): its kernel is too large to walk, so the
# answer is not proven minimal. Every cell is lit (--fill 1) and a press
# changes at most 5 cells, so no plan has fewer than ceil(1025^2 / 5)
# presses.
q solve "$R/classic-5x5.yaml" --size 1025x1025 --fill 1 --json
expect_rc 0 "big board solved"
expect_eq "$(python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
print(not j['exact'], j['lower_bound'] >= -(-1025 * 1025 // 5), j['lower_bound'] <= j['min_presses'])" out)" \
    "True True True" "big board: lower bound >= ceil(lit / 5) <= presses"
q solve "$R/classic-5x5.yaml" --size 1025x1025 --fill 1
if grep -q "at least 0)\|at least 1)" out; then not_ok "big board: a bound that says nothing"; else ok; fi
expect_out "(not proven minimal: at least 210125)" "big board: the bound in the text"

# ---- the progress line: rate, ETA; a warning when out of reach ----
q -v generate "$R/classic-5x5.yaml" -n 50 --seed 1
expect_rc 0 "generate -v"
expect_err "puzzles/s, ETA" "-v: the progress line has a rate and an ETA"
if command -v script >/dev/null 2>&1; then
    script -qc "'$QUENCH' generate '$R/classic-5x5.yaml' -n 50 --seed 1 -o /dev/null" /dev/null >tty.txt 2>&1
    grep -q "puzzles/s, ETA" tty.txt && ok || not_ok "on a terminal: the progress line"
else
    echo "# script (bsdutils) missing: terminal progress not checked"
fi
# classic 5x5 (rules show --distribution): 7350 of its 8388608 solvable
# states need 15 presses, under 0.1 %; 50 of them take some 57000 draws,
# far past --max-draws 20000
q generate "$R/classic-5x5.yaml" -n 50 --presses 15 --mode sample --max-draws 20000 --seed 1
expect_rc 75 "an unreachable target: 75 as before"
expect_err "quench: warning: " "an unreachable target: warned"
expect_err "more than --max-draws 20000; the run will likely stop short (exit 75)" "the warning says why"
# the estimate is a whole number of draws, above --max-draws as the text
# says (not "1.02e+05 draws": is that more than 102000?)
q generate "$R/classic-5x5.yaml" -n 50 --presses 15 --mode sample --max-draws 100000 --seed 1 -o /dev/null
py_checks "$TMP/err" <<'PY'
import math, re, sys
m = re.search(r"(\d+) puzzles? on target in (\d+) draws: at that rate (\d+) "
              r"need about (\S+) draws, more than --max-draws (\d+)", open(sys.argv[1]).read())
if not m:
    print("not ok: no estimate in the warning")
else:
    got, draws, count, need, most = m.groups()
    print("ok" if need.isdigit() else "not ok: estimate %r is not a whole number" % need)
    want = math.ceil(int(draws) * int(count) / int(got))
    print("ok" if need.isdigit() and int(need) == want else "not ok: estimate %s, draws x count / found = %d" % (need, want))
    print("ok" if need.isdigit() and int(need) > int(most) else "not ok: %s is not more than %s" % (need, most))
PY
q -q generate "$R/classic-5x5.yaml" -n 50 --presses 15 --mode sample --max-draws 20000 --seed 1
if grep -q warning err; then not_ok "-q: no warning"; else ok; fi
q generate "$R/classic-5x5.yaml" -n 5 --presses 15 --mode sample --seed 1
expect_rc 0 "a reachable rare target"
if grep -q warning err; then not_ok "a reachable target: no warning"; else ok; fi

done_testing
