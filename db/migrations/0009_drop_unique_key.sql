-- 0009_drop_unique_key.sql: the key runs hold the puzzles' uniqueness
-- (issue #35 section 1; docs/STORE-KEYRUNS.md, docs/STORE.md "Schema
-- (migration 0009)"). Applied inside the one migration transaction of
-- src/store/store_migrate.c.
--
-- Until now UNIQUE (uid, rule_id, canon) refused a second copy of a
-- puzzle: a B-tree keyed by a hash, which every batch touched at nearly
-- every leaf, and the key stored twice (row and index), 29 + 17 bytes a
-- puzzle of the 103 a 7x7 one took. Since 0008 every row's (puzzle id,
-- row) is in a key run of its rule, and the store probes the rule's id
-- set before each insert (src/store/store_unique.c), resolving a hit by
-- the canonical form of the stored state. So the key, the `uid` column
-- (the runs hold each row's id; a reader computes it from the state)
-- and the `canon` column (the state gives it back through the rule's
-- symmetries) all go. Nothing else changes: the same columns in the
-- same order otherwise, every CHECK, the same row ids; the membership
-- that references the table is set aside and put back, as in 0004 and
-- 0007.
CREATE TEMP TABLE m9_members AS
    SELECT rowid AS r, pack_id, puzzle_id, position, slot, section
    FROM pack_puzzles;
DELETE FROM pack_puzzles;

CREATE TABLE puzzles_v9 (
    id           INTEGER PRIMARY KEY,
    rule_id      INTEGER NOT NULL REFERENCES rules(id),
    state        BLOB NOT NULL,          -- packed (store_cells.c)
    min_presses  INTEGER NOT NULL CHECK (min_presses >= 0),
    optimal      INTEGER NOT NULL CHECK (optimal >= 0),
    witness      BLOB NOT NULL,          -- per-cell press counts, packed
    grade        INTEGER REFERENCES grades(id), -- NULL: no grade
    grader       TEXT NOT NULL DEFAULT '',
    seed         TEXT,                   -- batch seed, hex; '' = the run's
    stream_index INTEGER CHECK (stream_index >= 0),
    provenance   INTEGER NOT NULL        -- generate, validate, import
                 CHECK (provenance BETWEEN 0 AND 2),
    run_id       INTEGER REFERENCES runs(id),
    submission   TEXT,
    source       TEXT,
    meta         TEXT,
    human_level  INTEGER CHECK (human_level BETWEEN 0 AND 3), -- 0006
    human_score  INTEGER,
    human_model  INTEGER CHECK (human_model >= 1)
) STRICT;

INSERT INTO puzzles_v9 (id, rule_id, state, min_presses, optimal, witness,
        grade, grader, seed, stream_index, provenance, run_id, submission,
        source, meta, human_level, human_score, human_model)
    SELECT id, rule_id, state, min_presses, optimal, witness, grade,
        grader, seed, stream_index, provenance, run_id, submission, source,
        meta, human_level, human_score, human_model
    FROM puzzles ORDER BY id;

DROP TABLE puzzles;
ALTER TABLE puzzles_v9 RENAME TO puzzles;

-- the slot triggers of 0005 see kept slots (> 0): next_slot stays
INSERT INTO pack_puzzles (rowid, pack_id, puzzle_id, position, slot, section)
    SELECT r, pack_id, puzzle_id, position, slot, section
    FROM temp.m9_members ORDER BY r;
DROP TABLE temp.m9_members;
