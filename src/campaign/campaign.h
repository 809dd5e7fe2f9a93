/*
 * campaign.h: a whole pack from a recipe (recipe.h, docs/CAMPAIGNS.md).
 * The pack is a pure function of the recipe and this quench: sections in
 * order, each section's puzzles the first ones of its own random stream
 * (qn_recipe_section_seed) that meet its target, are new up to symmetry
 * and lie at least the recipe's variety apart (qn_canon_distance) from
 * every puzzle of the same rule accepted before them; inside a section
 * they climb by minimal presses, ties in stream order (tier order, then
 * stream index). So a rebuild gives the same bytes, and editing one
 * section changes only that section, and a later one only where one of its
 * puzzles now lies too close to the edited section's.
 */
#ifndef QN_CAMPAIGN_H
#define QN_CAMPAIGN_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "generate/gen.h"
#include "rules/recipe.h"
#include "store/store.h"

typedef struct qn_campaign qn_campaign; /* opaque */

/* One generator run of the build: a count section, or a tier of one. */
typedef struct qn_campaign_part {
    size_t section;          /* index in the recipe */
    const char *tier;        /* NULL for a count section; borrowed */
    uint64_t want;           /* puzzles asked for */
    qn_gen_target_info info; /* what exists in its target (qn_gen_plan) */
} qn_campaign_part;

/*
 * Load every section's rule, resolve its tiers and plan each part
 * (qn_gen_plan), refusing an impossible part before anything is drawn:
 * QN_EINVAL located at the section (or tier) in the recipe, saying how
 * many distinct puzzles exist and how many were asked for; an unknown
 * tier names the rule's tiers; a plan past QN_CAMPAIGN_PLAN_BUDGET. A
 * rule file fails with its loader's code, located at the section's
 * `rules:` (the file's own place in the message); a rule whose puzzles
 * cannot be graded exactly is refused as soon as it is factorised. On
 * success *out is the caller's (qn_campaign_free); r must outlive it.
 */
int qn_campaign_plan(qn_campaign **out, const qn_recipe *r, int jobs,
                     uint64_t budget, qn_err *err);
void qn_campaign_free(qn_campaign *c); /* NULL-safe */

/*
 * The planning budget (qn_campaign_plan's budget, 0 for this default):
 * the states the parts' pilots (qn_gen_plan, on rules past the exact
 * distribution) may grade in all, about 5 min of classic 9x9 on one
 * core. A plan that passes it stops and is refused (located at the part
 * that passed it) rather than run for hours.
 */
#define QN_CAMPAIGN_PLAN_BUDGET ((uint64_t)1 << 25)

/* The distinct rules the plan loaded: each read, compiled and factorised
 * once, however many sections name it (the same file, or another file of
 * the same bytes or the same rule hash). */
size_t qn_campaign_nrules(const qn_campaign *c);
/* States the plan's pilots graded (at most QN_CAMPAIGN_PLAN_BUDGET). */
uint64_t qn_campaign_plan_grades(const qn_campaign *c);

size_t qn_campaign_nparts(const qn_campaign *c);
const qn_campaign_part *qn_campaign_part_at(const qn_campaign *c, size_t i);

typedef struct qn_campaign_stats {
    uint64_t puzzles;     /* in the pack */
    uint64_t draws;       /* candidates the generator looked at */
    uint64_t too_close;   /* candidates refused by the variety constraint */
    int changed;          /* the pack's membership changed (version + 1) */
    int unchanged_recipe; /* the stored recipe was this one: nothing done */
} qn_campaign_stats;

/* *yes = 1 when the store holds a pack built from exactly this recipe
 * and not edited since: a build would change nothing, and planning can
 * be skipped. QN_EINVAL (located at the recipe's pack name) when a pack
 * of that name exists that `pack build` did not make: it is never
 * replaced. */
int qn_campaign_unchanged(qn_store *s, const qn_recipe *r, int *yes,
                          qn_err *err);

/*
 * Build the pack into the store in one transaction: its rules, puzzles,
 * membership and recipe (text and hash). A pack already built from this
 * recipe and not edited since is left alone (stats->unchanged_recipe).
 * The version moves only when the membership changed. Extra codes:
 * QN_ELIMIT when a part ran out of draws (the target, with the variety
 * constraint, is too rare); the store's codes.
 */
int qn_campaign_build(qn_campaign *c, qn_store *s, qn_campaign_stats *st,
                      qn_err *err);

#endif
