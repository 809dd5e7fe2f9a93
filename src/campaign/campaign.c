/*
 * campaign.c: draw every part of a planned campaign in order, keep
 * the candidates the variety constraint allows, order each section by
 * difficulty and store the pack in one transaction.
 */
#include "campaign/campaign.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/rng.h"
#include "campaign_internal.h"
#include "rules/canon.h"
#include "rules/state.h"
#include "store/store.h"

typedef struct drawing {
    qn_campaign *c;
    size_t part;
    uint64_t too_close;
    int nomem; /* a puzzle could not be kept: the run stopped */
} drawing;

/* At least max(variety, 1) cells apart, up to symmetry, from every
 * accepted puzzle of the same rule. */
static int far_enough(const qn_campaign *c, size_t section,
                      const uint8_t *state)
{
    const campaign_rule *cr = c->rules[section];
    int d = c->r->variety > 1 ? (int)c->r->variety : 1;

    for (size_t i = 0; i < c->naccepted; i++) {
        if (c->rules[c->accepted[i].section] != cr)
            continue; /* other rules: never close */
        if (qn_canon_distance(cr->rules, state, c->accepted[i].state, d) < d)
            return 0;
    }
    return 1;
}

static int take(void *ctx, const qn_gen_puzzle *p)
{
    drawing *dw = ctx;
    qn_campaign *c = dw->c;
    size_t section = c->parts[dw->part].pub.section;
    size_t n = (size_t)qn_rules_ncells(c->rules[section]->rules);
    campaign_puzzle *cp;

    if (!far_enough(c, section, p->state)) {
        dw->too_close++;
        return QN_GEN_ALREADY;
    }
    if (c->naccepted == c->cap) {
        size_t cap = c->cap * 2 + 16;
        campaign_puzzle *more = QN_REALLOCN(c->accepted, cap, campaign_puzzle);
        if (!more)
            goto nomem;
        c->accepted = more, c->cap = cap;
    }
    cp = &c->accepted[c->naccepted];
    if (!(cp->state = qn_malloc(2 * n)))
        goto nomem;
    cp->grade = NULL;
    if (p->grade && !(cp->grade = qn_strdup(p->grade))) {
        free(cp->state);
        goto nomem;
    }
    cp->part = dw->part;
    cp->section = section;
    cp->seq = c->naccepted++;
    cp->index = p->index;
    cp->presses = p->presses;
    cp->noptimal = p->noptimal;
    cp->human_level = p->human_level;
    cp->human_score = p->human_score;
    cp->human_model = p->human_model_version;
    cp->uid = p->uid;
    memcpy(cp->state, p->state, n);
    memcpy(cp->state + n, p->plan, n);
    return QN_GEN_EMITTED;
nomem:
    dw->nomem = 1;
    return QN_GEN_STOP;
}

/* Every part, in order. */
static int draw_all(qn_campaign *c, qn_campaign_stats *st, qn_err *err)
{
    for (size_t i = 0; i < c->nparts; i++) {
        campaign_part *p = &c->parts[i];
        drawing dw = {c, i, 0, 0};
        qn_gen_hooks h = {NULL, take, NULL, &dw, NULL};
        qn_gen_stats gs;
        int rc;

        /* the grades */
        if (qn_campaign__rule_tiers(c->rules[p->pub.section], err) != QN_OK)
            return QN_ENOMEM;
        rc = p->prep ? qn_gen_run_prepared(p->prep, &h, &gs, err)
                     : qn_gen_run(c->rules[p->pub.section]->solver, &p->o, &h,
                                  &gs, err);
        qn_gen_prepared_free(p->prep);
        p->prep = NULL;
        st->draws += gs.draws;
        st->too_close += dw.too_close;
        if (dw.nomem || rc == QN_ENOMEM)
            return qn_err_nomem(err);
        if (rc != QN_OK) {
            const qn_recipe_section *rs = &c->r->sections[p->pub.section];
            char why[sizeof(err->msg)];
            memcpy(why, err->msg, sizeof(why));
            qn_err_set(err, (qn_code)rc, p->mark.line, p->mark.col,
                       "section '%s'%s%s: %s", rs->name,
                       p->pub.tier ? ", tier " : "",
                       p->pub.tier ? p->pub.tier : "", why);
            qn_err_source(err, c->r->source);
            return rc;
        }
    }
    return QN_OK;
}

/* Inside a section: by minimal presses, ties in acceptance order (tier
 * order, then stream index). */
static int cmp_puzzles(const void *a, const void *b)
{
    const campaign_puzzle *x = a, *y = b;

    if (x->section != y->section)
        return x->section < y->section ? -1 : 1;
    if (x->presses != y->presses)
        return x->presses < y->presses ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The puzzle as the store keeps it; its row in *id. */
static int put_puzzle(const qn_campaign *c, qn_store *s,
                      const campaign_puzzle *cp, int64_t rule_id, int64_t *id,
                      qn_err *err)
{
    const campaign_rule *cr = c->rules[cp->section];
    const qn_layout *l = qn_rules_layout(cr->rules);
    int n = qn_rules_ncells(cr->rules);
    unsigned k = qn_rules_colours(cr->rules);
    qn_buf text = QN_BUF_INIT;
    uint8_t *canon = qn_malloc((size_t)n + 1), *key;
    char seed[65], grader[16];
    qn_store_puzzle sp;
    size_t witness_at = 0;
    int rc;

    key = qn_malloc(qn_store_canon_size(n, k) + 1);
    if (canon && key) {
        qn_canon_form(cr->rules, canon, cp->state);
        qn_state_format(&text, l, cp->state, '/');
        witness_at = text.len + 1;
        qn_buf_addc(&text, '\0');
        qn_state_format(&text, l, cp->state + n, '/');
    }
    if (!canon || !key || text.failed) {
        qn_buf_release(&text);
        free(canon);
        free(key);
        return qn_err_nomem(err);
    }
    qn_seed_format(&c->parts[cp->part].o.seed, seed);
    snprintf(grader, sizeof(grader), "%d", QN_GRADER_VERSION);
    memset(&sp, 0, sizeof(sp));
    sp.rule_id = rule_id;
    sp.state = text.buf;
    sp.canon = key;
    sp.canon_len = qn_store_canon_pack(key, canon, n, k);
    sp.min_presses = cp->presses;
    sp.noptimal = cp->noptimal;
    sp.witness = text.buf + witness_at;
    sp.grade = cp->grade;
    sp.grader = grader;
    sp.seed = seed;
    sp.stream_index = (int64_t)cp->index;
    sp.provenance = QN_STORE_GENERATE;
    sp.uid = cp->uid;
    if (cp->human_level >= 0) {
        sp.human_graded = 1;
        sp.human_level = cp->human_level;
        sp.human_score = cp->human_score;
        sp.human_model = cp->human_model;
    }
    rc = qn_store_put_puzzle(s, &sp, id, NULL, err);
    qn_buf_release(&text);
    free(canon);
    free(key);
    return rc;
}

/* Rules and puzzles into the open batch; the rows, in pack order. */
static int put_all(const qn_campaign *c, qn_store *s, int64_t *ids, qn_err *err)
{
    qn_buf layout = QN_BUF_INIT;
    int rc = QN_OK;

    for (size_t i = 0; rc == QN_OK && i < c->npool; i++) {
        campaign_rule *cr = &c->pool[i];
        qn_store_rule sr = {cr->hash,
                            qn_rules_name(cr->rules),
                            cr->yaml,
                            qn_rules_ncells(cr->rules),
                            qn_rules_colours(cr->rules),
                            NULL,
                            NULL};
        qn_buf_reset(&layout);
        qn_state_format_zero(&layout, qn_rules_layout(cr->rules));
        sr.layout = layout.buf;
        rc = layout.failed ? qn_err_nomem(err)
                           : qn_store_put_rule(s, &sr, &cr->row, err);
    }
    qn_buf_release(&layout);
    for (size_t i = 0; rc == QN_OK && i < c->naccepted; i++)
        rc = put_puzzle(c, s, &c->accepted[i],
                        c->rules[c->accepted[i].section]->row, &ids[i], err);
    return rc;
}

/* The stored pack's recipe hash; "-" when a pack of that name exists
 * that `pack build` did not make. */
static int recipe_of(void *ctx, const qn_store_pack *p)
{
    char *hash = ctx;

    snprintf(hash, QN_HASH_HEX, "%s", p->from_recipe ? p->recipe_hash : "-");
    return 0;
}

/* The pack: its membership set (a new pack filled at version 1), each
 * member with its section (and the slot of the member of that section
 * and rank it replaces), and the recipe kept. */
static int put_pack(const qn_campaign *c, qn_store *s, const int64_t *ids,
                    int *changed, qn_err *err)
{
    const qn_recipe *r = c->r;
    const char **sections = QN_ALLOCN(c->naccepted + 1, const char *);
    int64_t pack = 0;
    int rc, created = 0;

    if (!sections)
        return qn_err_nomem(err);
    rc = qn_store_pack_find(s, r->pack, &pack, err);
    for (size_t i = 0; i < c->naccepted; i++)
        sections[i] = r->sections[c->accepted[i].section].name;
    if (rc == QN_ENOTFOUND) {
        qn_store_pack pk = {.name = r->pack,
                            .title = r->title,
                            .description = r->description,
                            .author = r->author};
        rc = qn_store_pack_create(s, &pk, &pack, err);
        created = 1;
    }
    if (rc == QN_OK)
        rc = qn_store_pack_set_sections(s, pack, ids, sections, c->naccepted,
                                        !created, changed, err);
    *changed |= created;
    if (rc == QN_OK)
        rc = qn_store_pack_recipe(s, pack, r->text, r->hash, err);
    free(sections);
    return rc;
}

int qn_campaign_unchanged(qn_store *s, const qn_recipe *r, int *yes,
                          qn_err *err)
{
    char stored[QN_HASH_HEX] = "";
    int rc = qn_store_pack_list(s, r->pack, recipe_of, stored, err);

    /* built from this very recipe and not edited since (an edit clears
     * the stored hash) */
    *yes = rc == QN_OK && !strcmp(stored, r->hash);
    /* a pack made by hand is never replaced by a recipe's */
    if (rc == QN_OK && !strcmp(stored, "-")) {
        qn_err_set(err, QN_EINVAL, r->pack_mark.line, r->pack_mark.col,
                   "pack '%s' exists and was not built from a recipe: name "
                   "the recipe's pack otherwise, or delete that pack first",
                   r->pack);
        qn_err_source(err, r->source);
        return QN_EINVAL;
    }
    return rc == QN_ENOTFOUND ? QN_OK : rc;
}

int qn_campaign_build(qn_campaign *c, qn_store *s, qn_campaign_stats *st,
                      qn_err *err)
{
    int64_t *ids;
    int rc, same = 0;

    memset(st, 0, sizeof(*st));
    if ((rc = qn_campaign_unchanged(s, c->r, &same, err)) != QN_OK)
        return rc;
    if (same) {
        st->unchanged_recipe = 1;
        return QN_OK;
    }
    if ((rc = draw_all(c, st, err)) != QN_OK)
        return rc;
    qsort(c->accepted, c->naccepted, sizeof(*c->accepted), cmp_puzzles);
    if (!(ids = QN_ALLOCN(c->naccepted + 1, int64_t)))
        return qn_err_nomem(err);
    rc = qn_store_begin(s, err);
    if (rc == QN_OK && (rc = put_all(c, s, ids, err)) == QN_OK)
        rc = put_pack(c, s, ids, &st->changed, err);
    if (rc == QN_OK)
        rc = qn_store_commit(s, err);
    else
        qn_store_rollback(s, NULL);
    free(ids);
    st->puzzles = c->naccepted;
    return rc;
}
