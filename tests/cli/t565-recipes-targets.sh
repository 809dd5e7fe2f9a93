#!/bin/sh
# tier: full (brute force and Burnside over 2^23 states in python3: 12 s of CPU)
# t565: recipes and targets (issue #31, "Hardening II"): a plan that passes
# builds, and what cannot exist is refused at once. Facts from outside
# quench, computed here in python3: brute-force maxima of small boards
# (k = 2, 3 and the composite 4 and 6), the GF(2) kernel of 9x9 (its
# support gives the coset bound), Burnside's count of classic 5x5's
# puzzles over its 2^23 solvable states, every 7x7 and 6x6-torus puzzle's
# minimal presses by elimination, OEIS A054247 (3x3: 102 classes). The
# `timeout 60` guards only turn a hang into a failure.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules
C5=$R/classic-5x5.yaml

# qt ARGS...: run quench under the hang guard; $rc, $TMP/out, $TMP/err.
qt() {
    timeout 60 "$QUENCH" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    rc=$?
}
recipe() { # FILE, then the sections' YAML on stdin
    { printf 'pack: p\nseed: 31\nsections:\n'; cat; } >"$1"
}

# The GF(2) facts the checks below share, in python3: a plus board's
# press columns as bit masks, and the plans of a state on a grid without
# wrap by light chasing (the first row's presses decide the rest).
cat >lo.py <<'PY'
def plus(w, h, wrap=False):
    cols = []
    for j in range(w * h):
        r, c = divmod(j, w)
        m = 0
        for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            rr, cc = r + dr, c + dc
            if wrap:
                rr, cc = rr % h, cc % w
            if 0 <= rr < h and 0 <= cc < w:
                m |= 1 << (rr * w + cc)
        cols.append(m)
    return cols
def chase(cols, w, state):
    """Every plan x (a bit mask) with A x = state."""
    n = len(cols)
    for first in range(1 << w):
        x, s = first, state
        for j in range(w):
            if first >> j & 1:
                s ^= cols[j]
        for i in range(w, n):
            if s >> (i - w) & 1:
                x |= 1 << i
                s ^= cols[i]
        if s == 0:
            yield x
def bits(p):  # an exported puzzle's state
    return sum(1 << i for i, v in enumerate(p["state"]) if v)
PY

# --- 1. The press bound: never below a true maximum --------------------
# Brute force over every press vector of small boards: the largest minimal
# press count, and the coset bound floor(sum_i (k + d_i) / 2) - n with d_i
# = gcd(k, every kernel vector's i-th entry) (docs/GENERATE.md).
python3 - >boards.txt <<'PY'
import itertools, math
def board(w, h, wrap, selfp):
    n, cols = w * h, []
    for j in range(n):
        r, c = divmod(j, w)
        v = [0] * n
        for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            if (dr, dc) == (0, 0) and not selfp:
                continue
            rr, cc = r + dr, c + dc
            if wrap:
                rr, cc = rr % h, cc % w
            if 0 <= rr < h and 0 <= cc < w:
                v[rr * w + cc] += 1
        cols.append(v)
    return cols
for w, h, wrap, selfp, k in ((3, 3, 0, 1, 2), (4, 4, 0, 1, 2), (3, 3, 1, 1, 2),
                             (3, 3, 1, 0, 2), (2, 3, 0, 1, 3), (2, 4, 0, 1, 3),
                             (3, 2, 0, 1, 4), (3, 3, 1, 1, 4), (2, 3, 0, 1, 6),
                             (2, 2, 0, 0, 6)):
    cols, n = board(w, h, wrap, selfp), w * h
    best, d = {}, [k] * n
    for x in itertools.product(range(k), repeat=n):
        s = [0] * n
        for j, xj in enumerate(x):
            if xj:
                for i, a in enumerate(cols[j]):
                    if a:
                        s[i] = (s[i] + a * xj) % k
        s, cost = tuple(s), sum(x)
        if s not in best or cost < best[s]:
            best[s] = cost
        if not any(s):
            d = [math.gcd(di, xi) for di, xi in zip(d, x)]
    print(w, h, wrap, selfp, k, max(best.values()),
          sum(k + di for di in d) // 2 - n)
PY
i=0
while read -r w h wrap selfp k max bound; do
    i=$((i + 1))
    f=b$i.yaml
    { echo "quench: 1"; echo "name: b$i"; echo "colours: $k"
      [ "$wrap" = 1 ] && echo "board: {grid: [$w, $h], wrap: both}" \
                      || echo "board: {grid: [$w, $h]}"
      [ "$selfp" = 1 ] && echo "press: {stencil: plus}" \
                       || echo "press: {stencil: plus, self: false}"; } >"$f"
    q rules show "$f" --json
    got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["press_bound"])' "$TMP/out")
    expect_eq "$got" "$bound" "$w x $h wrap=$wrap self=$selfp k=$k: the coset bound"
    [ "${got:-0}" -ge "$max" ] && ok || not_ok "$w x $h k=$k: bound $got below the true maximum $max"
    # where the exact distribution is computed, the exact maximum is used
    q generate "$f" -n 1 --seed 1
    expect_out "\"max_presses\":$max,\"max_presses_exact\":true" "$w x $h k=$k: the exact maximum $max"
done <boards.txt
expect_eq "$i" 10 "ten boards brute-forced"

# 9x9's bound from its GF(2) kernel (light chasing over the first row):
# (cells outside the kernel's support) + half the support.
bound9=$(python3 - <<'PY'
import lo
supp = 0
for x in lo.chase(lo.plus(9, 9), 9, 0):
    supp |= x
s = bin(supp).count("1")
print((81 - s) + s // 2)
PY
)
expect_eq "$bound9" 41 "9x9: 80 cells in the kernel's support, bound 1 + 40"
recipe far.yaml <<EOF
  - name: far
    rules: $R/classic-9x9.yaml
    count: 5
    presses: 60..
EOF
qt pack build far.yaml --plan
expect_rc 65 "9x9 presses 60..: refused by the plan"
expect_err "far.yaml:6:12: section 'far': no solvable state needs 60.. presses on classic-9x9: none needs more than $bound9" "located, with the bound"
qt generate "$R/classic-9x9.yaml" --presses $((bound9 + 1)).. -n 1 --seed 1
expect_rc 65 "generate past the bound"
expect_empty_out "nothing printed"

# --- 2. A spread adapts to what exists -----------------------------------
# classic 7x7 is invertible (OEIS A159257): every state has one plan, so
# its minimal presses are that plan's size, and only the all-press state
# needs 49: one puzzle.
recipe c7.yaml <<EOF
  - name: seven
    rules: $R/classic-7x7.yaml
    count: 100
EOF
qt pack build c7.yaml --plan
expect_rc 0 "7x7 count 100: planned"
if grep -q "common target" "$TMP/out"; then not_ok "a spread is not a common target"; else ok; fi
expect_out "49 counts reached by pilot climbs" "the plan says what it spreads over"
qt pack build c7.yaml --db a.db --jobs 2
expect_rc 0 "7x7 count 100: built (it ran out of draws before #31)"
qt export p --format json --db a.db -o a.json
qt pack build c7.yaml --db b.db --jobs 1
qt export p --format json --db b.db -o b.json
cmp -s a.json b.json && ok || not_ok "the same pack with --jobs 1 and 2"
py_checks a.json <<'PY'
import json, sys, collections, lo
ps = json.load(open(sys.argv[1]))["puzzles"]
cols = lo.plus(7, 7)
print("ok" if len(ps) == 100 and len({p["id"] for p in ps}) == 100 else "not ok: 100 distinct")
bad = [p["id"] for p in ps
       if [bin(x).count("1") for x in lo.chase(cols, 7, lo.bits(p))] != [p["min_presses"]]]
print("ok" if not bad else "not ok: min presses wrong for %s" % bad[:3])
per = collections.Counter(p["min_presses"] for p in ps)
print("ok" if per[49] == 1 else "not ok: %d puzzles at 49" % per[49])
print("ok" if all(2 <= per[m] <= 3 for m in range(1, 49)) else "not ok: uneven %s" % sorted(per.items()))
PY

# A 6x6 torus (2^28 solvable states: no exact distribution) over 1..14:
# every single press is a translation of every other, so count 1 holds one
# puzzle; the run retires it and the others share the rest.
cat >t6.yaml <<EOF
quench: 1
name: torus-6x6
colours: 2
board: {grid: [6, 6], wrap: both}
press: {stencil: plus}
EOF
recipe t6r.yaml <<EOF
  - name: torus
    rules: t6.yaml
    count: 100
    presses: 1..14
EOF
qt pack build t6r.yaml --db t.db
expect_rc 0 "6x6 torus 1..14: built (it ran out of draws before #31)"
qt export p --format json --db t.db -o t.json
py_checks t.json <<'PY'
import json, sys, collections, lo
ps = json.load(open(sys.argv[1]))["puzzles"]
n, cols = 36, lo.plus(6, 6, wrap=True)
# GF(2) elimination: a basis of the kernel and a solver
rows, kern = [], []   # (value, plan)
for j in range(n):
    v, t = cols[j], 1 << j
    for bv, bt in rows:
        if v ^ bv < v:
            v, t = v ^ bv, t ^ bt
    if v:
        rows.append((v, t)); rows.sort(reverse=True)
    else:
        kern.append(t)
def least(state):
    v, t = state, 0
    for bv, bt in rows:
        if v ^ bv < v:
            v, t = v ^ bv, t ^ bt
    assert v == 0, "unsolvable"
    best = 99
    for sel in range(1 << len(kern)):
        x = t
        for i, k in enumerate(kern):
            if sel >> i & 1:
                x ^= k
        best = min(best, bin(x).count("1"))
    return best
bits = lo.bits
print("ok" if len(kern) == 8 else "not ok: kernel 2^%d" % len(kern))
print("ok" if len(ps) == 100 and len({p["id"] for p in ps}) == 100 else "not ok: 100 distinct")
bad = [p["id"] for p in ps if least(bits(p)) != p["min_presses"]]
print("ok" if not bad else "not ok: min presses wrong for %s" % bad[:3])
per = collections.Counter(p["min_presses"] for p in ps)
print("ok" if per[1] == 1 else "not ok: %d puzzles need 1 press" % per[1])
print("ok" if set(per) <= set(range(1, 15)) else "not ok: outside 1..14")
PY

# --- 3. Every target gets the up-front count -----------------------------
# Burnside over classic 5x5's 2^23 solvable states (solvable: orthogonal
# to the 4 quiet patterns, found by chasing): each symmetry's fixed states
# are enumerated.
python3 - >orbits.txt <<'PY'
import lo
n, w = 25, 5
kern = list(lo.chase(lo.plus(5, 5), 5, 0))
solvable = lambda s: all(bin(s & k).count("1") % 2 == 0 for k in kern)
total = 0
for f in range(8):
    p = []
    for i in range(n):
        r, c = divmod(i, w)
        if f & 1:
            c = w - 1 - c
        for _ in range(f >> 1):
            r, c = c, w - 1 - r
        p.append(r * w + c)
    seen, cyc = [False] * n, []
    for i in range(n):
        if not seen[i]:
            m, j = 0, i
            while not seen[j]:
                seen[j] = True; m |= 1 << j; j = p[j]
            cyc.append(m)
    if len(cyc) == n:
        total += (1 << n) // len(kern)   # A is square: |image| = 2^n / |kernel|
        continue
    for y in range(1 << len(cyc)):
        s = 0
        for t in range(len(cyc)):
            if y >> t & 1:
                s |= cyc[t]
        total += solvable(s)
print(total // 8 - 1, total % 8)
PY
read -r puzzles5 rest <orbits.txt
expect_eq "$puzzles5 $rest" "1057823 0" "classic 5x5: 1,057,823 puzzles besides the goal"
qt generate "$C5" -n 2000000 --seed 1
expect_rc 65 "-n 2000000 on classic 5x5: refused (it drew for ever before #31)"
expect_err "only $puzzles5 distinct puzzles exist on classic-5x5; asked for 2000000" "the count said"
expect_empty_out "nothing printed"
qt generate "$C5" -n $((puzzles5 + 1)) --seed 1
expect_rc 65 "one more than exist"
# classic 3x3 with tiers of its own (so no distribution is computed):
# OEIS A054247, 102 classes of 3x3 boards, all 512 states solvable.
{ cat "$R/classic-3x3.yaml"; echo "grading: {all: [1, 9]}"; } >c3.yaml
qt generate c3.yaml -n 102 --seed 1
expect_rc 65 "3x3: 102 asked, 101 exist"
expect_err "only 101 distinct puzzles exist on classic-3x3; asked for 102" "counted without the distribution"
qt generate c3.yaml -n 101 --seed 1
expect_rc 0 "3x3: all 101"
expect_eq "$(grep -c '"type":"puzzle"' "$TMP/out")" 101 "101 records"

# --- 4. A refused generate creates nothing -------------------------------
qt generate "$C5" --presses 16..20 --db x.db --pack p
expect_rc 65 "16..20 presses on classic 5x5 (at most 15)"
[ ! -e x.db ] && ok || not_ok "a refused generate created its database"
qt generate "$C5" -n 2000000 --db y.db --pack p
expect_rc 65 "2000000 puzzles into a database"
[ ! -e y.db ] && ok || not_ok "a refused generate created its database (count)"

# --- 5. A rule file shared by sections is loaded once ---------------------
mkdir -p sub
cp "$C5" five.yaml
{ echo "# the same rule, other comments"; cat "$C5"; } >sub/five-copy.yaml
recipe shared.yaml <<EOF
  - {name: s1, rules: five.yaml, count: 2}
  - {name: s2, rules: ./five.yaml, count: 2}
  - {name: s3, rules: sub/../five.yaml, count: 2}
  - {name: s4, rules: $TMP/five.yaml, count: 2}
  - {name: s5, rules: sub/five-copy.yaml, count: 2}
  - {name: s6, rules: five.yaml, tiers: {easy: 2}}
  - {name: s7, rules: five.yaml, count: 2, presses: 3..5}
  - {name: s8, rules: five.yaml, count: 2, unique-optimum: true}
EOF
qt pack build shared.yaml --plan --json
expect_rc 0 "eight sections, one rule"
expect_eq "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["rules"])' "$TMP/out")" 1 "the rule loaded and factorised once"
printf '  - {name: s9, rules: %s, count: 2}\n' "$R/classic-7x7.yaml" >>shared.yaml
qt pack build shared.yaml --plan --json
expect_eq "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["rules"])' "$TMP/out")" 2 "another rule: two"
# a 40x40 three-colour grid (kernel 3^20, past the walk limit) in eight
# sections: refused at its first, once
cat >g40.yaml <<EOF
quench: 1
name: g40
colours: 3
board: {grid: [40, 40]}
press: {stencil: plus}
EOF
for s in 1 2 3 4 5 6 7 8; do printf '  - {name: g%s, rules: g40.yaml, count: 5}\n' $s; done | recipe g40r.yaml
qt pack build g40r.yaml --plan
expect_rc 65 "40x40 x 3 colours: cannot be graded"
expect_err "g40r.yaml:4:23: section 'g1': g40.yaml: cannot grade exactly: the kernel has 3^20 elements" "refused at its first section"
# the planning budget: a 9x9 target past the distribution needs a pilot
recipe budget.yaml <<EOF
  - name: rare
    rules: $R/classic-9x9.yaml
    count: 5
    presses: 20..25
    distribution: uniform
EOF
qt pack build budget.yaml --plan --plan-budget 1000
expect_rc 65 "a plan past its budget"
expect_err "budget.yaml:6:12: section 'rare': the recipe's plan would grade more than 1000 states in its pilots" "refused, located"
qt pack build budget.yaml --plan --json
expect_rc 0 "the default budget"
expect_eq "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(0 < j["plan_grades"] <= 1 << 25)' "$TMP/out")" True "the plan's grades counted, within the budget"

# --- 6. A file that is not a rule file is never quoted -------------------
hash='$6$Yq3xVb1c$Hx5p0wMZkT4r9aQe7sLfN2dUcJvB8yGiKoPlRnAtEhWmXzQsDgFjCkVbNyHuTiOp.'
printf 'root:%s:19876:0:99999:7:::\ndaemon:*:19876:0:99999:7:::\n' "$hash" >shadow
printf 'secret: hunter2-abcdef\nsecret: hunter2-abcdef\n' >dup.yaml
printf 'password: !!binary aHVudGVyMg==\n' >tag.yaml
printf 'hunter2\n\377\376secret\n' >key.bin
for f in shadow dup.yaml tag.yaml key.bin; do
    recipe leak.yaml <<EOF
  - name: leak
    rules: $f
    count: 1
EOF
    for v in "" -v; do
        # shellcheck disable=SC2086
        qt $v pack build leak.yaml --plan
        expect_rc 65 "$f $v: refused"
        expect_err "leak.yaml:5:12: section 'leak': $f: not a rule file" "$f $v: said so, located in the recipe"
        if grep -qE 'Yq3x|hunter|aHVu|root|daemon|password|secret|0xff' "$TMP/err"; then
            not_ok "$f $v: its content quoted: $(cat "$TMP/err")"
        else ok; fi
    done
    qt -v rules check "$f"
    expect_rc 65 "rules check $f"
    if grep -qE 'Yq3x|hunter|aHVu|root|daemon|password|secret|0xff' "$TMP/err"; then
        not_ok "rules check $f: its content quoted"
    else ok; fi
done

# --- 7. A FIFO is refused at once, never waited on ------------------------
mkfifo fifo.yaml
recipe fifo-r.yaml <<EOF
  - name: f
    rules: fifo.yaml
    count: 1
EOF
qt pack build fifo-r.yaml --plan
expect_rc 66 "a FIFO as a rule path (it hung before #31)"
expect_err "fifo-r.yaml:5:12: section 'f': fifo.yaml: cannot open: not a regular file (a FIFO)" "said, located"
qt generate fifo.yaml -n 1
expect_rc 66 "generate FIFO"
qt pack build fifo.yaml --plan
expect_rc 66 "a FIFO as the recipe"
qt rules check /dev/null
expect_rc 66 "a device as a rule file"
expect_err "/dev/null: cannot open: not a regular file (a character device)" "a device: said"
# standard input still works where it is documented
timeout 60 "$QUENCH" rules check - <"$C5" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 0 "rules check - (stdin)"
recipe stdin.yaml <<EOF
  - name: s
    rules: $C5
    count: 3
EOF
timeout 60 "$QUENCH" pack build - --plan <stdin.yaml >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 0 "pack build - (a recipe on stdin)"

done_testing
