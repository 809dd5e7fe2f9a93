#!/bin/sh
# t568: db migrate gives a migration's free pages back (qn_store_compact).
# A migration that rebuilds the puzzles table leaves the old one's pages
# free inside the file (a migrated database was twice its size: stop 45).
# The sizes are read with sqlite3 (page_count, freelist_count) and stat,
# apart from quench; every row is compared with sqlite3 before and after.
. "$(dirname "$0")/lib.sh"

C5=$TOP/rules/classic-5x5.yaml
pages() { sqlite3 "$1" "PRAGMA page_count"; }
free_pages() { sqlite3 "$1" "PRAGMA freelist_count"; }
page_size() { sqlite3 "$1" "PRAGMA page_size"; }
fsize() { wc -c <"$1" | tr -d ' '; }
# every row that matters, in a fixed order (pack members with their rowid)
rows() {
    sqlite3 "$1" "SELECT * FROM puzzles ORDER BY id;
      SELECT rowid, * FROM pack_puzzles ORDER BY rowid;
      SELECT * FROM key_runs ORDER BY id; SELECT * FROM runs ORDER BY id;
      SELECT * FROM rules ORDER BY id; SELECT * FROM packs ORDER BY id"
}

# free_up DB: free pages made apart from quench, a table of 800 KB dropped
free_up() {
    sqlite3 "$1" "CREATE TABLE junk (b BLOB);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
      INSERT INTO junk SELECT randomblob(2000) FROM n; DROP TABLE junk;
      PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
}

# --- 1. a file with few free pages is left alone ---------------------------
cp "$TOP/tests/golden/store-v8/v8.db" v8.db
q db migrate --db v8.db --json
expect_rc 0 "db migrate of the schema-8 golden file"
free=$(free_pages v8.db)
expect_eq "$((free * 4 < $(pages v8.db)))" 1 "the golden file is less than a quarter free ($free pages)"
py_out 'j["bytes_before"] == j["bytes_after"] == '"$(fsize v8.db)" "True" \
    "a file under a quarter free is left alone, its size said"

# --- 2. a quarter free or more: compacted, every row kept ------------------
q -q generate "$C5" -n 3000 --seed 5 --db big.db --pack p
expect_rc 0 "generate 3000 puzzles into a pack"
# free pages made apart from quench: a table as large as the file, dropped
free_up big.db
rows big.db >before.txt
total=$(pages big.db)
free=$(free_pages big.db)
ps=$(page_size big.db)
expect_eq "$((free * 4 >= total))" 1 "sqlite3 made the file a quarter free or more"
q db migrate --db big.db --json
expect_rc 0 "db migrate of an up-to-date file with free pages"
py_out 'j["bytes_before"]' "$((total * ps))" "bytes_before: sqlite3's page_count x page_size"
py_out 'j["bytes_after"]' "$(fsize big.db)" "bytes_after: the file's size"
expect_eq "$(free_pages big.db)" 0 "no free page left"
expect_eq "$(pages big.db)" "$((total - free))" "the file lost exactly its free pages"
rows big.db >after.txt
cmp -s before.txt after.txt && ok || not_ok "a row changed in the compaction"
q db check --db big.db
expect_rc 0 "db check after the compaction"
q db migrate --db big.db
expect_rc 0 "db migrate again"
expect_out "schema version $SCHEMA, up to date" "up to date"
grep -q compacted out && not_ok "a compact file compacted again" || ok

# --- 3. no room for the copy: exit 74, the file as it was ------------------
q -q generate "$C5" -n 3000 --seed 6 --db full.db
free_up full.db
rows full.db >before.txt
free=$(free_pages full.db)
(ulimit -f $(($(fsize full.db) / 1024 / 4)); "$QUENCH" db migrate --db full.db >/dev/null 2>full.err)
expect_eq "$?" 74 "no room to compact: exit 74"
grep -q "full.db: .*compacting: .*migrated, and whole" full.err && ok ||
    not_ok "no room to compact: message '$(cat full.err)'"
rows full.db >after.txt
cmp -s before.txt after.txt && ok || not_ok "a failed compaction changed a row"
expect_eq "$(free_pages full.db)" "$free" "a failed compaction left the free pages as they were"
q db check --db full.db
expect_rc 0 "db check after the failed compaction"
q db migrate --db full.db
expect_rc 0 "db migrate with room compacts"
expect_eq "$(free_pages full.db)" 0 "compacted on the second try"

done_testing
