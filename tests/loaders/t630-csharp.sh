#!/bin/sh
# t630: the C# loader (loaders/csharp/QuenchPack.cs, for Unity and
# MonoGame) and its replay driver (loaders/csharp/replay) under Debian's
# mono. Packs from every rule in rules/, plus a masked hex rectangle, a
# masked grid with five colours and press amount 2, and a graph whose
# presses add 1 to 5 mod 6 (all three with non-zero goals), are replayed:
# every witness must reach the goal in exactly min_presses presses. One
# API program, compiled once at C# 6 with warnings as errors (what Unity's
# compiler accepts), checks presses and geometry against facts from the
# rule files and docs/RULES.md (Lights Out's plus stencil on 3x3, the
# ring, the torus, odd-r hex rows, the hexagon's 3S^2 - 3S + 1 cells).
# Damaged documents must be refused or fail. The driver's cache is
# checked too: two replays at once, an edited loader compiled again. A
# missing runtime FAILS (apt-get install mono-mcs mono-runtime
# libnewtonsoft-json-cil-dev).
. "$(dirname "$0")/../cli/lib.sh"
. "$TOP/tests/loaders/cases.sh"
. "$TOP/tests/loaders/play.sh"

REPLAY=$TOP/loaders/csharp/replay
LOADER=$TOP/loaders/csharp/QuenchPack.cs
JSON_DLL=${QUENCH_NEWTONSOFT:-/usr/lib/cli/Newtonsoft.Json-5.0/Newtonsoft.Json.dll}
DB=$TMP/x.db
N=3
# The driver compiles into this test's own cache, from today's sources.
XDG_CACHE_HOME=$TMP/cache
export XDG_CACHE_HOME

for tool in mcs mono python3; do
    command -v "$tool" >/dev/null 2>&1 && ok ||
        not_ok "$tool is missing (apt-get install mono-mcs mono-runtime libnewtonsoft-json-cil-dev python3)"
done
[ -r "$JSON_DLL" ] && ok ||
    not_ok "$JSON_DLL is missing (apt-get install libnewtonsoft-json-cil-dev)"

# replay FILE...: the driver, run from / (it must not depend on the
# directory); sets $rc, $TMP/out, $TMP/err.
replay() {
    (cd / && "$REPLAY" "$@") >"$TMP/out" 2>"$TMP/err" </dev/null
    rc=$?
}
# expect_line LINE LABEL: stdout is exactly that one line.
# --- every rule (rules/, and tests/loaders/rules/: what rules/ lacks), a
# pack of $N puzzles each, exported as json, replayed -----
PACKS=
for r in "$TOP"/rules/*.yaml "$TOP"/tests/loaders/rules/*.yaml; do
    name=$(basename "$r" .yaml)
    PACKS="$PACKS $name"
    q generate "$r" -n "$N" --seed 1 --db "$DB" --pack "$name"
    expect_rc 0 "generate $name"
    # The ids generate printed, in order: what the loader's puzzleIds must be.
    sed -n 's/.*"type":"puzzle","id":"\([0-9a-f]\{16\}\)".*/\1/p' "$TMP/out" |
        tr '\n' ' ' >"$TMP/$name.ids"
    q export "$name" --format json --db "$DB" -o "$TMP/$name.json"
    expect_rc 0 "export $name"
    replay "$TMP/$name.json"
    expect_rc 0 "replay $name"
    expect_line "replayed $N puzzles: $N solved, 0 failed" "replay $name"
done

# --- damaged documents: each is a pack above after one edit of `d`, all
# made by one python3 (a python3 start can take a second) ----------------------
python3 - "$TMP" <<'PY' || not_ok "cannot make the damaged documents"
import json, sys
edits = [
    ("classic-5x5", "version3", 'd["format_version"] = 3'),
    ("classic-5x5", "version1", 'd["format_version"] = 1'),
    ("classic-5x5", "versiontext", 'd["format_version"] = "2"'),
    ("classic-5x5", "format", 'd["format"] = "ldtk"'),
    ("classic-5x5", "nopuzzles", 'del d["puzzles"]'),
    ("classic-5x5", "nominpresses", 'del d["puzzles"][2]["min_presses"]'),
    ("classic-5x5", "noeffects", 'del d["rules"][0]["cells"][7]["effects"]'),
    ("classic-5x5", "statetype", 'd["puzzles"][1]["state"] = "0101"'),
    ("classic-5x5", "idtype", 'd["puzzles"][0]["id"] = 7'),
    ("classic-5x5", "badstate", 'd["puzzles"][1]["state"][3] = 2'),
    ("classic-5x5", "shortstate", 'd["puzzles"][0]["state"].pop()'),
    ("classic-5x5", "longgoal", 'd["rules"][0]["goal"].append(0)'),
    ("classic-5x5", "badeffect", 'd["rules"][0]["cells"][0]["effects"][0]["cell"] = 25'),
    ("classic-5x5", "norule", 'd["puzzles"][2]["rule"] = "0" * 64'),
    ("classic-5x5", "fraction", 'd["puzzles"][0]["min_presses"] = 1.5'),
    ("classic-5x5", "infinite", 'd["puzzles"][0]["min_presses"] = float("inf")'),
    ("classic-5x5", "huge", 'd["puzzles"][0]["min_presses"] = 10 ** 30'),
    ("classic-5x5", "negative", 'd["puzzles"][0]["index"] = -2'),
    ("classic-5x5", "kind", 'd["rules"][0]["board"]["kind"] = "triangle"'),
    # A single press always changes the board, so a witness with one
    # entry moved no longer solves.
    ("classic-5x5", "witness", 'd["puzzles"][1]["solution"][0] ^= 1'),
    ("classic-5x5", "minpresses", 'd["puzzles"][2]["min_presses"] += 1'),
    ("classic-5x5", "nothing", 'd["puzzles"] = []'),
    # Newtonsoft turns a date-like string into a date unless told not to.
    ("classic-3x3", "datetitle",
     'd["pack"]["title"] = "2024-01-02T03:04:05Z"; d["puzzles"][0]["source"] = "2024-01-02"'),
]
for src, name, code in edits:
    with open(f"{sys.argv[1]}/{src}.json") as f:
        d = json.load(f)
    exec(code)
    with open(f"{sys.argv[1]}/{name}.json", "w") as f:
        json.dump(d, f)
PY

# --- the API against facts from the rule files and the spec ----------------
# Each press line is "cells changed by the press: amounts added". classic
# 3x3 (plus stencil): corner 3 cells, edge 4, centre 5. The ring of six,
# eight colours: a press adds 1 to the cell and its two ring neighbours,
# 8 presses of one cell change nothing. The 5x5 torus: corner 0 reaches
# cells 4 and 20 across both edges. hexrect-goal (odd-r, row 1 is
# "#.##": cells 4, 5, 6 at cols 0, 2, 3): cell 5's neighbours are cells 2,
# 3 above, 6 beside, 9, 10 below (col 1 is a hole). mask-k5-goal: cell 2
# is row 1 col 0; plus with amount 2 reaches cell 3 right and cell 6 below
# (above is a hole). graph-amounts: cell 0's effects as the file lists them.
# Centres: a grid cell at (col, row); odd-r row 1 half a cell right, rows
# sqrt(3)/2 apart; the hexagon of side 3 is rows of 3, 4, 5, 4, 3 cells
# one apart, its widest row from x 0 to 4, the top row centred over it;
# the ring of six on a circle from 12 o'clock, clockwise, neighbours 1.5
# apart.
cat >"$TMP/Api.cs" <<'EOF'
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using Quench;

static class Api
{
    static string dir;

    static Puzzle Load(string name)
    {
        return QuenchPack.ReadFile(Path.Combine(dir, name + ".json")).puzzles[0];
    }

    static string Delta(Puzzle p, int cell, int times)
    {
        Board b = p.NewBoard();
        for (int t = 0; t < times; t++) b.Press(cell);
        var d = new List<string>();
        for (int j = 0; j < b.state.Length; j++) {
            int a = (b.state[j] - p.start[j] + p.colours) % p.colours;
            if (a != 0) d.Add(j + "+" + a);
        }
        return d.Count == 0 ? "none" : string.Join(",", d.ToArray());
    }

    static string F(double v)
    {
        return v.ToString("F6", System.Globalization.CultureInfo.InvariantCulture);
    }

    // Distances between each cell's centre and the cells its press changes.
    static string NeighbourDistances(Puzzle p)
    {
        var ds = new SortedSet<string>();
        foreach (Cell c in p.cells)
            foreach (Effect e in c.effects)
                if (e.cell != c.index) {
                    Cell o = p.cells[e.cell];
                    ds.Add(F(Math.Sqrt((c.x - o.x) * (c.x - o.x) + (c.y - o.y) * (c.y - o.y))));
                }
        return string.Join(" ", ds.ToArray());
    }

    static string Throws(Action a)
    {
        try { a(); return "no exception"; } catch (Exception e) { return e.GetType().Name; }
    }

    static int Main(string[] args)
    {
        dir = args[0];
        for (int i = 1; i < args.Length; i++) {
            Pack pk = QuenchPack.ReadFile(Path.Combine(dir, args[i] + ".json"));
            Console.WriteLine("pack " + pk.name + " " + pk.version + " " + string.Join(" ", pk.puzzleIds) + " ");
        }
        Puzzle c3 = Load("classic-3x3"), ring = Load("ring6-mod8"), torus = Load("torus-5x5");
        Puzzle hex = Load("hexrect-goal"), mask = Load("mask-k5-goal"), graph = Load("graph-amounts");
        Puzzle hexagon = Load("hexagon-3");
        Console.WriteLine("classic corner " + Delta(c3, 0, 1));
        Console.WriteLine("classic edge " + Delta(c3, 1, 1));
        Console.WriteLine("classic centre " + Delta(c3, 4, 1));
        Console.WriteLine("classic centre x2 " + Delta(c3, 4, 2));
        Console.WriteLine("ring 0 " + Delta(ring, 0, 1));
        Console.WriteLine("ring 0 x8 " + Delta(ring, 0, 8));
        Console.WriteLine("torus 0 " + Delta(torus, 0, 1));
        Console.WriteLine("hexrect 5 " + Delta(hex, 5, 1));
        Console.WriteLine("mask 2 " + Delta(mask, 2, 1));
        Console.WriteLine("graph 0 " + Delta(graph, 0, 1));

        Board b = c3.NewBoard();
        b.Press(4);
        b.Press(0);
        b.Reset();
        Console.WriteLine("reset " + b.presses + " " + b.state.SequenceEqual(c3.start));
        Console.WriteLine("press 9 " + Throws(() => c3.NewBoard().Press(9)));
        Console.WriteLine("press -1 " + Throws(() => c3.NewBoard().Press(-1)));
        Board g = hex.NewBoard();
        Array.Copy(hex.goal, g.state, g.state.Length);
        Console.WriteLine("at goal " + g.IsSolved() + " at start " + hex.NewBoard().IsSolved());
        Board w = hex.NewBoard();
        for (int j = 0; j < hex.witness.Length; j++)
            for (int t = 0; t < hex.witness[j]; t++) w.Press(j);
        Console.WriteLine("witness solves " + w.IsSolved() + " " + (w.presses == hex.minPresses));

        Pack pc = QuenchPack.ReadFile(Path.Combine(dir, "classic-3x3.json"));
        Puzzle second = pc.FindPuzzle(pc.puzzleIds[1]);
        Console.WriteLine("find " + second.position + " " + (pc.FindPuzzle("0000000000000000") == null));
        Pack viaToken = QuenchPack.Load(JToken.Parse(File.ReadAllText(Path.Combine(dir, "classic-3x3.json"))));
        Console.WriteLine("load token " + viaToken.puzzleIds.SequenceEqual(pc.puzzleIds));

        Console.WriteLine("grid " + hex.board.kind + " " + c3.board.kind + " cell 5 at " + F(c3.cells[5].x) + " " + F(c3.cells[5].y));
        Console.WriteLine("hexrect " + hex.board.width + "x" + hex.board.height + " cell 4 at "
                          + F(hex.cells[4].x) + " " + F(hex.cells[4].y) + " cell 5 row " + hex.cells[5].row + " col " + hex.cells[5].col);
        Console.WriteLine("hexrect neighbours at " + NeighbourDistances(hex));
        Console.WriteLine("hexagon " + hexagon.board.kind + " side " + hexagon.board.side + " cells " + hexagon.cells.Length);
        Console.WriteLine("hexagon neighbours at " + NeighbourDistances(hexagon));
        var rows = hexagon.cells.GroupBy(c => F(c.y)).OrderBy(r => r.Key)
            .Select(r => string.Join(",", r.Select(c => F(c.x)).ToArray()));
        Console.WriteLine("hexagon rows " + string.Join(" / ", rows.ToArray()));
        Cell r0 = ring.cells[0], r1 = ring.cells[1];
        double cx = ring.cells.Average(c => c.x), cy = ring.cells.Average(c => c.y);
        Console.WriteLine("ring neighbours at " + NeighbourDistances(ring));
        Console.WriteLine("ring cell 0 at 12 o'clock " + (Math.Abs(r0.x - cx) < 1e-9 && r0.y < cy && r0.y == ring.cells.Min(c => c.y))
                          + " cell 1 clockwise " + (r1.x > r0.x) + " top " + F(r0.y));

        Console.WriteLine("refusal " + Where("{\"format\": \"quench-pack\", \"format_version\": 3}")
                          + " " + Where("[") + " " + Where("{\"format\": \"ldtk\"}")
                          + " " + Where(new string('[', 100000)) + " " + QuenchPack.MaxDepth);
        Pack dated = QuenchPack.ReadFile(Path.Combine(dir, "datetitle.json"));
        Console.WriteLine("date-like title " + dated.title + " source " + dated.puzzles[0].source);
        return 0;
    }

    static string Where(string text)
    {
        try { QuenchPack.Parse(text); return "loaded"; }
        catch (QuenchPackException e) { return "'" + e.Where + "'"; }
    }
}
EOF
# -langversion:6 -warnaserror: the loader must build as Unity builds it.
mcs -langversion:6 -warnaserror+ -r:"$JSON_DLL" -r:System.Core -out:"$TMP/api.exe" \
    "$TMP/Api.cs" "$LOADER" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 0 "the loader and the API program compile (C# 6, warnings as errors)"
sed 's/^/    mcs: /' "$TMP/out" | head -n 10
MONO_PATH=$(dirname "$JSON_DLL") mono "$TMP/api.exe" "$TMP" $PACKS >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 0 "the API program runs"
{
    for p in $PACKS; do
        echo "pack $p 1 $(cat "$TMP/$p.ids")"
    done
    cat <<'EOF'
classic corner 0+1,1+1,3+1
classic edge 0+1,1+1,2+1,4+1
classic centre 1+1,3+1,4+1,5+1,7+1
classic centre x2 none
ring 0 0+1,1+1,5+1
ring 0 x8 none
torus 0 0+1,1+1,4+1,5+1,20+1
hexrect 5 2+1,3+1,5+1,6+1,9+1,10+1
mask 2 2+2,3+2,6+2
graph 0 0+1,1+2,4+5
reset 0 True
press 9 ArgumentOutOfRangeException
press -1 ArgumentOutOfRangeException
at goal True at start False
witness solves True True
find 2 True
load token True
grid hex grid cell 5 at 2.000000 1.000000
hexrect 4x3 cell 4 at 0.500000 0.866025 cell 5 row 1 col 2
hexrect neighbours at 1.000000
hexagon hexagon side 3 cells 19
hexagon neighbours at 1.000000
hexagon rows 1.000000,2.000000,3.000000 / 0.500000,1.500000,2.500000,3.500000 / 0.000000,1.000000,2.000000,3.000000,4.000000 / 0.500000,1.500000,2.500000,3.500000 / 1.000000,2.000000,3.000000
ring neighbours at 1.500000
ring cell 0 at 12 o'clock True cell 1 clockwise True top 0.000000
refusal 'format_version' '' 'format' 'document[0][0][0][0][0][0][0][0]' 8
date-like title 2024-01-02T03:04:05Z source 2024-01-02
EOF
} >"$TMP/want"
if diff "$TMP/want" "$TMP/out" >"$TMP/diff"; then ok; else
    not_ok "API checks differ from the rules"
    sed 's/^/    /' "$TMP/diff" | head -n 30
    sed 's/^/    stderr: /' "$TMP/err" | head -n 10
fi

# --- damaged documents (made above) -----------------------------------------
head -c 100 "$TMP/classic-5x5.json" >"$TMP/truncated.json"
: >"$TMP/empty.json"
printf '{"format": "quench-pack\377"}' >"$TMP/latin1.json"

for bad in \
    'version3:format_version: 3 is not supported: this loader reads version 2' \
    'version1:format_version: 1 is not supported' \
    'versiontext:format_version: "2" is not supported' \
    'format:format: "ldtk" is not a quench pack' \
    'nopuzzles:document: missing field "puzzles"' \
    'nominpresses:puzzles[2]: missing field "min_presses"' \
    'noeffects:rules[0].cells[7]: missing field "effects"' \
    'statetype:puzzles[1].state: not an array' \
    'idtype:puzzles[0].id: not a string' \
    'badstate:puzzles[1].state[3]: 2 is outside 0..1' \
    'shortstate:puzzles[0].state: 24 values, the rule has 25 cells' \
    'longgoal:rules[0].goal: 26 values, the rule has 25 cells' \
    'badeffect:rules[0].cells[0].effects[0].cell: 25 is outside 0..24' \
    'norule:puzzles[2].rule: no rule with hash "0000' \
    'fraction:puzzles[0].min_presses: 1.5 is not an integer' \
    'infinite:puzzles[0].min_presses: Infinity is not an integer' \
    'huge:puzzles[0].min_presses: 1e+30 is outside 0..1048576' \
    'negative:puzzles[0].index: -2 is outside -1..' \
    'kind:rules[0].board.kind: "triangle" is not one of grid, hex, hexagon, graph' \
    'truncated:not JSON: ' \
    'empty:not JSON: the text is empty' \
    'latin1:not JSON: the text is not UTF-8'; do
    f=${bad%%:*}
    replay "$TMP/$f.json"
    expect_rc 65 "refuses $f.json"
    expect_err "replay: $TMP/$f.json: ${bad#*:}" "says what is wrong in $f.json"
    expect_empty_out "$f.json"
done

# Puzzles that load but do not replay: F counts them, exit 1.
replay "$TMP/witness.json"
expect_rc 1 "a tampered witness fails"
expect_line "replayed $N puzzles: $((N - 1)) solved, 1 failed" "tampered witness"
expect_err "replay: puzzle 2 (id " "the failed puzzle is named"
expect_err "the witness does not reach the goal" "why the witness fails"
replay "$TMP/minpresses.json"
expect_rc 1 "min_presses off by one fails"
expect_line "replayed $N puzzles: $((N - 1)) solved, 1 failed" "min_presses"
expect_err "min_presses is" "min_presses differs"
replay "$TMP/nothing.json"
expect_rc 1 "an empty pack is not a pass"
expect_line "replayed 0 puzzles: 0 solved, 0 failed" "empty pack"
expect_err "replay: $TMP/nothing.json: the pack has no puzzles" "an empty pack says so"

# Issue #31: nesting, integer bounds, duplicate ids, how values are shown
# (tests/loaders/cases.py, the same documents and messages in every
# runtime).
make_cases "$TMP/classic-5x5.json"
run_cases csharp replay

# Issue #33: each puzzle's human grade as the document has it (human.py),
# null each where an older document has none or writes null.
cat >"$TMP/Human.cs" <<'EOF'
using System;
using Quench;

static class Human
{
    static string S(object v)
    {
        return v == null ? "null" : Convert.ToString(v, System.Globalization.CultureInfo.InvariantCulture);
    }

    static void Main(string[] args)
    {
        foreach (string f in args)
            foreach (Puzzle z in QuenchPack.ReadFile(f).puzzles)
                Console.WriteLine(z.id + " " + S(z.humanLevel) + " " + S(z.humanLevelNumber) + " " +
                                  S(z.humanScore) + " " + S(z.humanModelVersion));
    }
}
EOF
mcs -langversion:6 -warnaserror+ -r:"$JSON_DLL" -r:System.Core -out:"$TMP/human.exe" \
    "$TMP/Human.cs" "$LOADER" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 0 "the human grade program compiles"
set -- "$TMP/classic-5x5.json" "$TMP/ring6-mod8.json" "$TMP/cases/nohuman.json" \
    "$TMP/cases/humannull.json" "$TMP/cases/humanlow.json"
MONO_PATH=$(dirname "$JSON_DLL") mono "$TMP/human.exe" "$@" >"$TMP/human.out" 2>"$TMP/err"
rc=$?
expect_rc 0 "the human grade program runs"
for f in "$@"; do python3 "$TOP/tests/loaders/human.py" "$f"; done >"$TMP/human.want"
if diff "$TMP/human.want" "$TMP/human.out" >"$TMP/diff" 2>&1; then ok; else
    not_ok "the human grade differs from the documents'"
    sed 's/^/    /' "$TMP/diff" | head -20
fi

# --- files, arguments, runtime ----------------------------------------------
replay "$TMP/no-such.json"
expect_rc 66 "a missing file"
expect_err "replay: $TMP/no-such.json: cannot read (" "a missing file is named"
replay ""
expect_rc 66 "an empty path"
mkdir -p "$TMP/rules"
replay "$TMP/rules"
expect_rc 66 "a directory"
expect_err "replay: $TMP/rules: cannot read (a directory)" "a directory is named"
(cd / && "$REPLAY" - <"$TMP/classic-5x5.json") >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 0 "- reads standard input"
expect_line "replayed $N puzzles: $N solved, 0 failed" "standard input"
replay
expect_rc 64 "no argument"
expect_err "usage: replay PACK.json" "usage"
replay "$TMP/classic-5x5.json" "$TMP/classic-3x3.json"
expect_rc 64 "two arguments"
# Unreadable: root reads anything, so as root the driver runs as nobody,
# who cannot write this test's cache either: it compiles into a temporary
# directory of its own, which must go when it ends. Nobody may not reach
# the checkout (a clone inside a 0700 folder): it runs a copy of the
# loader in $TMP, world-readable, so that only the file is what it cannot
# read.
cp "$TMP/classic-5x5.json" "$TMP/locked.json"
chmod 000 "$TMP/locked.json"
chmod 755 "$TMP"
mkdir -m 1777 "$TMP/tmp"
mkdir -m 755 "$TMP/pub"
cp -R "$TOP/loaders/csharp" "$TMP/pub/csharp"
chmod -R a+rX "$TMP/pub"
(cd / && HOME=/nonexistent TMPDIR=$TMP/tmp as_user "$TMP/pub/csharp/replay" "$TMP/locked.json") >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 66 "an unreadable file"
expect_err "locked.json: cannot read" "an unreadable file is named"
expect_eq "$(ls -A "$TMP/tmp")" "" "the temporary program is removed"

# mono and mcs missing: a PATH with the shell's tools but not mono.
mkdir -p "$TMP/bin"
for t in dirname cat sha256sum mkdir mv rm mktemp; do
    ln -s "$(command -v "$t")" "$TMP/bin/$t"
done
PATH=$TMP/bin /bin/sh "$REPLAY" "$TMP/classic-5x5.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 69 "mono missing"
expect_err "apt-get install mono-mcs mono-runtime libnewtonsoft-json-cil-dev" "the packages are named"
QUENCH_NEWTONSOFT=$TMP/none.dll "$REPLAY" "$TMP/classic-5x5.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 69 "Newtonsoft.Json missing"
expect_err "none.dll is missing" "the missing dll is named"

# --- the driver's cache -------------------------------------------------------
# Two replays at once in an empty cache both compile and both pass; one
# program is left, no temporary file.
XDG_CACHE_HOME=$TMP/cache2 "$REPLAY" "$TMP/classic-5x5.json" >"$TMP/out1" 2>&1 &
p1=$!
XDG_CACHE_HOME=$TMP/cache2 "$REPLAY" "$TMP/classic-7x7.json" >"$TMP/out2" 2>&1 &
p2=$!
wait "$p1"; rc=$?
expect_rc 0 "first of two concurrent replays"
wait "$p2"; rc=$?
expect_rc 0 "second of two concurrent replays"
expect_eq "$(cat "$TMP/out1") / $(cat "$TMP/out2")" \
    "replayed $N puzzles: $N solved, 0 failed / replayed $N puzzles: $N solved, 0 failed" \
    "concurrent replays"
expect_eq "$(ls "$TMP/cache2/quench" | sed 's/[0-9a-f]\{16\}/H/')" "replay-H.exe" "one program in the cache"
# A copy of the loader whose press adds one too many: its own program is
# compiled (the cache is keyed by the sources) and every witness fails,
# while the real loader still passes.
mkdir -p "$TMP/broken"
cp "$TOP/loaders/csharp/replay" "$TOP/loaders/csharp/Replay.cs" "$TMP/broken/"
sed 's/(state\[e.cell\] + e.amount \* times) % k/(state[e.cell] + e.amount * times + 1) % k/' "$LOADER" >"$TMP/broken/QuenchPack.cs"
cmp -s "$LOADER" "$TMP/broken/QuenchPack.cs" && not_ok "the press line to break was not found"
"$TMP/broken/replay" "$TMP/classic-5x5.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 1 "a broken press fails"
expect_line "replayed $N puzzles: 0 solved, $N failed" "a broken press"
replay "$TMP/classic-5x5.json"
expect_rc 0 "the real loader after the broken one"
expect_eq "$(ls "$TMP/cache/quench" | wc -l)" 2 "two loaders, two programs"

# Issue #34: the play driver against quench solve (play.sh).
play_packs
play_checks mono "$TOP/loaders/csharp/play"

done_testing
