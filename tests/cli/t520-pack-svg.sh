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

# a rule too large to count: the pack alone, still well-formed
q -q generate "$R/classic-9x9.yaml" -n 30 --seed 4 --db h.db --pack big
q pack show big --svg --db h.db
expect_rc 0 "pack show --svg without a distribution"
cp "$TMP/out" big.svg
if xmllint --noout big.svg 2>/dev/null; then ok; else not_ok "9x9 histogram is not well-formed"; fi
q pack show nosuch --svg --db h.db
expect_rc 66 "unknown pack: like pack show, exit 66"
done_testing
