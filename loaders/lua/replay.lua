-- replay.lua PACK.json: replay every puzzle's witness through the loader's
-- own press (cell i pressed solution[i] times), check that the board then
-- shows the goal, that the witness uses exactly min_presses presses and
-- that reset() brings back the start state. Each failure is named on
-- stderr, and so is an empty pack; stdout gets one line, "replayed N
-- puzzles: S solved, F failed". Exit 0 when F = 0 and N > 0, 1 when a
-- puzzle failed or the pack is empty, 64 usage, 65 a document the loader
-- refuses (not UTF-8, bad JSON, too deep, another format or version, a
-- missing or bad field), 66 the file cannot be opened, 69 no JSON decoder,
-- 70 the loader failed (a bug, not a verdict).
local dir = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
package.path = dir .. "/?.lua;" .. package.path
local quench_pack = require("quench_pack")

local function die(status, msg)
    io.stderr:write("replay: ", msg, "\n")
    os.exit(status)
end

local path = arg[1]
if path == nil or arg[2] ~= nil then die(64, "usage: replay PACK.json") end
local decode, why = quench_pack.default_decoder()
if not decode then die(69, why) end
local f, err = io.open(path, "rb")
-- io.open says "PATH: reason"
if not f then die(66, path .. ": cannot read (" .. tostring(err):gsub("^.*: ", "") .. ")") end
local text = f:read("*a")
f:close()
if text == nil then die(66, path .. ": cannot read (a directory?)") end
local pack, msg, bug = quench_pack.load(text, decode)
if not pack then die(bug and 70 or 65, path .. ": " .. msg) end

-- replay_one(puzzle): nil when the witness plays as the document says,
-- else what went wrong.
local function replay_one(pz)
    local board = pz:new_board()
    local presses = 0
    for cell, times in ipairs(pz.solution) do
        for _ = 1, times do board:press(cell) end
        presses = presses + times
    end
    if board.presses ~= presses then
        return "the board counted " .. board.presses .. " presses, the witness has " .. presses
    end
    if not board:is_solved() then return "the witness does not reach the goal" end
    if presses ~= pz.min_presses then
        return "the witness uses " .. presses .. " presses, min_presses is " .. pz.min_presses
    end
    board:reset()
    for i = 1, pz.ncells do
        if board.state[i] ~= pz.state[i] or board.presses ~= 0 then
            return "reset() does not restore the start state"
        end
    end
    return nil
end

local solved, failed = 0, 0
for _, pz in ipairs(pack.puzzles) do
    local why_not = replay_one(pz)
    if why_not then
        failed = failed + 1
        io.stderr:write("replay: puzzle ", pz.position, " (id ", pz.id, "): ", why_not, "\n")
    else
        solved = solved + 1
    end
end
local n = #pack.puzzles
if n == 0 then io.stderr:write("replay: ", path, ": the pack has no puzzles\n") end
io.stdout:write("replayed ", n, " puzzles: ", solved, " solved, ", failed, " failed\n")
os.exit((failed == 0 and n > 0) and 0 or 1)
