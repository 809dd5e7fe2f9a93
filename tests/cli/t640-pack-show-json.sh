#!/bin/sh
# t640: `pack show --json` names a puzzle's fields as the exports do
# (docs/EXPORT.md): "solution" (not "witness"), "index" (-1 when none),
# and "" (not null) for no grade, seed, submission, source or meta. The
# values are compared with `export --format json` of the same pack, a
# generated puzzle and a validated one (which has no seed and no index).
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

q generate "$R/classic-3x3.yaml" --count 1 --seed 1 --db p.db --pack mix
expect_rc 0 "a generated puzzle"
printf '{"id": "sub-1", "state": "000/000/001"}\n' >s.jsonl
q validate "$R/classic-3x3.yaml" s.jsonl --db p.db --into mix
expect_rc 0 "a validated puzzle"
q pack show mix --json --db p.db
expect_rc 0 "pack show --json"
cp "$TMP/out" show.json
q export mix --format json --db p.db
expect_rc 0 "export"
py_checks show.json "$TMP/out" <<'PY'
import json, sys
show = json.load(open(sys.argv[1]))["puzzles"]
exp = json.load(open(sys.argv[2]))["puzzles"]
def check(c, what):
    print("ok" if c else "not ok: " + what)
check(len(show) == 2 and len(exp) == 2, "two puzzles each")
for s, e in zip(show, exp):
    check("witness" not in s and "stream_index" not in s, "old names in %r" % sorted(s))
    for k in ("seed", "index", "grade", "submission", "source", "meta"):
        check(s.get(k) == e.get(k), "%s: pack show %r, export %r" % (k, s.get(k), e.get(k)))
    # the solution: a state text there, one count per cell here
    sol = [int(c, 36) for c in s.get("solution", "").replace("/", "")]
    check(sol == e["solution"], "solution %r vs %r" % (s.get("solution"), e["solution"]))
check(show[1]["seed"] == "" and show[1]["index"] == -1, "no seed, no index: %r" % show[1])
PY

done_testing
