/*
 * campaign_internal.h: what the two halves of the campaign builder share
 * (campaign_plan.c prepares, campaign.c draws and stores).
 */
#ifndef QN_CAMPAIGN_INTERNAL_H
#define QN_CAMPAIGN_INTERNAL_H

#include "quench/campaign.h"
#include "quench/distrib.h"
#include "quench/hash.h"
#include "quench/puzzle_id.h"
#include "quench/rules.h"
#include "quench/solver.h"

/* A section's rule, compiled (sections may share a rule file: each keeps
 * its own copy; puzzles compare by the rule's hash). */
typedef struct campaign_rule {
    char *yaml;
    size_t yaml_len;
    qn_rules *rules;
    qn_solver *g;
    qn_distrib *dist;  /* NULL when too large */
    qn_tiers tiers;
    char hash[QN_HASH_HEX];
    qn_puzzle_id_key key;
} campaign_rule;

typedef struct campaign_part {
    qn_campaign_part pub;
    qn_gen_opts o;
    qn_mark mark; /* where the recipe asks for it */
} campaign_part;

/* An accepted puzzle: state and plan (2 n bytes, one allocation). */
typedef struct campaign_puzzle {
    size_t part, section;   /* its part and section */
    size_t seq;             /* its place in acceptance order */
    uint64_t index;         /* stream index in the part's stream */
    uint64_t presses, noptimal, uid;
    uint8_t *state;         /* then the plan, n bytes each */
    char *grade;            /* NULL when ungraded */
} campaign_puzzle;

struct qn_campaign {
    const qn_recipe *r;
    int jobs;
    campaign_rule *rules; /* one per section */
    campaign_part *parts;
    size_t nparts;
    campaign_puzzle *accepted;
    size_t naccepted, cap;
};

#endif
