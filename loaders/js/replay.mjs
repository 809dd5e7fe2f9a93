// replay.mjs PACK.json: replay every puzzle's witness through the loader's
// own Board.press and check it reaches the goal in exactly min_presses
// presses. The last line is always "replayed N puzzles: S solved, F failed"
// when the document loads; each failure is named on stderr first.
// Exit: 0 when F = 0 and N > 0; 1 when a puzzle failed or the pack is
// empty; 64 usage; 65 a document the loader refuses (bad JSON, wrong
// format or version, a missing or bad field); 66 the file cannot be read.
import { readFileSync } from "node:fs";
import { parsePack, PackError } from "./quench-pack.js";

const [file, ...extra] = process.argv.slice(2);
if (file === undefined || extra.length > 0) {
    process.stderr.write("usage: replay PACK.json\n");
    process.exit(64);
}

let text;
try {
    text = readFileSync(file === "-" ? 0 : file, "utf8");
} catch (e) {
    process.stderr.write(`replay: ${file}: cannot read: ${e.code || e.message}\n`);
    process.exit(66);
}

let pack;
try {
    pack = parsePack(text);
} catch (e) {
    if (!(e instanceof PackError)) throw e;
    process.stderr.write(`replay: ${file}: ${e.message}\n`);
    process.exit(65);
}

// One puzzle: the reason it fails, or "" when it replays.
function replay(puzzle) {
    const board = puzzle.newBoard();
    let used = 0;
    puzzle.witness.forEach((times, cell) => {
        for (let t = 0; t < times; t++) board.press(cell);
        used += times;
    });
    if (!board.isSolved()) return "the witness does not reach the goal";
    if (used !== puzzle.minPresses)
        return `the witness uses ${used} presses, min_presses is ${puzzle.minPresses}`;
    if (board.presses !== used) return `the board counted ${board.presses} presses, made ${used}`;
    board.reset();
    if (board.presses !== 0 || !board.state.every((v, j) => v === puzzle.start[j]))
        return "reset() does not restore the start";
    return "";
}

let solved = 0;
let failed = 0;
for (const p of pack.puzzles) {
    const why = replay(p);
    if (why === "") {
        solved++;
    } else {
        failed++;
        process.stderr.write(`replay: puzzle ${p.position} (id ${p.id}): ${why}\n`);
    }
}
const n = pack.puzzles.length;
process.stdout.write(`replayed ${n} puzzles: ${solved} solved, ${failed} failed\n`);
process.exit(failed === 0 && n > 0 ? 0 : 1);
