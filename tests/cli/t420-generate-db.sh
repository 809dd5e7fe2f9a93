#!/bin/sh
# tier: full (kill -9 rounds over generate --db: most of a minute)
# t420: `quench generate --db`: puzzles stored as they are generated, a
# batch per transaction, printed only after their batch committed; kill -9
# at random moments leaves an intact database with no partial batch and
# every reported puzzle stored; running the command again resumes and ends
# with exactly the content of an uninterrupted run. Also --pack, and two
# generators writing to one database at once.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules
ROUNDS=${QN_KILL_ROUNDS:-12}
ARGS="$R/classic-7x7.yaml -n 20000 --seed 77 --batch 500 --jobs 2"

# dump DB: the stored puzzles as "stream_index state" lines, sorted
dump() {
    python3 "$TOP/tests/state_blob.py" "$1" "SELECT p.stream_index,
        state_text(p.state, r.layout, r.colours) FROM puzzles p
        JOIN rules r ON r.id = p.rule_id ORDER BY p.stream_index"
}

q -q generate $ARGS --db ref.db
expect_rc 0 "uninterrupted reference run"
dump ref.db >ref.txt
expect_eq "$(wc -l <ref.txt | tr -d ' ')" 20000 "reference holds 20000"
q db check --db ref.db
expect_rc 0 "reference passes db check"

# Running the same command again adds nothing.
q -q generate $ARGS --db ref.db
expect_rc 0 "rerun of a finished run"
expect_eq "$(dump ref.db | cmp -s - ref.txt && echo same)" same "rerun changes nothing"

round=0
while [ $round -lt "$ROUNDS" ]; do
    round=$((round + 1))
    rm -f crash.db crash.db-wal crash.db-shm
    "$QUENCH" -q generate $ARGS --db crash.db >printed.jsonl 2>/dev/null &
    pid=$!
    # a kill point between 20 and 600 ms
    sleep "0.$(printf '%03d' $(( (round * 97 + $$) % 580 + 20 )))"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    if [ ! -f crash.db ]; then ok; continue; fi
    PYTHONPATH=$TOP/tests python3 - crash.db printed.jsonl >verdict.txt <<'PY'
import json, sys
import state_blob
db = state_blob.connect(sys.argv[1])
ok = db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
fk = not db.execute("PRAGMA foreign_key_check").fetchall()
# killed before the schema's first commit: an empty file, which is valid
# (migrations are one transaction, so a partial schema would fail below)
empty = not db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
stored = set() if empty else {s for (s,) in db.execute(
    "SELECT state_text(p.state, r.layout, r.colours) FROM puzzles p"
    " JOIN rules r ON r.id = p.rule_id")}
runs = [] if empty else db.execute("SELECT stored FROM runs").fetchall()
run_stored = runs[0][0] if runs else 0
printed = []
for line in open(sys.argv[2]):
    try:
        r = json.loads(line)
    except ValueError:
        continue  # a line cut by the kill is not a report
    if r.get("type") == "puzzle":
        printed.append(r["state"])
lost = [s for s in printed if s not in stored]
# no partial batch: the rows are exactly what the committed progress says
print(ok, fk, len(lost), len(stored) == run_stored, len(stored) % 500 == 0)
PY
    expect_eq "$(cat verdict.txt)" "True True 0 True True" "round $round: intact, nothing lost, no partial batch"
    q -q generate $ARGS --db crash.db
    expect_rc 0 "round $round: resume"
    dump crash.db >crash.txt
    if cmp -s crash.txt ref.txt; then ok; else not_ok "round $round: resumed content differs from the uninterrupted run"; fi
done

# With --pack: a resumed run does not add its earlier puzzles twice (they
# joined the pack in the transaction that stored them).
rm -f pk.db*
q -q generate $ARGS --db pk.db --pack g --batch 100 -n 5000
"$QUENCH" -q generate $ARGS --db pk2.db --pack g --batch 100 -n 5000 >/dev/null 2>&1 &
pid=$!
sleep 0.15
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
q -q generate $ARGS --db pk2.db --pack g --batch 100 -n 5000
expect_rc 0 "--pack: resume a killed run"
q pack --db pk2.db show g
cp "$TMP/out" pk2.txt
q pack --db pk.db show g
if cmp -s "$TMP/out" pk2.txt; then ok; else not_ok "--pack: resumed pack differs from the uninterrupted one"; fi

# Ctrl-C: the open batch is committed, exit 130, the count is said, and
# running again completes the run exactly.
rm -f int.db*
(dfl "$QUENCH" generate $ARGS --db int.db >int.jsonl 2>int.err) &
pid=$!
# the signal must come once the run is under way (its first record out):
# sooner, it would meet the default action, not quench's handler
i=0
while [ ! -s int.jsonl ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
if [ "$rc" -eq 130 ] || [ "$rc" -eq 0 ]; then ok; else not_ok "SIGINT: exit $rc, expected 130"; fi
if [ "$rc" -eq 130 ]; then
    grep -q "interrupted: .* puzzles stored" int.err && ok || not_ok "SIGINT: no count said"
fi
q -q generate $ARGS --db int.db
expect_rc 0 "resume after Ctrl-C"
dump int.db | cmp -s - ref.txt && ok || not_ok "Ctrl-C then resume differs from the single run"

# Output that cannot be written: exit 74, the database still consistent.
rm -f full.db*
"$QUENCH" -q generate $ARGS --db full.db >/dev/full 2>full.err
expect_eq "$?" 74 "stdout on a full device: exit 74"
q db check --db full.db
expect_rc 0 "database consistent after the failed write"

# A full disk (here a file size limit): exit 74 with SQLite's reason, and
# the committed batches intact.
rm -f fz.db*
(ulimit -f 400; "$QUENCH" -q generate $ARGS --db fz.db >/dev/null 2>fz.err)
expect_eq "$?" 74 "file size limit: exit 74"
grep -q "fz.db: .*error" fz.err && ok || not_ok "file size limit: no located message"
q db check --db fz.db
expect_rc 0 "database intact after the full disk"

# Shards: 3 shards into 3 databases, merged, hold exactly the single run.
for i in 0 1 2; do
    q -q generate $ARGS --shard $i/3 --db shard$i.db
    expect_rc 0 "shard $i/3"
    cp out shard$i.jsonl
done
# each shard's summary counts the records that shard wrote (its indices
# i mod 3), and the three add up to the run's 20000; so does its line on
# stderr, and a shard written only to standard output
py_checks shard0.jsonl shard1.jsonl shard2.jsonl <<'PY'
import json, sys
total = 0
for i, path in enumerate(sys.argv[1:]):
    recs = [json.loads(l) for l in open(path)]
    puz = [r for r in recs if r["type"] == "puzzle"]
    total += len(puz)
    print("ok" if all(r["index"] % 3 == i for r in puz) else "not ok: shard %d: an index not %d mod 3" % (i, i))
    s = recs[-1]
    print("ok" if s["type"] == "summary" and s["emitted"] == len(puz) else
          "not ok: shard %d: summary emitted %s, %d records written" % (i, s.get("emitted"), len(puz)))
print("ok" if total == 20000 else "not ok: the shards wrote %d records, not 20000" % total)
PY
q generate "$R/classic-3x3.yaml" -n 6 --seed 1 --shard 0/2
expect_rc 0 "a shard to standard output"
expect_eq "$(grep -c '"type":"puzzle"' out)" 3 "shard 0/2 of 6 from a 3x3 writes indices 0, 2, 4"
expect_eq "$(tail -n 1 out | python3 -c 'import json,sys; print(json.load(sys.stdin)["emitted"])')" 3 "its summary: emitted 3"
expect_err "quench: 3 puzzles from 6 draws" "its line on stderr: 3 puzzles"
q db merge merged.db shard0.db shard1.db shard2.db
expect_rc 0 "merge the shards"
dump merged.db >merged.txt
if cmp -s merged.txt ref.txt; then ok; else not_ok "merged shards differ from the single run"; fi
expect_eq "$(dump shard1.db | awk '$1 % 3 != 1' | wc -l | tr -d ' ')" 0 "shard 1 holds only indices 1 mod 3"
# a finished shard asked again (a Slurm array submitted again) is printed
# from its database, which is not written: the bytes it printed the first
# time, and the file as it was
cp shard1.db shard1.before
q generate $ARGS --shard 1/3 --db shard1.db
expect_rc 0 "a finished shard asked again"
expect_err "puzzles of finished run 1, from the database" "read from the database, not replayed"
cmp -s shard1.db shard1.before && ok || not_ok "the finished shard's database was written"
cmp -s out shard1.jsonl && ok || not_ok "a finished shard prints what it printed"
# a shard killed and resumed still holds exactly its part
rm -f s1.db*
"$QUENCH" -q generate $ARGS --shard 1/3 --db s1.db >/dev/null 2>&1 &
pid=$!
sleep 0.2
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
q -q generate $ARGS --shard 1/3 --db s1.db
expect_rc 0 "resume a killed shard"
if dump s1.db | cmp -s - "$(dump shard1.db >s1ref.txt; echo s1ref.txt)"; then ok; else not_ok "resumed shard differs"; fi
q generate $ARGS --shard 3/3
expect_rc 64 "shard index out of range"

# --pack gathers the new puzzles, in order.
q -q generate "$R/classic-5x5.yaml" -n 25 --seed 5 --db packs.db --pack starter
expect_rc 0 "generate into a pack"
q pack show starter --db packs.db --json
expect_rc 0 "pack show"
expect_eq "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(len(j["puzzles"]))' "$TMP/out" 2>/dev/null)" 25 "pack holds 25"
q generate "$R/classic-5x5.yaml" -n 5 --pack p
expect_rc 64 "--pack without --db"

# Two generators writing to one database at once both succeed. Each waits
# for the other's batches; the generous timeout keeps a slow machine (the
# sanitizer build under load) from turning a wait into a refusal (75).
QUENCH_BUSY_TIMEOUT=120000
export QUENCH_BUSY_TIMEOUT
"$QUENCH" -q generate "$R/classic-7x7.yaml" -n 5000 --seed 1 --batch 200 --db two.db >/dev/null 2>e1 &
p1=$!
"$QUENCH" -q generate "$R/classic-7x7.yaml" -n 5000 --seed 2 --batch 200 --db two.db >/dev/null 2>e2 &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
unset QUENCH_BUSY_TIMEOUT
expect_eq "$r1 $r2" "0 0" "concurrent writers both succeed"
expect_eq "$(python3 -c "import sqlite3; print(sqlite3.connect('two.db').execute('SELECT count(*) FROM puzzles').fetchone()[0])")" 10000 "both runs stored (distinct seeds)"

# A rule read from standard input is stored as it was read (it cannot be
# read a second time): the stored text is the file, and the pack exports.
qin "$R/classic-3x3.yaml" generate - -n 2 --seed 3 --db in.db --pack stdin
expect_rc 0 "generate from standard input into a database"
python3 -c "import sqlite3,sys; sys.stdout.write(sqlite3.connect('in.db').execute('SELECT yaml FROM rules').fetchone()[0])" >stored.yaml
cmp -s stored.yaml "$R/classic-3x3.yaml" && ok ||
    not_ok "the stored rule text is not the file read from standard input"
q export stdin --db in.db --format json -o in.json
expect_rc 0 "export of a pack whose rule came from standard input"

done_testing
