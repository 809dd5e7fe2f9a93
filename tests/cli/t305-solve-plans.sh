#!/bin/sh
# tier: full (every press vector of 3x3 and 4x4 boards tried in python3: 5 s of CPU)
# t305: `quench solve --all`, `--optimal` and `--steps` against brute force
# in Python on the classic rule's published stencil (a press toggles the
# cell and its orthogonal neighbours; no wrap): every press vector of a
# 3x3 or 4x4 board is tried. Classic 3x3 is invertible over GF(2), so each
# state has exactly one solution; classic 4x4 has a kernel of 2^4 (rank
# 12), so each solvable state has exactly 16 (OEIS A159257, the rank
# deficiency of n x n Lights Out: 0 at n = 3, 4 at n = 4; the brute force
# below finds the same). --steps is replayed press by press by the same
# simulation.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

cat >c4.yaml <<'EOF'
quench: 1
name: classic-4x4
colours: 2
board: {grid: [4, 4]}
press: {stencil: plus}
EOF

cat >"$TMP/lo.py" <<'EOF'
import itertools, json, re, sys
def press(b, w, h, r, c):
    b = [row[:] for row in b]
    for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= r + dr < h and 0 <= c + dc < w:
            b[r + dr][c + dc] ^= 1
    return b
def parse(s):
    return [[int(ch) for ch in row] for row in s.split('/')]
def solutions(s):
    b = parse(s); h, w = len(b), len(b[0]); n = w * h
    out = []
    for x in itertools.product((0, 1), repeat=n):
        t = b
        for i in range(n):
            if x[i]:
                t = press(t, w, h, i // w, i % w)
        if not any(map(any, t)):
            out.append(list(x))
    # quench's order: press count, then the per-cell counts as a string
    return sorted(out, key=lambda x: (sum(x), x))
def check(cond, what): print('ok' if cond else 'not ok: ' + what)
EOF

PRE="import sys; sys.path.insert(0, '$TMP'); from lo import *"

# ---- --all and --optimal against brute force ---------------------------
for s in 101/010/101 110/001/011 000/000/001; do
    q solve "$R/classic-3x3.yaml" --state $s --all --json
    expect_rc 0 "3x3 $s"
    py_checks "$TMP/out" "$s" <<EOF
$PRE
j = json.load(open(sys.argv[1])); want = solutions(sys.argv[2])
check(len(want) == 1, 'brute force: one solution on 3x3')
check(j['all'] == want, '3x3 %s: --all %r, brute force %r' % (sys.argv[2], j['all'], want))
check(j['unlisted'] == 0, 'nothing unlisted')
EOF
done

S4=1000/0100/0010/0001 # solvable: the identity's presses are its own
q solve c4.yaml --state $S4 --all --json
expect_rc 0 "4x4 --all"
py_checks "$TMP/out" "$S4" <<EOF
$PRE
j = json.load(open(sys.argv[1])); want = solutions(sys.argv[2])
check(len(want) == 16, 'brute force: 16 solutions on 4x4, got %d' % len(want))
check(j['all'] == want, '4x4: all 16 in order of press count')
check(j['unlisted'] == 0, 'nothing unlisted')
check(j['solutions'] == 16, 'solutions 16')
EOF
q solve c4.yaml --state $S4 --all --limit 5 --json
py_checks "$TMP/out" "$S4" <<EOF
$PRE
j = json.load(open(sys.argv[1])); want = solutions(sys.argv[2])
check(j['all'] == want[:5], '--limit 5: the 5 cheapest')
check(j['unlisted'] == 11, '11 unlisted, got %r' % j['unlisted'])
EOF
q solve c4.yaml --state $S4 --optimal --json
py_checks "$TMP/out" "$S4" <<EOF
$PRE
j = json.load(open(sys.argv[1])); want = solutions(sys.argv[2])
best = [x for x in want if sum(x) == sum(want[0])]
check(j['optimal'] == best, '--optimal: the %d optimal plans' % len(best))
check(j['optimal_solutions'] == len(best), 'optimal_solutions agrees')
check(j['unlisted'] == 0, 'nothing unlisted')
EOF
# the text says how many there are, and how many were left out
q solve c4.yaml --state $S4 --all --limit 5
expect_out "solutions by press count, 5 of 16:" "text: 5 of 16"
expect_out "... and 11 more not listed (--limit 5)" "text: how many more"
sums=$(sed -n '/^solutions by press count/,$p' "$TMP/out" | sed -n 's/^ *\([0-9]*\) press.*/\1/p' | tr '\n' ' ')
py_checks "$S4" "$sums" <<EOF
$PRE
want = solutions(sys.argv[1])
check(sys.argv[2].split() == [str(sum(x)) for x in want[:5]], 'text press counts %s' % sys.argv[2])
EOF
q solve c4.yaml --state $S4 --optimal
expect_out "optimal plans by press count" "text: --optimal heading"

# limits and bad combinations
q solve c4.yaml --state $S4 --all --optimal
expect_rc 64 "--all with --optimal"
q solve c4.yaml --state $S4 --all --limit 0
expect_rc 64 "--limit 0"
q solve c4.yaml --state $S4 --all --limit 65537
expect_rc 64 "--limit past 65536"
q solve c4.yaml --state $S4 --limit 3
expect_rc 64 "--limit alone"
q solve c4.yaml --state $S4 --optimal --walk-limit 8
expect_rc 65 "--optimal past the walk limit"
expect_err "cannot list the optimal plans" "says why"
q solve c4.yaml --state $S4 --all --walk-limit 8 --limit 4 --json
expect_rc 0 "--all past the walk limit"
py_eq 'import json,sys; print(json.load(open(sys.argv[1]))["unlisted"])' None "unlisted unknown" "$TMP/out"
q solve c4.yaml --state 1000/0000/0000/0000 --all
expect_rc 1 "unsolvable: nothing listed, exit 1"
q solve "$R/classic-5x5.yaml" --size 100x100 --fill 1 --optimal
expect_rc 64 "--optimal on a big grid"

# ---- --steps: replayed by the simulation -------------------------------
for s in 110/001/011 111/111/111; do
    q solve "$R/classic-3x3.yaml" --state $s --steps
    expect_rc 0 "--steps $s"
    py_checks "$TMP/out" "$s" <<EOF
$PRE
text = open(sys.argv[1]).read().split('\n')
i = text.index('start:')
board = parse(sys.argv[2]); w, h = len(board[0]), len(board)
def read(at): return [[int(c) for c in text[at + r].split()] for r in range(h)]
check(read(i + 1) == board, 'start board is the state')
i += 1 + h; n = 0; last = None
while i < len(text) and text[i].startswith('press '):
    m = re.match(r'press (\d+) of (\d+): \((\d+),(\d+)\)', text[i])
    k, total, r, c = map(int, m.groups())
    n += 1
    board = press(board, w, h, r, c)
    check(k == n, 'press %d numbered %d' % (n, k))
    check(read(i + 1) == board, 'board after press %d of %d at (%d,%d)' % (k, total, r, c))
    last = text[i]; i += 1 + h
want = solutions(sys.argv[2])[0]
check(n == sum(want), '%d presses, the least is %d' % (n, sum(want)))
check(not any(map(any, board)), 'the last board is the goal')
check(last is not None and last.endswith('(the goal)'), 'the last press says so')
EOF
done
q solve c4.yaml --state $S4 --steps --json
py_checks "$TMP/out" "$S4" <<EOF
$PRE
j = json.load(open(sys.argv[1])); b = parse(sys.argv[2])
for st in j['steps']:
    b = press(b, 4, 4, st['cell'] // 4, st['cell'] % 4)
    check(parse(st['state']) == b, 'json step at cell %d' % st['cell'])
check(len(j['steps']) == j['min_presses'], 'one step per press')
check(not any(map(any, b)), 'json steps end at the goal')
EOF
q solve "$R/classic-3x3.yaml" --state 000/000/000 --steps
expect_out "start (the goal: nothing to press):" "already solved"
q solve "$R/classic-3x3.yaml" --state 110/001/011 --steps --color=always
expect_out "$(printf '\033[43;30m 1\033[0m')" "--steps in colour"
expect_out "legend:" "a legend in colour"
q solve "$R/classic-3x3.yaml" --state 110/001/011 --steps
if grep -q "$(printf '\033')" "$TMP/out"; then not_ok "--steps piped has escapes"; else ok; fi
q solve "$R/classic-3x3.yaml" --state 110/001/011 --steps --color=bad
expect_rc 64 "--steps --color bad"
q solve "$R/classic-5x5.yaml" --size 100x100 --fill 1 --steps
expect_rc 64 "--steps on a big grid"
done_testing
