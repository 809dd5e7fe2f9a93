#!/bin/sh
# t600: the JavaScript loader (loaders/js/quench-pack.js) and its replay
# driver (loaders/js/replay) on packs exported from every rule in rules/,
# plus a hex rectangle and a masked grid with non-zero goals and press
# amounts above 1, and on damaged documents; then the same module in
# headless Chromium. Needs node and chromium: when missing the checks FAIL
# (not skipped): run scripts/install-deps.
. "$(dirname "$0")/../cli/lib.sh"
. "$TOP/tests/cli/browser.sh"
. "$TOP/tests/loaders/cases.sh"
. "$TOP/tests/loaders/play.sh"

DB=$TMP/x.db
REPLAY=$TOP/loaders/js/replay
MODULE=$TOP/loaders/js/quench-pack.js

command -v node >/dev/null 2>&1 ||
    not_ok "node is missing: run scripts/install-deps (apt-get install nodejs)"

# replay FILE: the driver, run from / (it must not depend on the directory).
replay() {
    (cd / && "$REPLAY" "$@") >"$TMP/out" 2>"$TMP/err"
    rc=$?
}
# expect_last LINE LABEL: stdout is exactly that one line.
expect_last() {
    expect_eq "$(cat "$TMP/out")" "$1" "$2"
}
# edit IN OUT JS: OUT is IN's document after JS ran on it as `d`.
edit() {
    node -e 'const fs = require("fs"); const d = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
        '"$3"'; fs.writeFileSync(process.argv[2], JSON.stringify(d));' "$1" "$2"
}

# Every rule: rules/, and tests/loaders/rules/ (what rules/ lacks: hex
# rectangles with goals and a mask, masked grids with five colours, press
# amounts 2 and 3 and goals, a graph whose presses add 1 to 5 mod 6).
PACKS=
for f in "$TOP"/rules/*.yaml "$TOP"/tests/loaders/rules/*.yaml; do
    p=$(basename "$f" .yaml)
    PACKS="$PACKS $p"
    q generate "$f" -n 4 --seed 1 --db "$DB" --pack "$p"
    expect_rc 0 "generate $p"
    sed -n 's/.*"type":"puzzle","id":"\([0-9a-f]\{16\}\)".*/\1/p' "$TMP/out" |
        tr '\n' ' ' >"$TMP/$p.ids"
    q export "$p" --format json --db "$DB" -o "$TMP/$p.json"
    expect_rc 0 "export $p"
    replay "$TMP/$p.json"
    expect_rc 0 "replay $p"
    expect_last "replayed 4 puzzles: 4 solved, 0 failed" "replay $p"
    # The pack as the loader gives it: its name, version 1 and the ids
    # generate printed, in order.
    got=$(node --input-type=module -e '
        import { readFileSync } from "node:fs";
        import { parsePack } from "'"$MODULE"'";
        const pk = parsePack(readFileSync(process.argv[1], "utf8"));
        console.log(pk.name, pk.version, pk.puzzleIds.join(" ") + " ");' "$TMP/$p.json")
    expect_eq "$got" "$p 1 $(cat "$TMP/$p.ids")" "$p: name, version, puzzle ids"
    # each puzzle's human grade (issue #33) as the document has it
    got=$(node --input-type=module -e '
        import { readFileSync } from "node:fs";
        import { parsePack } from "'"$MODULE"'";
        const pk = parsePack(readFileSync(process.argv[1], "utf8"));
        for (const z of pk.puzzles)
            console.log(z.id, z.humanLevel, z.humanLevelNumber, z.humanScore, z.humanModelVersion);' "$TMP/$p.json")
    expect_eq "$got" "$(python3 "$TOP/tests/loaders/human.py" "$TMP/$p.json")" "$p: the human grade"
done

# press against the rules as their files and docs/RULES.md state them,
# not against the exported effects: classic Lights Out on 3x3 toggles the
# cell and its orthogonal neighbours; on the ring of six (mod 8) a press
# adds 1 to the cell and its two ring neighbours; eight presses of one
# cell change nothing; on the torus a corner press reaches across both
# edges; the hex rectangle is odd-r (cell 5's neighbours are 1, 2, 4, 6,
# 9, 10). Each line is "cells changed by one press: amounts".
cat >"$TMP/press.mjs" <<EOF
import { readFileSync } from "node:fs";
import { centres, parsePack } from "$MODULE";
const load = (p) => parsePack(readFileSync("$TMP/" + p + ".json", "utf8")).puzzles[0];
function delta(p, cell, times = 1) {
    const b = p.newBoard();
    for (let t = 0; t < times; t++) b.press(cell);
    const d = [];
    b.state.forEach((v, j) => {
        const a = (v - p.start[j] + p.colours) % p.colours;
        if (a) d.push(j + "+" + a);
    });
    return d.join(",");
}
const c3 = load("classic-3x3"), ring = load("ring6-mod8"), torus = load("torus-5x5");
const hex = load("hex-goal"), mask = load("mask-five");
console.log("classic centre", delta(c3, 4));
console.log("classic corner", delta(c3, 0));
console.log("ring 0", delta(ring, 0));
console.log("ring 0 x8", delta(ring, 0, 8) || "none");
console.log("torus 0", delta(torus, 0));
console.log("hex 5", delta(hex, 5));
console.log("mask 2", delta(mask, 2));
const b = c3.newBoard();
b.press(4);
b.reset();
console.log("reset", b.presses, b.state.join("") === c3.start.join(""));
try { b.press(9); console.log("press 9 accepted"); } catch (e) { console.log(e.name); }
const g = hex.newBoard();
g.state.set(hex.goal);
console.log("at goal", g.isSolved(), "at start", hex.newBoard().isSolved());
// centres(): on a hex board every neighbour is one cell width away.
for (const p of [hex, load("hexagon-3")]) {
    const c = centres(p.rule), ds = new Set();
    p.cells.forEach((cell, j) => cell.effects.forEach((e) => {
        if (e.cell !== j) ds.add(Math.hypot(c[j].x - c[e.cell].x, c[j].y - c[e.cell].y).toFixed(6));
    }));
    console.log(p.board.kind, "neighbours at", [...ds].join(" "));
}
console.log("geometry", hex.board.kind, hex.board.width, hex.board.height, hex.cells[5].row, hex.cells[5].col);
EOF
node "$TMP/press.mjs" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 0 "press checks"
# mask-five: cell 2 is row 1 col 0 (row 0 has cells 0, 1 at cols 1, 2);
# [0,0,2] adds 2 to itself, [1,0] 1 to cell 3, [0,1,3] 3 to cell 6 (row
# 2 col 0); [-1,0] falls off the board and [0,-1] on a hole.
cat >"$TMP/want" <<'EOF'
classic centre 1+1,3+1,4+1,5+1,7+1
classic corner 0+1,1+1,3+1
ring 0 0+1,1+1,5+1
ring 0 x8 none
torus 0 0+1,1+1,4+1,5+1,20+1
hex 5 1+1,2+1,4+1,5+1,6+1,9+1,10+1
mask 2 2+2,3+1,6+3
reset 0 true
RangeError
at goal true at start false
hex neighbours at 1.000000
hexagon neighbours at 1.000000
geometry hex 4 3 1 1
EOF
if diff "$TMP/want" "$TMP/out" >"$TMP/diff"; then ok; else
    not_ok "press checks differ from the rules"
    sed 's/^/    /' "$TMP/diff"
fi

# Damaged documents: a clear error naming the place, exit 65, no summary.
good=$TMP/classic-5x5.json
damaged() { # label, JS edit, expected stderr
    edit "$good" "$TMP/bad.json" "$2"
    replay "$TMP/bad.json"
    expect_rc 65 "$1"
    expect_err "$3" "$1"
    expect_empty_out "$1"
}
damaged "format_version 3" 'd.format_version = 3' \
    'format_version: 3 is not supported: this loader reads version 2'
damaged "format_version 1" 'd.format_version = 1' \
    'format_version: 1 is not supported'
damaged "format_version as text" 'd.format_version = "2"' \
    'format_version: "2" is not supported'
damaged "another format" 'd.format = "ldtk"' \
    'format: "ldtk" is not a quench pack'
damaged "no puzzles" 'delete d.puzzles' 'document: missing field "puzzles"'
damaged "no min_presses" 'delete d.puzzles[2].min_presses' \
    'puzzles[2]: missing field "min_presses"'
damaged "no effects" 'delete d.rules[0].cells[7].effects' \
    'rules[0].cells[7]: missing field "effects"'
damaged "state value past colours" 'd.puzzles[1].state[3] = 2' \
    'puzzles[1].state[3]: 2 is outside 0..1'
damaged "short state" 'd.puzzles[0].state.pop()' \
    'puzzles[0].state: 24 values, the rule has 25 cells'
damaged "effect off the board" 'd.rules[0].cells[0].effects[0].cell = 25' \
    'rules[0].cells[0].effects[0].cell: 25 is outside 0..24'
damaged "unknown rule" 'd.puzzles[3].rule = "0".repeat(64)' \
    'puzzles[3].rule: no rule with hash'
damaged "fraction" 'd.puzzles[0].min_presses = 1.5' \
    'puzzles[0].min_presses: 1.5 is not an integer'
head -c 100 "$good" >"$TMP/bad.json"
replay "$TMP/bad.json"
expect_rc 65 "truncated JSON"
expect_err "not JSON" "truncated JSON"
replay "$TMP/no-such.json"
expect_rc 66 "missing file"
expect_err "replay: $TMP/no-such.json: cannot read (ENOENT)" "missing file"
replay
expect_rc 64 "no argument"

# Puzzles that load but do not replay: F counts them, exit 1. A single
# press always changes the board, so a witness with one entry moved no
# longer solves.
edit "$good" "$TMP/tampered.json" 'd.puzzles[1].solution[0] ^= 1'
replay "$TMP/tampered.json"
expect_rc 1 "tampered witness"
expect_last "replayed 4 puzzles: 3 solved, 1 failed" "tampered witness"
expect_err "puzzle 2 (id " "tampered witness"
expect_err "the witness does not reach the goal" "tampered witness"
edit "$good" "$TMP/par.json" 'd.puzzles[3].min_presses += 1'
replay "$TMP/par.json"
expect_rc 1 "min_presses off by one"
expect_last "replayed 4 puzzles: 3 solved, 1 failed" "min_presses off by one"
expect_err "min_presses is" "min_presses off by one"
edit "$good" "$TMP/empty.json" 'd.puzzles = []'
replay "$TMP/empty.json"
expect_rc 1 "empty pack"
expect_last "replayed 0 puzzles: 0 solved, 0 failed" "empty pack"

# Issue #31: nesting, integer bounds, duplicate ids, how values are shown
# (tests/loaders/cases.py, the same documents and messages in every
# runtime).
make_cases "$good"
run_cases js replay
# a document of an older quench (no human grade) and one whose puzzles
# have none: null, each field
for c in nohuman humannull; do
    got=$(node --input-type=module -e '
        import { readFileSync } from "node:fs";
        import { parsePack } from "'"$MODULE"'";
        for (const z of parsePack(readFileSync(process.argv[1], "utf8")).puzzles)
            console.log(z.id, z.humanLevel, z.humanLevelNumber, z.humanScore, z.humanModelVersion);' "$TMP/cases/$c.json")
    expect_eq "$got" "$(python3 "$TOP/tests/loaders/human.py" "$TMP/cases/$c.json")" "$c: no human grade"
done
# parsePack itself (what a game calls) on deep text: a PackError, not a
# crash, also for nesting no call stack could hold.
got=$(node --input-type=module -e '
    import { parsePack, PackError, MAX_DEPTH } from "'"$MODULE"'";
    try { parsePack("[".repeat(1e6)); console.log("loaded"); }
    catch (e) { console.log(e instanceof PackError, MAX_DEPTH, e.message); }' 2>&1)
expect_eq "$got" "true 8 document[0][0][0][0][0][0][0][0]: nesting deeper than 8" "parsePack on a million ["

# Headless Chromium: one page imports the module and replays every pack
# above (inlined, as quench's html export embeds its pack) and the
# tampered one; each pack's verdict goes into <pre id="result">. quench's
# JSON writes every '<' as \u003c, so no pack can close its script block.
{
    echo '<!doctype html><html><body><pre id="result">not run</pre>'
    for p in $PACKS; do
        printf '<script type="application/json" class="pack">'
        cat "$TMP/$p.json"
        echo '</script>'
    done
    printf '<script type="application/json" class="pack">'
    cat "$TMP/tampered.json"
    echo '</script>'
    cat <<EOF
<script type="module">
import { parsePack, checkWitness } from "file://$MODULE";
const lines = [];
for (const el of document.querySelectorAll("script.pack")) {
    try {
        const pack = parsePack(el.textContent);
        let s = 0, f = 0;
        for (const p of pack.puzzles) checkWitness(p) === "" ? s++ : f++;
        lines.push(pack.name + ": replayed " + pack.puzzles.length + " puzzles: " + s + " solved, " + f + " failed");
    } catch (e) { lines.push("error: " + e.message); }
}
document.getElementById("result").textContent = "\n" + lines.join("\n") + "\n";
</script></body></html>
EOF
} >"$TMP/page.html"
{
    for p in $PACKS; do
        echo "$p: replayed 4 puzzles: 4 solved, 0 failed"
    done
    echo "classic-5x5: replayed 4 puzzles: 3 solved, 1 failed"
} >"$TMP/want"
# browser.sh's browser, stopped by its pid whatever ends the script;
# --allow-file-access-from-files: a file:// page may import a file://
# module (Chromium refuses by default: origin null).
browser "$(mktemp -d "$TMP/prof.XXXXXX")" "file://$TMP/page.html" \
    --allow-file-access-from-files --dump-dom
sed -n '/<pre id="result">/,/<\/pre>/p' "$TMP/dom" | sed '1d;$d' >"$TMP/got"
if diff "$TMP/want" "$TMP/got" >"$TMP/diff"; then ok; else
    not_ok "chromium replay"
    sed 's/^/    /' "$TMP/diff" | head -n 20
fi

# Issue #34: the play driver against quench solve (play.sh).
play_packs
play_checks node "$TOP/loaders/js/play"

done_testing
