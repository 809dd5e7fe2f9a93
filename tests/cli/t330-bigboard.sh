#!/bin/sh
# tier: full (998 x 998 and 10000 x 10000 boards, each answer replayed in python3: 5 s of CPU)
# t330: boards beyond the dense model (issue #8) through `quench solve`:
# --size, --fill, netpbm states in and solutions out, every answer replayed
# by an independent stencil application in Python; the all-on 998 x 998
# and 10000 x 10000 first rows against njpipeorgan/LightsOut's published
# solutions (their SHA-256: tests/golden/lightsout_first_rows.tsv); and
# refusals with their places and exit codes.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

jq_py() { # python expression over the JSON in $TMP/out, bound to j
    python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(json.dumps($1))" "$TMP/out"
}

# pnm.py read FILE: prints "w h maxval" ; replay RULE-OFFSETS K STATE SOL:
# prints ok when A x + s = 0 (mod k); firstrow FILE: the first row as 0/1.
cat >pnm.py <<'PY'
import sys
def read(path):
    d = open(path, 'rb').read()
    toks, i = [], 0
    def tok():
        nonlocal i
        while True:
            while d[i:i+1].isspace(): i += 1
            if d[i:i+1] == b'#':
                while d[i:i+1] not in (b'\n', b''): i += 1
                continue
            break
        j = i
        while not d[j:j+1].isspace(): j += 1
        t = d[i:j]; i = j
        return t
    magic = tok(); w = int(tok()); h = int(tok())
    mx = 1 if magic in (b'P1', b'P4') else int(tok())
    i += 1
    if magic == b'P4':
        rb = (w + 7) // 8
        cells = [[(d[i + y*rb + x//8] >> (7 - x % 8)) & 1 for x in range(w)] for y in range(h)]
    elif magic == b'P5':
        cells = [list(d[i + y*w:i + (y+1)*w]) for y in range(h)]
    elif magic == b'P1':
        bits = [c - 48 for c in d[i:] if c in (48, 49)]
        cells = [bits[y*w:(y+1)*w] for y in range(h)]
    else:
        nums = [int(t) for t in d[i:].split()]
        cells = [nums[y*w:(y+1)*w] for y in range(h)]
    return w, h, mx, cells
STENCILS = {'plus': [(0,0),(1,0),(-1,0),(0,1),(0,-1)],
            'moore': [(dx,dy) for dx in (-1,0,1) for dy in (-1,0,1)]}
cmd = sys.argv[1]
if cmd == 'info':
    w, h, mx, _ = read(sys.argv[2]); print(w, h, mx)
elif cmd == 'count':
    _, _, _, c = read(sys.argv[2]); print(sum(map(sum, c)))
elif cmd == 'firstrow':
    _, _, _, c = read(sys.argv[2]); print(''.join(map(str, c[0])))
elif cmd == 'replay':   # stencil k fill-or-state-file solution
    st = STENCILS[sys.argv[2]]; k = int(sys.argv[3])
    w, h, _, x = read(sys.argv[5])
    s = [[int(sys.argv[4])] * w for _ in range(h)] if sys.argv[4].isdigit() else read(sys.argv[4])[3]
    bad = 0
    for y in range(h):
        for c in range(w):
            v = s[y][c]
            for dx, dy in st:
                sx, sy = c - dx, y - dy
                if 0 <= sx < w and 0 <= sy < h: v += x[sy][sx]
            bad += v % k != 0
    print('ok' if bad == 0 else 'bad %d' % bad)
PY

sha() { python3 -c "import hashlib,sys; print(hashlib.sha256(sys.argv[1].encode()).hexdigest())" "$1"; }
golden() { awk -v n="$1" '$1 == n { print $2 }' "$TOP/tests/golden/lightsout_first_rows.tsv"; }

# The all-on 998 x 998 board: unique solution, njpipeorgan's first row.
q solve "$R/classic-5x5.yaml" --size 998x998 --fill 1 -o s998.pbm --json
expect_rc 0 "998 all-on solvable"
expect_eq "$(jq_py 'j["method"]')" '"polynomial method over GF(2)"' "998: polynomial method"
expect_eq "$(jq_py '[j["exact"], j["optimal_solutions"], j["solutions_log2"]]')" "[true, 1, 0]" "998: unique, exact"
expect_eq "$(jq_py 'j["replay_ok"]')" true "998: replay"
expect_eq "$(python3 pnm.py info s998.pbm)" "998 998 1" "998: PBM written"
expect_eq "$(sha "$(python3 pnm.py firstrow s998.pbm)")" "$(golden 998)" "998: first row = njpipeorgan solution998.txt"
expect_eq "$(python3 pnm.py replay plus 2 1 s998.pbm)" ok "998: independent replay"
expect_eq "$(jq_py 'j["min_presses"]')" "$(python3 pnm.py count s998.pbm)" "998: press count = presses in the image"

# 10000 x 10000: the first row again (the rows below follow by chasing).
q solve "$R/classic-5x5.yaml" --size 10000x10000 --fill 1 -o s10k.pbm
expect_rc 0 "10000 all-on solvable"
expect_out "min presses:   50025640" "10000: presses"
expect_out "optimal plans: 1 of 1 solutions" "10000: unique"
expect_eq "$(sha "$(python3 -c "
d=open('s10k.pbm','rb').read(); i=len(b'P4\n10000 10000\n')
print(''.join(str((d[i+x//8]>>(7-x%8))&1) for x in range(10000)))")")" "$(golden 10000)" "10000: first row = njpipeorgan solution10000.txt"

# A rule file beyond the dense model, states as images, both PBM kinds.
cat >plus90.yaml <<'Y'
quench: 1
name: plus-90x70
board: {grid: [90, 70]}
press: {stencil: plus}
Y
q rules check plus90.yaml
expect_out "ok (plus-90x70, 90x70 grid, 6300 cells, 2 colours; beyond the dense model: solve by polynomial method over GF(2))" "rules check: big grid"
python3 -c "
import random; random.seed(5)
rows=[''.join(random.choice('01') for _ in range(90)) for _ in range(70)]
open('st.pbm','w').write('P1\n# a comment\n90 70\n'+'\n'.join(rows)+'\n')"
q solve plus90.yaml st.pbm -o x.pbm --plain --json
if [ "$(jq_py 'j["solvable"]')" = true ]; then
    expect_rc 0 "90x70 random: solvable"
    expect_eq "$(python3 pnm.py replay plus 2 st.pbm x.pbm)" ok "90x70: independent replay (plain PBM)"
else
    expect_rc 1 "90x70 random: unsolvable"
fi
cp out positional.json
q solve plus90.yaml --state st.pbm -o x.pbm --plain --json
expect_eq "$(cat out)" "$(cat positional.json)" "--state NAME.pbm reads the image, same answer"
# a solvable one for sure: the solution of the fill, pressed back
q solve plus90.yaml --fill 1 -o x1.pbm
expect_eq "$(python3 pnm.py replay plus 2 1 x1.pbm)" ok "90x70 all-on: independent replay (raw PBM)"

# Plus mod 3 (polynomial method over GF(p)) and Moore (light chasing).
printf 'quench: 1\nname: p3\ncolours: 3\nboard: {grid: [80, 75]}\npress: {stencil: plus}\n' >p3.yaml
q solve p3.yaml --fill 2 -o x3.pgm --json
expect_rc 0 "plus mod 3 80x75 solvable"
expect_eq "$(jq_py 'j["method"]')" '"polynomial method over GF(p)"' "mod 3: GF(p) method"
expect_eq "$(python3 pnm.py info x3.pgm)" "80 75 2" "mod 3: PGM maxval 2"
expect_eq "$(python3 pnm.py replay plus 3 2 x3.pgm)" ok "mod 3: independent replay"
printf 'quench: 1\nname: moore\nboard: {grid: [70, 65]}\npress: {stencil: moore}\n' >m.yaml
q solve m.yaml --fill 1 -o xm.pbm --json
expect_rc 0 "Moore 70x65 solvable"
expect_eq "$(jq_py 'j["method"]')" '"light chasing"' "Moore: light chasing"
expect_eq "$(python3 pnm.py replay moore 2 1 xm.pbm)" ok "Moore: independent replay"

# Unsolvable: 65 x 65 has nullity 42, and a lone corner light is outside
# the column space (checked by Python elimination over GF(2) below).
python3 -c "open('one.pbm','w').write('P1\n65 65\n'+'1'+'0'*(65*65-1)+'\n')"
q solve "$R/classic-5x5.yaml" --size 65x65 one.pbm --json
expect_rc 1 "65x65 lone light: unsolvable, exit 1"
expect_eq "$(jq_py '[j["solvable"], j["min_presses"], j["output"]]')" "[false, null, null]" "unsolvable JSON"
expect_eq "$(python3 -c "
n=65; N=n*n
cols=[]
for y in range(n):
    for x in range(n):
        v=0
        for dx,dy in ((0,0),(1,0),(-1,0),(0,1),(0,-1)):
            a,b=x+dx,y+dy
            if 0<=a<n and 0<=b<n: v|=1<<(b*n+a)
        cols.append(v)
basis={}
def reduce(v):
    while v:
        t=v.bit_length()-1
        if t not in basis: return v
        v^=basis[t]
    return 0
for c in cols:
    r=reduce(c)
    if r: basis[r.bit_length()-1]=r
print('in' if reduce(1)==0 else 'out')")" out "Python elimination: the lone light is not in the column space"

# Refusals: places, messages, exit codes, nothing written.
printf 'quench: 1\nname: t\nboard: {grid: [100, 100], wrap: both}\npress: {stencil: plus}\n' >torus.yaml
q solve torus.yaml --fill 1 -o no.pbm
expect_rc 65 "torus beyond 4096 cells: 65"
expect_err "torus.yaml:3:33: wrap is not supported beyond 4096 cells" "torus: FILE:LINE:COL"
[ ! -e no.pbm ] && ok || not_ok "nothing written on refusal"
q solve plus90.yaml --state 0101
expect_rc 65 "--state on a big board: 65"
expect_err "take their state as an image (FILE) or --fill" "--state refused with the reason"
python3 -c "open('small.pbm','w').write('P1\n3 3\n000000000\n')"
q solve plus90.yaml small.pbm
expect_rc 65 "image of the wrong size: 65"
expect_err "image is 3x3 but the board is 90x70" "size mismatch named"
q solve plus90.yaml --fill 2
expect_rc 65 "--fill beyond the colours: 65"
q solve plus90.yaml --fill 1 --size 10x
expect_rc 64 "bad --size: 64"
q solve plus90.yaml --fill 1 --plain
expect_rc 64 "--plain without -o: 64"
q solve plus90.yaml --fill 1 -o missing-dir/x.pbm
expect_rc 73 "unwritable -o: 73"
printf 'quench: 1\nname: k\nboard: {grid: [100, 100]}\npress: {stencil: knight}\n' >knight.yaml
q solve knight.yaml --fill 1 --json
expect_rc 0 "knight: chased two rows at a time"
expect_eq "$(jq_py '[j["method"], j["replay_ok"]]')" '["light chasing", true]' "knight: light chasing, replays"
# top row amounts 2 and 2 mod 4: no unit at either end, in either direction
printf 'quench: 1\nname: nu\ncolours: 4\nboard: {grid: [100, 100]}\npress: {stencil: [[-1, -1, 2], [1, -1, 2], [0, 0, 1], [-1, 1, 2], [1, 1, 2], [-1, 0, 2], [1, 0, 2]]}\n' >nu.yaml
q solve nu.yaml --fill 1 -o no.pbm
expect_rc 65 "no unit to chase with: 65"
expect_err "nu.yaml: " "refusal names the file"
expect_err "not invertible" "refusal says why"
[ ! -e no.pbm ] && ok || not_ok "nothing written on refusal"
q solve "$R/classic-5x5.yaml" --size 70000x2 --fill 1
expect_rc 64 "over the side limit: a usage error"

# The dense model takes images and -o too.
python3 -c "open('s5.pgm','wb').write(b'P5\n5 5\n1\n'+bytes([1]*25))"
q solve "$R/classic-5x5.yaml" s5.pgm -o x5.pbm --plain
expect_rc 0 "5x5 from a raw PGM"
expect_out "min presses:   15" "5x5 all-on: 15 presses (A075464)"
expect_eq "$(python3 pnm.py replay plus 2 1 x5.pbm)" ok "5x5 -o replays"

done_testing
