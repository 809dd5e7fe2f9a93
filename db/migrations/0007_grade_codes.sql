-- 0007_grade_codes.sql: a puzzle's grade as a code (issue #35 section 1;
-- docs/STORE.md, "Schema (migration 0007)"). Applied inside the one
-- migration transaction of src/store/store_migrate.c.
--
-- Every row repeated its tier's name ('easy', 'medium', ..., or a rule's
-- own tier name from its YAML tiers:), 5 or 6 bytes a puzzle; it now
-- keeps a small integer (1 byte) naming a row of grades. The five
-- default tiers have fixed ids 1..5 in the order of
-- src/generate/distrib_tiers.c, equal in every database, so a writer
-- needs no SQL for them and db merge copies them as they are; any other
-- name is appended when it is first stored (here: in the order of the
-- first row that holds it). NULL stays NULL: no grade.
--
-- SQLite cannot change a STRICT column's type in place: the table is
-- rebuilt with its ids, its columns in the same order (readers and
-- db merge name them, a few tools read them by place), with 0006's
-- columns and every CHECK and the UNIQUE key as they were. The
-- membership that references it is set aside and put back, as in 0004.
CREATE TABLE grades (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
) STRICT;
INSERT INTO grades (id, name) VALUES
    (1, 'easy'), (2, 'medium'), (3, 'hard'), (4, 'expert'), (5, 'master');
INSERT INTO grades (name)
    SELECT grade FROM puzzles
    WHERE grade IS NOT NULL AND grade NOT IN (SELECT name FROM grades)
    GROUP BY grade ORDER BY min(id);

CREATE TEMP TABLE m7_members AS
    SELECT rowid AS r, pack_id, puzzle_id, position, slot, section
    FROM pack_puzzles;
DELETE FROM pack_puzzles;

CREATE TABLE puzzles_v7 (
    id           INTEGER PRIMARY KEY,
    rule_id      INTEGER NOT NULL REFERENCES rules(id),
    state        BLOB NOT NULL,          -- packed as canon
    canon        BLOB NOT NULL,
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
    uid          INTEGER NOT NULL,       -- the puzzle id (0002)
    submission   TEXT,
    source       TEXT,
    meta         TEXT,
    human_level  INTEGER CHECK (human_level BETWEEN 0 AND 3), -- 0006
    human_score  INTEGER,
    human_model  INTEGER CHECK (human_model >= 1),
    UNIQUE (uid, rule_id, canon)
) STRICT;

INSERT INTO puzzles_v7 (id, rule_id, state, canon, min_presses, optimal,
        witness, grade, grader, seed, stream_index, provenance, run_id, uid,
        submission, source, meta, human_level, human_score, human_model)
    SELECT p.id, p.rule_id, p.state, p.canon, p.min_presses, p.optimal,
        p.witness, g.id, p.grader, p.seed, p.stream_index, p.provenance,
        p.run_id, p.uid, p.submission, p.source, p.meta, p.human_level,
        p.human_score, p.human_model
    FROM puzzles p LEFT JOIN grades g ON g.name = p.grade ORDER BY p.id;

DROP TABLE puzzles;
ALTER TABLE puzzles_v7 RENAME TO puzzles;

-- the slot triggers of 0005 see kept slots (> 0): next_slot stays
INSERT INTO pack_puzzles (rowid, pack_id, puzzle_id, position, slot, section)
    SELECT r, pack_id, puzzle_id, position, slot, section
    FROM temp.m7_members ORDER BY r;
DROP TABLE temp.m7_members;
