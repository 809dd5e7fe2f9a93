/*
 * campaign_plan.c: a recipe's sections made ready to build: each rule
 * loaded and compiled with its tiers, each part (a count section, or one
 * tier of a tiers section) given its options and planned, so that an
 * impossible part is refused, located in the recipe, before any draw.
 */
#include "campaign/campaign.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/hash.h"
#include "base/mem.h"
#include "campaign_internal.h"
#include "solve/human.h"

static int at_mark(qn_err *err, const qn_recipe *r, qn_mark m)
{
    if (err) {
        err->line = m.line;
        err->col = m.col;
        qn_err_source(err, r->source);
    }
    return err ? err->code : QN_EINVAL;
}

/*
 * A rule's failure, located at the section's `rules:` in the recipe, with
 * the rule file's own place in the text: "r.yaml:5:12: section 'a':
 * x.yaml:3:1: unknown key 'nmae' ...". (So -v shows the recipe's line,
 * never a line of the file the recipe names.)
 */
static int rule_failed(const qn_campaign *c, size_t i, qn_err *err)
{
    const qn_recipe_section *rs = &c->r->sections[i];
    char where[sizeof(err->source) + 48], why[sizeof(err->msg)];

    qn_err_place(err, where, sizeof(where));
    snprintf(why, sizeof(why), "%s", err->msg);
    qn_err_set(err, err->code, 0, 0, "section '%s': %s%s", rs->name, where,
               why);
    return at_mark(err, c->r, rs->rules_mark);
}

/* The pool's rule with these bytes or this rule hash, or NULL. */
static campaign_rule *pooled(const qn_campaign *c, const char *text_hash,
                             const char *rule_hash)
{
    for (size_t j = 0; j < c->npool; j++)
        if ((text_hash && !strcmp(c->pool[j].text_hash, text_hash)) ||
            (rule_hash && !strcmp(c->pool[j].hash, rule_hash)))
            return &c->pool[j];
    return NULL;
}

int qn_campaign__rule_tiers(campaign_rule *cr, qn_err *err)
{
    if (!cr->tiers_done && !qn_gen_tiers(cr->solver, cr->dist, &cr->tiers))
        return qn_err_nomem(err); /* tried again when next needed */
    cr->tiers_done = 1;
    return QN_OK;
}

/* Compile, factorise and grade the rule just read into cr: refused at once
 * when no puzzle of it could be graded exactly, before its distribution
 * is computed (its tiers wait for a part that needs them). */
static int compile_rule(campaign_rule *cr, const char *path, qn_err *err)
{
    int rc = qn_solver_new(&cr->solver, cr->rules, err);
    qn_err e = QN_ERR_INIT;

    if (rc == QN_OK && (rc = qn_solver_check_exact(cr->solver, err)) != QN_OK)
        qn_err_source(err, path);
    if (rc != QN_OK)
        return rc;
    if (qn_distrib_compute(&cr->dist, qn_solver_system(cr->solver), &e) !=
        QN_OK) {
        if (e.code == QN_ENOMEM)
            return qn_err_nomem(err);
        cr->dist = NULL; /* too large: sampled tiers, sampling modes */
    }
    qn_puzzle_id_key_init(&cr->key, cr->hash);
    return QN_OK;
}

static void rule_release(campaign_rule *cr)
{
    qn_distrib_free(cr->dist);
    qn_solver_free(cr->solver);
    qn_rules_free(cr->rules);
    free(cr->yaml);
}

/*
 * Section i's rule: the pool's when an earlier section named the same
 * bytes or the same rule (read, compiled, factorised, its distribution
 * and tiers computed once for all of them), else read and added.
 */
static int load_rule(qn_campaign *c, size_t i, qn_err *err)
{
    const qn_recipe_section *rs = &c->r->sections[i];
    campaign_rule cr, *have;
    int rc;

    memset(&cr, 0, sizeof(cr));
    rc = qn_file_read_regular(&cr.yaml, &cr.yaml_len, rs->rules_path,
                              QN_RULES_MAX_FILE, err);
    if (rc == QN_OK) {
        qn_hash_buf_hex(cr.text_hash, cr.yaml, cr.yaml_len);
        if ((have = pooled(c, cr.text_hash, NULL)) != NULL) {
            free(cr.yaml);
            c->rules[i] = have;
            return QN_OK;
        }
        rc = qn_rules_load_buf(&cr.rules, cr.yaml, cr.yaml_len, rs->rules_path,
                               err);
    }
    if (rc == QN_OK) {
        qn_rules_hash(cr.rules, cr.hash);
        if ((have = pooled(c, NULL, cr.hash)) != NULL) {
            rule_release(&cr);
            c->rules[i] = have;
            return QN_OK;
        }
        rc = compile_rule(&cr, rs->rules_path, err);
    }
    if (rc != QN_OK) {
        rule_release(&cr);
        /* out of memory is no fault of the rule file */
        return rc == QN_ENOMEM ? qn_err_nomem(err) : rule_failed(c, i, err);
    }
    c->pool[c->npool] = cr;
    c->rules[i] = &c->pool[c->npool++];
    return QN_OK;
}

/* The options every part of section i shares. */
static void part_opts(const qn_campaign *c, size_t i, qn_gen_opts *o)
{
    const qn_recipe_section *rs = &c->r->sections[i];
    const campaign_rule *cr = c->rules[i];

    qn_gen_opts_init(o);
    o->unique_optimum = rs->unique_optimum;
    o->min_lit = rs->lit.lo > 1 ? (int)rs->lit.lo : 0;
    o->max_lit = rs->lit.hi != UINT64_MAX ? (int)rs->lit.hi : 0;
    o->jobs = c->jobs;
    o->distrib = cr->dist;
    o->tiers = &cr->tiers;
    o->max_draws = 0;
}

static int unknown_tier(const qn_campaign *c, size_t i, const qn_recipe_tier *t,
                        const qn_buf *why, qn_err *err)
{
    qn_err_set(err, QN_EINVAL, 0, 0,
               "section '%s': no tier '%s' in the grading of %s; %s",
               c->r->sections[i].name, t->name, c->r->sections[i].rules,
               why->buf);
    return at_mark(err, c->r, t->mark);
}

/* A new zeroed part, or NULL when out of memory (the parts unchanged). */
static campaign_part *add_part(qn_campaign *c)
{
    campaign_part *more = QN_REALLOCN(c->parts, c->nparts + 1, campaign_part);

    if (!more)
        return NULL;
    c->parts = more;
    memset(&c->parts[c->nparts], 0, sizeof(campaign_part));
    return &c->parts[c->nparts++];
}

/* Section i's parts: one per tier, or the count. */
static int section_parts(qn_campaign *c, size_t i, qn_err *err)
{
    const qn_recipe_section *rs = &c->r->sections[i];
    campaign_rule *cr = c->rules[i];
    unsigned levels = 0;

    if (rs->human_level && qn_human_levels_parse(rs->human_level, &levels)) {
        qn_err_set(err, QN_EINVAL, 0, 0,
                   "section '%s': human-level takes spot, chase, table, "
                   "global (or 0..3) or a range A..B of them (A at or below "
                   "B), got '%s'",
                   rs->name, rs->human_level);
        return at_mark(err, c->r, rs->human_level_mark);
    }

    if (rs->ntiers)
        if (qn_campaign__rule_tiers(cr, err) != QN_OK)
            return QN_ENOMEM;
    for (size_t t = 0; t < rs->ntiers; t++) {
        const qn_recipe_tier *rt = &rs->tiers[t];
        qn_buf why = QN_BUF_INIT;
        long j = qn_tiers_find(&cr->tiers, rt->name, &why);
        if (j < 0) {
            int rc = why.failed ? qn_err_nomem(err)
                                : unknown_tier(c, i, rt, &why, err);
            qn_buf_release(&why);
            return rc;
        }
        campaign_part *p = add_part(c);
        if (!p)
            return qn_err_nomem(err);
        part_opts(c, i, &p->o);
        p->o.human_levels = levels;
        p->o.lo = cr->tiers.lo[j];
        p->o.hi = cr->tiers.hi[j];
        p->pub.tier = rt->name;
        p->pub.want = rt->count;
        p->mark = rt->mark;
        p->pub.section = i;
        qn_recipe_section_seed(c->r, i, rt->name, &p->o.seed);
    }
    if (rs->ntiers == 0) {
        campaign_part *p = add_part(c);
        if (!p)
            return qn_err_nomem(err);
        part_opts(c, i, &p->o);
        p->o.human_levels = levels;
        p->o.lo = rs->presses.lo;
        p->o.hi = rs->presses.hi;
        p->o.mode =
            rs->distribution == QN_RECIPE_SPREAD ? QN_GEN_SPREAD : QN_GEN_AUTO;
        p->pub.want = rs->count;
        p->mark = rs->count_mark;
        p->pub.section = i;
        qn_recipe_section_seed(c->r, i, NULL, &p->o.seed);
    }
    return QN_OK;
}

/* Plan part p: what its target holds, refused when it cannot be met; the
 * plan kept to run unless it holds a census (then planned again when
 * drawn, so that a recipe's many parts never hold theirs all at once). */
static int plan_part(qn_campaign *c, campaign_part *p, qn_err *err)
{
    const qn_recipe_section *rs = &c->r->sections[p->pub.section];
    int rc;

    p->o.count = p->pub.want;
    p->o.max_draws = p->pub.want * 1000 + 1000000;
    /* what is left of the budget (0 would mean none at all) */
    p->o.plan_budget = c->budget - c->plan_grades;
    if (p->o.plan_budget == 0)
        p->o.plan_budget = 1;
    rc = qn_gen_prepare(&p->prep, c->rules[p->pub.section]->solver, &p->o,
                        &p->pub.info, err);
    c->plan_grades += p->pub.info.plan_grades;
    if (rc == QN_ENOMEM)
        return qn_err_nomem(err);
    if (rc != QN_OK) {
        char why[sizeof(err->msg)];
        snprintf(why, sizeof(why), "%s", err->msg);
        if (rc == QN_ELIMIT && c->plan_grades > c->budget)
            snprintf(why, sizeof(why),
                     "the recipe's plan would grade more than %llu states "
                     "in its pilots (the planning budget, --plan-budget)",
                     (unsigned long long)c->budget);
        qn_err_set(err, QN_EINVAL, 0, 0, "section '%s'%s%s: %s", rs->name,
                   p->pub.tier ? ", tier " : "", p->pub.tier ? p->pub.tier : "",
                   why);
        return at_mark(err, c->r, p->mark);
    }
    p->o.mode = p->pub.info.mode;
    if (p->pub.info.exact && p->pub.info.distinct < p->pub.want) {
        qn_err_set(err, QN_EINVAL, 0, 0,
                   "section '%s'%s%s: only %llu distinct puzzles exist in "
                   "its target on %s; asked for %llu",
                   rs->name, p->pub.tier ? ", tier " : "",
                   p->pub.tier ? p->pub.tier : "",
                   (unsigned long long)p->pub.info.distinct, rs->rules,
                   (unsigned long long)p->pub.want);
        return at_mark(err, c->r, p->mark);
    }
    if (qn_gen_prepared_heavy(p->prep)) {
        qn_gen_prepared_free(p->prep);
        p->prep = NULL;
    }
    return QN_OK;
}

int qn_campaign_plan(qn_campaign **out, const qn_recipe *r, int jobs,
                     uint64_t budget, qn_err *err)
{
    qn_campaign *c = QN_ALLOC(qn_campaign);
    int rc = QN_OK;

    *out = NULL;
    if (!c)
        return qn_err_nomem(err);
    c->r = r;
    c->jobs = jobs;
    c->budget = budget ? budget : QN_CAMPAIGN_PLAN_BUDGET;
    c->pool = QN_ALLOCN(r->nsections + 1, campaign_rule);
    c->rules = QN_ALLOCN(r->nsections + 1, campaign_rule *);
    if (!c->pool || !c->rules)
        rc = qn_err_nomem(err);
    for (size_t i = 0; rc == QN_OK && i < r->nsections; i++)
        if ((rc = load_rule(c, i, err)) == QN_OK)
            rc = section_parts(c, i, err);
    for (size_t i = 0; rc == QN_OK && i < c->nparts; i++)
        rc = plan_part(c, &c->parts[i], err);
    if (rc != QN_OK) {
        qn_campaign_free(c);
        return rc;
    }
    *out = c;
    return QN_OK;
}

void qn_campaign_free(qn_campaign *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->npool; i++)
        rule_release(&c->pool[i]);
    for (size_t i = 0; i < c->nparts; i++)
        qn_gen_prepared_free(c->parts[i].prep);
    for (size_t i = 0; i < c->naccepted; i++) {
        free(c->accepted[i].state);
        free(c->accepted[i].grade);
    }
    free(c->accepted);
    free(c->pool);
    free(c->rules);
    free(c->parts);
    free(c);
}

size_t qn_campaign_nrules(const qn_campaign *c)
{
    return c->npool;
}

uint64_t qn_campaign_plan_grades(const qn_campaign *c)
{
    return c->plan_grades;
}

size_t qn_campaign_nparts(const qn_campaign *c)
{
    return c->nparts;
}

const qn_campaign_part *qn_campaign_part_at(const qn_campaign *c, size_t i)
{
    return &c->parts[i].pub;
}
