// play.mjs PACK.json MOVES.jsonl: the hints of the loader (quench-pack.js)
// from given positions. Each line of MOVES is {"puzzle": ID, "presses":
// [CELL, ...]}, the cells pressed from the puzzle's start, in order (cells
// as the document numbers them, from 0); for each, one line on stdout:
// {"puzzle":ID,"presses_left":N,"plan":[CELL,...],"exact":B}, where N is
// board.pressesLeft() after those presses, plan the cells hint() names,
// each pressed in turn until the board is solved, and exact whether N is
// proven least (rule.hintsExact). The driver checks its own answer: the
// plan must solve the board in exactly N presses, and undoing every press
// must bring back the start, with pressesLeft() then min_presses (when
// exact); a failure is named on stderr and the line still printed.
// MOVES is read and checked whole before anything is played. "-" reads
// standard input (for one of the two files).
// Exit: 0 every line played; 1 a line failed its checks, or MOVES has no
// line; 64 usage; 65 a document the loader refuses, or a MOVES line that
// is not such an object, names no puzzle of the pack or a cell it lacks
// (play: MOVES:LINE: what); 66 a file cannot be read.
import { readFileSync } from "node:fs";
import { parsePack, PackError } from "./quench-pack.js";

const MAX_PRESSES = 1048576;
const args = process.argv.slice(2);
if (args.length !== 2) {
    process.stderr.write("usage: play PACK.json MOVES.jsonl\n");
    process.exit(64);
}
const [file, movesFile] = args;
const die = (status, msg) => {
    process.stderr.write(`play: ${msg}\n`);
    process.exit(status);
};
function read(name) {
    try {
        return readFileSync(name === "-" ? 0 : name);
    } catch (e) {
        die(66, `${name}: cannot read (${e.code || e.message})`);
    }
}
function utf8(bytes, name) {
    try {
        return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
        if (name === null) throw new PackError("", "not JSON: the text is not UTF-8");
        die(65, `${name}: not UTF-8`);
    }
}

const packBytes = read(file), movesBytes = read(movesFile);
let pack;
try {
    pack = parsePack(utf8(packBytes, null));
} catch (e) {
    if (!(e instanceof PackError)) throw e;
    die(65, `${file}: ${e.message}`);
}

// Every line first: nothing is played from a MOVES file that is wrong.
const games = [];
utf8(movesBytes, movesFile).split("\n").forEach((text, i) => {
    const where = `${movesFile}:${i + 1}`;
    if (/^[ \t\r]*$/.test(text)) return;
    let m;
    try {
        m = JSON.parse(text);
    } catch {
        die(65, `${where}: not a JSON object`);
    }
    if (m === null || typeof m !== "object" || Array.isArray(m)) die(65, `${where}: not a JSON object`);
    if (typeof m.puzzle !== "string") die(65, `${where}: "puzzle" is not a puzzle id`);
    const puzzle = pack.puzzle(m.puzzle);
    if (!puzzle) die(65, `${where}: "puzzle" names no puzzle of the pack`);
    if (!Array.isArray(m.presses) || m.presses.length > MAX_PRESSES)
        die(65, `${where}: "presses" is not a list of at most ${MAX_PRESSES} cells`);
    m.presses.forEach((c, j) => {
        if (!Number.isInteger(c) || c < 0 || c >= puzzle.cells.length)
            die(65, `${where}: presses[${j}] is not a cell of the puzzle (0..${puzzle.cells.length - 1})`);
    });
    games.push({ line: i + 1, puzzle, presses: m.presses });
});
if (games.length === 0) die(1, `${movesFile}: no moves`);

let failed = 0;
const out = [];
for (const { line, puzzle, presses } of games) {
    const board = puzzle.newBoard();
    for (const c of presses) board.press(c);
    const left = board.pressesLeft(), plan = [];
    for (let h = board.hint(); h >= 0 && plan.length <= left; h = board.hint()) {
        board.press(h);
        plan.push(h);
    }
    const why = [];
    if (!board.isSolved()) why.push("following the hints does not reach the goal");
    else if (plan.length !== left) why.push(`the hints took ${plan.length} presses, pressesLeft() said ${left}`);
    while (board.undo() >= 0);
    if (board.presses !== 0 || !board.state.every((v, j) => v === puzzle.start[j]))
        why.push("undoing every press does not bring back the start");
    else if (puzzle.rule.hintsExact && board.pressesLeft() !== puzzle.minPresses)
        why.push(`at the start pressesLeft() is ${board.pressesLeft()}, min_presses ${puzzle.minPresses}`);
    for (const w of why) process.stderr.write(`play: ${movesFile}:${line}: puzzle ${puzzle.id}: ${w}\n`);
    failed += why.length > 0;
    out.push(`{"puzzle":"${puzzle.id}","presses_left":${left},"plan":[${plan.join(",")}],` +
             `"exact":${puzzle.rule.hintsExact}}\n`);
}
process.stdout.write(out.join(""));
process.exit(failed ? 1 : 0);
