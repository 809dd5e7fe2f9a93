#!/bin/sh
# t630: docs that show what quench writes agree with it. docs/EXPORT.md's
# examples carry the grader version of src/generate/distrib.h
# (QN_GRADER_VERSION), which is what an export writes; its import rules
# accept a pack at version 1 holding several puzzles, as `generate --pack`
# makes one (docs/STORE.md, "Pack versions"): the document import reads
# back is the one export wrote.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

gv=$(sed -n 's/^#define QN_GRADER_VERSION \([0-9]*\).*/\1/p' "$TOP/src/generate/distrib.h")
expect_eq "$(grep -o '"grader_version": *"[0-9]*"' "$TOP/docs/EXPORT.md" | grep -o '"[0-9]*"$' | sort -u | tr -d '"')" \
    "$gv" "EXPORT.md's grader_version examples are QN_GRADER_VERSION"
if grep -q "plus 1, as each puzzle" "$TOP/docs/EXPORT.md"; then
    not_ok "EXPORT.md still asks version >= puzzles + 1"
else ok; fi

q generate "$R/classic-3x3.yaml" --count 2 --seed 1 --db a.db --pack two
expect_rc 0 "generate a pack of two"
q export two --format json --db a.db -o two.json
expect_rc 0 "export it"
py_checks two.json "$gv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("ok" if d["pack"]["version"] == 1 and len(d["puzzles"]) == 2 else "not ok: %r" % d["pack"])
print("ok" if all(p["grader_version"] == sys.argv[2] for p in d["puzzles"]) else "not ok: grader_version")
PY
q import two.json --db b.db
expect_rc 0 "import reads a version-1 pack of two puzzles"

# Every source file the docs and loaders name exists (docs/RELIABILITY.md
# tells history, "before the move", and is left out; cmd/cmd_foo.c is
# ARCHITECTURE.md's placeholder).
missing=$(cd "$TOP" && grep -rhoE '\b(src|include|cmd)/[A-Za-z0-9_/]+\.[ch]\b' \
    docs loaders README.md --exclude=RELIABILITY.md | sort -u |
    while read -r p; do [ -e "$p" ] || [ "$p" = cmd/cmd_foo.c ] || echo "$p"; done)
expect_eq "$missing" "" "docs and loaders name no source file that is not there"

done_testing
