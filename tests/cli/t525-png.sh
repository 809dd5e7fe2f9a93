#!/bin/sh
# tier: full (every pixel of 37 PNGs decoded in python3: 8 s of CPU)
# t525: `quench export PACK --format png` (issue 34, PNG previews): a
# thumbnail per puzzle and a contact sheet through libpng. Each PNG is
# decoded here by a small decoder of our own (zlib, the five PNG filters,
# CRCs checked) and must be its svg twin: the svg of the same export, parsed
# independently, says where each cell's centre is and which colour fills
# it; the PNG's pixel there must be that colour, for every cell of every
# picture, over k = 2, 3, 4, 8 and 11, a hexagon, a hex rectangle, a
# torus, a masked grid and a graph. pngcheck accepts every file; two runs
# are byte-identical; bad outputs fail cleanly.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

# k = 11 (cividis ramp) and a hex rectangle, as rule files of their own
cat >k11.yaml <<'Y'
quench: 1
name: eleven-3x3
colours: 11
board: {grid: [3, 3]}
press: {stencil: plus}
Y
cat >hexrect.yaml <<'Y'
quench: 1
name: hexrect-4x3
colours: 3
board: {hex: [4, 3]}
press: {stencil: hex}
Y

cat >"$TMP/check.py" <<'PY'
import re, struct, sys, zlib
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'
XL = '{http://www.w3.org/1999/xlink}href'

def decode(path):
    """width, height, rows of (r, g, b) for an 8-bit RGB PNG."""
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'signature'
    pos, idat, ihdr, names = 8, b'', None, []
    while pos < len(data):
        n, = struct.unpack('>I', data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        crc, = struct.unpack('>I', data[pos + 8 + n:pos + 12 + n])
        assert zlib.crc32(kind + body) == crc, 'CRC of ' + kind.decode()
        names.append(kind.decode())
        if kind == b'IHDR':
            ihdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    w, h, depth, ctype, comp, filt, inter = ihdr
    assert (depth, ctype, inter) == (8, 2, 0), 'not 8-bit RGB: %r' % (ihdr,)
    raw, bpp, stride = zlib.decompress(idat), 3, 3 * w
    assert len(raw) == h * (stride + 1), 'IDAT size'
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
            else: assert f == 0, 'filter %d' % f
        rows.append(line)
        prev = line
    return w, h, rows, names

def svg_cells(path, sheet):
    """size and [(x, y, fill)] of every cell the svg draws."""
    root = ET.parse(path).getroot()
    fills = {}
    for g in root.iter(NS + 'g'):
        if re.fullmatch(r'v\d+', g.get('id', '')):
            fills['#' + g.get('id')] = g[0].get('fill').upper()
    cells = []
    for u in root.iter(NS + 'use'):
        href = u.get(XL)
        if href in fills and (sheet or u.get('class') == 'cell'):
            cells.append((float(u.get('x')), float(u.get('y')), fills[href]))
    return float(root.get('width')), float(root.get('height')), cells

def compare(label, svg, png, sheet, want_cells):
    w, h, cells = svg_cells(svg, sheet)
    try:
        pw, ph, rows, names = decode(png)
    except Exception as e:
        print('not ok: %s: %s does not decode: %s' % (label, png, e))
        return
    bad = []
    if (pw, ph) != (w, h):
        bad.append('size %dx%d, the svg is %gx%g' % (pw, ph, w, h))
    if names != ['IHDR', 'IDAT', 'IEND'] and set(names) - {'IHDR', 'IDAT', 'IEND'}:
        bad.append('chunks beyond IHDR/IDAT/IEND: %s' % names)
    if len(cells) != want_cells:
        bad.append('the svg draws %d cells, not %d' % (len(cells), want_cells))
    for i, (x, y, fill) in enumerate(cells):
        px, py = int(x), int(y)
        if not (0 <= px < pw and 0 <= py < ph):
            bad.append('cell %d at (%g, %g) is off the picture' % (i, x, y))
            continue
        got = '#%02X%02X%02X' % tuple(rows[py][3 * px:3 * px + 3])
        if got != fill:
            bad.append('cell %d at (%g, %g): %s, the svg fills %s' % (i, x, y, got, fill))
    print('ok' if not bad else 'not ok: %s: %s' % (label, '; '.join(bad[:4])))

mode = sys.argv[1]
if mode == 'cells':
    # cells LABEL SVG PNG SHEET(0/1) NCELLS
    compare(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5] == '1', int(sys.argv[6]))
PY

# check RULE N LABEL: a pack of N puzzles; its png directory against its svg
check() {
    rule=$1 n=$2 label=$3
    q -q generate "$rule" -n "$n" --seed 7 --db p.db --pack "$label"
    expect_rc 0 "$label: make the pack"
    q export "$label" --format png -o "$label.d" --db p.db
    expect_rc 0 "$label: export --format png -o DIR"
    q export "$label" --format svg -o "$label.svg" --db p.db
    "$QUENCH" export "$label" --format json --db p.db >"$label.json"
    ncells=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["rules"][0]["ncells"])' "$label.json")
    total=$((n * ncells))
    py_checks cells "$label sheet" "$label.svg" "$label.d/sheet.png" 1 "$total" <"$TMP/check.py"
    python3 -c '
import json, sys
for p in json.load(open(sys.argv[1]))["puzzles"]:
    print(p["position"], p["id"])' "$label.json" >"$label.ids"
    nfiles=0
    while read -r pos id; do
        nfiles=$((nfiles + 1))
        f=$(printf '%s.d/%03d-%s.png' "$label" "$pos" "$id")
        "$QUENCH" export "$label" --format svg --puzzle "$id" --db p.db >"$label-$pos.svg"
        py_checks cells "$label puzzle $pos" "$label-$pos.svg" "$f" 0 "$ncells" <"$TMP/check.py"
    done <"$label.ids"
    expect_eq "$(ls "$label.d" 2>/dev/null | wc -l | tr -d ' ')" "$((nfiles + 1))" "$label: a file per puzzle and the sheet"
    if pngcheck -q "$label.d"/*.png >pngcheck.out 2>&1; then ok; else
        not_ok "$label: pngcheck: $(head -n 2 pngcheck.out)"; fi
    # byte-stable: a second run gives the same bytes
    q export "$label" --format png -o "$label.2" --db p.db
    if [ "$rc" -eq 0 ] && diff -r "$label.d" "$label.2" >/dev/null 2>&1; then ok; else
        not_ok "$label: a second export differs (rc $rc)"; fi
}

check "$R/classic-5x5.yaml" 5 classic      # k = 2, squares
check "$R/lights-out-2000.yaml" 3 lo2000    # k = 3
check "$R/four-colour-10x10.yaml" 2 four    # k = 4, a bigger board
check "$R/ring6-mod8.yaml" 3 ring           # k = 8, a graph (circles)
check k11.yaml 3 eleven                     # k = 11: the cividis ramp
check "$R/hexagon-3.yaml" 3 hexagon         # hexagons, axial
check hexrect.yaml 3 hexrect                # hexagons, odd-r rows
check "$R/torus-5x5.yaml" 3 torus           # wrap
check "$R/cross-7x7.yaml" 3 cross           # masked corners

# One puzzle alone: --puzzle to a file and to standard output, the same bytes
# as its thumbnail
id=$(sed -n 2p classic.ids | cut -d' ' -f2)
q export classic --format png --puzzle "$id" -o one.png --db p.db
expect_rc 0 "--puzzle REF -o FILE"
if cmp -s one.png "classic.d/002-$id.png"; then ok; else not_ok "--puzzle's PNG is not the thumbnail's"; fi
"$QUENCH" export classic --format png --puzzle "$id" --db p.db >stdout.png
if cmp -s one.png stdout.png; then ok; else not_ok "-o - writes other bytes"; fi

# Bad outputs: a clear message, the documented status, nothing half-written
q export classic --format png --db p.db
expect_rc 64 "png without -o DIR or --puzzle: usage error"
expect_err "give -o DIR" "the message says what to give"
echo keep >afile
q export classic --format png -o afile --db p.db
expect_rc 73 "DIR is a file: cannot create (73)"
expect_err "afile: cannot create" "the message names the path"
expect_eq "$(cat afile)" "keep" "the file in the way is untouched"
q export classic --format png -o nodir/sub --db p.db
expect_rc 73 "DIR's parent missing: 73"
expect_err "nodir/sub: cannot create" "names the directory"
# (as root: as nobody, on a copy of the database nobody may write beside)
mkdir ro dbdir && chmod 555 ro && chmod 755 "$TMP" && cp p.db dbdir/ &&
    chmod 777 dbdir && chmod 666 dbdir/p.db
as_user "$QUENCH" export classic --format png -o "$TMP/ro" --db "$TMP/dbdir/p.db" >/dev/null 2>as_user.err
expect_eq "$?" 73 "read-only DIR: 73 ($(head -c 200 as_user.err))"
if grep -q "ro/.*cannot create" as_user.err; then ok; else not_ok "read-only DIR: message: $(head -c 200 as_user.err)"; fi
expect_eq "$(ls -A ro | wc -l | tr -d ' ')" 0 "nothing (no temporary file) left in it"

# A pack too big for one sheet (the PNG limit, docs/EXPORT.md) fails before
# any file is written, and says what to do
q -q generate "$R/classic-5x5.yaml" -n 1500 --seed 3 --db big.db --pack big
q export big --format png -o bigdir --db big.db
expect_rc 65 "a sheet past the PNG limit: 65"
expect_err "past the PNG limit" "the message names the limit"
expect_err "--puzzle" "and the way out"
if [ ! -e bigdir ]; then ok; else not_ok "bigdir was made by a failed export"; fi
done_testing
