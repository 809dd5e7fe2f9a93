/* fuzz_rules: the YAML rule loader (qn_rules_load_buf) and, when a file
 * loads, every accessor; big grid specs go through qn_rules_grid. */
#include <string.h>

#include "fuzz.h"
#include "rules/rules.h"

static void check_rules(const qn_rules *r)
{
    int n = qn_rules_ncells(r);
    unsigned k = qn_rules_colours(r);
    FUZZ_ASSERT(n >= 1 && n <= QN_RULES_MAX_CELLS);
    FUZZ_ASSERT(k >= 2 && k <= 255);
    FUZZ_ASSERT(qn_rules_name(r) && qn_rules_title(r) &&
                qn_rules_description(r) && qn_rules_author(r));
    const uint8_t *a = qn_rules_matrix(r), *goal = qn_rules_goal(r);
    int sym = 1;
    for (int i = 0; i < n; i++) {
        FUZZ_ASSERT(goal[i] < k);
        for (int j = 0; j < n; j++) {
            FUZZ_ASSERT(a[(size_t)i * n + j] < k);
            if (a[(size_t)i * n + j] != a[(size_t)j * n + i])
                sym = 0;
        }
    }
    FUZZ_ASSERT(qn_rules_is_symmetric(r) == sym);
    const qn_layout *l = qn_rules_layout(r);
    FUZZ_ASSERT(l && l->ncells == n);
    char hex[65];
    qn_rules_hash(r, hex);
    FUZZ_ASSERT(strlen(hex) == 64);
    for (size_t t = 0; t < qn_rules_ntiers(r); t++) {
        FUZZ_ASSERT(qn_rules_tier_name(r, t) != NULL);
        FUZZ_ASSERT(qn_rules_tier_lo(r, t) <= qn_rules_tier_hi(r, t));
    }
    size_t ns = qn_rules_nsyms(r);
    FUZZ_ASSERT(ns >= 1);
    FUZZ_ASSERT(qn_rules_symmetry_name(r) != NULL);
    for (size_t s = 0; s < ns; s++) {
        const int *p = qn_rules_sym(r, s), *q = qn_rules_sym_inverse(r, s);
        for (int i = 0; i < n; i++) {
            FUZZ_ASSERT(p[i] >= 0 && p[i] < n);
            FUZZ_ASSERT(q[p[i]] == i);
            if (s == 0)
                FUZZ_ASSERT(p[i] == i);
            FUZZ_ASSERT(goal[p[i]] == goal[i]);
        }
        /* A[p(i)][p(j)] == A[i][j], sampled on small boards */
        if (n <= 64)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++)
                    FUZZ_ASSERT(a[(size_t)p[i] * n + p[j]] ==
                                a[(size_t)i * n + j]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    qn_err err = QN_ERR_INIT;
    qn_rules *r = NULL;
    int rc = qn_rules_load_buf(&r, (const char *)data, size, "fuzz", &err);
    if (rc == QN_OK) {
        FUZZ_ASSERT(r != NULL);
        check_rules(r);
        qn_rules_free(r);
    } else {
        FUZZ_ASSERT(r == NULL);
        FUZZ_ASSERT(err.code == rc && rc < 0);
    }

    /* The spec route: big grids are read as stencil rules. */
    qn_rules_spec spec;
    qn_rules_spec_init(&spec);
    qn_err e2 = QN_ERR_INIT;
    if (qn_rules_parse_yaml(&spec, (const char *)data, size, &e2) == QN_OK &&
        qn_rules_spec_is_big(&spec, 0, 0)) {
        qn_grid_rule g;
        if (qn_rules_grid(&g, &spec, 0, 0, "fuzz", &e2) == QN_OK) {
            FUZZ_ASSERT(g.w >= 1 && g.h >= 1 && g.k >= 2 && g.k <= 255);
            for (size_t i = 0; i < g.noffsets; i++)
                FUZZ_ASSERT(g.offsets[i][2] >= 1 &&
                            (unsigned)g.offsets[i][2] < g.k);
        }
        qn_grid_rule_release(&g);
    }
    qn_rules_spec_release(&spec);
    return 0;
}
