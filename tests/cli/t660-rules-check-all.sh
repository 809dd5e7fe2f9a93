#!/bin/sh
# t660: `rules check` reports every error of a file it can tell apart, in
# file order, FILE:LINE:COL each, with the exit status of before (65
# invalid, 66 unreadable, 0 all load). The positions are those of the
# files written below (line and column of each bad value, counted by
# hand). What makes the rest meaningless stops: malformed YAML, an unknown
# top-level key.
. "$(dirname "$0")/lib.sh"

# reading errors (each key and entry of the schema) and the header's
cat >multi.yaml <<'EOT'
quench: 1
name: Bad Name
colours: 1
board:
  grid: 5
  wrap: sideways
press:
  stencil: plux
  self: maybe
grading:
  easy: [1, 2]
  hard: nope
EOT
q rules check multi.yaml
expect_rc 65 "invalid: 65, as before"
expect_eq "$(cut -d: -f1-3 "$TMP/err" | tr '\n' ' ')" \
    "multi.yaml:2:7 multi.yaml:3:10 multi.yaml:6:9 multi.yaml:8:12 multi.yaml:9:9 multi.yaml:12:9 " \
    "six errors, in file order"
expect_err "multi.yaml:8:12: unknown stencil 'plux' (did you mean 'plus'?)" "the stencil's"
expect_err "multi.yaml:12:9: tier range must be an integer, got 'nope'" "the tier's"

# checking errors of a file that reads: header, goal, tiers
cat >built.yaml <<'EOT'
quench: 1
name: ok
title: "x\u0007"
board:
  grid: 3
press:
  stencil: plus
goal: "11/111/111"
grading:
  easy: [1, 2]
  hard: [3, 900]
EOT
q rules check built.yaml
expect_rc 65 "a file that reads but does not build"
expect_eq "$(cut -d: -f1-3 "$TMP/err" | tr '\n' ' ')" \
    "built.yaml:3:8 built.yaml:8:10 built.yaml:11:3 " "title, goal, tier"

# --json: every error, the first also as "error"
q rules check multi.yaml built.yaml --json
expect_rc 65 "--json: 65"
py_checks "$TMP/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = d["files"]
print("ok" if [x["file"] for x in f] == ["multi.yaml", "built.yaml"] and d["failed"] == 2 else "not ok: %r" % d)
for x, n in zip(f, (6, 3)):
    e = x["errors"]
    print("ok" if len(e) == n and e[0] == x["error"] else "not ok: %s: %r" % (x["file"], e))
    pos = [(y["line"], y["column"]) for y in e]
    print("ok" if pos == sorted(pos) else "not ok: %s out of order: %r" % (x["file"], pos))
PY

# what stops: malformed YAML, an unknown top-level key
printf 'quench: 1\nname: Bad Name\nboard: [\n' >syntax.yaml
q rules check syntax.yaml
expect_rc 65 "malformed YAML"
expect_eq "$(grep -c '' "$TMP/err")" 1 "malformed YAML: one error"
printf 'quench: 1\nname: Bad Name\nboadr:\n  grid: 3\n' >key.yaml
q rules check key.yaml
expect_rc 65 "unknown top-level key"
expect_eq "$(grep -c '' "$TMP/err")" 1 "an unknown top-level key stops"

# a limit: 300 bad effects keys, 256 errors said and the rest counted
python3 - >many.yaml <<'PY'
print("quench: 1\nname: many\nboard:\n  graph: 2\neffects:")
for i in range(300):
    print("  c%d: [0]" % i)
PY
q rules check many.yaml
expect_rc 65 "300 bad effects"
expect_eq "$(grep -c 'effects key' "$TMP/err")" 256 "256 errors said"
expect_err "many.yaml: ... and 44 more errors" "the rest counted"

# exit statuses as before
q rules check "$TOP/rules/classic-5x5.yaml" missing.yaml
expect_rc 66 "an unreadable file: 66"
q rules check "$TOP/rules/classic-5x5.yaml"
expect_rc 0 "a good file: 0"

done_testing
