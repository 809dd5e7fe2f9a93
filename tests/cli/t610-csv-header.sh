#!/bin/sh
# t610: a CSV of submissions is told by its header. A state text holds no
# comma (src/rules/state.h), so a first line with one is a header
# even without a state column: the input is refused (65) with the columns
# found and those expected, not read as text lines that each fail. Header
# names match in any case ("State", "ID"). The verdicts expected come from
# whack-a-mole-4x4 by hand: 1100/1000/0000/0000 is one press (the corner's
# plus shape), as in t310.
. "$(dirname "$0")/lib.sh"
W=$TOP/rules/whack-a-mole-4x4.yaml
S=1100/1000/0000/0000

# ---- a header without a state column ----------------------------------
printf 'user,board\nu1,%s\nu2,%s\n' "$S" "$S" >other.csv
q validate "$W" other.csv
expect_rc 65 "no state column: the input is refused"
expect_err "other.csv:1:1: CSV header has no 'state' column" "says what is missing, at the header"
expect_err "found 'user', 'board'" "names the columns found"
expect_err "expected state" "names the column expected"
expect_empty_out "no verdicts for a refused input"
if grep -q "must be less than colours" "$TMP/err" "$TMP/out"; then not_ok "header read as a state"; else ok; fi

printf 'id,states\nu1,%s\n' "$S" >near.csv
q validate "$W" near.csv
expect_rc 65 "a misspelt state column"
expect_err "found 'id', 'states' (did you mean 'state'?)" "the near name suggested"

# ---- names in any case --------------------------------------------------
printf 'ID,State,Min_Presses\nu1,%s,2\n' "$S" >case.csv
q validate "$W" case.csv --jsonl
expect_rc 1 "a State header is read (its claim is wrong)"
py_checks "$TMP/out" <<'PY'
import json, sys
v = [json.loads(l) for l in open(sys.argv[1])]
def check(c, what):
    print("ok" if c else "not ok: " + what)
check(len(v) == 1, "one verdict, got %d" % len(v))
check(v[0].get("id") == "u1", "ID read as the id: %r" % v[0])
check(v[0].get("verdict") == "claim-mismatch", "Min_Presses read (2, not 1): %r" % v[0])
check("meta" not in v[0], "no column left as metadata: %r" % v[0])
PY
printf 'STATE\n%s\n' "$S" >one.csv
q validate "$W" one.csv --from auto
expect_rc 0 "a lone STATE header"
expect_out "	ok	" "STATE column read"

done_testing
