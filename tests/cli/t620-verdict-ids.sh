#!/bin/sh
# t620: a malformed submission keeps its submitter's id wherever the id
# itself was readable: a JSON record jansson refuses (a trailing comma, a
# repeated key, junk after it, a string that never ends) and a CSV row
# whose quoting is wrong after its id column. The ids are those written
# in the inputs below; a record without a readable id keeps the line
# number (docs/quench.1).
. "$(dirname "$0")/lib.sh"
W=$TOP/rules/whack-a-mole-4x4.yaml
S=1100/1000/0000/0000

cat >bad.jsonl <<EOT
{"id": "e1", "state": "$S",}
{"state": "$S", "id": "e2", "id": "again"}
{"id": 77, "state": "$S"} junk
{"id": "e4", "state": "$S
{"id": "e5\\u0041", "state": [1, 1, 0,
{"id": {"x": 1}, "state": "$S",}
EOT
q validate "$W" bad.jsonl --jsonl
expect_rc 1 "malformed JSON records"
py_checks "$TMP/out" <<'PY'
import json, sys
v = [json.loads(l) for l in open(sys.argv[1])]
want = ["e1", "e2", "77", "e4", "e5A", "6"]
print("ok" if len(v) == 6 else "not ok: six verdicts, got %d" % len(v))
for got, w in zip(v, want):
    print("ok" if got.get("verdict") == "malformed" else "not ok: %s: %r" % (w, got))
    print("ok" if got.get("id") == w else "not ok: id %r, want %r" % (got.get("id"), w))
PY

printf 'id,state,note\nc1,%s,a"b\nc2,%s,"a"b\n"c3",%s,"x\n' "$S" "$S" "$S" >bad.csv
q validate "$W" bad.csv
expect_rc 1 "malformed CSV rows"
expect_eq "$(cut -f2,3 "$TMP/out" | tr '\t\n' ' |')" "c1 malformed|c2 malformed|c3 malformed|" "CSV rows keep their ids"

done_testing
