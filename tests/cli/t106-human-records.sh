#!/bin/sh
# tier: full (every distinct puzzle of three boards graded in python3: 6 s)
# t106: each generated puzzle's human level and score (issue #33,
# docs/GENERATE.md "The human ladder", "The human score") against an
# independent brute force in Python: every press plan of the board is
# tried (least presses, optimal plans, spot), each side's chase and the
# table rung are played press by press, the features are counted from
# their definitions and the version 1 weights give the score. Every
# distinct puzzle of classic 3x3, a 3x3 board with three colours and a
# 4x4 board is generated; records are the same for any --jobs and the
# shards of a run give the run's records.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

cat >ref.py <<'PY'
import itertools, json, math, sys
w, h, k = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
mode = sys.argv[4]
n = w * h
def nb(j):
    r, c = divmod(j, w)
    out = [j]
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= r + dr < h and 0 <= c + dc < w:
            out.append((r + dr) * w + c + dc)
    return out
foot = [set(nb(j)) for j in range(n)]
def press(s, j, t):
    s = list(s)
    for c in foot[j]:
        s[c] = (s[c] + t) % k
    return s
best, plans = {}, {}
for x in itertools.product(range(k), repeat=n):
    s = [0] * n
    for j in range(n):
        if x[j]:
            s = press(s, j, (k - x[j]) % k)   # state = goal - A x
    s = tuple(s)
    cost = sum(x)
    if s not in best or cost < best[s]:
        best[s], plans[s] = cost, [x]
    elif cost == best[s]:
        plans[s].append(x)
def sym(s):  # the 8 (square) or 4 (rectangle) symmetries
    g = [[s[r * w + c] for c in range(w)] for r in range(h)]
    out = []
    for t in range(8 if w == h else 4):
        m = g
        if t & 1: m = [row[::-1] for row in m]
        if t & 2: m = m[::-1]
        if t & 4: m = [list(col) for col in zip(*m)]
        out.append(tuple(v for row in m for v in row))
    return min(out)
# sides: a walk as rows of cells; side 0 top, 1 bottom, 2 left, 3 right
def rows_of(side):
    if side == 0: return [[r * w + c for c in range(w)] for r in range(h)]
    if side == 1: return [[r * w + c for c in range(w)] for r in reversed(range(h))]
    if side == 2: return [[r * w + c for r in range(h)] for c in range(w)]
    return [[r * w + c for r in range(h)] for c in reversed(range(w))]
def chase(s, side, count):
    rows = rows_of(side)
    for a, b in zip(rows, rows[1:]):
        for c, piv in zip(a, b):  # the cell below (from the side) is its pivot
            if s[c]:
                t = (k - s[c]) % k
                s = press(s, piv, t)
                count[0] += t
    return s
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
    spot = any(all(not (foot[i] & foot[j]) for i in range(n) for j in range(i)
                   if x[i] and x[j]) for x in ps)
    level, side, over, ok = 3, -1, 0, True
    if spot:
        level = 0
    else:
        for sd in range(4):
            cnt = [0]
            if not any(chase(list(s), sd, cnt)):
                level, side, over = 1, sd, cnt[0] - b
                break
    if level == 3:
        for sd in range(4):
            first = rows_of(sd)[0]
            good = []
            for y in itertools.product(range(k), repeat=len(first)):
                cnt = [0]
                t = chase(list(s), sd, cnt)
                for c, v in zip(first, y):
                    t = press(t, c, v)
                cnt[0] += sum(y)
                if not any(chase(t, sd, cnt)):
                    good.append(cnt[0])
            if good:
                level, side = 2, sd
                ok = len(good) == 1   # one pattern: the presses are known
                over = good[0] - b
                break
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
