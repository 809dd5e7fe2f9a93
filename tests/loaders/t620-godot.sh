#!/bin/sh
# t620: the Godot loader (loaders/godot/quench_pack.gd) and its replay
# driver (loaders/godot/replay) in headless Godot 3 (godot3-server).
# Packs from every rule in rules/, plus a masked hex rectangle, a masked
# grid with five colours and press amount 2, and a graph whose presses add
# 1 to 5 mod 6 (all three with non-zero goals), are replayed: every
# witness must reach the goal in exactly min_presses presses. Damaged
# documents must be refused or fail. Facts from outside quench: the puzzle
# counts asked of generate, the spec's press rule (docs/EXPORT.md), the
# rules' own files (stencils, effects), Lights Out's plus stencil on 3x3
# and the hexagon's 3S^2 - 3S + 1 cells. A missing runtime FAILS (CI
# installs godot3-server).
. "$(dirname "$0")/../cli/lib.sh"
. "$TOP/tests/loaders/cases.sh"
. "$TOP/tests/loaders/play.sh"

LOADER=$TOP/loaders/godot
REPLAY=$LOADER/replay
GODOT=${QUENCH_GODOT:-godot3-server}
DB=$TMP/x.db
N=3

command -v "$GODOT" >/dev/null 2>&1 && ok ||
    not_ok "$GODOT is missing (apt-get install godot3-server)"
command -v python3 >/dev/null 2>&1 && ok || not_ok "python3 is missing"

# replay ARGS: the driver, run from another directory than the pack's
# (it must not depend on it) with TMPDIR in $TMP/tmp (checked empty at
# the end: the driver cleans up); sets $rc, $TMP/out, $TMP/err.
mkdir -p "$TMP/elsewhere" "$TMP/tmp" "$TMP/run"
replay() {
    (cd "$TMP/elsewhere" && TMPDIR=$TMP/tmp "$REPLAY" "$@") \
        >"$TMP/out" 2>"$TMP/err" </dev/null
    rc=$?
}
# no_script_error LABEL: Godot reported no GDScript error (a runtime error
# does not stop the script, only the function it happens in).
no_script_error() {
    if grep -q 'SCRIPT ERROR' "$TMP/err"; then
        not_ok "$1: a script error"
        grep -A1 'SCRIPT ERROR' "$TMP/err" | head -n 6 | sed 's/^/    /'
    else ok; fi
}
# expect_line LINE LABEL: stdout is exactly that one line.
# --- every rule (rules/, and tests/loaders/rules/: what rules/ lacks), a
# pack of $N puzzles each, exported as json, replayed ------
for r in "$TOP"/rules/*.yaml "$TOP"/tests/loaders/rules/*.yaml; do
    name=$(basename "$r" .yaml)
    q generate "$r" -n "$N" --seed 1 --db "$DB" --pack "$name"
    expect_rc 0 "generate $name"
    sed -n 's/.*"type":"puzzle","id":"\([0-9a-f]\{16\}\)".*/\1/p' "$TMP/out" |
        tr '\n' ' ' >"$TMP/$name.ids"
    q export "$name" --format json --db "$DB" -o "$TMP/$name.json"
    expect_rc 0 "export $name"
    replay "../$name.json"
    expect_rc 0 "replay $name"
    expect_line "replayed $N puzzles: $N solved, 0 failed" "replay $name"
done
left=$(find "$TMP/elsewhere" "$TMP/tmp" -mindepth 1)
expect_eq "$left" "" "replay leaves no files behind"

# --- the script's API against facts from the spec and the rule files ------
# One Godot run; api.gd writes its findings to api.out, compared below.
# Each delta line is "cells changed by the presses: amounts". Classic
# Lights Out on 3x3 toggles the cell and its orthogonal neighbours; on the
# ring of six (mod 8) a press adds 1 to the cell and its two ring
# neighbours, and eight presses of one cell change nothing; on the torus a
# corner press reaches across both edges; hexrect-goal is odd-r with a
# hole at row 1 col 1, so cell 5 is row 1 col 2 and touches itself, cell 6
# (col 3; col 1 is the hole), cells 2, 3 above and 9, 10 below (odd rows
# reach cols c and c + 1 of the rows around); mask-k5-goal's cell 2 is
# row 1 col 0 (row 0 holds cells 0, 1) and its plus adds 2 to itself,
# cell 3 and cell 6 (above is a hole); graph-amounts' cell 0 is its
# file's [[0, 1], [1, 2], [4, 5]], and six presses of it change nothing
# (mod 6).
cat >"$TMP/api.gd" <<'GD'
extends SceneTree
var lines := []
var QP

# The arguments after --: LOADER_DIR PACK_DIR OUT.
func user_args() -> Array:
	var args := Array(OS.get_cmdline_args())
	return args.slice(args.find("--") + 1, args.size() - 1)

func out(s) -> void:
	lines.append(str(s))

func first(name: String):
	return QP.read_file(user_args()[1] + "/" + name + ".json").puzzles[0]

func delta(p, cell: int, times := 1) -> String:
	var b = p.new_board()
	for _t in times:
		b.press(cell)
	var d := PoolStringArray()
	for j in p.ncells:
		var a = (b.state[j] - p.start[j] + p.colours) % p.colours
		if a != 0:
			d.append("%d+%d" % [j, a])
	return d.join(",") if d.size() > 0 else "none"

func near(a: float, b: float) -> bool:
	return abs(a - b) < 1e-9

# neighbours(p): the distances between the centres of each cell and the
# other cells its press changes, rounded, distinct.
func neighbours(p) -> String:
	var ds := []
	for j in p.ncells:
		for e in p.cells[j].effects:
			if e.cell != j:
				var s: String = "%.6f" % p.centres[j].distance_to(p.centres[e.cell])
				if not ds.has(s):
					ds.append(s)
	return PoolStringArray(ds).join(" ")

func _init() -> void:
	var args := user_args()
	QP = load(args[0] + "/quench_pack.gd")
	var pack = QP.read_file(args[1] + "/classic-3x3.json")
	out("pack %s %d %s %d" % [pack.name, pack.version, PoolStringArray(pack.puzzle_ids).join(" "), pack.error])
	var c3 = pack.puzzle(pack.puzzle_ids[1])
	out("puzzle %d %s %d %d %s" % [c3.position, c3.board.kind, c3.colours, c3.ncells, pack.puzzle("0000000000000000")])
	out("ints %d %d %d" % [typeof(c3.min_presses), typeof(c3.cells[4].effects[0].amount), typeof(c3.board.width)])
	out("classic corner " + delta(c3, 0))
	out("classic edge " + delta(c3, 1))
	out("classic centre " + delta(c3, 4))
	out("classic centre x2 " + delta(c3, 4, 2))
	var b = c3.new_board()
	b.press(4)
	b.press(0)
	b.reset()
	out("reset %d %s" % [b.presses, b.equals(c3.start)])
	var bad := []
	for cell in [9, -1, "4", 4.0, null]:
		bad.append("%d" % b.press(cell))
	out("bad presses %s %d %s" % [PoolStringArray(bad).join(" "), b.presses, b.equals(c3.start)])
	var g = c3.new_board()
	g.state = PoolIntArray(c3.goal)
	out("at goal %s at start %s" % [g.is_solved(), c3.new_board().is_solved()])
	out("grid centres %s %s" % [c3.centres[0], c3.centres[5]])
	var ring = first("ring6-mod8")
	out("ring 0 " + delta(ring, 0))
	out("ring 0 x8 " + delta(ring, 0, 8))
	var r: float = ring.centres[0].x
	out("ring top %s %s, neighbours at %s" % [near(ring.centres[0].y, 0.0),
			near(ring.centres[3].x, r) and near(ring.centres[3].y, 2.0 * r), neighbours(ring)])
	out("torus 0 " + delta(first("torus-5x5"), 0))
	var hx = first("hexrect-goal")
	out("hex 5 " + delta(hx, 5))
	out("hex %s %d %d %s neighbours at %s" % [hx.board.kind, hx.board.width, hx.board.height, hx.centres[5], neighbours(hx)])
	var hg = first("hexagon-3")
	var left := INF
	for c in hg.centres:
		left = min(left, c.x)
	out("hexagon %d cells, side %d, leftmost %s, neighbours at %s" % [hg.ncells, hg.board.side, left, neighbours(hg)])
	out("mask 2 " + delta(first("mask-k5-goal"), 2))
	var gr = first("graph-amounts")
	out("graph 0 " + delta(gr, 0) + ", x6 " + delta(gr, 0, 6))
	var v3 = QP.from_data({"format": "quench-pack", "format_version": 3})
	out("version 3: %s %s" % [v3.error == ERR_INVALID_DATA, v3.error_string.begins_with("format_version: 3 ")])
	var missing = QP.read_file(args[1] + "/no-such.json")
	out("missing: %s %d" % [missing.error == ERR_FILE_NOT_FOUND, missing.puzzles.size()])
	var empty = QP.parse("")
	out("empty: %s" % [empty.error == ERR_PARSE_ERROR])
	var f := File.new()
	f.open(args[2], File.WRITE)
	f.store_string(PoolStringArray(lines).join("\n") + "\n")
	f.close()
	quit(0)
GD
(cd "$TMP/run" && "$GODOT" --quiet --quit -s "$TMP/api.gd" -- \
    "$LOADER" "$TMP" "$TMP/api.out") >"$TMP/out" 2>"$TMP/err" </dev/null
rc=$?
expect_rc 0 "api checks"
no_script_error "api checks"
# Godot's TYPE_INT is 2. A bad press returns ERR_PARAMETER_RANGE_ERROR
# (5) and changes nothing. The ring's radius r puts cell 0 at (r, 0) and
# cell 3 opposite at (r, 2r); cells 1.5 apart. hexrect-goal's cell 5 is
# row 1 col 2: (2.5, sqrt(3)/2).
cat >"$TMP/want" <<EOF
pack classic-3x3 1 $(cat "$TMP/classic-3x3.ids")0
puzzle 2 grid 2 9 Null
ints 2 2 2
classic corner 0+1,1+1,3+1
classic edge 0+1,1+1,2+1,4+1
classic centre 1+1,3+1,4+1,5+1,7+1
classic centre x2 none
reset 0 True
bad presses 5 5 5 5 5 0 True
at goal True at start False
grid centres (0, 0) (2, 1)
ring 0 0+1,1+1,5+1
ring 0 x8 none
ring top True True, neighbours at 1.500000
torus 0 0+1,1+1,4+1,5+1,20+1
hex 5 2+1,3+1,5+1,6+1,9+1,10+1
hex hex 4 3 (2.5, 0.866025) neighbours at 1.000000
hexagon 19 cells, side 3, leftmost 0, neighbours at 1.000000
mask 2 2+2,3+2,6+2
graph 0 0+1,1+2,4+5, x6 none
version 3: True True
missing: True 0
empty: True
EOF
if diff "$TMP/want" "$TMP/api.out" >"$TMP/diff" 2>&1; then ok; else
    not_ok "api checks differ from the spec"
    sed 's/^/    /' "$TMP/diff"
fi

# --- damaged documents -------------------------------------------------------
# Each line of damage.txt: NAME, then Python run on classic-5x5's document
# as `d`; $TMP/NAME.json is the result. The string "INF" becomes the
# number 1e400 (a float Godot reads as inf).
cat >"$TMP/damage.txt" <<'EOF'
version3 d["format_version"] = 3
version1 d["format_version"] = 1
versiontext d["format_version"] = "2"
format d["format"] = "ldtk"
noformat del d["format"]
notobject d = [d]
nopuzzles del d["puzzles"]
nostate del d["puzzles"][1]["state"]
noeffects del d["rules"][0]["cells"][7]["effects"]
puzzlesobject d["puzzles"] = {}
nametype d["pack"]["name"] = 5
colourstext d["rules"][0]["colours"] = "2"
shortstate d["puzzles"][0]["state"].pop()
longsolution d["puzzles"][2]["solution"].append(0)
statecolour d["puzzles"][1]["state"][3] = 2
badeffect d["rules"][0]["cells"][0]["effects"][0]["cell"] = 25
noeffect d["rules"][0]["cells"][3]["effects"] = []
fraction d["puzzles"][0]["min_presses"] = 1.5
infinite d["puzzles"][0]["min_presses"] = "INF"
huge d["puzzles"][0]["index"] = 2 ** 60
norule d["puzzles"][2]["rule"] = "0" * 64
position d["puzzles"][1]["position"] = 3
kind d["rules"][0]["board"]["kind"] = "cube"
badid d["puzzles"][0]["id"] = "ABC"
witness d["puzzles"][1]["solution"][0] ^= 1
minpresses d["puzzles"][2]["min_presses"] += 1
empty d["puzzles"] = []
EOF
python3 -c 'import json, sys
for line in open(sys.argv[1]):
    name, code = line.rstrip("\n").split(" ", 1)
    d = json.load(open(sys.argv[2]))
    exec(code)
    open(sys.argv[3] + "/" + name + ".json", "w").write(
        json.dumps(d).replace("\"INF\"", "1e400"))' \
    "$TMP/damage.txt" "$TMP/classic-5x5.json" "$TMP" ||
    not_ok "cannot make the damaged documents"
head -c 100 "$TMP/classic-5x5.json" >"$TMP/truncated.json"
printf '\377\376{}' >"$TMP/latin.json"
# 100 KB nested 50,000 deep: JSON.parse crashed the engine on it (read
# in a Godot run of its own, below, so that a crash fails one check).
mkdir -p "$TMP/deeprun"
python3 -c 'print("[" * 50000 + "]" * 50000, end="")' >"$TMP/deeprun/deep.json"
: >"$TMP/emptyfile.json"

# One Godot run reads every damaged document with read_file and writes
# "NAME ERROR error_string" per file. Godot's Error values: 30
# ERR_INVALID_DATA (refused), 43 ERR_PARSE_ERROR (not JSON).
cat >"$TMP/refusals.gd" <<'GD'
extends SceneTree
func _init() -> void:
	var args := Array(OS.get_cmdline_args())
	args = args.slice(args.find("--") + 1, args.size() - 1)
	var QP = load(args[0] + "/quench_pack.gd")
	var f := File.new()
	f.open(args[1] + "/refusals.out", File.WRITE)
	for name in args.slice(2, args.size() - 1):
		var pack = QP.read_file(args[1] + "/" + name + ".json")
		f.store_line("%s %d %s" % [name, pack.error, pack.error_string])
	f.close()
	quit(0)
GD
names=$(cut -d' ' -f1 "$TMP/damage.txt" | tr '\n' ' ')
# $names unquoted: one argument per name (no blanks in them).
# shellcheck disable=SC2086
(cd "$TMP/run" && "$GODOT" --quiet --quit -s "$TMP/refusals.gd" -- \
    "$LOADER" "$TMP" $names truncated latin emptyfile) \
    >"$TMP/out" 2>"$TMP/err" </dev/null
rc=$?
expect_rc 0 "reading the damaged documents"
no_script_error "reading the damaged documents"
(cd "$TMP/run" && "$GODOT" --quiet --quit -s "$TMP/refusals.gd" -- \
    "$LOADER" "$TMP/deeprun" deep) >"$TMP/out" 2>"$TMP/err" </dev/null
rc=$?
expect_rc 0 "reading a document nested 50,000 deep"
no_script_error "reading a document nested 50,000 deep"
cat "$TMP/deeprun/refusals.out" >>"$TMP/refusals.out"
# refused NAME ERROR MESSAGE: read_file gave that error and a message
# starting with MESSAGE (the place, then what is wrong).
refused() {
    got=$(grep "^$1 " "$TMP/refusals.out" | cut -d' ' -f2-)
    case $got in
    "$2 $3"*) ok ;;
    *) not_ok "$1: got '$got', want '$2 $3...'" ;;
    esac
}
refused version3 30 'format_version: 3 is not supported: this loader reads version 2'
refused version1 30 'format_version: 1 is not supported'
refused versiontext 30 'format_version: "2" is not supported'
refused format 30 'format: "ldtk" is not a quench pack'
refused noformat 30 'document: missing field "format"'
refused notobject 30 'document: not an object'
refused nopuzzles 30 'document: missing field "puzzles"'
refused nostate 30 'puzzles[1]: missing field "state"'
refused noeffects 30 'rules[0].cells[7]: missing field "effects"'
refused puzzlesobject 30 'puzzles: not an array'
refused nametype 30 'pack.name: not a string'
refused colourstext 30 'rules[0].colours: "2" is not an integer'
refused shortstate 30 'puzzles[0].state: 24 values, the rule has 25 cells'
refused longsolution 30 'puzzles[2].solution: 26 values, the rule has 25 cells'
refused statecolour 30 'puzzles[1].state[3]: 2 is outside 0..1'
refused badeffect 30 'rules[0].cells[0].effects[0].cell: 25 is outside 0..24'
refused noeffect 30 'rules[0].cells[3].effects: empty'
refused fraction 30 'puzzles[0].min_presses: 1.5 is not an integer'
refused infinite 30 'puzzles[0].min_presses: Infinity is not an integer'
refused huge 30 'puzzles[0].index: 1.15292e+18 is outside -1..9007199254740991'
refused norule 30 'puzzles[2].rule: no rule with hash "0000'
refused position 30 'puzzles[1].position: 3, expected 2'
refused kind 30 'rules[0].board.kind: "cube" is not one of grid, hex, hexagon, graph'
refused badid 30 'puzzles[0].id: not 16 lowercase hex digits'
refused truncated 43 'not JSON: '
refused latin 43 'not JSON: the text is not UTF-8'
refused emptyfile 43 'not JSON: the text is empty'
refused deep 30 'document[0][0][0][0][0][0][0][0]: nesting deeper than 8'
refused witness 0 ''
refused empty 0 ''

# The driver on refused documents: exit 65, the file (as named) and the
# problem on stderr, nothing on stdout.
for f in version3:"format_version: 3 is not supported" \
         badeffect:"rules[0].cells[0].effects[0].cell: 25 is outside 0..24" \
         truncated:"not JSON: "; do
    replay "../${f%%:*}.json"
    expect_rc 65 "replay refuses ${f%%:*}"
    expect_err "replay: ../${f%%:*}.json: ${f#*:}" "replay says what is wrong in ${f%%:*}"
    expect_empty_out "replay ${f%%:*}"
done

# Documents that load but do not replay: F counts them, exit 1. One more
# press of cell 0 changes the board (every press changes something), so
# the tampered witness misses the goal.
replay "$TMP/witness.json"
expect_rc 1 "a tampered witness fails"
expect_line "replayed $N puzzles: $((N - 1)) solved, 1 failed" "tampered witness"
expect_err "replay: puzzle 2 (id " "the failed puzzle is named"
expect_err "the witness does not reach the goal" "why the witness fails"
replay "$TMP/minpresses.json"
expect_rc 1 "min_presses off by one fails"
expect_line "replayed $N puzzles: $((N - 1)) solved, 1 failed" "min_presses off by one"
expect_err "min_presses is" "says min_presses differs"
replay "$TMP/empty.json"
expect_rc 1 "an empty pack is not a pass"
expect_line "replayed 0 puzzles: 0 solved, 0 failed" "empty pack"
expect_err "replay: $TMP/empty.json: the pack has no puzzles" "an empty pack says so"

# Issue #31: nesting (100 KB nested 50,000 deep crashed the engine in
# JSON.parse), integer bounds, duplicate ids, how values are shown
# (tests/loaders/cases.py, the same documents and messages in every
# runtime). No script error either.
make_cases "$TMP/classic-5x5.json"
run_cases godot replay

# Issue #33: each puzzle's human grade as the document has it (human.py),
# null each where an older document has none or writes null.
cat >"$TMP/human.gd" <<'GD'
extends SceneTree

func s(v) -> String:
	return "null" if typeof(v) == TYPE_NIL else str(v)

func _init() -> void:
	var args := Array(OS.get_cmdline_args())
	args = args.slice(args.find("--") + 1, args.size() - 1)
	var QP = load(args[0] + "/quench_pack.gd")
	var lines := []
	for i in range(2, args.size()):
		var pack = QP.read_file(args[i])
		if pack.error != OK:
			lines.append("refused " + pack.error_string)
		for z in pack.puzzles:
			lines.append("%s %s %s %s %s" % [z.id, s(z.human_level), s(z.human_level_number),
					s(z.human_score), s(z.human_model_version)])
	var f := File.new()
	f.open(args[1], File.WRITE)
	f.store_string(PoolStringArray(lines).join("\n") + "\n")
	f.close()
	quit(0)
GD
set -- "$TMP/classic-5x5.json" "$TMP/ring6-mod8.json" "$TMP/cases/nohuman.json" \
    "$TMP/cases/humannull.json" "$TMP/cases/humanlow.json"
(cd "$TMP/run" && "$GODOT" --quiet --quit -s "$TMP/human.gd" -- \
    "$LOADER" "$TMP/human.out" "$@") >"$TMP/out" 2>"$TMP/err" </dev/null
rc=$?
expect_rc 0 "human grade run"
no_script_error "human grade run"
for f in "$@"; do python3 "$TOP/tests/loaders/human.py" "$f"; done >"$TMP/human.want"
if diff "$TMP/human.want" "$TMP/human.out" >"$TMP/diff" 2>&1; then ok; else
    not_ok "the human grade differs from the documents'"
    sed 's/^/    /' "$TMP/diff" | head -20
fi

# --- files that cannot be read, usage, standard input, no runtime -----------
replay "$TMP/no-such.json"
expect_rc 66 "a missing file"
expect_err "replay: $TMP/no-such.json: cannot read (no such file)" "a missing file is named"
expect_empty_out "a missing file"
mkdir -p "$TMP/rules"
replay "$TMP/rules"
expect_rc 66 "a directory"
replay ""
expect_rc 66 "an empty path"
cp "$TMP/classic-5x5.json" "$TMP/secret.json"
chmod 000 "$TMP/secret.json"
chmod 755 "$TMP" "$TMP/elsewhere"
chmod 777 "$TMP/tmp"
# As root, as_user runs the driver as nobody, who may not reach the
# checkout (a clone inside a 0700 folder): it runs a copy of the loader
# in $TMP, world-readable, so that only the file is what it cannot read.
mkdir -m 755 "$TMP/pub"
cp -R "$LOADER" "$TMP/pub/godot"
chmod -R a+rX "$TMP/pub"
(cd "$TMP/elsewhere" && TMPDIR=$TMP/tmp as_user "$TMP/pub/godot/replay" "$TMP/secret.json") \
    >"$TMP/out" 2>"$TMP/err" </dev/null
rc=$?
expect_rc 66 "an unreadable file"
expect_err "replay: $TMP/secret.json: cannot read (" "an unreadable file"
replay
expect_rc 64 "no file"
expect_err "usage: replay PACK.json" "no file"
replay "$TMP/classic-5x5.json" "$TMP/classic-3x3.json"
expect_rc 64 "two files"
(cd "$TMP/elsewhere" && "$REPLAY" - <"$TMP/classic-3x3.json") >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 0 "the pack on standard input"
expect_line "replayed $N puzzles: $N solved, 0 failed" "the pack on standard input"
QUENCH_GODOT=no-such-godot "$REPLAY" "$TMP/classic-5x5.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 69 "a runtime that is not installed"
expect_err "no-such-godot is not installed (apt-get install godot3-server" "the package is named"
# A GDScript runtime error ends only the function it happens in, and the
# script goes on: a copy of the loader whose press() fails after
# changing the board must give 70, not a verdict.
cp -R "$LOADER" "$TMP/broken"
sed 's/^\t\tpresses = history.size()$/\t\tpresses = puzzle.no_such_field/' \
    "$LOADER/quench_pack.gd" >"$TMP/broken/quench_pack.gd"
(cd "$TMP/elsewhere" && TMPDIR=$TMP/tmp "$TMP/broken/replay" "$TMP/classic-3x3.json") \
    >"$TMP/out" 2>"$TMP/err" </dev/null
rc=$?
expect_rc 70 "a script error in the loader"
expect_err "replay: a script error in the loader" "a script error in the loader"
expect_empty_out "a script error in the loader"
left=$(find "$TMP/elsewhere" "$TMP/tmp" -mindepth 1)
expect_eq "$left" "" "replay leaves no files behind"

# Issue #34: the play driver against quench solve (play.sh).
play_packs
play_checks godot3-server "$TOP/loaders/godot/play"

done_testing
