-- 0008_key_runs.sql: the puzzles' ids kept in sorted runs (issue #35
-- section 1; docs/STORE-KEYRUNS.md, docs/STORE.md "Key runs"). Applied
-- inside the one migration transaction of src/store/store_migrate.c,
-- which then builds every rule's runs from its rows (C: the runs are
-- Rice-coded, src/store/keyrun.h).
--
-- Every row of puzzles has its (puzzle id, row id) in exactly one run of
-- its rule, written in the same transaction as the row: a committed
-- batch's new rows as one run (level 0), and at 64 level-0 runs a rule
-- all of its runs merged into pieces of at most 65,536 pairs with
-- disjoint key ranges (level 1). first_key and last_key are the
-- smallest and largest id of a run, as the signed integers with the same
-- bits (as puzzles.uid). The unique key (uid, rule_id, canon) still
-- holds the puzzles' uniqueness; the runs are what will hold it without
-- that B-tree (docs/STORE-KEYRUNS.md, "The flip"), and db check checks
-- them against the rows now.
CREATE TABLE key_runs (
    id        INTEGER PRIMARY KEY,
    rule_id   INTEGER NOT NULL REFERENCES rules(id),
    level     INTEGER NOT NULL CHECK (level IN (0, 1)),
    first_key INTEGER NOT NULL,
    last_key  INTEGER NOT NULL,
    count     INTEGER NOT NULL CHECK (count BETWEEN 1 AND 65536),
    keys      BLOB NOT NULL
) STRICT;
CREATE INDEX key_runs_rule ON key_runs(rule_id, level);
