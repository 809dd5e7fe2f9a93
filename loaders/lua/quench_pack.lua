-- quench_pack.lua: load a quench-pack document (format "quench-pack",
-- format_version 2; docs/EXPORT.md, docs/quench-pack.schema.json) into a
-- game made with LÖVE, Defold or plain Lua. Lua 5.1 to 5.4 and LuaJIT, no
-- dependency beyond a JSON decoder: pass your engine's own (Defold's
-- json.decode, a json.lua bundled with a LÖVE game) or let the module find
-- lua-cjson or dkjson.
--
--   local quench_pack = require("quench_pack")
--   local pack = assert(quench_pack.load(love.filesystem.read("starter.json")))
--   local puzzle = pack.puzzles[1]
--   local board = puzzle:new_board()
--   board:press(7)                     -- the player clicked cell 7
--   if board:is_solved() then ... end
--   board:reset()                      -- back to puzzle.state
--
-- Indices. Everything indexed by cell is a Lua array from 1: cell i of this
-- module is cell i - 1 of the document. That holds for puzzle.cells,
-- puzzle.state, puzzle.goal, puzzle.solution, board.state, board:press(i)
-- and every effect's `cell`. The document's 0-based number stays available
-- as cells[i].index (= i - 1), for talking to quench (`quench solve`, the
-- text format). `row` and `col` are the document's drawing positions,
-- from 0, unchanged; `x`, `y` are the cell's centre derived from them.
--
-- A game never implements a topology: a press adds each of the pressed
-- cell's effects, from the document, mod the colour count.
--
-- Shapes returned (all plain tables):
--   pack    = {name, title, description, author, version,
--              puzzle_ids = {id, ...},           -- in pack order
--              puzzles = {puzzle, ...},          -- in pack order
--              by_id = {[id] = puzzle},
--              rules = {rule, ...}}
--   rule    = {hash, name, title, description, author, colours, ncells,
--              board = {kind, width, height, wrap, side},
--              goal = {v, ...}, cells = {cell, ...},
--              tiers = {{name, lo, hi}, ...}, shape}
--   cell    = {index, row, col, x, y, effects = {{cell, amount}, ...}}
--   puzzle  = {id, position, rule, colours, ncells, board, cells, shape,
--              state, goal, min_presses, optimal_solutions, solution,
--              grade, grader_version, seed, index, submission, source,
--              meta, new_board}
--             (colours, ncells, board, cells, goal and shape are the
--             rule's, repeated so a game needs only the puzzle)
--   board   = {puzzle, state, presses, press, is_solved, reset}
--
-- Geometry: `board.kind` is "grid" (squares, maybe with holes: a masked
-- grid simply has no cell at a hole's row/col), "hex" (odd-r rows of
-- pointy-top hexagons), "hexagon" (a hexagon of side board.side, axial
-- coordinates stored as row = r + side - 1, col = q + side - 1) or "graph"
-- (no geometry: cells on a circle). `x`, `y` are centres in units of one
-- cell width, as quench's svg and html exports draw them: grid (col, row);
-- hex (col + 0.5 * (row % 2), row * sqrt(3)/2); hexagon (col + row/2,
-- row * sqrt(3)/2), shifted so the leftmost cell is at x 0; graph clockwise
-- from 12 o'clock on a circle of radius r = 1.5 / (2 sin(pi/n)) around
-- (r, r), so neighbouring centres are 1.5 apart. Origin top left, y down. `shape` says what to draw at each centre: "square",
-- "hexagon" (pointy-top, 1 wide flat side to flat side) or "circle".
--
-- Errors: load, from_table and read_file return nil and a message
-- ("puzzles[3].state[2]: 5 is not below colours (2)") for a document they
-- do not understand: another format, another format_version, a missing or
-- mistyped field, a value out of range. Keys the schema does not list are
-- ignored.

local M = {}

M.FORMAT = "quench-pack"
M.FORMAT_VERSION = 2

local SQRT3_2 = math.sqrt(3) / 2
local tointeger = math.tointeger or function(v) return v end

-- A refusal carries this marker, so load() turns only refusals into
-- (nil, message) and lets a bug in the loader surface as itself.
local Refusal = {}

local function refuse(path, msg)
    error(setmetatable({msg = path .. ": " .. msg}, Refusal), 0)
end

local function field(t, key, path)
    local v = t[key]
    if v == nil then refuse(path, "missing field '" .. key .. "'") end
    return v
end

local function want_table(v, path, what)
    if type(v) ~= "table" then refuse(path, "is not " .. what) end
    return v
end

local function get_object(t, key, path)
    return want_table(field(t, key, path), path .. "." .. key, "an object")
end

local function get_string(t, key, path)
    local v = field(t, key, path)
    if type(v) ~= "string" then
        refuse(path .. "." .. key, "is not a string")
    end
    return v
end

-- JSON numbers arrive as floats from some decoders (lua-cjson under 5.3+):
-- accept an integral value and hand the game an integer. lua-cjson also
-- reads NaN and Infinity, which are not integers.
local function check_int(v, path, lo, hi)
    if type(v) ~= "number" or v ~= v or math.floor(v) ~= v
        or v == math.huge or v == -math.huge then
        refuse(path, "is not an integer")
    end
    if lo and v < lo then refuse(path, tostring(tointeger(v)) .. " is below " .. lo) end
    if hi and v > hi then refuse(path, tostring(tointeger(v)) .. " is above " .. hi) end
    return tointeger(v)
end

local function get_int(t, key, path, lo, hi)
    return check_int(field(t, key, path), path .. "." .. key, lo, hi)
end

-- An array: a table whose keys are exactly 1..n (an object is refused).
local function get_array(t, key, path, min, max)
    local p = path .. "." .. key
    local a = want_table(field(t, key, path), p, "an array")
    local n, count = #a, 0
    for _ in pairs(a) do count = count + 1 end
    if count ~= n then refuse(p, "is not an array") end
    if min and n < min then refuse(p, "has " .. n .. " items, fewer than " .. min) end
    if max and n > max then refuse(p, "has " .. n .. " items, more than " .. max) end
    return a
end

-- A list of ncells values, each below colours: state, goal, solution.
local function get_cells(t, key, path, ncells, colours)
    local a = get_array(t, key, path)
    local p = path .. "." .. key
    if #a ~= ncells then
        refuse(p, "has " .. #a .. " values, the rule has " .. ncells .. " cells")
    end
    local out = {}
    for i = 1, ncells do
        local v = check_int(a[i], p .. "[" .. i .. "]", 0)
        if v >= colours then
            refuse(p .. "[" .. i .. "]", v .. " is not below colours (" .. colours .. ")")
        end
        out[i] = v
    end
    return out
end

local KINDS = {grid = "square", hex = "hexagon", hexagon = "hexagon", graph = "circle"}
local WRAPS = {none = true, x = true, y = true, both = true}

local function read_board(r, path)
    local b = get_object(r, "board", path)
    local p = path .. ".board"
    local kind = get_string(b, "kind", p)
    if not KINDS[kind] then refuse(p .. ".kind", "unknown board kind '" .. kind .. "'") end
    local wrap = get_string(b, "wrap", p)
    if not WRAPS[wrap] then refuse(p .. ".wrap", "unknown wrap '" .. wrap .. "'") end
    return {kind = kind, wrap = wrap,
            width = get_int(b, "width", p, 1, 4096),
            height = get_int(b, "height", p, 1, 4096),
            side = get_int(b, "side", p, 0, 37)}
end

-- The cell's centre, in cell widths, as svg.c and the html page place it
-- (and the other loaders: loaders/js centres()). Hexagon boards are then
-- shifted left so the leftmost cell is at x 0 (place_hexagon).
local function centre(board, cell, i, ncells)
    local row, col = cell.row, cell.col
    if board.kind == "hex" then
        return col + 0.5 * (row % 2), SQRT3_2 * row
    elseif board.kind == "hexagon" then
        return col + 0.5 * row, SQRT3_2 * row
    elseif board.kind == "graph" then
        -- a ring whose neighbouring centres are 1.5 cell widths apart,
        -- cell 1 at 12 o'clock, clockwise, in the square (0, 0)-(2r, 2r)
        if ncells < 2 then return 0, 0 end
        local radius = 1.5 / (2 * math.sin(math.pi / ncells))
        local a = 2 * math.pi * (i - 1) / ncells
        return radius + radius * math.sin(a), radius - radius * math.cos(a)
    end
    return col, row
end

local function place_hexagon(cells)
    local x0 = math.huge
    for _, c in ipairs(cells) do x0 = math.min(x0, c.x) end
    for _, c in ipairs(cells) do c.x = c.x - x0 end
end

local function read_effects(c, path, ncells)
    local list = get_array(c, "effects", path, 1)
    local out = {}
    for e = 1, #list do
        local p = path .. ".effects[" .. e .. "]"
        local eff = want_table(list[e], p, "an object")
        local target = get_int(eff, "cell", p, 0, ncells - 1)
        out[e] = {cell = target + 1,
                  amount = get_int(eff, "amount", p, 1, 254)}
    end
    return out
end

local function read_cells(r, path, board, ncells)
    local list = get_array(r, "cells", path, 1, 4096)
    if #list ~= ncells then
        refuse(path .. ".cells", "has " .. #list .. " cells, ncells is " .. ncells)
    end
    local out = {}
    for i = 1, ncells do
        local p = path .. ".cells[" .. i .. "]"
        local c = want_table(list[i], p, "an object")
        local cell = {index = get_int(c, "index", p, 0),
                      row = get_int(c, "row", p, 0),
                      col = get_int(c, "col", p, 0)}
        if cell.index ~= i - 1 then
            refuse(p .. ".index", "is " .. cell.index .. ", cells must be in order (expected " .. (i - 1) .. ")")
        end
        cell.effects = read_effects(c, p, ncells)
        cell.x, cell.y = centre(board, cell, i, ncells)
        out[i] = cell
    end
    if board.kind == "hexagon" then place_hexagon(out) end
    return out
end

local function read_tiers(r, path)
    local list = get_array(r, "tiers", path, 0, 16)
    local out = {}
    for t = 1, #list do
        local p = path .. ".tiers[" .. t .. "]"
        local tier = want_table(list[t], p, "an object")
        out[t] = {name = get_string(tier, "name", p),
                  lo = get_int(tier, "lo", p, 0), hi = get_int(tier, "hi", p, 0)}
    end
    return out
end

local function read_rule(r, path)
    want_table(r, path, "an object")
    local hash = get_string(r, "hash", path)
    if not hash:match("^" .. string.rep("[0-9a-f]", 64) .. "$") then
        refuse(path .. ".hash", "is not 64 lowercase hex digits")
    end
    local rule = {hash = hash,
                  name = get_string(r, "name", path),
                  title = get_string(r, "title", path),
                  description = get_string(r, "description", path),
                  author = get_string(r, "author", path),
                  colours = get_int(r, "colours", path, 2, 255),
                  ncells = get_int(r, "ncells", path, 1, 4096),
                  board = read_board(r, path)}
    rule.shape = KINDS[rule.board.kind]
    rule.goal = get_cells(r, "goal", path, rule.ncells, rule.colours)
    rule.cells = read_cells(r, path, rule.board, rule.ncells)
    rule.tiers = read_tiers(r, path)
    return rule
end

-- Board: the live state of one puzzle being played.
local Board = {}
Board.__index = Board

-- press(cell): cell from 1 to ncells; adds the cell's effects mod colours.
function Board:press(cell)
    local p = self.puzzle
    local c = p.cells[cell]
    if c == nil then
        error("press: no cell " .. tostring(cell) .. " (cells are 1.." .. p.ncells .. ")", 2)
    end
    local state, k = self.state, p.colours
    for _, e in ipairs(c.effects) do
        state[e.cell] = (state[e.cell] + e.amount) % k
    end
    self.presses = self.presses + 1
end

function Board:is_solved()
    local goal = self.puzzle.goal
    for i = 1, self.puzzle.ncells do
        if self.state[i] ~= goal[i] then return false end
    end
    return true
end

function Board:reset()
    local start = self.puzzle.state
    for i = 1, self.puzzle.ncells do self.state[i] = start[i] end
    self.presses = 0
end

-- puzzle:new_board(): a fresh board at the puzzle's start state.
local function new_board(puzzle)
    local b = setmetatable({puzzle = puzzle, state = {}, presses = 0}, Board)
    b:reset()
    return b
end
M.new_board = new_board

local function read_puzzle(d, path, rules_by_hash, position)
    want_table(d, path, "an object")
    local id = get_string(d, "id", path)
    if not id:match("^" .. string.rep("[0-9a-f]", 16) .. "$") then
        refuse(path .. ".id", "is not 16 lowercase hex digits")
    end
    local hash = get_string(d, "rule", path)
    local rule = rules_by_hash[hash]
    if not rule then refuse(path .. ".rule", "names no rule of the document") end
    local pz = {id = id, rule = rule,
                position = get_int(d, "position", path, 1),
                colours = rule.colours, ncells = rule.ncells, board = rule.board,
                cells = rule.cells, goal = rule.goal, shape = rule.shape,
                min_presses = get_int(d, "min_presses", path, 0),
                optimal_solutions = get_int(d, "optimal_solutions", path, 1),
                grade = get_string(d, "grade", path),
                grader_version = get_string(d, "grader_version", path),
                seed = get_string(d, "seed", path),
                index = get_int(d, "index", path, -1),
                submission = get_string(d, "submission", path),
                source = get_string(d, "source", path),
                meta = get_string(d, "meta", path),
                new_board = new_board}
    if pz.position ~= position then
        refuse(path .. ".position", "is " .. pz.position .. ", expected " .. position)
    end
    pz.state = get_cells(d, "state", path, rule.ncells, rule.colours)
    pz.solution = get_cells(d, "solution", path, rule.ncells, rule.colours)
    return pz
end

local function read_pack(doc)
    want_table(doc, "document", "a JSON object")
    local format = field(doc, "format", "document")
    if format ~= M.FORMAT then
        refuse("format", "is " .. tostring(format) .. ", not '" .. M.FORMAT .. "': not a quench pack")
    end
    local version = field(doc, "format_version", "document")
    if version ~= M.FORMAT_VERSION then
        refuse("format_version", "is " .. tostring(version) .. "; this loader reads version "
               .. M.FORMAT_VERSION .. " only")
    end
    local p = get_object(doc, "pack", "document")
    local pack = {name = get_string(p, "name", "pack"),
                  title = get_string(p, "title", "pack"),
                  description = get_string(p, "description", "pack"),
                  author = get_string(p, "author", "pack"),
                  version = get_int(p, "version", "pack", 1),
                  rules = {}, puzzles = {}, puzzle_ids = {}, by_id = {}}
    local rules = get_array(doc, "rules", "document", 0, 256)
    local by_hash = {}
    for i = 1, #rules do
        local rule = read_rule(rules[i], "rules[" .. i .. "]")
        pack.rules[i], by_hash[rule.hash] = rule, rule
    end
    local puzzles = get_array(doc, "puzzles", "document")
    for i = 1, #puzzles do
        local pz = read_puzzle(puzzles[i], "puzzles[" .. i .. "]", by_hash, i)
        pack.puzzles[i], pack.puzzle_ids[i], pack.by_id[pz.id] = pz, pz.id, pz
    end
    return pack
end

local function catch(fn, arg)
    local ok, res = pcall(fn, arg)
    if ok then return res end
    if getmetatable(res) == Refusal then return nil, res.msg end
    error(res, 0)
end

-- from_table(doc): a document already decoded (Defold: json.decode(text)).
function M.from_table(doc)
    return catch(read_pack, doc)
end

-- default_decoder(): lua-cjson's or dkjson's decode, or nil and why.
function M.default_decoder()
    local ok, cjson = pcall(require, "cjson")
    if ok then return cjson.decode end
    local ok2, dkjson = pcall(require, "dkjson")
    if ok2 then
        return function(text)
            local v, _, err = dkjson.decode(text)
            if err then error(err, 0) end
            return v
        end
    end
    return nil, "no JSON decoder: install lua-cjson or dkjson, or pass a decode function"
end

-- load(text [, decode]): parse and check the document's text. decode(text)
-- returns the decoded value or raises an error (cjson.decode,
-- json.decode of Defold or rxi's json.lua all do).
function M.load(text, decode)
    if type(text) ~= "string" then return nil, "document: not a string" end
    if decode == nil then
        local why
        decode, why = M.default_decoder()
        if not decode then return nil, why end
    end
    local ok, doc = pcall(decode, text)
    if not ok or doc == nil then
        return nil, "invalid JSON: " .. tostring(ok and "no value" or doc)
    end
    return M.from_table(doc)
end

-- read_file(path [, decode]): load() a file (outside LÖVE's sandbox).
function M.read_file(path, decode)
    local f, err = io.open(path, "rb")
    if not f then return nil, err end
    local text = f:read("*a")
    f:close()
    if text == nil then return nil, path .. ": cannot read" end
    return M.load(text, decode)
end

return M
