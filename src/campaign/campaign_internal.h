/*
 * campaign_internal.h: what the two halves of the campaign builder share
 * (campaign_plan.c prepares, campaign.c draws and stores).
 */
#ifndef QN_CAMPAIGN_INTERNAL_H
#define QN_CAMPAIGN_INTERNAL_H

#include "base/hash.h"
#include "campaign/campaign.h"
#include "generate/distrib.h"
#include "rules/puzzle_id.h"
#include "rules/rules.h"
#include "solve/solver.h"

/* A rule of the recipe, compiled once however many sections name it
 * (by the same file, or a file of the same bytes or the same rule hash);
 * puzzles compare by the rule's hash. */
typedef struct campaign_rule {
    char *yaml;
    size_t yaml_len;
    char text_hash[QN_HASH_HEX]; /* BLAKE2b of the file's bytes */
    qn_rules *rules;
    qn_solver *solver;
    qn_distrib *dist; /* NULL when too large */
    qn_tiers tiers;   /* once tiers_done (qn_campaign__rule_tiers) */
    int tiers_done;
    char hash[QN_HASH_HEX];
    qn_puzzle_id_key key;
    int64_t row; /* its row in the store, while building */
} campaign_rule;

typedef struct campaign_part {
    qn_campaign_part pub;
    qn_gen_opts o;
    qn_mark mark;          /* where the recipe asks for it */
    qn_gen_prepared *prep; /* its plan, kept to run (NULL: plan again) */
} campaign_part;

/* cr's grading tiers, computed on first use only: a plan of count
 * sections never needs them, and sampling them can take seconds. */
int qn_campaign__rule_tiers(campaign_rule *cr, qn_err *err); /* or ENOMEM */

/* An accepted puzzle: state and plan (2 n bytes, one allocation). */
typedef struct campaign_puzzle {
    size_t part, section; /* its part and section */
    size_t seq;           /* its place in acceptance order */
    uint64_t index;       /* stream index in the part's stream */
    uint64_t presses, noptimal, uid;
    uint8_t *state;  /* then the plan, n bytes each */
    char *grade;     /* NULL when ungraded */
    int human_level; /* as qn_gen_puzzle's (-1: none) */
    int64_t human_score;
    int human_model;
} campaign_puzzle;

struct qn_campaign {
    const qn_recipe *r;
    int jobs;
    campaign_rule *pool; /* the distinct rules, each loaded once */
    size_t npool;
    campaign_rule **rules; /* per section: its rule in the pool */
    uint64_t budget;       /* of plan_grades */
    uint64_t plan_grades;  /* states the parts' pilots graded */
    campaign_part *parts;
    size_t nparts;
    campaign_puzzle *accepted;
    size_t naccepted, cap;
};

#endif
