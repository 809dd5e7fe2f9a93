// replay.mjs PACK.json: replay every puzzle's witness through the loader's
// own Board.press and check it reaches the goal in exactly min_presses
// presses. The last line is always "replayed N puzzles: S solved, F failed"
// when the document loads; each failure is named on stderr first, and so
// is an empty pack.
// Exit: 0 when F = 0 and N > 0; 1 when a puzzle failed or the pack is
// empty; 64 usage; 65 a document the loader refuses (not UTF-8, bad JSON,
// too deep, wrong format or version, a missing or bad field); 66 the file
// cannot be read.
import { readFileSync } from "node:fs";
import { checkWitness, parsePack, PackError } from "./quench-pack.js";

const [file, ...extra] = process.argv.slice(2);
if (file === undefined || extra.length > 0) {
    process.stderr.write("usage: replay PACK.json\n");
    process.exit(64);
}

let bytes;
try {
    bytes = readFileSync(file === "-" ? 0 : file);
} catch (e) {
    process.stderr.write(`replay: ${file}: cannot read (${e.code || e.message})\n`);
    process.exit(66);
}

let pack;
try {
    // fatal: bytes that are not UTF-8 are refused, not replaced.
    let text;
    try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
        throw new PackError("", "not JSON: the text is not UTF-8");
    }
    pack = parsePack(text);
} catch (e) {
    if (!(e instanceof PackError)) throw e;
    process.stderr.write(`replay: ${file}: ${e.message}\n`);
    process.exit(65);
}

let solved = 0;
let failed = 0;
for (const p of pack.puzzles) {
    const why = checkWitness(p);
    if (why === "") {
        solved++;
    } else {
        failed++;
        process.stderr.write(`replay: puzzle ${p.position} (id ${p.id}): ${why}\n`);
    }
}
const n = pack.puzzles.length;
if (n === 0) process.stderr.write(`replay: ${file}: the pack has no puzzles\n`);
process.stdout.write(`replayed ${n} puzzles: ${solved} solved, ${failed} failed\n`);
process.exit(failed === 0 && n > 0 ? 0 : 1);
