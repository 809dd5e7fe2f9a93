-- 0006_human.sql: each puzzle's human grade (issue #33; docs/GENERATE.md
-- "The human ladder" and "The human score", docs/STORE.md). Applied
-- inside the one migration transaction of src/store/store_migrate.c.
--
-- human_level is the technique ladder's rung (0 spot, 1 chase, 2 table,
-- 3 global), human_score the human score model's prediction in
-- thousandths (7680 is 7.680), human_model the version of that model.
-- All three are NULL together for a puzzle with no grade: one stored
-- before this migration (existing rows are not regraded: `quench show`
-- grades a stored puzzle on demand; exports write null), or one whose
-- level is not decided (more than 1024 optimal plans). Small integers:
-- a graded row grows by 4 to 6 bytes.
ALTER TABLE puzzles ADD COLUMN human_level INTEGER
    CHECK (human_level BETWEEN 0 AND 3);
ALTER TABLE puzzles ADD COLUMN human_score INTEGER;
ALTER TABLE puzzles ADD COLUMN human_model INTEGER
    CHECK (human_model >= 1);
