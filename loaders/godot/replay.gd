# replay.gd: the replay driver's Godot side (loaders/godot/replay starts
# it: godot3-server -s replay.gd -- RESULT PACK, both absolute paths, with
# QUENCH_REPLAY_NAME the pack as the user named it). Replays every
# puzzle's witness through the loader's own Board.press (check_witness)
# and checks it reaches the goal in exactly min_presses presses. Each
# failure is named on stderr; the summary "replayed N puzzles: S solved,
# F failed" goes to RESULT, which the shell prints as the last stdout line
# (Godot's own stdout is not clean: it starts with a banner).
# Exit: 0 when F = 0 and N > 0; 1 when a puzzle failed or the pack is
# empty; 64 usage; 65 a document the loader refuses; 66 the file cannot
# be read; 70 a bug (the shell also turns any script error into 70: one
# does not stop this script, only the function it happens in).
extends SceneTree

const EX_SOFTWARE := 70


func _init() -> void:
	OS.exit_code = EX_SOFTWARE
	var status = _main()
	quit(status if typeof(status) == TYPE_INT else EX_SOFTWARE)


func _main() -> int:
	var args := OS.get_cmdline_args()
	var user := []
	var dashes := false
	for a in args:
		if dashes:
			user.append(a)
		dashes = dashes or a == "--"
	if user.size() != 2:
		printerr("usage: replay PACK.json")
		return 64
	var name: String = user[1]
	if OS.has_environment("QUENCH_REPLAY_NAME"):
		name = OS.get_environment("QUENCH_REPLAY_NAME")
	var QuenchPack = load(get_script().resource_path.get_base_dir().plus_file("quench_pack.gd"))
	var pack = QuenchPack.read_file(user[1])
	if pack.error == ERR_PARSE_ERROR or pack.error == ERR_INVALID_DATA:
		printerr("replay: %s: %s" % [name, pack.error_string])
		return 65
	if pack.error != OK:
		# read_file names the file by the absolute path the shell gave.
		printerr("replay: %s: %s" % [name, pack.error_string.trim_prefix(user[1] + ": ")])
		return 66
	var solved := 0
	var failed := 0
	for p in pack.puzzles:
		var why: String = p.check_witness()
		if why == "":
			solved += 1
		else:
			failed += 1
			printerr("replay: puzzle %d (id %s): %s" % [p.position, p.id, why])
	var n: int = pack.puzzles.size()
	if n == 0:
		printerr("replay: %s: the pack has no puzzles" % name)
	var out := File.new()
	if out.open(user[0], File.WRITE) != OK:
		printerr("replay: cannot write %s" % user[0])
		return EX_SOFTWARE
	out.store_string("replayed %d puzzles: %d solved, %d failed\n" % [n, solved, failed])
	out.close()
	return 0 if failed == 0 and n > 0 else 1
