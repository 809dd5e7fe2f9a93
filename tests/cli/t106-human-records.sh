#!/bin/sh
# tier: full (every distinct puzzle of three boards graded in python3: 6 s)
# t106: each generated puzzle's human level and score (issue #33,
# docs/GENERATE.md "The human ladder", "The human score") against an
# independent brute force in Python (tests/ladder.py, as t109's): every
# press plan of the board is tried (least presses, optimal plans, spot),
# each side's chase and the table rung are played press by press, the
# features are counted from their definitions and the version 1 weights
# give the score. Every
# distinct puzzle of classic 3x3, a 3x3 board with three colours and a
# 4x4 board is generated; records are the same for any --jobs and the
# shards of a run give the run's records.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

# ref.py W H K count|check FILE: the brute force is tests/ladder.py's
cp "$TOP/tests/ladder.py" .
cat >ref.py <<'PY'
import itertools, json, math, sys
import ladder
w, h, k = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
mode = sys.argv[4]
n = w * h
bd = ladder.Board(w, h, k)
foot, best, plans = bd.foot, bd.best, bd.plans
press, rows_of, chase, sym = bd.press, bd.rows_of, bd.chase, bd.sym
def table_size(side):
    first = rows_of(side)[0]
    res = set()
    for y in itertools.product(range(k), repeat=len(first)):
        s = [0] * n
        for c, t in zip(first, y):
            s = press(s, c, t)
        res.add(tuple(chase(s, side, [0])))
    return len(res)
tsize = [table_size(sd) for sd in range(4)]
def grade(s):
    b, ps = best[s], plans[s]
    level, side, over, patterns = bd.rung(s)
    ok = level != 2 or patterns == 1  # one pattern: the presses are known
    x = min(ps)
    pressed = [j for j in range(n) if x[j]]
    comp, seen = 0, set()
    for j in pressed:
        if j in seen: continue
        comp += 1
        todo = [j]; seen.add(j)
        while todo:
            a = todo.pop()
            for c in pressed:
                if c not in seen and foot[a] & foot[c]:
                    seen.add(c); todo.append(c)
    rs = [j // w for j in pressed]; cs = [j % w for j in pressed]
    spread = (max(rs) - min(rs) + 1 + max(cs) - min(cs) + 1) if pressed else 0
    lit = sum(1 for v in s if v)
    f = dict(level=level, presses=b, lit=lit, log2_optimal=math.log2(len(ps)),
             components=comp, spread=spread, overshoot=over,
             log2_table=math.log2(tsize[side]) if level == 2 else 0,
             multi=sum(1 for v in x if v > 1))
    wt = dict(level=0.7, presses=0.08, lit=0.01, log2_optimal=-0.1,
              components=0.05, spread=0.03, overshoot=0.05, log2_table=0.1,
              multi=0.1)
    score = 1.5 + sum(wt[key] * f[key] for key in wt)
    # components and spread are of quench's plan: known when it is the
    # only optimal one
    return level, score, ok and len(ps) == 1
names = ["spot", "chase", "table", "global"]
if mode == "count":
    print(len({sym(s) for s in best if any(s)}))
    sys.exit()
bad = checked = scored = 0
for line in open(sys.argv[5]):
    d = json.loads(line)
    if d.get("type") != "puzzle": continue
    s = tuple(int(ch, 36) for ch in d["state"].replace("/", ""))
    level, score, exact = grade(s)
    checked += 1
    if d["human_level"] != names[level] or d["human_level_number"] != level:
        bad += 1
        if bad < 4: print("level", d["state"], d["human_level"], names[level])
    if exact:
        scored += 1
        # thousandths, rounded half up
        if not isinstance(d["human_score"], int) or abs(d["human_score"] - score * 1000) > 0.5001:
            bad += 1
            if bad < 4: print("score", d["state"], d["human_score"], score)
print("bad", bad, "checked", checked, "scored", scored)
PY

board() { # NAME W H K
    printf 'quench: 1\nname: %s\ncolours: %s\nboard: {grid: [%s, %s]}\npress: {stencil: plus, self: true}\n' \
        "$1" "$4" "$2" "$3" >"$1.yaml"
}
board three 3 3 2
board three3 3 3 3
board four 4 4 2
for b in "three 3 3 2" "three3 3 3 3" "four 4 4 2"; do
    set -- $b
    all=$(python3 ref.py "$2" "$3" "$4" count)
    q generate "$1.yaml" -n "$all" --seed 33 --jobs 1 -o "$1.jsonl"
    expect_rc 0 "$1: all $all puzzles"
    r=$(python3 ref.py "$2" "$3" "$4" check "$1.jsonl")
    case $r in
    "bad 0 checked $all "*) ok ;;
    *) not_ok "$1: records against the brute force: $r" ;;
    esac
    case $r in
    *" scored 0") not_ok "$1: no score checked: $r" ;;
    *) ok ;;
    esac
    q generate "$1.yaml" -n "$all" --seed 33 --jobs 2 -o "$1-j2.jsonl"
    cmp -s "$1.jsonl" "$1-j2.jsonl" && ok || not_ok "$1: --jobs 1 and 2 differ"
done
expect_eq "$(grep -c '"human_level":"table"' three.jsonl)" \
    "$(python3 -c "
import json
print(sum(1 for l in open('three.jsonl') if json.loads(l).get('human_level') == 'table'))")" \
    "table records counted two ways"
grep -q '"human_model_version":1' three.jsonl && ok || not_ok "header names the model"

# shards of a 5x5 run give the run's records, levels and scores included
q generate "$R/classic-5x5.yaml" -n 60 --seed 7 -o run.jsonl
for i in 0 1 2; do
    q generate "$R/classic-5x5.yaml" -n 60 --seed 7 --shard $i/3
    grep '"type":"puzzle"' "$TMP/out" >>shards.jsonl
done
expect_eq "$(python3 -c "
import json, sys
def key(f):
    return sorted((d['id'], d['human_level'], d['human_score'])
                  for d in map(json.loads, open(f)) if d.get('type') == 'puzzle')
print(key(sys.argv[1]) == key(sys.argv[2]))" run.jsonl shards.jsonl)" True \
    "3 shards give the run's levels and scores"
done_testing
