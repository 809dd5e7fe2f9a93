#!/bin/sh
# tier: full (tables of n = 1..30 mod 2 and 3, Gaussian elimination in python3: 14 s of CPU)
# rules table: a rule's press section over a family of board sizes and
# colour counts. Every fact is checked against an independent source:
# nullity by Gaussian elimination in Python over GF(2) (n = 1..30) and
# GF(3) (n = 1..12), the published nullities of n x n Lights Out (OEIS
# A159257, /work/shared/conformance: plus_square_nullity.tsv, copied
# below), the kernel's group over composite k by brute force over every
# press vector, and the largest least-press count by brute force over
# every plan of small boards.
. "$(dirname "$0")/lib.sh"

cat >plus.yaml <<'EOF'
quench: 1
name: plus
colours: 2
board: {grid: [5, 5], wrap: none}
press: {stencil: plus, self: true}
grading:
  easy: [1, 5]
  hard: [6, 15]
EOF

# 1. n = 1..30 mod 2 and mod 3, as JSON: nullity, kernel, solvable states
q rules table plus.yaml --size 1..30 --colours 2,3 --format json
expect_rc 0 "table 1..30 mod 2, 3"
cp out t30.json
py_checks t30.json <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = {(r["width"], r["height"], r["colours"]): r for r in doc["rows"]}
def plus_rows(w, h, k):
    n = w * h
    rows = []
    for i in range(n):
        r, c = divmod(i, w)
        row = [0] * n
        for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < h and 0 <= cc < w:
                row[rr * w + cc] = 1
        rows.append(row)
    return rows
def nullity_gf2(w, h):
    rows = [int("".join(map(str, r)), 2) for r in plus_rows(w, h, 2)]
    rank = 0
    n = w * h
    for bit in range(n):
        m = 1 << bit
        piv = next((i for i in range(rank, n) if rows[i] & m), None)
        if piv is None:
            continue
        rows[rank], rows[piv] = rows[piv], rows[rank]
        for i in range(n):
            if i != rank and rows[i] & m:
                rows[i] ^= rows[rank]
        rank += 1
    return n - rank
def nullity_gfp(w, h, p):
    a = plus_rows(w, h, p)
    n = w * h
    rank = 0
    for col in range(n):
        piv = next((i for i in range(rank, n) if a[i][col] % p), None)
        if piv is None:
            continue
        a[rank], a[piv] = a[piv], a[rank]
        inv = pow(a[rank][col], p - 2, p)
        a[rank] = [(v * inv) % p for v in a[rank]]
        for i in range(n):
            f = a[i][col] % p
            if i != rank and f:
                a[i] = [(x - f * y) % p for x, y in zip(a[i], a[rank])]
        rank += 1
    return n - rank
# OEIS A159257 (conformance/plus_square_nullity.tsv), n = 1..30
oeis = [0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0,
        0, 0, 14, 4, 0, 0, 0, 0, 10, 20]
print("ok" if len(doc["rows"]) == 60 else "not ok: %d rows" % len(doc["rows"]))
print("ok" if doc["rule"] == "plus" else "not ok: rule %r" % doc["rule"])
for n in range(1, 31):
    r2 = rows[(n, n, 2)]
    nul = nullity_gf2(n, n)
    print("ok" if nul == oeis[n - 1] else
          "not ok: python's GF(2) nullity of %d disagrees with OEIS" % n)
    print("ok" if r2["nullity"] == nul else
          "not ok: %dx%d mod 2 nullity %s, want %d" % (n, n, r2["nullity"], nul))
    print("ok" if r2["kernel_invariants"] == [2] * nul else
          "not ok: %dx%d mod 2 invariants %s" % (n, n, r2["kernel_invariants"]))
    want = 2 ** (n * n - nul)
    got = int(r2["solvable_states"])
    print("ok" if got == want else
          "not ok: %dx%d mod 2 solvable %s, want 2^%d" % (n, n, got, n * n - nul))
    # the square's 8 symmetries, all the identity on one cell
    print("ok" if r2["cells"] == n * n and
          r2["symmetry_group"]["order"] == (8 if n > 1 else 1) else "not ok: %dx%d mod 2 cells/symmetry %s" % (n, n, r2))
    # an invertible matrix gives every plan its own state: the largest
    # least-press count is the all-ones plan's n^2 (k - 1)
    if nul == 0:
        print("ok" if r2["max_presses"] == n * n else
              "not ok: %dx%d mod 2 max %s" % (n, n, r2["max_presses"]))
    r3 = rows[(n, n, 3)]
    if n <= 12:
        nul3 = nullity_gfp(n, n, 3)
        print("ok" if r3["nullity"] == nul3 else
              "not ok: %dx%d mod 3 nullity %s, want %d" % (n, n, r3["nullity"], nul3))
        print("ok" if int(r3["solvable_states"]) == 3 ** (n * n - nul3) else
              "not ok: %dx%d mod 3 solvable %s" % (n, n, r3["solvable_states"]))
        if nul3 == 0:
            print("ok" if r3["max_presses"] == 2 * n * n else
                  "not ok: %dx%d mod 3 max %s" % (n, n, r3["max_presses"]))
    print("ok" if r3["max_presses"] is None or r3["max_method"] != "unknown"
          else "not ok: %dx%d mod 3: a max with method unknown" % (n, n))
EOF

# 2. composite k and rectangles by brute force over every press vector:
# the kernel's group (how many quiet patterns each d kills pins down the
# invariant factors), the solvable states, the largest least-press count
q rules table plus.yaml --size 1..3x2..3 --colours 2..4,6 --format json
expect_rc 0 "table rectangles, k = 2, 3, 4, 6"
cp out small.json
py_checks small.json <<'EOF'
import itertools, json, math, sys
doc = json.load(open(sys.argv[1]))
print("ok" if len(doc["rows"]) == 3 * 2 * 4 else "not ok: %d rows" % len(doc["rows"]))
for r in doc["rows"]:
    w, h, k = r["width"], r["height"], r["colours"]
    n = w * h
    if k ** n > 300000:
        continue
    def press(x):
        s = [0] * n
        for j, v in enumerate(x):
            if not v:
                continue
            rr, cc = divmod(j, w)
            for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                a, b = rr + dr, cc + dc
                if 0 <= a < h and 0 <= b < w:
                    s[a * w + b] = (s[a * w + b] + v) % k
        return tuple(s)
    best = {}
    kernel = []
    for x in itertools.product(range(k), repeat=n):
        s = press(x)
        c = sum(x)
        if s not in best or c < best[s]:
            best[s] = c
        if not any(s):
            kernel.append(x)
    tag = "%dx%d mod %d" % (w, h, k)
    print("ok" if int(r["kernel_size"]) == len(kernel) else
          "not ok: %s kernel %s, brute force %d" % (tag, r["kernel_size"], len(kernel)))
    print("ok" if int(r["solvable_states"]) == len(best) else
          "not ok: %s solvable %s, brute force %d" % (tag, r["solvable_states"], len(best)))
    inv = r["kernel_invariants"]
    good = all(inv[i + 1] % inv[i] == 0 for i in range(len(inv) - 1))
    for d in range(1, k + 1):
        if k % d:
            continue
        killed = sum(1 for x in kernel if all(d * v % k == 0 for v in x))
        want = math.prod(math.gcd(d, o) for o in inv)
        good = good and killed == want
    print("ok" if good and r["nullity"] == len(inv) else
          "not ok: %s invariants %s do not match the brute-force kernel" % (tag, inv))
    m = max(best.values())
    if r["max_presses"] is not None:
        print("ok" if r["max_presses"] == m else
              "not ok: %s max %s, brute force %d" % (tag, r["max_presses"], m))
    else:
        print("ok" if r["max_method"] == "unknown" else
              "not ok: %s max null but method %s" % (tag, r["max_method"]))
    sym = r["symmetry_group"]["order"]
    print("ok" if sym == (8 if w == h and w > 1 else 1 if n == 1 else
                          2 if min(w, h) == 1 else 4) else
          "not ok: %s symmetry order %s" % (tag, sym))
EOF

# 3. 4x4 mod 2: God's number 7 (conformance/plus_4x4_min_presses.tsv)
q rules table plus.yaml --size 4 --format csv
expect_rc 0 "table 4x4 csv"
expect_out "width,height,cells,colours,nullity,kernel_invariants," "csv header"
expect_out "4,4,16,2,4,2 2 2 2,16,(Z/2)^4,4096," "4x4 row: nullity 4, 4096 states"
expect_out ",7,kernel classes," "4x4: at most 7 presses (kernel classes)"
expect_eq "$(wc -l <out)" 2 "csv: header and one row"

# text: a header and a row per size
q rules table plus.yaml --size 6..8
expect_rc 0 "table text"
expect_out "nullity" "text header"
expect_out "36 (invertible)" "6x6 is invertible: 36 presses at most"
expect_out "64 (invertible)" "8x8 is invertible: 64 presses at most"
expect_eq "$(wc -l <out)" 5 "text: title, header, three rows"

# the line plot: a line per colour count, a point per size, each point's
# tooltip the published nullity (OEIS A159257) for mod 2
q rules table plus.yaml --size 1..20 --colours 2,3 --svg plot.svg
expect_rc 0 "table --svg"
py_checks plot.svg <<'PYEOF'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
try:
    root = ET.parse(sys.argv[1]).getroot()
except Exception as e:
    print("not ok: not XML: %s" % e)
    sys.exit()
lines = [g for g in root.iter(ns + "g") if g.get("class") == "series"]
print("ok" if len(lines) == 2 else "not ok: %d lines" % len(lines))
oeis = [0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0]
pts = [c.find(ns + "title").text for c in lines[0].iter(ns + "circle")]
want = ["2 colours: %d, %d" % (n, oeis[n - 1]) for n in range(1, 21)]
print("ok" if pts == want else "not ok: mod 2 points %s" % pts[:5])
PYEOF
q rules table plus.yaml --size 1..4x1..5 --colours 2,3,4,5 --svg many.svg
expect_rc 64 "--svg with more than 16 lines"
if [ -e many.svg ]; then not_ok "refused plot: a file was written"; else ok; fi

# 4. bad input: usage 64, data 65, nothing on stdout
q rules table plus.yaml
expect_rc 64 "no --size"
expect_err "--size is required" "no --size: said"
q rules table plus.yaml --size 0..3
expect_rc 64 "side 0"
expect_empty_out "side 0: no output"
q rules table plus.yaml --size 3..2
expect_rc 64 "empty range"
q rules table plus.yaml --size 4x
expect_rc 64 "half a size"
q rules table plus.yaml --size 70
expect_rc 64 "70x70 is past the dense model"
expect_err "4096 cells" "70x70: the limit named"
expect_empty_out "70x70: no partial output"
q rules table plus.yaml --size 3 --colours 1
expect_rc 64 "one colour"
q rules table plus.yaml --size 3 --colours 2,x
expect_rc 64 "colour list with a word"
q rules table plus.yaml --size 3 --format xml
expect_rc 64 "unknown format"
expect_err "text, csv or json" "unknown format: the choices"
cat >hex.yaml <<'EOF'
quench: 1
name: hex
colours: 2
board: {hexagon: 2}
press: {stencil: hex, self: true}
EOF
q rules table hex.yaml --size 3
expect_rc 65 "a hexagon is not resized"
expect_err "hex.yaml:4:" "hexagon: the board's place"
q rules table missing.yaml --size 3
expect_rc 66 "missing file"
cat >amount.yaml <<'EOF'
quench: 1
name: amount
colours: 5
board: {grid: [3, 3]}
press: {stencil: plus, self: true, amount: 4}
EOF
q rules table amount.yaml --size 2..3 --colours 5,3
expect_rc 65 "an amount past a listed colour count"
expect_empty_out "amount: no partial output"

done_testing
