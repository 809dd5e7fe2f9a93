#!/bin/sh
# tier: full (brute-force chases over every state of 56 boards in python3: 5 s)
# rules table: the chase shares of the human ladder (issue 36, section 1;
# docs/GENERATE.md "The human ladder") in every format, checked against a
# brute force in Python that knows nothing of quench: every press vector
# gives the solvable states, a light chase (press the cell below each lit
# cell, row by row) is run on each of them from each side, and the share
# of solvable states it leaves clear, and the last-row patterns first-row
# presses leave, are counted. Classic 5x5 mod 2 is checked by spans of
# bit vectors (2^20 states a side).
. "$(dirname "$0")/lib.sh"

cat >plus.yaml <<'EOF'
quench: 1
name: plus
colours: 2
board: {grid: [5, 5], wrap: none}
press: {stencil: plus, self: true}
EOF

# 1. every small rectangle and colour count, as JSON, by brute force
q rules table plus.yaml --size 1..4x1..4 --colours 2..6 --format json
expect_rc 0 "table 1..4 x 1..4, k = 2..6"
cp out small.json
py_checks small.json <<'EOF'
import itertools, json, sys
from fractions import Fraction
doc = json.load(open(sys.argv[1]))
def frac(s):
    if s is None:
        return None
    a, _, b = s.partition("/")
    return Fraction(int(a), int(b or 1))
checked = 0
for r in doc["rows"]:
    w, h, k = r["width"], r["height"], r["colours"]
    n = w * h
    if k ** n > 20000:
        continue
    checked += 1
    tag = "%dx%d mod %d" % (w, h, k)
    def press(b, rr, cc, t, W, H):
        for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            a, c = rr + dr, cc + dc
            if 0 <= a < H and 0 <= c < W:
                b[a][c] = (b[a][c] + t) % k
    solvable = set()
    for x in itertools.product(range(k), repeat=n):
        b = [[0] * w for _ in range(h)]
        for j, v in enumerate(x):
            if v:
                press(b, j // w, j % w, v, w, h)
        solvable.add(tuple(map(tuple, b)))
    # a side's view of the board: its rows in walk order
    def views(b):
        rows = [list(row) for row in b]
        cols = [list(c) for c in zip(*b)]
        return {"top": rows, "bottom": rows[::-1], "left": cols,
                "right": cols[::-1]}
    def chase_clears(v):
        H, W = len(v), len(v[0])
        if H < 2:
            return False  # a single row: no chase from this side
        v = [list(row) for row in v]
        for rr in range(H - 1):
            for cc in range(W):
                if v[rr][cc]:
                    press(v, rr + 1, cc, k - v[rr][cc], W, H)
        return not any(v[H - 1])
    top = anyside = 0
    for s in solvable:
        vs = views(s)
        t = chase_clears(vs["top"])
        top += t
        anyside += t or any(chase_clears(vs[d]) for d in
                            ("bottom", "left", "right"))
    hu = r["human"]
    want_top = Fraction(top, len(solvable))
    want_any = Fraction(anyside, len(solvable))
    print("ok" if frac(hu["chase_share_top"]) == want_top else
          "not ok: %s top %s, brute force %s" % (tag, hu["chase_share_top"], want_top))
    print("ok" if frac(hu["chase_share_any"]) == want_any else
          "not ok: %s any %s, brute force %s" % (tag, hu["chase_share_any"], want_any))
    # the table: the last-row residues that first-row presses leave
    if h >= 2:
        res = set()
        for y in itertools.product(range(k), repeat=w):
            b = [[0] * w for _ in range(h)]
            for cc, v in enumerate(y):
                if v:
                    press(b, 0, cc, v, w, h)
            for rr in range(h - 1):
                for cc in range(w):
                    if b[rr][cc]:
                        press(b, rr + 1, cc, k - b[rr][cc], w, h)
            res.add(tuple(b[h - 1]))
        want = len(res) - 1
    else:
        want = None
    print("ok" if hu["table_patterns"] == want else
          "not ok: %s table %s, brute force %s" % (tag, hu["table_patterns"], want))
print("ok" if checked >= 40 else "not ok: only %d rows checked" % checked)
EOF

# 2. classic 5x5 mod 2 (2^23 solvable states): the states a chase from a
# side clears are the span of the presses off that side's first row
# (the chase finds their unique combination): 2^20 each, their union
# marked state by state
q rules table plus.yaml --size 5 --format json
expect_rc 0 "table 5x5"
cp out five.json
py_checks five.json <<'EOF'
import json, sys
from fractions import Fraction
hu = json.load(open(sys.argv[1]))["rows"][0]["human"]
N = 5
def col(r, c):
    m = 0
    for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
        a, b = r + dr, c + dc
        if 0 <= a < N and 0 <= b < N:
            m |= 1 << (a * N + b)
    return m
def basis(vecs):
    out = []
    for v in vecs:
        for b in out:
            v = min(v, v ^ b)
        if v:
            out.append(v)
    return out
cells = [(r, c) for r in range(N) for c in range(N)]
sides = {"top": lambda r, c: r > 0, "bottom": lambda r, c: r < N - 1,
         "left": lambda r, c: c > 0, "right": lambda r, c: c < N - 1}
solv = 2 ** len(basis([col(r, c) for r, c in cells]))
seen = bytearray(1 << (N * N))
top = None
for name, keep in sides.items():
    bs = basis([col(r, c) for r, c in cells if keep(r, c)])
    # every combination of the basis, by a Gray code walk
    x = 0
    seen[0] = 1
    for i in range(1, 1 << len(bs)):
        x ^= bs[(i & -i).bit_length() - 1]
        seen[x] = 1
    if name == "top":
        top = Fraction(2 ** len(bs), solv)
print("ok" if solv == 2 ** 23 else "not ok: 5x5 solvable %d" % solv)
print("ok" if hu["chase_share_top"] == "%d/%d" % (top.numerator, top.denominator)
      else "not ok: 5x5 top %s, want %s" % (hu["chase_share_top"], top))
a = Fraction(seen.count(1), solv)
print("ok" if hu["chase_share_any"] == "%d/%d" % (a.numerator, a.denominator)
      else "not ok: 5x5 any %s, want %s" % (hu["chase_share_any"], a))
EOF

# 3. csv and text carry the same figures; out of exact reach is said
q rules table plus.yaml --size 5 --format csv
expect_rc 0 "csv"
expect_out ",chase_share_top,chase_share_any,table_patterns" "csv header"
five=$(python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["rows"][0]["human"]; print("%s,%s,%s" % (h["chase_share_top"], h["chase_share_any"], h["table_patterns"]))' five.json)
expect_out ",$five" "csv row: json's shares"
q rules table plus.yaml --size 4..5
expect_rc 0 "text"
expect_out "chase top" "text header"
expect_out "chase any" "text header"
# 4x4 mod 2: the kernel's 4 dimensions are the width, so every solvable
# state clears from the top (hand: 2^12 chase presses, 2^12 states)
python3 - out >chk <<'EOF'
import sys
lines = open(sys.argv[1]).read().splitlines()
at = lines[1].index("chase top")
for line in lines:
    if line.startswith("4x4 "):
        print(" ".join(line[at:].split()[:3]))
EOF
expect_eq "$(cat chk)" "1 1 0" "4x4 text: top 1, any 1, no non-zero pattern"
# 30x30 mod 3: shares past 64 bits are null / empty / n/a
q rules table plus.yaml --size 30 --colours 3 --format json
expect_rc 0 "30x30 mod 3"
py_checks out <<'EOF'
import json, sys
hu = json.load(open(sys.argv[1]))["rows"][0]["human"]
print("ok" if hu["chase_share_any"] is None else "not ok: 30x30 mod 3 any %r" % hu["chase_share_any"])
# from the top: 3^30 last-row patterns against an invertible A (3^900
# states, 3^870 of them cleared): 1/3^30
print("ok" if hu["chase_share_top"] == "1/%d" % 3 ** 30 else "not ok: 30x30 mod 3 top %r" % hu["chase_share_top"])
EOF
q rules table plus.yaml --size 30 --colours 3
expect_out "n/a: out of exact reach" "text: n/a explained"

# 4. a torus has no chase order: nothing is cleared by one
cat >torus.yaml <<'EOF'
quench: 1
name: torus
colours: 2
board: {grid: [5, 5], wrap: both}
press: {stencil: plus, self: true}
EOF
q rules table torus.yaml --size 3..4 --format csv
expect_rc 0 "torus csv"
expect_eq "$(cut -d, -f15- out | sed 1d | sort -u)" "0,0," "torus: shares 0, no table"

done_testing
