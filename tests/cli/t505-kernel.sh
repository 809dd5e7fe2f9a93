#!/bin/sh
# t505: the play kit of json exports (issue #34, docs/EXPORT.md "Hints"):
# each rule's kernel as generators with their orders, checked against
# facts found without quench: classic 3x3 Lights Out has no quiet pattern
# and classic 5x5 exactly 4 (two generators of order 2: the published
# count); on the ring of six mod 8 (composite k), a brute force over all
# 8^6 press vectors counts the quiet ones, which must be the product of
# the orders, and every generator must be quiet and of its order. Then
# quench import: a document without "kernel" (an older quench) is read; a
# generator that is not quiet, or a kernel of the wrong size, is refused
# (exit 65) and nothing is imported.
. "$(dirname "$0")/lib.sh"

DB=$TMP/x.db
for p in classic-3x3 classic-5x5 ring6-mod8; do
    q generate "$TOP/rules/$p.yaml" -n 2 --seed 5 --db "$DB" --pack "$p"
    expect_rc 0 "generate $p"
    q export "$p" --format json --db "$DB" -o "$TMP/$p.json"
    expect_rc 0 "export $p"
done

# kernel FILE: "orders: o o ...", one line
kernel() {
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("orders:", *[g["order"] for g in d["rules"][0]["kernel"]])' "$1"
}
expect_eq "$(kernel "$TMP/classic-3x3.json")" "orders:" "classic 3x3: no quiet pattern"
expect_eq "$(kernel "$TMP/classic-5x5.json")" "orders: 2 2" "classic 5x5: 4 quiet patterns"

# ring6-mod8: brute force, from the document's effects (each checked
# against docs/RULES.md by tests/loaders/t600-js.sh)
got=$(python3 - "$TMP/ring6-mod8.json" <<'PY'
import itertools, json, sys
r = json.load(open(sys.argv[1]))["rules"][0]
k, n = r["colours"], r["ncells"]
def delta(x):
    d = [0] * n
    for j, c in enumerate(x):
        for e in r["cells"][j]["effects"]:
            d[e["cell"]] = (d[e["cell"]] + c * e["amount"]) % k
    return d
quiet = sum(1 for x in itertools.product(range(k), repeat=n) if not any(delta(x)))
size, bad = 1, []
for i, g in enumerate(r["kernel"]):
    o = g["order"]
    size *= o
    if any(delta(g["presses"])): bad.append(f"{i} not quiet")
    if k % o or any(v * o % k for v in g["presses"]): bad.append(f"{i} not of order {o}")
    if all(v * (o // 2) % k == 0 for v in g["presses"]) and o % 2 == 0: bad.append(f"{i} of lower order")
print("quiet", quiet, "product", size, *bad)
PY
)
case $got in
"quiet "[0-9]*" product "*) q1=${got#quiet }; q1=${q1%% *}
    expect_eq "$got" "quiet $q1 product $q1" "ring6-mod8: kernel = the quiet vectors" ;;
*) not_ok "ring6-mod8 brute force: $got" ;;
esac
[ "${q1:-1}" -gt 1 ] && ok || not_ok "ring6-mod8 has quiet patterns (brute force: $got)"

# import: no kernel is an older document; a wrong one is refused
edit() { # IN OUT PYTHON (d is the document)
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
'"$3"'
json.dump(d, open(sys.argv[2], "w"))' "$1" "$2"
}
edit "$TMP/classic-5x5.json" "$TMP/old.json" 'del d["rules"][0]["kernel"]'
q import "$TMP/old.json" --pack old --db "$TMP/i.db"
expect_rc 0 "import without kernel"
edit "$TMP/classic-5x5.json" "$TMP/loud.json" 'd["rules"][0]["kernel"][1]["presses"][3] ^= 1'
q import "$TMP/loud.json" --pack loud --db "$TMP/i.db"
expect_rc 65 "import, kernel not quiet"
expect_err "kernel 1: not quiet" "import, kernel not quiet"
edit "$TMP/classic-5x5.json" "$TMP/short.json" 'd["rules"][0]["kernel"].pop()'
q import "$TMP/short.json" --pack short --db "$TMP/i.db"
expect_rc 65 "import, kernel short"
expect_err "'kernel' has 1 generator, the rule's kernel has 2" "import, kernel short"
edit "$TMP/classic-5x5.json" "$TMP/order.json" 'd["rules"][0]["kernel"][0]["order"] = 3'
q import "$TMP/order.json" --pack order --db "$TMP/i.db"
expect_rc 65 "import, order past colours"
expect_err "kernel 0: 'order' is 3, must be 2..2" "import, order"
q pack list --db "$TMP/i.db"
expect_rc 0 "pack list"
expect_out "old" "the older document was imported"
case $(cat "$TMP/out") in *loud*|*short*|*order*) not_ok "a refused document left a pack" ;; *) ok ;; esac

done_testing
