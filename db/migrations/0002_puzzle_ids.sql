-- 0002_puzzle_ids.sql: one puzzle identity, and provenance (issue #19;
-- docs/STORE.md, "Schema (migration 0002)"). Applied inside one
-- transaction by src/store/store_migrate.c, which then computes the id
-- of every stored puzzle (the id needs the rule's key and the canonical
-- cells: C, not SQL) before the commit.

-- The puzzle id (puzzle_id.h): 64 bits, stored as the signed integer with
-- the same bits, so printf('%016x', uid) in sqlite3 spells the id.
ALTER TABLE puzzles ADD COLUMN uid INTEGER;
CREATE INDEX puzzles_uid ON puzzles(uid);

-- Where an accepted submission came from (validate --into): the
-- submission's own id, "FILE:LINE" of its record, and the fields of the
-- record quench does not read, as a JSON object. NULL for other puzzles.
ALTER TABLE puzzles ADD COLUMN submission TEXT;
ALTER TABLE puzzles ADD COLUMN source TEXT;
ALTER TABLE puzzles ADD COLUMN meta TEXT;

-- The generator run family that built a pack ("" for packs made by
-- hand): while a pack holds only that build's puzzles in its order
-- (version 1), its shards merge into the single run's pack.
ALTER TABLE packs ADD COLUMN build TEXT NOT NULL DEFAULT '';

-- A finished generator run's summary record, printed again when the same
-- command is run again (the records come from the puzzles table).
ALTER TABLE runs ADD COLUMN summary TEXT;

-- The requested count leaves a generator run's resume key (the same
-- command with a larger -n extends the run instead of starting another),
-- and the key holds --max-draws as given: 0 where it was the default
-- computed from the count (count * 1000 + 1000000).
UPDATE runs SET options = replace(options, ' max_draws=' ||
        (CAST(substr(options, 7, instr(options, ' ') - 7) AS INTEGER) * 1000
         + 1000000) || ' ', ' max_draws=0 ')
 WHERE command = 'generate' AND options LIKE 'count=% %';
UPDATE runs SET options = substr(options, instr(options, ' ') + 1)
 WHERE command = 'generate' AND options LIKE 'count=% %';
