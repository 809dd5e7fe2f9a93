-- 0004_row_keys.sql: the puzzle row at generation speed (issue #24;
-- docs/STORE.md, "Schema (migration 0004)"). Applied inside the one
-- migration transaction of src/store/store_migrate.c.
--
-- A stored puzzle cost four B-trees: the table, UNIQUE (rule_id, canon),
-- puzzles_uid and puzzles_run. The two keyed by a hash or a canonical
-- form take their inserts in random order, so every batch rewrote most of
-- their pages (a million 7x7 puzzles wrote ~5 GB of WAL for a 294 MB
-- file). Now one index does both jobs: the puzzle id is a function of
-- the rule's hash and the canonical key (docs/STORE.md, "Puzzle ids"),
-- which qn_store_put_puzzle computes itself, so UNIQUE (uid, rule_id,
-- canon) refuses exactly the duplicates UNIQUE (rule_id, canon) refused,
-- and its leading uid serves lookups by id and prefix. puzzles_run goes:
-- a run's rows are read back whole (a scan), never one by one.
--
-- A generator puzzle's seed is its run's: the row keeps '' for "the
-- run's seed" instead of 64 hex digits (readers join it back), NULL
-- still meaning none (an old row's '' meant none too: it becomes NULL).
-- Every row has an id (a row an older quench or sqlite3 left without one
-- gets it first, in C: store_migrate.c).
--
-- SQLite cannot change a table's constraints in place: the table is
-- rebuilt with its ids. The membership that references it is set aside
-- and put back (foreign keys stay on in a transaction, and a puzzle in a
-- pack cannot be deleted, not even by DROP TABLE).
CREATE TEMP TABLE m4_members AS
    SELECT rowid AS r, pack_id, puzzle_id, position FROM pack_puzzles;
DELETE FROM pack_puzzles;

CREATE TABLE puzzles_v4 (
    id           INTEGER PRIMARY KEY,
    rule_id      INTEGER NOT NULL REFERENCES rules(id),
    state        TEXT NOT NULL,
    canon        BLOB NOT NULL,
    min_presses  INTEGER NOT NULL CHECK (min_presses >= 0),
    optimal      INTEGER NOT NULL CHECK (optimal >= 0),
    witness      TEXT NOT NULL,          -- per-cell press counts, state text
    grade        TEXT,
    grader       TEXT NOT NULL DEFAULT '',
    seed         TEXT,                   -- batch seed, hex; '' = the run's
    stream_index INTEGER CHECK (stream_index >= 0),
    provenance   TEXT NOT NULL
                 CHECK (provenance IN ('generate', 'validate', 'import')),
    run_id       INTEGER REFERENCES runs(id),
    uid          INTEGER NOT NULL,       -- the puzzle id (0002)
    submission   TEXT,
    source       TEXT,
    meta         TEXT,
    UNIQUE (uid, rule_id, canon)
) STRICT;

INSERT INTO puzzles_v4 (id, rule_id, state, canon, min_presses, optimal,
        witness, grade, grader, seed, stream_index, provenance, run_id, uid,
        submission, source, meta)
    SELECT p.id, p.rule_id, p.state, p.canon, p.min_presses, p.optimal,
        p.witness, p.grade, p.grader,
        CASE WHEN p.seed = '' THEN NULL
             WHEN p.seed = (SELECT r.seed FROM runs r WHERE r.id = p.run_id)
             THEN '' ELSE p.seed END,
        p.stream_index, p.provenance, p.run_id, p.uid, p.submission,
        p.source, p.meta
    FROM puzzles p ORDER BY p.id;

DROP TABLE puzzles;
ALTER TABLE puzzles_v4 RENAME TO puzzles;

INSERT INTO pack_puzzles (rowid, pack_id, puzzle_id, position)
    SELECT r, pack_id, puzzle_id, position FROM temp.m4_members ORDER BY r;
DROP TABLE temp.m4_members;
