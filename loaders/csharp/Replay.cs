// Replay.cs PACK.json: replay every puzzle's witness through the loader's
// own Board.Press (Puzzle.CheckWitness) and check it reaches the goal in
// exactly min_presses presses. The last stdout line is always "replayed N
// puzzles: S solved, F failed" when the document loads; each failure is
// named on stderr first, and so is an empty pack. PACK.json "-" is
// standard input.
// Exit: 0 when F = 0 and N > 0; 1 when a puzzle failed or the pack is
// empty; 64 usage; 65 a document the loader refuses (not UTF-8, bad JSON,
// too deep, wrong format or version, a missing or bad field); 66 the file
// cannot be read. The shell script `replay` compiles and runs this.

using System;
using System.IO;
using Quench;

static class Replay
{
    static int Main(string[] args)
    {
        if (args.Length != 1) {
            Console.Error.WriteLine("usage: replay PACK.json");
            return 64;
        }
        string file = args[0];
        byte[] bytes;
        if (Directory.Exists(file)) {
            // Mono would say "access denied".
            Console.Error.WriteLine("replay: " + file + ": cannot read (a directory)");
            return 66;
        }
        try {
            bytes = file == "-" ? ReadAll(Console.OpenStandardInput()) : File.ReadAllBytes(file);
        } catch (Exception e) when (e is IOException || e is UnauthorizedAccessException
                                    || e is ArgumentException || e is NotSupportedException) {
            Console.Error.WriteLine("replay: " + file + ": cannot read (" + e.Message + ")");
            return 66;
        }

        Pack pack;
        try {
            pack = QuenchPack.Parse(QuenchPack.Decode(bytes));
        } catch (QuenchPackException e) {
            Console.Error.WriteLine("replay: " + file + ": " + e.Message);
            return 65;
        }

        int solved = 0, failed = 0;
        foreach (Puzzle p in pack.puzzles) {
            string why = p.CheckWitness();
            if (why == null) {
                solved++;
            } else {
                failed++;
                Console.Error.WriteLine("replay: puzzle " + p.position + " (id " + p.id + "): " + why);
            }
        }
        int n = pack.puzzles.Length;
        if (n == 0) Console.Error.WriteLine("replay: " + file + ": the pack has no puzzles");
        Console.Out.WriteLine("replayed " + n + " puzzles: " + solved + " solved, " + failed + " failed");
        return failed == 0 && n > 0 ? 0 : 1;
    }

    static byte[] ReadAll(Stream s)
    {
        var m = new MemoryStream();
        s.CopyTo(m);
        return m.ToArray();
    }
}
