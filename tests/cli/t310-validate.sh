#!/bin/sh
# t310: `quench validate`: one verdict per record in input order, nothing
# dropped; every verdict kind; the exit statuses; every input format.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules
W=$R/whack-a-mole-4x4.yaml

cat >subs.txt <<'TXT'
0100/1110/0001/1101
0000/0000/0000/0000
1000/0000/0000/0000
0100/1110/0001/1101
01x0/1110/0001/1101
1011/0111/1000/1011
0010/0111/1000/1011
TXT
# line 7 is line 1 mirrored left-right: the same puzzle up to symmetry
q validate "$W" subs.txt --jsonl
expect_rc 1 "some rejected: exit 1"
verdicts=$(python3 -c "
import json,sys
print(' '.join(json.loads(l)['verdict'] for l in open(sys.argv[1])))" "$TMP/out")
expect_eq "$verdicts" "ok trivial unsolvable duplicate malformed unsolvable duplicate" "verdicts in order"
expect_err "7 submissions: 1 ok, 2 unsolvable, 1 malformed, 1 trivial, 2 duplicate, 0 claim-mismatch" "summary"
line5=$(sed -n 5p "$TMP/out")
expect_eq "$(echo "$line5" | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["line"], j["col"])')" "5 3" "malformed located at 5:3"

# Claims: a wrong minimum (by how much) and a solution that does not replay.
cat >claims.jsonl <<'TXT'
{"id": "a", "state": "0100/1110/0001/1101", "min_presses": 5}
{"id": "b", "state": "1100/1000/0000/0000", "solution": "0000000000000001"}
{"id": "c", "state": "1100/1000/0000/0000", "solution": "1000000000000000", "min_presses": 1}
TXT
q validate "$W" claims.jsonl --json
expect_rc 1 "claims rejected"
expect_eq "$(python3 -c "
import json,sys; j=json.load(open(sys.argv[1]))
print([v['verdict'] for v in j['verdicts']], j['verdicts'][0]['claimed_minus_true'], j['summary']['ok'])" "$TMP/out")" \
    "['claim-mismatch', 'claim-mismatch', 'ok'] 2 1" "claim verdicts"

# All ok: exit 0. CSV and JSON input.
printf 'id,state,min_presses\nx,1100/1000/0000/0000,1\n' >ok.csv
q validate "$W" ok.csv
expect_rc 0 "all ok: exit 0"
printf '[{"id": "y", "state": [1,1,0,0,1,0,0,0,0,0,0,0,0,0,0,0]}]' >ok.json
q validate "$W" ok.json --jsonl
expect_rc 0 "JSON document input"
qin ok.csv validate "$W" - --jsonl
expect_rc 0 "stdin"

# Junk never stops the run: every line gets a verdict.
{ echo 0100/1110/0001/1101; head -c 3000 /dev/urandom | tr -d '\n' ; echo; echo 1100/1000/0000/0000; } >junk.txt
q validate "$W" junk.txt --jsonl
expect_rc 1 "junk rejected"
expect_eq "$(wc -l <"$TMP/out" | tr -d ' ')" 3 "three records, three verdicts"
expect_eq "$(sed -n 3p "$TMP/out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"])')" ok "run continues past junk"

# The input as a whole unreadable: exit 65.
printf 'id,bogus\n1,2\n' >bad.csv
q validate "$W" bad.csv
expect_rc 65 "bad CSV header"
q validate "$W" missing.txt
expect_rc 66 "missing input"
q validate "$W" subs.txt --from yaml
expect_rc 64 "bad --from"

# Text output: one line per record, even for ids with newlines.
printf '{"id": "two\\nlines", "state": "1100/1000/0000/0000"}\n' >nl.jsonl
q validate "$W" nl.jsonl
expect_eq "$(wc -l <"$TMP/out" | tr -d ' ')" 1 "one line per verdict"

# With --db: stored puzzles count as duplicates; --into stores the ok ones
# in a pack, so a second identical run finds them all.
printf '0100/1110/0001/1101\n1100/1000/0000/0000\n1000/0000/0000/0000\n' >mix.txt
q validate "$W" mix.txt --db v.db --into mine --jsonl
expect_rc 1 "--into: one unsolvable"
q pack show mine --db v.db --json
expect_eq "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["puzzles"]))' "$TMP/out")" 2 "the two ok puzzles stored in the pack"
q validate "$W" mix.txt --db v.db --jsonl
expect_eq "$(python3 -c "
import json,sys
print(' '.join(json.loads(l)['verdict'] for l in open(sys.argv[1])))" "$TMP/out")" "duplicate duplicate unsolvable" "stored puzzles are duplicates"
expect_eq "$(head -n 1 "$TMP/out" | python3 -c 'import json,sys; print("duplicate_of_stored" in json.load(sys.stdin))')" True "names the stored puzzle"
q validate "$W" mix.txt --into mine
expect_rc 64 "--into without --db"

# validate(generate(seed)) is ok: every shipped rule, quench's own JSONL
# (header and summary records around the puzzles) and export's CSV and
# JSONL are read back, and every puzzle gets verdict ok.
for rf in "$R"/*.yaml; do
    name=$(basename "$rf" .yaml)
    case $name in lights-out-2000) continue ;; esac
    q generate "$rf" -n 6 --seed 9e11 --jobs 2 --db own.db --pack "$name"
    expect_rc 0 "$name: generate"
    cp "$TMP/out" "$name.jsonl"
    n=$(grep -c '"type":"puzzle"' "$name.jsonl")
    q validate "$rf" "$name.jsonl"
    expect_rc 0 "$name: validate(generate) exit 0"
    expect_err "$n submissions: $n ok," "$name: all $n generated puzzles ok"
    for fmt in csv jsonl; do
        q export "$name" --db own.db --format $fmt -o "$name.$fmt"
        q validate "$rf" "$name.$fmt"
        expect_rc 0 "$name: validate(export $fmt) exit 0"
        expect_err "$n submissions: $n ok," "$name: export $fmt all ok"
    done
done

done_testing
