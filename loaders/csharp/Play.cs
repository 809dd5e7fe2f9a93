// Play.cs PACK.json MOVES.jsonl: the hints of the loader (QuenchPack.cs)
// from given positions. Each line of MOVES is {"puzzle": ID, "presses":
// [CELL, ...]}, the cells pressed from the puzzle's start, in order; for
// each, one line on stdout: {"puzzle":ID,"presses_left":N,"plan":[CELL,
// ...],"exact":B}, N being board.PressesLeft() after those presses, plan
// the cells Hint() names, each pressed in turn until the board is solved,
// exact whether N is proven least (rule.hintsExact). The driver checks its
// own answer: the plan must solve the board in exactly N presses, and
// undoing every press must bring back the start, with PressesLeft() then
// min_presses (when exact); a failure is named on stderr and the line
// still printed. MOVES is read and checked whole before anything is
// played; "-" reads standard input (for one of the two files).
// Exit: 0 every line played; 1 a line failed its checks, or MOVES has no
// line; 64 usage; 65 a document the loader refuses, or a MOVES line that
// is not such an object, names no puzzle of the pack or a cell it lacks
// (play: MOVES:LINE: what); 66 a file cannot be read. The shell script
// `play` compiles and runs this.

using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using Quench;

static class Play
{
    const int MaxPresses = 1048576;

    sealed class Exit : Exception
    {
        public readonly int Status;
        public Exit(int status, string msg) : base(msg) { Status = status; }
    }

    static byte[] Read(string file)
    {
        if (Directory.Exists(file)) throw new Exit(66, file + ": cannot read (a directory)");
        try {
            if (file != "-") return File.ReadAllBytes(file);
            var m = new MemoryStream();
            Console.OpenStandardInput().CopyTo(m);
            return m.ToArray();
        } catch (Exception e) when (e is IOException || e is UnauthorizedAccessException
                                    || e is ArgumentException || e is NotSupportedException) {
            throw new Exit(66, file + ": cannot read (" + e.Message + ")");
        }
    }

    static JToken Line(string text)
    {
        var reader = new JsonTextReader(new StringReader(text));
        reader.DateParseHandling = DateParseHandling.None;
        reader.FloatParseHandling = FloatParseHandling.Double;
        reader.MaxDepth = 64;
        JToken t = JToken.ReadFrom(reader);
        while (reader.Read())
            if (reader.TokenType != JsonToken.Comment) throw new JsonReaderException("text after the value");
        return t;
    }

    static bool IsCell(JToken c, int n, out int cell)
    {
        cell = -1;
        double d;
        if (c.Type == JTokenType.Integer) {
            object raw = ((JValue)c).Value;
            if (!(raw is long || raw is int)) return false;
            d = Convert.ToDouble(raw);
        } else if (c.Type == JTokenType.Float) {
            d = (double)c;
            if (double.IsNaN(d) || double.IsInfinity(d) || Math.Floor(d) != d) return false;
        } else {
            return false;
        }
        if (d < 0 || d >= n) return false;
        cell = (int)d;
        return true;
    }

    static int Main(string[] args)
    {
        try {
            return Run(args);
        } catch (Exit e) {
            Console.Error.WriteLine("play: " + e.Message);
            return e.Status;
        }
    }

    static int Run(string[] args)
    {
        if (args.Length != 2) {
            Console.Error.WriteLine("usage: play PACK.json MOVES.jsonl");
            return 64;
        }
        string file = args[0], movesFile = args[1];
        byte[] packBytes = Read(file), movesBytes = Read(movesFile);
        Pack pack;
        try {
            pack = QuenchPack.Parse(QuenchPack.Decode(packBytes));
        } catch (QuenchPackException e) {
            throw new Exit(65, file + ": " + e.Message);
        }
        string text;
        try {
            text = new UTF8Encoding(false, true).GetString(movesBytes);
        } catch (DecoderFallbackException) {
            throw new Exit(65, movesFile + ": not UTF-8");
        }

        // Every line first: nothing is played from a MOVES file that is wrong.
        var games = new List<Tuple<int, Puzzle, int[]>>();
        string[] lines = text.Split('\n');
        for (int i = 0; i < lines.Length; i++) {
            string where = movesFile + ":" + (i + 1);
            if (lines[i].Trim(' ', '\t', '\r').Length == 0) continue;
            JObject m;
            try {
                m = Line(lines[i]) as JObject;
            } catch (Exception e) when (e is JsonException || e is ArgumentException) {
                m = null;
            }
            if (m == null) throw new Exit(65, where + ": not a JSON object");
            JToken id = m["puzzle"];
            if (id == null || id.Type != JTokenType.String)
                throw new Exit(65, where + ": \"puzzle\" is not a puzzle id");
            Puzzle pz = pack.FindPuzzle((string)id);
            if (pz == null) throw new Exit(65, where + ": \"puzzle\" names no puzzle of the pack");
            var presses = m["presses"] as JArray;
            if (presses == null || presses.Count > MaxPresses)
                throw new Exit(65, where + ": \"presses\" is not a list of at most " + MaxPresses + " cells");
            var cells = new int[presses.Count];
            for (int j = 0; j < cells.Length; j++)
                if (!IsCell(presses[j], pz.cells.Length, out cells[j]))
                    throw new Exit(65, where + ": presses[" + j + "] is not a cell of the puzzle (0.."
                        + (pz.cells.Length - 1) + ")");
            games.Add(Tuple.Create(i + 1, pz, cells));
        }
        if (games.Count == 0) throw new Exit(1, movesFile + ": no moves");

        int failed = 0;
        var output = new StringBuilder();
        foreach (var g in games) {
            Puzzle pz = g.Item2;
            Board board = pz.NewBoard();
            foreach (int c in g.Item3) board.Press(c);
            long left = board.PressesLeft();
            var plan = new List<int>();
            for (int h = board.Hint(); h >= 0 && plan.Count <= left; h = board.Hint()) {
                board.Press(h);
                plan.Add(h);
            }
            var bad = new List<string>();
            if (!board.IsSolved())
                bad.Add("following the hints does not reach the goal");
            else if (plan.Count != left)
                bad.Add("the hints took " + plan.Count + " presses, PressesLeft() said " + left);
            while (board.Undo() >= 0) { }
            if (board.presses != 0 || !Puzzle.Same(board.state, pz.start))
                bad.Add("undoing every press does not bring back the start");
            else if (pz.rule.hintsExact && board.PressesLeft() != pz.minPresses)
                bad.Add("at the start PressesLeft() is " + board.PressesLeft() + ", min_presses " + pz.minPresses);
            foreach (string w in bad)
                Console.Error.WriteLine("play: " + movesFile + ":" + g.Item1 + ": puzzle " + pz.id + ": " + w);
            if (bad.Count > 0) failed++;
            output.Append("{\"puzzle\":\"").Append(pz.id).Append("\",\"presses_left\":").Append(left)
                  .Append(",\"plan\":[").Append(string.Join(",", plan)).Append("],\"exact\":")
                  .Append(pz.rule.hintsExact ? "true" : "false").Append("}\n");
        }
        Console.Out.Write(output.ToString());
        Console.Out.Flush();
        return failed == 0 ? 0 : 1;
    }
}
