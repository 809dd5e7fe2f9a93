-- 0003_recipes.sql: packs built from a recipe (issue #20, docs/CAMPAIGNS.md).
-- A pack built by `quench pack build` keeps the recipe's text and its
-- BLAKE2b-256 hash, so the database says how to rebuild the pack and a
-- rebuild of an unchanged recipe can see that nothing is to be done.
ALTER TABLE packs ADD COLUMN recipe TEXT;
ALTER TABLE packs ADD COLUMN recipe_hash TEXT
    CHECK (recipe_hash IS NULL OR length(recipe_hash) = 64);
