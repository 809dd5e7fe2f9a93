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

# human KEY: the value of human.KEY in $TMP/out.
human() {
    python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["human"][sys.argv[2]]; print(json.dumps(v))' "$TMP/out" "$1"
}

q rules show --json "$R/classic-5x5.yaml"
expect_rc 0 "show classic 5x5"
expect_eq "$(human chase_share_top)" '"1/8"' "5x5: 1 state in 8 falls to a chase"
expect_eq "$(human table_patterns)" 7 "5x5: the 7 patterns of the chase table"

q rules show --json "$R/classic-3x3.yaml"
expect_eq "$(human chase_share_top)" '"1/8"' "3x3: 1 state in 8 falls to a chase"
expect_eq "$(human table_patterns)" 7 "3x3: 7 table patterns"

cat >"$TMP/four.yaml" <<'R4'
quench: 1
name: four
colours: 2
board: {grid: [4, 4]}
press: {stencil: plus, self: true}
R4
q rules show --json "$TMP/four.yaml"
expect_eq "$(human chase_share_top)" '"1"' "4x4: every solvable board falls to one chase"
expect_eq "$(human chase_share_any)" '"1"' "4x4: from any side too"
expect_eq "$(human table_patterns)" 0 "4x4: the table is empty"
expect_eq "$(human sides)" '[{"name": "top", "chase": true}, {"name": "bottom", "chase": true}, {"name": "left", "chase": true}, {"name": "right", "chase": true}]' "4x4: four sides chase"

q rules show --json "$R/torus-5x5.yaml"
expect_eq "$(human chase_share_any)" '"0"' "torus: no chase"
expect_eq "$(human table_patterns)" null "torus: no table"

q rules show --json "$R/hexagon-3.yaml"
expect_eq "$(human chase_share_any)" '"0"' "hexagon: no chase"
expect_eq "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["human"]["sides"]))' "$TMP/out")" 6 "hexagon: six sides"

q rules show "$R/classic-5x5.yaml"
expect_out "one chase clears:     1/8 from the top (12.5%)" "text: the top share"
expect_out "chase table:          7 non-zero residual patterns (top)" "text: the table"
q rules show "$R/torus-5x5.yaml"
expect_out "no side has a chase order" "text: a torus has no chase"

done_testing
