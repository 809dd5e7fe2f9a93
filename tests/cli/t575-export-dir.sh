#!/bin/sh
# t575: export --format dir (issue #34 section 2; docs/EXPORT.md "dir"):
# one file per level and a table of contents, as LDtk's separate level
# files. Each level file must be, as parsed JSON, the puzzle object of
# the pack's json export at that position, and the index the json's pack
# and rules with one entry per level; both validate against the published
# schema. Written whole or not at all: an existing folder is refused
# without --force, and with it replaced only when it is a dir export; a
# folder that cannot be made leaves nothing behind.
. "$(dirname "$0")/lib.sh"

DB=$TMP/d.db
must() { [ "$rc" -eq 0 ] || { not_ok "$1: exit $rc"; sed 's/^/    stderr: /' "$TMP/err" | head -n 5; }; }

q generate "$TOP/rules/classic-3x3.yaml" -n 5 --seed 4 --pack p --db "$DB"
must "generate"
q generate "$TOP/rules/ring6-mod8.yaml" -n 3 --seed 4 --db "$DB" --pack p
must "a second rule in the pack"
q export p --format json --db "$DB" -o "$TMP/p.json"
must "export json"

q export p --format dir --db "$DB" -o "$TMP/lv"
expect_rc 0 "export dir"
expect_empty_out "export dir prints nothing"
python3 - "$TMP/p.json" "$TMP/lv" "$TOP/docs/quench-pack.schema.json" <<'PY' && ok || not_ok "each level file is its puzzle; the index is the pack, rules and contents"
import json, os, sys
d = json.load(open(sys.argv[1]))
out = sys.argv[2]
idx = json.load(open(out + "/index.json"))
assert idx["format"] == "quench-pack-index" and idx["format_version"] == 2
assert idx["pack"] == d["pack"] and idx["rules"] == d["rules"]
assert len(idx["levels"]) == len(d["puzzles"]) == 8
files = sorted(os.listdir(out + "/levels"))
assert files == ["%04d.json" % i for i in range(1, 9)], files
for e, p in zip(idx["levels"], d["puzzles"]):
    assert json.load(open(out + "/" + e["file"])) == p
    for k in ("id", "position", "slot", "section", "rule", "min_presses"):
        assert e[k] == p[k], k
assert sorted(os.listdir(out)) == ["index.json", "levels"]
PY
if python3 -c 'import jsonschema' 2>/dev/null; then
    python3 -W ignore::DeprecationWarning - "$TOP/docs/quench-pack.schema.json" "$TMP/lv" <<'PY' && ok || not_ok "the index and every level file validate against the schema"
import glob, json, sys, jsonschema
s = json.load(open(sys.argv[1]))
resolver = jsonschema.RefResolver.from_schema(s)
def check(doc, name):
    jsonschema.Draft202012Validator({"$ref": s["$id"] + "#/$defs/" + name},
                                    resolver=resolver).validate(doc)
check(json.load(open(sys.argv[2] + "/index.json")), "index")
for f in glob.glob(sys.argv[2] + "/levels/*.json"):
    check(json.load(open(f)), "puzzle")
PY
else
    not_ok "python3 module jsonschema is missing"
fi
[ -z "$(ls -a "$TMP" | grep -E '^lv\.(tmp|old)-')" ] && ok || not_ok "no temporary folder is left beside DIR"

# the same pack again: the same bytes
q export p --format dir --db "$DB" -o "$TMP/again"
must "export dir again"
diff -r "$TMP/lv" "$TMP/again" >/dev/null && ok || not_ok "the same pack exports the same files"

# an existing folder: refused without --force, left as it was
q export p --format dir --db "$DB" -o "$TMP/lv"
expect_rc 73 "an existing DIR is refused"
expect_err "already exists (give --force" "the refusal says how to replace it"
diff -r "$TMP/lv" "$TMP/again" >/dev/null && ok || not_ok "the refused export changed nothing"

# --force replaces a dir export, with the pack as it is now
q pack remove p "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["puzzles"][0]["id"])' "$TMP/p.json")" --db "$DB"
must "remove a puzzle"
q export p --format dir --db "$DB" -o "$TMP/lv" --force
expect_rc 0 "--force replaces a dir export"
expect_eq "$(ls "$TMP/lv/levels" | wc -l | tr -d ' ')" 7 "the replaced folder has the pack's 7 levels, not 8"
[ -z "$(ls -a "$TMP" | grep -E '^lv\.(tmp|old)-')" ] && ok || not_ok "nothing left beside the replaced DIR"

# --force never replaces a folder that is not a dir export
mkdir "$TMP/home" && echo precious >"$TMP/home/notes.txt"
q export p --format dir --db "$DB" -o "$TMP/home" --force
expect_rc 73 "a folder that is not a dir export is refused, even with --force"
expect_eq "$(cat "$TMP/home/notes.txt")" precious "its files are untouched"
echo x >"$TMP/file"
q export p --format dir --db "$DB" -o "$TMP/file" --force
expect_rc 73 "a file is not replaced by a folder"

# a folder that cannot be made: 73, nothing left
mkdir "$TMP/ro" && chmod 555 "$TMP/ro"
mkdir "$TMP/w" && cp "$DB" "$TMP/w/d.db" && chmod 777 "$TMP/w" && chmod 666 "$TMP/w/d.db" && chmod 755 "$TMP"
as_user "$QUENCH" export p --format dir --db "$TMP/w/d.db" -o "$TMP/ro/lv" >"$TMP/out.txt" 2>"$TMP/err"
rc=$?
expect_rc 73 "an unwritable parent: cannot create"
[ -z "$(ls -A "$TMP/ro")" ] && ok || not_ok "nothing is left in the unwritable parent"

# usage
q export p --format dir --db "$DB"
expect_rc 64 "dir needs -o"
q export p --format dir --db "$DB" -o -
expect_rc 64 "dir cannot go to standard output"
q export p --format json --db "$DB" --force
expect_rc 64 "--force goes with dir only"

done_testing
