#!/bin/sh
# tier: full (endless inputs read up to each reader's limit: 5 s of CPU)
# t450: inputs that never end or can never succeed (issue #17). Every
# reader ends on an endless input (/dev/zero, a pipe fed for ever) with its
# documented status and its limit named; an input that cannot be opened
# (missing, a directory, permission denied) is 66 wherever it is read; a
# rule whose puzzles cannot be graded exactly is refused at once; messages
# name the real problem. The `timeout 60` guards only turn a hang into a
# failure: nothing here depends on how fast the machine is.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules
C=$R/classic-5x5.yaml
S5=10101/01010/10101/01010/10101

# qt ARGS...: run quench under the hang guard; $rc, $TMP/out, $TMP/err.
qt() {
    timeout 60 "$QUENCH" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
}
# qpipe 'PRODUCER' ARGS...: quench reading PRODUCER's output on stdin.
qpipe() {
    p=$1
    shift
    # shellcheck disable=SC2016
    timeout 60 sh -c "{ $p; }"' | "$0" "$@"' "$QUENCH" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
}

# 1. Submissions: the over-long line is malformed as soon as it passes
#    1 MiB (QN_SUBMIT_MAX_LINE), with one verdict; the stream then fails as
#    a whole (65) when 64 MiB (QN_SUBMIT_MAX_GAP) go by without a record.
qt validate "$C" /dev/zero
expect_rc 65 "validate /dev/zero"
expect_out "malformed	1:1: line longer than 1048576 bytes" "validate /dev/zero: its one verdict"
expect_err "/dev/zero:1:1: line 1 has no end within 67108864 bytes" "validate /dev/zero: the limit named"
expect_err "1 submission: 0 ok, 0 unsolvable, 1 malformed" "validate /dev/zero: summary"
timeout 60 "$QUENCH" validate "$C" - </dev/zero >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 65 "validate - < /dev/zero"
expect_err "<stdin>:1:1: line 1 has no end within 67108864 bytes" "stdin: the limit named"
for f in text jsonl csv json; do
    qt validate "$C" --from "$f" /dev/zero
    expect_rc 65 "validate --from $f /dev/zero"
done
# a pipe that never ends a line, and one of blank lines for ever
qpipe 'yes | tr -d "\n"' validate "$C"
expect_rc 65 "validate: a line fed for ever"
expect_err "line 1 has no end within" "line fed for ever: message"
qpipe 'yes ""' validate "$C"
expect_rc 65 "validate: blank lines for ever"
expect_err "no submission within 67108864 bytes" "blank lines for ever: message"
# nothing before the endless part is lost: its verdict comes out first
qpipe "printf '$S5\n'; cat /dev/zero" validate "$C" --jsonl
expect_rc 65 "validate: a record, then /dev/zero"
expect_eq "$(sed -n 1p "$TMP/out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"])')" ok "the record before /dev/zero judged"
expect_eq "$(wc -l <"$TMP/out" | tr -d ' ')" 2 "two records, two verdicts"
qpipe "printf '[{\"state\": \"$S5\"}, {\"id\": \"'; cat /dev/zero" validate "$C" --jsonl
expect_rc 65 "validate: a JSON string that never closes"
expect_eq "$(sed -n 2p "$TMP/out" | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["verdict"], j["reason"])')" \
    "malformed JSON element longer than 1048576 bytes" "the endless element: malformed"
expect_err "JSON element at 1:46 has no end within" "endless element: message"

# 2. Whole-file readers stop one byte past their limit (65). A rule file
#    is a regular file or standard input (#31): a device is refused at
#    once (66), never read; an endless standard input meets the limit.
qt rules check /dev/zero
expect_rc 66 "rules check /dev/zero"
expect_err "/dev/zero: cannot open: not a regular file (a character device)" "rules: a device refused"
timeout 60 "$QUENCH" rules check - </dev/zero >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 65 "rules check - < /dev/zero"
expect_err "<stdin>: file is larger than 1048576 bytes (the limit)" "rules: limit"
qt rules show /dev/zero
expect_rc 66 "rules show /dev/zero"
qt generate /dev/zero
expect_rc 66 "generate /dev/zero"
qt solve "$C" /dev/zero
expect_rc 65 "solve FILE=/dev/zero"
expect_err "/dev/zero: input larger than 67108864 bytes" "solve: limit"
timeout 60 "$QUENCH" solve "$C" - </dev/zero >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 65 "solve - < /dev/zero"
qt import /dev/zero --db imp.db
expect_rc 65 "import /dev/zero"
expect_err "/dev/zero: input larger than 268435456 bytes" "import: limit"
[ ! -e imp.db ] && ok || not_ok "import /dev/zero created a database"
# netpbm, streamed for big boards: each run of blanks, comments or digits
# is at most 1 MiB (QN_PNM_MAX_RUN)
qt solve "$C" --size 5000x5000 /dev/zero
expect_rc 65 "solve --size, /dev/zero"
for p in "printf 'P1 '; yes ' ' | tr -d '\n'" "printf 'P1\n#'; yes | tr -d '\n'" \
         "printf 'P1 '; yes 0 | tr -d '\n'" "printf 'P2 5000 5000 1\n'; yes 0 | tr -d '\n'"; do
    qpipe "$p" solve "$C" --size 5000x5000 -
    expect_rc 65 "endless image: $p"
    expect_err "longer than 1048576 bytes (the limit" "endless image: limit named: $p"
done

# 3. An input that cannot be opened is 66 (EX_NOINPUT) for every reader:
#    missing, a path through a file, a directory, permission denied.
mkdir adir
printf '%s\n' "$S5" >afile
printf 'P1 5000 5000\n' >img.pbm
opens() { # PATH: every kind of input named PATH
    cat <<CMDS
rules check $1
rules show $1
generate $1 -n 1
validate $1 afile
solve $1 --fill 1
solve $C $1
solve $C --size 5000x5000 $1
validate $C $1
import $1 --db none.db
CMDS
}
for bad in missing.yaml afile/x adir; do
    opens "$bad" | while read -r line; do
        # shellcheck disable=SC2086
        timeout 60 "$QUENCH" $line >"$TMP/out" 2>"$TMP/err"
        echo "$? $line"
    done
done >statuses.txt
while read -r st line; do
    rc=$st
    expect_rc 66 "$line"
done <statuses.txt
expect_eq "$(grep -c . statuses.txt)" 27 "every reader tried"
[ ! -e none.db ] && ok || not_ok "import of a missing file created a database"
# Permission denied. Root reads everything, so as root the commands run as
# nobody (as_user), who cannot enter locked/ nor read secret.yaml; the rule
# file they read is copied where nobody reaches it.
chmod 755 "$TMP"
cp "$C" pub.yaml
chmod 644 pub.yaml afile
mkdir locked
cp "$C" locked/rule.yaml
cp "$C" secret.yaml
chmod 700 locked
chmod 000 secret.yaml
[ "$(id -u)" = 0 ] || chmod 000 locked
for bad in locked/rule.yaml secret.yaml; do
    opens "$bad" | sed "s|$C|$TMP/pub.yaml|" | while read -r line; do
        # shellcheck disable=SC2086
        as_user "$QUENCH" $line >"$TMP/out" 2>"$TMP/err" </dev/null
        echo "$? $line $(cat "$TMP/err")"
    done
done >denied.txt
while read -r st line; do
    rc=$st
    expect_rc 66 "as nobody: $line"
    case $line in *"ermission denied"*) ok ;; *) not_ok "no 'Permission denied': $line" ;; esac
done <denied.txt
expect_eq "$(grep -c . denied.txt)" 18 "every reader tried as nobody"
chmod 700 locked

# 4. Messages that name the real problem.
printf 'P6\n5 5\n255\n' >col.ppm
head -c 75 /dev/zero >>col.ppm
q solve "$C" col.ppm
expect_rc 65 "a PPM state"
expect_err "col.ppm:1:1: PPM (colour, P6) images are not supported: use PBM (P1, P4) or PGM (P2, P5)" "PPM: named"
printf 'P7\nWIDTH 5\nHEIGHT 5\nDEPTH 1\nMAXVAL 1\nTUPLTYPE BLACKANDWHITE\nENDHDR\n' >st.pam
q solve "$C" st.pam
expect_rc 65 "a PAM state"
expect_err "st.pam:1:1: PAM (P7) images are not supported" "PAM: named"
# An empty offset list with self: true presses only the pressed cell
# (docs/RULES.md: a list is taken as written, self: true adds [0, 0]), so
# a state needs exactly one press per lit cell.
printf 'quench: 1\nname: self-only\nboard: {grid: [3, 3]}\npress: {stencil: [], self: true}\n' >self.yaml
q rules check self.yaml
expect_rc 0 "stencil: [], self: true is a rule"
q solve self.yaml --state 110/001/000 --json
expect_rc 0 "solve on the self-only rule"
expect_eq "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["min_presses"])' "$TMP/out")" 3 "one press per lit cell"
printf 'quench: 1\nname: none\nboard: {grid: [3, 3]}\npress: {stencil: []}\n' >none.yaml
q rules check none.yaml
expect_rc 65 "stencil: [] alone"
expect_err "none.yaml:4:18: press stencil has no offsets" "empty stencil: named as the press stencil"
printf 'quench: 1\nname: g\nboard: {grid: [3, 3]}\npress: {stencil: plus}\ngoal: 101/0(99999999999999999999)0/101\n' >goal.yaml
q rules check goal.yaml
expect_rc 65 "a goal value past every colour"
expect_err "goal.yaml:5:12: goal: value (99999999999999999999) must be less than colours (2)" "goal value located and named"
# The big-grid path says why it has no method (the first reason was lost).
q solve self.yaml --size 5000x5000 --fill 1
expect_rc 65 "self-only on a big grid"
expect_err "self.yaml: stencil not chaseable" "big grid: both reasons"

# -v shows the offending line again: from regular files only (a FIFO whose
# writer is gone blocked the report for ever), counting lines, not 512-byte
# pieces of them.
mkfifo fifo
{ printf '1x1/010/101\n' >fifo & } 2>/dev/null
qt -v solve "$R/classic-3x3.yaml" fifo
expect_rc 65 "-v with a FIFO input"
expect_err "fifo:1:2: value 'x' (33) must be less than colours (2)" "-v with a FIFO: the error"
{ printf '# %0600d\n' 0; printf 'quench: 1\nname: long\ncolours: 300\nboard: {grid: [3, 3]}\npress: {stencil: plus}\n'; } >long.yaml
q -v rules check long.yaml
expect_rc 65 "-v after a long line"
expect_err "long.yaml:4:10: colours must be 2..255, got 300" "-v after a long line: located"
expect_err "  colours: 300" "-v after a long line: the right line shown"

# 5. Options that are wrong whatever the rule: usage (64), before the rule
#    is read (a missing one would be 66) and before the seed is printed.
for opt in "--presses 5..3" "--presses 0" "--presses ..0" "--batch 5"; do
    # shellcheck disable=SC2086
    q generate missing.yaml $opt
    expect_rc 64 "generate $opt"
    expect_empty_out "generate $opt: no output"
    grep -q seed "$TMP/err" && not_ok "generate $opt: seed printed" || ok
done
expect_err "--batch needs --db" "--batch without --db: message"
q solve missing.yaml --fill 1 --limit 3
expect_rc 64 "solve --limit without --all"
expect_err "--limit is for --all" "solve --limit without --all: message"

# 6. A rule past the walk limit cannot be graded exactly: refused at once
#    (65), naming the limit, before the seed; --max-draws only bounds the
#    old behaviour (drawing until the draws run out, then "too rare", 75).
cat >torus64.yaml <<'YAML'
quench: 1
name: sigma-torus-64
board: {grid: [64, 64], wrap: both}
press: {stencil: plus, self: false}
YAML
qt generate torus64.yaml -n 1 --max-draws 10
expect_rc 65 "generate past the walk limit"
expect_err "torus64.yaml: cannot grade exactly" "walk limit: reason"
expect_err "more than the walk limit 2^30 (see --walk-limit)" "walk limit: the limit"
expect_empty_out "walk limit: no output"
grep -q seed "$TMP/err" && not_ok "walk limit: seed printed" || ok
# solve and validate answer, marked not proven: pressing (0,0) alone lights
# exactly its four neighbours on the torus
python3 -c "
g = [[0] * 64 for _ in range(64)]
for r, c in ((0, 1), (0, 63), (1, 0), (63, 0)):
    g[r][c] = 1
print('/'.join(''.join(map(str, row)) for row in g))" >plus.txt
qt validate torus64.yaml plus.txt --jsonl
expect_rc 0 "validate past the walk limit"
expect_eq "$(python3 -c 'import json,sys; j=json.loads(open(sys.argv[1]).readline()); print(j["verdict"], j["exact"], j["min_presses"])' "$TMP/out")" \
    "ok False 1" "validate: an answer, not proven minimal"
# Classic 5x5 Lights Out has exactly 4 quiet patterns (Anderson and Feil,
# 1998): a walk limit of 4 grades it, 3 cannot.
q generate "$C" -n 2 --seed 1 --walk-limit 4
expect_rc 0 "kernel 4, walk limit 4"
expect_eq "$(grep -c '"type":"puzzle"' "$TMP/out")" 2 "kernel 4, walk limit 4: puzzles"
q generate "$C" -n 2 --seed 1 --walk-limit 3
expect_rc 65 "kernel 4, walk limit 3"
expect_err "the kernel has 2^2 elements, more than the walk limit 3" "walk limit 3: named"

done_testing
