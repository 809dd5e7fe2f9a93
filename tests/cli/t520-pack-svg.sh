#!/bin/sh
# t520: `quench pack show NAME --svg`: a pack's minimal-press histogram
# against the rule's exact distribution, as a well-formed SVG picture.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

q -q generate "$R/classic-5x5.yaml" -n 200 --seed 4 --db h.db --pack hp
expect_rc 0 "make a pack"
q pack show hp --svg --db h.db
expect_rc 0 "pack show --svg"
cp "$TMP/out" hist.svg
if xmllint --noout hist.svg 2>/dev/null; then ok; else not_ok "histogram is not well-formed XML (is xmllint installed? scripts/install-deps)"; fi
expect_out "pack hp: 200 puzzles against all solvable states" "title names the pack and the comparison"
expect_out "all solvable states" "the exact distribution is drawn"
# one bar per press count present in the pack: compare with the pack itself
want=$("$QUENCH" pack show hp --json --db h.db | python3 -c '
import json, sys
print(len({p["min_presses"] for p in json.load(sys.stdin)["puzzles"]}))')
expect_eq "$(grep -c 'class="bar"' hist.svg)" "$want" "a bar for each press count in the pack"


# The legend covers no bar (issue 23): parse the SVG, take the legend's
# bounding box (its <rect>s and swatch lines, and its texts at about 7 px
# per character of 12 px type, ascent 12) and every bar's rectangle, and
# ask that none meet.
cat >"$TMP/legend.py" <<'PY'
import sys, xml.etree.ElementTree as ET
NS = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
def box(e):
    if e.tag == NS + 'rect':
        x, y = float(e.get('x', 0)), float(e.get('y', 0))
        return (x, y, x + float(e.get('width')), y + float(e.get('height')))
    if e.tag == NS + 'text':
        x, y = float(e.get('x')), float(e.get('y'))
        return (x, y - 12, x + 7 * len(e.text or ''), y + 3)
    if e.tag == NS + 'line':
        xs = float(e.get('x1')), float(e.get('x2'))
        ys = float(e.get('y1')), float(e.get('y2'))
        return (min(xs), min(ys), max(xs), max(ys))
legend = [g for g in root.iter(NS + 'g') if g.get('class') == 'legend']
bars = [r for r in root.iter(NS + 'rect') if r.get('class') == 'bar']
print('ok' if len(legend) == 1 else 'not ok: %d legends' % len(legend))
print('ok' if bars else 'not ok: no bars')
parts = [box(e) for e in legend[0] if box(e)] if legend else [(0, 0, 0, 0)]
lx0, ly0 = min(p[0] for p in parts), min(p[1] for p in parts)
lx1, ly1 = max(p[2] for p in parts), max(p[3] for p in parts)
for b in bars:
    x0, y0, x1, y1 = box(b)
    meet = x0 < lx1 and lx0 < x1 and y0 < ly1 and ly0 < y1
    print('not ok: %s: legend (%g,%g)-(%g,%g) covers the bar "%s"' %
          (sys.argv[1], lx0, ly0, lx1, ly1, b.find(NS + 'title').text) if meet else 'ok')
PY
legend_clear() { # svg file
    py_checks "$1" <"$TMP/legend.py"
}
legend_clear hist.svg
# the tallest bar at the right, where the legend used to sit: a pack of
# the hardest classic 5x5 puzzles only (15 presses, the most it takes)
q -q generate "$R/classic-5x5.yaml" -n 20 --presses 15 --seed 4 --db h.db --pack top
q pack show top --svg --db h.db
cp "$TMP/out" top.svg
legend_clear top.svg

# a rule too large to count (classic 9x9: 2^73 solvable states): the pack
# against the sample its tiers are cut from, said to be one, and an x axis
# that starts where the data does rather than at an empty 0
q -q generate "$R/classic-9x9.yaml" -n 30 --seed 4 --db h.db --pack big
q pack show big --svg --db h.db
expect_rc 0 "pack show --svg without a distribution"
cp "$TMP/out" big.svg
if xmllint --noout big.svg 2>/dev/null; then ok; else not_ok "9x9 histogram is not well-formed"; fi
expect_eq "$(grep -c 'class="dist"' big.svg)" 1 "9x9: a sampled distribution is drawn"
expect_out "a sample of 4096 solvable states (not exact)" "9x9: the sample is named as one"
if grep -q "all solvable states" big.svg; then not_ok "9x9 claims an exact distribution"; else ok; fi
first=$(python3 -c 'import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
g = [g for g in ET.parse(sys.argv[1]).getroot().iter(NS + "g") if g.get("class") == "xaxis"][0]
print(min(int(t.text) for t in g if t.text.isdigit()))' big.svg)
# only the goal needs 0 presses, and the pack's least is what pack show
# --json says: the axis starts between the two
least=$("$QUENCH" pack show big --json --db h.db | python3 -c '
import json, sys
print(min(p["min_presses"] for p in json.load(sys.stdin)["puzzles"]))')
if [ "${first:-0}" -gt 0 ] && [ "$first" -le "$least" ]; then ok; else
    not_ok "9x9 x axis starts at '$first' (pack least $least)"; fi
legend_clear big.svg
q pack show nosuch --svg --db h.db
expect_rc 66 "unknown pack: like pack show, exit 66"
done_testing
