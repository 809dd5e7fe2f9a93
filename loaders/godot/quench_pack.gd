# quench_pack.gd: load a quench pack (`quench export --format json`, the
# "quench-pack" document, format version 2: docs/EXPORT.md and
# docs/quench-pack.schema.json) into a Godot 3 game. One GDScript file, no
# dependencies, no project settings: copy it anywhere under res://.
#
#   const QuenchPack = preload("res://quench/quench_pack.gd")
#   var pack = QuenchPack.read_file("res://packs/starter.json")
#   if pack.error != OK:
#       push_error(pack.error_string)   # "puzzles[3].state: 9 values, ..."
#   var puzzle = pack.puzzles[0]        # or pack.puzzle(id)
#   var board = puzzle.new_board()      # at puzzle.start
#   board.press(cell)                   # the rule's effects, mod colours
#   if board.is_solved(): ...           # state equals goal
#   board.undo()                        # take back the last press
#   board.presses_left()                # the least presses from here
#   board.hint()                        # a cell of an optimal plan (-1: solved)
#   board.reset()                       # back to the start
#
# Cells are numbered from 0, as in the document: press(0) presses the
# document's cell 0, and every cell list (start, goal, witness, state,
# cells, centres) is indexed the same way.
#
# The document is checked before anything is returned. Godot has no
# exceptions, so a document this script cannot load gives a Pack whose
# `error` is not OK (like JSON.parse's JSONParseResult) and whose
# `error_string` says where and what ("rules[0].cells[3].effects[1].cell:
# 25 is outside 0..24"); its other fields are then empty, so a game never
# plays half a pack. Refused: not JSON, nesting deeper than MAX_DEPTH, a
# format other than "quench-pack", a format_version other than 2, a
# missing field, a wrong type, a number that is not an integer, a value
# out of range, two puzzles with one id. Fields this script does not use
# are ignored (format_version 2 fixes them). The limits and the messages
# are the same in the four loaders of loaders/ (docs/EXPORT.md, "What
# every loader refuses").
#
# Godot 3's JSON.parse recurses once per nesting level and crashes the
# engine (SIGSEGV) on a document nested some ten thousand deep: parse()
# bounds the nesting before JSON.parse sees the text.
#
# Godot 3's JSON.parse gives every number as a float: each integer field
# is checked to be integral, finite and in its range (every range lies
# within 2^53, where a double holds every integer exactly), then converted
# to int.
#
# A game never implements a topology: press(j) adds, for every effect e of
# cell j, e.amount to cell e.cell mod colours. The board geometry (kind,
# width, height, wrap, side and each cell's row/col) is only for drawing;
# rule.centres (also puzzle.centres) gives each cell's position.
#
# Hints without a solver (docs/EXPORT.md, "Hints"): the position is always
# the start plus the presses made, so (witness - presses) mod colours is a
# plan from it, and every plan from it is that one plus a quiet pattern of
# the rule's kernel (generators and their orders, from the document).
# presses_left() and hint() walk that coset, at most MAX_KERNEL_WALK
# elements; past it (or for a document without a kernel, from an older
# quench) they use that plan itself: valid, not always the shortest, and
# rule.hints_exact says so.
#
# Godot 3's JSON.parse also takes some text that is not strict JSON (a
# trailing comma, text after the document); what it returns must still
# pass every check here. On bad JSON it prints an ERROR line of its own.
#
# Godot 4 (not tested: CI has Godot 3): the same code with Reference ->
# RefCounted, TYPE_REAL -> TYPE_FLOAT, PoolIntArray -> PackedInt32Array,
# PoolVector2Array -> PackedVector2Array, File -> FileAccess (read_file),
# JSON.parse(text) -> JSON.new().parse(text) with .data and
# .get_error_message() (parse), and in _Reader PoolByteArray ->
# PackedByteArray, to_utf8() -> to_utf8_buffer(), subarray(a, b) ->
# slice(a, b + 1) and ord_at -> unicode_at.
extends Reference

const FORMAT := "quench-pack"
const FORMAT_VERSION := 2
# Arrays and objects nest at most this deep (a pack needs 7).
const MAX_DEPTH := 8
const MAX_CELLS := 4096
# Generators of a rule's kernel a document may list.
const MAX_KERNEL := 64
# Elements of a kernel presses_left() and hint() walk.
const MAX_KERNEL_WALK := 65536
const MAX_RULES := 256
const MAX_TIERS := 16
const MAX_PUZZLES := 1048576 # 2^20
# Press counts (min_presses, tier bounds): a witness presses each of at
# most 4096 cells at most 254 times, 1,040,384 in all.
const MAX_PRESSES := 1048576 # 2^20
# Other counts (pack version, optimal solutions, index): what a double
# holds exactly, so every runtime reads the same number.
const MAX_COUNT := 9007199254740991 # 2^53 - 1
const BOARD_KINDS := ["grid", "hex", "hexagon", "graph"]
const WRAPS := ["none", "x", "y", "both"]
# The human grade (docs/GENERATE.md, "The human ladder"): the rungs in
# order (human_level_number is the index), and the score's bound in
# thousandths (the schema's).
const HUMAN_LEVELS := ["spot", "chase", "table", "global"]
const MAX_HUMAN_SCORE := 1000000000000
const HEX_DIGITS := "0123456789abcdef"


# parse(text): the pack in a JSON text (a byte order mark at its start is
# skipped). Bad JSON is error ERR_PARSE_ERROR, a document this script
# refuses (nesting deeper than MAX_DEPTH included) ERR_INVALID_DATA.
static func parse(text: String) -> Pack:
	if text.begins_with(char(0xfeff)):
		text = text.substr(1, text.length() - 1)
	var blank := true
	for i in text.length():
		if not (text.ord_at(i) in [32, 9, 13, 10]):
			blank = false
			break
	if blank:
		return _failed(ERR_PARSE_ERROR, "not JSON: the text is empty")
	var reader := _Reader.new()
	var deep: String = reader.nesting(text)
	if deep != "":
		return _failed(ERR_INVALID_DATA, deep)
	var json := JSON.parse(text)
	if json.error != OK:
		return _failed(ERR_PARSE_ERROR, "not JSON: %s (line %d)"
				% [reader.controls(json.error_string), json.error_line + 1])
	return from_data(json.result)


# from_data(doc): the pack in a document already parsed (a Dictionary).
static func from_data(doc) -> Pack:
	var reader := _Reader.new()
	var pack: Pack = reader.pack(doc)
	if reader.why != "":
		return _failed(ERR_INVALID_DATA, reader.why)
	# Here, not in _Reader: an inner class cannot call this script's
	# static functions.
	for r in pack.rules:
		r.centres = centres(r)
	for z in pack.puzzles:
		z.centres = z.rule.centres
	return pack


# read_file(path): parse() the file at path (res://, user:// or a path on
# disk). A file that cannot be read gives File.open's error (such as
# ERR_FILE_NOT_FOUND) and "PATH: cannot read (...)".
static func read_file(path: String) -> Pack:
	var f := File.new()
	var err := f.open(path, File.READ)
	if err != OK:
		return _failed(err, "%s: cannot read (%s)" % [path, _file_error(err)])
	var bytes := f.get_buffer(f.get_len())
	err = f.get_error()
	f.close()
	if err != OK and err != ERR_FILE_EOF:
		return _failed(err, "%s: cannot read (%s)" % [path, _file_error(err)])
	var text := bytes.get_string_from_utf8()
	if text == "" and bytes.size() > 0:
		return _failed(ERR_PARSE_ERROR, "not JSON: the text is not UTF-8")
	return parse(text)


static func _file_error(err: int) -> String:
	match err:
		ERR_FILE_NOT_FOUND:
			return "no such file"
		ERR_FILE_NO_PERMISSION:
			return "permission denied"
		ERR_FILE_CANT_OPEN:
			return "cannot open it"
	return "error %d" % err


static func _failed(err: int, why: String) -> Pack:
	var pack := Pack.new()
	pack.error = err
	pack.error_string = why
	return pack


# centres(rule): where to draw each cell, a Vector2 per cell in cell order,
# in units of one cell width (neighbouring centres 1 apart), origin at the
# top-left position, y down (Godot's 2D axes). Grid: the cell's column and
# row. Hex (odd-r): odd rows half a cell right, rows sqrt(3)/2 apart.
# Hexagon (axial): x = col + row / 2, y = row * sqrt(3) / 2, shifted so the
# leftmost cell is at x 0. Graph: evenly spaced clockwise on a circle from
# 12 o'clock, in cell order, neighbours 1.5 apart. The same layout as
# quench's svg and html exports (src/export/svg.h). The loader stores
# it in rule.centres.
static func centres(rule) -> PoolVector2Array:
	var h := sqrt(3.0) / 2.0
	var out := PoolVector2Array()
	var cells: Array = rule.cells
	match rule.board.kind:
		"grid":
			for c in cells:
				out.append(Vector2(c.col, c.row))
		"hex":
			for c in cells:
				out.append(Vector2(c.col + (c.row % 2) * 0.5, c.row * h))
		"hexagon":
			var x0 := INF
			for c in cells:
				x0 = min(x0, c.col + c.row * 0.5)
			for c in cells:
				out.append(Vector2(c.col + c.row * 0.5 - x0, c.row * h))
		_:
			# Radius so that neighbours on the ring are 1.5 cells apart.
			var n := cells.size()
			var r := 0.0
			if n >= 2:
				r = 1.5 / (2.0 * sin(PI / n))
			for i in n:
				var a: float = 2.0 * PI * i / n
				out.append(Vector2(r + r * sin(a), r - r * cos(a)))
	return out


# A loaded pack. error is OK, or why the document was refused (then
# error_string says where and what, and the lists are empty).
class Pack:
	extends Reference
	var error := OK
	var error_string := ""
	var name := ""
	var title := ""
	var description := ""
	var author := ""
	var version := 0
	var puzzle_ids := [] # in pack order
	var rules := []      # of Rule, in document order
	var puzzles := []    # of Puzzle, in pack order
	var _by_id := {}
	var _by_slot := {}

	# puzzle(id): the puzzle with that id, or null (ids are unique: the
	# loader refuses a pack where two puzzles share one).
	func puzzle(id: String) -> Puzzle:
		return _by_id.get(id)

	# by_slot(slot): the puzzle in that level slot, or null.
	func by_slot(slot: int) -> Puzzle:
		return _by_slot.get(slot)

# A rule: the board and what each press does. board is {kind, width,
# height, wrap, side}; cells[j] is {index, row, col, effects: [{cell,
# amount}]}; tiers [{name, lo, hi}]; centres[j] where to draw cell j;
# kernel [{order, presses}] the quiet patterns' generators (has_kernel
# false: the document had none), kernel_size their number of elements (0
# past MAX_KERNEL_WALK), hints_exact whether hints walk them all.
class Rule:
	extends Reference
	var rule_hash := "" # the document's "hash" (hash is a GDScript function)
	var name := ""
	var title := ""
	var description := ""
	var author := ""
	var colours := 0
	var board := {}
	var ncells := 0
	var goal := PoolIntArray()
	var cells := []
	var tiers := []
	var centres := PoolVector2Array()
	var kernel := []
	var has_kernel := false
	var kernel_size := 0
	var hints_exact := false


# A puzzle of the pack. start is the document's `state`, witness its
# `solution` (press cell j witness[j] times); colours, board, ncells,
# cells, goal and centres are the rule's, repeated so a game needs only
# the puzzle.
class Puzzle:
	extends Reference
	var id := ""
	var position := 0
	var rule: Rule
	var colours := 0
	var board := {}
	var ncells := 0
	var cells := []
	var goal := PoolIntArray()
	var centres := PoolVector2Array()
	var start := PoolIntArray()
	var witness := PoolIntArray()
	var min_presses := 0
	var optimal_solutions := 0
	var grade := ""
	var grader_version := ""
	var seed_hex := "" # the document's "seed" (seed is a GDScript function)
	var index := 0
	var submission := ""
	var source := ""
	var meta := ""
	# the level slot, a save-game key kept when the level is re-rolled (0
	# in a document of an older quench), and the recipe section ("" when
	# none)
	var slot := 0
	var section := ""
	# the human grade: the ladder's rung ("spot", "chase", "table",
	# "global") and its number 0..3, the score in thousandths (the
	# predicted log of a solve time) and its model version; null each in
	# a document of an older quench or for an ungraded puzzle
	var human_level = null
	var human_level_number = null
	var human_score = null
	var human_model_version = null

	# new_board(): a board at the puzzle's start state, no presses.
	func new_board() -> Board:
		return Board.new(self)

	# check_witness(): "" when the witness, pressed on a fresh board,
	# reaches the goal in exactly min_presses presses and reset() restores
	# the start; else the reason. A game can run it on a downloaded pack
	# before offering it; the replay driver runs it on every puzzle.
	func check_witness() -> String:
		var b := new_board()
		var used := 0
		for cell in ncells:
			for _t in witness[cell]:
				b.press(cell)
			used += witness[cell]
		if not b.is_solved():
			return "the witness does not reach the goal"
		if used != min_presses:
			return "the witness uses %d presses, min_presses is %d" % [used, min_presses]
		if b.presses != used:
			return "the board counted %d presses, made %d" % [b.presses, used]
		b.reset()
		if b.presses != 0 or not b.equals(start):
			return "reset() does not restore the start"
		return ""


# A puzzle being played. state is the live board, one value per cell (a
# PoolIntArray: read it, do not write it: hints read the position from the
# presses, not from state); history the cells pressed since the start or
# the last reset(), in order (read it); presses their number.
class Board:
	extends Reference
	# The Puzzle, untyped: `var puzzle: Puzzle` here and Board.new() in
	# Puzzle would make the two class scripts refer to each other, a
	# reference cycle Godot 3 reports at exit as leaked instances.
	var puzzle
	var state := PoolIntArray()
	var presses := 0
	var history := []
	var counts := PoolIntArray() # presses per cell, mod colours
	var _plan = null # an optimal plan from here, kept while hints are followed
	var _left := 0

	func _init(p) -> void:
		puzzle = p
		reset()

	func _apply(cell: int, times: int) -> void:
		var k: int = puzzle.colours
		for e in puzzle.cells[cell].effects:
			state[e.cell] = (state[e.cell] + e.amount * times) % k
		counts[cell] = (counts[cell] + times) % k

	# press(cell): press cell (an int, 0 <= cell < ncells) once: add each
	# of its effects, mod colours. OK, or ERR_PARAMETER_RANGE_ERROR (and
	# push_error, the board unchanged) for a cell the board lacks.
	func press(cell) -> int:
		if typeof(cell) != TYPE_INT or cell < 0 or cell >= puzzle.ncells:
			push_error("press: no cell %s (the board has %d)" % [str(cell), puzzle.ncells])
			return ERR_PARAMETER_RANGE_ERROR
		_apply(cell, 1)
		history.append(cell)
		presses = history.size()
		# Following an optimal plan keeps the rest of it optimal: one press
		# fewer from here, and no plan could be shorter.
		if _plan != null and _plan[cell] > 0:
			_plan[cell] -= 1
			_left -= 1
		else:
			_plan = null
		return OK

	# undo(): take back the last press (colours - 1 more of it): the cell,
	# or -1 when there is none.
	func undo() -> int:
		if history.empty():
			return -1
		var cell: int = history.pop_back()
		presses = history.size()
		_apply(cell, puzzle.colours - 1)
		_plan = null
		return cell

	# is_solved(): whether the board equals the rule's goal.
	func is_solved() -> bool:
		return equals(puzzle.goal)

	# reset(): back to the puzzle's start state, no presses.
	func reset() -> void:
		state = PoolIntArray(puzzle.start)
		counts = PoolIntArray()
		counts.resize(puzzle.ncells)
		for j in puzzle.ncells:
			counts[j] = 0
		history = []
		presses = 0
		_plan = null

	# equals(values): whether the board shows those values, cell by cell.
	func equals(values: PoolIntArray) -> bool:
		if values.size() != state.size():
			return false
		for j in state.size():
			if state[j] != values[j]:
				return false
		return true

	# presses_left(): the least presses from here to the goal (exact when
	# puzzle.rule.hints_exact; else those of a valid plan); 0 when solved.
	func presses_left() -> int:
		_best()
		return _left

	# hint(): a cell to press next on a shortest way to the goal, or -1
	# when solved. Pressing it leaves presses_left() one lower.
	func hint() -> int:
		_best()
		for j in puzzle.ncells:
			if _plan[j] > 0:
				return j
		return -1

	func _best() -> void:
		if _plan == null:
			var b: Array = best_plan(counts)
			_plan = b[0]
			_left = b[1]

	# best_plan(counts): [plan, presses, exact] from the position counts
	# (presses per cell, mod colours) reach: (witness - counts) mod colours
	# is a plan from there, and every other adds a quiet pattern, sum c_g
	# gen_g (0 <= c_g < order_g). All of them are walked (an odometer over
	# the c_g) and the cheapest kept, ties going to the plan smaller at the
	# first cell where they differ (as `quench solve` breaks them). Not
	# exact (the plan itself) when the rule's kernel is unknown or past
	# MAX_KERNEL_WALK.
	func best_plan(c: PoolIntArray) -> Array:
		var rule = puzzle.rule
		var k: int = rule.colours
		var n: int = rule.ncells
		var x := PoolIntArray()
		x.resize(n)
		var cost := 0
		for j in n:
			x[j] = (puzzle.witness[j] - c[j] % k + k) % k
			cost += x[j]
		var best := PoolIntArray(x)
		if not rule.hints_exact:
			return [best, cost, false]
		var best_cost := cost
		var gens := []
		var digit := []
		for g in rule.kernel:
			var nz := PoolIntArray()
			for j in n:
				if g.presses[j] != 0:
					nz.append(j)
					nz.append(g.presses[j])
			gens.append(nz)
			digit.append(0)
		var ngens := gens.size()
		while true:
			var g := 0
			while g < ngens: # add gen g; carry when c_g wraps
				var nz: PoolIntArray = gens[g]
				for t in range(0, nz.size(), 2):
					var j: int = nz[t]
					var was: int = x[j]
					var now: int = (was + nz[t + 1]) % k
					cost += now - was
					x[j] = now
				digit[g] += 1
				if digit[g] < rule.kernel[g].order:
					break
				digit[g] = 0
				g += 1
			if g == ngens:
				break # every element visited
			var better := cost < best_cost
			if not better and cost == best_cost:
				for j in n:
					if x[j] != best[j]:
						better = x[j] < best[j]
						break
			if better:
				best = PoolIntArray(x)
				best_cost = cost
		return [best, best_cost, true]


# _Reader: checks a parsed document and builds the Pack. Godot has no
# exceptions, so the first refusal is kept in `why` and every later check
# returns a harmless default (0, "", [], {}) without touching the
# document further; each builder stops at its next step. Why this much
# checking: a pack is content from outside the game (a download, a mod);
# a bad one must fail at load, not mid-level.
class _Reader:
	extends Reference
	var why := ""

	func refuse(path: String, what: String) -> void:
		if why == "":
			why = what if path == "" else path + ": " + what

	# show(v): how a message shows a value from the document, the same in
	# the four loaders: a string in quotes, its control characters as
	# \u00XX (no document can put a raw one on a terminal), at most 40
	# characters; a number as number() writes it; an array or object by
	# its kind.
	func show(v) -> String:
		match typeof(v):
			TYPE_STRING:
				# Only the start can show: the rest is cut.
				var s: String = v.substr(0, 41)
				return cut('"' + controls(s.replace("\\", "\\\\").replace('"', '\\"')) + '"')
			TYPE_REAL:
				return number(v)
			TYPE_INT:
				if v > -9007199254740992 and v < 9007199254740992:
					return str(v)
				return ("-" if v < 0 else "") + sci6(str(v).trim_prefix("-"))
			TYPE_BOOL:
				return "true" if v else "false"
			TYPE_NIL:
				return "null"
			TYPE_ARRAY:
				return "an array"
		return "an object"

	func controls(s: String) -> String:
		var out := ""
		for i in s.length():
			var c := s.ord_at(i)
			out += "\\u%04x" % c if c < 32 or c == 127 else s[i]
		return out

	func cut(s: String) -> String:
		return s if s.length() <= 40 else s.substr(0, 37) + "..."

	# number(v): an integer below 2^53 in digits, a larger one as sci6 (an
	# integer another runtime may have rounded: all of them show it
	# alike), a fraction with up to six decimals (rounded half up, trailing
	# zeros dropped unless all six are 0). Godot's own str() writes a fraction
	# with too few digits (0.0000001 as 0).
	func number(v: float) -> String:
		if is_nan(v):
			return "NaN"
		if is_inf(v):
			return "Infinity" if v > 0 else "-Infinity"
		var minus := "-" if v < 0 else ""
		var a: float = abs(v)
		if a == floor(a):
			if a < 9007199254740992.0:
				return minus + str(int(a))
			return minus + sci6(digits(a))
		var ip: float = floor(a)
		var f: float = floor((a - ip) * 1e6 + 0.5)
		if f >= 1e6:
			ip += 1
			f -= 1e6
		var six := "%06d" % int(f)
		var trimmed := six.rstrip("0")
		return minus + str(int(ip)) + "." + (trimmed if trimmed != "" else six)

	# digits(a): the exact decimal digits of an integral float past 2^53:
	# it is m * 2^k with m below 2^53; m doubled k times in base 10^9 limbs.
	func digits(a: float) -> String:
		var k := 0
		while a >= 9007199254740992.0:
			a /= 2
			k += 1
		var m := int(a)
		var limbs := [m % 1000000000, (m / 1000000000) % 1000000000, m / 1000000000000000000]
		for _i in k:
			var carry := 0
			for j in limbs.size():
				var x: int = limbs[j] * 2 + carry
				limbs[j] = x % 1000000000
				carry = x / 1000000000
			if carry > 0:
				limbs.append(carry)
		var top := limbs.size() - 1
		while top > 0 and limbs[top] == 0:
			top -= 1
		var out := str(limbs[top])
		for j in range(top - 1, -1, -1):
			out += "%09d" % limbs[j]
		return out

	# sci6(d): an integer's decimal digits (16 or more) as six significant
	# digits, rounded half up: "1e+30", "9.22337e+18".
	func sci6(d: String) -> String:
		var m := d.substr(0, 6)
		var e := d.length() - 1
		if d.ord_at(6) >= 53: # "5"
			m = str(int(m) + 1)
			if m.length() > 6:
				m = m.substr(0, 6)
				e += 1
		m = m.rstrip("0")
		return m.substr(0, 1) + ("." + m.substr(1, m.length() - 1) if m.length() > 1 else "") + "e+" + str(e)

	# nesting(text): "" when no array or object opens inside MAX_DEPTH
	# others, else the refusal, before JSON.parse sees the text. The path
	# named is the deep container's, as the checks below name places: keys
	# that are not [A-Za-z0-9_]+ as ["KEY"] (their text as written), "[?]"
	# where a key is missing. Text inside strings is skipped; what is not
	# JSON is left to the parser.
	func nesting(text: String) -> String:
		var b := text.to_utf8()
		var is_array := []
		var index := []
		var key := []
		var want_key := []
		for _l in MAX_DEPTH:
			is_array.append(false)
			index.append(0)
			key.append(null)
			want_key.append(false)
		var depth := 0
		var in_string := false
		var escaped := false
		var key_from := -1
		var i := -1
		# for over the bytes: a third faster than indexing them in a while.
		for c in b:
			i += 1
			if escaped:
				escaped = false
			elif in_string:
				if c == 92:
					escaped = true
				elif c == 34:
					in_string = false
					if key_from >= 0:
						key[depth - 1] = b.subarray(key_from, i - 1).get_string_from_utf8() if i > key_from else ""
					key_from = -1
			elif c == 34:
				in_string = true
				if depth > 0 and want_key[depth - 1]:
					want_key[depth - 1] = false
					key_from = i + 1
			elif c == 91 or c == 123:
				if depth == MAX_DEPTH:
					return "%s: nesting deeper than %d" % [nesting_path(is_array, index, key), MAX_DEPTH]
				is_array[depth] = c == 91
				index[depth] = 0
				key[depth] = null
				want_key[depth] = c == 123
				depth += 1
			elif c == 93 or c == 125:
				if depth > 0:
					depth -= 1
			elif c == 44 and depth > 0:
				if is_array[depth - 1]:
					index[depth - 1] += 1
				else:
					key[depth - 1] = null
					want_key[depth - 1] = true
		return ""

	func nesting_path(is_array: Array, index: Array, key: Array) -> String:
		var p := "document"
		for level in MAX_DEPTH:
			if is_array[level]:
				p += "[%d]" % index[level]
			elif key[level] == null:
				p += "[?]"
			elif not is_word(key[level]):
				p += "[" + cut('"' + controls(key[level]) + '"') + "]"
			elif level == 0:
				p = key[level]
			else:
				p += "." + key[level]
		return p

	func is_word(s: String) -> bool:
		if s == "":
			return false
		for i in s.length():
			var c := s.ord_at(i)
			if not (c >= 97 and c <= 122 or c >= 65 and c <= 90 or c >= 48 and c <= 57 or c == 95):
				return false
		return true

	func list(words: Array) -> String:
		var s := ""
		for w in words:
			s += (", " if s != "" else "") + w
		return s

	func field(obj: Dictionary, key: String, path: String):
		if why != "":
			return null
		if not obj.has(key):
			refuse(path, 'missing field "%s"' % key)
			return null
		return obj[key]

	func object(v, path: String) -> Dictionary:
		if typeof(v) != TYPE_DICTIONARY:
			refuse(path, "not an object")
			return {}
		return v

	func array(v, path: String, most: int) -> Array:
		if typeof(v) != TYPE_ARRAY:
			refuse(path, "not an array")
			return []
		if v.size() > most:
			refuse(path, "%d items, at most %d" % [v.size(), most])
			return []
		return v

	func string(v, path: String) -> String:
		if typeof(v) != TYPE_STRING:
			refuse(path, "not a string")
			return ""
		return v

	# integer(v): v as an int in lo..hi (both within 2^53). JSON numbers
	# arrive as floats.
	func integer(v, path: String, lo: int, hi: int) -> int:
		var t := typeof(v)
		if t == TYPE_REAL and not is_nan(v) and not is_inf(v) and v == floor(v):
			if v < lo or v > hi:
				refuse(path, "%s is outside %d..%d" % [show(v), lo, hi])
				return lo
			return int(v)
		if t != TYPE_INT:
			refuse(path, "%s is not an integer" % show(v))
			return lo
		if v < lo or v > hi:
			refuse(path, "%s is outside %d..%d" % [show(v), lo, hi])
			return lo
		return v

	func one_of(v, allowed: Array, path: String) -> String:
		if typeof(v) != TYPE_STRING or not allowed.has(v):
			refuse(path, "%s is not one of %s" % [show(v), list(allowed)])
			return ""
		return v

	# lower_hex(s, digits): whether s is exactly that many lowercase hex
	# digits (digits 0: any number of them, none included).
	func lower_hex(s: String, digits: int) -> bool:
		if digits > 0 and s.length() != digits:
			return false
		for i in s.length():
			if HEX_DIGITS.find(s[i]) < 0:
				return false
		return true

	func str_field(obj: Dictionary, key: String, path: String) -> String:
		return string(field(obj, key, path), path + "." + key)

	func int_field(obj: Dictionary, key: String, path: String, lo: int, hi: int) -> int:
		return integer(field(obj, key, path), path + "." + key, lo, hi)

	# cell_values: one value per cell, each below colours (state, goal,
	# solution).
	func cell_values(v, path: String, ncells: int, colours: int) -> PoolIntArray:
		var a := array(v, path, MAX_CELLS)
		var out := PoolIntArray()
		if why != "":
			return out
		if a.size() != ncells:
			refuse(path, "%d values, the rule has %d cells" % [a.size(), ncells])
			return out
		for i in ncells:
			out.append(integer(a[i], "%s[%d]" % [path, i], 0, colours - 1))
		return out

	func pack(doc) -> Pack:
		var d := object(doc, "document")
		var p := Pack.new()
		var format = field(d, "format", "document")
		if why != "":
			return p
		if typeof(format) != TYPE_STRING or format != FORMAT:
			refuse("format", '%s is not a quench pack (expected "%s")' % [show(format), FORMAT])
			return p
		var version = field(d, "format_version", "document")
		if why != "":
			return p
		var number := typeof(version) == TYPE_REAL or typeof(version) == TYPE_INT
		if not number or version != FORMAT_VERSION:
			refuse("format_version", "%s is not supported: this loader reads version %d (export the pack again with a current quench)"
					% [show(version), FORMAT_VERSION])
			return p
		var pk := object(field(d, "pack", "document"), "pack")
		var rules_in := array(field(d, "rules", "document"), "rules", MAX_RULES)
		var by_hash := {}
		for i in rules_in.size():
			var r := rule(rules_in[i], "rules[%d]" % i)
			if why != "":
				return p
			if by_hash.has(r.rule_hash):
				refuse("rules[%d].hash" % i, "duplicate rule hash (rules[%d] has it too)"
						% p.rules.find(by_hash[r.rule_hash]))
				return p
			by_hash[r.rule_hash] = r
			p.rules.append(r)
		var puzzles_in := array(field(d, "puzzles", "document"), "puzzles", MAX_PUZZLES)
		for i in puzzles_in.size():
			var z := puzzle(puzzles_in[i], i, "puzzles[%d]" % i, by_hash)
			if why != "":
				return p
			if p._by_id.has(z.id):
				refuse("puzzles[%d].id" % i, "duplicate puzzle id (puzzles[%d] has it too)"
						% (p._by_id[z.id].position - 1))
				return p
			if z.slot != 0 and p._by_slot.has(z.slot):
				refuse("puzzles[%d].slot" % i, "duplicate slot (puzzles[%d] has it too)"
						% (p._by_slot[z.slot].position - 1))
				return p
			p.puzzles.append(z)
			p.puzzle_ids.append(z.id)
			p._by_id[z.id] = z
			if z.slot != 0:
				p._by_slot[z.slot] = z
		p.name = str_field(pk, "name", "pack")
		if why == "" and (p.name.length() < 1 or p.name.length() > 64):
			refuse("pack.name", "%d characters, not 1..64" % p.name.length())
		p.title = str_field(pk, "title", "pack")
		p.description = str_field(pk, "description", "pack")
		p.author = str_field(pk, "author", "pack")
		p.version = int_field(pk, "version", "pack", 1, MAX_COUNT)
		return p

	func board(v, path: String) -> Dictionary:
		var b := object(v, path)
		return {
			kind = one_of(field(b, "kind", path), BOARD_KINDS, path + ".kind"),
			width = int_field(b, "width", path, 1, MAX_CELLS),
			height = int_field(b, "height", path, 1, MAX_CELLS),
			wrap = one_of(field(b, "wrap", path), WRAPS, path + ".wrap"),
			side = int_field(b, "side", path, 0, 37),
		}

	func cell(v, j: int, path: String, ncells: int, colours: int, bd: Dictionary) -> Dictionary:
		var c := object(v, path)
		var index := int_field(c, "index", path, 0, ncells - 1)
		if why == "" and index != j:
			refuse(path + ".index", "%d, expected %d (cells are in index order)" % [index, j])
		var row := int_field(c, "row", path, 0, bd.height - 1)
		var col := int_field(c, "col", path, 0, bd.width - 1)
		var eff := array(field(c, "effects", path), path + ".effects", MAX_CELLS)
		if why == "" and eff.size() == 0:
			refuse(path + ".effects", "empty: a press must change something")
		var effects := []
		for i in eff.size():
			if why != "":
				break
			var p := "%s.effects[%d]" % [path, i]
			var e := object(eff[i], p)
			effects.append({
				cell = int_field(e, "cell", p, 0, ncells - 1),
				amount = int_field(e, "amount", p, 1, colours - 1),
			})
		return {index = index, row = row, col = col, effects = effects}

	func rule(v, path: String) -> Rule:
		var r := object(v, path)
		var out := Rule.new()
		out.rule_hash = str_field(r, "hash", path)
		if why == "" and not lower_hex(out.rule_hash, 64):
			refuse(path + ".hash", "not 64 lowercase hex digits")
		out.colours = int_field(r, "colours", path, 2, 255)
		out.board = board(field(r, "board", path), path + ".board")
		out.ncells = int_field(r, "ncells", path, 1, MAX_CELLS)
		var cells_in := array(field(r, "cells", path), path + ".cells", MAX_CELLS)
		if why != "":
			return out
		if cells_in.size() != out.ncells:
			refuse(path + ".cells", "%d cells, ncells is %d" % [cells_in.size(), out.ncells])
			return out
		for j in out.ncells:
			out.cells.append(cell(cells_in[j], j, "%s.cells[%d]" % [path, j],
					out.ncells, out.colours, out.board))
			if why != "":
				return out
		var tiers_in := array(field(r, "tiers", path), path + ".tiers", MAX_TIERS)
		for i in tiers_in.size():
			var p := "%s.tiers[%d]" % [path, i]
			var t := object(tiers_in[i], p)
			out.tiers.append({
				name = str_field(t, "name", p),
				lo = int_field(t, "lo", p, 0, MAX_PRESSES),
				hi = int_field(t, "hi", p, 0, MAX_PRESSES),
			})
		out.name = str_field(r, "name", path)
		out.title = str_field(r, "title", path)
		out.description = str_field(r, "description", path)
		out.author = str_field(r, "author", path)
		out.goal = cell_values(field(r, "goal", path), path + ".goal", out.ncells, out.colours)
		if why == "" and r.has("kernel"):
			kernel(r["kernel"], path + ".kernel", out)
		return out

	# kernel(v, path, r): the rule's kernel, generators of the quiet
	# patterns with their orders, each checked to be of its order and quiet
	# (pressing it changes no cell), so a hint never leads away from the
	# goal.
	func kernel(v, path: String, r: Rule) -> void:
		var list := array(v, path, MAX_KERNEL)
		var k := r.colours
		var size := 1
		for g in list.size():
			if why != "":
				return
			var p := "%s[%d]" % [path, g]
			var gen := object(list[g], p)
			var order := int_field(gen, "order", p, 2, k)
			if why == "" and k % order != 0:
				refuse(p + ".order", "%d does not divide colours %d" % [order, k])
			var presses := cell_values(field(gen, "presses", p), p + ".presses", r.ncells, k)
			if why != "":
				return
			var changed := []
			for i in r.ncells:
				changed.append(0)
			for j in r.ncells:
				if presses[j] * order % k != 0:
					refuse("%s.presses[%d]" % [p, j], "%d is not of order %d mod %d" % [presses[j], order, k])
					return
				for e in r.cells[j].effects:
					changed[e.cell] = (changed[e.cell] + presses[j] * e.amount) % k
			for i in r.ncells:
				if changed[i] != 0:
					refuse(p, "not quiet: pressing it changes cell %d" % i)
					return
			r.kernel.append({order = order, presses = presses})
			if size <= MAX_KERNEL_WALK:
				size *= order
		r.has_kernel = true
		r.hints_exact = size <= MAX_KERNEL_WALK
		r.kernel_size = size if r.hints_exact else 0

	func puzzle(v, i: int, path: String, rules: Dictionary) -> Puzzle:
		var d := object(v, path)
		var z := Puzzle.new()
		z.id = str_field(d, "id", path)
		if why == "" and not lower_hex(z.id, 16):
			refuse(path + ".id", "not 16 lowercase hex digits")
		z.position = int_field(d, "position", path, 1, MAX_PUZZLES)
		if why == "" and z.position != i + 1:
			refuse(path + ".position", "%d, expected %d (puzzles are in pack order)" % [z.position, i + 1])
		var rule_hash := str_field(d, "rule", path)
		if why != "":
			return z
		if not rules.has(rule_hash):
			refuse(path + ".rule", "no rule with hash %s in rules" % show(rule_hash))
			return z
		var r: Rule = rules[rule_hash]
		z.rule = r
		z.colours = r.colours
		z.board = r.board
		z.ncells = r.ncells
		z.cells = r.cells
		z.goal = r.goal
		z.start = cell_values(field(d, "state", path), path + ".state", r.ncells, r.colours)
		z.witness = cell_values(field(d, "solution", path), path + ".solution", r.ncells, r.colours)
		z.min_presses = int_field(d, "min_presses", path, 0, MAX_PRESSES)
		z.optimal_solutions = int_field(d, "optimal_solutions", path, 1, MAX_COUNT)
		z.grade = str_field(d, "grade", path)
		z.grader_version = str_field(d, "grader_version", path)
		z.seed_hex = str_field(d, "seed", path)
		if why == "" and not lower_hex(z.seed_hex, 0):
			refuse(path + ".seed", "not lowercase hex digits")
		z.index = int_field(d, "index", path, -1, MAX_COUNT)
		z.submission = str_field(d, "submission", path)
		z.source = str_field(d, "source", path)
		z.meta = str_field(d, "meta", path)
		if why == "" and d.has("slot"):
			z.slot = int_field(d, "slot", path, 1, MAX_COUNT)
		if why == "" and d.has("section"):
			z.section = str_field(d, "section", path)
		if why == "":
			read_human(d, path, z)
		return z

	# read_human: the four fields of the human grade into z, null when
	# absent or null; the number must be the level's.
	func read_human(d: Dictionary, path: String, z) -> void:
		var level = d.get("human_level")
		if typeof(level) != TYPE_NIL:
			level = one_of(level, HUMAN_LEVELS, path + ".human_level")
		var number = d.get("human_level_number")
		if why == "" and typeof(number) != TYPE_NIL:
			number = integer(number, path + ".human_level_number", 0, 3)
		if why != "":
			return
		var want = null if typeof(level) == TYPE_NIL else HUMAN_LEVELS.find(level)
		if typeof(number) != typeof(want) or (typeof(want) != TYPE_NIL and number != want):
			refuse(path + ".human_level_number", "%s, expected %s (human_level is %s)"
					% [show(number), show(want), show(level)])
			return
		z.human_level = level
		z.human_level_number = number
		var score = d.get("human_score")
		if typeof(score) != TYPE_NIL:
			z.human_score = integer(score, path + ".human_score", -MAX_HUMAN_SCORE, MAX_HUMAN_SCORE)
		var model = d.get("human_model_version")
		if why == "" and typeof(model) != TYPE_NIL:
			z.human_model_version = integer(model, path + ".human_model_version", 1, MAX_COUNT)
