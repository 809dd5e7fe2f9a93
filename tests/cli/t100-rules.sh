#!/bin/sh
# t100: `quench rules check` and `quench rules show` on the shipped rule
# files, against the published facts (shared/conformance), on stdin, and on
# bad input (exit 65, one located diagnostic, nothing on stdout).
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

q rules check "$R"/*.yaml
expect_rc 0 "every shipped rule loads"

# json_get KEY: the value of a top-level key in $TMP/out (python3 -c json).
json_get() {
    python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))[sys.argv[2]]; print(json.dumps(v))' "$TMP/out" "$1"
}
# expect_key KEY WANT LABEL: the check expect_eq "$(json_get KEY)" WANT
# LABEL, queued (lib.sh's py_eq: one python3 runs them all)
expect_key() {
    py_eq "import json,sys; v=json.load(open(sys.argv[1]))['$1']; print(json.dumps(v))" \
        "$2" "$3" "$TMP/out"
}

q rules show --json "$R/classic-5x5.yaml"
expect_rc 0 "show classic 5x5"
expect_key cells 25 "classic 5x5 cells"
expect_key kernel_size 4 "classic 5x5 kernel (A159257: nullity 2)"
expect_key solvable_states 8388608 "classic 5x5: 2^23 solvable"
expect_key kernel_invariants "[2, 2]" "classic 5x5 invariants"
expect_key symmetric true "classic 5x5 symmetric"
expect_key colours 2 "classic 5x5 colours"

q rules show --json "$R/whack-a-mole-4x4.yaml"
expect_key kernel_size 16 "whack-a-mole 4x4: rank 12, kernel 16"
expect_key solvable_states 4096 "whack-a-mole 4x4: 4096 solvable"

q rules show --json "$R/quatrainment.yaml"
expect_key kernel_size 1 "quatrainment invertible"
expect_key symmetric false "quatrainment not symmetric"
expect_key all_solvable true "quatrainment: every state solvable"

q rules show --json "$R/ring6-mod8.yaml"
expect_key kernel_size 64 "ring of 6 mod 8: kernel 64"
expect_key solvable_states 4096 "ring of 6 mod 8: 4096 solvable"
expect_key kernel_invariants "[8, 8]" "ring of 6: (Z/8)^2"

q rules show --json "$R/classic-3x3.yaml"
expect_key solvable_states 512 "3x3: F(3,3) = 512 (PE 707)"

# The text form says the same, with the power-of-two spelling.
q rules show "$R/classic-5x5.yaml"
expect_rc 0 "show text"
expect_out "8388608 = 2^23" "text: solvable states as 2^23"
expect_out "D4" "text: symmetry group of the square"

# Standard input, and the same hash whichever way the file arrives.
q rules show --json "$R/classic-5x5.yaml"
h1=$(json_get hash)
qin "$R/classic-5x5.yaml" rules show --json -
expect_rc 0 "show from stdin"
expect_key hash "$h1" "hash from stdin"

# Bad input: one located message, exit 65, no output.
printf 'quench: 1\nname: bad\ncolours: 300\nboard: {grid: [3, 3]}\npress: {stencil: plus}\n' >bad.yaml
q rules check bad.yaml
expect_rc 65 "colours 300 rejected"
expect_err "bad.yaml:3:" "diagnostic is located at line 3"
expect_empty_out "no output for a bad file"
q rules show bad.yaml
expect_rc 65 "show a bad file"
expect_empty_out "show prints nothing for a bad file"
q rules check "$R/classic-5x5.yaml" bad.yaml
expect_rc 65 "one bad file among good ones"
q rules check missing.yaml
expect_rc 66 "missing file"
# Graph symmetries past the search's bounds say which bound: the complete
# graph K_n (every press changes every cell) has all n! permutations as
# symmetries: K6 has 720 (inside the 1024 bound), K7 5040 (past it); a
# path of 65 cells is past the 64-cell bound.
complete() { # N: the rule file of K_N on stdout
    printf 'quench: 1\nname: k%s\nboard: {graph: %s}\neffects:\n' "$1" "$1"
    i=0
    all=$(seq -s ', ' 0 $(($1 - 1)))
    while [ $i -lt "$1" ]; do echo "  $i: [$all]"; i=$((i + 1)); done
}
complete 6 >"$TMP/k6.yaml"
complete 7 >"$TMP/k7.yaml"
q rules show --json "$TMP/k6.yaml"
expect_key symmetry_group '{"name": "order 720", "order": 720}' "K6: 6! = 720 symmetries, all found"
q rules show --json "$TMP/k7.yaml"
expect_key symmetry_group '{"name": "not searched to the end (more than 1024 symmetries)", "order": 1}' "K7: 7! = 5040 symmetries, past the 1024 bound, said so"
q rules show "$TMP/k7.yaml"
expect_out "symmetry group:       not searched to the end (more than 1024 symmetries)" "K7: the text says the group bound too"
{
    printf 'quench: 1\nname: path65\nboard: {graph: 65}\neffects:\n'
    i=0
    while [ $i -lt 65 ]; do
        n="$i"
        [ $i -gt 0 ] && n="$((i - 1)), $n"
        [ $i -lt 64 ] && n="$n, $((i + 1))"
        echo "  $i: [$n]"
        i=$((i + 1))
    done
} >"$TMP/path65.yaml"
q rules show --json "$TMP/path65.yaml"
expect_key symmetry_group '{"name": "not searched (graph of 65 cells, more than 64)", "order": 1}' "a 65-cell path: past the cell bound, said so"

q rules show
expect_rc 64 "show without a file"
q rules frob
expect_rc 64 "unknown rules subcommand"

# Every bad rule file of the corpus fails through the CLI with its exact
# diagnostic (the unit test checks the library; this checks the wiring).
for y in "$TOP"/tests/rules/bad/*.yaml; do
    exp="${y%.yaml}.expect"
    [ -f "$exp" ] || continue
    (cd "$TOP" && "$QUENCH" rules check "tests/rules/bad/$(basename "$y")") \
        >"$TMP/out" 2>"$TMP/err"
    rc=$?
    expect_rc 65 "bad/$(basename "$y")"
    if [ "$(head -n 1 "$TMP/err")" = "$(head -n 1 "$exp")" ]; then ok; else
        not_ok "bad/$(basename "$y"): got '$(head -n 1 "$TMP/err")', want '$(head -n 1 "$exp")'"
    fi
done

done_testing
