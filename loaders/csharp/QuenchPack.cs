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
//   board.Reset();                                 // back to the start
//
// The document is checked before anything is returned: a format or
// format_version this file does not know, a missing field, a wrong type or a
// value out of range throws a QuenchPackException naming where
// ("puzzles[3].state: 9 values, the rule has 25 cells"), so a game never
// plays half a pack. Fields this file does not use are ignored
// (format_version 2 fixes them). Indices are the document's: cells from 0,
// puzzles[i] has position i + 1.
//
// A game never implements a topology: Press(j) adds, for every effect e of
// cell j, e.amount to cell e.cell mod colours. The board geometry (kind,
// width, height, wrap, side and each cell's row/col) is only for drawing;
// each cell's x, y is its centre, laid out as quench's svg and html exports
// draw it.
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

        /// <summary>The puzzle with this id, or null.</summary>
        public Puzzle FindPuzzle(string id)
        {
            foreach (Puzzle p in puzzles)
                if (p.id == id) return p;
            return null;
        }
    }

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
    /// per cell; read it, do not write it), presses counts Press() calls
    /// since the start or the last Reset(). Not [Serializable]: Unity
    /// would fill a serialized Board field with an empty board, one
    /// without a puzzle; make boards with NewBoard().</summary>
    public class Board
    {
        public Puzzle puzzle;
        public int[] state;
        public int presses;

        public Board(Puzzle puzzle)
        {
            this.puzzle = puzzle;
            state = (int[])puzzle.start.Clone();
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
            int k = puzzle.colours;
            foreach (Effect e in cells[cell].effects)
                state[e.cell] = (state[e.cell] + e.amount) % k;
            presses++;
        }

        /// <summary>Whether the board equals the rule's goal.</summary>
        public bool IsSolved()
        {
            return Puzzle.Same(state, puzzle.goal);
        }

        /// <summary>Back to the puzzle's start state, press count 0.</summary>
        public void Reset()
        {
            Array.Copy(puzzle.start, state, state.Length);
            presses = 0;
        }
    }

    public static class QuenchPack
    {
        public const string Format = "quench-pack";
        public const int FormatVersion = 2;

        const int MaxCells = 4096;
        static readonly string[] BoardKinds = { "grid", "hex", "hexagon", "graph" };
        static readonly string[] Wraps = { "none", "x", "y", "both" };

        /// <summary>The pack in a document's text (a TextAsset's text, a
        /// download); QuenchPackException when it is not JSON or not a
        /// quench-pack version 2 document.</summary>
        public static Pack Parse(string text)
        {
            if (text == null) throw new ArgumentNullException("text");
            text = text.TrimStart('\uFEFF');
            if (text.Trim().Length == 0) throw new QuenchPackException("", "not JSON: the document is empty");
            JToken doc;
            try {
                // Strings stay strings (Newtonsoft would turn a date-like
                // seed or meta into a DateTime), nesting is bounded, and
                // nothing but a comment may follow the document.
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
                throw new QuenchPackException("", "not JSON: " + e.Message);
            } catch (ArgumentException e) {
                // Newtonsoft before 11 refuses a duplicate key this way.
                throw new QuenchPackException("", "not JSON: " + e.Message);
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
                throw new QuenchPackException("", "not UTF-8 text");
            }
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
            JArray rulesIn = Arr(Field(d, "rules", "document"), "rules");
            var rules = new List<Rule>();
            var byHash = new Dictionary<string, Rule>();
            for (int i = 0; i < rulesIn.Count; i++) {
                Rule r = LoadRule(rulesIn[i], "rules[" + i + "]");
                if (byHash.ContainsKey(r.hash))
                    throw new QuenchPackException("rules[" + i + "].hash", "duplicate rule hash");
                byHash.Add(r.hash, r);
                rules.Add(r);
            }
            JArray puzzlesIn = Arr(Field(d, "puzzles", "document"), "puzzles");
            var puzzles = new Puzzle[puzzlesIn.Count];
            var ids = new string[puzzles.Length];
            for (int i = 0; i < puzzles.Length; i++) {
                puzzles[i] = LoadPuzzle(puzzlesIn[i], i, "puzzles[" + i + "]", byHash);
                ids[i] = puzzles[i].id;
            }
            var pack = new Pack();
            pack.name = Str(pk, "name", "pack");
            pack.title = Str(pk, "title", "pack");
            pack.description = Str(pk, "description", "pack");
            pack.author = Str(pk, "author", "pack");
            pack.version = Num(pk, "version", "pack", 1, long.MaxValue);
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
            JArray cellsIn = Arr(Field(o, "cells", path), path + ".cells");
            if (cellsIn.Count != r.ncells)
                throw new QuenchPackException(path + ".cells",
                    cellsIn.Count + " cells, ncells is " + r.ncells);
            r.cells = new Cell[r.ncells];
            for (int j = 0; j < r.ncells; j++)
                r.cells[j] = LoadCell(cellsIn[j], j, path + ".cells[" + j + "]", r);
            JArray tiersIn = Arr(Field(o, "tiers", path), path + ".tiers");
            r.tiers = new Tier[tiersIn.Count];
            for (int i = 0; i < tiersIn.Count; i++) {
                string p = path + ".tiers[" + i + "]";
                JObject to = Obj(tiersIn[i], p);
                var tier = new Tier();
                tier.name = Str(to, "name", p);
                tier.lo = Num(to, "lo", p, 0, long.MaxValue);
                tier.hi = Num(to, "hi", p, 0, long.MaxValue);
                r.tiers[i] = tier;
            }
            r.name = Str(o, "name", path);
            r.title = Str(o, "title", path);
            r.description = Str(o, "description", path);
            r.author = Str(o, "author", path);
            r.goal = CellValues(Field(o, "goal", path), path + ".goal", r);
            Place(r);
            return r;
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
            JArray eff = Arr(Field(o, "effects", path), path + ".effects");
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
            p.position = (int)Num(o, "position", path, 1, int.MaxValue);
            if (p.position != i + 1)
                throw new QuenchPackException(path + ".position",
                    p.position + ", expected " + (i + 1) + " (puzzles are in pack order)");
            string hash = Str(o, "rule", path);
            if (!rules.TryGetValue(hash, out p.rule))
                throw new QuenchPackException(path + ".rule", "no rule with hash " + hash + " in rules");
            p.colours = p.rule.colours;
            p.board = p.rule.board;
            p.cells = p.rule.cells;
            p.goal = p.rule.goal;
            p.start = CellValues(Field(o, "state", path), path + ".state", p.rule);
            p.witness = CellValues(Field(o, "solution", path), path + ".solution", p.rule);
            p.minPresses = Num(o, "min_presses", path, 0, long.MaxValue);
            p.optimalSolutions = Num(o, "optimal_solutions", path, 1, long.MaxValue);
            p.grade = Str(o, "grade", path);
            p.graderVersion = Str(o, "grader_version", path);
            p.seed = Str(o, "seed", path);
            p.index = Num(o, "index", path, -1, long.MaxValue);
            p.submission = Str(o, "submission", path);
            p.source = Str(o, "source", path);
            p.meta = Str(o, "meta", path);
            return p;
        }

        // Each cell's centre, as include/quench/svg.h and the JavaScript
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

        static JArray Arr(JToken v, string path)
        {
            var a = v as JArray;
            if (a == null) throw new QuenchPackException(path, "not an array");
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

        static long Int(JToken v, string path, long lo, long hi)
        {
            long n;
            string why = AsInt(v, lo, hi, out n);
            if (why != null) throw new QuenchPackException(path, Show(v) + why);
            return n;
        }

        // null when v is an integer in lo..hi (then in n), else what is
        // wrong. A number written with a fraction or an exponent but an
        // integral value (2.0, 1e3) is accepted, as the JavaScript and Lua
        // loaders cannot tell it apart either.
        static string AsInt(JToken v, long lo, long hi, out long n)
        {
            n = 0;
            bool fits;
            if (v.Type == JTokenType.Integer) {
                // Newtonsoft gives a BigInteger for what a long cannot hold.
                object raw = ((JValue)v).Value;
                fits = raw is long || raw is int;
                if (fits) n = Convert.ToInt64(raw, CultureInfo.InvariantCulture);
            } else if (v.Type == JTokenType.Float) {
                double d = (double)v;
                if (double.IsNaN(d) || double.IsInfinity(d) || Math.Floor(d) != d)
                    return " is not an integer";
                // 2^63 is the first double past long.MaxValue.
                fits = d >= -9223372036854775808.0 && d < 9223372036854775808.0;
                if (fits) n = (long)d;
            } else {
                return " is not an integer";
            }
            if (!fits || n < lo || n > hi) return " is outside " + lo + ".." + hi;
            return null;
        }

        // One value per cell, each below colours: state, goal, solution.
        static int[] CellValues(JToken t, string path, Rule r)
        {
            JArray a = Arr(t, path);
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

        static bool IsHex(string s, int len)
        {
            if (s.Length != len) return false;
            foreach (char ch in s)
                if (!(ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'f')) return false;
            return true;
        }

        // A value as JSON text for a message, cut short when long.
        static string Show(JToken v)
        {
            // Newtonsoft writes NaN and Infinity in quotes, like strings.
            string s = v.Type == JTokenType.Float
                ? ((double)v).ToString("R", CultureInfo.InvariantCulture)
                : v.ToString(Formatting.None);
            return s.Length <= 40 ? s : s.Substring(0, 37) + "...";
        }
    }
}
