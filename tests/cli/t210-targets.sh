#!/bin/sh
# t210: targets that mean what they say (#20). How many distinct puzzles a
# target holds is known before drawing and checked against brute force
# (every press vector of the 4x4 board, orbits under the square's 8
# symmetries, computed here); lit-cell targets are selected exactly; a
# range is spread evenly (equal numbers at each count, a prefix-stable,
# --jobs- and shard-independent stream); tiers are discoverable.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

# Brute force on 4x4 plus (whack-a-mole-4x4: goal all off): per press count
# m, the distinct puzzles (orbits), and those with a unique optimal plan
# and at least 6 lit cells.
python3 - >facts.txt <<'PY'
n, w = 16, 4
col = []
for j in range(n):
    r, c = divmod(j, w)
    m = 0
    for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= r + dr < w and 0 <= c + dc < w:
            m |= 1 << ((r + dr) * w + c + dc)
    col.append(m)
best, nopt = {}, {}
for x in range(1 << n):
    s, k = 0, bin(x).count("1")
    for j in range(n):
        if x >> j & 1:
            s ^= col[j]
    if s not in best or k < best[s]:
        best[s], nopt[s] = k, 1
    elif k == best[s]:
        nopt[s] += 1
def perms():
    out = []
    for f in range(8):
        p = []
        for i in range(n):
            r, c = divmod(i, w)
            if f & 1:
                c = w - 1 - c
            for _ in range(f >> 1):
                r, c = c, w - 1 - r
            p.append(r * w + c)
        out.append(p)
    return out
P = perms()
def image(s, p):
    return sum(1 << p[i] for i in range(n) if s >> i & 1)
def rep(s):
    return all(image(s, p) >= s for p in P)
per_m, uniq = {}, 0
for s, m in best.items():
    if m and rep(s):
        per_m[m] = per_m.get(m, 0) + 1
        if nopt[s] == 1 and bin(s).count("1") >= 6:
            uniq += 1
print(max(per_m), per_m[max(per_m)], per_m[max(per_m) - 1], uniq)
PY
read -r top d_top d_below uniq <facts.txt
W4=$R/whack-a-mole-4x4.yaml

# Exactly as many as exist: all of them; one more: refused at once.
q generate "$W4" -n $((d_top + 1)) --presses "$top" --seed 1
expect_rc 65 "more than the target holds"
expect_err "only $d_top distinct puzzles need exactly $top presses on whack-a-mole-4x4; asked for $((d_top + 1))" "how many exist"
expect_empty_out "nothing printed for a refused target"
q generate "$W4" -n "$d_below" --presses $((top - 1)) --seed 1
expect_rc 0 "every puzzle of a count"
expect_eq "$(python3 -c "
import json,sys
rs=[json.loads(l) for l in open(sys.argv[1])]
ps=[r for r in rs if r['type']=='puzzle']
print(len(ps), len({r['id'] for r in ps}), {r['min_presses'] for r in ps}=={$top-1},
      rs[-1]['target_distinct'], rs[-1]['target_distinct_exact'])" "$TMP/out")" \
    "$d_below $d_below True $d_below True" "all $d_below distinct, counted exactly"

# Unique optimum and lit cells together: exactly brute force's number.
q generate "$W4" -n $((uniq + 1)) --unique-optimum --min-lit 6 --seed 1
expect_rc 65 "unique + lit: one too many"
expect_err "only $uniq distinct puzzles have at least 6 lit cells and have a unique optimal plan" "unique + lit counted"
q generate "$W4" -n "$uniq" --unique-optimum --min-lit 6 --seed 1
expect_rc 0 "unique + lit: all of them"
expect_eq "$(grep -c '"optimal_solutions":1,' "$TMP/out")" "$uniq" "each has one optimal plan"

# The issue's examples on classic 5x5. 1049 distinct puzzles need 15
# presses (brute force in tests/unit/test_distrib.c); the all-lit board is
# one puzzle needing 15 (OEIS A075464).
q generate "$R/classic-5x5.yaml" -n 2000 --presses 15 --seed 1
expect_rc 65 "2000 of 1049"
expect_err "only 1049 distinct puzzles need exactly 15 presses on classic-5x5; asked for 2000" "1049 said at once"
q generate "$R/classic-5x5.yaml" --min-lit 25 --seed 1
expect_rc 65 "10 all-lit boards"
expect_err "only 1 distinct puzzle has at least 25 lit cells on classic-5x5; asked for 10" "one all-lit board"
q generate "$R/classic-5x5.yaml" -n 1 --min-lit 25 --seed 1 --max-draws 10
expect_rc 0 "the all-lit board, selected exactly"
expect_out '"state":"11111/11111/11111/11111/11111","min_presses":15,' "all lit, 15 presses"

# Spread: equal numbers at each count; the first N of a longer run are a
# shorter run; the same whatever --jobs; shards give the single run.
count_by() { python3 -c "
import json,sys,collections
rs=[json.loads(l) for l in open(sys.argv[1])]
c=collections.Counter(r['min_presses'] for r in rs if r['type']=='puzzle')
print(' '.join('%d:%d' % kv for kv in sorted(c.items())))" "$1"; }
q generate "$R/classic-5x5.yaml" -n 30 --presses 13..15 --mode spread --seed 5 --jobs 1
expect_rc 0 "spread"
expect_eq "$(count_by "$TMP/out")" "13:10 14:10 15:10" "10 at each of 13, 14, 15"
grep '"type":"puzzle"' "$TMP/out" >spread30.jsonl
q generate "$R/classic-5x5.yaml" -n 30 --presses 13..15 --mode spread --seed 5 --jobs 2
grep '"type":"puzzle"' "$TMP/out" | cmp -s - spread30.jsonl && ok || not_ok "spread differs with --jobs 2"
q generate "$R/classic-5x5.yaml" -n 11 --presses 13..15 --mode spread --seed 5
expect_eq "$(count_by "$TMP/out")" "13:4 14:4 15:3" "11: 4, 4, 3"
grep '"type":"puzzle"' "$TMP/out" >spread11.jsonl
head -n 11 spread30.jsonl | cmp -s - spread11.jsonl && ok || not_ok "-n 11 is not the start of -n 30"
for i in 0 1 2; do
    q generate "$R/classic-5x5.yaml" -n 30 --presses 13..15 --mode spread --seed 5 --shard $i/3
    grep '"type":"puzzle"' "$TMP/out" >>shards.jsonl
done
expect_eq "$(python3 -c "
import json,sys
key=lambda f: sorted(json.loads(l)['index'] for l in open(f))
print(key(sys.argv[1])==key(sys.argv[2]))" shards.jsonl spread30.jsonl)" True "3 shards = the single run"

# A rare open range on a rule too large for the exact distribution: AUTO
# spreads over it, to 49 (7x7 is invertible, OEIS A159257, so pressing
# all 49 cells is the only plan of its state: the most any state needs,
# and the only puzzle needing 49); before #20 every puzzle needed exactly
# the lower bound.
q generate "$R/classic-7x7.yaml" -n 10 --presses 40.. --seed 1
expect_rc 0 "7x7 40.."
expect_eq "$(count_by "$TMP/out")" "40:1 41:1 42:1 43:1 44:1 45:1 46:1 47:1 48:1 49:1" "1 at each of 40..49"
expect_out '"mode":"spread"' "auto chose spread"

# Tiers are discoverable: rules show prints the tiers runs grade with
# (here sampled from the rule's own seed), whatever the run's seed.
q rules show "$R/classic-9x9.yaml" --json
cp "$TMP/out" show.json
q generate "$R/classic-9x9.yaml" -n 30 --seed 7
cp "$TMP/out" g7.jsonl
expect_eq "$(python3 -c "
import json,sys
t=json.load(open(sys.argv[1]))
tiers=t['tiers']
def grade(m):
    return next((x['name'] for x in tiers if x['lo'] <= m <= x['hi']), None)
rs=[json.loads(l) for l in open(sys.argv[2])][1:-1]
print(t['tiers_source'], len(tiers) > 0, all(r['grade']==grade(r['min_presses']) for r in rs))" show.json g7.jsonl)" \
    "sample True True" "generate grades with the tiers rules show prints"
q generate "$R/classic-5x5.yaml" -n 5 --tier nosuch
expect_rc 65 "unknown tier"
expect_err "no tier 'nosuch' in this rule's grading; its tiers: easy 1-5, medium 6-10, hard 11-15" "valid tiers listed"
q rules show "$R/classic-5x5.yaml"
expect_out "grading tiers:        easy 1-5, medium 6-10, hard 11-15 (the rule's own)" "tiers shown by default"
q rules show "$R/classic-9x9.yaml" --sample 300 --json
expect_eq "$(python3 -c "
import json,sys
s=json.load(open(sys.argv[1]))['sample']
c=s['counts']
print(s['drawn'], sum(c)==s['graded'], len(c)-1==s['max_presses'], c[-1]>0, s['max_presses']<=81)" "$TMP/out")" \
    "300 True True True True" "sampled distribution and its largest count"
q rules show "$R/classic-9x9.yaml" --sample 0
expect_rc 64 "--sample 0"

done_testing
