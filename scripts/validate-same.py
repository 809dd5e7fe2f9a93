#!/usr/bin/env python3
"""validate-same.py: `quench validate`'s outputs of two builds, compared.

    scripts/validate-same.py NEW BASE [WORKDIR]

Runs both binaries over the same inputs (text, JSON Lines, CSV and JSON
documents of several rules: random states, repeats, symmetric repeats,
malformed lines, comments, blank lines, trivial states, claimed solutions
and minima right and wrong, notes and other fields, generate's own
output, stdin, --db) in text, --jsonl and --json, at --jobs 1, 2 and 3,
and compares stdout, stderr and the exit status byte for byte. Prints
each difference and the number of runs; exits 1 when any differs. For
changes meant to keep every output byte (docs/PERFORMANCE.md).
"""
import json
import os
import random
import subprocess
import sys

RULES = ["classic-5x5", "classic-7x7", "classic-9x9", "torus-5x5",
         "whack-a-mole-4x4", "sigma-5x5", "moore-6x6", "four-colour-10x10",
         "hexagon-3", "ring6-mod8"]
N = 3000  # records a file: more than one batch of the --jobs pipeline


def sh(argv, stdin=None):
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as f:
        p = subprocess.run(argv, stdin=f, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr


def samples(quench, rule, work):
    """generate's own output of the rule (puzzles with their solutions)."""
    path = os.path.join(work, rule + ".gen.jsonl")
    rc, out, _ = sh([quench, "-q", "generate", "rules/%s.yaml" % rule,
                     "-n", "300", "--seed", "7"])
    if rc != 0:
        sys.exit("generate %s failed (%d)" % (rule, rc))
    with open(path, "wb") as f:
        f.write(out)
    puz = [json.loads(x) for x in out.decode().splitlines()]
    return path, [p for p in puz if p.get("type") == "puzzle"]


def colours(rule):
    with open("rules/%s.yaml" % rule) as f:
        for line in f:
            if line.startswith("colours:"):
                return int(line.split(":")[1])
    return 2


def rand_state(rng, tmpl, k):
    return "".join(str(rng.randrange(k)) if c.isdigit() else c
                   for c in tmpl)


def flip_rows(s):
    """The state mirrored left-right (a symmetry of square boards)."""
    return "/".join(r[::-1] for r in s.split("/"))


BAD = ["xyz", "", "   ", "# a comment", "  # indented comment",
       "0/0/0", "2" * 25, "\t", "01\x0110", "\xc3\xa9t\xc3\xa9"]


def make_inputs(rule, puz, work, rng):
    k = colours(rule)
    tmpl = puz[0]["state"]
    zero = "".join("0" if c.isdigit() else c for c in tmpl)
    states = []
    for i in range(N):
        r = rng.random()
        if r < 0.55 or not states:
            states.append(rand_state(rng, tmpl, k))
        elif r < 0.75:
            states.append(rng.choice(puz)["state"])
        elif r < 0.85:
            states.append(rng.choice(states))
        elif r < 0.9:
            states.append(flip_rows(rng.choice(states)))
        elif r < 0.93:
            states.append(zero)
        else:
            states.append(rng.choice(BAD) + rng.choice(["", tmpl[:3]]))
    files = {}
    p = os.path.join(work, rule + ".txt")
    with open(p, "w") as f:
        f.write("# submissions\n\n")
        f.write("\n".join(states) + "\n")
    files["txt"] = p
    recs = []
    for i, s in enumerate(states):
        rec = {"id": "s%d" % i, "state": s}
        r = rng.random()
        src = rng.choice(puz)
        if r < 0.1:
            rec = {"id": "g%d" % i, "state": src["state"],
                   "solution": src["solution"],
                   "min_presses": src["min_presses"]}
        elif r < 0.15:
            rec = {"id": "w%d" % i, "state": src["state"],
                   "min_presses": src["min_presses"] + rng.choice([-1, 2])}
        elif r < 0.18:
            sol = list(src["solution"])
            sol[0] = (sol[0] + 1) % k
            rec = {"id": "b%d" % i, "state": src["state"], "solution": sol}
        elif r < 0.22:
            rec["note"] = "note \"%d\" \\ é" % i
            rec["author"] = {"name": "x", "n": i}
        elif r < 0.24:
            del rec["id"]
        recs.append(rec)
    p = os.path.join(work, rule + ".jsonl")
    with open(p, "w") as f:
        for i, rec in enumerate(recs):
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
            if i % 97 == 5:
                f.write(rng.choice(['{"id": 1, "state": 5}', '{"state"',
                                    '[1,2]', '   ', '{"id":"q"}',
                                    '{"state":"%s","rule_hash":"00"}' % tmpl])
                        + "\n")
    files["jsonl"] = p
    p = os.path.join(work, rule + ".csv")
    with open(p, "w") as f:
        f.write("id,state,solution,min_presses,note,extra\n")
        for i, rec in enumerate(recs):
            sol = rec.get("solution")
            f.write('%s,"%s",%s,%s,%s,%s\n' % (
                rec.get("id", ""), rec["state"],
                '"%s"' % json.dumps(sol) if sol else "",
                rec.get("min_presses", ""),
                "n%d" % i if i % 7 == 0 else "",
                "x,y" if i % 211 == 3 else "e"))
    files["csv"] = p
    p = os.path.join(work, rule + ".json")
    with open(p, "w") as f:
        json.dump(recs[:1500], f, ensure_ascii=False, indent=1)
    files["json"] = p
    return files


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    new, base = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    work = sys.argv[3] if len(sys.argv) > 3 else "/tmp/validate-same"
    os.makedirs(work, exist_ok=True)
    rng = random.Random(35)
    runs = diffs = 0

    def compare(label, argv, stdin=None):
        nonlocal runs, diffs
        a = sh([new] + argv, stdin)
        b = sh([base] + argv, stdin)
        runs += 1
        if a != b:
            diffs += 1
            what = [n for n, x, y in zip(("status", "stdout", "stderr"),
                                         a, b) if x != y]
            print("DIFF %s: %s (%s)" % (label, " ".join(argv),
                                        ", ".join(what)))

    for rule in RULES:
        gen, puz = samples(base, rule, work)
        files = make_inputs(rule, puz, work, rng)
        files["gen"] = gen
        y = "rules/%s.yaml" % rule
        for kind, path in sorted(files.items()):
            for out in ([], ["--jsonl"], ["--json"]):
                for jobs in ("1", "2", "3"):
                    compare("%s %s" % (rule, kind),
                            ["validate", y, path] + out + ["--jobs", jobs])
        compare(rule + " stdin", ["validate", y, "--jsonl", "--jobs", "2"],
                stdin=files["txt"])
        compare(rule + " --from", ["validate", y, files["txt"], "--from",
                                   "jsonl", "--jobs", "2"])
    # one state many times, an empty input, a missing file, bad options
    p = os.path.join(work, "same.txt")
    with open(p, "w") as f:
        f.write("10000/00000/00000/00000/00000\n" * 5000)
    p0 = os.path.join(work, "empty.txt")
    open(p0, "w").close()
    y = "rules/classic-5x5.yaml"
    for jobs in ("1", "2", "3"):
        compare("repeated", ["validate", y, p, "--jsonl", "--jobs", jobs])
        compare("repeated", ["validate", y, p, "--jobs", jobs])
        compare("empty", ["validate", y, p0, "--json", "--jobs", jobs])
    compare("missing", ["validate", y, os.path.join(work, "nope.txt")])
    compare("bad jobs", ["validate", y, p, "--jobs", "0"])
    # --db: a database the base stored puzzles in
    db = os.path.join(work, "v.db")
    if os.path.exists(db):
        os.remove(db)
    sh([base, "-q", "generate", y, "-n", "2000", "--seed", "7", "--db", db])
    txt = os.path.join(work, "classic-5x5.txt")
    for out in ([], ["--jsonl"], ["--json"]):
        for jobs in ("1", "2"):
            compare("db", ["validate", y, txt, "--db", db, "--jobs", jobs]
                    + out)
    # text cut at line ends by --jobs: CRLF, no final newline, lines
    # longer than a slice and than the limit, long runs of comments
    with open(txt, "rb") as f:
        body = f.read()
    lines = body.split(b"\n")
    variants = {
        "crlf": body.replace(b"\n", b"\r\n"),
        "no final newline": body.rstrip(b"\n"),
        "long lines": b"\n".join(
            lines[:700] + [b"0" * 40000] + lines[700:1400]
            + [b"1" * ((1 << 20) + 9)] + [b"# c"] * 20000
            + lines[1400:]),
    }
    for label, data in sorted(variants.items()):
        p = os.path.join(work, label.replace(" ", "-") + ".txt")
        with open(p, "wb") as f:
            f.write(data)
        for out in ([], ["--jsonl"]):
            for jobs in ("1", "2", "3"):
                compare(label, ["validate", y, p, "--jobs", jobs] + out)
        compare(label + " stdin", ["validate", y, "--jobs", "2"], stdin=p)
    # --into: each build stores into its own copy of the database
    for jobs in ("1", "2"):
        a, b = db + ".new", db + ".base"
        for x in (a, b):
            with open(db, "rb") as f, open(x, "wb") as g:
                g.write(f.read())
        argv = ["validate", y, txt, "--jsonl", "--jobs", jobs, "--into", "v"]
        ra = sh([new] + argv + ["--db", a])
        rb = sh([base] + argv + ["--db", b])
        runs += 1
        if ra != rb:
            diffs += 1
            print("DIFF --into: %s" % " ".join(argv))
    print("validate-same: %d runs, %d differ" % (runs, diffs))
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
