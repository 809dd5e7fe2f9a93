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
py_eq "
import json,sys
print(' '.join(json.loads(l)['verdict'] for l in open(sys.argv[1])))" \
    "ok trivial unsolvable duplicate malformed unsolvable duplicate" "verdicts in order" "$TMP/out"
expect_err "7 submissions: 1 ok, 2 unsolvable, 1 malformed, 1 trivial, 2 duplicate, 0 claim-mismatch" "summary"
py_eq "
import json,re,sys
print(' '.join(str(bool(re.fullmatch('[0-9a-f]{16}', json.loads(l).get('puzzle_id', '')))) for l in open(sys.argv[1])))" \
    "True True True True False True True" "every verdict but malformed carries a 16-hex puzzle id" "$TMP/out"
py_eq "
import json,sys
v=[json.loads(l) for l in open(sys.argv[1])]
print(v[0]['puzzle_id'] == v[3]['puzzle_id'] == v[6]['puzzle_id'], v[0]['puzzle_id'] != v[5]['puzzle_id'])" \
    "True True" "the same puzzle (repeated, mirrored) has one id; another has another" "$TMP/out"
sed -n 5p "$TMP/out" >line5.json
py_eq 'import json,sys; j=json.load(open(sys.argv[1])); print(j["line"], j["col"])' "5 3" "malformed located at 5:3" line5.json

# Claims: a wrong minimum (by how much) and a solution that does not replay.
cat >claims.jsonl <<'TXT'
{"id": "a", "state": "0100/1110/0001/1101", "min_presses": 5}
{"id": "b", "state": "1100/1000/0000/0000", "solution": "0000000000000001"}
{"id": "c", "state": "1100/1000/0000/0000", "solution": "1000000000000000", "min_presses": 1}
TXT
q validate "$W" claims.jsonl --json
expect_rc 1 "claims rejected"
py_eq "
import json,sys; j=json.load(open(sys.argv[1]))
print([v['verdict'] for v in j['verdicts']], j['verdicts'][0]['claimed_minus_true'], j['summary']['ok'])" \
    "['claim-mismatch', 'claim-mismatch', 'ok'] 2 1" "claim verdicts" "$TMP/out"

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
# (3000 seeded random bytes, no line end, behind a letter: a line that
# starts with '#' would be a comment, which /dev/urandom gave 1 run in 256)
{
    echo 0100/1110/0001/1101
    python3 -c 'import random, sys; r = random.Random(310)
sys.stdout.buffer.write(b"J" + bytes(b for b in r.randbytes(3000) if b not in (10, 13)))'
    echo
    echo 1100/1000/0000/0000
} >junk.txt
q validate "$W" junk.txt --jsonl
expect_rc 1 "junk rejected"
expect_eq "$(wc -l <"$TMP/out" | tr -d ' ')" 3 "three records, three verdicts"
sed -n 3p "$TMP/out" >line3.json
py_eq 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' ok "run continues past junk" line3.json

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

# Text output escapes what a submission brings (text.h), as every other
# output does: an id with a colour (ESC [), a window title (OSC ... BEL),
# C1's CSI, a line separator and a right-to-left override reaches the
# terminal as \x1b, \x07, \u009b, \u2028 and \u202e, and so do a
# malformed record's reason quoting its bad rule and a note quoting a
# misspelt key.
cat >esc.jsonl <<'TXT'
{"id": "a\u001b]0;owned\u0007b", "state": "1100/1000/0000/0000"}
{"id": "c\u001b[31mred\u009b2J\u2028\u202etxt.exe", "state": "0100/1110/0001/1101"}
{"id": "d", "state": "1100/1000/0000/0000", "rule": "x\u001b[5my"}
{"id": "e", "state": "1000/0000/0000/0000", "min_presse\u001b": 1}
TXT
q validate "$W" esc.jsonl
py_later "$TMP/out" <<'PY'
import sys
from text_escape import esc
raw = open(sys.argv[1], encoding="utf-8", newline="").read()
bad = [c for c in raw if c not in "\n\t" and esc(c) != c] # the separators
print("ok" if not bad else "not ok: unsafe characters reach the terminal: %r" % bad)
lines = raw.split("\n")[:-1]
print("ok" if len(lines) == 4 else "not ok: %d lines for 4 verdicts" % len(lines))
ids = ["a\x1b]0;owned\x07b", "c\x1b[31mred\x9b2J\u2028\u202etxt.exe", "d", "e"]
for i, (l, want) in enumerate(zip(lines, ids)):
    f = l.split("\t")
    print("ok" if f[:2] == [str(i + 1), esc(want)] else "not ok: line %d: %r" % (i + 1, f[:2]))
print("ok" if "rule 'x\\x1b[5my'" in lines[2] else "not ok: the reason: %r" % lines[2])
print("ok" if "key 'min_presse\\x1b'" in lines[3] else "not ok: the note: %r" % lines[3])
PY

# With --db: stored puzzles count as duplicates; --into stores the ok ones
# in a pack, so a second identical run finds them all.
printf '0100/1110/0001/1101\n1100/1000/0000/0000\n1000/0000/0000/0000\n' >mix.txt
q validate "$W" mix.txt --db v.db --into mine --jsonl
expect_rc 1 "--into: one unsolvable"
q pack show mine --db v.db --json
py_eq 'import json,sys; print(len(json.load(open(sys.argv[1]))["puzzles"]))' 2 "the two ok puzzles stored in the pack" "$TMP/out"
q validate "$W" mix.txt --db v.db --jsonl
py_eq "
import json,sys
print(' '.join(json.loads(l)['verdict'] for l in open(sys.argv[1])))" "duplicate duplicate unsolvable" "stored puzzles are duplicates" "$TMP/out"
head -n 1 "$TMP/out" >line1.json
py_eq 'import json,sys; j=json.load(open(sys.argv[1])); print(j["duplicate_of_stored"], j["puzzle_id"])' \
    "$(python3 "$TOP/tests/state_blob.py" v.db "SELECT printf('%016x %016x', run_uid(p.id), run_uid(p.id)) FROM puzzles p JOIN rules r ON r.id = p.rule_id WHERE state_text(p.state, r.layout, r.colours) = '0100/1110/0001/1101'")" \
    "names the stored puzzle by the puzzle id the database holds, its own id too" line1.json
q validate "$W" mix.txt --into mine
expect_rc 64 "--into without --db"

# validate(generate(seed)) is ok: every shipped rule, quench's own JSONL
# (header and summary records around the puzzles) and export's json
# document, CSV and JSONL are read back, and every puzzle gets verdict ok
# and the puzzle id generate printed for it: one verdict per puzzle,
# nothing dropped. The pack record of the JSONL export is skipped, and
# said so.
same_ids() { # VERDICTS JSONL LABEL: validate --jsonl's verdicts (VERDICTS)
    # carry the puzzle ids of generate's puzzle records (JSONL), sorted
    py_eq "
import json,sys
got = ' '.join(sorted(json.loads(l).get('puzzle_id','-') for l in open(sys.argv[1])))
want = ' '.join(sorted(j['id'] for j in map(json.loads, open(sys.argv[2])) if j.get('type') == 'puzzle'))
print('the same ids' if got == want else 'ids %s, generate made %s' % (got, want))" \
        "the same ids" "$3" "$1" "$2"
}
for rf in "$R"/*.yaml; do
    name=$(basename "$rf" .yaml)
    case $name in lights-out-2000) continue ;; esac
    q generate "$rf" -n 6 --seed 9e11 --jobs 2 --db own.db --pack "$name"
    expect_rc 0 "$name: generate"
    cp "$TMP/out" "$name.gen.jsonl"
    n=$(grep -c '"type":"puzzle"' "$name.gen.jsonl")
    q validate "$rf" "$name.gen.jsonl" --jsonl
    expect_rc 0 "$name: validate(generate) exit 0"
    expect_err "$n submissions: $n ok," "$name: all $n generated puzzles ok"
    same_ids "$TMP/out" "$name.gen.jsonl" "$name: validate(generate): generate's ids"
    for fmt in json csv jsonl; do
        q export "$name" --db own.db --format $fmt -o "$name.$fmt"
        q validate "$rf" "$name.$fmt" --jsonl
        expect_rc 0 "$name: validate(export $fmt) exit 0"
        expect_err "$n submissions: $n ok," "$name: export $fmt all ok"
        expect_eq "$(wc -l <"$TMP/out" | tr -d ' ')" "$n" "$name: export $fmt: one verdict per puzzle"
        same_ids "$TMP/out" "$name.gen.jsonl" "$name: export $fmt: generate's puzzle ids"
    done
    expect_err "skipped 1 record that is not a submission" "$name: jsonl export's pack record skipped, said so"
done

# A quench-pack document as a person may hold it: pretty-printed (found by
# its first key), and with its members in another order (--from json).
python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
open('pretty.json', 'w').write(json.dumps(d, indent=2) + '\\n')
open('reordered.json', 'w').write(json.dumps({k: d[k] for k in ('puzzles', 'rules', 'pack', 'format_version', 'format')}) + '\\n')" classic-5x5.json
q validate "$R/classic-5x5.yaml" pretty.json --jsonl
expect_rc 0 "pretty-printed export json: exit 0"
same_ids "$TMP/out" classic-5x5.gen.jsonl "pretty-printed export json: generate's ids"
q validate "$R/classic-5x5.yaml" reordered.json --from json --jsonl
expect_rc 0 "export json, members reordered, --from json: exit 0"
expect_eq "$(wc -l <"$TMP/out" | tr -d ' ')" 6 "reordered: one verdict per puzzle"

# A pack of another rule: a verdict for every puzzle, each saying so.
for fmt in json jsonl; do
    q validate "$W" classic-5x5.$fmt --jsonl
    expect_rc 1 "export $fmt of another rule: rejected"
    py_eq "
import json,sys
v=[json.loads(l) for l in open(sys.argv[1])]
print(len(v), sorted(set(x['verdict'] for x in v)), all('not of the rules given' in x['reason'] for x in v))" \
        "6 ['malformed'] True" "export $fmt of another rule: 6 malformed verdicts, each naming the rule" "$TMP/out"
done
q validate "$W" classic-5x5.json
py_eq "
import json,sys
want = \"puzzle of rule '%s'\" % json.load(open(sys.argv[1]))['rules'][0]['hash']
print('named' if want in open(sys.argv[2]).read() else 'stdout lacks ' + want)" \
    named "text verdict names the other rule's hash" classic-5x5.json "$TMP/out"

# Not a quench-pack document: the input as a whole, exit 65.
printf '{"format": "quench-puzzles", "puzzles": []}\n' >notpack.json
q validate "$W" notpack.json
expect_rc 65 "an object that is not a quench-pack document"
expect_err "notpack.json:1:12: not a quench-pack document" "says what it is not"

# Extra fields are kept, never fatal: a CSV column and JSON keys are the
# record's metadata, echoed in the verdict and stored with --into with the
# submission's id (NULL when it has none) and where it was read
# (FILE:LINE, <stdin>:LINE). (A column named as quench's in another case
# is that column: t610.)
printf 'id,state,author,min_press\nx,1100/1000/0000/0000,bob,1\n,0100/1110/0001/1101,"a, ""b""",3\n' >extra.csv
q validate "$W" extra.csv --jsonl
expect_rc 0 "extra CSV columns: exit 0"
py_eq "
import json,sys
for l in open(sys.argv[1]):
    v=json.loads(l); print(v['verdict'], json.dumps(v['meta'], sort_keys=True), 'note' in v)" \
    "ok {\"author\": \"bob\", \"min_press\": \"1\"} True
ok {\"author\": \"a, \\\"b\\\"\", \"min_press\": \"3\"} True" "extra CSV columns: metadata echoed, a near-miss noted" "$TMP/out"
cat >extra.jsonl <<'TXT'
{"id": "j1", "state": "1111/1001/0000/0000", "author": "bob", "tags": ["x", {"y": 2}], "score": -1.5e3}
{"state": "0100/1110/0001/1101", "author": "eve"}
{"id": "j3", "state": "0000/0000/0000/0000", "author": "mallory"}
TXT
qin extra.jsonl validate "$W" - --jsonl --db prov.db --into sub
expect_rc 1 "extra JSON keys: one trivial, the rest ok"
py_eq "
import json,sys
for l in open(sys.argv[1]):
    v=json.loads(l); print(v['verdict'], json.dumps(v.get('meta'), sort_keys=True))" \
    "ok {\"author\": \"bob\", \"score\": -1500.0, \"tags\": [\"x\", {\"y\": 2}]}
ok {\"author\": \"eve\"}
trivial {\"author\": \"mallory\"}" "extra JSON keys: metadata echoed" "$TMP/out"
q validate "$W" extra.csv --db prov.db --into sub
expect_rc 1 "extra CSV into the same pack: one new, one stored already"
expect_eq "$(sqlite3 -separator '|' prov.db "SELECT quote(submission), source, meta FROM puzzles ORDER BY id")" \
    "'j1'|<stdin>:1|{\"author\":\"bob\",\"tags\":[\"x\",{\"y\":2}],\"score\":-1.5e3}
NULL|<stdin>:2|{\"author\":\"eve\"}
'x'|extra.csv:2|{\"author\":\"bob\",\"min_press\":\"1\"}" \
    "--into stores the submission's id, FILE:LINE and the metadata"
expect_eq "$(sqlite3 prov.db "SELECT count(*) FROM pack_puzzles")" 3 "the three stored puzzles are in the pack"
stored=$(python3 "$TOP/tests/state_blob.py" prov.db "SELECT printf('%016x', run_uid(id)) FROM puzzles WHERE source = '<stdin>:2'")
expect_eq "$(sed -n 2p "$TMP/out" | cut -f3)" "duplicate" "the CSV's second record is stored already"
expect_out "puzzle $stored: same puzzle as stored puzzle $stored" \
    "a duplicate of a stored puzzle names it by the id the database holds"

done_testing
