-- 0005_slots.sql: level slots and sections (issue #34; docs/STORE.md,
-- "Level slots"). Applied inside the one migration transaction of
-- src/store/store_migrate.c.
--
-- A member of a pack has a slot: a number unique in its pack, given when
-- the member is born (added to the pack) and never reused there, that a
-- game keys saves on. It follows its member through moves and sorts, is
-- kept when a build puts another puzzle in the member's place (the same
-- section, the same rank in it: a re-rolled level) or `pack replace`
-- swaps the puzzle, and is retired when the member is removed. The
-- pack's next_slot is the next number to give (above every slot it ever
-- gave). `section` is the recipe section the member came from ('' for a
-- member not built from a recipe).
--
-- An insert that leaves slot 0 gets the pack's next slot (the trigger),
-- so every writer that appends (generate --pack, pack add, validate
-- --into, db merge) births slots without knowing about them; an insert
-- with its own slot (a kept one, an import's) only moves next_slot past
-- it. The slots of existing packs are their positions.
ALTER TABLE packs ADD COLUMN next_slot INTEGER NOT NULL DEFAULT 1;
ALTER TABLE pack_puzzles ADD COLUMN slot INTEGER NOT NULL DEFAULT 0;
ALTER TABLE pack_puzzles ADD COLUMN section TEXT NOT NULL DEFAULT '';

UPDATE pack_puzzles SET slot = position;
UPDATE packs SET next_slot = 1 + coalesce((SELECT max(pp.slot)
    FROM pack_puzzles pp WHERE pp.pack_id = packs.id), 0);
CREATE UNIQUE INDEX pack_slots ON pack_puzzles(pack_id, slot);

CREATE TRIGGER pack_slot_birth AFTER INSERT ON pack_puzzles
    WHEN NEW.slot = 0 BEGIN
    UPDATE pack_puzzles SET slot = (SELECT next_slot FROM packs
        WHERE id = NEW.pack_id) WHERE rowid = NEW.rowid;
    UPDATE packs SET next_slot = next_slot + 1 WHERE id = NEW.pack_id;
END;
CREATE TRIGGER pack_slot_kept AFTER INSERT ON pack_puzzles
    WHEN NEW.slot > 0 BEGIN
    UPDATE packs SET next_slot = NEW.slot + 1
        WHERE id = NEW.pack_id AND next_slot <= NEW.slot;
END;
