#!/bin/sh
# t560: campaigns (issue #20): `quench pack build RECIPE`. Facts from
# outside quench: OEIS A054247 (102 3x3 binary boards up to the square's
# symmetries: classic 3x3 Lights Out, all 512 states solvable, has 101
# puzzles besides the goal), distances up to symmetry recomputed here with
# the square's eight motions, and the recipe hash with b2sum.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules
C=$TMP/c
mkdir -p "$C"

recipe() { # FILE, then the sections' YAML on stdin
    { printf 'pack: camp\ntitle: A campaign\nseed: 5eed\nvariety: %s\nsections:\n' "${VARIETY:-0}"
      cat; } >"$1"
}

# --- planning: exact counts, impossible sections refused at once ---------
recipe "$C/all3.yaml" <<SECTIONS
  - name: all
    rules: $R/classic-3x3.yaml
    count: 101
    distribution: uniform
SECTIONS
q pack build "$C/all3.yaml" --plan
expect_rc 0 "--plan"
expect_out "101 distinct puzzles exist" "the plan counts 3x3's 101 puzzles (OEIS A054247: 102 classes, less the goal)"
[ -e db/quench.db ] && not_ok "--plan created a database" || ok
sed 's/count: 101/count: 102/' "$C/all3.yaml" >"$C/too-many.yaml"
q pack build "$C/too-many.yaml" --db "$C/x.db"
expect_rc 65 "a section asking for more than exist"
expect_err "too-many.yaml:8:12: section 'all': only 101 distinct puzzles exist" "refused, located at its count"
expect_eq "$(sqlite3 "$C/x.db" 'SELECT count(*) FROM puzzles')" 0 "nothing drawn or stored"
q pack build "$C/all3.yaml" --db "$C/x.db"
expect_rc 0 "all 101 puzzles of 3x3"
expect_err "all: 101 wanted, presses 1..9" "the build says its plan before it draws"
expect_eq "$(sqlite3 "$C/x.db" 'SELECT count(*) FROM pack_puzzles')" 101 "101 in the pack"
recipe "$C/tier.yaml" <<SECTIONS
  - name: t
    rules: $R/classic-5x5.yaml
    tiers: {easy: 2, legendary: 1}
SECTIONS
q pack build "$C/tier.yaml" --plan
expect_rc 65 "an unknown tier"
expect_err "tier.yaml:8:22: section 't': no tier 'legendary' in the grading of" "located, and"
expect_err "its tiers: easy 1-5, medium 6-10, hard 11-15" "names the rule's tiers"

# --- a four-section campaign: order, variety, reproducibility -------------
VARIETY=8 recipe "$C/camp.yaml" <<SECTIONS
  - name: five
    rules: $R/classic-5x5.yaml
    tiers: {easy: 6, medium: 6, hard: 4}
  - name: seven
    rules: $R/classic-7x7.yaml
    count: 12
    presses: 8..13
  - name: five-again
    rules: $R/classic-5x5.yaml
    count: 8
    distribution: uniform
    lit: 10..
  - name: three-colours
    rules: $R/lights-out-2000.yaml
    count: 6
    unique-optimum: true
SECTIONS
q pack build "$C/camp.yaml" --db "$C/a.db" --jobs 2
expect_rc 0 "build"
expect_out "pack camp: 42 puzzles built" "says what it built"
q export camp --format json --db "$C/a.db" -o "$C/a.json"
q pack build "$C/camp.yaml" --db "$C/b.db" --jobs 1
q export camp --format json --db "$C/b.db" -o "$C/b.json"
cmp -s "$C/a.json" "$C/b.json" && ok || not_ok "another database, --jobs 1 vs 2: the same bytes"
python3 - "$C/a.json" <<'PY' && ok || not_ok "sections in order, presses climbing in each, targets met, variety 8 up to symmetry"
import json, sys
doc = json.load(open(sys.argv[1]))
ps = doc["puzzles"]
assert len(ps) == 42
rules = {r["hash"]: r for r in doc["rules"]}
name = lambda p: rules[p["rule"]]["name"]
sizes = [("classic-5x5", 16), ("classic-7x7", 12), ("classic-5x5", 8),
         ("lights-out-2000", 6)]
at = 0
for rule, n in sizes:
    sec = ps[at:at + n]
    at += n
    assert all(name(p) == rule for p in sec), rule
    pr = [p["min_presses"] for p in sec]
    assert pr == sorted(pr), (rule, pr)
five, seven, again, three = ps[:16], ps[16:28], ps[28:36], ps[36:]
tiers = [p["grade"] for p in five]
assert tiers.count("easy") == 6 and tiers.count("medium") == 6, tiers
assert tiers.count("hard") == 4, tiers
assert all(8 <= p["min_presses"] <= 13 for p in seven)
assert all(sum(1 for v in p["state"] if v) >= 10 for p in again)
assert all(p["optimal_solutions"] == 1 for p in three)
def images(s, n):
    g = [s[i * n:(i + 1) * n] for i in range(n)]
    out = []
    for _ in range(4):
        g = [list(r) for r in zip(*g[::-1])]
        out.append([v for r in g for v in r])
        out.append([v for r in g for v in r[::-1]])
    return out
def dist(a, b, n):
    return min(sum(x != y for x, y in zip(a, im)) for im in images(b, n))
for group, n in ((five + again, 5), (seven, 7)):
    for i in range(len(group)):
        for j in range(i):
            d = dist(group[i]["state"], group[j]["state"], n)
            assert d >= 8, (i, j, d)
PY
# the recipe is stored with the pack, byte for byte, with its hash
expect_eq "$(sqlite3 "$C/a.db" "SELECT recipe_hash FROM packs WHERE name = 'camp'")" "$(b2sum -l 256 "$C/camp.yaml" | cut -d' ' -f1)" "the recipe's BLAKE2b-256 stored"
sqlite3 "$C/a.db" "SELECT recipe FROM packs WHERE name = 'camp'" >"$C/stored.yaml"
{ cat "$C/camp.yaml"; echo; } >"$C/want.yaml" # sqlite3 adds a line end
cmp -s "$C/stored.yaml" "$C/want.yaml" && ok || not_ok "the recipe's text stored"

# --- rebuilding: unchanged, edited, edited by hand ------------------------
before=$(sqlite3 "$C/a.db" .dump)
q pack build "$C/camp.yaml" --db "$C/a.db"
expect_rc 0 "rebuild of an unchanged recipe"
expect_out "built from this recipe already, unchanged" "says so"
[ "$(sqlite3 "$C/a.db" .dump)" = "$before" ] && ok || not_ok "and changes nothing"
sed 's/    count: 12/    count: 14/' "$C/camp.yaml" >"$C/edit.yaml"
q pack build "$C/edit.yaml" --db "$C/a.db"
expect_rc 0 "one section edited"
q export camp --format json --db "$C/a.db" -o "$C/e.json"
python3 - "$C/a.json" "$C/e.json" <<'PY' && ok || not_ok "the other sections keep their puzzles; the edited one keeps its 12"
import json, sys
a = [p["id"] for p in json.load(open(sys.argv[1]))["puzzles"]]
e = [p["id"] for p in json.load(open(sys.argv[2]))["puzzles"]]
assert len(e) == 44
assert e[:16] == a[:16] and e[30:] == a[28:]
assert set(a[16:28]) <= set(e[16:30])
PY
expect_eq "$(sqlite3 "$C/a.db" "SELECT version FROM packs WHERE name = 'camp'")" 2 "version 2: built, then changed once"
first=$(python3 "$TOP/tests/state_blob.py" "$C/a.db" "SELECT printf('%016x', run_uid(p.id)) FROM pack_puzzles pp JOIN puzzles p ON p.id = pp.puzzle_id WHERE pp.position = 1")
q pack remove camp "$first" --db "$C/a.db"
expect_rc 0 "a hand edit"
q pack build "$C/edit.yaml" --db "$C/a.db"
expect_rc 0 "build after a hand edit"
expect_out "44 puzzles built" "rebuilds"
q export camp --format json --db "$C/a.db" -o "$C/h.json"
python3 - "$C/e.json" "$C/h.json" <<'PY' && ok || not_ok "the recipe's pack is back, two versions on"
import json, sys
e = json.load(open(sys.argv[1])); h = json.load(open(sys.argv[2]))
assert [p["id"] for p in e["puzzles"]] == [p["id"] for p in h["puzzles"]]
assert h["pack"]["version"] == e["pack"]["version"] + 2
PY

# a pack made by hand is never replaced by a recipe's
q pack create camp --db "$C/hand.db"
q pack build "$C/camp.yaml" --db "$C/hand.db"
expect_rc 65 "a recipe naming a pack made by hand"
expect_err "camp.yaml:1:7: pack 'camp' exists and was not built from a recipe" "is refused, located"
expect_eq "$(sqlite3 "$C/hand.db" 'SELECT count(*) FROM puzzles')" 0 "nothing drawn or stored"

done_testing
