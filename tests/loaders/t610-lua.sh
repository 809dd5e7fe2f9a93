#!/bin/sh
# t610: the Lua loader and its replay driver (issue #21, loaders/lua/).
# Packs from every rule in rules/, plus a masked hex rectangle, a masked
# grid with five colours and press amount 2, and a graph whose presses add
# 1 to 5 mod 6 (all three with non-zero goals), are replayed in lua5.4 and
# in LuaJIT (LÖVE's runtime): every witness must reach the goal
# in exactly min_presses presses. Damaged documents must be refused or
# fail. Facts from outside quench: the puzzle counts asked of generate, the
# spec's press rule (docs/EXPORT.md), Lights Out's plus stencil on 3x3 and
# the hexagon's 3S^2 - 3S + 1 cells. A missing runtime FAILS (CI installs
# lua5.4, lua-cjson, lua-dkjson and luajit); lua5.3 runs too where it is
# installed with lua-cjson (its integers are 64-bit, like 5.4's).
. "$(dirname "$0")/../cli/lib.sh"
. "$TOP/tests/loaders/cases.sh"
. "$TOP/tests/loaders/play.sh"

REPLAY=$TOP/loaders/lua/replay
DB=$TMP/x.db
N=3

RUNTIMES=""
for lua in lua5.4 luajit; do
    if command -v "$lua" >/dev/null 2>&1; then RUNTIMES="$RUNTIMES $lua"; ok
    else not_ok "$lua is missing (apt-get install lua5.4 lua-cjson lua-dkjson luajit)"; fi
done
if lua5.3 -e "require('cjson')" >/dev/null 2>&1; then RUNTIMES="$RUNTIMES lua5.3"; fi
for mod in cjson dkjson; do
    if lua5.4 -e "require('$mod')" >/dev/null 2>&1; then ok
    else not_ok "lua5.4 cannot load $mod (apt-get install lua-cjson lua-dkjson)"; fi
done
command -v python3 >/dev/null 2>&1 && ok || not_ok "python3 is missing"

# replay LUA FILE: run the driver under LUA; sets $rc, $TMP/out, $TMP/err.
replay() {
    QUENCH_LUA=$1 "$REPLAY" "$2" >"$TMP/out" 2>"$TMP/err" </dev/null
    rc=$?
}
# expect_line LINE LABEL: stdout is exactly that one line.
# --- every rule (rules/, and tests/loaders/rules/: what rules/ lacks), a
# pack of $N puzzles each, exported as json ---------------
for r in "$TOP"/rules/*.yaml "$TOP"/tests/loaders/rules/*.yaml; do
    name=$(basename "$r" .yaml)
    q generate "$r" -n "$N" --seed 1 --db "$DB" --pack "$name"
    expect_rc 0 "generate $name"
    q export "$name" --format json --db "$DB" -o "$TMP/$name.json"
    expect_rc 0 "export $name"
    for lua in $RUNTIMES; do
        replay "$lua" "$TMP/$name.json"
        expect_rc 0 "$lua replays $name"
        expect_line "replayed $N puzzles: $N solved, 0 failed" "$lua replays $name"
    done
done

# --- the module's API against facts from the spec --------------------------
cat >"$TMP/api.lua" <<'LUA'
package.path = arg[1] .. "/?.lua;" .. package.path
local qp = require("quench_pack")
local function read(p) local f = assert(io.open(p, "rb")); local t = f:read("*a"); f:close(); return t end
local fails = 0
local function check(cond, what) if not cond then fails = fails + 1; print("not ok: " .. what) end end
-- classic 3x3 Lights Out: a corner press toggles 3 lights, an edge 4, the centre 5.
local pack = assert(qp.load(read(arg[2] .. "/classic-3x3.json")))
check(pack.name == "classic-3x3" and pack.version == 1 and #pack.puzzle_ids == 3, "pack fields")
local pz = pack.by_id[pack.puzzle_ids[2]]
check(pz.position == 2 and pz.colours == 2 and pz.ncells == 9 and pz.board.kind == "grid", "puzzle fields")
for cell, want in pairs({[1] = 3, [2] = 4, [5] = 5}) do
    local b = pz:new_board()
    b:press(cell)
    local changed = 0
    for i = 1, 9 do if b.state[i] ~= pz.state[i] then changed = changed + 1 end end
    check(changed == want, "3x3 press " .. cell .. " changes " .. changed .. ", want " .. want)
    b:press(cell)
    for i = 1, 9 do check(b.state[i] == pz.state[i], "two presses cancel mod 2") end
    b:press(cell); b:reset()
    check(b.presses == 0 and b.state[cell] == pz.state[cell], "reset")
end
check(not pcall(function() pz:new_board():press(10) end), "press(10) on 9 cells is an error")
check(not pcall(function() pz:new_board():press(0) end), "press(0): cells start at 1")
-- the hexagon of side 3: 19 cells; neighbours' centres are one cell apart.
local hx = assert(qp.load(read(arg[2] .. "/hexagon-3.json"))).puzzles[1]
check(hx.ncells == 19 and hx.shape == "hexagon" and hx.board.side == 3, "hexagon-3 geometry")
for i, c in ipairs(hx.cells) do
    for _, e in ipairs(c.effects) do
        local d = hx.cells[e.cell]
        local dist = math.sqrt((c.x - d.x) ^ 2 + (c.y - d.y) ^ 2)
        check(e.cell == i or math.abs(dist - 1) < 1e-9, "hexagon neighbours " .. i .. "," .. e.cell .. " at " .. dist)
    end
end
-- the ring of six, eight colours: a graph on a circle; dkjson decodes it too.
local dk = require("dkjson")
local ring = assert(qp.load(read(arg[2] .. "/ring6-mod8.json"), function(t) return (dk.decode(t)) end)).puzzles[1]
check(ring.colours == 8 and ring.ncells == 6 and ring.shape == "circle", "ring geometry")
-- cell 1 at 12 o'clock (straight above the ring's centre, which is at
-- (r, r)), clockwise (cell 2 to its right), neighbours 1.5 apart.
local r1, r2 = ring.cells[1], ring.cells[2]
check(math.abs(r1.y) < 1e-9 and r2.x > r1.x and r2.y > r1.y, "graph cell 1 at 12 o'clock, clockwise")
check(math.abs(math.sqrt((r1.x - r2.x) ^ 2 + (r1.y - r2.y) ^ 2) - 1.5) < 1e-9, "ring neighbours 1.5 apart")
local minx = math.huge
for _, c in ipairs(hx.cells) do minx = math.min(minx, c.x) end
check(math.abs(minx) < 1e-9, "hexagon's leftmost cell at x 0")
-- a refused document: nil and a message, not an error.
local p, msg = qp.load('{"format": "quench-pack", "format_version": 3}')
check(p == nil and msg:find("format_version", 1, true), "version 3 refused")
-- Issue #31: integers past 2^53 (once nil, or a raw error comparing nil)
-- are refused with their place, by load() and from_table() alike, with
-- lua-cjson and dkjson: load and from_table never raise.
local text = read(arg[2] .. "/classic-3x3.json")
local function damaged(field, value)
    -- classic-3x3's first puzzle, the field's value replaced in the text.
    local first = text:find('"' .. field .. '":', text:find('"puzzles":', 1, true), true)
    local from, to = text:find(":[^,]*", first)
    if field == "solution" then from, to = text:find(":%[%d+", first) end
    return text:sub(1, from) .. (field == "solution" and "[" or "") .. value .. text:sub(to + 1)
end
local cases = {
    {"min_presses", "1e30", "puzzles[0].min_presses: 1e+30 is outside 0..1048576"},
    {"position", "9223372036854775808", "puzzles[0].position: 9.22337e+18 is outside 1..1048576"},
    {"position", "9223372036854775807", "puzzles[0].position: 9.22337e+18 is outside 1..1048576"},
    {"solution", "1e308", "puzzles[0].solution[0]: 1e+308 is outside 0..1"},
    {"index", "-9223372036854775808", "puzzles[0].index: -9.22337e+18 is outside -1..9007199254740991"},
    {"optimal_solutions", "9007199254740993", "puzzles[0].optimal_solutions: 9.0072e+15 is outside 1..9007199254740991"},
}
for _, decoder in ipairs({{"cjson", require("cjson").decode},
                          {"dkjson", function(t) local v, _, e = dk.decode(t); if e then error(e) end; return v end}}) do
    for _, c in ipairs(cases) do
        local doc = damaged(c[1], c[2])
        local ok, pk, why = pcall(qp.load, doc, decoder[2])
        check(ok and pk == nil and why == c[3],
              decoder[1] .. " " .. c[1] .. " " .. c[2] .. ": " .. tostring(ok) .. " " .. tostring(why))
        local decoded = decoder[2](doc)
        ok, pk, why = pcall(qp.from_table, decoded)
        check(ok and pk == nil and why == c[3], decoder[1] .. " from_table " .. c[1] .. ": " .. tostring(why))
    end
end
-- What a decoder could hand from_table that no JSON holds: not a raise
-- either, and a bug of the loader (here a table that raises when read)
-- comes back as nil, an internal error and true.
local ok, pk, why, bug = pcall(qp.from_table, setmetatable({}, {__index = function() error("boom") end}))
check(ok and pk == nil and why:find("^quench_pack: internal error: ") and bug == true, "a raising table: " .. tostring(why))
ok, pk, why = pcall(qp.from_table, {format = "quench-pack", format_version = 2, pack = {},
                                    rules = {}, puzzles = {{id = "0123456789abcdef", position = 2 ^ 70}}})
check(ok and why == "puzzles[0].position: 1.18059e+21 is outside 1..1048576", "2^70: " .. tostring(why))
ok, pk, why = pcall(qp.load, 42)
check(ok and pk == nil and why == "document: not a string", "load(42)")
print(fails == 0 and "api ok" or "api failed")
LUA
for lua in $RUNTIMES; do
    "$lua" "$TMP/api.lua" "$TOP/loaders/lua" "$TMP" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    expect_rc 0 "$lua api checks"
    expect_line "api ok" "$lua api checks"
done

# --- damaged documents ------------------------------------------------------
# damage NAME PYTHON: $TMP/NAME.json is classic-5x5's document after PYTHON
# ran on it as `d`.
damage() {
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))' "$TMP/classic-5x5.json" "$TMP/$1.json" "$2" ||
        not_ok "cannot make $1.json"
}
damage version 'd["format_version"] = 3'
damage format 'd["format"] = "ldtk"'
damage nopuzzles 'del d["puzzles"]'
damage nostate 'del d["puzzles"][1]["state"]'
damage badeffect 'd["rules"][0]["cells"][0]["effects"][0]["cell"] = 25'
damage floatcell 'd["puzzles"][0]["state"][0] = 0.5'
damage infinite 'd["puzzles"][0]["min_presses"] = float("inf")'
damage badstate 'd["puzzles"][0]["state"][0] = 2'
damage norule 'd["puzzles"][0]["rule"] = "0" * 64'
# One more press of cell 0 changes the board (every press changes
# something), so the tampered witness misses the goal.
damage witness 'd["puzzles"][1]["solution"][0] ^= 1'
damage minpresses 'd["puzzles"][2]["min_presses"] += 1'
damage empty 'd["puzzles"] = []'
printf '{"format": "quench-pack", ' >"$TMP/truncated.json"

# The messages and places are the other loaders' (0-based: the first
# puzzle is puzzles[0]).
for lua in $RUNTIMES; do
    for bad in \
        'version:format_version: 3 is not supported: this loader reads version 2 (export the pack again with a current quench)' \
        'format:format: "ldtk" is not a quench pack (expected "quench-pack")' \
        'nopuzzles:document: missing field "puzzles"' \
        'nostate:puzzles[1]: missing field "state"' \
        'badeffect:rules[0].cells[0].effects[0].cell: 25 is outside 0..24' \
        'floatcell:puzzles[0].state[0]: 0.5 is not an integer' \
        'infinite:puzzles[0].min_presses: Infinity is not an integer' \
        'badstate:puzzles[0].state[0]: 2 is outside 0..1' \
        'norule:puzzles[0].rule: no rule with hash "000000000000000000000000000000000000... in rules' \
        'truncated:not JSON: '; do
        f=${bad%%:*}
        replay "$lua" "$TMP/$f.json"
        expect_rc 65 "$lua refuses $f.json"
        expect_err "replay: $TMP/$f.json: ${bad#*:}" "$lua says what is wrong in $f.json"
        expect_empty_out "$lua $f.json"
    done
    replay "$lua" "$TMP/witness.json"
    expect_rc 1 "$lua: a tampered witness fails"
    expect_line "replayed $N puzzles: $((N - 1)) solved, 1 failed" "$lua: tampered witness"
    expect_err "replay: puzzle 2 (id " "$lua names the failed puzzle"
    expect_err "does not reach the goal" "$lua says why the witness fails"
    replay "$lua" "$TMP/minpresses.json"
    expect_rc 1 "$lua: min_presses off by one fails"
    expect_line "replayed $N puzzles: $((N - 1)) solved, 1 failed" "$lua: min_presses"
    expect_err "min_presses is" "$lua says min_presses differs"
    replay "$lua" "$TMP/empty.json"
    expect_rc 1 "$lua: an empty pack is not a pass"
    expect_line "replayed 0 puzzles: 0 solved, 0 failed" "$lua: empty pack"
    expect_err "replay: $TMP/empty.json: the pack has no puzzles" "$lua: an empty pack says so"
    replay "$lua" "$TMP/nonexistent.json"
    expect_rc 66 "$lua: a missing file"
    expect_err "replay: $TMP/nonexistent.json: cannot read (No such file or directory)" "$lua: a missing file is named"
    replay "$lua" ""
    expect_rc 66 "$lua: an empty path"
done
# Issue #31: nesting, integer bounds, duplicate ids, how values are shown
# (tests/loaders/cases.py, the same documents and messages in every
# runtime).
make_cases "$TMP/classic-5x5.json"
for lua in $RUNTIMES; do
    run_cases "$lua" replay "$lua"
done

# Issue #33: each puzzle's human grade as the document has it, null
# (nil) each where an older document has none or writes null; through
# lua-cjson (null a userdata) and dkjson (null nil).
cat >"$TMP/human.lua" <<'LUA'
package.path = arg[1] .. "/?.lua;" .. package.path
local qp = require("quench_pack")
local decode
if arg[3] == "dkjson" then
    local dk = require("dkjson")
    decode = function(text) local v, _, err = dk.decode(text); if err then error(err, 0) end; return v end
end
local pack, why = qp.read_file(arg[2], decode)
if not pack then io.stderr:write(why, "\n"); os.exit(65) end
local function s(v) if v == nil then return "null" end return tostring(v) end
for _, z in ipairs(pack.puzzles) do
    print(z.id .. " " .. s(z.human_level) .. " " .. s(z.human_level_number) .. " "
          .. s(z.human_score) .. " " .. s(z.human_model_version))
end
LUA
for lua in $RUNTIMES; do
    for dec in cjson dkjson; do
        for f in "$TMP/classic-5x5.json" "$TMP/ring6-mod8.json" "$TMP/cases/nohuman.json" \
            "$TMP/cases/humannull.json" "$TMP/cases/humanlow.json"; do
            [ "$lua" = lua5.3 ] && [ $dec = dkjson ] && continue
            expect_eq "$("$lua" "$TMP/human.lua" "$TOP/loaders/lua" "$f" $dec 2>&1)" \
                "$(python3 "$TOP/tests/loaders/human.py" "$f")" \
                "$lua $dec: the human grade of $(basename "$f")"
        done
    done
done

QUENCH_LUA=$lua "$REPLAY" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 64 "replay without a file"
QUENCH_LUA=no-such-lua "$REPLAY" "$TMP/classic-5x5.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 69 "replay with a runtime that is not installed"
expect_err "no-such-lua is not installed" "the missing runtime is named"

# Issue #34: the play driver against quench solve (play.sh).
play_packs
for lua in lua5.4 luajit; do
    play_checks "$lua" env QUENCH_LUA=$lua "$TOP/loaders/lua/play"
done

done_testing
