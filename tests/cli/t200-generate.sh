#!/bin/sh
# t200: `quench generate` end to end: reproducible by seed whatever --jobs,
# every record solvable and graded correctly (checked by `quench solve`
# and `quench validate`), targets met, empty targets refused at once,
# atomic -o, and bad options.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

q generate "$R/classic-5x5.yaml" -n 50 --seed c0ffee --jobs 1
expect_rc 0 "generate"
expect_err "seed 0000000000000000000000000000000000000000000000000000000000c0ffee" "seed printed"
cp "$TMP/out" a.jsonl
q generate "$R/classic-5x5.yaml" -n 50 --seed c0ffee --jobs 2
cmp -s a.jsonl "$TMP/out" && ok || not_ok "--jobs 1 and --jobs 2 differ"
q generate "$R/classic-5x5.yaml" -n 50 --seed 0xC0FFEE --jobs 3
cmp -s a.jsonl "$TMP/out" && ok || not_ok "same seed spelled differently differs"
q generate "$R/classic-5x5.yaml" -n 50 --seed c0ffef
cmp -s a.jsonl "$TMP/out" && not_ok "another seed gives the same" || ok

# Structure: header, 50 puzzles, summary; ids and canonical forms unique.
python3 - a.jsonl <<'PY' >check.txt
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
h, body, s = recs[0], recs[1:-1], recs[-1]
print(h["type"], s["type"], len(body), s["emitted"],
      len({r["id"] for r in body}), all(r["seed"] == h["seed"] for r in body))
PY
expect_eq "$(cat check.txt)" "header summary 50 50 50 True" "records"

# Every puzzle, re-solved on its own: same minimum, solvable.
python3 - a.jsonl <<'PY' >states.txt
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["type"] == "puzzle":
        print(r["state"], r["min_presses"], r["optimal_solutions"])
PY
bad=0
head -n 10 states.txt | while read -r st mp opt; do
    "$QUENCH" solve "$R/classic-5x5.yaml" --state "$st" --json >one.json || echo bad
    python3 -c "
import json,sys; j=json.load(open('one.json'))
sys.exit(0 if j['min_presses']==$mp and j['optimal_solutions']==$opt else 1)" || echo bad
done >bad.txt
expect_eq "$(wc -l <bad.txt | tr -d ' ')" 0 "generated grades agree with solve"

# validate(generate(seed)) is all ok.
python3 - a.jsonl <<'PY' >subs.jsonl
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["type"] == "puzzle":
        print(json.dumps({"id": r["id"], "state": r["state"],
                          "min_presses": r["min_presses"],
                          "solution": r["solution"]}))
PY
q validate "$R/classic-5x5.yaml" subs.jsonl
expect_rc 0 "validate(generate) all ok"

# Targets: exactly 15 presses (7350 such states exist), unique optimum.
q generate "$R/classic-5x5.yaml" -n 30 --seed 1 --presses 15
expect_rc 0 "15-press puzzles"
expect_eq "$(python3 -c "
import json,sys
rs=[json.loads(l) for l in open(sys.argv[1])][1:-1]
print(len(rs), all(r['min_presses']==15 for r in rs))" "$TMP/out")" "30 True" "all need 15"
q generate "$R/classic-5x5.yaml" -n 30 --seed 1 --presses 16..20
expect_rc 65 "empty target refused"
expect_err "no solvable state needs 16..20 presses" "empty target explained"
q generate "$R/whack-a-mole-4x4.yaml" -n 20 --seed 1 --unique-optimum --tier hard
expect_rc 0 "tier + unique optimum"
q generate "$R/classic-5x5.yaml" -n 5 --tier nosuch
expect_rc 65 "unknown tier"

# -o writes atomically; nothing is left behind on a bad target.
q generate "$R/classic-5x5.yaml" -n 20 --seed 9 -o out.jsonl
expect_rc 0 "-o"
expect_empty_out "-o leaves stdout empty"
expect_eq "$(wc -l <out.jsonl | tr -d ' ')" 22 "-o file complete"
q generate "$R/classic-5x5.yaml" -n 20 --presses 40 -o none.jsonl
expect_rc 65 "impossible target"
expect_eq "$(ls | grep -c 'none.jsonl')" 0 "no file for an impossible target"

# Bad options.
q generate "$R/classic-5x5.yaml" --seed xyz
expect_rc 64 "bad seed"
q generate "$R/classic-5x5.yaml" --seed 00000000000000000000000000000000000000000000000000000000000000001
expect_rc 64 "seed of 65 digits"
q generate "$R/classic-5x5.yaml" --presses 5..x
expect_rc 64 "bad range"
q generate "$R/classic-5x5.yaml" --jobs 0
expect_rc 64 "bad jobs"

# A fresh seed is drawn, printed and recorded in the header.
q generate "$R/classic-5x5.yaml" -n 1
seed=$(sed -n 's/^quench: seed //p' "$TMP/err")
expect_eq "$(head -n 1 "$TMP/out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["seed"])')" "$seed" "random seed recorded"

done_testing
