#!/bin/sh
# t030: --json on every command that reports (issue #23), one documented
# shape each (docs/quench.1), and every mutating pack subcommand saying
# what it did in one line of stdout, nothing under -q. The counts asserted
# are the ones this script made: puzzles generated, packs created, files
# checked, not figures read back from quench's own text output.
. "$(dirname "$0")/lib.sh"

R=$TOP/rules
DB=$TMP/j.db

# py 'EXPR' FILE: evaluate EXPR with j = the JSON document in FILE
py() {
    python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($1)" "$2"
}
# py_out 'EXPR' WANT LABEL: the check expect_eq "$(py 'EXPR' out)" WANT LABEL,
# queued (lib.sh's py_eq: one python3 runs them all)
py_out() {
    py_eq "import json,sys; j=json.load(open(sys.argv[1])); print($1)" "$2" "$3" out
}
# a JSON document alone on stdout (one line, parsed whole)
expect_json() { # label
    if [ "$(wc -l <out)" -eq 1 ]; then
        py_eq "import json,sys; json.load(open(sys.argv[1])); print('one')" one \
            "$1: stdout is not one JSON document" out
    else
        not_ok "$1: stdout is not one JSON document"
        sed 's/^/    stdout: /' out | head -n 5
    fi
}

q -q generate "$R/classic-3x3.yaml" -n 4 --seed 7 --db "$DB" --pack gen
expect_rc 0 "setup: 4 puzzles into pack gen"
q pack --db "$DB" show gen --json
IDS=$(py 'j["puzzles"][0]["id"], j["puzzles"][1]["id"]' out)
ID1=${IDS%% *} ID2=${IDS#* }

# ---- rules check --json (today --json was read as a file name) ----
printf 'quench: 1\nname: big\ncolours: 2\nboard:\n  grid: [100, 100]\npress:\n  stencil: plus\n' >big.yaml
q rules check --json "$R/classic-3x3.yaml" big.yaml
expect_rc 0 "rules check --json"
expect_json "rules check --json"
py_out '[j["checked"], j["failed"]]' "[2, 0]" "rules check --json: counts"
py_out '[(f["file"], f["ok"], f["cells"], f["colours"]) for f in j["files"]]' \
    "[('$R/classic-3x3.yaml', True, 9, 2), ('big.yaml', True, 10000, 2)]" "rules check --json: per file"
py_out 'j["files"][0]["big_grid"], j["files"][1]["big_grid"]["width"], j["files"][1]["big_grid"]["height"]' \
    "None 100 100" "rules check --json: a big grid says so"
printf 'quench: 1\nname: x\ncolours: 2\nboard:\n  grid: [3, 3]\ntoggles: 1\n' >bad.yaml
q rules check bad.yaml nosuch.yaml --json
expect_rc 65 "rules check --json with a bad file: 65 as before"
expect_json "rules check --json with failures"
py_out '[j["checked"], j["failed"], [f["ok"] for f in j["files"]]]' \
    "[2, 2, [False, False]]" "rules check --json: failures counted"
py_out 'j["files"][0]["error"]["line"], j["files"][0]["error"]["column"], j["files"][1]["error"]["line"]' \
    "6 1 None" "rules check --json: where the error is"
expect_err "bad.yaml:6:1:" "rules check --json: the errors still on stderr"
q rules check -q --json "$R/classic-3x3.yaml"
expect_json "rules check --json -q: JSON is not chatter"

# ---- rules show --tiers ----
q rules show --tiers "$R/classic-5x5.yaml"
expect_rc 0 "rules show --tiers"
# classic-5x5.yaml's own grading (easy 1-5, medium 6-10, hard 11-15)
expect_eq "$(cat out | tr '\n' ';')" "easy 1 5;medium 6 10;hard 11 15;" "rules show --tiers: the rule's tiers"
q rules show --tiers --json "$R/classic-5x5.yaml"
expect_rc 64 "rules show --tiers goes alone"

# ---- db --json ----
q db --db "$DB" stats --json
expect_rc 0 "db stats --json"
expect_json "db stats --json"
py_out '[j["rules"], j["puzzles"], j["packs"], j["pack_entries"], j["runs"], j["database"]]' \
    "[1, 4, 1, 4, 1, '$DB']" "db stats --json: counts"
py_out 'sum(c["puzzles"] for h in j["histogram"] for c in h["counts"]), [h["rule"] for h in j["histogram"]]' \
    "4 ['classic-3x3']" "db stats --json: the histogram holds every puzzle"
q db --db "$DB" check --json
expect_rc 0 "db check --json"
expect_json "db check --json"
py_out '[j["ok"], j["checked"], j["failed"], j["problems"]]' "[True, 4, 0, []]" "db check --json: all verified"
q db --db "$DB" init --json
expect_json "db init --json"
py_out 'sorted(j)' "['database', 'schema_version']" "db init --json: keys"
q db --db "$DB" migrate --json
expect_json "db migrate --json"
py_out 'j["from"] == j["to"]' "True" "db migrate --json: up to date"
q db merge "$TMP/m.db" "$DB" --json
expect_rc 0 "db merge --json"
expect_json "db merge --json"
py_out '[(i["puzzles"], i["rules"], i["packs"], i["pack_entries"]) for i in j["inputs"]]' \
    "[(4, 1, 1, 4)]" "db merge --json: what one input brought"
if command -v sqlite3 >/dev/null 2>&1; then
    cp "$DB" bad.db
    sqlite3 bad.db "UPDATE puzzles SET min_presses = min_presses + 1 WHERE id = 2"
    q db --db bad.db check --json
    expect_rc 65 "db check --json of a wrong puzzle: 65 as before"
    expect_json "db check --json with a problem"
    py_out '[j["ok"], j["checked"], j["failed"], [(p["kind"], p["row"]) for p in j["problems"]]]' \
        "[False, 4, 1, [('puzzle', 2)]]" "db check --json: the problem named"
fi

# ---- import --json ----
q export gen --format json --db "$DB" -o gen.json
q import gen.json --db "$TMP/i.db" --json
expect_rc 0 "import --json"
expect_json "import --json"
py_out '[j["pack"], j["puzzles"], j["rules"], j["kept"]]' "['gen', 4, 1, []]" "import --json: what came in"

# ---- every pack subcommand: --json, or one line saying what it did ----
q pack --db "$DB" create p --json
expect_rc 0 "pack create --json"
expect_json "pack create --json"
py_out '[j["action"], j["pack"], j["version"], j["puzzles"], j["changed"]]' \
    "['create', 'p', 1, 0, True]" "pack create --json"
q pack --db "$DB" add p "$ID1" "$ID2" --json
expect_json "pack add --json"
py_out '[j["action"], j["puzzles"], j["count"], j["changed"], j["version"] > 1]' \
    "['add', 2, 2, True, True]" "pack add --json"
q pack --db "$DB" move p "$ID1" 1 --json
expect_json "pack move --json"
py_out '[j["action"], j["position"], j["changed"]]' "['move', 1, False]" "pack move --json: to where it is"
q pack --db "$DB" move p "$ID1" 2
expect_eq "$(cat out)" "moved puzzle $ID1 to position 2 of 'p' (version 4)" "pack move: its line"
q pack --db "$DB" sort p --json
expect_json "pack sort --json"
py_out 'j["action"], j["puzzles"]' "sort 2" "pack sort --json"
q pack --db "$DB" remove p "$ID2" --json
expect_json "pack remove --json"
py_out '[j["action"], j["puzzles"], j["count"], j["changed"]]' "['remove', 1, 1, True]" "pack remove --json"
q pack --db "$DB" rename p q --json
expect_json "pack rename --json"
py_out '[j["action"], j["pack"], j["from"], j["puzzles"]]' "['rename', 'q', 'p', 1]" "pack rename --json"
q pack --db "$DB" list --json
expect_json "pack list --json"
py_out 'sorted((p["name"], p["puzzles"]) for p in j)' "[('gen', 4), ('q', 1)]" "pack list --json"
q pack --db "$DB" list --names
expect_eq "$(cat out | tr '\n' ' ')" "gen q " "pack list --names: the names alone"
q pack --db "$DB" delete q --json
expect_json "pack delete --json"
py_out '[j["action"], j["pack"], j["puzzles"]]' "['delete', 'q', 1]" "pack delete --json: what it held"

# the lines, one each on stdout, none under -q
q pack --db "$DB" create r
expect_eq "$(cat out)" "created pack 'r' (version 1, empty)" "pack create: its line"
q pack --db "$DB" add r "$ID1"
expect_eq "$(cat out)" "added 1 puzzle to 'r' (now 1 puzzle, version 2)" "pack add: its line, singular"
q pack --db "$DB" add r "$ID2"
expect_eq "$(cat out)" "added 1 puzzle to 'r' (now 2 puzzles, version 3)" "pack add: its line, plural"
q pack --db "$DB" sort r
expect_out "sorted 'r' by min presses" "pack sort: its line"
q pack --db "$DB" rename r s
expect_out "renamed pack 'r' to 's'" "pack rename: its line"
q pack --db "$DB" remove s "$ID1"
expect_out "removed 1 puzzle from 's' (now 1 puzzle," "pack remove: its line"
q pack --db "$DB" delete s
expect_eq "$(cat out)" "deleted pack 's' (its 1 puzzle stay stored)" "pack delete: its line"
for cmd in "create t" "add t $ID1" "move t $ID1 1" "sort t" "remove t $ID1" "rename t u" "delete u"; do
    # shellcheck disable=SC2086
    q pack --db "$DB" $cmd -q
    expect_rc 0 "pack $cmd -q"
    expect_empty_out "pack $cmd -q says nothing"
    [ -s err ] && not_ok "pack $cmd -q: stderr not empty" || ok
done

# pack build --json: the build itself, not only its plan
cat >camp.yaml <<EOF
pack: camp
seed: 1
sections:
  - name: one
    rules: $R/classic-3x3.yaml
    count: 3
EOF
q pack --db "$DB" build camp.yaml --json
expect_rc 0 "pack build --json"
expect_json "pack build --json"
py_out '[j["action"], j["pack"], j["puzzles"], j["changed"]]' "['build', 'camp', 3, True]" "pack build --json"
q pack --db "$DB" build camp.yaml --json
py_out '[j["puzzles"], j["changed"]]' "[3, False]" "pack build --json again: unchanged"

done_testing
