#!/bin/sh
# t300: `quench solve` end to end, on --state, files, stdin and JSON arrays,
# against the seed facts (shared/conformance): the 4x4 whack-a-mole example
# needs exactly 3 presses, cells {6, 14, 16} (1-based), and is the unique
# optimum among 16 solutions; a lone light on classic 5x5 is unsolvable.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

# expect_py 'EXPR' WANT LABEL: json.dumps of the python expression EXPR
# over the JSON in $TMP/out, bound to j, is WANT; queued (lib.sh's py_eq:
# one python3 runs them all)
expect_py() {
    py_eq "import json,sys; j=json.load(open(sys.argv[1])); print(json.dumps($1))" \
        "$2" "$3" "$TMP/out"
}

q solve "$R/whack-a-mole-4x4.yaml" --state 0100/1110/0001/1101 --json
expect_rc 0 "seed 000 solvable"
expect_py 'j["min_presses"]' 3 "seed 000: 3 presses"
expect_py 'j["optimal_solutions"]' 1 "seed 000: unique optimum"
expect_py 'j["solutions"]' 16 "seed 000: 16 solutions (rank 12)"
expect_py '[i+1 for i,v in enumerate(j["solution"]) if v]' "[6, 14, 16]" "seed 000: cells 6, 14, 16"
expect_py 'j["presses"]' "[5, 13, 15]" "presses to follow"
expect_py 'j["replay_ok"]' true "replay"

# The same state from a file, from stdin, and as a JSON array.
printf '0100\n1110\n0001\n1101\n' >s.txt
q solve "$R/whack-a-mole-4x4.yaml" s.txt
expect_rc 0 "state from a file"
expect_out "min presses:   3" "text output"
expect_out "press (1,1), (3,1), (3,3)" "plan a player can follow"
qin s.txt solve "$R/whack-a-mole-4x4.yaml" -
expect_rc 0 "state from stdin"
q solve "$R/whack-a-mole-4x4.yaml" --state '[0,1,0,0,1,1,1,0,0,0,0,1,1,1,0,1]' --json
expect_py 'j["min_presses"]' 3 "JSON array state"

# --all lists every solution, or --limit of them.
q solve "$R/whack-a-mole-4x4.yaml" --state 0100/1110/0001/1101 --json --all
expect_py 'len(j["all"])' 16 "--all: 16 solutions"
expect_py 'len(set(map(tuple, j["all"])))' 16 "--all: distinct"
q solve "$R/whack-a-mole-4x4.yaml" --state 0100/1110/0001/1101 --json --all --limit 5
expect_py 'len(j["all"])' 5 "--all --limit 5"

# Unsolvable: why, and the minimal repair, which then solves.
q solve "$R/classic-5x5.yaml" --state 10000/00000/00000/00000/00000 --json
expect_rc 1 "lone light unsolvable: exit 1"
expect_py 'j["solvable"]' false "unsolvable"
expect_py 'j["min_presses"]' null "min_presses null"
expect_py 'j["repair"]' "[[0, 0]]" "repair: turn the light off"
q solve "$R/ring6-mod8.yaml" --state 123456 --json
expect_rc 1 "ring 123456 unsolvable (s0-s1+s3-s4 = -2)"
expect_py 'len(j["repair"])' 2 "ring: two cells to change"
fixed=$(python3 -c "
import json; j=json.load(open('$TMP/out')); s=[1,2,3,4,5,6]
for c,v in j['repair']: s[c]=v
print(''.join(map(str,s)))")
q solve "$R/ring6-mod8.yaml" --state "$fixed"
expect_rc 0 "repaired ring state solves"
q solve "$R/classic-5x5.yaml" --state 10000/00000/00000/00000/00000
expect_out "must differ from the goal in an even number of places" "why, in words"
expect_out "repair:        change 1 cell: (0,0) from 1 to 0" "repair, in words"

# Bad input: located message, exit 65; usage 64; missing files 66.
q solve "$R/classic-5x5.yaml" --state 10000/00000/00000/00000
expect_rc 65 "too few rows"
expect_err "--state:" "message names --state"
q solve "$R/classic-5x5.yaml" --state 10000/00000/00000/00000/00002
expect_rc 65 "value >= k"
printf '10000/00000/0000z/00000/00000' >bad.txt
q solve "$R/classic-5x5.yaml" bad.txt
expect_rc 65 "bad character in a file"
expect_err "bad.txt:1:" "file diagnostic located"
q solve "$R/classic-5x5.yaml" nofile.txt
expect_rc 66 "missing state file"
q solve nofile.yaml --state 0
expect_rc 66 "missing rules"
q solve "$R/classic-5x5.yaml"
expect_rc 64 "no state"
q solve "$R/classic-5x5.yaml" --state 0 s.txt
expect_rc 64 "two states"

done_testing
