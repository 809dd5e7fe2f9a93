#!/bin/sh
# t570: level slots and recipe sections (issue #34 section 2; docs/STORE.md
# "Level slots", docs/EXPORT.md "Slots and sections"). The expected slots
# are worked out by hand from the rules the docs state (a slot is born
# with its member, follows it through moves and sorts, stays when another
# puzzle takes the member's place, is retired with it and never given
# again), not copied from a run; the sections are the recipe's names, and
# each csv row's rule is checked against the rule files' own `name:` and
# the json document's rules.
. "$(dirname "$0")/lib.sh"

C3=$TOP/rules/classic-3x3.yaml
C5=$TOP/rules/classic-5x5.yaml
DB=$TMP/s.db
# must LABEL: a step the checks stand on (not a check itself): its
# failure is counted and shown, its success is not
must() { [ "$rc" -eq 0 ] || { not_ok "$1: exit $rc"; sed 's/^/    stderr: /' "$TMP/err" | head -n 5; }; }

# slots ID...: "ID:SLOT ..." of pack p in pack order, from pack show --json
slots() {
    q pack show "$1" --db "$DB" --json
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s:%s" % (p["id"][:4], p.get("slot")) for p in d["puzzles"]))' "$TMP/out"
}

# --- 1. born, followed, kept, retired ---------------------------------------
q generate "$C3" -n 4 --seed 1 --pack p --db "$DB"
must "generate a pack of 4"
q generate "$C3" -n 3 --seed 9 --db "$DB"
must "3 more puzzles outside the pack"
extra=$(sed -n 's/.*"type":"puzzle","id":"\([0-9a-f]*\)".*/\1/p' "$TMP/out")
set -- $extra
x1=$1 x2=$2 x3=$3
q pack show p --db "$DB" --json
set -- $(python3 -c 'import json, sys
print(" ".join(p["id"] for p in json.load(open(sys.argv[1]))["puzzles"]))' "$TMP/out")
a=$1 b=$2 c=$3 d=$4
A=$(echo "$a" | cut -c1-4) B=$(echo "$b" | cut -c1-4) C=$(echo "$c" | cut -c1-4)
D=$(echo "$d" | cut -c1-4)
X1=$(echo "$x1" | cut -c1-4) X2=$(echo "$x2" | cut -c1-4) X3=$(echo "$x3" | cut -c1-4)
expect_eq "$(slots p)" "$A:1 $B:2 $C:3 $D:4" "a new pack's slots are 1..4 in order"

q pack remove p "$b" --db "$DB"
must "remove the second"
q pack add p "$x1" --db "$DB"
must "add another"
expect_eq "$(slots p)" "$A:1 $C:3 $D:4 $X1:5" "slot 2 is retired: the new member is born in 5"

q pack move p "$a" 4 --db "$DB"
must "move the first to the end"
expect_eq "$(slots p)" "$C:3 $D:4 $X1:5 $A:1" "a moved member keeps its slot"

q pack replace p "$d" "$x2" --db "$DB" --json
expect_rc 0 "replace the second member"
expect_out '"action":"replace"' "replace --json names its action"
expect_out '"slot":4' "replace --json gives the slot kept"
expect_eq "$(slots p)" "$C:3 $X2:4 $X1:5 $A:1" "the replacing puzzle takes the place and the slot"
q pack replace p "$c" "$c" --db "$DB"
expect_rc 0 "replace a puzzle by itself"
expect_out ": unchanged" "replacing a puzzle by itself changes nothing"

q pack add p "$x3" --at 1 --db "$DB"
must "insert at the front"
q pack sort p --db "$DB"
must "sort"
q pack show p --db "$DB" --json
py_ok "after a sort each puzzle keeps its slot" "$TMP/out" "$a $c $x1 $x2 $x3" <<'PY'
import json, sys
want = dict(zip(sys.argv[2].split(), [1, 3, 5, 4, 6]))
got = {p["id"]: p["slot"] for p in json.load(open(sys.argv[1]))["puzzles"]}
assert got == want, (got, want)
PY

q pack replace p "$b" "$x3" --db "$DB"
expect_rc 66 "replace a puzzle that is not a member"
expect_err "is not in the pack" "replace names the missing member"
q pack replace p "$c" "$x3" --db "$DB"
expect_rc 65 "replace by a puzzle already in the pack"
expect_err "is already in the pack" "replace names the member it would repeat"

q pack show p --db "$DB"
grep -qE "^ +[0-9]+  $x2  classic-3x3 +slot 4 " "$TMP/out" && ok || not_ok "pack show prints each member's slot"

# --- 2. every export carries the slot; import keeps it --------------------
for f in json jsonl csv html; do
    q export p --format $f --db "$DB" -o "$TMP/p.$f"
    must "export $f"
done
python3 - "$TMP" "$a $c $x1 $x2 $x3" <<'PY' && ok || not_ok "json, jsonl, csv and html carry each puzzle's slot and section"
import csv, html, json, re, sys
t = sys.argv[1]
want = dict(zip(sys.argv[2].split(), [1, 3, 5, 4, 6]))
def check(recs):
    assert {r["id"]: int(r["slot"]) for r in recs} == want
    assert all(r["section"] == "" for r in recs)
check(json.load(open(t + "/p.json"))["puzzles"])
check([json.loads(l) for l in open(t + "/p.jsonl")][1:])
check(list(csv.DictReader(open(t + "/p.csv", newline=""))))
page = open(t + "/p.html").read()
m = re.search(r'<script type="application/json" id="pack">(.*?)</script>', page, re.S)
check(json.loads(m.group(1))["puzzles"])
PY
if python3 -c 'import jsonschema' 2>/dev/null; then
    py_ok "the json export with slots validates against the schema" "$TOP/docs/quench-pack.schema.json" "$TMP/p.json" <<'PY'
import json, sys, jsonschema
d = json.load(open(sys.argv[2]))
assert all(isinstance(p["slot"], int) and p["section"] == "" for p in d["puzzles"])
jsonschema.validate(d, json.load(open(sys.argv[1])))
PY
else
    not_ok "python3 module jsonschema is missing"
fi
q import "$TMP/p.json" --pack copy --db "$TMP/i.db"
must "import the export"
q export copy --format json --db "$TMP/i.db" -o "$TMP/copy.json"
py_ok "import keeps the slots" "$TMP/copy.json" "$a $c $x1 $x2 $x3" <<'PY'
import json, sys
want = dict(zip(sys.argv[2].split(), [1, 3, 5, 4, 6]))
assert {p["id"]: p["slot"] for p in json.load(open(sys.argv[1]))["puzzles"]} == want
PY
sed 's/"name":"copy"/"name":"p"/' "$TMP/copy.json" | cmp -s - "$TMP/p.json" && ok || not_ok "import then export gives the export back byte for byte"
q pack add copy "$b" --db "$TMP/i.db"
q pack add copy "$x1" --db "$TMP/i.db" 2>/dev/null
q generate "$C3" -n 1 --seed 77 --db "$TMP/i.db" --pack copy
must "a puzzle appended to the imported pack"
q pack show copy --db "$TMP/i.db" --json
python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["puzzles"][-1]["slot"])' "$TMP/out" >"$TMP/last"
expect_eq "$(cat "$TMP/last")" 7 "a member appended to an imported pack is born above its slots"

# damaged slots are refused, nothing imported
python3 - "$TMP/p.json" "$TMP" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["puzzles"][2]["slot"] = d["puzzles"][0]["slot"]
json.dump(d, open(sys.argv[2] + "/dup.json", "w"))
d = json.load(open(sys.argv[1]))
del d["puzzles"][1]["slot"]
json.dump(d, open(sys.argv[2] + "/part.json", "w"))
d = json.load(open(sys.argv[1]))
d["puzzles"][0]["slot"] = 0
json.dump(d, open(sys.argv[2] + "/zero.json", "w"))
d = json.load(open(sys.argv[1]))
for p in d["puzzles"]:
    del p["slot"], p["section"]
json.dump(d, open(sys.argv[2] + "/old.json", "w"))
PY
q import "$TMP/dup.json" --pack dup --db "$TMP/i.db"
expect_rc 65 "two puzzles in one slot"
expect_err "is puzzle 1's too: a slot names one level" "the message names both puzzles"
q import "$TMP/part.json" --pack part --db "$TMP/i.db"
expect_rc 65 "a slot missing where the others have one"
q import "$TMP/zero.json" --pack zero --db "$TMP/i.db"
expect_rc 65 "slot 0"
q pack list --names --db "$TMP/i.db"
expect_line "copy" "no refused document left a pack behind"
q import "$TMP/old.json" --pack old --db "$TMP/i.db"
expect_rc 0 "a document without slots (an older quench) imports"
q pack show old --db "$TMP/i.db" --json
python3 -c 'import json, sys
print(" ".join(str(p["slot"]) for p in json.load(open(sys.argv[1]))["puzzles"]))' "$TMP/out" >"$TMP/s"
expect_eq "$(cat "$TMP/s")" "1 2 3 4 5" "its puzzles are born in slots 1..5"

# --- 3. recipes: sections named, re-rolled levels keep their slots --------
cat >"$TMP/r.yaml" <<EOF
pack: camp
seed: 1
sections:
  - name: world-one
    rules: $C3
    count: 3
  - name: world-two
    rules: $C5
    count: 2
EOF
# sec: "SECTION:SLOT ..." in pack order, then the ids
sec() {
    q pack show camp --db "$DB" --json
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["puzzles"]
print(" ".join("%s:%d" % (p["section"], p["slot"]) for p in d))
print(" ".join(p["id"] for p in d))' "$TMP/out"
}
q pack build "$TMP/r.yaml" --db "$DB"
must "build"
sec >"$TMP/b1"
expect_eq "$(sed -n 1p "$TMP/b1")" "world-one:1 world-one:2 world-one:3 world-two:4 world-two:5" "each member names its recipe section"
sed -i 's/^seed: 1/seed: 2/' "$TMP/r.yaml"
q pack build "$TMP/r.yaml" --db "$DB"
must "rebuild with another seed"
sec >"$TMP/b2"
expect_eq "$(sed -n 1p "$TMP/b2")" "world-one:1 world-one:2 world-one:3 world-two:4 world-two:5" "re-rolled levels keep their slots"
[ "$(sed -n 2p "$TMP/b1")" != "$(sed -n 2p "$TMP/b2")" ] && ok || not_ok "the reseeded build has other puzzles"
sed -i 's/count: 3/count: 4/' "$TMP/r.yaml"
q pack build "$TMP/r.yaml" --db "$DB"
must "rebuild with a longer first section"
sec >"$TMP/b3"
expect_eq "$(sed -n 1p "$TMP/b3")" "world-one:1 world-one:2 world-one:3 world-one:6 world-two:4 world-two:5" "a grown section gets a new slot; the next section keeps its own"
q pack show camp --db "$DB"
expect_out "section world-two:" "pack show names each section"

# a mixed pack splits back into its worlds, from json and from csv, and
# each csv row names its rule as the rule files and the json do
q export camp --format json --db "$DB" -o "$TMP/camp.json"
must "export camp json"
q export camp --format csv --db "$DB" -o "$TMP/camp.csv"
must "export camp csv"
n3=$(sed -n 's/^name: *//p' "$C3") n5=$(sed -n 's/^name: *//p' "$C5")
py_ok "sections split the pack into its worlds; every csv row names its rule" "$TMP/camp.json" "$TMP/camp.csv" "$n3" "$n5" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
worlds = {}
for p in d["puzzles"]:
    worlds.setdefault(p["section"], []).append(p)
assert {k: len(v) for k, v in worlds.items()} == {"world-one": 4, "world-two": 2}
name = {r["hash"]: r["name"] for r in d["rules"]}
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
assert [r["id"] for r in rows] == [p["id"] for p in d["puzzles"]]
for r, p in zip(rows, d["puzzles"]):
    assert r["section"] == p["section"] and int(r["slot"]) == p["slot"]
    assert r["rule"] == p["rule"] and r["rule_name"] == name[p["rule"]]
    want = sys.argv[3] if r["section"] == "world-one" else sys.argv[4]
    assert r["rule_name"] == want, (r, want)
PY

done_testing
