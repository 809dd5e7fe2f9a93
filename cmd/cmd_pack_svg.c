/*
 * cmd_pack_svg.c: `pack show NAME --svg`, the pack's minimal press counts
 * drawn against its rule's distribution.
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/buf.h"
#include "base/mem.h"
#include "base/text.h"
#include "cmd.h"
#include "export/export.h"
#include "export/svg.h"
#include "generate/distrib.h"
#include "generate/gen.h"
#include "solve/solver.h"
#include "store/store.h"

/*
 * The rule's distribution for pack show --svg into *h: exact when the rule
 * has few enough states to count (distrib.h), else the press counts of
 * the QN_GEN_TIER_SAMPLE uniform states its tiers are cut from (drawn
 * from the rule's own seed, so the chart is the same on every run), with
 * h->sampled saying so. *counts (free()) holds the series; NULL when not
 * even a sample could be graded exactly.
 */
static void rule_distribution(const qn_rules *r, qn_svg_hist *h,
                              uint64_t **counts)
{
    qn_solver *solver = NULL;
    qn_distrib *dist = NULL;
    uint64_t *p;
    size_t got, len = 0;
    qn_seed seed;
    qn_err e = QN_ERR_INIT;

    *counts = NULL;
    if (qn_solver_new(&solver, r, &e) == QN_ENOMEM)
        cli_oom();
    if (e.code != QN_OK)
        return;
    if (qn_distrib_compute(&dist, qn_solver_system(solver), &e) == QN_OK) {
        len = qn_distrib_len(dist);
        *counts = CLI_NEWN(len, uint64_t);
        for (size_t m = 0; m < len; m++)
            (*counts)[m] = qn_distrib_count(dist, m);
    } else {
        p = CLI_NEWN(QN_GEN_TIER_SAMPLE, uint64_t);
        qn_gen_rule_seed(solver, &seed);
        if (e.code == QN_ENOMEM ||
            qn_gen_sample_presses(solver, &seed, p, QN_GEN_TIER_SAMPLE, &got) !=
                QN_OK)
            cli_oom();
        for (size_t i = 0; i < got; i++)
            len = p[i] + 1 > len ? (size_t)p[i] + 1 : len;
        *counts = got ? CLI_NEWN(len, uint64_t) : NULL;
        for (size_t i = 0; i < got; i++)
            (*counts)[p[i]]++;
        h->sampled = got;
        free(p);
    }
    h->dist = *counts;
    h->dist_len = *counts ? len : 0;
    qn_distrib_free(dist);
    qn_solver_free(solver);
}

/*
 * pack show --svg: where the pack sits. Its puzzles' minimal press counts
 * as shares, drawn against the share of all solvable states of the rule
 * at each count (or of a sample of them, rule_distribution; left out when
 * the pack mixes rules).
 */
int cmd_pack_svg(qn_store *s, const char *name, qn_buf *out, qn_err *err)
{
    qn_pack_doc doc;
    qn_svg_hist h = {0};
    uint64_t *pack = NULL, *all = NULL;
    size_t plen = 1;
    char title[256];
    int rc;

    if ((rc = qn_pack_doc_load(&doc, s, name, err)) != QN_OK)
        return rc;
    for (size_t i = 0; i < doc.npuzzles; i++)
        if (doc.puzzles[i].min_presses + 1 > plen)
            plen = (size_t)doc.puzzles[i].min_presses + 1;
    pack = CLI_NEWN(plen, uint64_t); /* plen <= ncells * (k - 1) + 1 */
    for (size_t i = 0; i < doc.npuzzles; i++)
        pack[doc.puzzles[i].min_presses]++;
    if (doc.nrules == 1)
        rule_distribution(doc.rules[0].rules, &h, &all);
    snprintf(title, sizeof(title), "pack %s: %zu %s%s", name, doc.npuzzles,
             qn_plural(doc.npuzzles, "puzzle", "puzzles"),
             !all        ? ""
             : h.sampled ? " against a sample of solvable states"
                         : " against all solvable states");
    h.pack = pack, h.pack_len = plen, h.title = title;
    qn_svg_histogram(out, &h);
    free(pack);
    free(all);
    qn_pack_doc_release(&doc);
    return QN_OK;
}
