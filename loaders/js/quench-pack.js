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
//   board.undo();                         // take back the last press
//   board.pressesLeft();                  // the least presses from here
//   board.hint();                         // a cell of an optimal plan
//
// The document is checked before anything is returned: a format or
// format_version this module does not know, a missing field, a wrong type
// or a value out of range throws a PackError naming where ("puzzles[3].state:
// 9 values, the rule has 25 cells"), so a game never plays half a pack.
// Fields this module does not use are ignored (format_version 2 fixes them).
// The limits (nesting, every integer's range, list lengths) and the
// messages are the same in the four loaders of loaders/ (docs/EXPORT.md,
// "What every loader refuses").
//
// A game never implements a topology: press(j) adds, for every effect e of
// cell j, e.amount to cell e.cell mod colours. The board geometry (kind,
// width, height, wrap, side and each cell's row/col) is only for drawing;
// centres(rule) turns it into positions.
//
// Hints without a solver (docs/EXPORT.md, "Hints"): the position is always
// the start plus the presses made, so (witness - presses) mod colours is a
// plan from it, and every plan from it is that one plus a quiet pattern of
// the rule's kernel ("kernel" in the document: generators and their
// orders). pressesLeft() and hint() walk that coset, at most
// MAX_KERNEL_WALK elements; a rule whose kernel is larger (or a document
// without one, from an older quench) gets the plan itself: valid, not
// always the shortest, and rule.hintsExact says so.

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
/** Arrays and objects nest at most this deep (a pack needs 7). */
export const MAX_DEPTH = 8;
const MAX_CELLS = 4096;
/** Generators of a rule's kernel a document may list. */
export const MAX_KERNEL = 64;
/** Elements of a kernel pressesLeft() and hint() walk; past it they
 *  give a valid plan that may not be the shortest (rule.hintsExact). */
export const MAX_KERNEL_WALK = 65536;
const MAX_RULES = 256;
const MAX_TIERS = 16;
const MAX_PUZZLES = 1048576; // 2^20
// Press counts (min_presses, tier bounds): a witness presses each of at
// most 4096 cells at most 254 times, 1,040,384 in all.
const MAX_PRESSES = 1048576; // 2^20
// Other counts (pack version, optimal solutions, index): what a double
// holds exactly, so every runtime reads the same number.
const MAX_COUNT = Number.MAX_SAFE_INTEGER; // 2^53 - 1
// The human grade (docs/GENERATE.md, "The human ladder"): the rungs in
// order (human_level_number is the index), and the score's bound in
// thousandths (the schema's).
const HUMAN_LEVELS = ["spot", "chase", "table", "global"];
const MAX_HUMAN_SCORE = 1e12;

// How a message shows text and values from the document, the same in the
// four loaders: control characters as \u00XX (no document can put a raw
// one on a terminal), at most 40 characters.
function controls(s) {
    return s.replace(/[\u0000-\u001f\u007f]/g,
        (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}
function cut(s) { return s.length <= 40 ? s : s.slice(0, 37) + "..."; }
function quote(s) { return cut('"' + controls(s.replace(/[\\"]/g, "\\$&")) + '"'); }
// sci6(digits): an integer's decimal digits (16 or more) as six
// significant digits, rounded half up: "1e+30", "9.22337e+18".
function sci6(d) {
    let m = d.slice(0, 6), e = d.length - 1;
    if (d[6] >= "5") {
        m = String(Number(m) + 1);
        if (m.length > 6) { m = m.slice(0, 6); e++; }
    }
    m = m.replace(/0+$/, "");
    return m[0] + (m.length > 1 ? "." + m.slice(1) : "") + "e+" + e;
}
// A number: an integer below 2^53 in digits, a larger one as sci6 (an
// integer any runtime may have rounded: all of them show it alike), a
// fraction with up to six decimals (rounded half up, trailing zeros
// dropped unless all six are 0).
function number(v) {
    if (Number.isNaN(v)) return "NaN";
    if (!Number.isFinite(v)) return v > 0 ? "Infinity" : "-Infinity";
    const sign = v < 0 ? "-" : "", a = Math.abs(v);
    if (Number.isInteger(a))
        return sign + (a < 2 ** 53 ? String(a) : sci6(BigInt(a).toString()));
    let ip = Math.floor(a), f = Math.floor((a - ip) * 1e6 + 0.5);
    if (f >= 1e6) { ip += 1; f -= 1e6; }
    const six = String(f).padStart(6, "0");
    return sign + String(ip) + "." + (six.replace(/0+$/, "") || six);
}
function show(v) {
    if (typeof v === "string") return quote(v);
    if (typeof v === "number") return number(v);
    if (v === null || typeof v === "boolean") return String(v);
    return Array.isArray(v) ? "an array" : "an object";
}

// checkNesting(text): throws when an array or object opens inside
// MAX_DEPTH others, before any parser sees the text (a parser that
// recurses can crash on deep nesting: Godot 3's does). The path named is
// the deep container's, as the checks below name places: keys that are
// not [A-Za-z0-9_]+ as ["KEY"] (their text as written), "[?]" where a key
// is missing. Text inside strings is skipped; what is not JSON is left to
// the parser.
function checkNesting(text) {
    const stack = [];
    let inString = false, keyFrom = -1;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (inString) {
            if (c === 92) {
                i++;
            } else if (c === 34) {
                inString = false;
                if (keyFrom >= 0) stack[stack.length - 1].key = text.slice(keyFrom, i);
                keyFrom = -1;
            }
        } else if (c === 34) {
            inString = true;
            const top = stack[stack.length - 1];
            if (top && top.wantKey) { top.wantKey = false; keyFrom = i + 1; }
        } else if (c === 91 || c === 123) {
            if (stack.length === MAX_DEPTH)
                throw new PackError(nestingPath(stack), `nesting deeper than ${MAX_DEPTH}`);
            stack.push({ array: c === 91, index: 0, key: null, wantKey: c === 123 });
        } else if (c === 93 || c === 125) {
            stack.pop();
        } else if (c === 44 && stack.length > 0) {
            const top = stack[stack.length - 1];
            if (top.array) top.index++;
            else { top.key = null; top.wantKey = true; }
        }
    }
}
function nestingPath(stack) {
    let p = "document";
    stack.forEach((e, level) => {
        if (e.array) p += `[${e.index}]`;
        else if (e.key === null) p += "[?]";
        else if (!/^[A-Za-z0-9_]+$/.test(e.key)) p += "[" + cut('"' + controls(e.key) + '"') + "]";
        else p = level === 0 ? e.key : p + "." + e.key;
    });
    return p;
}

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
function array(v, path, most) {
    if (!Array.isArray(v)) throw new PackError(path, "not an array");
    if (v.length > most) throw new PackError(path, `${v.length} items, at most ${most}`);
    return v;
}
function string(v, path) {
    if (typeof v !== "string") throw new PackError(path, "not a string");
    return v;
}
function int(v, path, lo, hi) {
    if (typeof v !== "number" || !Number.isInteger(v))
        throw new PackError(path, `${show(v)} is not an integer`);
    if (v < lo || v > hi)
        throw new PackError(path, `${show(v)} is outside ${lo}..${hi}`);
    return v;
}
function oneOf(v, allowed, path) {
    if (!allowed.includes(v))
        throw new PackError(path, `${show(v)} is not one of ${allowed.join(", ")}`);
    return v;
}
function str(obj, key, path) { return string(field(obj, key, path), `${path}.${key}`); }
function num(obj, key, path, lo, hi) { return int(field(obj, key, path), `${path}.${key}`, lo, hi); }

// An optional field: null when absent or null (a document of an older
// quench has none of the human grade), else what check(value) returns.
function optional(obj, key, check) {
    const v = Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : null;
    return v === null ? null : check(v);
}

// The human grade of a puzzle: four fields, null together when it has
// none; the number must be the level's.
function loadHuman(p, path) {
    const level = optional(p, "human_level", v => oneOf(v, HUMAN_LEVELS, `${path}.human_level`));
    const number = optional(p, "human_level_number", v => int(v, `${path}.human_level_number`, 0, 3));
    const want = level === null ? null : HUMAN_LEVELS.indexOf(level);
    if (number !== want)
        throw new PackError(`${path}.human_level_number`,
                            `${show(number)}, expected ${show(want)} (human_level is ${show(level)})`);
    return {
        humanLevel: level, humanLevelNumber: number,
        humanScore: optional(p, "human_score", v => int(v, `${path}.human_score`, -MAX_HUMAN_SCORE, MAX_HUMAN_SCORE)),
        humanModelVersion: optional(p, "human_model_version", v => int(v, `${path}.human_model_version`, 1, MAX_COUNT)),
    };
}

// A list of one value per cell, each below colours (state, goal, solution).
function cellValues(v, path, ncells, colours) {
    array(v, path, MAX_CELLS);
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
    const eff = array(field(c, "effects", path), `${path}.effects`, MAX_CELLS);
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

// A rule's kernel: generators of the quiet patterns with their orders,
// each checked to be of its order and quiet (pressing it changes no cell),
// so a hint never leads away from the goal. null when the document has
// none (an older quench).
function loadKernel(r, path, ncells, colours, cells) {
    if (!Object.prototype.hasOwnProperty.call(r, "kernel")) return null;
    return Object.freeze(array(r.kernel, `${path}.kernel`, MAX_KERNEL).map((g, i) => {
        const p = `${path}.kernel[${i}]`;
        object(g, p);
        const order = num(g, "order", p, 2, colours);
        if (colours % order !== 0)
            throw new PackError(`${p}.order`, `${order} does not divide colours ${colours}`);
        const presses = cellValues(field(g, "presses", p), `${p}.presses`, ncells, colours);
        presses.forEach((v, j) => {
            if (v * order % colours !== 0)
                throw new PackError(`${p}.presses[${j}]`, `${v} is not of order ${order} mod ${colours}`);
        });
        const changed = new Array(ncells).fill(0);
        presses.forEach((v, j) => {
            for (const e of cells[j].effects) changed[e.cell] = (changed[e.cell] + v * e.amount) % colours;
        });
        const moved = changed.findIndex((v) => v !== 0);
        if (moved >= 0) throw new PackError(p, `not quiet: pressing it changes cell ${moved}`);
        return Object.freeze({ order, presses });
    }));
}

// How many elements a kernel has, or Infinity past MAX_KERNEL_WALK.
function kernelSize(kernel) {
    let size = 1;
    for (const g of kernel) {
        size *= g.order;
        if (size > MAX_KERNEL_WALK) return Infinity;
    }
    return size;
}

function loadRule(r, path) {
    object(r, path);
    const hash = str(r, "hash", path);
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new PackError(`${path}.hash`, "not 64 lowercase hex digits");
    const colours = num(r, "colours", path, 2, 255);
    const board = loadBoard(field(r, "board", path), `${path}.board`);
    const ncells = num(r, "ncells", path, 1, MAX_CELLS);
    const cellsIn = array(field(r, "cells", path), `${path}.cells`, MAX_CELLS);
    if (cellsIn.length !== ncells)
        throw new PackError(`${path}.cells`, `${cellsIn.length} cells, ncells is ${ncells}`);
    const cells = cellsIn.map((c, j) => loadCell(c, j, `${path}.cells[${j}]`, ncells, colours, board));
    const tiers = array(field(r, "tiers", path), `${path}.tiers`, MAX_TIERS).map((t, i) => {
        const p = `${path}.tiers[${i}]`;
        object(t, p);
        return Object.freeze({ name: str(t, "name", p), lo: num(t, "lo", p, 0, MAX_PRESSES),
                               hi: num(t, "hi", p, 0, MAX_PRESSES) });
    });
    const name = str(r, "name", path), title = str(r, "title", path);
    const description = str(r, "description", path), author = str(r, "author", path);
    const goal = cellValues(field(r, "goal", path), `${path}.goal`, ncells, colours);
    const kernel = loadKernel(r, path, ncells, colours, cells);
    return Object.freeze({
        hash, colours, board, ncells, cells: Object.freeze(cells), tiers: Object.freeze(tiers),
        name, title, description, author, goal, kernel,
        kernelSize: kernel ? kernelSize(kernel) : Infinity,
        hintsExact: kernel !== null && kernelSize(kernel) <= MAX_KERNEL_WALK,
    });
}

function loadPuzzle(p, i, path, rules) {
    object(p, path);
    const id = str(p, "id", path);
    if (!/^[0-9a-f]{16}$/.test(id)) throw new PackError(`${path}.id`, "not 16 lowercase hex digits");
    const position = num(p, "position", path, 1, MAX_PUZZLES);
    if (position !== i + 1) throw new PackError(`${path}.position`, `${position}, expected ${i + 1} (puzzles are in pack order)`);
    const hash = str(p, "rule", path);
    const rule = rules.get(hash);
    if (!rule) throw new PackError(`${path}.rule`, `no rule with hash ${show(hash)} in rules`);
    const start = cellValues(field(p, "state", path), `${path}.state`, rule.ncells, rule.colours);
    const witness = cellValues(field(p, "solution", path), `${path}.solution`, rule.ncells, rule.colours);
    const minPresses = num(p, "min_presses", path, 0, MAX_PRESSES);
    const optimalSolutions = num(p, "optimal_solutions", path, 1, MAX_COUNT);
    const grade = str(p, "grade", path);
    const graderVersion = str(p, "grader_version", path);
    const seed = str(p, "seed", path);
    if (!/^([0-9a-f]+)?$/.test(seed)) throw new PackError(`${path}.seed`, "not lowercase hex digits");
    const puzzle = {
        id, position, rule, start, witness,
        colours: rule.colours, board: rule.board, cells: rule.cells, goal: rule.goal,
        minPresses, optimalSolutions, grade, graderVersion, seed,
        index: num(p, "index", path, -1, MAX_COUNT),
        submission: str(p, "submission", path),
        source: str(p, "source", path),
        meta: str(p, "meta", path),
        // the level slot (a save-game key; null in an older document) and
        // the recipe section ("" when none)
        slot: Object.prototype.hasOwnProperty.call(p, "slot") ? num(p, "slot", path, 1, MAX_COUNT) : null,
        section: Object.prototype.hasOwnProperty.call(p, "section") ? str(p, "section", path) : "",
        // the human grade (null each in an older document or an ungraded
        // puzzle): the ladder's rung and its number 0..3, the score in
        // thousandths (the predicted log of a solve time) and its model
        ...loadHuman(p, path),
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
        throw new PackError("format", `${show(format)} is not a quench pack (expected "${FORMAT}")`);
    const version = field(doc, "format_version", "document");
    if (version !== FORMAT_VERSION)
        throw new PackError("format_version", `${show(version)} is not supported: this loader reads version ${FORMAT_VERSION} (export the pack again with a current quench)`);
    const pk = object(field(doc, "pack", "document"), "pack");
    const rulesIn = array(field(doc, "rules", "document"), "rules", MAX_RULES);
    const rules = new Map(), ruleAt = new Map();
    rulesIn.forEach((r, i) => {
        const rule = loadRule(r, `rules[${i}]`);
        if (rules.has(rule.hash))
            throw new PackError(`rules[${i}].hash`, `duplicate rule hash (rules[${ruleAt.get(rule.hash)}] has it too)`);
        rules.set(rule.hash, rule);
        ruleAt.set(rule.hash, i);
    });
    const byId = new Map(), bySlot = new Map();
    const puzzles = array(field(doc, "puzzles", "document"), "puzzles", MAX_PUZZLES).map((p, i) => {
        const puzzle = loadPuzzle(p, i, `puzzles[${i}]`, rules);
        if (byId.has(puzzle.id))
            throw new PackError(`puzzles[${i}].id`, `duplicate puzzle id (puzzles[${byId.get(puzzle.id).position - 1}] has it too)`);
        byId.set(puzzle.id, puzzle);
        if (puzzle.slot !== null) {
            if (bySlot.has(puzzle.slot))
                throw new PackError(`puzzles[${i}].slot`, `duplicate slot (puzzles[${bySlot.get(puzzle.slot).position - 1}] has it too)`);
            bySlot.set(puzzle.slot, puzzle);
        }
        return puzzle;
    });
    const name = str(pk, "name", "pack");
    const chars = [...name].length;
    if (chars < 1 || chars > 64) throw new PackError("pack.name", `${chars} characters, not 1..64`);
    return Object.freeze({
        name,
        title: str(pk, "title", "pack"),
        description: str(pk, "description", "pack"),
        author: str(pk, "author", "pack"),
        version: num(pk, "version", "pack", 1, MAX_COUNT),
        puzzleIds: Object.freeze(puzzles.map((p) => p.id)),
        rules: Object.freeze([...rules.values()]),
        puzzles: Object.freeze(puzzles),
        puzzle(id) { return byId.get(id); },
        bySlot(slot) { return bySlot.get(slot); },
    });
}

/**
 * parsePack: the same from the document's text (a byte order mark at its
 * start is skipped). Empty text, nesting deeper than MAX_DEPTH (checked
 * before parsing) and bad JSON are PackErrors too.
 */
export function parsePack(text) {
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (/^[ \t\r\n]*$/.test(text)) throw new PackError("", "not JSON: the text is empty");
    checkNesting(text);
    let doc;
    try {
        doc = JSON.parse(text);
    } catch (e) {
        throw new PackError("", `not JSON: ${controls(e.message)}`);
    }
    return loadPack(doc);
}

/**
 * The least presses from a position, and one plan that makes them: the
 * press counts made so far (mod colours, per cell) turn the witness into
 * a plan from the position, (witness - counts) mod colours; every other
 * plan from it adds a quiet pattern, sum c_i g_i over the kernel's
 * generators (0 <= c_i < order_i). All of them are walked, an odometer
 * over the c_i, and the cheapest kept, ties going to the plan that is
 * smaller at the first cell where they differ (as `quench solve` breaks
 * them). Returns { plan (a Uint8Array of press counts), presses, exact };
 * exact is false when the kernel is unknown or past MAX_KERNEL_WALK, and
 * the plan is then (witness - counts) mod colours itself.
 */
export function bestPlan(puzzle, counts) {
    const rule = puzzle.rule, k = rule.colours, n = rule.ncells;
    const x = new Uint8Array(n);
    let cost = 0;
    for (let j = 0; j < n; j++) {
        x[j] = (puzzle.witness[j] + k - counts[j] % k) % k;
        cost += x[j];
    }
    const best = Uint8Array.from(x);
    if (!rule.hintsExact) return { plan: best, presses: cost, exact: false };
    let bestCost = cost;
    const gens = rule.kernel.map((g) => {
        const nz = [];
        g.presses.forEach((v, j) => { if (v) nz.push(j, v); });
        return nz;
    });
    const digit = new Array(gens.length).fill(0);
    for (;;) {
        let i = 0;
        for (; i < gens.length; i++) { // add g_i; carry when c_i wraps
            const nz = gens[i];
            for (let t = 0; t < nz.length; t += 2) {
                const j = nz[t], was = x[j], now = (was + nz[t + 1]) % k;
                cost += now - was;
                x[j] = now;
            }
            if (++digit[i] < rule.kernel[i].order) break;
            digit[i] = 0;
        }
        if (i === gens.length) break; // every element visited
        if (cost < bestCost || (cost === bestCost && smaller(x, best))) {
            best.set(x);
            bestCost = cost;
        }
    }
    return { plan: best, presses: bestCost, exact: true };
}
function smaller(a, b) {
    for (let j = 0; j < a.length; j++) if (a[j] !== b[j]) return a[j] < b[j];
    return false;
}

/**
 * A puzzle being played. state is the live board (a Uint8Array, one value
 * per cell: read it, do not write it: hints read the position from the
 * presses, not from state); history the cells pressed since the start or
 * the last reset(), in order (read it, do not write it); presses their
 * number.
 */
export class Board {
    constructor(puzzle) {
        this.puzzle = puzzle;
        this.state = Uint8Array.from(puzzle.start);
        this.history = [];
        this.counts = new Uint8Array(puzzle.cells.length); // presses per cell, mod colours
        this._plan = null; // an optimal plan from here, kept while hints are followed
        this._left = 0;
    }
    /** Presses since the start or the last reset(), less those undone. */
    get presses() { return this.history.length; }
    _apply(cell, times) {
        const k = this.puzzle.colours;
        for (const e of this.puzzle.cells[cell].effects)
            this.state[e.cell] = (this.state[e.cell] + e.amount * times) % k;
        this.counts[cell] = (this.counts[cell] + times) % k;
    }
    /** Press cell once: add each of its effects, mod colours. */
    press(cell) {
        const cells = this.puzzle.cells;
        if (!Number.isInteger(cell) || cell < 0 || cell >= cells.length)
            throw new RangeError(`press: no cell ${cell} (the board has ${cells.length})`);
        this._apply(cell, 1);
        this.history.push(cell);
        // Following an optimal plan keeps the rest of it optimal: one
        // press fewer from here, and no plan could be shorter.
        if (this._plan && this._plan[cell] > 0) {
            this._plan[cell]--;
            this._left--;
        } else {
            this._plan = null;
        }
    }
    /** Take back the last press (k - 1 more of it, mod colours): the cell,
     *  or -1 when there is none. */
    undo() {
        if (this.history.length === 0) return -1;
        const cell = this.history.pop();
        this._apply(cell, this.puzzle.colours - 1);
        this._plan = null;
        return cell;
    }
    /** Whether the board equals the rule's goal. */
    isSolved() {
        const goal = this.puzzle.goal;
        for (let j = 0; j < goal.length; j++)
            if (this.state[j] !== goal[j]) return false;
        return true;
    }
    /** Back to the puzzle's start state, no presses. */
    reset() {
        this.state.set(this.puzzle.start);
        this.history = [];
        this.counts.fill(0);
        this._plan = null;
    }
    _best() {
        if (!this._plan) {
            const b = bestPlan(this.puzzle, this.counts);
            this._plan = b.plan;
            this._left = b.presses;
        }
    }
    /** The least presses from here to the goal (exact when
     *  puzzle.rule.hintsExact; else those of a valid plan). 0 when solved. */
    pressesLeft() {
        this._best();
        return this._left;
    }
    /** A cell to press next on a shortest way to the goal, or -1 when
     *  solved. Pressing it leaves pressesLeft() one lower. */
    hint() {
        this._best();
        return this._plan.findIndex((v) => v > 0);
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
 * and html exports (src/export/svg.h).
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
