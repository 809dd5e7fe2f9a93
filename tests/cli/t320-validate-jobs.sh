#!/bin/sh
# tier: full (3000 records judged at --jobs 1, 2 and 3 against python3's facts: 6 s of CPU)
# t320: `quench validate --jobs N` (issue #24): the same bytes for any N,
# one verdict per record in input order, against facts computed here
# independently (light chasing on classic 5x5, the 8 symmetries of the
# square), on an input of several batches (threads start only past the
# first) mixing ok, unsolvable, trivial, duplicate, claim-mismatch and
# malformed records, ids that need escaping, metadata and notes.
. "$(dirname "$0")/lib.sh"
C5=$TOP/rules/classic-5x5.yaml

cat >facts.py <<'PY'
# facts.py gen FILE EXPECT | check EXPECT VERDICTS.jsonl
import json, random, sys

N = 5

def press(x):
    """The board pressing the cells of x (25 bits) toggles."""
    b = 0
    for i in range(N * N):
        if x >> i & 1:
            r, c = divmod(i, N)
            b ^= 1 << i
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < N and 0 <= cc < N:
                    b ^= 1 << (rr * N + cc)
    return b

def solutions(s):
    """Every press set clearing s: light chasing from each first row."""
    out = []
    for top in range(1 << N):
        x, b = top, s ^ press(top)
        for r in range(1, N):
            row = (b >> ((r - 1) * N)) & ((1 << N) - 1)
            x |= row << (r * N)
            b ^= press(row << (r * N))
        if b == 0:
            out.append(x)
    return out

def images(s):
    """s under the 8 symmetries of the square."""
    cells = [[s >> (r * N + c) & 1 for c in range(N)] for r in range(N)]
    maps = [lambda r, c: (r, c), lambda r, c: (c, N - 1 - r),
            lambda r, c: (N - 1 - r, N - 1 - c), lambda r, c: (N - 1 - c, r),
            lambda r, c: (r, N - 1 - c), lambda r, c: (N - 1 - r, c),
            lambda r, c: (c, r), lambda r, c: (N - 1 - c, N - 1 - r)]
    out = []
    for m in maps:
        v = 0
        for r in range(N):
            for c in range(N):
                rr, cc = m(r, c)
                v |= cells[r][c] << (rr * N + cc)
        out.append(v)
    return out

def text(s):
    return '/'.join(''.join(str(s >> (r * N + c) & 1) for c in range(N))
                    for r in range(N))

def flat(x):
    return ''.join(str(x >> i & 1) for i in range(N * N))

def gen(path, expect_path):
    rnd = random.Random(24)
    lines, facts = [], []
    seen = {}      # class (smallest image) -> seq of the accepted one
    solvable = []  # states seen so far that have solutions
    lines.append(json.dumps({"type": "header", "format": "quench-puzzles"}))
    odd_ids = ['q"uote', 'back\\slash', 'new\nline', '<script>', 'tab\there',
               'caf\u00e9 \u2603', 'ctl\u0001', 'del\u007f', 'cr\rcr']
    seq = 0
    for i in range(3000):
        line = len(lines) + 1
        kind = rnd.random()
        rec = {}
        if rnd.random() < 0.3:
            rec["id"] = odd_ids[i % len(odd_ids)] + str(i)
        elif rnd.random() < 0.2:
            rec["id"] = i
        if kind < 0.05:
            bad = rnd.choice(['not json at all', '{"id": "m", "state": '
                              '"01x00/00000/00000/00000/00000"}',
                              '{"id": "m"}', '{"state": "00000/00000"}'])
            lines.append(bad)
            seq += 1
            facts.append({"seq": seq, "verdict": "malformed", "line": line})
            continue
        if kind < 0.08:
            s = 0
        elif kind < 0.30 and solvable:
            s = rnd.choice(images(rnd.choice(solvable)))
        else:
            s = rnd.getrandbits(N * N)
        rec["state"] = text(s)
        sols = solutions(s)
        best = min(bin(x).count('1') for x in sols) if sols else None
        claim = rnd.random()
        if sols and claim < 0.08:
            # a minimum below 0 would be malformed, not a wrong claim
            rec["min_presses"] = best + rnd.choice([-1, 1, 2] if best else [1, 2])
        elif sols and claim < 0.12:
            rec["min_presses"] = best
        elif sols and claim < 0.16:
            rec["solution"] = flat(sols[0] ^ (1 << rnd.randrange(N * N)))
        elif sols and claim < 0.20:
            rec["solution"] = flat(rnd.choice(sols))
        if rnd.random() < 0.1:
            rec["level"] = {"n": i, "tag": "x<y"}
        if rnd.random() < 0.05:
            rec["min_press"] = 3  # looks like a misspelt field: a note
        lines.append(json.dumps(rec))
        seq += 1
        f = {"seq": seq, "line": line,
             "id": str(rec["id"]) if "id" in rec else str(line),
             "meta": "level" in rec or "min_press" in rec,
             "note": "min_press" in rec}
        key = min(images(s))
        f["state"] = s
        if s == 0:
            f["verdict"] = "trivial"
        elif not sols:
            f["verdict"] = "unsolvable"
        elif key in seen:
            f["verdict"] = "duplicate"
            f["duplicate_of"] = seen[key]
        elif ("solution" in rec and press(int(rec["solution"][::-1], 2)) != s) \
                or rec.get("min_presses", best) != best:
            f["verdict"] = "claim-mismatch"
        else:
            f["verdict"] = "ok"
            seen[key] = seq
        if sols:
            solvable.append(s)
            f["min_presses"] = best
            f["optimal"] = sum(bin(x).count('1') == best for x in sols)
        facts.append(f)
    lines.append(json.dumps({"type": "summary"}))
    open(path, 'w').write('\n'.join(lines) + '\n')
    json.dump(facts, open(expect_path, 'w'))

def check(expect_path, got_path):
    facts = json.load(open(expect_path))
    got = [json.loads(l) for l in open(got_path)]
    bad = []
    if len(got) != len(facts):
        bad.append("%d verdicts for %d records" % (len(got), len(facts)))
    for f, v in zip(facts, got):
        why = []
        try:
            for k in ("seq", "verdict", "id", "line", "min_presses",
                      "duplicate_of"):
                if k not in f or (k == "min_presses" and v["verdict"] not in
                                  ("ok", "claim-mismatch")) or \
                        (k == "line" and v["verdict"] != "malformed"):
                    continue
                if v.get(k) != f[k]:
                    why.append("%s %r, want %r" % (k, v.get(k), f[k]))
            if v["verdict"] == "ok":
                if v["optimal_solutions"] != f["optimal"]:
                    why.append("optimal_solutions %r" % v["optimal_solutions"])
                x = sum(b << i for i, b in enumerate(v["solution"]))
                if press(x) != f["state"] or \
                        bin(x).count('1') != f["min_presses"]:
                    why.append("the witness is not a least solution")
            if v["verdict"] == "unsolvable":
                s = f["state"]
                for cell, value in v["repair"]:
                    s = (s & ~(1 << cell)) | (value << cell)
                if not solutions(s):
                    why.append("the repair leaves it unsolvable")
            if v["verdict"] != "malformed" and ("meta" in v) != f["meta"]:
                why.append("meta %r" % v.get("meta"))
            if v["verdict"] != "malformed" and ("note" in v) != f["note"]:
                why.append("note %r" % v.get("note"))
        except (KeyError, TypeError, ValueError) as e:
            why.append("no usable %s" % e)
        if why:
            bad.append("seq %d: %s" % (f["seq"], "; ".join(why)))
    counts = {}
    for f in facts:
        counts[f["verdict"]] = counts.get(f["verdict"], 0) + 1
    print("\n".join(bad[:5]) if bad else "ok")
    print(" ".join("%s=%d" % (k, counts.get(k, 0)) for k in
                   ("ok", "unsolvable", "malformed", "trivial", "duplicate",
                    "claim-mismatch")))

if sys.argv[1] == "gen":
    gen(sys.argv[2], sys.argv[3])
else:
    check(sys.argv[2], sys.argv[3])
PY
python3 facts.py gen mixed.jsonl expect.json

# qd ARGS...: q without the allocation-failure sweep (QN_FAULTS): the
# JSON records above cost several allocations each, tens of thousands a
# run, hours to sweep; the text input at the end is swept instead.
qd() {
    "$QUENCH" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    rc=$?
}

# The same bytes and exit status for 1, 2 and 3 jobs, in every output
# format; stdin (a pipe) the same as a file.
for fmt in text jsonl json; do
    case $fmt in text) opt= ;; *) opt=--$fmt ;; esac
    for j in 1 2 3; do
        # shellcheck disable=SC2086
        qd validate "$C5" mixed.jsonl $opt --jobs $j
        expect_rc 1 "$fmt --jobs $j: some rejected, exit 1"
        cp "$TMP/out" "$fmt.$j"
        cp "$TMP/err" "$fmt.$j.err"
    done
    for j in 2 3; do
        if cmp -s "$fmt.1" "$fmt.$j" && cmp -s "$fmt.1.err" "$fmt.$j.err"
        then ok; else not_ok "$fmt: --jobs $j differs from --jobs 1"; fi
    done
done
# shellcheck disable=SC2002
cat mixed.jsonl | "$QUENCH" validate "$C5" - --jsonl --jobs 2 >pipe.out 2>/dev/null
if cmp -s jsonl.1 pipe.out; then ok; else not_ok "stdin through a pipe differs"; fi

# Facts: every record's verdict, in order, with its id, line, minimum,
# first submission, metadata and note; the summary's counts.
python3 facts.py check expect.json jsonl.2 >check.txt
expect_eq "$(sed -n 1p check.txt)" ok "--jobs 2: every verdict as computed independently"
counts=$(sed -n 2p check.txt)
for k in ok unsolvable malformed trivial duplicate claim-mismatch; do
    c=$(echo "$counts" | tr ' ' '\n' | sed -n "s/^$k=//p")
    if grep -Eq " $c $k(,|\$)" jsonl.2.err; then ok; else
        not_ok "summary: want $c $k: $(cat jsonl.2.err)"
    fi
done
expect_eq "$(grep -c . jsonl.2.err)" 2 "summary: the counts and the skipped records"
if grep -q "skipped 2 records" jsonl.2.err; then ok; else
    not_ok "quench's own header and summary records skipped: $(cat jsonl.2.err)"
fi
expect_eq "$(python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
print(d['verdicts'] == [json.loads(l) for l in open(sys.argv[2])], d['summary']['submissions'], d['summary']['skipped'])" json.3 jsonl.1)" \
    "True 3000 2" "--json --jobs 3: the JSONL verdicts in one document"
expect_eq "$(PYTHONPATH=$TOP/tests python3 -c "
import json,sys
from text_escape import esc
v=[json.loads(l) for l in open(sys.argv[1])]
t=open(sys.argv[2], newline='\n').read().split('\n')[:-1]
same=len(t) == len(v)
for x, l in zip(v, t):
    head='%d\t%s\t' % (x['seq'], esc(x['id']))
    same = same and l.startswith(head) and l[len(head):].split('\t')[0] == x['verdict']
print(same)" jsonl.1 text.3)" True "text: one line per verdict (CR and LF in ids escaped), the same verdicts"

# An input that breaks down after many records: every record before the
# break gets its verdict, in order, then the whole-input error, whatever N.
python3 -c "
import json,sys
recs=[]
for l in open(sys.argv[1]):
    try:
        r=json.loads(l)
    except ValueError:
        continue
    if 'type' not in r:
        recs.append(r)
recs=[json.dumps(r) for r in recs]
# no comma before the last element: the document breaks between elements
print('[' + ',\n'.join(recs[:-1]) + '\n' + recs[-1] + ']')
open('broken.count', 'w').write(str(len(recs) - 1))" mixed.jsonl >broken.json
for j in 1 3; do
    qd validate "$C5" broken.json --jsonl --jobs $j
    expect_rc 65 "broken document --jobs $j: exit 65"
    cp "$TMP/out" "broken.$j"
    expect_err "broken.json:" "broken document --jobs $j: located"
done
if cmp -s broken.1 broken.3; then ok; else not_ok "broken document: --jobs 3 differs"; fi
expect_eq "$(wc -l <broken.3 | tr -d ' ')" "$(cat broken.count)" \
    "broken document: a verdict for every record before the break"

# --into: the database holds the same puzzles and the same pack, and the
# verdicts are the same, whatever N; a second run calls each of them a
# duplicate of the stored puzzle with its own puzzle id.
for j in 1 3; do
    qd validate "$C5" mixed.jsonl --jsonl --jobs $j --db into$j.db --into p
    expect_rc 1 "--into --jobs $j: exit 1"
    cp "$TMP/out" "into.$j"
done
if cmp -s into.1 into.3 && cmp -s into.1 jsonl.1; then ok; else
    not_ok "--into: verdicts differ between jobs or from a plain run"
fi
expect_eq "$(sqlite3 into3.db "SELECT count(*) FROM pack_puzzles")" \
    "$(grep -c '"verdict":"ok"' jsonl.1)" "--into --jobs 3: every ok puzzle stored in the pack"
expect_eq "$(python3 "$TOP/tests/state_blob.py" into3.db "SELECT source, submission, run_uid(id) FROM puzzles ORDER BY id" | md5sum)" \
    "$(python3 "$TOP/tests/state_blob.py" into1.db "SELECT source, submission, run_uid(id) FROM puzzles ORDER BY id" | md5sum)" \
    "--into: the same rows in the same order for 1 and 3 jobs"
qd validate "$C5" mixed.jsonl --jsonl --jobs 3 --db into3.db
expect_eq "$(python3 -c "
import json,sys
a=[json.loads(l) for l in open(sys.argv[1])]
b=[json.loads(l) for l in open(sys.argv[2])]
print(all(y['verdict'] == 'duplicate' and y['duplicate_of_stored'] == x['puzzle_id']
          for x, y in zip(a, b) if x['verdict'] == 'ok'), len(a) == len(b))" jsonl.1 "$TMP/out")" \
    "True True" "--db: every stored puzzle a duplicate of itself, by its id"

# Text lines, as many as two batches and a bit, so the workers start:
# the same bytes with 1 and 2 jobs (this run is the one the allocation-
# failure sweep covers, some 300 points).
python3 -c "
import random
r=random.Random(7)
for i in range(2100):
    print('/'.join(''.join(r.choice('01') for c in range(5)) for row in range(5)))" >lines.txt
qd validate "$C5" lines.txt --jsonl --jobs 1
cp "$TMP/out" lines.1
q validate "$C5" lines.txt --jsonl --jobs 2
expect_rc 1 "text lines --jobs 2: some rejected, exit 1"
if cmp -s lines.1 "$TMP/out"; then ok; else not_ok "text lines: --jobs 2 differs from --jobs 1"; fi
expect_eq "$(wc -l <"$TMP/out" | tr -d ' ')" 2100 "text lines: a verdict each"

# --jobs takes 1..256.
for bad in 0 257 x ""; do
    q validate "$C5" mixed.jsonl --jobs "$bad"
    expect_rc 64 "--jobs '$bad': usage error"
done
expect_err "validate: --jobs takes 1..256" "--jobs: says what it takes"

done_testing
