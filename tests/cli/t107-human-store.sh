#!/bin/sh
# t107: the human grade in the store (issue #33, migration 0006): a
# database of schema 5 (tests/golden/store-v5, written by 569637b)
# migrates, its old rows keep a NULL grade (exports write null, `show`
# grades on demand), a replayed run prints what a fresh run prints, and
# new rows carry the level and score generate wrote, through pack show,
# every export, import and db merge. Levels are checked against a Python
# brute force of classic 3x3 (the definitions of docs/GENERATE.md).
. "$(dirname "$0")/lib.sh"
R=$TOP/rules
C3=$R/classic-3x3.yaml
C5=$R/classic-5x5.yaml
DB=$TMP/v5.db
cp "$TOP/tests/golden/store-v5/v5.db" "$DB"

q db migrate --db "$DB"
expect_rc 0 "db migrate of a schema-5 database"
expect_out "schema version 5 -> $SCHEMA" "migrate says 5 -> $SCHEMA"
q db check --db "$DB"
expect_rc 0 "db check after the migration"
expect_eq "$(sqlite3 "$DB" "SELECT count(*) FROM puzzles WHERE human_level IS NULL AND human_score IS NULL AND human_model IS NULL")" 42 \
    "the 42 old rows have no grade"
q export old --db "$DB" --format json -o old.json
expect_rc 0 "export of the old pack"
expect_eq "$(python3 -c "
import json
d = json.load(open('old.json'))
print(all(p['human_level'] is None and p['human_score'] is None and
          p['human_model_version'] is None for p in d['puzzles']), len(d['puzzles']))")" "True 30" \
    "old puzzles export a null grade"
id=$(python3 -c "import json; print(json.load(open('old.json'))['puzzles'][0]['id'])")
q show "$id" --db "$DB"
expect_rc 0 "show an old puzzle"
case $(cat "$TMP/out") in
*"human level: "*"human score: "*"(model 1)"*) ok ;;
*) not_ok "show grades an old puzzle on demand: $(cat "$TMP/out")" ;;
esac

# the finished 5x5 run, replayed from the old rows, prints what a fresh
# run of the same command prints (levels and scores included)
q -q generate -n 12 --seed 42 --batch 4 --db "$DB" "$C5"
expect_rc 0 "replay of the old run"
grep '"type":"puzzle"' "$TMP/out" >replay.jsonl
q -q generate -n 12 --seed 42 --batch 4 --db fresh.db "$C5"
grep '"type":"puzzle"' "$TMP/out" >fresh.jsonl
cmp -s replay.jsonl fresh.jsonl && ok || not_ok "replayed old rows print the fresh run's records"
grep -q '"human_level":"' replay.jsonl && ok || not_ok "the replay has levels"

# new rows: generate --db stores what it prints
q -q generate -n 40 --seed 43 --db "$DB" --pack new "$C3"
expect_rc 0 "generate into the migrated database"
grep '"type":"puzzle"' "$TMP/out" >new.jsonl
# the human grade moved the grader version: the new rows are graded by a
# later version than the schema-5 rows, whose stored version stays
expect_eq "$(sqlite3 "$DB" "SELECT count(*) FROM puzzles WHERE human_level IS NULL AND grader = '2'")" 42 \
    "the old rows keep grader version 2"
expect_eq "$(sqlite3 "$DB" "SELECT count(*), min(CAST(grader AS INTEGER) > 2) FROM puzzles WHERE human_level IS NOT NULL AND grade <> ''")" "40|1" \
    "the new rows' grader version is past 2"
q pack show new --db "$DB" --json
expect_rc 0 "pack show --json"
expect_eq "$(python3 -c "
import json, sys
recs = {d['id']: d for d in map(json.loads, open('new.jsonl'))}
show = json.load(open(sys.argv[1]))
rows = show['puzzles'] if isinstance(show, dict) else show
bad = [p['id'] for p in rows if (p['human_level'], p['human_level_number'], p['human_score'])
       != (recs[p['id']]['human_level'], recs[p['id']]['human_level_number'], recs[p['id']]['human_score'])
       or p['human_model_version'] != 1]
print(len(rows), bad)" "$TMP/out")" "40 []" "pack show --json: generate's grades"
q pack show new --db "$DB"
case $(cat "$TMP/out") in
*"human "*" (model "*) ;;
*"       human "*", model 1"*) ok ;;
*) not_ok "pack show names the grade: $(head -5 "$TMP/out")" ;;
esac

# the levels against the brute force, through the json export
q export new --db "$DB" --format json -o new.json
expect_rc 0 "export json"
cat >ref3.py <<'PY'
import itertools, json, sys
n, w = 9, 3
def foot(j):
    r, c = divmod(j, w)
    return {j} | {(r + dr) * w + c + dc for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                  if 0 <= r + dr < 3 and 0 <= c + dc < 3}
F = [foot(j) for j in range(n)]
def press(s, j):
    s = list(s)
    for c in F[j]: s[c] ^= 1
    return tuple(s)
best, plans = {}, {}
for x in itertools.product((0, 1), repeat=n):
    s = (0,) * n
    for j in range(n):
        if x[j]: s = press(s, j)
    if s not in best or sum(x) < best[s]: best[s], plans[s] = sum(x), [x]
    elif sum(x) == best[s]: plans[s].append(x)
def rows(side):
    R = [[r * 3 + c for c in range(3)] for r in range(3)]
    C = [[r * 3 + c for r in range(3)] for c in range(3)]
    return [R, R[::-1], C, C[::-1]][side]
def chase(s, side):
    rw = rows(side)
    for a, b in zip(rw, rw[1:]):
        for c, p in zip(a, b):
            if s[c]: s = press(s, p)
    return s
def level(s):
    if any(all(not (F[i] & F[j]) for i in range(n) for j in range(i) if x[i] and x[j])
           for x in plans[s]): return "spot"
    if any(not any(chase(s, sd)) for sd in range(4)): return "chase"
    for sd in range(4):
        for y in itertools.product((0, 1), repeat=3):
            t = chase(s, sd)
            for c, v in zip(rows(sd)[0], y):
                if v: t = press(t, c)
            if not any(chase(t, sd)): return "table"
    return "global"
d = json.load(open(sys.argv[1]))
bad = [p['id'] for p in d['puzzles'] if p['human_level'] != level(tuple(p['state']))]
print(len(d['puzzles']), bad)
PY
expect_eq "$(python3 ref3.py new.json)" "40 []" "exported levels match the brute force"
q export new --db "$DB" --format jsonl -o new.jsonl.out
expect_eq "$(python3 -c "
import json
a = {p['id']: p['human_score'] for p in json.load(open('new.json'))['puzzles']}
b = {d['id']: d['human_score'] for d in map(json.loads, open('new.jsonl.out')) if d.get('record') == 'puzzle'}
print(a == b and len(b))")" 40 "jsonl carries the json's scores"
q export new --db "$DB" --format csv -o new.csv
expect_eq "$(python3 -c "
import csv, json
a = {p['id']: (p['human_level'], str(p['human_score']), str(p['human_model_version'])) for p in json.load(open('new.json'))['puzzles']}
rows = list(csv.DictReader(open('new.csv', newline='')))
print(all(a[r['id']] == (r['human_level'], r['human_score'], r['human_model_version']) for r in rows) and len(rows))")" 40 \
    "csv columns human_level, human_score, human_model_version"
q export old --db "$DB" --format csv -o old.csv
expect_eq "$(python3 -c "
import csv
rows = list(csv.DictReader(open('old.csv', newline='')))
print(all(r['human_level'] == r['human_score'] == r['human_model_version'] == '' for r in rows))")" True \
    "csv: empty fields for no grade"

# import keeps the grade and checks the level; merge carries it
q import new.json --db imp.db --pack again
expect_rc 0 "import of a graded pack"
q export again --db imp.db --format json -o again.json
expect_eq "$(python3 -c "
import json
k = lambda f: sorted((p['id'], p['human_level'], p['human_score']) for p in json.load(open(f))['puzzles'])
print(k('new.json') == k('again.json'))")" True "import keeps every grade"
python3 -c "
import json
d = json.load(open('new.json'))
p = d['puzzles'][0]
p['human_level'] = {'spot': 'global'}.get(p['human_level'], 'spot')
p['human_level_number'] = {'spot': 0, 'global': 3}[p['human_level']]
json.dump(d, open('forged.json', 'w'))"
q import forged.json --db forged.db --pack f
expect_rc 65 "import refuses a forged level"
case $(cat "$TMP/err") in
*"human_level is "*", quench computes "*) ok ;;
*) not_ok "forged level message: $(cat "$TMP/err")" ;;
esac
q db merge merged.db "$DB"
expect_rc 0 "db merge"
expect_eq "$(sqlite3 merged.db "SELECT count(*) FROM puzzles WHERE human_level IS NOT NULL")" \
    "$(sqlite3 "$DB" "SELECT count(*) FROM puzzles WHERE human_level IS NOT NULL")" \
    "merge carries the grades"

# validate --into stores the verdict's grade
printf '010/111/010\n111/111/111\n' >subs.txt
q validate "$C3" subs.txt --db v.db --into subs --json
expect_rc 0 "validate --into"
expect_eq "$(sqlite3 v.db "SELECT group_concat(human_level || ':' || human_score, ' ') FROM (SELECT * FROM puzzles ORDER BY id)")" \
    "0:1740 2:4120" "validate --into: levels and scores (by hand: one press 1.5+0.08+0.05+0.05+0.06; all lit 1.5+1.4+0.4+0.09+0.05+0.18, table log2 8 x 0.1, a 5-press chase + 4 presses for pattern and second chase x 0.05)"
done_testing
