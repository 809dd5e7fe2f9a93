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
--   board:undo()                       -- take back the last press
--   board:presses_left()               -- the least presses from here
--   board:hint()                       -- a cell of an optimal plan (nil: solved)
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
--              by_id = {[id] = puzzle}, by_slot = {[slot] = puzzle},
--              rules = {rule, ...}}
--   rule    = {hash, name, title, description, author, colours, ncells,
--              board = {kind, width, height, wrap, side},
--              goal = {v, ...}, cells = {cell, ...},
--              tiers = {{name, lo, hi}, ...}, shape,
--              kernel = {{order, presses = {v, ...}}, ...} or nil,
--              kernel_size, hints_exact}
--   cell    = {index, row, col, x, y, effects = {{cell, amount}, ...}}
--   puzzle  = {id, position, rule, colours, ncells, board, cells, shape,
--              state, goal, min_presses, optimal_solutions, solution,
--              grade, grader_version, seed, index, submission, source,
--              meta, slot (nil in an older document), section,
--              human_level, human_level_number, human_score,
--              human_model_version (nil each when the puzzle has no
--              human grade), new_board}
--             (colours, ncells, board, cells, goal and shape are the
--             rule's, repeated so a game needs only the puzzle)
--   board   = {puzzle, state, presses, history, press, undo, is_solved,
--              reset, presses_left, hint}
--
-- Hints without a solver (docs/EXPORT.md, "Hints"): the position is always
-- the start plus the presses made, so (solution - presses) mod colours is a
-- plan from it, and every plan from it is that one plus a quiet pattern of
-- the rule's kernel (generators and their orders, from the document).
-- presses_left() and hint() walk that coset, at most MAX_KERNEL_WALK
-- elements; past it (or for a document without a kernel, from an older
-- quench) they use that plan itself: valid, not always the shortest, and
-- rule.hints_exact says so.
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
-- (r, r), so neighbouring centres are 1.5 apart. Origin top left, y down.
-- `shape` says what to draw at each centre: "square", "hexagon"
-- (pointy-top, 1 wide flat side to flat side) or "circle".
--
-- Errors: load, from_table and read_file never raise: for a document they
-- do not understand they return nil and a message, "PATH: what is wrong"
-- ("puzzles[3].state[2]: 5 is outside 0..1"), worded as the other loaders
-- of loaders/ word it and with the document's own 0-based places (the
-- fourth puzzle is puzzles[3]): another format or format_version, not
-- UTF-8, not JSON, nesting deeper than MAX_DEPTH, a missing or mistyped
-- field, a value out of range, two puzzles with one id. Every integer has
-- an upper bound (docs/EXPORT.md, "What every loader refuses"), so no
-- number from the document reaches the game as nil or as a float. A bug
-- in this module gives nil, "quench_pack: internal error: ...", true.
-- Keys the schema does not list are ignored.

local M = {}

M.FORMAT = "quench-pack"
M.FORMAT_VERSION = 2
-- Arrays and objects nest at most this deep (a pack needs 7); checked
-- before the decoder sees the text.
M.MAX_DEPTH = 8

local MAX_CELLS = 4096
-- Generators of a rule's kernel a document may list.
M.MAX_KERNEL = 64
-- Elements of a kernel presses_left() and hint() walk.
M.MAX_KERNEL_WALK = 65536
local MAX_RULES = 256
local MAX_TIERS = 16
local MAX_PUZZLES = 1048576 -- 2^20
-- Press counts (min_presses, tier bounds): a witness presses each of at
-- most 4096 cells at most 254 times, 1,040,384 in all.
local MAX_PRESSES = 1048576 -- 2^20
-- Other counts (pack version, optimal solutions, index): what a double
-- holds exactly, so every runtime reads the same number.
local MAX_COUNT = 9007199254740991 -- 2^53 - 1
-- The human grade (docs/GENERATE.md, "The human ladder"): the rungs in
-- order (human_level_number counts them from 0, as the document does),
-- and the score's bound in thousandths (the schema's).
local HUMAN_LEVELS = {"spot", "chase", "table", "global"}
local MAX_HUMAN_SCORE = 1000000000000
local TWO53 = 9007199254740992

local SQRT3_2 = math.sqrt(3) / 2
local tointeger = math.tointeger or function(v) return v end
local math_type = math.type or function() return "float" end

-- A refusal carries this marker, so the loader tells a refusal from its
-- own bug.
local Refusal = {}

local function refuse(path, msg)
    error(setmetatable({msg = path == "" and msg or path .. ": " .. msg}, Refusal), 0)
end

-- How a message shows text and values from the document, the same in
-- the four loaders: control characters as \u00XX (no document can put a
-- raw one on a terminal), at most 40 characters (not cutting a UTF-8
-- sequence); numbers as number() writes them; an array or object by its
-- kind.
local function controls(s)
    return (s:gsub("%c", function(c) return string.format("\\u%04x", c:byte()) end))
end

local function cut(s)
    if #s <= 40 then return s end
    return (s:sub(1, 37):gsub("[\192-\255][\128-\191]*$", "")) .. "..."
end

local function quote(s)
    -- Only the start can show: the rest is cut.
    s = s:sub(1, 41):gsub("[\\\"]", "\\%0")
    return cut('"' .. controls(s) .. '"')
end

-- decimal(n): an integral number's digits, exactly (C's %.0f is exact).
local function decimal(n)
    if math_type(n) == "integer" then return tostring(n) end
    return string.format("%.0f", n)
end

-- sci6(digits): an integer's decimal digits (16 or more) as six
-- significant digits, rounded half up: "1e+30", "9.22337e+18".
local function sci6(d)
    local m, e = d:sub(1, 6), #d - 1
    if d:byte(7) >= 53 then -- "5"
        m = tostring(tonumber(m) + 1)
        if #m > 6 then m, e = m:sub(1, 6), e + 1 end
    end
    m = m:gsub("0+$", "")
    return m:sub(1, 1) .. (#m > 1 and "." .. m:sub(2) or "") .. "e+" .. e
end

-- number(v): an integer below 2^53 in digits, a larger one as sci6 (an
-- integer another runtime may have rounded: all of them show it alike), a
-- fraction with up to six decimals (rounded half up, trailing zeros
-- dropped unless all six are 0).
local function number(v)
    if v ~= v then return "NaN" end
    if v == math.huge then return "Infinity" end
    if v == -math.huge then return "-Infinity" end
    if math.floor(v) == v then
        local d = decimal(v):gsub("^%-", "")
        if v > -TWO53 and v < TWO53 then return decimal(v) end
        return (v < 0 and "-" or "") .. sci6(d)
    end
    local a = v < 0 and -v or v
    local ip = math.floor(a)
    local f = math.floor((a - ip) * 1e6 + 0.5)
    if f >= 1e6 then ip, f = ip + 1, f - 1e6 end
    local six = string.format("%06d", f)
    local trimmed = six:gsub("0+$", "")
    return (v < 0 and "-" or "") .. decimal(ip) .. "." .. (trimmed ~= "" and trimmed or six)
end

-- What a decoder marks a table as: dkjson sets __jsontype to "object"
-- or "array"; other decoders give plain tables.
local function jsontype(t)
    local mt = getmetatable(t)
    return type(mt) == "table" and rawget(mt, "__jsontype") or nil
end

-- Whether t's keys are exactly 1..#t.
local function is_sequence(t)
    local n, count = #t, 0
    for _ in pairs(t) do count = count + 1 end
    return count == n
end

local function is_array(v)
    return type(v) == "table" and jsontype(v) ~= "object" and is_sequence(v)
end

-- An object: a table that is not a non-empty array (a decoder's empty
-- object and empty array may be one empty table). v[1] first: an object
-- has no key 1, so its keys need no counting.
local function is_object(v)
    return type(v) == "table" and jsontype(v) ~= "array"
        and (rawget(v, 1) == nil or jsontype(v) == "object" or not is_sequence(v))
end

local function show(v)
    local t = type(v)
    if t == "string" then return quote(v) end
    if t == "number" then return number(v) end
    if t == "boolean" then return tostring(v) end
    if t == "table" then return is_array(v) and next(v) ~= nil and "an array" or "an object" end
    return "null" -- nil, or a decoder's null (cjson.null is a userdata)
end

-- The checks: each returns the value or refuses at `path`, a place in the
-- document's own terms ("rules[0].cells[3]"). at(path, key): the place of
-- a field.
local function at(path, key)
    return path == "document" and key or path .. "." .. key
end

local function field(t, key, path)
    local v = t[key]
    if v == nil then refuse(path, 'missing field "' .. key .. '"') end
    return v
end

local function object(v, path)
    if not is_object(v) then refuse(path, "not an object") end
    return v
end

local function array(v, path, most)
    if not is_array(v) then refuse(path, "not an array") end
    if #v > most then refuse(path, #v .. " items, at most " .. most) end
    return v
end

local function check_string(v, path)
    if type(v) ~= "string" then refuse(path, "not a string") end
    return v
end

local function get_string(t, key, path)
    return check_string(field(t, key, path), at(path, key))
end

-- check_int(v, path, lo, hi): v, an integer in lo..hi (both within 2^53),
-- as a Lua integer where the runtime has them. Decoders give JSON numbers
-- as floats (lua-cjson) or integers (dkjson under 5.3+), and lua-cjson
-- also reads NaN and Infinity: the bounds are checked before any
-- conversion, so none can fail.
local function check_int(v, path, lo, hi)
    if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge
        or math.floor(v) ~= v then
        refuse(path, show(v) .. " is not an integer")
    end
    if v < lo or v > hi then
        refuse(path, show(v) .. " is outside " .. decimal(lo) .. ".." .. decimal(hi))
    end
    return tointeger(v)
end

local function get_int(t, key, path, lo, hi)
    return check_int(field(t, key, path), at(path, key), lo, hi)
end

local function one_of(v, allowed, path)
    for _, a in ipairs(allowed) do
        if v == a then return v end
    end
    refuse(path, show(v) .. " is not one of " .. table.concat(allowed, ", "))
end

-- A field a document may leave out or write null: nil then (lua-cjson's
-- null is a userdata, dkjson's nil).
local function optional(t, key)
    local v = t[key]
    if type(v) == "userdata" then return nil end
    return v
end

-- The human grade into pz: four fields, nil together when the puzzle has
-- none; the number must be the level's.
local function read_human(d, path, pz)
    local level = optional(d, "human_level")
    if level ~= nil then one_of(level, HUMAN_LEVELS, path .. ".human_level") end
    local number = optional(d, "human_level_number")
    if number ~= nil then number = check_int(number, path .. ".human_level_number", 0, 3) end
    local want = nil
    for i, name in ipairs(HUMAN_LEVELS) do
        if name == level then want = i - 1 end
    end
    if number ~= want then
        refuse(path .. ".human_level_number", show(number) .. ", expected " .. show(want)
               .. " (human_level is " .. show(level) .. ")")
    end
    pz.human_level, pz.human_level_number = level, number
    local score = optional(d, "human_score")
    if score ~= nil then
        score = check_int(score, path .. ".human_score", -MAX_HUMAN_SCORE, MAX_HUMAN_SCORE)
    end
    local model = optional(d, "human_model_version")
    if model ~= nil then model = check_int(model, path .. ".human_model_version", 1, MAX_COUNT) end
    pz.human_score, pz.human_model_version = score, model
end

local function lower_hex(s, digits)
    if digits > 0 and #s ~= digits then return false end
    return not s:find("[^0-9a-f]")
end

-- One value per cell, each below colours: state, goal, solution.
local function get_cells(t, key, path, ncells, colours)
    local p = at(path, key)
    local a = array(field(t, key, path), p, MAX_CELLS)
    if #a ~= ncells then
        refuse(p, #a .. " values, the rule has " .. ncells .. " cells")
    end
    local out = {}
    for i = 1, ncells do
        out[i] = check_int(a[i], p .. "[" .. (i - 1) .. "]", 0, colours - 1)
    end
    return out
end

local KINDS = {grid = "square", hex = "hexagon", hexagon = "hexagon", graph = "circle"}
local KIND_NAMES = {"grid", "hex", "hexagon", "graph"}
local WRAPS = {"none", "x", "y", "both"}

local function read_board(v, path)
    local b = object(v, path)
    return {kind = one_of(field(b, "kind", path), KIND_NAMES, path .. ".kind"),
            width = get_int(b, "width", path, 1, MAX_CELLS),
            height = get_int(b, "height", path, 1, MAX_CELLS),
            wrap = one_of(field(b, "wrap", path), WRAPS, path .. ".wrap"),
            side = get_int(b, "side", path, 0, 37)}
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

-- read_cell(v, i, path, rule): cell i (from 1) of the rule, the
-- document's cell i - 1.
local function read_cell(v, i, path, rule)
    local c = object(v, path)
    local board, ncells = rule.board, rule.ncells
    local cell = {index = get_int(c, "index", path, 0, ncells - 1)}
    if cell.index ~= i - 1 then
        refuse(path .. ".index", cell.index .. ", expected " .. (i - 1) .. " (cells are in index order)")
    end
    cell.row = get_int(c, "row", path, 0, board.height - 1)
    cell.col = get_int(c, "col", path, 0, board.width - 1)
    local list = array(field(c, "effects", path), path .. ".effects", MAX_CELLS)
    if #list == 0 then refuse(path .. ".effects", "empty: a press must change something") end
    cell.effects = {}
    for e = 1, #list do
        local p = path .. ".effects[" .. (e - 1) .. "]"
        local eff = object(list[e], p)
        local target = get_int(eff, "cell", p, 0, ncells - 1)
        cell.effects[e] = {cell = target + 1,
                           amount = get_int(eff, "amount", p, 1, rule.colours - 1)}
    end
    cell.x, cell.y = centre(board, cell, i, ncells)
    return cell
end

-- read_kernel(r, path, rule): the rule's kernel, generators of the quiet
-- patterns with their orders, each checked to be of its order and quiet
-- (pressing it changes no cell), so a hint never leads away from the goal;
-- nil when the document has none (an older quench). Places in messages
-- are the document's (cells from 0).
local function read_kernel(r, path, rule)
    rule.kernel_size, rule.hints_exact = math.huge, false
    if r.kernel == nil then return end
    local list = array(r.kernel, path .. ".kernel", M.MAX_KERNEL)
    local k, n, size = rule.colours, rule.ncells, 1
    rule.kernel = {}
    for g = 1, #list do
        local p = path .. ".kernel[" .. (g - 1) .. "]"
        local gen = object(list[g], p)
        local order = get_int(gen, "order", p, 2, k)
        if k % order ~= 0 then
            refuse(p .. ".order", order .. " does not divide colours " .. k)
        end
        local presses = get_cells(gen, "presses", p, n, k)
        for j = 1, n do
            if presses[j] * order % k ~= 0 then
                refuse(p .. ".presses[" .. (j - 1) .. "]", presses[j] .. " is not of order "
                       .. order .. " mod " .. k)
            end
        end
        local changed = {}
        for i = 1, n do changed[i] = 0 end
        for j = 1, n do
            for _, e in ipairs(rule.cells[j].effects) do
                changed[e.cell] = (changed[e.cell] + presses[j] * e.amount) % k
            end
        end
        for i = 1, n do
            if changed[i] ~= 0 then
                refuse(p, "not quiet: pressing it changes cell " .. (i - 1))
            end
        end
        rule.kernel[g] = {order = order, presses = presses}
        if size <= M.MAX_KERNEL_WALK then size = size * order end
    end
    if size <= M.MAX_KERNEL_WALK then rule.kernel_size, rule.hints_exact = size, true end
end

local function read_rule(v, path)
    local r = object(v, path)
    local rule = {hash = get_string(r, "hash", path)}
    if not lower_hex(rule.hash, 64) then
        refuse(path .. ".hash", "not 64 lowercase hex digits")
    end
    rule.colours = get_int(r, "colours", path, 2, 255)
    rule.board = read_board(field(r, "board", path), path .. ".board")
    rule.shape = KINDS[rule.board.kind]
    rule.ncells = get_int(r, "ncells", path, 1, MAX_CELLS)
    local list = array(field(r, "cells", path), path .. ".cells", MAX_CELLS)
    if #list ~= rule.ncells then
        refuse(path .. ".cells", #list .. " cells, ncells is " .. rule.ncells)
    end
    rule.cells = {}
    for i = 1, rule.ncells do
        rule.cells[i] = read_cell(list[i], i, path .. ".cells[" .. (i - 1) .. "]", rule)
    end
    if rule.board.kind == "hexagon" then place_hexagon(rule.cells) end
    local tiers = array(field(r, "tiers", path), path .. ".tiers", MAX_TIERS)
    rule.tiers = {}
    for t = 1, #tiers do
        local p = path .. ".tiers[" .. (t - 1) .. "]"
        local tier = object(tiers[t], p)
        rule.tiers[t] = {name = get_string(tier, "name", p),
                         lo = get_int(tier, "lo", p, 0, MAX_PRESSES),
                         hi = get_int(tier, "hi", p, 0, MAX_PRESSES)}
    end
    rule.name = get_string(r, "name", path)
    rule.title = get_string(r, "title", path)
    rule.description = get_string(r, "description", path)
    rule.author = get_string(r, "author", path)
    rule.goal = get_cells(r, "goal", path, rule.ncells, rule.colours)
    read_kernel(r, path, rule)
    return rule
end

-- best_plan(puzzle, counts): the least presses from the position that
-- counts (presses per cell, mod colours) reach, and one plan that makes
-- them: (solution - counts) mod colours is a plan from there, and every
-- other adds a quiet pattern, sum c_g gen_g (0 <= c_g < order_g). All of
-- them are walked (an odometer over the c_g) and the cheapest kept, ties
-- going to the plan smaller at the first cell where they differ (as
-- `quench solve` breaks them). Returns plan (press counts by cell, from
-- 1), presses, exact; not exact (the plan itself) when the rule's kernel
-- is unknown or past MAX_KERNEL_WALK.
local function best_plan(puzzle, counts)
    local rule = puzzle.rule
    local k, n = rule.colours, rule.ncells
    local x, best, cost = {}, {}, 0
    for j = 1, n do
        x[j] = (puzzle.solution[j] - counts[j]) % k
        best[j] = x[j]
        cost = cost + x[j]
    end
    if not rule.hints_exact then return best, cost, false end
    local best_cost, gens, digit = cost, {}, {}
    for g = 1, #rule.kernel do
        local nz = {}
        for j = 1, n do
            local v = rule.kernel[g].presses[j]
            if v ~= 0 then nz[#nz + 1] = j; nz[#nz + 1] = v end
        end
        gens[g], digit[g] = nz, 0
    end
    while true do
        local g = 1
        while g <= #gens do -- add gen g; carry when c_g wraps
            local nz = gens[g]
            for t = 1, #nz, 2 do
                local j = nz[t]
                local was = x[j]
                local now = (was + nz[t + 1]) % k
                cost = cost + now - was
                x[j] = now
            end
            digit[g] = digit[g] + 1
            if digit[g] < rule.kernel[g].order then break end
            digit[g] = 0
            g = g + 1
        end
        if g > #gens then break end -- every element visited
        local better = cost < best_cost
        if not better and cost == best_cost then
            for j = 1, n do
                if x[j] ~= best[j] then better = x[j] < best[j]; break end
            end
        end
        if better then
            for j = 1, n do best[j] = x[j] end
            best_cost = cost
        end
    end
    return best, best_cost, true
end
M.best_plan = best_plan

-- Board: the live state of one puzzle being played. state and history
-- (the cells pressed since the start or the last reset, in order) are for
-- reading: hints read the position from the presses, not from state.
local Board = {}
Board.__index = Board

function Board:_apply(cell, times)
    local state, k = self.state, self.puzzle.colours
    for _, e in ipairs(self.puzzle.cells[cell].effects) do
        state[e.cell] = (state[e.cell] + e.amount * times) % k
    end
    self.counts[cell] = (self.counts[cell] + times) % k
end

-- press(cell): cell from 1 to ncells; adds the cell's effects mod colours.
function Board:press(cell)
    local p = self.puzzle
    if p.cells[cell] == nil then
        error("press: no cell " .. tostring(cell) .. " (cells are 1.." .. p.ncells .. ")", 2)
    end
    self:_apply(cell, 1)
    self.history[#self.history + 1] = cell
    self.presses = #self.history
    -- Following an optimal plan keeps the rest of it optimal: one press
    -- fewer from here, and no plan could be shorter.
    if self._plan and self._plan[cell] > 0 then
        self._plan[cell] = self._plan[cell] - 1
        self._left = self._left - 1
    else
        self._plan = nil
    end
end

-- undo(): take back the last press (colours - 1 more of it): the cell, or
-- nil when there is none.
function Board:undo()
    local n = #self.history
    if n == 0 then return nil end
    local cell = self.history[n]
    self.history[n] = nil
    self.presses = n - 1
    self:_apply(cell, self.puzzle.colours - 1)
    self._plan = nil
    return cell
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
    for i = 1, self.puzzle.ncells do
        self.state[i] = start[i]
        self.counts[i] = 0
    end
    self.history, self.presses, self._plan = {}, 0, nil
end

function Board:_best()
    if not self._plan then
        self._plan, self._left = best_plan(self.puzzle, self.counts)
    end
end

-- presses_left(): the least presses from here to the goal (exact when
-- puzzle.rule.hints_exact; else those of a valid plan); 0 when solved.
function Board:presses_left()
    self:_best()
    return self._left
end

-- hint(): a cell (from 1) to press next on a shortest way to the goal,
-- or nil when solved. Pressing it leaves presses_left() one lower.
function Board:hint()
    self:_best()
    for j = 1, self.puzzle.ncells do
        if self._plan[j] > 0 then return j end
    end
    return nil
end

-- puzzle:new_board(): a fresh board at the puzzle's start state.
local function new_board(puzzle)
    local b = setmetatable({puzzle = puzzle, state = {}, counts = {}, history = {},
                            presses = 0}, Board)
    b:reset()
    return b
end
M.new_board = new_board

-- read_puzzle(v, i, path, rules_by_hash): the pack's puzzle i (from 1).
local function read_puzzle(v, i, path, rules_by_hash)
    local d = object(v, path)
    local pz = {id = get_string(d, "id", path)}
    if not lower_hex(pz.id, 16) then
        refuse(path .. ".id", "not 16 lowercase hex digits")
    end
    pz.position = get_int(d, "position", path, 1, MAX_PUZZLES)
    if pz.position ~= i then
        refuse(path .. ".position", pz.position .. ", expected " .. i .. " (puzzles are in pack order)")
    end
    local hash = get_string(d, "rule", path)
    local rule = rules_by_hash[hash]
    if not rule then refuse(path .. ".rule", "no rule with hash " .. show(hash) .. " in rules") end
    pz.rule, pz.colours, pz.ncells, pz.board = rule, rule.colours, rule.ncells, rule.board
    pz.cells, pz.goal, pz.shape = rule.cells, rule.goal, rule.shape
    pz.state = get_cells(d, "state", path, rule.ncells, rule.colours)
    pz.solution = get_cells(d, "solution", path, rule.ncells, rule.colours)
    pz.min_presses = get_int(d, "min_presses", path, 0, MAX_PRESSES)
    pz.optimal_solutions = get_int(d, "optimal_solutions", path, 1, MAX_COUNT)
    pz.grade = get_string(d, "grade", path)
    pz.grader_version = get_string(d, "grader_version", path)
    pz.seed = get_string(d, "seed", path)
    if not lower_hex(pz.seed, 0) then refuse(path .. ".seed", "not lowercase hex digits") end
    pz.index = get_int(d, "index", path, -1, MAX_COUNT)
    pz.submission = get_string(d, "submission", path)
    pz.source = get_string(d, "source", path)
    pz.meta = get_string(d, "meta", path)
    -- the level slot (a save-game key; nil in an older document) and the
    -- recipe section ("" when none)
    if d.slot ~= nil then pz.slot = get_int(d, "slot", path, 1, MAX_COUNT) end
    pz.section = d.section ~= nil and get_string(d, "section", path) or ""
    -- the human grade (nil each in an older document or an ungraded
    -- puzzle): the ladder's rung, its number 0..3, the score in
    -- thousandths (the predicted log of a solve time) and its model
    read_human(d, path, pz)
    pz.new_board = new_board
    return pz
end

local function read_pack(doc)
    local d = object(doc, "document")
    local format = field(d, "format", "document")
    if format ~= M.FORMAT then
        refuse("format", show(format) .. ' is not a quench pack (expected "' .. M.FORMAT .. '")')
    end
    local version = field(d, "format_version", "document")
    if version ~= M.FORMAT_VERSION then
        refuse("format_version", show(version) .. " is not supported: this loader reads version "
               .. M.FORMAT_VERSION .. " (export the pack again with a current quench)")
    end
    local pk = object(field(d, "pack", "document"), "pack")
    local pack = {rules = {}, puzzles = {}, puzzle_ids = {}, by_id = {}, by_slot = {}}
    local rules = array(field(d, "rules", "document"), "rules", MAX_RULES)
    local by_hash, rule_at = {}, {}
    for i = 1, #rules do
        local rule = read_rule(rules[i], "rules[" .. (i - 1) .. "]")
        if by_hash[rule.hash] then
            refuse("rules[" .. (i - 1) .. "].hash", "duplicate rule hash (rules["
                   .. (rule_at[rule.hash] - 1) .. "] has it too)")
        end
        pack.rules[i], by_hash[rule.hash], rule_at[rule.hash] = rule, rule, i
    end
    local puzzles = array(field(d, "puzzles", "document"), "puzzles", MAX_PUZZLES)
    for i = 1, #puzzles do
        local pz = read_puzzle(puzzles[i], i, "puzzles[" .. (i - 1) .. "]", by_hash)
        local first = pack.by_id[pz.id]
        if first then
            refuse("puzzles[" .. (i - 1) .. "].id", "duplicate puzzle id (puzzles["
                   .. (first.position - 1) .. "] has it too)")
        end
        pack.puzzles[i], pack.puzzle_ids[i], pack.by_id[pz.id] = pz, pz.id, pz
        if pz.slot ~= nil then
            local other = pack.by_slot[pz.slot]
            if other then
                refuse("puzzles[" .. (i - 1) .. "].slot", "duplicate slot (puzzles["
                       .. (other.position - 1) .. "] has it too)")
            end
            pack.by_slot[pz.slot] = pz
        end
    end
    pack.name = get_string(pk, "name", "pack")
    -- characters, not bytes: UTF-8 continuation bytes do not count
    local chars = #pack.name:gsub("[\128-\191]", "")
    if chars < 1 or chars > 64 then refuse("pack.name", chars .. " characters, not 1..64") end
    pack.title = get_string(pk, "title", "pack")
    pack.description = get_string(pk, "description", "pack")
    pack.author = get_string(pk, "author", "pack")
    pack.version = get_int(pk, "version", "pack", 1, MAX_COUNT)
    return pack
end

-- catch(fn, arg): fn(arg), or nil and the refusal, or nil, "quench_pack:
-- internal error: ...", true for anything else (a bug here).
local function catch(fn, arg)
    local ok, res = pcall(fn, arg)
    if ok then return res end
    if getmetatable(res) == Refusal then return nil, res.msg end
    local shown_ok, shown = pcall(tostring, res)
    return nil, "quench_pack: internal error: " .. controls(shown_ok and shown or "?"), true
end

-- from_table(doc): a document already decoded (Defold: json.decode(text)).
-- The nesting bound is load()'s: a decoded document is already built.
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

-- valid_utf8(s): whether s is UTF-8 (no overlong forms, no surrogates,
-- nothing past U+10FFFF), as the other loaders' readers require.
local function valid_utf8(s)
    local i = 1
    while true do
        i = s:find("[\128-\255]", i)
        if not i then return true end
        local c, len, cp, least = s:byte(i)
        if c >= 194 and c <= 223 then len, cp, least = 2, c - 192, 128
        elseif c >= 224 and c <= 239 then len, cp, least = 3, c - 224, 2048
        elseif c >= 240 and c <= 244 then len, cp, least = 4, c - 240, 65536
        else return false end
        for k = 1, len - 1 do
            local b = s:byte(i + k)
            if not b or b < 128 or b > 191 then return false end
            cp = cp * 64 + (b - 128)
        end
        if cp < least or cp > 1114111 or (cp >= 55296 and cp <= 57343) then return false end
        i = i + len
    end
end

-- nesting(text): nil when no array or object opens inside MAX_DEPTH
-- others, else the refusal, before a decoder sees the text (a decoder
-- that recurses can crash on deep nesting; lua-cjson stops at 1000,
-- dkjson recurses). The path named is the deep container's, as the checks
-- name places: keys that are not [A-Za-z0-9_]+ as ["KEY"] (their text as
-- written), "[?]" where a key is missing. Text inside strings is skipped;
-- what is not JSON is left to the decoder.
local function nesting(text)
    -- The common case first, in a few passes of C: with no backslash,
    -- strings are '"' to '"'; without them and all but the brackets, each
    -- pass drops the innermost pairs, and 8 passes leave nothing iff
    -- the nesting is within 8 and balanced. Anything else (a backslash,
    -- a bracket left) goes to the exact scan below, which decides.
    if not text:find("\\", 1, true) then
        local b = text:gsub('"[^"]*"', ""):gsub("[^%[%]{}]+", ""):gsub("{", "["):gsub("}", "]")
        for _ = 1, M.MAX_DEPTH do b = b:gsub("%[%]", "") end
        if b == "" then return nil end
    end
    local stack, depth, i = {}, 0, 1
    while true do
        local s = text:find('[%[%]{}",]', i)
        if not s then return nil end
        local c = text:byte(s)
        i = s + 1
        if c == 34 then
            local top = stack[depth]
            local is_key = top ~= nil and top.want_key
            if is_key then top.want_key = false end
            local j = s + 1
            while true do
                local q = text:find('["\\]', j)
                if not q then return nil end -- unterminated: the decoder says so
                if text:byte(q) == 92 then
                    j = q + 2
                else
                    if is_key then top.key = text:sub(s + 1, q - 1) end
                    i = q + 1
                    break
                end
            end
        elseif c == 91 or c == 123 then
            if depth == M.MAX_DEPTH then
                local p = "document"
                for level = 1, depth do
                    local e = stack[level]
                    if e.array then p = p .. "[" .. e.index .. "]"
                    elseif e.key == nil then p = p .. "[?]"
                    elseif e.key:find("^[A-Za-z0-9_]+$") == nil then
                        p = p .. "[" .. cut('"' .. controls(e.key) .. '"') .. "]"
                    elseif level == 1 then p = e.key
                    else p = p .. "." .. e.key end
                end
                return p .. ": nesting deeper than " .. M.MAX_DEPTH
            end
            depth = depth + 1
            stack[depth] = {array = c == 91, index = 0, want_key = c == 123}
        elseif c == 93 or c == 125 then
            if depth > 0 then stack[depth], depth = nil, depth - 1 end
        elseif depth > 0 then -- a comma
            local top = stack[depth]
            if top.array then top.index = top.index + 1
            else top.key, top.want_key = nil, true end
        end
    end
end

-- load(text [, decode]): parse and check the document's text (a byte
-- order mark at its start is skipped). decode(text) returns the decoded
-- value or raises an error (cjson.decode, json.decode of Defold or rxi's
-- json.lua all do).
function M.load(text, decode)
    if type(text) ~= "string" then return nil, "document: not a string" end
    if text:sub(1, 3) == "\239\187\191" then text = text:sub(4) end
    if not text:find("[^ \t\r\n]") then return nil, "not JSON: the text is empty" end
    if not valid_utf8(text) then return nil, "not JSON: the text is not UTF-8" end
    local deep = nesting(text)
    if deep then return nil, deep end
    if decode == nil then
        local why
        decode, why = M.default_decoder()
        if not decode then return nil, why end
    end
    local ok, doc = pcall(decode, text)
    if not ok then
        local shown_ok, shown = pcall(tostring, doc)
        return nil, "not JSON: " .. controls(shown_ok and shown or "?")
    end
    if doc == nil then return nil, "not JSON: no value" end
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
