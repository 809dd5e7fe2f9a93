-- play.lua PACK.json MOVES.jsonl: the hints of the loader (quench_pack.lua)
-- from given positions. Each line of MOVES is {"puzzle": ID, "presses":
-- [CELL, ...]}, the cells pressed from the puzzle's start, in order, as
-- the document numbers them (from 0: cell c is this loader's c + 1, and
-- the plan printed is in the document's numbers too); for each, one line
-- on stdout: {"puzzle":ID,"presses_left":N,"plan":[CELL,...],"exact":B},
-- where N is board:presses_left() after those presses, plan the cells
-- hint() names, each pressed in turn until the board is solved, and exact
-- whether N is proven least (rule.hints_exact). The driver checks its own
-- answer: the plan must solve the board in exactly N presses, and undoing
-- every press must bring back the start, with presses_left() then
-- min_presses (when exact); a failure is named on stderr and the line
-- still printed. MOVES is read and checked whole before anything is
-- played; "-" reads standard input (for one of the two files).
-- Exit: 0 every line played; 1 a line failed its checks, or MOVES has no
-- line; 64 usage; 65 a document the loader refuses, or a MOVES line that
-- is not such an object, names no puzzle of the pack or a cell it lacks
-- (play: MOVES:LINE: what); 66 a file cannot be read; 69 no JSON
-- decoder; 70 the loader failed (a bug, not a verdict).
local dir = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
package.path = dir .. "/?.lua;" .. package.path
local quench_pack = require("quench_pack")

local MAX_PRESSES = 1048576

local function die(status, msg)
    io.stderr:write("play: ", msg, "\n")
    os.exit(status)
end

if arg[1] == nil or arg[2] == nil or arg[3] ~= nil then
    die(64, "usage: play PACK.json MOVES.jsonl")
end
local path, moves_path = arg[1], arg[2]
local decode, why = quench_pack.default_decoder()
if not decode then die(69, why) end

local function read(name)
    local f, err
    if name == "-" then f = io.stdin else f, err = io.open(name, "rb") end
    -- io.open says "PATH: reason"
    if not f then die(66, name .. ": cannot read (" .. tostring(err):gsub("^.*: ", "") .. ")") end
    local text = f:read("*a")
    if f ~= io.stdin then f:close() end
    if text == nil then die(66, name .. ": cannot read (a directory?)") end
    return text
end

local text, moves_text = read(path), read(moves_path)
local pack, msg, bug = quench_pack.load(text, decode)
if not pack then die(bug and 70 or 65, path .. ": " .. msg) end

local function is_int(v)
    return type(v) == "number" and v == v and v ~= math.huge and v ~= -math.huge
        and math.floor(v) == v
end

-- Every line first: nothing is played from a MOVES file that is wrong.
local games, line = {}, 0
for l in (moves_text .. "\n"):gmatch("([^\n]*)\n") do
    line = line + 1
    local where = moves_path .. ":" .. line
    if l:find("[^ \t\r]") then
        local ok, m = pcall(decode, l)
        if not ok or type(m) ~= "table" or m[1] ~= nil then die(65, where .. ": not a JSON object") end
        if type(m.puzzle) ~= "string" then die(65, where .. ': "puzzle" is not a puzzle id') end
        local pz = pack.by_id[m.puzzle]
        if not pz then die(65, where .. ': "puzzle" names no puzzle of the pack') end
        local presses = m.presses
        if type(presses) ~= "table" or #presses > MAX_PRESSES then
            die(65, where .. ': "presses" is not a list of at most ' .. MAX_PRESSES .. " cells")
        end
        local count = 0
        for _ in pairs(presses) do count = count + 1 end
        if count ~= #presses then
            die(65, where .. ': "presses" is not a list of at most ' .. MAX_PRESSES .. " cells")
        end
        for j = 1, #presses do
            local c = presses[j]
            if not is_int(c) or c < 0 or c >= pz.ncells then
                die(65, where .. ": presses[" .. (j - 1) .. "] is not a cell of the puzzle (0.."
                    .. (pz.ncells - 1) .. ")")
            end
        end
        games[#games + 1] = {line = line, puzzle = pz, presses = presses}
    end
end
if #games == 0 then die(1, moves_path .. ": no moves") end

local failed, out = 0, {}
for _, g in ipairs(games) do
    local pz = g.puzzle
    local board = pz:new_board()
    for _, c in ipairs(g.presses) do board:press(math.floor(c) + 1) end
    local left, plan = board:presses_left(), {}
    local h = board:hint()
    while h and #plan <= left do
        board:press(h)
        plan[#plan + 1] = h - 1
        h = board:hint()
    end
    local bad = {}
    if not board:is_solved() then
        bad[#bad + 1] = "following the hints does not reach the goal"
    elseif #plan ~= left then
        bad[#bad + 1] = "the hints took " .. #plan .. " presses, presses_left() said " .. left
    end
    while board:undo() do end
    local at_start = board.presses == 0
    for i = 1, pz.ncells do at_start = at_start and board.state[i] == pz.state[i] end
    if not at_start then
        bad[#bad + 1] = "undoing every press does not bring back the start"
    elseif pz.rule.hints_exact and board:presses_left() ~= pz.min_presses then
        bad[#bad + 1] = "at the start presses_left() is " .. board:presses_left()
            .. ", min_presses " .. pz.min_presses
    end
    for _, w in ipairs(bad) do
        io.stderr:write("play: ", moves_path, ":", g.line, ": puzzle ", pz.id, ": ", w, "\n")
    end
    if #bad > 0 then failed = failed + 1 end
    out[#out + 1] = '{"puzzle":"' .. pz.id .. '","presses_left":' .. left .. ',"plan":['
        .. table.concat(plan, ",") .. '],"exact":' .. tostring(pz.rule.hints_exact) .. "}\n"
end
io.stdout:write(table.concat(out))
os.exit(failed == 0 and 0 or 1)
