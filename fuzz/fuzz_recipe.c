/* fuzz_recipe: the campaign recipe loader (qn_recipe_load_buf) and, when a
 * recipe loads, what recipe.h promises of it and every section seed. */
#include <string.h>

#include "fuzz.h"
#include "rules/recipe.h"

static int in_range(const qn_recipe_range *g)
{
    return g->lo <= g->hi && g->hi >= 1 &&
           (g->hi == UINT64_MAX || g->hi <= QN_RECIPE_MAX_BOUND);
}

static void check_section(const qn_recipe *r, size_t i)
{
    const qn_recipe_section *s = &r->sections[i];
    uint64_t sum = 0;
    qn_seed seed;

    FUZZ_ASSERT(s->name && s->rules && s->rules_path && *s->rules);
    FUZZ_ASSERT((s->ntiers == 0) != (s->count == 0));
    FUZZ_ASSERT(s->ntiers <= QN_RULES_MAX_TIERS);
    for (size_t t = 0; t < s->ntiers; t++) {
        FUZZ_ASSERT(s->tiers[t].count >= 1);
        sum += s->tiers[t].count;
        qn_recipe_section_seed(r, i, s->tiers[t].name, &seed);
    }
    FUZZ_ASSERT(s->total == (s->ntiers ? sum : s->count));
    FUZZ_ASSERT(in_range(&s->presses) && in_range(&s->lit));
    if (s->ntiers) /* presses and distribution go with count only */
        FUZZ_ASSERT(s->presses.mark.line == 0 &&
                    s->distribution_mark.line == 0);
    FUZZ_ASSERT(s->unique_optimum == 0 || s->unique_optimum == 1);
    for (size_t j = 0; j < i; j++)
        FUZZ_ASSERT(strcmp(r->sections[j].name, s->name) != 0);
    qn_recipe_section_seed(r, i, NULL, &seed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    qn_err err = QN_ERR_INIT;
    qn_recipe *r = NULL;
    int rc =
        qn_recipe_load_buf(&r, (const char *)data, size, "d/fuzz.yaml", &err);
    if (rc != QN_OK) {
        FUZZ_ASSERT(r == NULL);
        FUZZ_ASSERT(err.code == rc && (rc == QN_ESYNTAX || rc == QN_EINVAL));
        FUZZ_ASSERT(err.line >= 1 && err.col >= 1);
        return 0;
    }
    FUZZ_ASSERT(r != NULL && r->pack && *r->pack);
    FUZZ_ASSERT(r->nsections >= 1 && r->nsections <= QN_RECIPE_MAX_SECTIONS);
    FUZZ_ASSERT(r->variety <= QN_RULES_MAX_CELLS);
    FUZZ_ASSERT(strlen(r->seed_hex) == 64 && strlen(r->hash) == 64);
    FUZZ_ASSERT(r->len == size && !memcmp(r->text, data, size));
    uint64_t total = 0;
    for (size_t i = 0; i < r->nsections; i++) {
        check_section(r, i);
        total += r->sections[i].total;
    }
    FUZZ_ASSERT(total == r->total && total <= QN_RECIPE_MAX_PUZZLES);
    qn_recipe_free(r);
    return 0;
}
