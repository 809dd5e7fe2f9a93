/*
 * cmd_pack_build.c: `quench pack build RECIPE`: a campaign's pack from
 * its recipe (campaign.h, docs/CAMPAIGNS.md). --plan says, per section
 * and tier, how many distinct puzzles its target holds and draws nothing;
 * the build draws, stores and says what changed.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/jsonw.h"
#include "base/text.h"
#include "campaign/campaign.h"
#include "cmd.h"
#include "cmd_generate.h"
#include "rules/recipe.h"
#include "store/store.h"

static void plan_row(qn_buf *out, qn_jsonw *w, const qn_recipe *r,
                     const qn_campaign_part *p)
{
    const qn_recipe_section *rs = &r->sections[p->section];
    const qn_gen_target_info *t = &p->info;
    qn_buf why = QN_BUF_INIT;

    if (w) {
        qn_jsonw_obj(w);
        qn_jsonw_key(w, "section"), qn_jsonw_str(w, rs->name);
        qn_jsonw_key(w, "tier");
        if (p->tier)
            qn_jsonw_str(w, p->tier);
        else
            qn_jsonw_null(w);
        qn_jsonw_key(w, "rules"), qn_jsonw_str(w, rs->rules);
        qn_jsonw_key(w, "want"), qn_jsonw_uint(w, p->want);
        qn_jsonw_key(w, "presses");
        qn_jsonw_arr(w);
        qn_jsonw_uint(w, t->lo);
        qn_jsonw_uint(w, t->hi);
        qn_jsonw_end(w);
        if (rs->human_level) /* as the recipe writes it */
            qn_jsonw_key(w, "human_level"), qn_jsonw_str(w, rs->human_level);
        qn_jsonw_key(w, "mode"), qn_jsonw_str(w, qn_gen_mode_name(t->mode));
        qn_jsonw_key(w, "distinct");
        if (t->distinct < 0)
            qn_jsonw_null(w); /* not counted nor estimated */
        else if (t->exact)
            qn_jsonw_uint(w, (uint64_t)(t->distinct + 0.5));
        else /* an estimate, maybe past 2^64 */
            qn_jsonw_real(w, t->distinct);
        qn_jsonw_key(w, "exact"), qn_jsonw_bool(w, t->exact);
        qn_jsonw_key(w, "at_least"); /* exact, or past 2^53: its log2 */
        if (t->at_least > 0 && t->at_least < 0x1p53)
            qn_jsonw_uint(w, (uint64_t)t->at_least);
        else
            qn_jsonw_null(w);
        if (t->at_least > 0) {
            qn_jsonw_key(w, "at_least_log2");
            qn_jsonw_real(w, t->at_least_log2);
        }
        if (t->mode == QN_GEN_SPREAD) {
            qn_jsonw_key(w, "counts"), qn_jsonw_uint(w, t->counts);
            qn_jsonw_key(w, "unreached"), qn_jsonw_uint(w, t->unreached);
            qn_jsonw_key(w, "cannot_tell"), qn_jsonw_bool(w, t->cannot_tell);
            cmd_generate_write_pilot(w, t, "");
        }
        qn_jsonw_end(w);
        return;
    }
    qn_buf_adds(out, "  ");
    qn_text_escape(out, rs->name);
    if (p->tier) {
        qn_buf_adds(out, " / ");
        qn_text_escape(out, p->tier);
    }
    qn_buf_addf(out, ": %llu wanted, presses %llu..%llu (%s), ",
                (unsigned long long)p->want, (unsigned long long)t->lo,
                (unsigned long long)t->hi, qn_gen_mode_name(t->mode));
    if (rs->human_level) {
        qn_buf_adds(out, "human level ");
        qn_text_escape(out, rs->human_level);
        qn_buf_adds(out, ", ");
    }
    if (t->exact)
        qn_buf_addf(out, "%.0f distinct %s\n", t->distinct,
                    t->distinct == 1 ? "puzzle exists" : "puzzles exist");
    else if (t->mode == QN_GEN_SPREAD && t->cannot_tell)
        qn_buf_addf(out, "cannot tell: no pilot climb reached any of its "
                         "counts, which may not exist (the build may run "
                         "out of draws, exit 75)\n");
    else if (t->mode == QN_GEN_SPREAD) {
        qn_buf_addf(out, "%zu %s reached by pilot climbs", t->counts,
                    t->counts == 1 ? "count" : "counts");
        if (t->counts)
            qn_buf_addf(out, " (%llu..%llu", (unsigned long long)t->first,
                        (unsigned long long)t->last);
        if (t->counts && qn_gen_describe_left_out(&why, t))
            qn_buf_addf(out, "; %s", why.buf);
        if (t->counts)
            qn_buf_addc(out, ')');
        qn_buf_adds(out, "; how many puzzles each holds is not known (a "
                         "count found dry is retired)\n");
    } else if (t->distinct >= 0)
        qn_buf_addf(out, "about %.3g distinct puzzles (95%%: %.3g..%.3g)\n",
                    t->distinct, t->distinct_lo, t->distinct_hi);
    else if (t->at_least > 0 && t->at_least < 0x1p53)
        qn_buf_addf(out,
                    "at least %.0f distinct puzzles (its solvable "
                    "states over its symmetries)\n",
                    t->at_least);
    else if (t->at_least > 0)
        qn_buf_addf(out,
                    "at least 2^%.1f distinct puzzles (its solvable "
                    "states over its symmetries)\n",
                    t->at_least_log2);
    else
        qn_buf_adds(out, "not counted\n");
    qn_buf_release(&why);
}

static void plan_report(qn_buf *out, int json, const qn_recipe *r,
                        const qn_campaign *c)
{
    qn_jsonw w;

    if (json) {
        qn_jsonw_init(&w, out);
        qn_jsonw_obj(&w);
        qn_jsonw_key(&w, "pack"), qn_jsonw_str(&w, r->pack);
        qn_jsonw_key(&w, "recipe_hash"), qn_jsonw_str(&w, r->hash);
        qn_jsonw_key(&w, "rules"), qn_jsonw_uint(&w, qn_campaign_nrules(c));
        qn_jsonw_key(&w, "plan_grades");
        qn_jsonw_uint(&w, qn_campaign_plan_grades(c));
        qn_jsonw_key(&w, "parts");
        qn_jsonw_arr(&w);
    } else {
        qn_buf_adds(out, "pack ");
        qn_text_escape(out, r->pack);
        qn_buf_addf(out, ": %llu %s in %zu %s, %zu %s\n",
                    (unsigned long long)r->total,
                    qn_plural(r->total, "puzzle", "puzzles"), r->nsections,
                    qn_plural(r->nsections, "section", "sections"),
                    qn_campaign_nrules(c),
                    qn_plural(qn_campaign_nrules(c), "rule", "rules"));
    }
    for (size_t i = 0; i < qn_campaign_nparts(c); i++)
        plan_row(out, json ? &w : NULL, r, qn_campaign_part_at(c, i));
    if (json) {
        qn_jsonw_end(&w);
        qn_jsonw_end(&w);
        qn_buf_addc(out, '\n');
    }
}

/* The plan, on stderr: the build's own report goes to stdout. */
static void say_plan(const qn_recipe *r, const qn_campaign *c)
{
    qn_buf said = QN_BUF_INIT;

    plan_report(&said, 0, r, c);
    fwrite(said.buf, 1, said.len, stderr);
    qn_buf_release(&said);
}

/* The pack's version after the build, for --json. */
static int version_of(void *ctx, const qn_store_pack *p)
{
    *(int64_t *)ctx = p->version;
    return 0;
}

/* What the build did: one line, or with --json the object every pack
 * edit prints (cmd_pack.c) and the draws. */
static void build_report(qn_buf *out, int json, qn_store *s, const qn_recipe *r,
                         const qn_campaign_stats *st)
{
    int64_t version = 0;
    qn_jsonw w;

    if (json) {
        qn_store_pack_list(s, r->pack, version_of, &version, NULL);
        qn_jsonw_init(&w, out);
        qn_jsonw_obj(&w);
        qn_jsonw_key(&w, "action"), qn_jsonw_str(&w, "build");
        qn_jsonw_key(&w, "pack"), qn_jsonw_str(&w, r->pack);
        qn_jsonw_key(&w, "version"), qn_jsonw_int(&w, version);
        qn_jsonw_key(&w, "puzzles");
        qn_jsonw_uint(&w, st->unchanged_recipe ? r->total : st->puzzles);
        qn_jsonw_key(&w, "changed"), qn_jsonw_bool(&w, st->changed);
        qn_jsonw_key(&w, "draws"), qn_jsonw_uint(&w, st->draws);
        qn_jsonw_end(&w);
        qn_buf_addc(out, '\n');
        return;
    }
    qn_buf_adds(out, "pack ");
    qn_text_escape(out, r->pack);
    if (st->unchanged_recipe)
        qn_buf_adds(out, ": built from this recipe already, unchanged\n");
    else
        qn_buf_addf(out,
                    st->changed ? ": %llu %s built (%llu %s)\n"
                                : ": %llu %s, the same as before (%llu "
                                  "%s)\n",
                    (unsigned long long)st->puzzles,
                    qn_plural(st->puzzles, "puzzle", "puzzles"),
                    (unsigned long long)st->draws,
                    qn_plural(st->draws, "draw", "draws"));
}

int cmd_pack_build(const cli_ctx *ctx, qn_store *s, const char *recipe,
                   int plan, int jobs, uint64_t budget, int json, qn_buf *out)
{
    qn_recipe *r = NULL;
    qn_campaign *c = NULL;
    qn_campaign_stats st;
    qn_err err = QN_ERR_INIT;
    int rc, building = 0, same = 0;

    rc = qn_recipe_load(&r, recipe, &err);
    /* an unchanged recipe is known by its stored hash: nothing planned */
    if (rc == QN_OK && !plan &&
        (rc = qn_campaign_unchanged(s, r, &same, &err)) == QN_OK && same) {
        memset(&st, 0, sizeof(st));
        st.unchanged_recipe = 1;
        if (!ctx->quiet || json)
            build_report(out, json, s, r, &st);
        qn_recipe_free(r);
        return QN_EXIT_OK;
    }
    if (rc == QN_OK)
        rc = qn_campaign_plan(&c, r, jobs, budget, &err);
    if (rc == QN_OK && plan) {
        plan_report(out, json, r, c);
    } else if (rc == QN_OK) {
        if (!ctx->quiet)
            say_plan(r, c); /* what each target holds, before drawing */
        building = 1;
        if ((rc = qn_campaign_build(c, s, &st, &err)) == QN_OK &&
            (!ctx->quiet || json))
            build_report(out, json, s, r, &st);
    }
    qn_campaign_free(c);
    qn_recipe_free(r);
    /* out of draws: the target, with the variety, is too rare to fill;
     * 75 as generate says it */
    if (rc == QN_ELIMIT && building) {
        cli_report(ctx, &err);
        return QN_EXIT_TEMPFAIL;
    }
    return rc == QN_OK ? QN_EXIT_OK : cli_report(ctx, &err);
}
