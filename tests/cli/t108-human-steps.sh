#!/bin/sh
# t108: `solve --steps --human` narrates the technique of the state's
# human level (issue #33): the rows a chase clears and what it presses,
# the residual, the table pattern and the second chase. The expected
# lines are worked out by hand on classic 3x3 (rows from the top; a lit
# cell of row r is cleared by pressing the cell below it):
#   all lit: the first chase presses row 2 whole (row 1 lit), leaving
#   000/101/000, then (2,0) (2,2) (row 2's lit cells), leaving 101 in
#   the last row; the first-row pattern (0,0) (0,2) makes 101/101/101,
#   and the second chase presses (1,0) (1,2): 5 + 2 + 2 presses.
. "$(dirname "$0")/lib.sh"
C3=$TOP/rules/classic-3x3.yaml

q solve "$C3" --state 111/111/111 --steps --human
expect_rc 0 "all lit"
cat >want <<'EOT'
technique: table (2) from the top
  first chase, from the top:
    row 1 clears: press in row 2: (1,0) (1,1) (1,2)
    row 2 clears: press in row 3: (2,0) (2,2)
  left in the last row: (2,0) (2,2)
  table: that row calls for the pattern (0,0) (0,2) in the first row (a table of 7 patterns)
  second chase, from the top:
    row 1 clears: press in row 2: (1,0) (1,2)
EOT
grep -A7 '^technique:' "$TMP/out" >got
cmp -s want got && ok || not_ok "table narration: $(cat got)"

# presses (1,0) and (1,1): their footprints meet, one chase from the top
q solve "$C3" --state 110/001/110 --steps --human
printf 'technique: chase (1) from the top\n  chase from the top, row by row:\n    row 1 clears: press in row 2: (1,0) (1,1)\n' >want
grep -A2 '^technique:' "$TMP/out" >got
cmp -s want got && ok || not_ok "chase narration: $(cat got)"

q solve "$C3" --state 010/111/010 --steps --human
expect_out "technique: spot (0)" "a single press is spot"
expect_out "  press separate patterns (no two presses change a cell in common): (1,1)" "spot names its press"

q solve "$TOP/rules/torus-5x5.yaml" --state 00101/11000/00000/00000/11000 --steps --human --json
expect_rc 0 "torus --json"
expect_eq "$(python3 -c "
import json, sys
t = json.load(open(sys.argv[1]))['technique']
print(t[0] in ('technique: global (3)', 'technique: spot (0)'), len(t))" "$TMP/out")" \
    "True 2" "a torus has no chase: spot or global, two lines of a JSON array"

q solve "$C3" --state 111/111/111 --human
expect_rc 64 "--human without --steps"
expect_err "solve: --human goes with --steps" "says why"
done_testing
