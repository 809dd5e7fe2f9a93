// quench-pack.js: load a quench pack (`quench export --format json`, the
// "quench-pack" document, format version 2: docs/EXPORT.md and
// docs/quench-pack.schema.json) into a web game. One ES module, no
// dependencies; runs in browsers and node.
//
//   import { parsePack } from "./quench-pack.js";
//   const pack = parsePack(await (await fetch("pack.json")).text());
//   const puzzle = pack.puzzles[0];
//   const board = puzzle.newBoard();      // at puzzle.start
//   board.press(cell);                    // the rule's effects, mod colours
//   if (board.isSolved()) ...             // state equals goal
//   board.reset();                        // back to the start
//
// The document is checked before anything is returned: a format or
// format_version this module does not know, a missing field, a wrong type
// or a value out of range throws a PackError naming where ("puzzles[3].state:
// 9 values, the rule has 25 cells"), so a game never plays half a pack.
// Fields this module does not use are ignored (format_version 2 fixes them).
//
// A game never implements a topology: press(j) adds, for every effect e of
// cell j, e.amount to cell e.cell mod colours. The board geometry (kind,
// width, height, wrap, side and each cell's row/col) is only for drawing;
// centres(rule) turns it into positions.

export const FORMAT = "quench-pack";
export const FORMAT_VERSION = 2;

/** Thrown for a document this module cannot load; .path says where. */
export class PackError extends Error {
    constructor(path, what) {
        super(path ? `${path}: ${what}` : what);
        this.name = "PackError";
        this.path = path;
    }
}

const BOARD_KINDS = ["grid", "hex", "hexagon", "graph"];
const WRAPS = ["none", "x", "y", "both"];
const MAX_CELLS = 4096;

// Checkers: each returns the value or throws a PackError at `path`.
// Why this much checking: a pack is content from outside the game (a
// download, a mod); a bad one must fail at load, not mid-level.
function field(obj, key, path) {
    if (!Object.prototype.hasOwnProperty.call(obj, key))
        throw new PackError(path, `missing field "${key}"`);
    return obj[key];
}
function object(v, path) {
    if (v === null || typeof v !== "object" || Array.isArray(v))
        throw new PackError(path, "not an object");
    return v;
}
function array(v, path) {
    if (!Array.isArray(v)) throw new PackError(path, "not an array");
    return v;
}
function string(v, path) {
    if (typeof v !== "string") throw new PackError(path, "not a string");
    return v;
}
function int(v, path, lo, hi) {
    if (typeof v !== "number" || !Number.isInteger(v))
        throw new PackError(path, `${JSON.stringify(v)} is not an integer`);
    if (v < lo || v > hi)
        throw new PackError(path, `${v} is outside ${lo}..${hi}`);
    return v;
}
function oneOf(v, allowed, path) {
    if (!allowed.includes(v))
        throw new PackError(path, `${JSON.stringify(v)} is not one of ${allowed.join(", ")}`);
    return v;
}
function str(obj, key, path) { return string(field(obj, key, path), `${path}.${key}`); }
function num(obj, key, path, lo, hi) { return int(field(obj, key, path), `${path}.${key}`, lo, hi); }

// A list of one value per cell, each below colours (state, goal, solution).
function cellValues(v, path, ncells, colours) {
    array(v, path);
    if (v.length !== ncells)
        throw new PackError(path, `${v.length} values, the rule has ${ncells} cells`);
    return Uint8Array.from(v, (x, i) => int(x, `${path}[${i}]`, 0, colours - 1));
}

function loadBoard(b, path) {
    object(b, path);
    return Object.freeze({
        kind: oneOf(field(b, "kind", path), BOARD_KINDS, `${path}.kind`),
        width: num(b, "width", path, 1, MAX_CELLS),
        height: num(b, "height", path, 1, MAX_CELLS),
        wrap: oneOf(field(b, "wrap", path), WRAPS, `${path}.wrap`),
        side: num(b, "side", path, 0, 37),
    });
}

function loadCell(c, j, path, ncells, colours, board) {
    object(c, path);
    const index = num(c, "index", path, 0, ncells - 1);
    if (index !== j) throw new PackError(`${path}.index`, `${index}, expected ${j} (cells are in index order)`);
    const row = num(c, "row", path, 0, board.height - 1);
    const col = num(c, "col", path, 0, board.width - 1);
    const eff = array(field(c, "effects", path), `${path}.effects`);
    if (eff.length === 0) throw new PackError(`${path}.effects`, "empty: a press must change something");
    const effects = eff.map((e, i) => {
        const p = `${path}.effects[${i}]`;
        object(e, p);
        return Object.freeze({
            cell: num(e, "cell", p, 0, ncells - 1),
            amount: num(e, "amount", p, 1, colours - 1),
        });
    });
    return Object.freeze({ index, row, col, effects: Object.freeze(effects) });
}

function loadRule(r, path) {
    object(r, path);
    const hash = str(r, "hash", path);
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new PackError(`${path}.hash`, "not 64 lowercase hex digits");
    const colours = num(r, "colours", path, 2, 255);
    const board = loadBoard(field(r, "board", path), `${path}.board`);
    const ncells = num(r, "ncells", path, 1, MAX_CELLS);
    const cellsIn = array(field(r, "cells", path), `${path}.cells`);
    if (cellsIn.length !== ncells)
        throw new PackError(`${path}.cells`, `${cellsIn.length} cells, ncells is ${ncells}`);
    const cells = cellsIn.map((c, j) => loadCell(c, j, `${path}.cells[${j}]`, ncells, colours, board));
    const tiers = array(field(r, "tiers", path), `${path}.tiers`).map((t, i) => {
        const p = `${path}.tiers[${i}]`;
        object(t, p);
        return Object.freeze({ name: str(t, "name", p), lo: num(t, "lo", p, 0, Number.MAX_SAFE_INTEGER),
                               hi: num(t, "hi", p, 0, Number.MAX_SAFE_INTEGER) });
    });
    return Object.freeze({
        hash, colours, board, ncells, cells: Object.freeze(cells), tiers: Object.freeze(tiers),
        name: str(r, "name", path), title: str(r, "title", path),
        description: str(r, "description", path), author: str(r, "author", path),
        goal: cellValues(field(r, "goal", path), `${path}.goal`, ncells, colours),
    });
}

function loadPuzzle(p, i, path, rules) {
    object(p, path);
    const id = str(p, "id", path);
    if (!/^[0-9a-f]{16}$/.test(id)) throw new PackError(`${path}.id`, "not 16 lowercase hex digits");
    const position = num(p, "position", path, 1, Number.MAX_SAFE_INTEGER);
    if (position !== i + 1) throw new PackError(`${path}.position`, `${position}, expected ${i + 1} (puzzles are in pack order)`);
    const hash = str(p, "rule", path);
    const rule = rules.get(hash);
    if (!rule) throw new PackError(`${path}.rule`, `no rule with hash ${hash} in rules`);
    const start = cellValues(field(p, "state", path), `${path}.state`, rule.ncells, rule.colours);
    const witness = cellValues(field(p, "solution", path), `${path}.solution`, rule.ncells, rule.colours);
    const puzzle = {
        id, position, rule, start, witness,
        colours: rule.colours, board: rule.board, cells: rule.cells, goal: rule.goal,
        minPresses: num(p, "min_presses", path, 0, Number.MAX_SAFE_INTEGER),
        optimalSolutions: num(p, "optimal_solutions", path, 1, Number.MAX_SAFE_INTEGER),
        grade: str(p, "grade", path),
        graderVersion: str(p, "grader_version", path),
        seed: str(p, "seed", path),
        index: num(p, "index", path, -1, Number.MAX_SAFE_INTEGER),
        submission: str(p, "submission", path),
        source: str(p, "source", path),
        meta: str(p, "meta", path),
        newBoard() { return new Board(puzzle); },
    };
    return Object.freeze(puzzle);
}

/**
 * Load a parsed quench-pack document (the object JSON.parse gave). Returns
 * { name, title, description, author, version, puzzleIds, rules, puzzles,
 *   puzzle(id) }; throws PackError when the document is not format
 * "quench-pack" version 2 or breaks it.
 */
export function loadPack(doc) {
    object(doc, "document");
    const format = field(doc, "format", "document");
    if (format !== FORMAT)
        throw new PackError("format", `${JSON.stringify(format)} is not a quench pack (expected "${FORMAT}")`);
    const version = field(doc, "format_version", "document");
    if (version !== FORMAT_VERSION)
        throw new PackError("format_version", `${JSON.stringify(version)} is not supported: this loader reads version ${FORMAT_VERSION} (export the pack again with a current quench)`);
    const pk = object(field(doc, "pack", "document"), "pack");
    const rulesIn = array(field(doc, "rules", "document"), "rules");
    const rules = new Map();
    rulesIn.forEach((r, i) => {
        const rule = loadRule(r, `rules[${i}]`);
        if (rules.has(rule.hash)) throw new PackError(`rules[${i}].hash`, "duplicate rule hash");
        rules.set(rule.hash, rule);
    });
    const puzzles = array(field(doc, "puzzles", "document"), "puzzles")
        .map((p, i) => loadPuzzle(p, i, `puzzles[${i}]`, rules));
    const byId = new Map(puzzles.map((p) => [p.id, p]));
    return Object.freeze({
        name: str(pk, "name", "pack"),
        title: str(pk, "title", "pack"),
        description: str(pk, "description", "pack"),
        author: str(pk, "author", "pack"),
        version: num(pk, "version", "pack", 1, Number.MAX_SAFE_INTEGER),
        puzzleIds: Object.freeze(puzzles.map((p) => p.id)),
        rules: Object.freeze([...rules.values()]),
        puzzles: Object.freeze(puzzles),
        puzzle(id) { return byId.get(id); },
    });
}

/** parsePack: the same from the document's text; bad JSON is a PackError. */
export function parsePack(text) {
    let doc;
    try {
        doc = JSON.parse(text);
    } catch (e) {
        throw new PackError("", `not JSON: ${e.message}`);
    }
    return loadPack(doc);
}

/**
 * A puzzle being played. state is the live board (a Uint8Array, one value
 * per cell: read it, do not write it); presses counts press() calls since
 * the start or the last reset().
 */
export class Board {
    constructor(puzzle) {
        this.puzzle = puzzle;
        this.state = Uint8Array.from(puzzle.start);
        this.presses = 0;
    }
    /** Press cell once: add each of its effects, mod colours. */
    press(cell) {
        const cells = this.puzzle.cells;
        if (!Number.isInteger(cell) || cell < 0 || cell >= cells.length)
            throw new RangeError(`press: no cell ${cell} (the board has ${cells.length})`);
        const k = this.puzzle.colours;
        for (const e of cells[cell].effects)
            this.state[e.cell] = (this.state[e.cell] + e.amount) % k;
        this.presses++;
    }
    /** Whether the board equals the rule's goal. */
    isSolved() {
        const goal = this.puzzle.goal;
        for (let j = 0; j < goal.length; j++)
            if (this.state[j] !== goal[j]) return false;
        return true;
    }
    /** Back to the puzzle's start state, press count 0. */
    reset() {
        this.state.set(this.puzzle.start);
        this.presses = 0;
    }
}

/**
 * Replay a puzzle's witness on a fresh board (press cell j solution[j]
 * times): "" when it reaches the goal in exactly minPresses presses and
 * reset() restores the start, else the reason. A game can run it on a
 * downloaded pack before offering it; the replay drivers run it on every
 * puzzle.
 */
export function checkWitness(puzzle) {
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

/**
 * Where to draw each cell of a rule: [{x, y}] in cell order, in units of
 * one cell width (neighbouring centres 1 apart), origin at the top-left
 * position, y down. Grid: the cell's column and row. Hex (odd-r): odd rows
 * half a cell right. Hexagon (axial): x = col + row / 2, y = row * sqrt(3) / 2,
 * shifted so the leftmost cell is at x 0. Graph: evenly spaced clockwise on
 * a circle from 12 o'clock, in cell order. The same layout as quench's svg
 * and html exports (include/quench/svg.h).
 */
export function centres(rule) {
    const h = Math.sqrt(3) / 2;
    const cells = rule.cells;
    switch (rule.board.kind) {
    case "grid":
        return cells.map((c) => ({ x: c.col, y: c.row }));
    case "hex":
        return cells.map((c) => ({ x: c.col + (c.row & 1) / 2, y: c.row * h }));
    case "hexagon": {
        const x0 = Math.min(...cells.map((c) => c.col + c.row / 2));
        return cells.map((c) => ({ x: c.col + c.row / 2 - x0, y: c.row * h }));
    }
    default: {
        // Radius so that neighbours on the ring are about 1.5 cells apart.
        const n = cells.length;
        const r = n < 2 ? 0 : 1.5 / (2 * Math.sin(Math.PI / n));
        return cells.map((c, i) => {
            const a = (2 * Math.PI * i) / n;
            return { x: r + r * Math.sin(a), y: r - r * Math.cos(a) };
        });
    }
    }
}
