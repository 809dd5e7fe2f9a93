#!/bin/sh
# t105: the technique ladder's figures in `quench rules show` (issue #33,
# docs/GENERATE.md "The human ladder"), against facts known without
# quench: every solvable 4x4 board falls to one chase from the top (the
# last row's 4 cells carry the cokernel's 2^4 classes); 3x3 and 5x5 leave
# 1 residual pattern in 8 after a chase from the top, the 7 non-zero ones
# being the classic chase table (3x3: A invertible, all 2^3 last rows
# occur; 5x5: rank 23, 2^5 last rows over 2^2 classes); a torus and a
# hexagon have no chase order (a wrapped column or a narrowing row leaves
# cells without a pivot). The per-state levels are checked by brute force
# in tests/unit/test_human.c.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

# expect_human KEY WANT LABEL: the value of human.KEY in $TMP/out, as
# JSON, is WANT; queued (lib.sh's py_eq: one python3 runs them all)
expect_human() {
    py_eq "import json,sys; v=json.load(open(sys.argv[1]))['human']['$1']; print(json.dumps(v))" \
        "$2" "$3" "$TMP/out"
}

q rules show --json "$R/classic-5x5.yaml"
expect_rc 0 "show classic 5x5"
expect_human chase_share_top '"1/8"' "5x5: 1 state in 8 falls to a chase"
expect_human table_patterns 7 "5x5: the 7 patterns of the chase table"

q rules show --json "$R/classic-3x3.yaml"
expect_human chase_share_top '"1/8"' "3x3: 1 state in 8 falls to a chase"
expect_human table_patterns 7 "3x3: 7 table patterns"

cat >"$TMP/four.yaml" <<'R4'
quench: 1
name: four
colours: 2
board: {grid: [4, 4]}
press: {stencil: plus, self: true}
R4
q rules show --json "$TMP/four.yaml"
expect_human chase_share_top '"1"' "4x4: every solvable board falls to one chase"
expect_human chase_share_any '"1"' "4x4: from any side too"
expect_human table_patterns 0 "4x4: the table is empty"
expect_human sides '[{"name": "top", "chase": true}, {"name": "bottom", "chase": true}, {"name": "left", "chase": true}, {"name": "right", "chase": true}]' "4x4: four sides chase"

q rules show --json "$R/torus-5x5.yaml"
expect_human chase_share_any '"0"' "torus: no chase"
expect_human table_patterns null "torus: no table"

q rules show --json "$R/hexagon-3.yaml"
expect_human chase_share_any '"0"' "hexagon: no chase"
py_eq 'import json,sys; print(len(json.load(open(sys.argv[1]))["human"]["sides"]))' 6 "hexagon: six sides" "$TMP/out"

q rules show "$R/classic-5x5.yaml"
expect_out "one chase clears:     1/8 from the top (12.5%)" "text: the top share"
expect_out "chase table:          7 non-zero residual patterns (top)" "text: the table"
q rules show "$R/torus-5x5.yaml"
expect_out "no side has a chase order" "text: a torus has no chase"

# `quench show` puts a state on the ladder; each level below is derived by
# hand. One press is spot. Presses (0,0) and (0,1) of 4x4 light 3 cells
# that are no press's footprint (a disjoint plan lights whole footprints,
# 3 cells at least each): not spot, and every 4x4 state falls to a chase.
# A lit corner of 3x3 is no footprint; the chase from the top leaves 101
# on the last row (from every side, by symmetry), and 3x3 is invertible,
# so the table covers every residual: table. The same two presses on the
# 5x5 torus light 6 cells, not a multiple of a footprint's 5, and a torus
# has no chase: global.
q show "$R/classic-5x5.yaml" --state 00100/01110/00100/00000/00000
expect_out "human level: spot (0)" "show: one press is spot"
q show "$TMP/four.yaml" --state 0010/1100/0000/0000
expect_out "human level: chase (1), from the top" "show: 4x4 two presses, chase"
q show "$R/classic-3x3.yaml" --state 100/000/000
expect_out "human level: table (2), from the top" "show: 3x3 corner, table"
q show "$R/torus-5x5.yaml" --state 00101/11000/00000/00000/11000
expect_out "human level: global (3)" "show: torus two presses, global"
q show "$R/torus-5x5.yaml" --state 10000/00000/00000/00000/00000
expect_out "human level: none (the state is unsolvable)" "show: unsolvable"

# Stored and pack puzzles get the line too: a 3x3 state is never global
# (A is invertible, so the first row and the pivots reach every state).
q -q generate "$R/classic-3x3.yaml" -n 2 --seed 5 --db h.db --pack hp
expect_rc 0 "make a 3x3 pack"
q show --pack hp --db h.db
expect_eq "$(grep -c '^human level: \(spot\|chase\|table\) ' "$TMP/out")" 2 "show --pack: two levels, none global"
q show '#1' --db h.db
expect_eq "$(grep -c '^human level: \(spot\|chase\|table\) ' "$TMP/out")" 1 "show #1: its level"

done_testing
