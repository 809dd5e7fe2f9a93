#!/bin/sh
# t546: a merge tree (issue #22). `db merge` takes its own outputs, so
# shards merged in groups and the groups merged again give the database
# of a flat merge: the same pack bytes as the single run, at version 1,
# whatever the grouping and order; every run row as its shard left it;
# merging an intermediate again adds nothing. Puzzles that several run
# families drew (the same seed in two modes, or two seeds) end up as the
# rule in docs/STORE.md says, computed here from the shards' own exports.
. "$(dirname "$0")/lib.sh"

C3=$TOP/rules/classic-3x3.yaml
C5=$TOP/rules/classic-5x5.yaml
S=$TMP/s
mkdir -p "$S"

# merge OUT IN...: a fresh OUT
merge() {
    out=$1
    shift
    rm -f "$out" "$out-lock"
    q db merge "$out" "$@"
    expect_rc 0 "db merge $(basename "$out")"
}
# same_json DB PACK WANT LABEL: the pack's export is WANT's bytes
same_json() {
    q export "$2" --format json --db "$1" -o "$TMP/got.json"
    cmp -s "$TMP/got.json" "$3" && ok || not_ok "$4"
}

# --- 1. 8 shards: flat, two levels, three levels, any grouping ------------
q generate "$C5" -n 300 --seed 31 --db "$S/single.db" --pack camp
expect_rc 0 "the single run"
q export camp --format json --db "$S/single.db" -o "$S/single.json"
i=0
while [ "$i" -lt 8 ]; do
    q generate "$C5" -n 300 --seed 31 --shard "$i/8" --db "$S/s$i.db" --pack camp
    i=$((i + 1))
done
merge "$S/flat.db" "$S"/s0.db "$S"/s1.db "$S"/s2.db "$S"/s3.db "$S"/s4.db \
    "$S"/s5.db "$S"/s6.db "$S"/s7.db
same_json "$S/flat.db" camp "$S/single.json" "the flat merge of 8 shards is the single run"
cp "$S/single.json" "$S/want.json"

merge "$S/g0.db" "$S/s0.db" "$S/s1.db" "$S/s2.db"
merge "$S/g1.db" "$S/s3.db" "$S/s4.db" "$S/s5.db"
merge "$S/g2.db" "$S/s6.db" "$S/s7.db"
# every group is the single run's pack restricted to its shards: version 1
for g in 0 1 2; do
    q pack list --db "$S/g$g.db"
    expect_out "v1 " "group $g: its pack is still version 1"
done
for order in "g0 g1 g2" "g2 g0 g1" "g1 g2 g0"; do
    # shellcheck disable=SC2086
    set -- $order
    merge "$S/tree.db" "$S/$1.db" "$S/$2.db" "$S/$3.db"
    same_json "$S/tree.db" camp "$S/want.json" "groups 3,3,2 merged as $order: the single run's bytes"
    q pack list --db "$S/tree.db"
    expect_out "camp                     v1       300 puzzles" "groups merged as $order: one pack of 300 at version 1, as the single run's"
done
q db check --db "$S/tree.db"
expect_rc 0 "db check of the two-level tree"
expect_out "300 witnesses verified" "every puzzle checked"

# other groupings: interleaved shards, and a third level
merge "$S/h0.db" "$S/s7.db" "$S/s0.db" "$S/s4.db"
merge "$S/h1.db" "$S/s5.db" "$S/s1.db"
merge "$S/h2.db" "$S/s6.db" "$S/s3.db" "$S/s2.db"
merge "$S/h01.db" "$S/h1.db" "$S/h0.db"
merge "$S/tree3.db" "$S/h2.db" "$S/h01.db"
same_json "$S/tree3.db" camp "$S/want.json" "three levels over interleaved groups: the single run's bytes"
# an intermediate beside raw shards
merge "$S/mixed.db" "$S/s6.db" "$S/g1.db" "$S/s7.db" "$S/g0.db"
same_json "$S/mixed.db" camp "$S/want.json" "a group and loose shards: the single run's bytes"
# and sorted, the single run sorted
q pack sort camp --db "$S/single.db"
q export camp --format json --db "$S/single.db" -o "$S/single-sorted.json"
q pack sort camp --db "$S/tree3.db"
same_json "$S/tree3.db" camp "$S/single-sorted.json" "the tree's pack sorted is the single run's sorted"

# --- 2. merging an intermediate again adds nothing --------------------------
dump() { sqlite3 "$1" .dump; }
before=$(dump "$S/tree.db")
q db merge "$S/tree.db" "$S/g0.db" "$S/s7.db" "$S/g2.db"
expect_rc 0 "merge a group, a shard in a group, a group again"
expect_eq "$(grep -c '+0 puzzles' "$TMP/out")" 3 "each adds no puzzle"
expect_eq "$(grep -c '+0 runs' "$TMP/out")" 3 "and no run"
[ "$(dump "$S/tree.db")" = "$before" ] && ok || not_ok "the database is unchanged, byte for byte in its dump"
q db merge "$S/g0.db" "$S/g0.db"
expect_rc 64 "a group merged into itself is a usage error"

# --- 3. run rows: every shard's, as the shard left it -----------------------
runs() { # DB: key and progress of every run, in key order
    sqlite3 "$1" "SELECT key, options, requested, stored, duplicates,
        next_index, status, summary IS NOT NULL FROM runs ORDER BY key"
}
for i in 0 1 2 3 4 5 6 7; do runs "$S/s$i.db"; done | sort >"$TMP/want-runs"
runs "$S/tree3.db" >"$TMP/got-runs"
cmp -s "$TMP/got-runs" "$TMP/want-runs" && ok || not_ok "the tree holds the 8 shards' run rows as the shards have them"
expect_eq "$(sqlite3 "$S/tree3.db" "SELECT count(DISTINCT substr(options, 1, instr(options, ' shard=')))
    FROM runs")" 1 "all of one run family"
# a shard merged while short of its count, then finished: the group gets
# the finished row, whichever copy it meets first
P=$TMP/p
mkdir -p "$P"
q generate "$C5" -n 100 --seed 31 --shard 3/8 --db "$P/s3.db" --pack camp
cp "$P/s3.db" "$P/s3-early.db"
q generate "$C5" -n 300 --seed 31 --shard 3/8 --db "$P/s3.db" --pack camp
expect_rc 0 "shard 3 extended to the full count"
for order in early-first late-first; do
    if [ "$order" = early-first ]; then
        merge "$P/g.db" "$P/s3-early.db" "$S/s4.db"
        q db merge "$P/g.db" "$S/s5.db" "$P/s3.db"
    else
        merge "$P/g.db" "$P/s3.db" "$S/s4.db"
        q db merge "$P/g.db" "$S/s5.db" "$P/s3-early.db"
    fi
    expect_eq "$(runs "$P/g.db" | grep 'shard=3/8')" "$(runs "$P/s3.db")" \
        "$order: the group's row of shard 3 is the finished shard's"
    merge "$P/t.db" "$S/g0.db" "$P/g.db" "$S/g2.db"
    same_json "$P/t.db" camp "$S/want.json" "$order: the tree is the single run"
done

# --- 4. one puzzle drawn by several run families -----------------------------
# Three families on classic 3x3 (101 puzzles up to symmetry, so most
# draws collide): seed 5a sampled, seed 5a exhaustive (other puzzles at
# other stream indices) and seed 77. Each is split in two shards. Of the
# copies of one puzzle the merge keeps the smallest (seed, stream index,
# state: the bytes of the packed state, docs/STORE.md, as SQLite compares
# blobs), and a pack built by a family (unedited) is in stream order of
# the copies kept: the same database whatever the order or grouping.
F=$TMP/f
mkdir -p "$F"
for i in 0 1; do
    q generate "$C3" -n 40 --seed 5a --shard "$i/2" --db "$F/a$i.db" --pack a
    q generate "$C3" -n 40 --seed 5a --mode exhaustive --shard "$i/2" --db "$F/b$i.db" --pack b
    q generate "$C3" -n 40 --seed 77 --shard "$i/2" --db "$F/c$i.db" --pack c
done
for p in a b c; do
    for i in 0 1; do
        q export "$p" --format json --db "$F/$p$i.db" -o "$F/$p$i.json"
    done
done
PYTHONPATH=$TOP/tests python3 - "$F" <<'EOF' || not_ok "the expected packs could not be computed from the shards"
import json, sys
from state_blob import pack_cells
f = sys.argv[1]
shards = {p: [json.load(open(f"{f}/{p}{i}.json")) for i in (0, 1)] for p in "abc"}
rank = lambda r: (r["seed"], r["index"], pack_cells(r["state"], 2))
best = {}
for docs in shards.values():
    for d in docs:
        for r in d["puzzles"]:
            if r["id"] not in best or rank(r) < rank(best[r["id"]]):
                best[r["id"]] = r
moved = 0
for p, docs in shards.items():
    ids = {r["id"] for d in docs for r in d["puzzles"]}
    want = sorted((best[i] for i in ids), key=rank)
    moved += sum(best[r["id"]] is not r for d in docs for r in d["puzzles"])
    json.dump([(r["id"], r["state"], r["seed"], r["index"], r["solution"])
               for r in want], open(f"{f}/want-{p}", "w"))
# the case is real: some shard's copy loses to another family's
assert moved > 0, "no puzzle shared by two families"
EOF
check_families() { # DB LABEL
    for p in a b c; do
        q export "$p" --format json --db "$1" -o "$TMP/fam.json"
        why="$2: pack $p keeps the smallest copies in stream order"
        python3 - "$TMP/fam.json" "$F/want-$p" 2>"$TMP/py.err" <<'EOF' && ok || not_ok "$why ($(tail -n 1 "$TMP/py.err" | cut -c1-120))"
import json, sys
got = json.load(open(sys.argv[1]))
want = json.load(open(sys.argv[2]))
assert got["pack"]["version"] == 1
rows = [[r["id"], r["state"], r["seed"], r["index"], r["solution"]]
        for r in got["puzzles"]]
assert [r["position"] for r in got["puzzles"]] == list(range(1, len(rows) + 1))
assert rows == want, (rows[:3], want[:3])
EOF
    done
    q db check --db "$1"
    expect_rc 0 "$2: db check"
}
merge "$F/m1.db" "$F"/a0.db "$F"/a1.db "$F"/b0.db "$F"/b1.db "$F"/c0.db "$F"/c1.db
check_families "$F/m1.db" "flat, family by family"
merge "$F/m2.db" "$F"/c1.db "$F"/b1.db "$F"/a1.db "$F"/c0.db "$F"/b0.db "$F"/a0.db
check_families "$F/m2.db" "flat, reversed"
merge "$F/x0.db" "$F/a0.db" "$F/b1.db" "$F/c0.db"
merge "$F/x1.db" "$F/c1.db" "$F/a1.db" "$F/b0.db"
merge "$F/m3.db" "$F/x1.db" "$F/x0.db"
check_families "$F/m3.db" "two mixed groups"
merge "$F/y0.db" "$F/b0.db" "$F/b1.db"
merge "$F/m4.db" "$F/y0.db" "$F/c0.db" "$F/a0.db" "$F/c1.db" "$F/a1.db"
check_families "$F/m4.db" "one family's group first"

# --- an input whose rows are not in stream order -------------------------
# Two runs stored in one database, the larger seed first: by row its seeds
# go down. Merged (first, second, and alone) its puzzles come out in
# stream order all the same: (seed, stream index) ascending with the row
# ids within the rule, every row there, and the same rows as the in-order input merged.
q generate "$C5" -n 30 --seed 9 --db "$TMP/mixed.db"
q generate "$C5" -n 30 --seed 4 --db "$TMP/mixed.db"
q generate "$C5" -n 30 --seed 4 --db "$TMP/ordered.db"
q generate "$C5" -n 30 --seed 9 --db "$TMP/ordered.db"
stream_order() {
    sqlite3 "$1" "SELECT count(*) FROM puzzles p JOIN puzzles q ON q.id = (SELECT min(id) FROM puzzles WHERE id > p.id AND rule_id = p.rule_id)
      WHERE ((SELECT seed FROM runs WHERE id = q.run_id), q.stream_index)
          < ((SELECT seed FROM runs WHERE id = p.run_id), p.stream_index)"
}
expect_eq "$(stream_order "$TMP/mixed.db")" 1 "the mixed input is out of stream order once"
rows() {
    python3 "$TOP/tests/state_blob.py" "$1" "SELECT p.id, r.seed, p.stream_index, hex(puzzle_canon(p.state, l.layout, l.colours)), printf('%016x', run_uid(p.id)) FROM puzzles p JOIN runs r ON r.id = p.run_id JOIN rules l ON l.id = p.rule_id ORDER BY p.id"
}
merge "$TMP/m-alone.db" "$TMP/mixed.db"
merge "$TMP/m-ordered.db" "$TMP/ordered.db"
merge "$TMP/m-first.db" "$TMP/mixed.db" "$F/a0.db"
merge "$TMP/m-second.db" "$F/a0.db" "$TMP/mixed.db"
for m in alone first second; do
    expect_eq "$(stream_order "$TMP/m-$m.db")" 0 "merged ($m): in stream order"
done
expect_eq "$(sqlite3 "$TMP/m-alone.db" 'SELECT count(*) FROM puzzles')" "$(sqlite3 "$TMP/mixed.db" 'SELECT count(*) FROM puzzles')" "merged alone: every row"
[ "$(rows "$TMP/m-alone.db")" = "$(rows "$TMP/m-ordered.db")" ] && ok || not_ok "merged alone: the rows, ids included, of the ordered input merged"

# an input row whose state sqlite3 changed (to another row's) no longer
# has the id its key runs hold, from which OUT's runs would be made:
# refused, the row named, and OUT as it was (a new one removed); the
# inputs merged before it stay merged
cp "$TMP/ordered.db" "$TMP/wrong-id.db"
sqlite3 "$TMP/wrong-id.db" "UPDATE puzzles SET state = (SELECT state FROM puzzles WHERE id = 16) WHERE id = 17"
rm -f "$TMP/m-wrong.db"
q db merge "$TMP/m-wrong.db" "$TMP/wrong-id.db"
expect_rc 74 "merging an input with a wrong puzzle id"
expect_err "$TMP/wrong-id.db: puzzle at row 17: its id in the key runs is not its state's" "the row named"
[ ! -e "$TMP/m-wrong.db" ] && ok || not_ok "the new OUT removed"
cp "$TMP/m-alone.db" "$TMP/m-wrong.db"
q db merge "$TMP/m-wrong.db" "$F/a0.db" "$TMP/wrong-id.db"
expect_rc 74 "merging it second"
# (the wrong input holds OUT's puzzles: only its wrong row would be new)
expect_eq "$(sqlite3 "$TMP/m-wrong.db" "SELECT count(*) FROM puzzles")" "$(( $(sqlite3 "$TMP/m-alone.db" "SELECT count(*) FROM puzzles") + $(sqlite3 "$F/a0.db" "SELECT count(*) FROM puzzles") ))" "the input before it merged, no row of the wrong one"

done_testing
