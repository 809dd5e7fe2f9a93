#!/bin/sh
# t500: quench export (json, jsonl, csv, flip, svg) and quench import on
# real files: schema validation, engine constraints (integers only, no
# array directly inside an array), puzzle ids (every format carries the
# ids `generate` printed for the same puzzles, in pack order), atomic -o,
# byte-identical round trips, format 1 documents, provenance, tampered
# documents, --puzzle by id, and the puzzle that blocks an export. Needs
# python3 with jsonschema and xmllint: when either is missing the checks
# that need it FAIL (they are not skipped).
. "$(dirname "$0")/lib.sh"

DB=$TMP/x.db
SCHEMA=$TOP/docs/quench-pack.schema.json
PACKS="classic-5x5 hexagon-3 ring6-mod8 cross-7x7"

have_py=1
if ! python3 -c 'import jsonschema' 2>/dev/null; then
    have_py=0
    not_ok "python3 module jsonschema is missing (apt-get install python3-jsonschema)"
fi
if ! command -v xmllint >/dev/null 2>&1; then
    not_ok "xmllint is missing (apt-get install libxml2-utils)"
fi

# py LABEL ARGS... <SCRIPT: a python check, queued (lib.sh's py_ok: one
# python3 runs them all); a failure (or no python) counts.
py() {
    label=$1
    shift
    if [ "$have_py" -eq 1 ]; then py_ok "$label" "$@"; else not_ok "$label"; fi
}

q export --help
expect_rc 0 "export --help"
expect_out "usage: quench export PACK --format FORMAT" "export usage"
q import --help
expect_rc 0 "import --help"
expect_out "usage: quench import FILE" "import usage"
q export --db "$DB"
expect_rc 64 "export without PACK"
q export p --format toml --db "$DB"
expect_rc 64 "unknown format"
expect_err "unknown format 'toml'" "unknown format message"
# the spellings named are the library's one list and the command's dir
expect_err "(json, jsonl, csv, flip, svg, html, png, dir)" "unknown format: every format export takes, dir too"
q export p --db "$DB"
expect_rc 64 "export without --format"
expect_err "--format is required (json, jsonl, csv, flip, svg, html, png, dir)" "no --format: every format named"
q export nope --format json --db "$DB"
expect_rc 66 "export: no database"

# generate's records name each puzzle by its id: an independent source
# for the ids every export must carry, in pack order. gen_ids PACK keeps
# them in PACK.ids, one a line; gen_id PACK N is the Nth.
gen_ids() {
    cp "$TMP/out" "$TMP/$1.gen"
    python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("type") == "puzzle":
        print(r["id"])' "$TMP/$1.gen" >"$TMP/$1.ids" 2>/dev/null ||
        not_ok "generate's output for $1 does not read"
}
gen_id() { sed -n "${2}p" "$TMP/$1.ids"; }
for r in $PACKS; do
    q generate "$TOP/rules/$r.yaml" -n 8 --seed 1 --db "$DB" --pack "$r"
    expect_rc 0 "generate $r"
    gen_ids "$r"
done
q pack list --json --db "$DB"
cp "$TMP/out" "$TMP/packs.json"
q export nope --format json --db "$DB"
expect_rc 66 "export of a missing pack"
expect_err "no pack named 'nope'" "missing pack message"

cat >"$TMP/check_json.py" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
doc = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator(schema).validate(doc)
# issue #34: the document names the published schema by its $id, first
assert next(iter(doc)) == "$schema", list(doc)[:2]
assert doc["$schema"] == schema["$id"], doc.get("$schema")
def walk(v, path):
    if isinstance(v, float) or isinstance(v, bool):
        raise SystemExit("not an integer at %s: %r" % (path, v))
    if isinstance(v, list):
        for i, x in enumerate(v):
            if isinstance(x, list):
                raise SystemExit("array directly inside an array at %s" % path)
            walk(x, "%s[%d]" % (path, i))
    elif isinstance(v, dict):
        for k, x in v.items():
            walk(x, path + "." + k)
walk(doc, "$")
n = int(sys.argv[3])
assert len(doc["puzzles"]) == n, len(doc["puzzles"])
assert doc["format_version"] == 2
rule = doc["rules"][0]
k, nc = rule["colours"], rule["ncells"]
assert len(rule["cells"]) == nc
for p in doc["puzzles"]:
    assert isinstance(p["seed"], str) and isinstance(p["rule"], str)
    assert p["rule"] == rule["hash"]
    # replay the witness with the per-cell effects: a game's view
    s = list(p["state"])
    for j, times in enumerate(p["solution"]):
        for e in rule["cells"][j]["effects"]:
            s[e["cell"]] = (s[e["cell"]] + times * e["amount"]) % k
    assert s == rule["goal"], "puzzle %s does not replay" % p["id"]
    assert sum(p["solution"]) == p["min_presses"]
PY

cat >"$TMP/check_jsonl.py" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().splitlines()
head = json.loads(lines[0])
assert head["record"] == "pack" and head["format"] == "quench-pack"
assert head["puzzle_count"] == len(lines) - 1 == int(sys.argv[3])
ps = schema["$defs"]["puzzle"]
assert head["format_version"] == 2
for i, line in enumerate(lines[1:]):
    rec = json.loads(line)
    assert rec.pop("record") == "puzzle"
    assert rec["position"] == i + 1
    jsonschema.Draft202012Validator(ps, resolver=jsonschema.RefResolver.from_schema(schema)).validate(rec)
PY

cat >"$TMP/check_csv.py" <<'PY'
import csv, sys, re
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0] == ["id", "position", "state", "min_presses",
                   "optimal_solutions", "solution", "grade", "seed",
                   "pack_version", "submission", "source", "meta",
                   "slot", "section", "rule", "rule_name", "human_level",
                   "human_score", "human_model_version"], rows[0]
assert len(rows) == int(sys.argv[2]) + 1
for i, r in enumerate(rows[1:]):
    assert len(r) == 19 and re.fullmatch(r"[0-9a-f]{16}", r[0]), r
    # a pack one generate run built: slots are positions, no section
    assert r[12] == str(i + 1) and r[13] == "", r
    assert re.fullmatch(r"[0-9a-f]{64}", r[14]) and r[15], r
    assert r[1] == str(i + 1)
    assert re.fullmatch(r"[0-9a-z./()]+", r[2]) and re.fullmatch(r"[0-9a-z./()]+", r[5])
    assert int(r[3]) >= 1 and int(r[4]) >= 1
    assert re.fullmatch(r"[0-9a-f]+", r[7])
    assert int(r[8]) >= 1 and r[9:12] == ["", "", ""]
PY

# check_ids.py GEN PACKS NAME FORMAT:FILE...: each export's ids, in pack
# order, are the ids generate printed for the pack's puzzles; positions
# run 1..N; the pack version is the one pack list gives.
cat >"$TMP/check_ids.py" <<'PY'
import csv, json, sys
gen, packs, name = sys.argv[1:4]
want = [json.loads(l)["id"] for l in open(gen)
        if json.loads(l).get("type") == "puzzle"]
version = [p["version"] for p in json.load(open(packs)) if p["name"] == name]
assert len(version) == 1, version
for arg in sys.argv[4:]:
    fmt, path = arg.split(":", 1)
    if fmt == "json":
        doc = json.load(open(path))
        recs, got_version = doc["puzzles"], doc["pack"]["version"]
    elif fmt == "jsonl":
        lines = [json.loads(l) for l in open(path)]
        recs, got_version = lines[1:], lines[0]["pack"]["version"]
    else:
        rows = list(csv.DictReader(open(path, newline="")))
        recs = [dict(r, position=int(r["position"])) for r in rows]
        got_version = sorted({int(r["pack_version"]) for r in rows})
        assert len(got_version) == 1, got_version
        got_version = got_version[0]
    got = [r["id"] for r in recs]
    assert got == want, (fmt, got, want)
    assert [r["position"] for r in recs] == list(range(1, len(want) + 1))
    assert got_version == version[0], (fmt, got_version, version)
PY

for r in $PACKS; do
    q export "$r" --format json --db "$DB" -o "$TMP/$r.json"
    expect_rc 0 "export $r json"
    expect_empty_out "export $r json -o: nothing on stdout"
    py "$r json: schema, integers, no nested arrays, witnesses replay" \
        <"$TMP/check_json.py" "$SCHEMA" "$TMP/$r.json" 8
    q export "$r" --format json --db "$DB"
    expect_rc 0 "export $r json to stdout"
    if cmp -s "$TMP/out" "$TMP/$r.json"; then ok; else
        not_ok "$r: two json exports differ"; fi

    q export "$r" --format jsonl --db "$DB" -o "$TMP/$r.jsonl"
    expect_rc 0 "export $r jsonl"
    py "$r jsonl: header and one valid record per puzzle" \
        <"$TMP/check_jsonl.py" "$SCHEMA" "$TMP/$r.jsonl" 8

    q export "$r" --format csv --db "$DB" -o "$TMP/$r.csv"
    expect_rc 0 "export $r csv"
    py "$r csv: RFC 4180 with the header row" \
        <"$TMP/check_csv.py" "$TMP/$r.csv" 8
    py "$r json, jsonl, csv: generate's ids in pack order, the pack's version" \
        <"$TMP/check_ids.py" "$TMP/$r.gen" "$TMP/packs.json" "$r" \
        json:"$TMP/$r.json" jsonl:"$TMP/$r.jsonl" csv:"$TMP/$r.csv"

    q export "$r" --format svg --db "$DB" -o "$TMP/$r.svg"
    expect_rc 0 "export $r svg sheet"
    if xmllint --noout "$TMP/$r.svg" 2>/dev/null; then ok; else
        not_ok "$r: svg sheet is not well-formed"; fi
    id3=$(gen_id "$r" 3)
    q export "$r" --format svg --puzzle "$id3" --db "$DB" -o "$TMP/$r-3.svg"
    expect_rc 0 "export $r svg puzzle by id"
    if xmllint --noout "$TMP/$r-3.svg" 2>/dev/null; then ok; else
        not_ok "$r: svg board is not well-formed"; fi
    n=$(grep -cF "<title>$r, puzzle 3 (id $id3)</title>" "$TMP/$r-3.svg")
    expect_eq "$n" 1 "$r: svg board titled with position and id"
    n=$(grep -c "<text class=\"note\"[^>]*>[0-9a-f]\{16\}</text>" "$TMP/$r.svg")
    expect_eq "$n" 8 "$r: svg sheet shows each puzzle's id"
    if grep -qF ">$id3</text>" "$TMP/$r.svg"; then ok; else
        not_ok "$r: svg sheet lacks the id of puzzle 3"; fi

    # round trip: import into a fresh database, export again: same bytes
    q import "$TMP/$r.json" --db "$TMP/rt-$r.db"
    expect_rc 0 "import $r"
    expect_out "imported pack '$r': 8 puzzles" "import $r message"
    q export "$r" --format json --db "$TMP/rt-$r.db" -o "$TMP/$r.rt.json"
    expect_rc 0 "re-export $r"
    if cmp -s "$TMP/$r.json" "$TMP/$r.rt.json"; then ok; else
        not_ok "$r: round trip is not byte-identical"; fi
    for f in jsonl csv; do
        q export "$r" --format $f --db "$TMP/rt-$r.db" -o "$TMP/$r.rt.$f"
        if cmp -s "$TMP/$r.$f" "$TMP/$r.rt.$f"; then ok; else
            not_ok "$r: $f after the round trip differs"; fi
    done
done

# --puzzle REF: an id, a unique prefix or #ROW, of a puzzle in the pack
c1=$(gen_id classic-5x5 1)
c2=$(gen_id classic-5x5 2)
q export classic-5x5 --format svg --puzzle "$c2" --db "$DB" -o "$TMP/full.svg"
expect_rc 0 "--puzzle by whole id"
q export classic-5x5 --format svg --puzzle "$(echo "$c2" | cut -c1-8)" --db "$DB" -o "$TMP/prefix.svg"
expect_rc 0 "--puzzle by prefix"
if cmp -s "$TMP/full.svg" "$TMP/prefix.svg"; then ok; else
    not_ok "--puzzle: a prefix draws another picture than the whole id"; fi
q export classic-5x5 --format svg --puzzle "$(echo "$c2" | tr a-f A-F)" --db "$DB" -o "$TMP/upper.svg"
expect_rc 0 "--puzzle in upper case"
if cmp -s "$TMP/full.svg" "$TMP/upper.svg"; then ok; else
    not_ok "--puzzle: upper case draws another picture"; fi
# row 1 of a fresh database is the first puzzle generate stored
q export classic-5x5 --format svg --puzzle '#1' --db "$DB"
expect_rc 0 "--puzzle #ROW"
expect_out "puzzle 1 (id $c1)" "--puzzle #1 is the first puzzle stored"
q export hexagon-3 --format svg --puzzle "$c1" --db "$DB"
expect_rc 66 "--puzzle of another pack"
expect_err "puzzle '$c1' is not in pack 'hexagon-3'" "not in the pack message"
q export classic-5x5 --format svg --puzzle 0000000000000000 --db "$DB"
expect_rc 66 "--puzzle of no stored puzzle"
expect_err "no puzzle with id 0000000000000000" "unknown id message"
for bad in 9 3 abc 12345678901234567 xyz! '#' '#x' ''; do
    q export classic-5x5 --format svg --puzzle "$bad" --db "$DB"
    expect_rc 64 "--puzzle '$bad' is not a reference"
done
expect_err "--puzzle needs a puzzle id" "bad --puzzle message"
q export classic-5x5 --format json --puzzle "$c2" --db "$DB"
expect_rc 64 "--puzzle without svg"

# an ambiguous prefix: two stored puzzles share their first 4 digits (the
# pair is found among the ids generate printed)
q generate "$TOP/rules/classic-5x5.yaml" -n 600 --seed 2 --db "$DB" --pack many
expect_rc 0 "generate many"
gen_ids many
pair=$(awk '{ p = substr($1, 1, 4) }
    p in seen { print p, seen[p], $1; exit } { seen[p] = $1 }' "$TMP/many.ids")
set -- $pair
if [ $# -eq 3 ]; then ok; else not_ok "no two ids share 4 digits: '$pair'"; fi
q export many --format svg --puzzle "${1:-none}" --db "$DB"
expect_rc 64 "--puzzle with an ambiguous prefix"
expect_err "puzzle id '${1:-none}' is ambiguous" "ambiguous prefix message"
q export many --format svg --puzzle "${3:-none}" --db "$DB"
expect_rc 0 "--puzzle: the whole id of one of them"
expect_out "(id ${3:-none})" "the whole id names it"

# flip: k = 2 full rectangles only
q export classic-5x5 --format flip --db "$DB"
expect_rc 0 "flip classic-5x5"
n=$(grep -cE '^5x5:[0-9a-f]{157},[0-9a-f]{7}$' "$TMP/out")
expect_eq "$n" 8 "flip: one game ID per puzzle"
q export ring6-mod8 --format flip --db "$DB" -o "$TMP/ring.flip"
expect_rc 65 "flip refuses ring6-mod8"
expect_err "quench: puzzle 1 (id $(gen_id ring6-mod8 1)): flip has two colours, this rule has 8" \
    "flip refusal names the puzzle"
if [ ! -e "$TMP/ring.flip" ]; then ok; else not_ok "refused flip left a file"; fi
q export cross-7x7 --format flip --db "$DB"
expect_rc 65 "flip refuses the masked cross"
expect_err "holes" "flip masked message"
q export hexagon-3 --format flip --db "$DB"
expect_rc 65 "flip refuses the hexagon"

# -o: atomic, nothing left behind
mkdir "$TMP/o"
q export classic-5x5 --format csv --db "$DB" -o "$TMP/o/p.csv"
expect_rc 0 "-o into a directory"
expect_eq "$(ls -A "$TMP/o")" "p.csv" "-o leaves no temporary file"
echo old >"$TMP/o/p.csv"
q export classic-5x5 --format csv --db "$DB" -o "$TMP/o/p.csv"
expect_rc 0 "-o replaces a file"
if cmp -s "$TMP/o/p.csv" "$TMP/classic-5x5.csv"; then ok; else
    not_ok "-o replaced content differs"; fi
q export classic-5x5 --format csv --db "$DB" -o "$TMP/missing/p.csv"
expect_rc 73 "-o into a missing directory"
expect_err "cannot create" "-o failure message"
q export ring6-mod8 --format flip --db "$DB" -o "$TMP/o/r.flip"
expect_rc 65 "-o with a refused format"
expect_eq "$(ls -A "$TMP/o")" "p.csv" "failures leave nothing in the directory"
q export classic-5x5 --format csv --db "$DB" -o -
expect_rc 0 "-o - is stdout"
expect_out "id,position,state,min_presses" "-o - writes the csv"

# the same pack twice into one database: refused, then under a new name
q import "$TMP/classic-5x5.json" --db "$TMP/rt-classic-5x5.db"
expect_rc 65 "import over an existing pack"
expect_err "pack 'classic-5x5' already exists" "existing pack message"
q import "$TMP/classic-5x5.json" --db "$TMP/rt-classic-5x5.db" --pack copy
expect_rc 0 "import under another name"

# tampered documents: each rejected naming the puzzle (by position and
# the document's id); nothing written
# tamper.py DOC DIR: DIR/t-WHAT.json for every way of tampering below
cat >"$TMP/tamper.py" <<'PY'
import json, os, sys

def witness(d): d["puzzles"][2]["solution"][0] ^= 1
def min(d): d["puzzles"][1]["min_presses"] += 1
def optimal(d): d["puzzles"][4]["optimal_solutions"] += 1
def state(d): d["puzzles"][3]["state"][5] = 2
def effects(d): d["rules"][0]["cells"][0]["effects"].pop()
def float_(d): d["puzzles"][0]["min_presses"] = float(d["puzzles"][0]["min_presses"])
def id(d): d["puzzles"][1]["id"] = "0123456789abcdef"
def swap(d):
    p = d["puzzles"]
    p[1]["state"], p[0]["state"] = p[0]["state"], p[1]["state"]
def intid(d): d["puzzles"][0]["id"] = 1
def position(d): d["puzzles"][2]["position"] = 5
def version(d): d["pack"]["version"] = 0
def meta(d): d["puzzles"][0]["meta"] = "[1]"

for f in (witness, min, optimal, state, effects, float_, id, swap, intid,
          position, version, meta):
    doc = json.load(open(sys.argv[1]))
    f(doc)
    with open(os.path.join(sys.argv[2], "t-%s.json" % f.__name__.rstrip("_")), "w") as out:
        out.write(json.dumps(doc))
PY
if [ "$have_py" -eq 1 ] && python3 "$TMP/tamper.py" "$TMP/classic-5x5.json" "$TMP"
then ok; else not_ok "tamper.py"; fi
tamper() { # what, expected stderr text
    q import "$TMP/t-$1.json" --db "$TMP/t-$1.db"
    expect_rc 65 "tampered $1 rejected"
    expect_err "$2" "tampered $1 message"
    if [ ! -e "$TMP/t-$1.db" ]; then ok; else
        not_ok "tampered $1: database written"; fi
}
c3=$(gen_id classic-5x5 3)
tamper witness "puzzle 3 (id $c3): the solution does not reach the goal"
tamper min "puzzle 2 (id $c2): min_presses is"
tamper optimal "puzzle 5 (id $(gen_id classic-5x5 5)): optimal_solutions is"
tamper state "puzzle 4 (id $(gen_id classic-5x5 4)): 'state' value 5 is 2, must be 0..1"
tamper effects "hash to"
tamper float "puzzle 1 (id $c1): 'min_presses' must be an integer"
tamper id "t-id.json: puzzle 2 (id 0123456789abcdef): 'id' is 0123456789abcdef, its rule and state give $c2"
tamper swap "puzzle 1 (id $c1): 'id' is $c1, its rule and state give $c2"
tamper intid "puzzle 1: 'id' must be a string"
tamper position "puzzle 3 (id $c3): 'position' is 5: positions must be 1, 2, ... in order"
tamper version "pack: 'version' is 0, must be 1.."
tamper meta "puzzle 1 (id $c1): 'meta' must be \"\" or the text of a JSON object"

# a format 1 document (ids were positions; no version, no provenance)
# still imports, and its puzzles get their ids: the v1 spelling of this
# pack's export imports back to the same pack, byte for byte
cat >"$TMP/to_v1.py" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["format_version"] = 1
del doc["pack"]["version"]
for p in doc["puzzles"]:
    p["id"] = p.pop("position")
    for k in ("submission", "source", "meta", "slot", "section",
              "human_level", "human_level_number", "human_score",
              "human_model_version"):
        del p[k]
sys.stdout.write(json.dumps(doc))
PY
if [ "$have_py" -eq 1 ] &&
    python3 "$TMP/to_v1.py" "$TMP/classic-5x5.json" >"$TMP/v1.json"
then ok; else not_ok "v1: python"; fi
q import "$TMP/v1.json" --db "$TMP/v1.db"
expect_rc 0 "a format 1 document imports"
q export classic-5x5 --format json --db "$TMP/v1.db" -o "$TMP/v1.rt.json"
expect_rc 0 "export of a format 1 import"
if cmp -s "$TMP/classic-5x5.json" "$TMP/v1.rt.json"; then ok; else
    not_ok "format 1 import: the export differs from the original"; fi
# and one an older quench wrote (the fuzz corpus: generate classic-3x3
# -n 3 --seed 1), whose ids generate prints
q generate "$TOP/rules/classic-3x3.yaml" -n 3 --seed 1 --db "$TMP/g3.db" --pack p3
gen_ids p3
"$QUENCH" pack list --json --db "$TMP/g3.db" >"$TMP/p3.packs.json"
q import "$TOP/fuzz/corpus/import/classic-3x3.json" --db "$TMP/old.db"
expect_rc 0 "the fuzz corpus's format 1 document imports"
q export p3 --format csv --db "$TMP/old.db" -o "$TMP/p3.csv"
py "format 1 import: generate's ids, the version a new pack has" \
    <"$TMP/check_ids.py" "$TMP/p3.gen" "$TMP/p3.packs.json" p3 csv:"$TMP/p3.csv"

# provenance: the submitter's id, FILE:LINE and the other fields of a
# puzzle validate --into accepted travel with it, through every format
cat >"$TMP/provenance.py" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
p = doc["puzzles"][1]
p["submission"] = "ann-7"
p["source"] = "subs/ann,1.jsonl:3"
p["meta"] = json.dumps({"player": "ann", "time": 12.5, "tags": [[1, 2]],
                        "note": "</script>"})
sys.stdout.write(json.dumps(doc))
PY
cat >"$TMP/check_provenance.py" <<'PY'
import csv, json, sys
for arg in sys.argv[1:]:
    fmt, path = arg.split(":", 1)
    if fmt == "json":
        recs = json.load(open(path))["puzzles"]
    elif fmt == "jsonl":
        recs = [json.loads(l) for l in open(path)][1:]
    else:
        recs = list(csv.DictReader(open(path, newline="")))
    for i, r in enumerate(recs):
        if i != 1:
            assert (r["submission"], r["source"], r["meta"]) == ("", "", ""), r
            continue
        assert r["submission"] == "ann-7", r
        assert r["source"] == "subs/ann,1.jsonl:3", r
        assert json.loads(r["meta"]) == {"player": "ann", "time": 12.5,
                                         "tags": [[1, 2]],
                                         "note": "</script>"}, r
PY
if [ "$have_py" -eq 1 ] &&
    python3 "$TMP/provenance.py" "$TMP/classic-5x5.json" >"$TMP/prov-in.json"
then ok; else not_ok "provenance: python"; fi
q import "$TMP/prov-in.json" --db "$TMP/prov.db"
expect_rc 0 "import with provenance"
for f in json jsonl csv; do
    q export classic-5x5 --format $f --db "$TMP/prov.db" -o "$TMP/prov.$f"
    expect_rc 0 "export $f with provenance"
done
py "provenance in json, jsonl and csv" <"$TMP/check_provenance.py" \
    json:"$TMP/prov.json" jsonl:"$TMP/prov.jsonl" csv:"$TMP/prov.csv"
py "json with provenance: schema, integers, no nested arrays" \
    <"$TMP/check_json.py" "$SCHEMA" "$TMP/prov.json" 8
# quench's own spelling of it goes through a database byte for byte
q import "$TMP/prov.json" --db "$TMP/prov2.db"
q export classic-5x5 --format json --db "$TMP/prov2.db" -o "$TMP/prov.rt.json"
if cmp -s "$TMP/prov.json" "$TMP/prov.rt.json"; then ok; else
    not_ok "provenance: round trip is not byte-identical"; fi

# a submitter's id and source may hold anything but NUL: in csv their
# control characters (ESC of a colour or an OSC title, BEL), line
# separators, C1 controls and bidirectional controls are escaped as in
# every other output (\xNN, \uNNNN; text.h), and meta stays the JSON of
# its object, its own whitespace kept
cat >"$TMP/unsafe.py" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["pack"]["name"] = "unsafe"
p = doc["puzzles"][0]
p["submission"] = "ann\x1b]0;owned\x07\x1b[2J\u202egnp.exe"
p["source"] = "s\u009b31m\u2028.jsonl:\t3\r"
p["meta"] = '{"who":\n\t"e\u202dve\u2066"}'
sys.stdout.write(json.dumps(doc))
PY
cat >"$TMP/check_unsafe.py" <<'PY'
import csv, json, sys
from text_escape import esc
raw = open(sys.argv[1], encoding="utf-8", newline="").read()
bad = [c for c in raw if c not in "\r\n\t" and esc(c) != c] # meta keeps its whitespace
assert not bad, "unsafe characters in the csv: %r" % bad
r = list(csv.DictReader(open(sys.argv[1], newline="")))[0]
assert r["submission"] == esc("ann\x1b]0;owned\x07\x1b[2J\u202egnp.exe"), r["submission"]
assert r["source"] == esc("s\u009b31m\u2028.jsonl:\t3\r"), r["source"]
assert json.loads(r["meta"]) == {"who": "e\u202dve\u2066"}, r["meta"]
assert "\n\t" in r["meta"], r["meta"]
PY
if [ "$have_py" -eq 1 ] &&
    python3 "$TMP/unsafe.py" "$TMP/classic-5x5.json" >"$TMP/unsafe-in.json"
then ok; else not_ok "unsafe: python"; fi
q import "$TMP/unsafe-in.json" --db "$TMP/unsafe.db"
expect_rc 0 "import a submission id with control characters"
q export unsafe --format csv --db "$TMP/unsafe.db" -o "$TMP/unsafe.csv"
expect_rc 0 "export it as csv"
py "csv: the id's and source's control and bidi characters escaped" \
    <"$TMP/check_unsafe.py" "$TMP/unsafe.csv"

# a pack of two rules: flip and a contact sheet name the first puzzle they
# cannot hold, here the first ring6-mod8 puzzle at position 9
cat >"$TMP/mix.py" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
a["pack"]["name"] = "mixed"
a["rules"] += b["rules"]
a["puzzles"] += b["puzzles"]
for i, p in enumerate(a["puzzles"]):
    p["position"] = i + 1
    p["slot"] = i + 1
a["pack"]["version"] = len(a["puzzles"]) + 1
sys.stdout.write(json.dumps(a))
PY
if [ "$have_py" -eq 1 ] && python3 "$TMP/mix.py" "$TMP/classic-5x5.json" \
    "$TMP/ring6-mod8.json" >"$TMP/mixed.json"
then ok; else not_ok "mixed: python"; fi
q import "$TMP/mixed.json" --db "$DB"
expect_rc 0 "import a pack of two rules"
r1=$(gen_id ring6-mod8 1)
q export mixed --format flip --db "$DB"
expect_rc 65 "flip refuses the mixed pack"
expect_err "quench: puzzle 9 (id $r1): flip has two colours, this rule has 8" \
    "flip names the first puzzle it cannot hold"
q export mixed --format svg --db "$DB"
expect_rc 65 "a sheet refuses the mixed pack"
expect_err "a contact sheet needs one rule: puzzle 9 (id $r1) has rule 'ring6', puzzle 1 has 'classic-5x5'" \
    "the sheet names the first puzzle of another rule"
q export mixed --format svg --puzzle "$r1" --db "$DB"
expect_rc 0 "one puzzle of the mixed pack"
expect_out "mixed, puzzle 9 (id $r1)" "its title"

# a tampered document into an existing database: nothing added
cp "$TMP/rt-ring6-mod8.db" "$TMP/keep.db"
q import "$TMP/t-witness.json" --db "$TMP/keep.db" --pack other
expect_rc 65 "tampered into an existing database"
q pack list --db "$TMP/keep.db"
if grep -q other "$TMP/out"; then not_ok "rejected import made a pack"
else ok; fi

# malformed JSON: exit 65 with line:col
printf '{"format": "quench-pack",\n  "pack": }\n' >"$TMP/bad.json"
q import "$TMP/bad.json" --db "$TMP/bad.db"
expect_rc 65 "malformed JSON"
expect_err "bad.json:2:" "malformed JSON names line:col"
printf '{"format": "quench-pack", "format": "x"}' >"$TMP/dup.json"
q import "$TMP/dup.json" --db "$TMP/bad.db"
expect_rc 65 "duplicate key"
expect_err "duplicate" "duplicate key message"
printf '[[[[[[[[[[[[1]]]]]]]]]]]]' >"$TMP/deep.json"
q import "$TMP/deep.json" --db "$TMP/bad.db"
expect_rc 65 "too deep"
printf '[]' >"$TMP/arr.json"
q import "$TMP/arr.json" --db "$TMP/bad.db"
expect_rc 65 "top level not an object"
q import "$TMP/none.json" --db "$TMP/bad.db"
expect_rc 66 "missing file"
if [ ! -e "$TMP/bad.db" ]; then ok; else not_ok "bad imports created a db"; fi

done_testing
