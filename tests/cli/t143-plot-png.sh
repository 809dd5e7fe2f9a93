#!/bin/sh
# tier: full (PNG decoding and brute-force histograms in python3: 11 s)
# --png for `rules show --distribution` and `rules table` (issue 36,
# section 2): the histogram and the line plot as PNG, drawn from the svg
# writers' own geometry. Each PNG is decoded by tests/cli/png_rgb.py (zlib
# and the five filters, nothing of quench) and its pixels are checked
# against facts: the step outline's heights against the counts of every
# plan of classic 3x3 (brute force: invertible, so C(9, w) states need w
# presses), the line plot's dots against the published nullities of n x n
# Lights Out (OEIS A159257), and both against the svg drawn in the same
# run. Two runs give the same bytes; a file that cannot be written is 73
# and nothing is printed.
. "$(dirname "$0")/lib.sh"

cat >p3.yaml <<'EOF'
quench: 1
name: p3
colours: 2
board: {grid: [3, 3]}
press: {stencil: plus, self: true}
EOF
cat >p53.yaml <<'EOF'
quench: 1
name: p53
colours: 3
board: {grid: [5, 5]}
press: {stencil: plus, self: true}
EOF

cat >hist.py <<'PY'
import itertools, re, sys
import xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[1])
import png_rgb
svg, png = sys.argv[2], sys.argv[3]
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(svg).getroot()
w, h, px = png_rgb.read(png)
print("ok" if (w, h) == (int(float(root.get("width"))), int(float(root.get("height")))) else
      "not ok: png %dx%d, svg %sx%s" % (w, h, root.get("width"), root.get("height")))
# the counts, by brute force over every plan of 3x3 (no two plans give
# one state: each state's least count is its plan's weight)
best = {}
for x in itertools.product((0, 1), repeat=9):
    s = [0] * 9
    for j, v in enumerate(x):
        if v:
            r, c = divmod(j, 3)
            for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                a, b = r + dr, c + dc
                if 0 <= a < 3 and 0 <= b < 3:
                    s[a * 3 + b] ^= 1
    best[tuple(s)] = min(best.get(tuple(s), 99), sum(x))
counts = [sum(1 for v in best.values() if v == m) for m in range(10)]
print("ok" if len(best) == 512 and counts == [1, 9, 36, 84, 126, 126, 84, 36, 9, 1]
      else "not ok: brute force %d states %s" % (len(best), counts))
# the svg's outline: M x0 y0 then V y H x per bin and V y0
path = next(p for p in root.iter(NS + "path") if p.get("class") == "dist")
tok = re.findall(r"[MVH]|-?[0-9.]+", path.get("d"))
x0, y0 = float(tok[1]), float(tok[2])
runs, x, i = [], x0, 3
while i + 3 < len(tok) and tok[i] == "V" and tok[i + 2] == "H":
    runs.append((x, float(tok[i + 3]), float(tok[i + 1])))
    x = float(tok[i + 3])
    i += 4
print("ok" if len(runs) == 10 else "not ok: %d bins in the svg" % len(runs))
# the axis in the png: one black row across the plot
axis = [y for y in range(h) if px(int(x0) + 100, y) == 0x000000]
print("ok" if len(axis) == 1 and abs(axis[0] + 0.5 - y0) <= 1 else
      "not ok: the x axis at rows %s, svg y %s" % (axis, y0))
base = axis[0] + 0.5 if axis else y0
heights = []
for (xl, xr, ysvg) in runs:
    # the plot's box only: the legend's dashed swatch is above it
    rows = [y for xx in range(int(xl) + 4, int(xr) - 4)
            for y in range(72, h) if px(xx, y) == 0xD55E00]
    if not rows:
        print("not ok: no outline over bin %.0f..%.0f" % (xl, xr))
        heights.append(0)
        continue
    mid = (min(rows) + max(rows) + 1) / 2
    print("ok" if abs(mid - ysvg) <= 1 else
          "not ok: bin at %.0f: png outline at %.1f, svg %.2f" % (xl, mid, ysvg))
    heights.append(base - mid)
top = max(heights)
for m, (hh, c) in enumerate(zip(heights, counts)):
    want = top * c / max(counts)
    print("ok" if abs(hh - want) <= 1.5 else
          "not ok: %d presses: height %.1f px, %.1f for %d of %d states" %
          (m, hh, want, c, max(counts)))
# the legend's box in the svg's place, outlined in its grey
g = next(g for g in root.iter(NS + "g") if g.get("class") == "legend")
r = g.find(NS + "rect")
lx, ly, lw = float(r.get("x")), float(r.get("y")), float(r.get("width"))
edge = {px(int(lx + lw / 2), y) for y in (int(ly) - 1, int(ly))}
print("ok" if 0x999999 in edge else "not ok: legend box edge %s" % edge)
PY
q rules show p3.yaml --svg h.svg --png h.png
expect_rc 0 "show --svg --png"
expect_out "distribution method:  invertible" "--png implies --distribution"
py_checks "$TOP/tests/cli" h.svg h.png <hist.py
q rules show p3.yaml --png h2.png --format csv
expect_rc 0 "show --png, csv"
if cmp -s h.png h2.png; then ok; else not_ok "two runs: different png bytes"; fi
if pngcheck -q h.png >pc.out 2>&1; then ok; else not_ok "pngcheck: $(head -n 2 pc.out)"; fi

# a sample: its 95 % whiskers where the svg has them
q rules show p53.yaml --svg s.svg --png s.png
expect_rc 0 "sampled --png"
py_checks "$TOP/tests/cli" s.svg s.png <<'PY'
import sys
import xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[1])
import png_rgb
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[2]).getroot()
w, h, px = png_rgb.read(sys.argv[3])
ci = next(g for g in root.iter(NS + "g") if g.get("class") == "ci")
n = 0
for l in ci.iter(NS + "line"):
    x, y1, y2 = float(l.get("x1")), float(l.get("y1")), float(l.get("y2"))
    if abs(y1 - y2) < 4:
        continue
    n += 1
    c = px(int(x), int((y1 + y2) / 2))
    print("ok" if c == 0x333333 else
          "not ok: whisker at %.1f: png %06X" % (x, c))
print("ok" if n >= 5 else "not ok: %d whiskers taller than 4 px" % n)
PY

# 2. the line plot: every dot where OEIS A159257 says, in svg and png
q rules table p3.yaml --size 1..20 --svg l.svg --png l.png
expect_rc 0 "table --svg --png"
py_checks "$TOP/tests/cli" l.svg l.png <<'PY'
import sys
import xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[1])
import png_rgb
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[2]).getroot()
w, h, px = png_rgb.read(sys.argv[3])
oeis = [0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0]
lines = [g for g in root.iter(NS + "g") if g.get("class") == "series"]
pts = [(float(c.get("cx")), float(c.get("cy"))) for c in lines[0].iter(NS + "circle")]
print("ok" if len(pts) == 20 else "not ok: %d points" % len(pts))
# the y axis: nullity 0 on the axis, 16 (19x19) the highest dot
y0, y16 = pts[0][1], pts[18][1]
for n, (cx, cy) in enumerate(pts, 1):
    want = y0 - (y0 - y16) * oeis[n - 1] / 16
    print("ok" if abs(cy - want) < 0.01 else
          "not ok: svg dot %d at y %.2f, want %.2f" % (n, cy, want))
    # the png's dot (radius 3, stroked 1 px) covers the pixels 2 px
    # from its centre
    got = {px(int(cx + dx), int(want + dy))
           for dx, dy in ((0, 0), (-2, 0), (2, 0), (0, -2), (0, 2))}
    print("ok" if got == {0x0072B2} else
          "not ok: png dot %d at (%.1f, %.1f): %s" % (n, cx, want,
                                                     sorted("%06X" % c for c in got)))
# the plot's background stays white above the highest dot
print("ok" if px(int(pts[18][0]), int(y16) - 12) == 0xFFFFFF else
      "not ok: above the 19x19 dot is not white")
PY
q rules table p3.yaml --size 1..20 --png l2.png
if cmp -s l.png l2.png; then ok; else not_ok "table: two runs, different png bytes"; fi
# two lines: the second (3 colours, drawn last) has its dots in its own
# colour, the first's where they differ
q rules table p3.yaml --size 1..12 --colours 2,3 --svg l3.svg --png l3.png
expect_rc 0 "table, two lines"
py_checks "$TOP/tests/cli" l3.svg l3.png <<'PY'
import sys
import xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[1])
import png_rgb
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[2]).getroot()
w, h, px = png_rgb.read(sys.argv[3])
lines = [[(float(c.get("cx")), float(c.get("cy"))) for c in g.iter(NS + "circle")]
         for g in root.iter(NS + "g") if g.get("class") == "series"]
print("ok" if [len(l) for l in lines] == [12, 12] else "not ok: %s" % lines)
for (a, b) in zip(*lines):
    print("ok" if px(int(b[0]), int(b[1])) == 0xD55E00 else
          "not ok: mod 3 dot at %s: %06X" % (b, px(int(b[0]), int(b[1]))))
    if abs(a[1] - b[1]) > 8:
        print("ok" if px(int(a[0]), int(a[1])) == 0x0072B2 else
              "not ok: mod 2 dot at %s: %06X" % (a, px(int(a[0]), int(a[1]))))
PY

# 3. refused: an unwritable file is 73 with nothing printed, a plot of
# more than 16 lines is 64; no file either way
q rules show p3.yaml --png nodir/h.png
expect_rc 73 "show --png into a missing folder"
expect_err "nodir/h.png" "the file named"
expect_empty_out "show: nothing printed"
q rules table p3.yaml --size 3 --png nodir/l.png
expect_rc 73 "table --png into a missing folder"
expect_empty_out "table: nothing printed"
q rules table p3.yaml --size 1..4x1..5 --colours 2,3,4,5 --png many.png
expect_rc 64 "--png with more than 16 lines"
expect_err "--png draws at most 16 lines" "the limit said"
if [ -e many.png ]; then not_ok "refused plot: a file was written"; else ok; fi
if ls -a | grep -q '\.tmp\|~$'; then not_ok "a temporary file was left: $(ls -a)"; else ok; fi

done_testing
