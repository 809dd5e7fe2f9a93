// QuenchPack.cs: load a quench pack (`quench export --format json`, the
// "quench-pack" document, format version 2: docs/EXPORT.md and
// docs/quench-pack.schema.json) into a C# game. One file for Unity,
// MonoGame, Godot (C#) or plain .NET: copy it into the project unchanged.
// It needs only Newtonsoft.Json (in Unity the com.unity.nuget.newtonsoft-json
// package; NuGet Newtonsoft.Json elsewhere; 6.0 or later), no UnityEngine,
// no reflection over these classes (IL2CPP stripping is harmless) and only
// C# 6.
//
//   using Quench;
//   Pack pack = QuenchPack.Parse(textAsset.text);  // or QuenchPack.ReadFile(path)
//   Puzzle puzzle = pack.puzzles[0];               // or pack.FindPuzzle(id)
//   Board board = puzzle.NewBoard();               // at puzzle.start
//   board.Press(cell);                             // the rule's effects, mod colours
//   if (board.IsSolved()) ...                      // state equals goal
//   board.Undo();                                  // take back the last press
//   board.PressesLeft();                           // the least presses from here
//   board.Hint();                                  // a cell of an optimal plan (-1: solved)
//   board.Reset();                                 // back to the start
//
// The document is checked before anything is returned: a format or
// format_version this file does not know, a missing field, a wrong type or a
// value out of range throws a QuenchPackException naming where
// ("puzzles[3].state: 9 values, the rule has 25 cells"), so a game never
// plays half a pack. Fields this file does not use are ignored
// (format_version 2 fixes them). Indices are the document's: cells from 0,
// puzzles[i] has position i + 1. The limits (nesting, every integer's
// range, list lengths) and the messages are the same in the four loaders
// of loaders/ (docs/EXPORT.md, "What every loader refuses").
//
// A game never implements a topology: Press(j) adds, for every effect e of
// cell j, e.amount to cell e.cell mod colours. The board geometry (kind,
// width, height, wrap, side and each cell's row/col) is only for drawing;
// each cell's x, y is its centre, laid out as quench's svg and html exports
// draw it.
//
// Hints without a solver (docs/EXPORT.md, "Hints"): the position is always
// the start plus the presses made, so (witness - presses) mod colours is a
// plan from it, and every plan from it is that one plus a quiet pattern of
// the rule's kernel (generators and their orders, from the document).
// PressesLeft() and Hint() walk that coset, at most MaxKernelWalk
// elements; past it (or for a document without a kernel, from an older
// quench) they use that plan itself: valid, not always the shortest, and
// rule.hintsExact says so.
//
// The pack's classes are plain [Serializable] classes with public fields, so
// Unity shows them in the inspector; treat them as read-only. Board, the
// puzzle being played, is the one that changes.

using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Quench
{
    /// <summary>A document QuenchPack cannot load. Message is
    /// "PATH: what is wrong"; Where is the PATH ("" for the whole text).</summary>
    public class QuenchPackException : Exception
    {
        public readonly string Where;

        public QuenchPackException(string where, string what)
            : base(where.Length > 0 ? where + ": " + what : what)
        {
            Where = where;
        }
    }

    [Serializable]
    public class Pack
    {
        public string name, title, description, author;
        public long version;
        public string[] puzzleIds;   // in pack order
        public Rule[] rules;         // in order of first use
        public Puzzle[] puzzles;     // in pack order: puzzles[i].position == i + 1

        /// <summary>The puzzle with this id, or null (ids are unique: the
        /// loader refuses a pack where two puzzles share one).</summary>
        public Puzzle FindPuzzle(string id)
        {
            foreach (Puzzle p in puzzles)
                if (p.id == id) return p;
            return null;
        }

        /// <summary>The puzzle in this level slot, or null.</summary>
        public Puzzle FindSlot(long slot)
        {
            foreach (Puzzle p in puzzles)
                if (p.slot == slot && slot != 0) return p;
            return null;
        }    }

    /// <summary>The topology, for drawing only: kind "grid", "hex" (odd-r
    /// rows of pointy-top hexagons), "hexagon" (axial, side cells a side)
    /// or "graph" (no geometry); wrap "none", "x", "y" or "both".</summary>
    [Serializable]
    public class Geometry
    {
        public string kind;
        public int width, height;
        public string wrap;
        public int side;
    }

    /// <summary>Pressing the cell adds amount to cell `cell`, mod colours.</summary>
    [Serializable]
    public class Effect
    {
        public int cell, amount;
    }

    [Serializable]
    public class Cell
    {
        public int index, row, col;
        /// <summary>The cell's centre in cell widths, origin top left, y down.</summary>
        public double x, y;
        public Effect[] effects;
    }

    [Serializable]
    public class Tier
    {
        public string name;
        public long lo, hi;
    }

    /// <summary>A generator of the rule's kernel: pressing each cell
    /// presses[j] times changes nothing; order of them add up to 0.</summary>
    [Serializable]
    public class Generator
    {
        public int order;
        public int[] presses;
    }

    [Serializable]
    public class Rule
    {
        public string hash, name, title, description, author;
        public int colours;
        public Geometry board;
        public int ncells;
        public int[] goal;
        public Cell[] cells;
        public Tier[] tiers;
        /// <summary>The quiet patterns' generators; null when the document
        /// has none (an older quench).</summary>
        public Generator[] kernel;
        /// <summary>Whether hints walk the whole kernel (its size at most
        /// QuenchPack.MaxKernelWalk): then PressesLeft() is exact.</summary>
        public bool hintsExact;
    }

    [Serializable]
    public class Puzzle
    {
        public string id;
        public int position;
        public Rule rule;
        // The rule's, repeated so a game needs only the puzzle.
        public int colours;
        public Geometry board;
        public Cell[] cells;
        public int[] goal;
        /// <summary>The document's state and solution (per-cell press counts).</summary>
        public int[] start, witness;
        public long minPresses, optimalSolutions;
        public string grade, graderVersion, seed;
        public long index;
        public string submission, source, meta;
        /// <summary>The level slot, a save-game key kept when the level is
        /// re-rolled (0 in a document of an older quench), and the recipe
        /// section (world) the puzzle was built in ("" when none).</summary>
        public long slot;
        public string section = "";
        /// <summary>The human grade (issue #33; docs/GENERATE.md, "The human
        /// ladder"): the rung ("spot", "chase", "table", "global") and its
        /// number 0..3, the score in thousandths (the predicted log of a
        /// solve time) and its model version; null each in a document of an
        /// older quench or for an ungraded puzzle.</summary>
        public string humanLevel;
        public int? humanLevelNumber;
        public long? humanScore, humanModelVersion;

        public Board NewBoard()
        {
            return new Board(this);
        }

        /// <summary>Replays the witness on a fresh board (cell j pressed
        /// witness[j] times): null when it reaches the goal in exactly
        /// minPresses presses and Reset() restores the start, else the
        /// reason. A game can run it on a downloaded pack before offering
        /// it; loaders/csharp/replay runs it on every puzzle.</summary>
        public string CheckWitness()
        {
            Board b = NewBoard();
            long used = 0;
            for (int j = 0; j < witness.Length; j++) {
                for (int t = 0; t < witness[j]; t++) b.Press(j);
                used += witness[j];
            }
            if (!b.IsSolved()) return "the witness does not reach the goal";
            if (used != minPresses)
                return "the witness uses " + used + " presses, min_presses is " + minPresses;
            if (b.presses != used)
                return "the board counted " + b.presses + " presses, made " + used;
            b.Reset();
            if (b.presses != 0 || !Same(b.state, start)) return "Reset() does not restore the start";
            return null;
        }

        internal static bool Same(int[] a, int[] b)
        {
            for (int j = 0; j < a.Length; j++)
                if (a[j] != b[j]) return false;
            return true;
        }
    }

    /// <summary>A puzzle being played: state is the live board (one value
    /// per cell; read it, do not write it: hints read the position from
    /// the presses, not from state), history the cells pressed since the
    /// start or the last Reset(), in order (read it), presses their
    /// number. Not [Serializable]: Unity would fill a serialized Board
    /// field with an empty board, one without a puzzle; make boards with
    /// NewBoard().</summary>
    public class Board
    {
        public Puzzle puzzle;
        public int[] state;
        public int presses;
        public List<int> history = new List<int>();
        int[] counts;   // presses per cell, mod colours
        int[] plan;     // an optimal plan from here, kept while hints are followed
        long left;

        public Board(Puzzle puzzle)
        {
            this.puzzle = puzzle;
            state = (int[])puzzle.start.Clone();
            counts = new int[state.Length];
        }

        void Apply(int cell, int times)
        {
            int k = puzzle.colours;
            foreach (Effect e in puzzle.cells[cell].effects)
                state[e.cell] = (state[e.cell] + e.amount * times) % k;
            counts[cell] = (counts[cell] + times) % k;
        }

        /// <summary>Press cell once: add each of its effects, mod colours.
        /// A cell that is not an index of the board throws
        /// ArgumentOutOfRangeException.</summary>
        public void Press(int cell)
        {
            Cell[] cells = puzzle.cells;
            if (cell < 0 || cell >= cells.Length)
                throw new ArgumentOutOfRangeException("cell", cell,
                    "press: no cell " + cell + " (the board has " + cells.Length + ")");
            Apply(cell, 1);
            history.Add(cell);
            presses = history.Count;
            // Following an optimal plan keeps the rest of it optimal: one
            // press fewer from here, and no plan could be shorter.
            if (plan != null && plan[cell] > 0) {
                plan[cell]--;
                left--;
            } else {
                plan = null;
            }
        }

        /// <summary>Take back the last press (colours - 1 more of it): the
        /// cell, or -1 when there is none.</summary>
        public int Undo()
        {
            if (history.Count == 0) return -1;
            int cell = history[history.Count - 1];
            history.RemoveAt(history.Count - 1);
            presses = history.Count;
            Apply(cell, puzzle.colours - 1);
            plan = null;
            return cell;
        }

        /// <summary>Whether the board equals the rule's goal.</summary>
        public bool IsSolved()
        {
            return Puzzle.Same(state, puzzle.goal);
        }

        /// <summary>Back to the puzzle's start state, no presses.</summary>
        public void Reset()
        {
            Array.Copy(puzzle.start, state, state.Length);
            Array.Clear(counts, 0, counts.Length);
            history.Clear();
            presses = 0;
            plan = null;
        }

        void Best()
        {
            if (plan == null) {
                bool exact;
                plan = QuenchPack.BestPlan(puzzle, counts, out left, out exact);
            }
        }

        /// <summary>The least presses from here to the goal (exact when
        /// puzzle.rule.hintsExact; else those of a valid plan); 0 when
        /// solved.</summary>
        public long PressesLeft()
        {
            Best();
            return left;
        }

        /// <summary>A cell to press next on a shortest way to the goal, or
        /// -1 when solved. Pressing it leaves PressesLeft() one
        /// lower.</summary>
        public int Hint()
        {
            Best();
            for (int j = 0; j < plan.Length; j++)
                if (plan[j] > 0) return j;
            return -1;
        }
    }

    public static class QuenchPack
    {
        public const string Format = "quench-pack";
        public const int FormatVersion = 2;

        /// <summary>Arrays and objects nest at most this deep (a pack
        /// needs 7); checked before the text is parsed.</summary>
        public const int MaxDepth = 8;

        /// <summary>Generators of a rule's kernel a document may
        /// list.</summary>
        public const int MaxKernel = 64;
        /// <summary>Elements of a kernel PressesLeft() and Hint()
        /// walk.</summary>
        public const long MaxKernelWalk = 65536;

        const int MaxCells = 4096;
        const int MaxRules = 256;
        const int MaxTiers = 16;
        const int MaxPuzzles = 1 << 20;
        // Press counts (min_presses, tier bounds): a witness presses each
        // of at most 4096 cells at most 254 times, 1,040,384 in all.
        const int MaxPresses = 1 << 20;
        // Other counts (pack version, optimal solutions, index): what a
        // double holds exactly, so every runtime reads the same number.
        const long MaxCount = 9007199254740991; // 2^53 - 1
        static readonly string[] BoardKinds = { "grid", "hex", "hexagon", "graph" };
        static readonly string[] Wraps = { "none", "x", "y", "both" };

        /// <summary>The pack in a document's text (a TextAsset's text, a
        /// download); QuenchPackException when it is not JSON or not a
        /// quench-pack version 2 document.</summary>
        /// <summary>The least presses from the position counts (presses
        /// per cell, mod colours) reach, and one plan that makes them:
        /// (witness - counts) mod colours is a plan from there, and every
        /// other adds a quiet pattern, sum c_g gen_g (0 &lt;= c_g &lt;
        /// order_g). All of them are walked (an odometer over the c_g) and
        /// the cheapest kept, ties going to the plan smaller at the first
        /// cell where they differ (as `quench solve` breaks them). Not
        /// exact (the plan itself) when the rule's kernel is unknown or
        /// past MaxKernelWalk.</summary>
        public static int[] BestPlan(Puzzle puzzle, int[] counts, out long presses, out bool exact)
        {
            Rule rule = puzzle.rule;
            int k = rule.colours, n = rule.ncells;
            var x = new int[n];
            long cost = 0;
            for (int j = 0; j < n; j++) {
                x[j] = (puzzle.witness[j] - counts[j] % k + k) % k;
                cost += x[j];
            }
            var best = (int[])x.Clone();
            presses = cost;
            exact = rule.hintsExact;
            if (!exact) return best;
            int ngens = rule.kernel.Length;
            var gens = new List<int>[ngens];
            var digit = new int[ngens];
            for (int g = 0; g < ngens; g++) {
                gens[g] = new List<int>();
                for (int j = 0; j < n; j++)
                    if (rule.kernel[g].presses[j] != 0) {
                        gens[g].Add(j);
                        gens[g].Add(rule.kernel[g].presses[j]);
                    }
            }
            for (;;) {
                int g = 0;
                for (; g < ngens; g++) { // add gen g; carry when c_g wraps
                    List<int> nz = gens[g];
                    for (int t = 0; t < nz.Count; t += 2) {
                        int j = nz[t], was = x[j], now = (was + nz[t + 1]) % k;
                        cost += now - was;
                        x[j] = now;
                    }
                    if (++digit[g] < rule.kernel[g].order) break;
                    digit[g] = 0;
                }
                if (g == ngens) break; // every element visited
                bool better = cost < presses;
                if (!better && cost == presses)
                    for (int j = 0; j < n; j++)
                        if (x[j] != best[j]) {
                            better = x[j] < best[j];
                            break;
                        }
                if (better) {
                    Array.Copy(x, best, n);
                    presses = cost;
                }
            }
            return best;
        }

        public static Pack Parse(string text)
        {
            if (text == null) throw new ArgumentNullException("text");
            if (text.Length > 0 && text[0] == '\uFEFF') text = text.Substring(1);
            if (text.Trim(' ', '\t', '\r', '\n').Length == 0)
                throw new QuenchPackException("", "not JSON: the text is empty");
            CheckNesting(text);
            JToken doc;
            try {
                // Strings stay strings (Newtonsoft would turn a date-like
                // seed or meta into a DateTime), and nothing but a comment
                // may follow the document. Newtonsoft's own nesting bound
                // is a second guard: CheckNesting refuses first.
                var reader = new JsonTextReader(new StringReader(text));
                reader.DateParseHandling = DateParseHandling.None;
                reader.FloatParseHandling = FloatParseHandling.Double;
                reader.MaxDepth = 64;
                doc = JToken.ReadFrom(reader);
                while (reader.Read())
                    if (reader.TokenType != JsonToken.Comment)
                        throw new QuenchPackException("", "not JSON: text after the document (line "
                            + reader.LineNumber + ", position " + reader.LinePosition + ")");
            } catch (JsonException e) {
                // Newtonsoft names the character it met, and at the end
                // of the text that is its buffer's NUL: Controls writes
                // it as \u0000, as any control character.
                throw new QuenchPackException("", "not JSON: " + Controls(e.Message));
            } catch (ArgumentException e) {
                // Newtonsoft before 11 refuses a duplicate key this way.
                throw new QuenchPackException("", "not JSON: " + Controls(e.Message));
            }
            return Load(doc);
        }

        /// <summary>Parse() of a file read as strict UTF-8. The file's own
        /// errors (missing, unreadable) are the IOException or
        /// UnauthorizedAccessException of System.IO.</summary>
        public static Pack ReadFile(string path)
        {
            return Parse(Decode(File.ReadAllBytes(path)));
        }

        /// <summary>Bytes as strict UTF-8 text: invalid bytes are refused,
        /// not silently replaced.</summary>
        public static string Decode(byte[] bytes)
        {
            try {
                return new UTF8Encoding(false, true).GetString(bytes);
            } catch (DecoderFallbackException) {
                throw new QuenchPackException("", "not JSON: the text is not UTF-8");
            }
        }

        // CheckNesting: throws when an array or object opens inside
        // MaxDepth others, before the parser sees the text. The path named
        // is the deep container's, as the checks below name places: keys
        // that are not [A-Za-z0-9_]+ as ["KEY"] (their text as written),
        // "[?]" where a key is missing. Text inside strings is skipped;
        // what is not JSON is left to the parser.
        static void CheckNesting(string text)
        {
            var array = new bool[MaxDepth];
            var index = new int[MaxDepth];
            var key = new string[MaxDepth];
            var wantKey = new bool[MaxDepth];
            int depth = 0, keyFrom = -1;
            bool inString = false;
            for (int i = 0; i < text.Length; i++) {
                char c = text[i];
                if (inString) {
                    if (c == '\\') {
                        i++;
                    } else if (c == '"') {
                        inString = false;
                        if (keyFrom >= 0) key[depth - 1] = text.Substring(keyFrom, i - keyFrom);
                        keyFrom = -1;
                    }
                } else if (c == '"') {
                    inString = true;
                    if (depth > 0 && wantKey[depth - 1]) {
                        wantKey[depth - 1] = false;
                        keyFrom = i + 1;
                    }
                } else if (c == '[' || c == '{') {
                    if (depth == MaxDepth)
                        throw new QuenchPackException(NestingPath(array, index, key),
                            "nesting deeper than " + MaxDepth);
                    array[depth] = c == '[';
                    index[depth] = 0;
                    key[depth] = null;
                    wantKey[depth] = c == '{';
                    depth++;
                } else if (c == ']' || c == '}') {
                    if (depth > 0) depth--;
                } else if (c == ',' && depth > 0) {
                    if (array[depth - 1]) {
                        index[depth - 1]++;
                    } else {
                        key[depth - 1] = null;
                        wantKey[depth - 1] = true;
                    }
                }
            }
        }

        static string NestingPath(bool[] array, int[] index, string[] key)
        {
            string p = "document";
            for (int level = 0; level < MaxDepth; level++) {
                if (array[level]) p += "[" + index[level] + "]";
                else if (key[level] == null) p += "[?]";
                else if (!IsWord(key[level])) p += "[" + Cut("\"" + Controls(key[level]) + "\"") + "]";
                else p = level == 0 ? key[level] : p + "." + key[level];
            }
            return p;
        }

        static bool IsWord(string s)
        {
            if (s.Length == 0) return false;
            foreach (char ch in s)
                if (!(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_'))
                    return false;
            return true;
        }

        /// <summary>The pack in a parsed document (a JToken from your own
        /// reader).</summary>
        public static Pack Load(JToken doc)
        {
            JObject d = Obj(doc, "document");
            JToken format = Field(d, "format", "document");
            if (format.Type != JTokenType.String || (string)format != Format)
                throw new QuenchPackException("format", Show(format)
                    + " is not a quench pack (expected \"" + Format + "\")");
            JToken version = Field(d, "format_version", "document");
            if (!IsNumber(version, FormatVersion))
                throw new QuenchPackException("format_version", Show(version)
                    + " is not supported: this loader reads version " + FormatVersion
                    + " (export the pack again with a current quench)");
            JObject pk = Obj(Field(d, "pack", "document"), "pack");
            JArray rulesIn = Arr(Field(d, "rules", "document"), "rules", MaxRules);
            var rules = new List<Rule>();
            var byHash = new Dictionary<string, Rule>();
            for (int i = 0; i < rulesIn.Count; i++) {
                Rule r = LoadRule(rulesIn[i], "rules[" + i + "]");
                if (byHash.ContainsKey(r.hash))
                    throw new QuenchPackException("rules[" + i + "].hash", "duplicate rule hash (rules["
                        + rules.IndexOf(byHash[r.hash]) + "] has it too)");
                byHash.Add(r.hash, r);
                rules.Add(r);
            }
            JArray puzzlesIn = Arr(Field(d, "puzzles", "document"), "puzzles", MaxPuzzles);
            var puzzles = new Puzzle[puzzlesIn.Count];
            var ids = new string[puzzles.Length];
            var byId = new Dictionary<string, int>();
            var bySlot = new Dictionary<long, int>();
            for (int i = 0; i < puzzles.Length; i++) {
                puzzles[i] = LoadPuzzle(puzzlesIn[i], i, "puzzles[" + i + "]", byHash);
                ids[i] = puzzles[i].id;
                int first;
                if (byId.TryGetValue(ids[i], out first))
                    throw new QuenchPackException("puzzles[" + i + "].id", "duplicate puzzle id (puzzles["
                        + first + "] has it too)");
                byId.Add(ids[i], i);
                if (puzzles[i].slot != 0) {
                    if (bySlot.TryGetValue(puzzles[i].slot, out first))
                        throw new QuenchPackException("puzzles[" + i + "].slot", "duplicate slot (puzzles["
                            + first + "] has it too)");
                    bySlot.Add(puzzles[i].slot, i);
                }
            }
            var pack = new Pack();
            pack.name = Str(pk, "name", "pack");
            int chars = 0;
            foreach (char ch in pack.name)
                if (!char.IsLowSurrogate(ch)) chars++;
            if (chars < 1 || chars > 64)
                throw new QuenchPackException("pack.name", chars + " characters, not 1..64");
            pack.title = Str(pk, "title", "pack");
            pack.description = Str(pk, "description", "pack");
            pack.author = Str(pk, "author", "pack");
            pack.version = Num(pk, "version", "pack", 1, MaxCount);
            pack.puzzleIds = ids;
            pack.rules = rules.ToArray();
            pack.puzzles = puzzles;
            return pack;
        }

        static Rule LoadRule(JToken t, string path)
        {
            JObject o = Obj(t, path);
            var r = new Rule();
            r.hash = Str(o, "hash", path);
            if (!IsHex(r.hash, 64))
                throw new QuenchPackException(path + ".hash", "not 64 lowercase hex digits");
            r.colours = (int)Num(o, "colours", path, 2, 255);
            r.board = LoadGeometry(Field(o, "board", path), path + ".board");
            r.ncells = (int)Num(o, "ncells", path, 1, MaxCells);
            JArray cellsIn = Arr(Field(o, "cells", path), path + ".cells", MaxCells);
            if (cellsIn.Count != r.ncells)
                throw new QuenchPackException(path + ".cells",
                    cellsIn.Count + " cells, ncells is " + r.ncells);
            r.cells = new Cell[r.ncells];
            for (int j = 0; j < r.ncells; j++)
                r.cells[j] = LoadCell(cellsIn[j], j, path + ".cells[" + j + "]", r);
            JArray tiersIn = Arr(Field(o, "tiers", path), path + ".tiers", MaxTiers);
            r.tiers = new Tier[tiersIn.Count];
            for (int i = 0; i < tiersIn.Count; i++) {
                string p = path + ".tiers[" + i + "]";
                JObject to = Obj(tiersIn[i], p);
                var tier = new Tier();
                tier.name = Str(to, "name", p);
                tier.lo = Num(to, "lo", p, 0, MaxPresses);
                tier.hi = Num(to, "hi", p, 0, MaxPresses);
                r.tiers[i] = tier;
            }
            r.name = Str(o, "name", path);
            r.title = Str(o, "title", path);
            r.description = Str(o, "description", path);
            r.author = Str(o, "author", path);
            r.goal = CellValues(Field(o, "goal", path), path + ".goal", r);
            JToken kernel;
            if (o.TryGetValue("kernel", out kernel))
                LoadKernel(kernel, path + ".kernel", r);
            Place(r);
            return r;
        }

        // The rule's kernel: generators of the quiet patterns with their
        // orders, each checked to be of its order and quiet (pressing it
        // changes no cell), so a hint never leads away from the goal.
        static void LoadKernel(JToken t, string path, Rule r)
        {
            JArray list = Arr(t, path, MaxKernel);
            int k = r.colours;
            long size = 1;
            r.kernel = new Generator[list.Count];
            for (int g = 0; g < list.Count; g++) {
                string p = path + "[" + g + "]";
                JObject o = Obj(list[g], p);
                var gen = new Generator();
                gen.order = (int)Num(o, "order", p, 2, k);
                if (k % gen.order != 0)
                    throw new QuenchPackException(p + ".order", gen.order + " does not divide colours " + k);
                gen.presses = CellValues(Field(o, "presses", p), p + ".presses", r);
                var changed = new int[r.ncells];
                for (int j = 0; j < r.ncells; j++) {
                    if (gen.presses[j] * gen.order % k != 0)
                        throw new QuenchPackException(p + ".presses[" + j + "]", gen.presses[j]
                            + " is not of order " + gen.order + " mod " + k);
                    foreach (Effect e in r.cells[j].effects)
                        changed[e.cell] = (changed[e.cell] + gen.presses[j] * e.amount) % k;
                }
                for (int i = 0; i < r.ncells; i++)
                    if (changed[i] != 0)
                        throw new QuenchPackException(p, "not quiet: pressing it changes cell " + i);
                r.kernel[g] = gen;
                if (size <= MaxKernelWalk) size *= gen.order;
            }
            r.hintsExact = size <= MaxKernelWalk;
        }

        static Geometry LoadGeometry(JToken t, string path)
        {
            JObject o = Obj(t, path);
            var g = new Geometry();
            g.kind = OneOf(Field(o, "kind", path), BoardKinds, path + ".kind");
            g.width = (int)Num(o, "width", path, 1, MaxCells);
            g.height = (int)Num(o, "height", path, 1, MaxCells);
            g.wrap = OneOf(Field(o, "wrap", path), Wraps, path + ".wrap");
            g.side = (int)Num(o, "side", path, 0, 37);
            return g;
        }

        static Cell LoadCell(JToken t, int j, string path, Rule r)
        {
            JObject o = Obj(t, path);
            var c = new Cell();
            c.index = (int)Num(o, "index", path, 0, r.ncells - 1);
            if (c.index != j)
                throw new QuenchPackException(path + ".index",
                    c.index + ", expected " + j + " (cells are in index order)");
            c.row = (int)Num(o, "row", path, 0, r.board.height - 1);
            c.col = (int)Num(o, "col", path, 0, r.board.width - 1);
            JArray eff = Arr(Field(o, "effects", path), path + ".effects", MaxCells);
            if (eff.Count == 0)
                throw new QuenchPackException(path + ".effects", "empty: a press must change something");
            c.effects = new Effect[eff.Count];
            for (int i = 0; i < eff.Count; i++) {
                string p = path + ".effects[" + i + "]";
                JObject eo = Obj(eff[i], p);
                var e = new Effect();
                e.cell = (int)Num(eo, "cell", p, 0, r.ncells - 1);
                e.amount = (int)Num(eo, "amount", p, 1, r.colours - 1);
                c.effects[i] = e;
            }
            return c;
        }

        static Puzzle LoadPuzzle(JToken t, int i, string path, Dictionary<string, Rule> rules)
        {
            JObject o = Obj(t, path);
            var p = new Puzzle();
            p.id = Str(o, "id", path);
            if (!IsHex(p.id, 16))
                throw new QuenchPackException(path + ".id", "not 16 lowercase hex digits");
            p.position = (int)Num(o, "position", path, 1, MaxPuzzles);
            if (p.position != i + 1)
                throw new QuenchPackException(path + ".position",
                    p.position + ", expected " + (i + 1) + " (puzzles are in pack order)");
            string hash = Str(o, "rule", path);
            if (!rules.TryGetValue(hash, out p.rule))
                throw new QuenchPackException(path + ".rule", "no rule with hash " + Show(hash) + " in rules");
            p.colours = p.rule.colours;
            p.board = p.rule.board;
            p.cells = p.rule.cells;
            p.goal = p.rule.goal;
            p.start = CellValues(Field(o, "state", path), path + ".state", p.rule);
            p.witness = CellValues(Field(o, "solution", path), path + ".solution", p.rule);
            p.minPresses = Num(o, "min_presses", path, 0, MaxPresses);
            p.optimalSolutions = Num(o, "optimal_solutions", path, 1, MaxCount);
            p.grade = Str(o, "grade", path);
            p.graderVersion = Str(o, "grader_version", path);
            p.seed = Str(o, "seed", path);
            if (!IsHex(p.seed, -1))
                throw new QuenchPackException(path + ".seed", "not lowercase hex digits");
            p.index = Num(o, "index", path, -1, MaxCount);
            p.submission = Str(o, "submission", path);
            p.source = Str(o, "source", path);
            p.meta = Str(o, "meta", path);
            JToken slot, section;
            if (o.TryGetValue("slot", out slot))
                p.slot = Num(o, "slot", path, 1, MaxCount);
            p.section = o.TryGetValue("section", out section) ? Str(o, "section", path) : "";
            LoadHuman(o, path, p);
            return p;
        }

        static readonly string[] HumanLevels = { "spot", "chase", "table", "global" };
        const long MaxHumanScore = 1000000000000; // the schema's, in thousandths

        // A field a document may leave out or write null: null then.
        static JToken Optional(JObject o, string key)
        {
            JToken v;
            return o.TryGetValue(key, out v) && v.Type != JTokenType.Null ? v : null;
        }

        // The human grade: four fields, null together when the puzzle has
        // none; the number must be the level's.
        static void LoadHuman(JObject o, string path, Puzzle p)
        {
            JToken level = Optional(o, "human_level"), number = Optional(o, "human_level_number");
            if (level != null) p.humanLevel = OneOf(level, HumanLevels, path + ".human_level");
            if (number != null) p.humanLevelNumber = (int)Int(number, path + ".human_level_number", 0, 3);
            int? want = null;
            if (p.humanLevel != null) want = Array.IndexOf(HumanLevels, p.humanLevel);
            if (p.humanLevelNumber != want)
                throw new QuenchPackException(path + ".human_level_number",
                    (number == null ? "null" : Show(number)) + ", expected " +
                    (want.HasValue ? want.Value.ToString(CultureInfo.InvariantCulture) : "null") +
                    " (human_level is " + (level == null ? "null" : Show(level)) + ")");
            JToken score = Optional(o, "human_score"), model = Optional(o, "human_model_version");
            if (score != null) p.humanScore = Int(score, path + ".human_score", -MaxHumanScore, MaxHumanScore);
            if (model != null) p.humanModelVersion = Int(model, path + ".human_model_version", 1, MaxCount);
        }

        // Each cell's centre, as src/export/svg.h and the JavaScript
        // loader's centres() place it: grid (col, row); hex (odd-r) odd rows
        // half a cell right, rows sqrt(3)/2 apart; hexagon axial
        // x = col + row/2 shifted so the leftmost cell is at 0,
        // y = row * sqrt(3)/2; graph evenly spaced clockwise on a circle
        // from 12 o'clock, neighbours 1.5 apart.
        static void Place(Rule r)
        {
            double h = Math.Sqrt(3) / 2;
            Cell[] cells = r.cells;
            switch (r.board.kind) {
            case "grid":
                foreach (Cell c in cells) { c.x = c.col; c.y = c.row; }
                break;
            case "hex":
                foreach (Cell c in cells) { c.x = c.col + (c.row & 1) / 2.0; c.y = c.row * h; }
                break;
            case "hexagon":
                double x0 = double.PositiveInfinity;
                foreach (Cell c in cells) x0 = Math.Min(x0, c.col + c.row / 2.0);
                foreach (Cell c in cells) { c.x = c.col + c.row / 2.0 - x0; c.y = c.row * h; }
                break;
            default:
                int n = cells.Length;
                double rad = n < 2 ? 0 : 1.5 / (2 * Math.Sin(Math.PI / n));
                for (int j = 0; j < n; j++) {
                    double a = 2 * Math.PI * j / n;
                    cells[j].x = rad + rad * Math.Sin(a);
                    cells[j].y = rad - rad * Math.Cos(a);
                }
                break;
            }
        }

        // Checkers: each returns the value or throws at `path`. Why this
        // much checking: a pack is content from outside the game (a
        // download, a mod); a bad one must fail at load, not mid-level.
        static JToken Field(JObject o, string key, string path)
        {
            JToken v;
            if (!o.TryGetValue(key, out v))
                throw new QuenchPackException(path, "missing field \"" + key + "\"");
            return v;
        }

        static JObject Obj(JToken v, string path)
        {
            var o = v as JObject;
            if (o == null) throw new QuenchPackException(path, "not an object");
            return o;
        }

        static JArray Arr(JToken v, string path, int most)
        {
            var a = v as JArray;
            if (a == null) throw new QuenchPackException(path, "not an array");
            if (a.Count > most) throw new QuenchPackException(path, a.Count + " items, at most " + most);
            return a;
        }

        static string Str(JObject o, string key, string path)
        {
            JToken v = Field(o, key, path);
            if (v.Type != JTokenType.String)
                throw new QuenchPackException(path + "." + key, "not a string");
            return (string)v;
        }

        static string OneOf(JToken v, string[] allowed, string path)
        {
            if (v.Type == JTokenType.String && Array.IndexOf(allowed, (string)v) >= 0)
                return (string)v;
            throw new QuenchPackException(path, Show(v) + " is not one of " + string.Join(", ", allowed));
        }

        static long Num(JObject o, string key, string path, long lo, long hi)
        {
            return Int(Field(o, key, path), path + "." + key, lo, hi);
        }

        // v as an integer in lo..hi (both within +-2^53), or an exception
        // at path. A number written with a fraction or an exponent but an
        // integral value (2.0, 1e3) is accepted, as the JavaScript and Lua
        // loaders cannot tell it apart either.
        static long Int(JToken v, string path, long lo, long hi)
        {
            long n;
            string why = AsInt(v, lo, hi, out n);
            if (why != null) throw new QuenchPackException(path, Show(v) + why);
            return n;
        }

        // null when v is an integer in lo..hi (then in n), else what is
        // wrong.
        static string AsInt(JToken v, long lo, long hi, out long n)
        {
            n = 0;
            if (v.Type == JTokenType.Integer) {
                // Newtonsoft gives a BigInteger for what a long cannot hold.
                object raw = ((JValue)v).Value;
                if (!(raw is long || raw is int)) return " is outside " + lo + ".." + hi;
                n = Convert.ToInt64(raw, CultureInfo.InvariantCulture);
            } else if (v.Type == JTokenType.Float) {
                double d = (double)v;
                if (double.IsNaN(d) || double.IsInfinity(d) || Math.Floor(d) != d)
                    return " is not an integer";
                if (d < lo || d > hi) return " is outside " + lo + ".." + hi;
                n = (long)d;
            } else {
                return " is not an integer";
            }
            if (n < lo || n > hi) return " is outside " + lo + ".." + hi;
            return null;
        }

        // One value per cell, each below colours: state, goal, solution.
        static int[] CellValues(JToken t, string path, Rule r)
        {
            JArray a = Arr(t, path, MaxCells);
            if (a.Count != r.ncells)
                throw new QuenchPackException(path, a.Count + " values, the rule has " + r.ncells + " cells");
            var v = new int[a.Count];
            for (int j = 0; j < v.Length; j++)
                v[j] = (int)Int(a[j], path + "[" + j + "]", 0, r.colours - 1);
            return v;
        }

        static bool IsNumber(JToken v, long want)
        {
            long n;
            return AsInt(v, want, want, out n) == null;
        }

        // Whether s is len lowercase hex digits (len -1: any number of them,
        // none included).
        static bool IsHex(string s, int len)
        {
            if (len >= 0 && s.Length != len) return false;
            foreach (char ch in s)
                if (!(ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'f')) return false;
            return true;
        }

        // How a message shows text and values from the document, the same
        // in the four loaders: control characters as \u00XX (no document
        // can put a raw one on a terminal), at most 40 characters; numbers
        // as Number writes them; an array or object by its kind.
        static string Show(JToken v)
        {
            switch (v.Type) {
            case JTokenType.String:
                return Show((string)v);
            case JTokenType.Integer:
                object raw = ((JValue)v).Value;
                if (raw is long || raw is int) return Number(Convert.ToInt64(raw, CultureInfo.InvariantCulture));
                string big = raw.ToString(); // a BigInteger, past long
                return big.StartsWith("-") ? "-" + Sci6(big.Substring(1)) : Sci6(big);
            case JTokenType.Float:
                return Number((double)v);
            case JTokenType.Boolean:
                return (bool)v ? "true" : "false";
            case JTokenType.Null:
                return "null";
            case JTokenType.Array:
                return "an array";
            default:
                return "an object";
            }
        }

        static string Show(string s)
        {
            return Cut("\"" + Controls(s.Replace("\\", "\\\\").Replace("\"", "\\\"")) + "\"");
        }

        static string Controls(string s)
        {
            var b = new StringBuilder(s.Length);
            foreach (char ch in s) {
                if (ch < ' ' || ch == '\u007f') b.Append("\\u").Append(((int)ch).ToString("x4", CultureInfo.InvariantCulture));
                else b.Append(ch);
            }
            return b.ToString();
        }

        static string Cut(string s)
        {
            return s.Length <= 40 ? s : s.Substring(0, 37) + "...";
        }

        static string Number(long n)
        {
            if (n > -9007199254740992 && n < 9007199254740992)
                return n.ToString(CultureInfo.InvariantCulture);
            string digits = n.ToString(CultureInfo.InvariantCulture);
            return n < 0 ? "-" + Sci6(digits.Substring(1)) : Sci6(digits);
        }

        // A number: an integer below 2^53 in digits, a larger one as Sci6
        // (an integer another runtime may have rounded: all of them show
        // it alike), a fraction with up to six decimals (rounded half up,
        // trailing zeros dropped unless all six are 0).
        static string Number(double v)
        {
            if (double.IsNaN(v)) return "NaN";
            if (double.IsInfinity(v)) return v > 0 ? "Infinity" : "-Infinity";
            string sign = v < 0 ? "-" : "";
            double a = Math.Abs(v);
            if (Math.Floor(a) == a)
                return sign + (a < 9007199254740992.0 ? ((long)a).ToString(CultureInfo.InvariantCulture)
                                                       : Sci6(Digits(a)));
            double ip = Math.Floor(a), f = Math.Floor((a - ip) * 1e6 + 0.5);
            if (f >= 1e6) { ip += 1; f -= 1e6; }
            string six = ((long)f).ToString("D6", CultureInfo.InvariantCulture);
            string trimmed = six.TrimEnd('0');
            return sign + ((long)ip).ToString(CultureInfo.InvariantCulture) + "." + (trimmed.Length > 0 ? trimmed : six);
        }

        // The exact decimal digits of an integral double past 2^53: it is
        // m * 2^k with m below 2^53; m doubled k times in base 10^9 limbs.
        static string Digits(double a)
        {
            int k = 0;
            while (a >= 9007199254740992.0) { a /= 2; k++; }
            long m = (long)a;
            var limbs = new List<long> { m % 1000000000, m / 1000000000 % 1000000000, m / 1000000000000000000 };
            for (; k > 0; k--) {
                long carry = 0;
                for (int i = 0; i < limbs.Count; i++) {
                    long x = limbs[i] * 2 + carry;
                    limbs[i] = x % 1000000000;
                    carry = x / 1000000000;
                }
                if (carry > 0) limbs.Add(carry);
            }
            int top = limbs.Count - 1;
            while (top > 0 && limbs[top] == 0) top--;
            var b = new StringBuilder(limbs[top].ToString(CultureInfo.InvariantCulture));
            for (int i = top - 1; i >= 0; i--) b.Append(limbs[i].ToString("D9", CultureInfo.InvariantCulture));
            return b.ToString();
        }

        // An integer's decimal digits (16 or more) as six significant
        // digits, rounded half up: "1e+30", "9.22337e+18".
        static string Sci6(string d)
        {
            string m = d.Substring(0, 6);
            int e = d.Length - 1;
            if (d[6] >= '5') {
                m = (int.Parse(m, CultureInfo.InvariantCulture) + 1).ToString(CultureInfo.InvariantCulture);
                if (m.Length > 6) { m = m.Substring(0, 6); e++; }
            }
            m = m.TrimEnd('0');
            return m.Substring(0, 1) + (m.Length > 1 ? "." + m.Substring(1) : "") + "e+" + e;
        }
    }
}
