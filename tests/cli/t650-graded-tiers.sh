#!/bin/sh
# t650: a rule without tiers of its own exports the tiers that graded its
# puzzles (the generator's, distrib.h "Difficulty model"), in every format
# that carries tiers (json, jsonl, html, dir), so each grade names a tier
# of the document whose range holds the puzzle's press count; the schema
# accepts it, import takes it back, and puzzles graded by another grader
# version keep "tiers": [] (nothing says which tiers graded them).
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

q generate "$R/classic-7x7.yaml" -n 6 --seed 36 --db a.db --pack seven
expect_rc 0 "generate classic 7x7 (no tiers of its own)"
q generate "$R/classic-3x3.yaml" -n 3 --seed 2 --db a.db --pack seven
expect_rc 0 "and classic 3x3 into the same pack"
for f in json jsonl html; do
    q export seven --db a.db --format $f -o seven.$f
    expect_rc 0 "export --format $f"
done
q export seven --db a.db --format dir -o seven.d
expect_rc 0 "export --format dir"

py_checks seven.json seven.jsonl seven.html seven.d/index.json "$TOP/docs/quench-pack.schema.json" <<'PY'
import json, re, sys
names = ["easy", "medium", "hard", "expert", "master"]
def check(label, rules, puzzles):
    by = {r["hash"]: r for r in rules}
    ok = bool(puzzles)
    for p in puzzles:
        t = by[p["rule"]]["tiers"]
        hit = [x for x in t if x["lo"] <= p["min_presses"] <= x["hi"]]
        if not p["grade"] or len(hit) != 1 or hit[0]["name"] != p["grade"]:
            ok = False
            print("not ok: %s: puzzle %s grade %r, %d presses, tiers %r"
                  % (label, p["id"], p["grade"], p["min_presses"], t))
    for r in rules:
        t = r["tiers"]
        # the default tiers: the five names in order, contiguous from 1
        if [x["name"] for x in t] != names[:len(t)] or not t or t[0]["lo"] != 1 or \
                any(a["hi"] + 1 != b["lo"] for a, b in zip(t, t[1:])):
            ok = False
            print("not ok: %s: rule %s tiers %r" % (label, r["name"], t))
    print("ok" if ok else "not ok: %s" % label)
d = json.load(open(sys.argv[1]))
check("json", d["rules"], d["puzzles"])
recs = [json.loads(l) for l in open(sys.argv[2])]
check("jsonl", recs[0]["rules"], [r for r in recs if r.get("record") == "puzzle"])
m = re.search(r'<script[^>]*id="pack"[^>]*>(.*?)</script>', open(sys.argv[3]).read(), re.S)
if m:
    h = json.loads(m.group(1))
    check("html", h["rules"], h["puzzles"])
else:
    print("not ok: html: no embedded pack")
x = json.load(open(sys.argv[4]))
print("ok" if [r["tiers"] for r in x["rules"]] == [r["tiers"] for r in d["rules"]]
      else "not ok: dir: %r" % [r["tiers"] for r in x["rules"]])
try:
    import jsonschema
    jsonschema.validate(d, json.load(open(sys.argv[5])))
    print("ok")
except ImportError:
    print("not ok: python3 module jsonschema is missing")
except Exception as e:
    print("not ok: schema: %s" % str(e)[:300])
PY

q import seven.json --db b.db
expect_rc 0 "import takes the tiers back"
q export seven --db b.db --format json -o again.json
expect_rc 0 "export the import"
expect_eq "$(python3 -c 'import json,sys; print(*[json.dumps(r["tiers"]) for r in json.load(open(sys.argv[1]))["rules"]])' again.json)" \
    "$(python3 -c 'import json,sys; print(*[json.dumps(r["tiers"]) for r in json.load(open(sys.argv[1]))["rules"]])' seven.json)" \
    "the same tiers after a round trip"

# Graded by another grader version: which tiers did it is not known.
python3 - seven.json old.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["rules"]:
    r["tiers"] = []
for p in d["puzzles"]:
    p["grader_version"] = "1"
json.dump(d, open(sys.argv[2], "w"))
PY
q import old.json --db c.db
expect_rc 0 "import puzzles of grader version 1"
q export seven --db c.db --format json -o old2.json
expect_rc 0 "export them"
expect_eq "$(python3 -c 'import json,sys; print(sum(len(r["tiers"]) for r in json.load(open(sys.argv[1]))["rules"]))' old2.json)" \
    0 "another grader's grades export no tiers"

# A rule with tiers of its own exports those, as before.
q generate "$R/classic-5x5.yaml" -n 2 --seed 1 --db a.db --pack five
q export five --db a.db --format json -o five.json
expect_eq "$(python3 -c 'import json,sys; print([(t["name"], t["lo"], t["hi"]) for t in json.load(open(sys.argv[1]))["rules"][0]["tiers"]])' five.json)" \
    "[('easy', 1, 5), ('medium', 6, 10), ('hard', 11, 15)]" "classic 5x5's own tiers (rules/classic-5x5.yaml)"

done_testing
