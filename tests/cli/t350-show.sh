#!/bin/sh
# t350: `quench show` draws a puzzle: plain characters when piped or with
# NO_COLOR (checked as text), colour blocks and a legend on a terminal
# (checked in a real tmux pane of known size, TERM=xterm-256color, read
# back with capture-pane -e and its escape sequences decoded). Expected
# pictures come from the state text given and the rule files' geometry
# (odd-r hex rows, a hexagon's rows 3-4-5-4-3, the ring's effects), the
# colours from the palette term.h documents (0 grey 100, 1 yellow 43, 2
# blue 44, 3 green 42), never from quench's own output. Needs tmux
# (scripts/install-deps).
. "$(dirname "$0")/lib.sh"
R=$TOP/rules
OK=$TOP/tests/rules/ok


# ---- plain: piped, so no colour whatever TERM says --------------------
TERM=xterm-256color q show "$R/classic-3x3.yaml" --state 101/010/111
expect_rc 0 "show a state"
expect_eq "$(sed -n 2,4p "$TMP/out" | tr '\n' '|')" "1 0 1|0 1 0|1 1 1|" "3x3 drawn from its text"
expect_out "classic-3x3: 3x3 grid, 2 colours" "caption"
if grep -q "$(printf '\033')" "$TMP/out"; then not_ok "escape sequences on a pipe"; else ok; fi
if grep -q "legend" "$TMP/out"; then not_ok "plain drawing with a legend"; else ok; fi

# NO_COLOR wins over auto; --color=always over NO_COLOR (a flag is
# stronger than the environment: no-color.org); --color never is plain
NO_COLOR=1 q show "$R/classic-3x3.yaml" --state 101/010/111 --color=auto
if grep -q "$(printf '\033')" "$TMP/out"; then not_ok "NO_COLOR ignored"; else ok; fi
NO_COLOR=1 q show "$R/classic-3x3.yaml" --state 101/010/111 --color=always
expect_out "$(printf '\033[43;30m 1\033[0m')" "--color=always: lit cells yellow"
q show "$R/classic-3x3.yaml" --state 101/010/111 --color never
expect_eq "$(sed -n 2p "$TMP/out")" "1 0 1" "--color never"
q show "$R/classic-3x3.yaml" --state 101/010/111 --color=sometimes
expect_rc 64 "--color with a bad value"
expect_err "--color needs auto, always or never" "bad --color message"

# geometry, plain: hex odd rows half a cell right, a hexagon, a torus,
# a hole, a graph
q show "$OK/hex-rect.yaml" --state 1010/0101/1111
expect_eq "$(sed -n 2,4p "$TMP/out" | tr '\n' '|')" "1 0 1 0| 0 1 0 1|1 1 1 1|" "hex: odd row shifted"
q show "$R/hexagon-3.yaml" --state ..111/.1111/11111/1111./111..
expect_eq "$(sed -n 2,6p "$TMP/out" | tr '\n' '|')" "  1 1 1| 1 1 1 1|1 1 1 1 1| 1 1 1 1|  1 1 1|" "hexagon 3-4-5-4-3"
q show "$R/torus-5x5.yaml" --state 10000/01000/00100/00010/00001
expect_out "wraps both ways (a torus)" "torus says it wraps"
q show "$OK/masked-hole.yaml" --state 111/1.1/111
expect_eq "$(sed -n 3p "$TMP/out")" "1 . 1" "a hole is '.'"
q show "$R/ring6-mod8.yaml" --state 012345
# ring6-mod8.yaml: a press of cell 0 changes cells 5, 0 and 1
expect_out "   0      0  0, 1, 5" "graph: cell 0, value 0, its effects"
expect_out "   3      3  2, 3, 4" "graph: cell 3"
q show "$R/classic-3x3.yaml"
expect_out "the goal (no state given)" "RULES alone draws the goal"
expect_eq "$(sed -n 3p "$TMP/out")" "0 0 0" "classic goal: all off"
printf '111\n000\n111\n' >s.txt
q show "$R/classic-3x3.yaml" s.txt
expect_eq "$(sed -n 3p "$TMP/out")" "0 0 0" "state from a file"

# bad input: usage 64, bad data 65, missing 66
q show "$R/classic-3x3.yaml" --state 101/010
expect_rc 65 "state too short"
expect_err "--state:" "message names --state"
q show nosuch.yaml --state 1
expect_rc 66 "missing rule file"
q show
expect_rc 64 "nothing to show"
q show "$R/classic-3x3.yaml" --state 1 extra
expect_rc 64 "--state and FILE"
q show --position 2
expect_rc 64 "--position without --pack"
q show --help
expect_rc 0 "--help"
expect_out "usage: quench show ID" "synopsis"

# ---- stored puzzles: by id, prefix, #ROW, from a pack --------------------
q -q generate "$R/classic-5x5.yaml" -n 3 --seed 9 --db p.db --pack pk
expect_rc 0 "make a pack"
id=$(python3 -c 'import json,sys
print([json.loads(l) for l in open(sys.argv[1]) if "\"puzzle\"" in l][1]["id"])' "$TMP/out")
st=$(python3 -c 'import json,sys
print([json.loads(l) for l in open(sys.argv[1]) if "\"puzzle\"" in l][1]["state"])' "$TMP/out")
want=$(python3 -c 'import sys
print("|".join(" ".join(r) for r in sys.argv[1].split("/")) + "|")' "$st")
q show "$id" --db p.db
expect_rc 0 "show ID"
expect_out "puzzle $id" "heading names the puzzle"
expect_eq "$(sed -n 3,7p "$TMP/out" | tr '\n' '|')" "$want" "the stored state"
q show "$(echo "$id" | cut -c1-6)" --db p.db
expect_out "puzzle $id" "a prefix"
q show '#2' --db p.db
expect_out "puzzle $id" "#ROW"
q show --pack pk --position 2 --db p.db
expect_rc 0 "--pack --position"
expect_out "pack pk, 2 of 3: puzzle $id" "position heading"
expect_eq "$(sed -n 3,7p "$TMP/out" | tr '\n' '|')" "$want" "the puzzle at position 2"
q show --pack pk --db p.db
expect_eq "$(grep -c '^pack pk, ' "$TMP/out")" 3 "the whole pack"
q show --pack pk --position 4 --db p.db
expect_rc 66 "position past the end"
expect_err "has no position 4 (it holds 3 puzzles)" "position message"
q show --pack nope --db p.db
expect_rc 66 "missing pack"
q show ffffffff --db p.db
expect_rc 66 "unknown id"
# text from the database reaches the terminal escaped, never as a control
# sequence (a damaged or hostile file: an ESC in a grade)
if command -v sqlite3 >/dev/null 2>&1; then
    cp p.db bad.db
    sqlite3 bad.db "INSERT INTO grades (name) VALUES (char(27) || '[2J');
        UPDATE puzzles SET grade = last_insert_rowid() WHERE id = 2"
    q show '#2' --db bad.db
    expect_rc 0 "show with a hostile grade"
    if grep -q "$(printf '\033')" "$TMP/out"; then not_ok "ESC from the database reached stdout"; else ok; fi
    expect_out '\x1b[2J' "the grade shown escaped"
fi
q show '#1' --db missing.db
expect_rc 66 "a missing database"
if [ -e missing.db ]; then not_ok "show created a database"; else ok; fi
q show 12
expect_rc 66 "a name that is not an id is a rule file"
expect_err "12" "named as a file"

# ---- colour, in a real terminal ------------------------------------------
if ! command -v tmux >/dev/null 2>&1; then
    not_ok "tmux is not installed (scripts/install-deps)"
    done_testing
    exit
fi
SOCK=$TMP/tmux.sock
# pane NAME ENV ARGS...: quench ARGS in a fresh 100x30 pane with TERM=ENV
# (NO_COLOR unset); its screen into NAME.esc (capture-pane -e -N: escape
# sequences, trailing blanks kept) and NAME.txt (the characters).
pane() {
    name=$1 term=$2
    shift 2
    tmux -S "$SOCK" -f /dev/null new-session -d -s "$name" -x 100 -y 30 \
        "env -u NO_COLOR TERM=$term $QUENCH $*; echo END-OF-$name; sleep 600"
    i=0
    while [ $i -lt 100 ]; do
        tmux -S "$SOCK" capture-pane -t "$name" -p >"$TMP/$name.txt"
        grep -q "^END-OF-$name" "$TMP/$name.txt" && break
        sleep 0.1
        i=$((i + 1))
    done
    tmux -S "$SOCK" capture-pane -t "$name" -p -e -N >"$TMP/$name.esc"
    tmux -S "$SOCK" kill-session -t "$name"
}

# The screen decoded: for each line, each column's (char, background).
cat >"$TMP/screen.py" <<'EOF'
import re, sys
SGR = re.compile(r'\x1b\[([0-9;:]*)m')
def decode(path):
    fg = bg = None
    rows = []
    for line in open(path, encoding='utf-8').read().split('\n'):
        cols, i = [], 0
        while i < len(line):
            m = SGR.match(line, i)
            if not m:
                cols.append((line[i], bg)); i += 1; continue
            p = [x for x in re.split('[;:]', m.group(1))] or ['0']
            j = 0
            while j < len(p):
                v = int(p[j] or 0)
                if v == 0: fg = bg = None
                elif v == 49: bg = None
                elif v == 48 and j + 2 < len(p) and p[j + 1] == '5':
                    bg = '5;' + p[j + 2]; j += 2
                elif v == 38 and j + 2 < len(p) and p[j + 1] == '5':
                    j += 2
                elif 40 <= v <= 47 or 100 <= v <= 107: bg = str(v)
                j += 1
            i = m.end()
        rows.append(cols)
    return rows
def text(row): return ''.join(c for c, _ in row).rstrip()
def check(cond, what): print('ok' if cond else 'not ok: ' + what)
EOF

pane c3 xterm-256color show "$R/classic-3x3.yaml" --state 101/010/111
py_checks "$TMP/c3.esc" <<'EOF'
import sys; sys.path.insert(0, sys.argv[1].rsplit('/', 1)[0]); from screen import *
rows = decode(sys.argv[1])
state = ['101', '010', '111']
check(text(rows[0]) == 'classic-3x3: 3x3 grid, 2 colours', 'caption: %r' % text(rows[0]))
for r, line in enumerate(state):
    for c, v in enumerate(line):
        cell = rows[1 + r][2 * c:2 * c + 2]
        want = '43' if v == '1' else '100'
        check(len(cell) == 2 and all(b == want for _, b in cell),
              'cell (%d,%d) value %s: background %s, want %s' % (r, c, v, [b for _, b in cell], want))
        check(''.join(ch for ch, _ in cell) == (' 1' if v == '1' else '  '),
              'cell (%d,%d) glyph' % (r, c))
    check(all(b is None for _, b in rows[1 + r][6:]), 'row %d: nothing coloured past the board' % r)
leg = rows[4]
t = text(leg)
check(t.startswith('legend:'), 'legend line: %r' % t)
# each value once: a two-column swatch in its colour, its number after it
runs, i = [], 0
while i < len(leg):
    if leg[i][1] is None:
        i += 1; continue
    j = i
    while j < len(leg) and leg[j][1] == leg[i][1]:
        j += 1
    runs.append((leg[i][1], j - i, ''.join(c for c, _ in leg[j:j + 2])))
    i = j
check(runs == [('100', 2, ' 0'), ('43', 2, ' 1')], 'legend swatches: %r' % runs)
EOF

# hex: odd rows start half a cell (one column) right
pane hx xterm-256color show "$OK/hex-rect.yaml" --state 1111/1111/1111
py_checks "$TMP/hx.esc" <<'EOF'
import sys; sys.path.insert(0, sys.argv[1].rsplit('/', 1)[0]); from screen import *
rows = decode(sys.argv[1])
for r in range(3):
    coloured = [i for i, (_, b) in enumerate(rows[1 + r]) if b == '43']
    check(coloured == list(range(r % 2, r % 2 + 8)), 'hex row %d covers columns %s' % (r, coloured))
EOF

# four colours (ring of 6 mod 8 shows values 0..5): palette order, and a
# graph board read as a table; twelve colours go to the 256-colour ramp
pane rg xterm-256color show "$R/ring6-mod8.yaml" --state 012345
py_checks "$TMP/rg.esc" <<'EOF'
import sys; sys.path.insert(0, sys.argv[1].rsplit('/', 1)[0]); from screen import *
rows = decode(sys.argv[1])
want = ['100', '43', '44', '42', '41', '45']
for v in range(6):
    bgs = {b for _, b in rows[2 + v] if b}
    check(bgs == {want[v]}, 'cell %d value %d: %s, want %s' % (v, v, bgs, want[v]))
check(text(rows[8]).startswith('legend:'), 'legend after the table')
check(len({b for _, b in rows[8] if b}) == 8, 'k = 8: the legend shows all 8 colours')
EOF
cat >k12.yaml <<'EOF'
quench: 1
name: k12
colours: 12
board: {grid: [4, 1]}
press: {stencil: plus}
EOF
pane kx xterm-256color show k12.yaml --state 09ab
py_checks "$TMP/kx.esc" <<'EOF'
import sys; sys.path.insert(0, sys.argv[1].rsplit('/', 1)[0]); from screen import *
rows = decode(sys.argv[1])
bgs = [rows[1][2 * c][1] for c in range(4)]
check(bgs[0] == '100', 'value 0 grey')
check(all(b and b.startswith('5;') for b in bgs[1:]), '256-colour backgrounds: %s' % bgs)
check(text(rows[1]).replace(' ', '') == '9ab', 'glyphs kept beyond the palette: %r' % text(rows[1]))
EOF

# auto stays plain where TERM cannot show colour
pane dm dumb show "$R/classic-3x3.yaml" --state 101/010/111
if grep -q "$(printf '\033')\[4" "$TMP/dm.esc"; then not_ok "TERM=dumb got colour"; else ok; fi
expect_eq "$(sed -n 2p "$TMP/dm.txt")" "1 0 1" "TERM=dumb: plain"
tmux -S "$SOCK" kill-server 2>/dev/null
done_testing
