-- 0001_initial.sql: the first quench schema (see docs/STORE.md).
-- Applied inside one transaction by src/store_migrate.c, which then sets
-- PRAGMA user_version = 1. Every table is STRICT; foreign keys are
-- enforced on every connection.

-- One row per distinct rule set, keyed by its canonical content hash
-- (qn_rules_hash), so two files spelling the same rule share a row.
CREATE TABLE rules (
    id      INTEGER PRIMARY KEY,
    hash    TEXT NOT NULL UNIQUE CHECK (length(hash) = 64),
    name    TEXT NOT NULL,
    yaml    TEXT NOT NULL,               -- the rule file as loaded
    cells   INTEGER NOT NULL CHECK (cells > 0),
    colours INTEGER NOT NULL CHECK (colours BETWEEN 2 AND 255),
    facts   TEXT NOT NULL DEFAULT '',    -- e.g. "kernel=4 symmetry=D4"
    added   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

-- One row per command that wrote puzzles. `key` is random and globally
-- unique, so `db merge` copies a run once however often it is merged.
-- next_index is the resume point of a generator run: every stream index
-- below it was handled (stored, or a duplicate) in a committed batch.
CREATE TABLE runs (
    id           INTEGER PRIMARY KEY,
    key          TEXT NOT NULL UNIQUE,
    command      TEXT NOT NULL,
    rule_id      INTEGER REFERENCES rules(id),
    seed         TEXT NOT NULL DEFAULT '',
    options      TEXT NOT NULL DEFAULT '',
    tool_version TEXT NOT NULL,
    requested    INTEGER NOT NULL DEFAULT 0,
    stored       INTEGER NOT NULL DEFAULT 0,
    duplicates   INTEGER NOT NULL DEFAULT 0,
    next_index   INTEGER NOT NULL DEFAULT 0,
    started      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    finished     TEXT,
    status       TEXT NOT NULL DEFAULT 'running'
                 CHECK (status IN ('running', 'done', 'interrupted', 'failed'))
) STRICT;
CREATE INDEX runs_lookup ON runs(command, rule_id, seed, options);

-- Puzzles. canon is the canonical form under the rule's symmetries
-- (qn_canon_form), packed with qn_store_canon_pack: the UNIQUE constraint
-- refuses duplicates up to symmetry, whatever the caller believes.
CREATE TABLE puzzles (
    id           INTEGER PRIMARY KEY,
    rule_id      INTEGER NOT NULL REFERENCES rules(id),
    state        TEXT NOT NULL,
    canon        BLOB NOT NULL,
    min_presses  INTEGER NOT NULL CHECK (min_presses >= 0),
    optimal      INTEGER NOT NULL CHECK (optimal >= 0),
    witness      TEXT NOT NULL,          -- per-cell press counts, state text
    grade        TEXT,
    grader       TEXT NOT NULL DEFAULT '',
    seed         TEXT,                   -- batch seed, hex
    stream_index INTEGER CHECK (stream_index >= 0),
    provenance   TEXT NOT NULL
                 CHECK (provenance IN ('generate', 'validate', 'import')),
    run_id       INTEGER REFERENCES runs(id),
    UNIQUE (rule_id, canon)
) STRICT;
CREATE INDEX puzzles_run ON puzzles(run_id, stream_index);

CREATE TABLE packs (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 64),
    title       TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    author      TEXT NOT NULL DEFAULT '',
    version     INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    created     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    modified    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

-- Ordered membership: positions are 1..count, dense, one puzzle each.
-- A puzzle in a pack cannot be deleted (RESTRICT); deleting a pack drops
-- its membership (CASCADE).
CREATE TABLE pack_puzzles (
    pack_id   INTEGER NOT NULL REFERENCES packs(id) ON DELETE CASCADE,
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id) ON DELETE RESTRICT,
    position  INTEGER NOT NULL CHECK (position >= 1),
    PRIMARY KEY (pack_id, position),
    UNIQUE (pack_id, puzzle_id)
) STRICT; -- (not WITHOUT ROWID: SQLite 3.40 integrity_check misreports
         --  NOT NULL columns of STRICT WITHOUT ROWID tables)
CREATE INDEX pack_puzzles_puzzle ON pack_puzzles(puzzle_id);
