/*
 * bench_campaign.c: issue #20's figures. A 100-level, 4-section recipe
 * (classic 5x5 by tier quotas, classic 7x7, classic 9x9 by tiers and the
 * three-colour Lights Out 2000 board, variety 3) built with `pack build`'s
 * library into a fresh database, then rebuilt unchanged. Prints the
 * medians of QN_BENCH_REPS runs (default 5) against the bars: a build
 * under 10 s, an unchanged rebuild under 0.5 s. Run from the project's
 * root (the recipe names rules/ by relative path).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "campaign/campaign.h"
#include "rules/recipe.h"
#include "store/store.h"

static const char recipe_text[] = "pack: bench-campaign\n"
                                  "seed: 20\n"
                                  "variety: 3\n"
                                  "sections:\n"
                                  "  - name: five\n"
                                  "    rules: rules/classic-5x5.yaml\n"
                                  "    tiers: {easy: 10, medium: 10, hard: 5}\n"
                                  "  - name: seven\n"
                                  "    rules: rules/classic-7x7.yaml\n"
                                  "    count: 25\n"
                                  "    presses: 8..16\n"
                                  "  - name: nine\n"
                                  "    rules: rules/classic-9x9.yaml\n"
                                  "    tiers: {easy: 10, medium: 10, hard: 5}\n"
                                  "  - name: three-colours\n"
                                  "    rules: rules/lights-out-2000.yaml\n"
                                  "    count: 25\n"
                                  "    presses: 6..14\n";

/* One build of r into the store at path; seconds, or -1. */
static double build(const qn_recipe *r, const char *path, int *puzzles)
{
    qn_store *s = NULL;
    qn_campaign *c = NULL;
    qn_campaign_stats st;
    qn_err err = QN_ERR_INIT;
    double t0 = bench_now();
    int rc = qn_store_open(&s, path, QN_STORE_CREATE, &err), same = 0;

    /* as `pack build` does: an unchanged recipe is not even planned */
    if (rc == QN_OK)
        rc = qn_campaign_unchanged(s, r, &same, &err);
    if (rc == QN_OK && !same)
        rc = qn_campaign_plan(&c, r, 2, 0, &err);
    if (rc == QN_OK && !same &&
        (rc = qn_campaign_build(c, s, &st, &err)) == QN_OK)
        *puzzles = (int)st.puzzles;
    qn_campaign_free(c);
    qn_store_close(s);
    if (rc != QN_OK) {
        fprintf(stderr, "bench_campaign: %s\n", err.msg);
        return -1;
    }
    return bench_now() - t0;
}

int main(void)
{
    int reps = bench_reps(5), n = 0;
    double *first = calloc((size_t)reps, sizeof(double));
    double *again = calloc((size_t)reps, sizeof(double));
    char dir[] = "/tmp/bench-campaign-XXXXXX", path[64];
    qn_recipe *r = NULL;
    qn_err err = QN_ERR_INIT;

    if (!first || !again || !mkdtemp(dir) ||
        qn_recipe_load_buf(&r, recipe_text, strlen(recipe_text), NULL, &err) !=
            QN_OK) {
        fprintf(stderr, "bench_campaign: set-up failed: %s\n", err.msg);
        return 1;
    }
    for (int i = 0; i < reps; i++) {
        snprintf(path, sizeof(path), "%s/c%d.db", dir, i);
        int m = 0;
        if ((first[i] = build(r, path, &n)) < 0 ||
            (again[i] = build(r, path, &m)) < 0)
            return 1;
    }
    printf("campaign: %d puzzles, 4 sections, variety 3, --jobs 2\n", n);
    printf("  build, fresh database:   median %.3f s (bar: < 10 s)\n",
           bench_median(first, reps));
    printf("  rebuild, unchanged:      median %.3f s (bar: < 0.5 s)\n",
           bench_median(again, reps));
    qn_recipe_free(r);
    free(first);
    free(again);
    return 0;
}
