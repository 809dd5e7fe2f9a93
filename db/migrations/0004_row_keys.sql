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
-- Every row's id is computed again first, in C (store_migrate.c): the
-- key refuses a duplicate only if each id is its puzzle's, and an older
-- quench stored a library caller's id unchecked (or sqlite3 left none).
--
-- A state and a witness are packed like the canonical key (ceil(log2 k)
-- bits a cell, LSB first: 7 bytes for a 7x7 board of 2 colours instead
-- of 55 characters), and the board's shape is kept once a rule, as
-- rules.layout: the text of its all-zero state ('0' a cell, '.' a hole,
-- '/' between rows), which the store fills in to write a row's texts. An
-- old rule's layout comes from one of its stored states (quench_layout),
-- and each row is packed by it (quench_pack): both are C functions that
-- store_migrate.c registers for this migration, and a state or witness
-- that does not fit its rule's board or colours fails the migration,
-- naming the row (so does a row whose rule is gone: the LEFT JOIN keeps
-- it for quench_pack to refuse, rather than drop it). A rule without
-- puzzles gets its layout the next time it is stored. The provenance is a
-- code: 0 generate, 1 validate, 2 import (SQLite stores 0 and 1 in the
-- record header alone; BETWEEN, not IN (0, 1, 2), which SQLite builds
-- into a temporary table for every inserted row).
--
-- SQLite cannot change a table's constraints in place: the table is
-- rebuilt with its ids. The membership that references it is set aside
-- and put back (foreign keys stay on in a transaction, and a puzzle in a
-- pack cannot be deleted, not even by DROP TABLE).
ALTER TABLE rules ADD COLUMN layout TEXT;
UPDATE rules SET layout = quench_layout((SELECT p.state FROM puzzles p
    WHERE p.rule_id = rules.id ORDER BY p.id LIMIT 1));

CREATE TEMP TABLE m4_members AS
    SELECT rowid AS r, pack_id, puzzle_id, position FROM pack_puzzles;
DELETE FROM pack_puzzles;

CREATE TABLE puzzles_v4 (
    id           INTEGER PRIMARY KEY,
    rule_id      INTEGER NOT NULL REFERENCES rules(id),
    state        BLOB NOT NULL,          -- packed as canon
    canon        BLOB NOT NULL,
    min_presses  INTEGER NOT NULL CHECK (min_presses >= 0),
    optimal      INTEGER NOT NULL CHECK (optimal >= 0),
    witness      BLOB NOT NULL,          -- per-cell press counts, packed
    grade        TEXT,
    grader       TEXT NOT NULL DEFAULT '',
    seed         TEXT,                   -- batch seed, hex; '' = the run's
    stream_index INTEGER CHECK (stream_index >= 0),
    provenance   INTEGER NOT NULL        -- generate, validate, import
                 CHECK (provenance BETWEEN 0 AND 2),
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
    SELECT p.id, p.rule_id,
        quench_pack(p.id, 'state', p.state, r.layout, r.cells, r.colours),
        p.canon, p.min_presses, p.optimal,
        quench_pack(p.id, 'witness', p.witness, r.layout, r.cells,
                    r.colours),
        p.grade, p.grader,
        CASE WHEN p.seed = '' THEN NULL
             WHEN p.seed = (SELECT r.seed FROM runs r WHERE r.id = p.run_id)
             THEN '' ELSE p.seed END,
        p.stream_index,
        CASE p.provenance WHEN 'generate' THEN 0 WHEN 'validate' THEN 1
             ELSE 2 END,
        p.run_id, p.uid, p.submission, p.source, p.meta
    FROM puzzles p LEFT JOIN rules r ON r.id = p.rule_id ORDER BY p.id;

DROP TABLE puzzles;
ALTER TABLE puzzles_v4 RENAME TO puzzles;

INSERT INTO pack_puzzles (rowid, pack_id, puzzle_id, position)
    SELECT r, pack_id, puzzle_id, position FROM temp.m4_members ORDER BY r;
DROP TABLE temp.m4_members;
