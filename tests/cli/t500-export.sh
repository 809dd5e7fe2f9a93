#!/bin/sh
# t500: quench export (json, jsonl, csv, flip, svg) and quench import on
# real files: schema validation, engine constraints (integers only, no
# array directly inside an array), atomic -o, byte-identical round trips
# and tampered documents. Needs python3 with jsonschema and xmllint: when
# either is missing the checks that need it FAIL (they are not skipped).
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

# py SCRIPT ARGS...: run a python check; a failure (or no python) counts.
py() {
    label=$1
    shift
    if [ "$have_py" -eq 1 ] && python3 - "$@" >"$TMP/py.out" 2>&1; then ok
    else
        not_ok "$label"
        sed 's/^/    py: /' "$TMP/py.out" 2>/dev/null | head -n 10
    fi
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
q export nope --format json --db "$DB"
expect_rc 66 "export: no database"

for r in $PACKS; do
    q generate "$TOP/rules/$r.yaml" -n 8 --seed 1 --db "$DB" --pack "$r"
    expect_rc 0 "generate $r"
done
q export nope --format json --db "$DB"
expect_rc 66 "export of a missing pack"
expect_err "no pack named 'nope'" "missing pack message"

cat >"$TMP/check_json.py" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
doc = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator(schema).validate(doc)
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
    assert s == rule["goal"], "puzzle %d does not replay" % p["id"]
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
for i, line in enumerate(lines[1:]):
    rec = json.loads(line)
    assert rec.pop("record") == "puzzle"
    assert rec["id"] == i + 1
    jsonschema.Draft202012Validator(ps, resolver=jsonschema.RefResolver.from_schema(schema)).validate(rec)
PY

cat >"$TMP/check_csv.py" <<'PY'
import csv, sys, re
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0] == ["id", "state", "min_presses", "optimal_solutions",
                   "solution", "grade", "seed"], rows[0]
assert len(rows) == int(sys.argv[2]) + 1
for i, r in enumerate(rows[1:]):
    assert len(r) == 7 and r[0] == str(i + 1)
    assert re.fullmatch(r"[0-9a-z./()]+", r[1]) and re.fullmatch(r"[0-9a-z./()]+", r[4])
    assert int(r[2]) >= 1 and int(r[3]) >= 1
    assert re.fullmatch(r"[0-9a-f]+", r[6])
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

    q export "$r" --format svg --db "$DB" -o "$TMP/$r.svg"
    expect_rc 0 "export $r svg sheet"
    if xmllint --noout "$TMP/$r.svg" 2>/dev/null; then ok; else
        not_ok "$r: svg sheet is not well-formed"; fi
    q export "$r" --format svg --puzzle 3 --db "$DB" -o "$TMP/$r-3.svg"
    expect_rc 0 "export $r svg puzzle"
    if xmllint --noout "$TMP/$r-3.svg" 2>/dev/null; then ok; else
        not_ok "$r: svg board is not well-formed"; fi

    # round trip: import into a fresh database, export again: same bytes
    q import "$TMP/$r.json" --db "$TMP/rt-$r.db"
    expect_rc 0 "import $r"
    expect_out "imported pack '$r': 8 puzzles" "import $r message"
    q export "$r" --format json --db "$TMP/rt-$r.db" -o "$TMP/$r.rt.json"
    expect_rc 0 "re-export $r"
    if cmp -s "$TMP/$r.json" "$TMP/$r.rt.json"; then ok; else
        not_ok "$r: round trip is not byte-identical"; fi
done

q export classic-5x5 --format svg --puzzle 9 --db "$DB"
expect_rc 66 "svg of a puzzle past the end"
q export classic-5x5 --format json --puzzle 2 --db "$DB"
expect_rc 64 "--puzzle without svg"

# flip: k = 2 full rectangles only
q export classic-5x5 --format flip --db "$DB"
expect_rc 0 "flip classic-5x5"
n=$(grep -cE '^5x5:[0-9a-f]{157},[0-9a-f]{7}$' "$TMP/out")
expect_eq "$n" 8 "flip: one game ID per puzzle"
q export ring6-mod8 --format flip --db "$DB" -o "$TMP/ring.flip"
expect_rc 65 "flip refuses ring6-mod8"
expect_err "flip has two colours, this rule has 8" "flip refusal message"
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
expect_out "id,state,min_presses" "-o - writes the csv"

# the same pack twice into one database: refused, then under a new name
q import "$TMP/classic-5x5.json" --db "$TMP/rt-classic-5x5.db"
expect_rc 65 "import over an existing pack"
expect_err "pack 'classic-5x5' already exists" "existing pack message"
q import "$TMP/classic-5x5.json" --db "$TMP/rt-classic-5x5.db" --pack copy
expect_rc 0 "import under another name"

# tampered documents: each rejected naming the puzzle; nothing written
cat >"$TMP/tamper.py" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
what = sys.argv[2]
p = doc["puzzles"]
if what == "witness":
    p[2]["solution"][0] ^= 1
elif what == "min":
    p[1]["min_presses"] += 1
elif what == "optimal":
    p[4]["optimal_solutions"] += 1
elif what == "state":
    p[3]["state"][5] = 2
elif what == "effects":
    doc["rules"][0]["cells"][0]["effects"].pop()
elif what == "float":
    p[0]["min_presses"] = float(p[0]["min_presses"])
elif what == "id":
    p[0]["id"] = 7
sys.stdout.write(json.dumps(doc))
PY
tamper() { # what, expected stderr text
    if [ "$have_py" -eq 1 ] &&
        python3 "$TMP/tamper.py" "$TMP/classic-5x5.json" "$1" >"$TMP/t-$1.json"
    then ok; else not_ok "tamper $1: python"; fi
    q import "$TMP/t-$1.json" --db "$TMP/t-$1.db"
    expect_rc 65 "tampered $1 rejected"
    expect_err "$2" "tampered $1 message"
    if [ ! -e "$TMP/t-$1.db" ]; then ok; else
        not_ok "tampered $1: database written"; fi
}
tamper witness "puzzle 3: the solution does not reach the goal"
tamper min "puzzle 2: min_presses is"
tamper optimal "puzzle 5: optimal_solutions is"
tamper state "puzzle 4: 'state' value 5 is 2, must be 0..1"
tamper effects "hash to"
tamper float "puzzle 1: 'min_presses' must be an integer"
tamper id "puzzle 7: ids must be 1, 2, ... in order"

# a tampered document into an existing database: nothing added
cp "$TMP/rt-ring6-mod8.db" "$TMP/keep.db"
if [ "$have_py" -eq 1 ]; then
    python3 "$TMP/tamper.py" "$TMP/classic-5x5.json" witness >"$TMP/tw.json"
fi
q import "$TMP/tw.json" --db "$TMP/keep.db" --pack other
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
