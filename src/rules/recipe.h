/*
 * recipe.h: campaign recipes. A recipe is a YAML file that says how to
 * build a whole level pack reproducibly: the pack's name and texts, a
 * seed, how far apart its puzzles must be, and ordered sections, each a
 * rule file and how many puzzles of what kind. It is read by the rule
 * files' YAML reader (rules_yaml.c), with their limits and their
 * FILE:LINE:COL errors. This module reads and checks a recipe; it opens
 * no rule file and generates nothing: the builder does (docs/CAMPAIGNS.md
 * describes the format and the builder).
 */
#ifndef QN_RECIPE_H
#define QN_RECIPE_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/hash.h"
#include "base/rng.h"
#include "rules/rules.h"

/* The file limits (size 1 MiB, nesting, events) are QN_RULES_MAX_*. */
#define QN_RECIPE_MAX_SECTIONS 256
#define QN_RECIPE_MAX_PUZZLES 1000000 /* in a section and in the recipe */
#define QN_RECIPE_MAX_NAME                                                     \
    64                                 /* bytes in a pack or section name: the \
                                          store's QN_STORE_PACK_NAME_MAX */
#define QN_RECIPE_MAX_PATH 4096        /* bytes in a rules path as written */
#define QN_RECIPE_MAX_BOUND 1000000000 /* the largest number in a range */

typedef enum qn_recipe_dist {
    QN_RECIPE_SPREAD = 0, /* evenly across the press range (default) */
    QN_RECIPE_UNIFORM,    /* uniform over the solvable states in it */
} qn_recipe_dist;

/* An inclusive range of counts, written A..B, A.., ..B or N. */
typedef struct qn_recipe_range {
    uint64_t lo, hi; /* lo <= hi, 1 <= hi, each <= QN_RECIPE_MAX_BOUND
                        but hi = UINT64_MAX when unbounded (an absent lo
                        is 1); an absent key is 1..UINT64_MAX */
    qn_mark mark;    /* the value; 0, 0 when not given */
} qn_recipe_range;

typedef struct qn_recipe_tier {
    char *name;     /* a slug, as rule files' tier names; whether the rule
                       has it is the builder's check */
    uint64_t count; /* 1..QN_RECIPE_MAX_PUZZLES */
    qn_mark mark;   /* the tier's name in the file */
} qn_recipe_tier;

/*
 * A section: either a tiers form (ntiers >= 1, count 0) or a count form
 * (count >= 1, ntiers 0). Marks are 1-based file positions of the values
 * (0, 0 when the key is absent), so a builder can say where a section asks
 * for what cannot be made.
 */
typedef struct qn_recipe_section {
    char *name;       /* unique in the recipe; keys the random stream */
    char *rules;      /* the rules path as written */
    char *rules_path; /* the same, relative to the recipe's folder (what
                         the caller opens; never "-", which loaders read
                         as stdin: a file "-" is "./-") */
    qn_mark mark, name_mark, rules_mark;
    qn_recipe_tier *tiers; /* tiers form, in file order; NULL otherwise */
    size_t ntiers;
    qn_mark tiers_mark;
    uint64_t count; /* count form; 0 with tiers */
    qn_mark count_mark;
    qn_recipe_range presses;     /* count form only */
    qn_recipe_dist distribution; /* count form only */
    qn_mark distribution_mark;
    int unique_optimum; /* 0 or 1, default 0 */
    qn_mark unique_optimum_mark;
    qn_recipe_range lit; /* cells that differ from the goal */
    char *human_level;   /* `human-level:` as written (a level or a range
                            of them, human.h: the builder reads it), or
                            NULL for any level */
    qn_mark human_level_mark;
    uint64_t total; /* count, or the sum of the tiers' counts */
} qn_recipe_section;

/* A loaded recipe: read-only for the caller, freed with qn_recipe_free. */
typedef struct qn_recipe {
    char *source; /* the name in messages: the path, "<stdin>" or "" */
    char *pack;   /* the pack name: the store's pack-name rules */
    char *title, *description, *author; /* NULL when absent */
    qn_mark mark, pack_mark, title_mark, description_mark, author_mark;
    qn_seed seed;
    char seed_hex[65]; /* canonical: 64 lowercase hex digits */
    qn_mark seed_mark;
    uint64_t variety; /* 0..QN_RULES_MAX_CELLS, default 0 */
    qn_mark variety_mark;
    qn_recipe_section *sections; /* 1..QN_RECIPE_MAX_SECTIONS, in order */
    size_t nsections;
    qn_mark sections_mark;
    uint64_t total; /* puzzles over all sections, <= QN_RECIPE_MAX_PUZZLES */
    char *text;     /* the file's bytes as read, NUL-terminated */
    size_t len;     /* bytes in text, without the NUL */
    char hash[QN_HASH_HEX]; /* BLAKE2b-256 of text[0..len), lowercase hex */
} qn_recipe;

/*
 * Read and check the recipe at `path` ("-" reads standard input, named
 * "<stdin>"), or the `len` bytes at `text` (named `path` in messages;
 * NULL for ""). Relative rules paths are taken from the folder of `path`
 * (the current folder for "-", NULL or a path without a '/'). On success
 * *out is the caller's (qn_recipe_free). On failure *out is NULL, nothing
 * is left allocated, and err holds one diagnostic (source, 1-based line
 * and col):
 *   QN_ENOTFOUND the file cannot be opened (qn_file_open_read; line 0)
 *   QN_EIO       another open failure, or a failed read (line 0)
 *   QN_ESYNTAX   malformed YAML, a YAML feature quench refuses, bytes that
 *                are not UTF-8 text, or a file limit (QN_RULES_MAX_*)
 *   QN_EINVAL    well-formed YAML that breaks the recipe schema
 */
int qn_recipe_load(qn_recipe **out, const char *path, qn_err *err);
int qn_recipe_load_buf(qn_recipe **out, const char *text, size_t len,
                       const char *path, qn_err *err);

/* Free a recipe; NULL is a no-op. */
void qn_recipe_free(qn_recipe *r);

/*
 * The seed of section i's random stream (i < nsections), or of its tier
 * `tier` (one of its tier names; NULL for the section's own stream):
 * BLAKE2b-256 (unkeyed, 32 bytes) of the 24 bytes "quench-recipe-section-1"
 * and a NUL, the recipe seed (32 bytes, big-endian), then the section name
 * and the tier name (empty for NULL), each as its length in 4 bytes
 * little-endian and its bytes. So a section's puzzles depend on the
 * recipe seed and its own name only: renaming a section redraws it;
 * reordering sections, renaming the pack or editing another section does
 * not.
 */
void qn_recipe_section_seed(const qn_recipe *r, size_t i, const char *tier,
                            qn_seed *out);

#endif
