#!/bin/sh
# tier: full (every state of four boards put on the ladder in python3: ~15 s)
# t109: `generate --human-level` (issue #33 s2, docs/GENERATE.md "Human
# level targets") against an independent brute force in Python. On
# classic 3x3, a 3x3 board of three colours and a 4x4 board every press
# plan is tried (least presses, optimal plans, spot), each side's chase and
# the table rung are played press by press; on classic 5x5 the spot states
# come from every set of presses with disjoint footprints (optimal when no
# coset element of the kernel presses fewer), the chase states from the
# spans of each side's rows 2..5, and distinct puzzles from Burnside's
# lemma over the square's 8 symmetries. Asking for every puzzle of a level
# must give exactly that level's puzzles; one more is refused before
# drawing (65) with the exact count; a level the rule has no rung for is
# refused (65); the output is the same for --jobs 1 and 2, shards, and a
# --db run extended.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

cp "$TOP/tests/ladder.py" .
cat >ref55.py <<'PY'
import json, sys
W = 5
N = W * W
def cell(r, c): return r * W + c
foot = []
for j in range(N):
    r, c = divmod(j, W)
    m = 1 << j
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= r + dr < W and 0 <= c + dc < W:
            m |= 1 << cell(r + dr, c + dc)
    foot.append(m)
# kernel of A (symmetric): x with XOR of foot[j] over x = 0, by elimination
rows = []  # (value, combo) reduced basis of the image with the combos
kernel = []
for j in range(N):
    v, comb = foot[j], 1 << j
    for pv, pc in rows:
        if v ^ pv < v:
            v, comb = v ^ pv, comb ^ pc
    if v:
        rows.append((v, comb))
        rows.sort(reverse=True)
    else:
        kernel.append(comb)
def solve(s):
    comb = 0
    for pv, pc in rows:
        if s ^ pv < s:
            s, comb = s ^ pv, comb ^ pc
    return comb if s == 0 else None
def minpress(s):
    x = solve(s)
    best = 99
    for m in range(1 << len(kernel)):
        y = x
        for i, kv in enumerate(kernel):
            if m >> i & 1: y ^= kv
        best = min(best, bin(y).count("1"))
    return best
def solvable(s):
    return all(bin(s & kv).count("1") % 2 == 0 for kv in kernel)
# spot states: a set of presses with pairwise disjoint footprints, optimal
spot = set()
def dfs(j, used, state, cnt):
    for i in range(j, N):
        if foot[i] & used: continue
        s2 = state ^ foot[i]
        if minpress(s2) == cnt + 1: spot.add(s2)
        dfs(i + 1, used | foot[i], s2, cnt + 1)
dfs(0, 0, 0, 0)
# chase from a side clears s iff s is in the span of the presses of every
# row but the first (from that side)
def perm(t):  # symmetry t as a map of cells
    out = []
    for j in range(N):
        r, c = divmod(j, W)
        if t & 1: c = W - 1 - c
        if t & 2: r = W - 1 - r
        if t & 4: r, c = c, r
        out.append(cell(r, c))
    return out
def apply(p, s):
    v = 0
    for j in range(N):
        if s >> j & 1: v |= 1 << p[j]
    return v
mark = bytearray(1 << N)
sides = [[cell(r, c) for r in range(1, W) for c in range(W)],
         [cell(r, c) for r in range(W - 1) for c in range(W)],
         [cell(r, c) for r in range(W) for c in range(1, W)],
         [cell(r, c) for r in range(W) for c in range(W - 1)]]
for cells in sides:
    basis = [foot[j] for j in cells]
    v = 0
    mark[0] = 1
    for i in range(1, 1 << len(basis)):
        v ^= basis[(i & -i).bit_length() - 1]
        mark[v] = 1
nchase = mark.count(1) - 1  # the goal is no puzzle
spot_in_chase = sum(1 for s in spot if mark[s])
image = 1 << len(rows)
def level(s):
    if s in spot: return 0
    return 1 if mark[s] else 2
fix = [0, 0, 0]
fix[0] += len(spot)
fix[1] += nchase - spot_in_chase
fix[2] += image - 1 - nchase - (len(spot) - spot_in_chase)
for t in range(1, 8):
    p = perm(t)
    cyc, seen = [], set()
    for j in range(N):
        if j in seen: continue
        m, a = 0, j
        while a not in seen:
            seen.add(a); m |= 1 << a; a = p[a]
        cyc.append(m)
    for bits in range(1, 1 << len(cyc)):
        s = 0
        for i, m in enumerate(cyc):
            if bits >> i & 1: s |= m
        if solvable(s): fix[level(s)] += 1
assert all(f % 8 == 0 for f in fix)
def canon(s):
    return min(apply(perm(t), s) for t in range(8))
def text(s):
    return "".join(str(s >> j & 1) for j in range(N))
json.dump({"0": sorted(text(canon(s)) for s in {canon(s) for s in spot}),
           "counts": [f // 8 for f in fix]}, sys.stdout)
PY

# check.py WANT KEYS W H OUT: the puzzles of OUT are exactly WANT's
# puzzles at levels KEYS (e.g. "0,1"), each once and with its level
cat >check.py <<'PY'
import json, sys
import ladder
want, keys = json.load(open(sys.argv[1])), sys.argv[2].split(",")
w, h = int(sys.argv[3]), int(sys.argv[4])
names = ["spot", "chase", "table", "global"]
def sym(s):
    return ladder.canon(s, w, h)
wants = {sym(tuple(int(ch) for ch in t)) for key in keys for t in want[key]}
got, bad = [], 0
for line in open(sys.argv[5]):
    d = json.loads(line)
    if d.get("type") != "puzzle": continue
    got.append(sym(tuple(int(ch, 36) for ch in d["state"].replace("/", ""))))
    bad += str(names.index(d["human_level"])) not in keys
if len(got) == len(set(got)) == len(wants) and set(got) == wants and not bad:
    print("ok")
else:
    print("got %d (%d distinct, %d off level), want %d, %d missing" % (
        len(got), len(set(got)), bad, len(wants), len(wants - set(got))))
PY

board() { # NAME W H K
    printf 'quench: 1\nname: %s\ncolours: %s\nboard: {grid: [%s, %s]}\npress: {stencil: plus, self: true}\n' \
        "$1" "$4" "$2" "$3" >"$1.yaml"
}
names="spot chase table global"
for b in "three 3 3 2" "three3 3 3 3" "four 4 4 2"; do
    set -- $b
    board "$@"
    python3 ladder.py "$2" "$3" "$4" >"$1.json"
    expect_eq "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["bad"])' "$1.json")" 0 \
        "$1: a puzzle's states share its level (brute force)"
    l=0
    for name in $names; do
        c=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))[sys.argv[2]]))' "$1.json" $l)
        if [ "$c" -gt 0 ]; then
            q generate "$1.yaml" --human-level $name -n "$c" --seed 9 --jobs 1 -o "$1-$l.jsonl"
            expect_rc 0 "$1: all $c puzzles at $name"
            expect_eq "$(python3 check.py "$1.json" $l "$2" "$3" "$1-$l.jsonl")" ok \
                "$1: the $name puzzles are the brute force's"
            q generate "$1.yaml" --human-level $l -n $((c + 1)) --seed 9
            expect_rc 65 "$1: one more than the $c $name puzzles"
            expect_err "only $c distinct puzzle" "$1: the exact count of $name"
            expect_empty_out "$1: nothing printed when refused"
        else
            q generate "$1.yaml" --human-level $name -n 1 --seed 9
            expect_rc 65 "$1: no $name puzzle"
            expect_err "no puzzle of $1 is at human level" "$1: $name refused"
        fi
        l=$((l + 1))
    done
    c=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["0"]) + len(d["1"]))' "$1.json")
    q generate "$1.yaml" --human-level spot..1 -n "$c" --seed 9 --jobs 2 -o "$1-r.jsonl"
    expect_rc 0 "$1: spot..chase, all $c"
    expect_eq "$(python3 check.py "$1.json" 0,1 "$2" "$3" "$1-r.jsonl")" ok \
        "$1: spot..chase is both levels' puzzles"
    q generate "$1.yaml" --human-level 1 -n 20 --seed 4 --jobs 1 -o j1.jsonl
    q generate "$1.yaml" --human-level 1 -n 20 --seed 4 --jobs 2 -o j2.jsonl
    cmp -s j1.jsonl j2.jsonl && ok || not_ok "$1: --jobs 1 and 2 differ"
done
grep -q '"human_levels":\["spot","chase"\]' three-r.jsonl && ok ||
    not_ok "the header names the levels"

# shards and an extended --db run give the run's puzzles
q generate three3.yaml --human-level table -n 300 --seed 5 -o run.jsonl
for i in 0 1 2; do
    q generate three3.yaml --human-level table -n 300 --seed 5 --shard $i/3
    grep '"type":"puzzle"' "$TMP/out" >>shards.jsonl
done
q generate three3.yaml --human-level table -n 100 --seed 5 --db r.db
q generate three3.yaml --human-level table -n 300 --seed 5 --db r.db -o ext.jsonl
expect_rc 0 "an extended --db run"
ids() {
    python3 -c 'import json,sys; print(" ".join(sorted(d["id"] + d["human_level"] for d in map(json.loads, open(sys.argv[1])) if d.get("type") == "puzzle")))' "$1"
}
expect_eq "$(ids shards.jsonl)" "$(ids run.jsonl)" "3 shards give the run's puzzles"
expect_eq "$(ids ext.jsonl)" "$(ids run.jsonl)" "an extended --db run gives the run's puzzles"

# classic 5x5: spot puzzles listed, the others counted
python3 ref55.py >five.json
q generate "$R/classic-5x5.yaml" --human-level spot -n 245 --seed 9 -o five-0.jsonl
expect_rc 0 "5x5: the spot puzzles"
expect_eq "$(python3 check.py five.json 0 5 5 five-0.jsonl)" ok "5x5: spot puzzles are the brute force's"
l=0
for name in $names; do
    if [ $l = 3 ]; then
        q generate "$R/classic-5x5.yaml" --human-level global -n 1
        expect_rc 65 "5x5: no global puzzle"
        expect_err "no puzzle of classic-5x5 is at human level global" "5x5: global refused"
        break
    fi
    c=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["counts"][int(sys.argv[2])])' five.json $l)
    q generate "$R/classic-5x5.yaml" --human-level $name -n $((c + 1)) --seed 9
    expect_rc 65 "5x5: one more than the $name puzzles"
    expect_err "only $c distinct puzzles are at human level $name on classic-5x5" "5x5: $c $name puzzles"
    l=$((l + 1))
done

# a rule with no chase order: spot or global only
q generate "$R/torus-5x5.yaml" --human-level chase..table -n 1 --seed 9
expect_rc 65 "torus: no chase or table"
expect_err "no side of its board has a chase order" "torus: says why"
q generate "$R/torus-5x5.yaml" --human-level global -n 5 --seed 9
expect_rc 0 "torus: global puzzles"
expect_eq "$(grep -c '"human_level":"global"' "$TMP/out")" 5 "torus: 5 global puzzles"
# past the exact distribution: drawn and kept by level
q generate "$R/classic-7x7.yaml" --human-level chase -n 3 --seed 9
expect_rc 0 "7x7: chase puzzles drawn"
expect_eq "$(grep -c '"human_level":"chase"' "$TMP/out")" 3 "7x7: 3 chase puzzles"

q generate three.yaml --human-level table..spot
expect_rc 64 "an empty range"
expect_err "is empty" "an empty range says so"
q generate three.yaml --human-level chaos
expect_rc 64 "an unknown level"
expect_err "--human-level takes spot, chase, table, global" "the levels listed"
done_testing
