#!/bin/sh
# t110: the human ladder in packs (issue #33 s2): `pack sort --by human`
# orders by human level, then human score, ties in their order and the
# ungraded last; recipe sections take `human-level:`, so a campaign can
# go spot, then chase, then the table. Levels are checked against the
# brute force of t109 (every press plan of classic 3x3 tried).
. "$(dirname "$0")/lib.sh"

cp "$TOP/tests/ladder.py" .
printf 'quench: 1\nname: three\ncolours: 2\nboard: {grid: [3, 3]}\npress: {stencil: plus, self: true}\n' >three.yaml
python3 ladder.py 3 3 2 >three.json

# levels.py WANT SHOW: each puzzle of the pack (pack show --json) is at
# the level the brute force gives its state; prints the bad ones' count
cat >levels.py <<'PY'
import json, sys
import ladder
want, d = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
names = ["spot", "chase", "table", "global"]
level = {ladder.canon(tuple(int(ch) for ch in t), 3, 3): l
         for l in range(4) for t in want[str(l)]}
print(sum(1 for p in d["puzzles"] if names[level[ladder.canon(tuple(
    int(ch) for ch in p["state"].replace("/", "")), 3, 3)]] != p["human_level"]))
PY

# pack sort --by human
q generate three.yaml -n 60 --seed 3 --db p.db --pack mix
expect_rc 0 "a pack of 60"
q pack show mix --db p.db --json
cp "$TMP/out" before.json
# one puzzle without a human grade, as one stored before migration 0006
python3 - p.db "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["puzzles"][3]["row"])' before.json)" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE puzzles SET human_level = NULL, human_score = NULL, human_model = NULL WHERE id = ?", (int(sys.argv[2]),))
db.commit()
PY
q pack sort mix --by human --db p.db --json
expect_rc 0 "pack sort --by human"
expect_out '"action":"sort"' "sort says what it did"
q pack show mix --db p.db --json
cp "$TMP/out" after.json
expect_eq "$(python3 levels.py three.json after.json)" 1 \
    "levels read back are the brute force's (the one ungraded aside)"
cat >order.py <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["puzzles"]
a = json.load(open(sys.argv[2]))["puzzles"]
pos = {p["id"]: p["position"] for p in b}
graded = {p["id"]: (p["human_level_number"], p["human_score"]) for p in b}
ungraded = b[3]["id"]
want = sorted((p for p in b if p["id"] != ungraded),
              key=lambda p: (graded[p["id"]], pos[p["id"]]))
want = [p["id"] for p in want] + [ungraded]
print("ok" if [p["id"] for p in a] == want else "got %s" % [p["id"] for p in a][:5])
PY
expect_eq "$(python3 order.py before.json after.json)" ok \
    "sorted by level, then score, ties in their order, the ungraded last"
q pack sort mix --by human --db p.db
expect_out "sorted 'mix' by human level and score" "sort --by human in words"
q pack sort mix --by presses --db p.db --json
expect_rc 0 "pack sort --by presses"
q pack show mix --db p.db --json
expect_eq "$(python3 -c '
import json, sys
ps = json.load(open(sys.argv[1]))["puzzles"]
print(all(a["min_presses"] <= b["min_presses"] for a, b in zip(ps, ps[1:])))' "$TMP/out")" True \
    "--by presses sorts by min presses"
q pack sort mix --by level --db p.db
expect_rc 64 "--by takes presses or human"
expect_err "--by takes presses or human, got 'level'" "says what --by takes"

# a campaign: spot, then chase, then the table
cat >camp.yaml <<'EOF'
pack: ladder
seed: 33
sections:
  - name: look
    rules: three.yaml
    count: 5
    human-level: spot
  - name: chase
    rules: three.yaml
    count: 10
    human-level: 1
  - name: table
    rules: three.yaml
    count: 10
    human-level: table..
EOF
q pack build camp.yaml --db c.db
expect_rc 0 "a campaign by levels"
q pack show ladder --db c.db --json
cp "$TMP/out" ladder.json
expect_eq "$(python3 -c '
import json, sys
print(" ".join(p["human_level"] for p in json.load(open(sys.argv[1]))["puzzles"]))' ladder.json)" \
    "spot spot spot spot spot chase chase chase chase chase chase chase chase chase chase table table table table table table table table table table" \
    "the sections' levels in order"
expect_eq "$(python3 levels.py three.json ladder.json)" 0 "the levels are the brute force's"
n0=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["0"]))' three.json)
n23=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["2"]) + len(d["3"]))' three.json)
q pack build camp.yaml --db c.db --plan
expect_out "look: 5 wanted, presses 1..9 (spread), human level spot, $n0 distinct puzzles exist" \
    "--plan: the level and its exact count"
expect_out "table: 10 wanted, presses 1..9 (spread), human level table.., $n23 distinct puzzles exist" \
    "--plan: a range of levels"
sed 's/human-level: spot/human-level: spott/' camp.yaml >bad.yaml
q pack build bad.yaml --db c2.db
expect_rc 65 "an unknown level"
expect_err "bad.yaml:7:18: section 'look': human-level takes spot, chase, table, global" "located"
sed 's/count: 5/count: 6/' camp.yaml >six.yaml
q pack build six.yaml --db c2.db
expect_rc 65 "more spot puzzles than exist"
expect_err "six.yaml:6:12: section 'look': only 5 distinct puzzles are at human level spot on three; asked for 6" "the exact count"
sed 's/human-level: table../human-level: global/' camp.yaml >glob.yaml
q pack build glob.yaml --db c2.db
expect_rc 65 "no global puzzle"
expect_err "section 'table': no puzzle of three is at human level global" "says why"
sed 's/human-level: spot/human-level: [spot]/' camp.yaml >seq.yaml
q pack build seq.yaml --db c2.db
expect_rc 65 "a sequence is no level"
expect_err "seq.yaml:7:18: human-level" "located"
done_testing
