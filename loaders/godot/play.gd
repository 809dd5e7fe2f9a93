# play.gd: the play driver's Godot side (loaders/godot/play starts it:
# godot3-server -s play.gd -- RESULT PACK MOVES, all absolute paths, with
# QUENCH_PLAY_PACK and QUENCH_PLAY_MOVES the files as the user named
# them). The hints of the loader (quench_pack.gd) from given positions:
# each line of MOVES is {"puzzle": ID, "presses": [CELL, ...]}, the cells
# pressed from the puzzle's start, in order; for each, one line goes to
# RESULT, which the shell prints as stdout (Godot's own stdout starts with
# a banner): {"puzzle":ID,"presses_left":N,"plan":[CELL,...],"exact":B},
# N being board.presses_left() after those presses, plan the cells hint()
# names, each pressed in turn until the board is solved, exact whether N
# is proven least (rule.hints_exact). The driver checks its own answer:
# the plan must solve the board in exactly N presses, and undoing every
# press must bring back the start, with presses_left() then min_presses
# (when exact); a failure is named on stderr and the line still written.
# MOVES is read and checked whole before anything is played.
# Exit: 0 every line played; 1 a line failed its checks, or MOVES has no
# line; 64 usage; 65 a document the loader refuses, or a MOVES line that
# is not such an object, names no puzzle of the pack or a cell it lacks
# (play: MOVES:LINE: what); 66 a file cannot be read; 70 a bug (the shell
# also turns any script error into 70).
extends SceneTree

const EX_SOFTWARE := 70
const MAX_PRESSES := 1048576


func _init() -> void:
	OS.exit_code = EX_SOFTWARE
	var status = _main()
	quit(status if typeof(status) == TYPE_INT else EX_SOFTWARE)


func _is_int(v) -> bool:
	if typeof(v) == TYPE_INT:
		return true
	return typeof(v) == TYPE_REAL and not is_nan(v) and not is_inf(v) and v == floor(v)


func _main() -> int:
	var user := []
	var dashes := false
	for a in OS.get_cmdline_args():
		if dashes:
			user.append(a)
		dashes = dashes or a == "--"
	if user.size() != 3:
		printerr("usage: play PACK.json MOVES.jsonl")
		return 64
	var pack_name: String = OS.get_environment("QUENCH_PLAY_PACK") if OS.has_environment("QUENCH_PLAY_PACK") else user[1]
	var moves_name: String = OS.get_environment("QUENCH_PLAY_MOVES") if OS.has_environment("QUENCH_PLAY_MOVES") else user[2]
	var QuenchPack = load(get_script().resource_path.get_base_dir().plus_file("quench_pack.gd"))
	var pack = QuenchPack.read_file(user[1])
	if pack.error == ERR_PARSE_ERROR or pack.error == ERR_INVALID_DATA:
		printerr("play: %s: %s" % [pack_name, pack.error_string])
		return 65
	if pack.error != OK:
		printerr("play: %s: %s" % [pack_name, pack.error_string.trim_prefix(user[1] + ": ")])
		return 66
	var f := File.new()
	if f.open(user[2], File.READ) != OK:
		printerr("play: %s: cannot read" % moves_name)
		return 66
	var bytes := f.get_buffer(f.get_len())
	f.close()
	var text := bytes.get_string_from_utf8()
	if text == "" and bytes.size() > 0:
		printerr("play: %s: not UTF-8" % moves_name)
		return 65

	# Every line first: nothing is played from a MOVES file that is wrong.
	var games := []
	var lines := text.split("\n")
	for i in lines.size():
		var l: String = lines[i]
		var where := "%s:%d" % [moves_name, i + 1]
		if l.strip_edges() == "":
			continue
		var parsed := JSON.parse(l)
		if parsed.error != OK or typeof(parsed.result) != TYPE_DICTIONARY:
			printerr("play: %s: not a JSON object" % where)
			return 65
		var m: Dictionary = parsed.result
		if typeof(m.get("puzzle")) != TYPE_STRING:
			printerr('play: %s: "puzzle" is not a puzzle id' % where)
			return 65
		var pz = pack.puzzle(m["puzzle"])
		if pz == null:
			printerr('play: %s: "puzzle" names no puzzle of the pack' % where)
			return 65
		var presses = m.get("presses")
		if typeof(presses) != TYPE_ARRAY or presses.size() > MAX_PRESSES:
			printerr('play: %s: "presses" is not a list of at most %d cells' % [where, MAX_PRESSES])
			return 65
		var cells := []
		for j in presses.size():
			var c = presses[j]
			if not _is_int(c) or c < 0 or c >= pz.ncells:
				printerr("play: %s: presses[%d] is not a cell of the puzzle (0..%d)" % [where, j, pz.ncells - 1])
				return 65
			cells.append(int(c))
		games.append([i + 1, pz, cells])
	if games.empty():
		printerr("play: %s: no moves" % moves_name)
		return 1

	var failed := 0
	var out := ""
	for g in games:
		var pz = g[1]
		var board = pz.new_board()
		for c in g[2]:
			board.press(c)
		var left: int = board.presses_left()
		var plan := []
		var h: int = board.hint()
		while h >= 0 and plan.size() <= left:
			board.press(h)
			plan.append(str(h))
			h = board.hint()
		var bad := []
		if not board.is_solved():
			bad.append("following the hints does not reach the goal")
		elif plan.size() != left:
			bad.append("the hints took %d presses, presses_left() said %d" % [plan.size(), left])
		while board.undo() >= 0:
			pass
		if board.presses != 0 or not board.equals(pz.start):
			bad.append("undoing every press does not bring back the start")
		elif pz.rule.hints_exact and board.presses_left() != pz.min_presses:
			bad.append("at the start presses_left() is %d, min_presses %d" % [board.presses_left(), pz.min_presses])
		for w in bad:
			printerr("play: %s:%d: puzzle %s: %s" % [moves_name, g[0], pz.id, w])
		if not bad.empty():
			failed += 1
		out += '{"puzzle":"%s","presses_left":%d,"plan":[%s],"exact":%s}\n' % [
				pz.id, left, PoolStringArray(plan).join(","), "true" if pz.rule.hints_exact else "false"]
	var res := File.new()
	if res.open(user[0], File.WRITE) != OK:
		printerr("play: cannot write %s" % user[0])
		return EX_SOFTWARE
	res.store_string(out)
	res.close()
	return 0 if failed == 0 else 1
