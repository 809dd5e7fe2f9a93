/* tier: full (exact distributions against brute force: 6 s of CPU) */
/*
 * test_distrib.c: the exact minimal-press distribution against published
 * histograms and brute force, the nth-state index, default tiers, and the
 * symmetry counts of issue 5 (Burnside on 3x3, A075463 on 4x4).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "engine/minpress.h"
#include "engine/system.h"
#include "generate/distrib.h"
#include "rules/canon.h"
#include "rules/rules.h"
#include "t.h"
#include "tboards.h"

static qn_system *mksys(const uint8_t *a, int nr, int nc, unsigned k)
{
    qn_system *sys = NULL;
    qn_err err = QN_ERR_INIT;

    if (qn_system_new(&sys, a, nr, nc, k, &err) != QN_OK) {
        fprintf(stderr, "qn_system_new: %s\n", err.msg);
        exit(2);
    }
    return sys;
}

static qn_distrib *mkdist(const qn_system *sys)
{
    qn_distrib *d = NULL;
    qn_err err = QN_ERR_INIT;
    int code = qn_distrib_compute(&d, sys, &err);

    T_EQ(code, QN_OK);
    if (code != QN_OK) {
        fprintf(stderr, "qn_distrib_compute: %s\n", err.msg);
        exit(2);
    }
    return d;
}

/* Tiers must cover 1..max in order with no gap or overlap. */
static int tiers_ok(const qn_tiers *t, uint64_t max)
{
    uint64_t next = 1;

    if (max == 0)
        return t->n == 0;
    if (t->n == 0 || t->n > QN_TIERS_MAX)
        return 0;
    for (size_t i = 0; i < t->n; i++) {
        if (t->lo[i] != next || t->hi[i] < t->lo[i] || !t->name[i][0])
            return 0;
        next = t->hi[i] + 1;
    }
    return t->hi[t->n - 1] == max;
}

/* Compare against a "m<TAB>states" file; 0 rows past the maximum. */
static void check_golden(const char *path, int w, int h)
{
    FILE *f = fopen(path, "r");
    uint8_t *a = t_plus(w, h, 1);
    qn_system *sys = mksys(a, w * h, w * h, 2);
    qn_distrib *d = mkdist(sys);
    char line[128];
    unsigned long long m, states, total = 0, rows = 0, last = 0;

    T_CHECK(f != NULL);
    if (!f)
        exit(2);
    while (fgets(line, sizeof(line), f)) {
        if (sscanf(line, "%llu %llu", &m, &states) != 2)
            continue; /* the header */
        rows++;
        total += states;
        if (states)
            last = m;
        if (qn_distrib_count(d, (size_t)m) != states)
            T_FAILF("%s: m = %llu: %llu states, expected %llu", path, m,
                    (unsigned long long)qn_distrib_count(d, (size_t)m), states);
    }
    fclose(f);
    T_CHECK(rows > 10);
    T_EQ(qn_distrib_len(d), last + 1);
    T_EQ(qn_distrib_total(d), total);
    qn_distrib_free(d);
    qn_system_free(sys);
    free(a);
}

/*
 * Brute force: every press vector x in 0..k-1 per column; the state it
 * solves is s = -(A x). best[index of s in base k] = least sum(x).
 * Returns the table (k^nr entries, 0xFFFF = unsolvable).
 */
static uint16_t *brute(const uint8_t *a, int nr, int nc, unsigned k)
{
    size_t ns = 1, nx = 1;
    uint16_t *best;
    unsigned x[16] = {0}, s[16];

    for (int i = 0; i < nr; i++)
        ns *= k;
    for (int j = 0; j < nc; j++)
        nx *= k;
    best = malloc(ns * sizeof(*best));
    memset(best, 0xFF, ns * sizeof(*best));
    for (size_t it = 0; it < nx; it++) {
        size_t v = it, idx = 0;
        unsigned sum = 0;
        for (int j = 0; j < nc; j++) {
            x[j] = (unsigned)(v % k), v /= k;
            sum += x[j];
        }
        for (int i = nr - 1; i >= 0; i--) {
            s[i] = 0;
            for (int j = 0; j < nc; j++)
                s[i] += a[i * nc + j] * x[j];
            s[i] = (k - s[i] % k) % k;
            idx = idx * k + s[i];
        }
        if (sum < best[idx])
            best[idx] = (uint16_t)sum;
    }
    return best;
}

static size_t state_index(const uint8_t *s, int nr, unsigned k)
{
    size_t idx = 0;

    for (int i = nr - 1; i >= 0; i--)
        idx = idx * k + s[i];
    return idx;
}

/*
 * Histogram, total and the complete nth enumeration against brute force:
 * every state listed for m is distinct, needs m presses and they are all.
 */
static int check_against_brute(const uint8_t *a, int nr, int nc, unsigned k,
                               const char *what)
{
    qn_system *sys = mksys(a, nr, nc, k);
    qn_distrib *d = mkdist(sys);
    uint16_t *best = brute(a, nr, nc, k);
    size_t ns = 1, hist[1024] = {0}, maxm = 0, total = 0;
    qn_tiers tiers;
    uint8_t *seen, s[16];
    int bad = 0;

    for (int i = 0; i < nr; i++)
        ns *= k;
    for (size_t i = 0; i < ns; i++)
        if (best[i] != 0xFFFF) {
            hist[best[i]]++;
            total++;
            maxm = best[i] > maxm ? best[i] : maxm;
        }
    if (qn_distrib_total(d) != total || qn_distrib_len(d) != maxm + 1)
        bad = 1;
    for (size_t m = 0; m <= maxm + 1; m++)
        if (qn_distrib_count(d, m) != hist[m])
            bad = 1;
    seen = calloc(ns, 1);
    for (size_t m = 0; m < qn_distrib_len(d) && !bad; m++) {
        uint64_t prev = 0;
        for (uint64_t i = 0; i < qn_distrib_count(d, m); i++) {
            uint64_t idx = qn_distrib_nth(d, m, i, s);
            size_t si = state_index(s, nr, k);
            if ((i && idx <= prev) || seen[si] || best[si] != m)
                bad = 1;
            seen[si] = 1;
            prev = idx;
        }
    }
    qn_tiers_from_distrib(&tiers, d);
    if (!tiers_ok(&tiers, maxm))
        bad = 1;
    if (bad)
        T_FAILF("%s: distribution differs from brute force (%dx%d mod %u)",
                what, nr, nc, k);
    else
        t_pass++;
    free(seen);
    free(best);
    qn_distrib_free(d);
    qn_system_free(sys);
    return !bad;
}

static void test_classic(void)
{
    uint8_t *a = t_plus(3, 3, 1);
    qn_system *sys = mksys(a, 9, 9, 2);
    qn_distrib *d = mkdist(sys);
    static const uint64_t binom9[10] = {1, 9, 36, 84, 126, 126, 84, 36, 9, 1};

    T_EQ(qn_distrib_total(d), 512);
    T_EQ(qn_distrib_len(d), 10);
    for (size_t m = 0; m < 10; m++)
        T_EQ(qn_distrib_count(d, m), binom9[m]);
    T_EQ(qn_distrib_count(d, 10), 0);
    T_EQ(qn_distrib_ncells(d), 9);
    qn_distrib_free(d);
    qn_system_free(sys);
    free(a);

    check_golden("tests/golden/plus_4x4_min_presses.tsv", 4, 4);
    check_golden("tests/golden/plus_5x5_min_presses.tsv", 5, 5);
}

static void test_ring(void)
{
    uint8_t *a = t_ring(6);
    qn_system *sys = mksys(a, 6, 6, 8);
    qn_distrib *d = mkdist(sys);

    T_EQ(qn_distrib_total(d), 4096);
    check_against_brute(a, 6, 6, 8, "ring6 mod 8");
    qn_distrib_free(d);
    qn_system_free(sys);
    free(a);
}

/*
 * Random systems, k = 2..6, up to 6 x 6 (rectangular too). Entries are
 * drawn from a small menu so that rank-deficient matrices, big kernels
 * (the k = 2 BFS path) and zero divisors (k = 4, 6) all occur.
 */
static void test_random(void)
{
    uint64_t seed = 20261122;
    int ok = 0, cases = 0;

    for (unsigned k = 2; k <= 6; k++)
        for (int rep = 0; rep < 60; rep++) {
            int nr = 1 + (int)(t_rand(&seed) % 6),
                nc = 1 + (int)(t_rand(&seed) % 6);
            unsigned style = (unsigned)(t_rand(&seed) % 4);
            uint8_t a[36];
            unsigned div = k % 2 == 0 ? 2 : (k % 3 == 0 ? 3 : 1);
            char what[64];

            if (k == 6 && nc == 6 && nr == 6)
                nc = 5; /* keep the brute force small */
            for (int i = 0; i < nr * nc; i++) {
                uint64_t r = t_rand(&seed);
                unsigned v = (unsigned)(r % k);
                if (style == 1 && r % 3)
                    v = 0; /* sparse: rank deficient */
                else if (style == 2)
                    v = (v * div) % k; /* zero divisors only */
                else if (style == 3 && nc > 1 && i % nc == nc - 1)
                    v = a[i - 1]; /* repeated columns */
                a[i] = (uint8_t)v;
            }
            snprintf(what, sizeof(what), "random k=%u rep %d style %u", k, rep,
                     style);
            ok += check_against_brute(a, nr, nc, k, what);
            cases++;
        }
    /* Large k: distances past 254 use the 16-bit table. */
    for (int rep = 0; rep < 12; rep++) {
        static const unsigned ks[4] = {97, 128, 200, 255};
        unsigned k = ks[rep % 4];
        int nr = 1 + rep % 2, nc = 1 + (rep / 2) % 2;
        uint8_t a[4];
        char what[64];

        for (int i = 0; i < nr * nc; i++)
            a[i] = (uint8_t)(t_rand(&seed) % k);
        if (rep % 3 == 0)
            a[0] = 1; /* a unit: a cyclic image of order k */
        snprintf(what, sizeof(what), "large k=%u rep %d", k, rep);
        ok += check_against_brute(a, nr, nc, k, what);
        cases++;
    }
    T_EQ(ok, cases);

    /* The zero matrix: only the goal is solvable; no tiers. */
    {
        uint8_t z[4] = {0};
        qn_system *sys = mksys(z, 2, 2, 3);
        qn_distrib *d = mkdist(sys);
        qn_tiers t;
        uint8_t s[2] = {9, 9};

        T_EQ(qn_distrib_total(d), 1);
        T_EQ(qn_distrib_len(d), 1);
        T_EQ(qn_distrib_nth(d, 0, 0, s), 0);
        T_CHECK(s[0] == 0 && s[1] == 0);
        qn_tiers_from_distrib(&t, d);
        T_EQ(t.n, 0);
        qn_distrib_free(d);
        qn_system_free(sys);
    }
}

/* nth on classic 5x5: the hardest 7350 states, checked by minpress. */
static void test_nth(void)
{
    uint8_t *a = t_plus(5, 5, 1);
    qn_system *sys = mksys(a, 25, 25, 2);
    qn_distrib *d = mkdist(sys);
    uint8_t s[25], x[25];
    qn_minpress mp;
    qn_err err = QN_ERR_INIT;
    uint64_t prev = 0, seed = 7;
    int bad = 0, nbad = 0;
    char *seen = calloc((size_t)1 << 25, 1);

    T_EQ(qn_distrib_count(d, 15), 7350);
    for (uint64_t i = 0; i < 7350; i++) {
        uint64_t idx = qn_distrib_nth(d, 15, i, s);
        uint32_t key = 0;
        for (int c = 0; c < 25; c++)
            key |= (uint32_t)s[c] << c;
        if ((i && idx <= prev) || seen[key])
            bad++;
        seen[key] = 1;
        prev = idx;
        if (qn_minpress_solve(sys, &mp, x, s, QN_MINPRESS_DEFAULT_LIMIT,
                              &err) != QN_OK ||
            mp.presses != 15)
            nbad++;
    }
    T_EQ(bad, 0);
    T_EQ(nbad, 0);
    /* m = 1: exactly the 25 single presses. */
    memset(seen, 0, (size_t)1 << 25);
    bad = 0;
    for (uint64_t i = 0; i < 25; i++) {
        uint32_t key = 0;
        int lit = 0;
        qn_distrib_nth(d, 1, i, s);
        for (int c = 0; c < 25; c++)
            key |= (uint32_t)s[c] << c, lit += s[c];
        if (seen[key] || lit < 3 || lit > 5)
            bad++;
        seen[key] = 1;
    }
    T_EQ(bad, 0);
    /* Random picks at every press count. */
    nbad = 0;
    for (size_t m = 0; m < qn_distrib_len(d); m++)
        for (int rep = 0; rep < 40; rep++) {
            uint64_t i = t_rand(&seed) % qn_distrib_count(d, m);
            qn_distrib_nth(d, m, i, s);
            if (qn_minpress_solve(sys, &mp, x, s, QN_MINPRESS_DEFAULT_LIMIT,
                                  &err) != QN_OK ||
                mp.presses != m)
                nbad++;
        }
    T_EQ(nbad, 0);
    free(seen);
    qn_distrib_free(d);
    qn_system_free(sys);
    free(a);
}

static void test_limit(void)
{
    uint8_t *a = t_plus(5, 5, 1);
    qn_system *sys = mksys(a, 25, 25, 3);
    qn_distrib *d = (qn_distrib *)&d;
    qn_err err = QN_ERR_INIT;

    T_EQ(qn_distrib_compute(&d, sys, &err), QN_ELIMIT);
    T_CHECK(d == NULL);
    T_EQ(err.code, QN_ELIMIT);
    T_CHECK(strstr(err.msg, "2^26") != NULL);
    qn_system_free(sys);
    free(a);
}

static void test_json(void)
{
    uint8_t *a = t_plus(3, 3, 1);
    qn_system *sys = mksys(a, 9, 9, 2);
    qn_distrib *d = mkdist(sys);
    qn_buf b = QN_BUF_INIT;
    qn_jsonw w;

    qn_jsonw_init(&w, &b);
    qn_distrib_json(d, &w);
    T_CHECK(b.len > 0 && strcmp(b.buf, "[1,9,36,84,126,126,84,36,9,1]") == 0);
    qn_buf_release(&b);
    qn_distrib_free(d);
    qn_system_free(sys);
    free(a);
}

static void test_tiers(void)
{
    uint8_t *a = t_plus(5, 5, 1);
    qn_system *sys = mksys(a, 25, 25, 2);
    qn_distrib *d = mkdist(sys);
    qn_tiers t;
    uint64_t seed = 99, samples[2000];
    qn_rules *r = NULL;
    qn_err err = QN_ERR_INIT;

    qn_tiers_from_distrib(&t, d);
    T_CHECK(tiers_ok(&t, 15));
    T_EQ(t.n, 5);
    /* The documented example cut (distrib.h). */
    T_EQ(t.hi[0], 7);
    T_EQ(t.hi[1], 9);
    T_EQ(t.hi[2], 10);
    T_EQ(t.hi[3], 12);
    T_CHECK(strcmp(qn_tiers_grade(&t, 15), "master") == 0);
    T_CHECK(strcmp(qn_tiers_grade(&t, 1), "easy") == 0);
    T_CHECK(qn_tiers_grade(&t, 0) == NULL);
    T_CHECK(qn_tiers_grade(&t, 16) == NULL);
    qn_distrib_free(d);
    qn_system_free(sys);
    free(a);

    /* Small distributions: one tier per press count. */
    a = t_plus(1, 2, 1); /* 2 cells: states need 0 or 1 press */
    sys = mksys(a, 2, 2, 2);
    d = mkdist(sys);
    qn_tiers_from_distrib(&t, d);
    T_CHECK(tiers_ok(&t, qn_distrib_len(d) - 1));
    T_EQ(t.n, qn_distrib_len(d) - 1);
    qn_distrib_free(d);
    qn_system_free(sys);
    free(a);

    /* Random distributions from the brute-force systems and samples. */
    for (int rep = 0; rep < 200; rep++) {
        size_t n = 1 + t_rand(&seed) % 2000;
        uint64_t spread = 1 + t_rand(&seed) % 40, max = 0, bound;
        for (size_t i = 0; i < n; i++) {
            samples[i] = t_rand(&seed) % (spread + 1);
            if (rep % 3 == 0)
                samples[i] = samples[i] * samples[i] / (spread + 1);
            max = samples[i] > max ? samples[i] : max;
        }
        bound = rep % 2 ? max + t_rand(&seed) % 5 : 0;
        qn_tiers_from_samples(&t, samples, n, bound);
        if (!tiers_ok(&t, bound > max ? bound : max))
            T_FAILF("sample tiers rep %d: gap or overlap", rep);
        else
            t_pass++;
        for (size_t i = 0; i < n; i++)
            if (samples[i] && !qn_tiers_grade(&t, samples[i]))
                T_FAILF("sample tiers rep %d: %llu ungraded", rep,
                        (unsigned long long)samples[i]);
    }
    qn_tiers_from_samples(&t, samples, 0, 0);
    T_EQ(t.n, 0);

    /* Tiers from a rule file are copied verbatim. */
    T_EQ(qn_rules_load_file(&r, "rules/classic-5x5.yaml", &err), QN_OK);
    if (r) {
        T_EQ(qn_tiers_from_rules(&t, r), 3);
        T_CHECK(strcmp(t.name[0], "easy") == 0 && t.lo[0] == 1 && t.hi[0] == 5);
        T_CHECK(strcmp(qn_tiers_grade(&t, 12), "hard") == 0);
        qn_rules_free(r);
    }
    T_EQ(qn_rules_load_file(&r, "rules/classic-3x3.yaml", &err), QN_OK);
    if (r) {
        T_EQ(qn_tiers_from_rules(&t, r), 0);
        qn_rules_free(r);
    }
}

/* The 8 symmetries of the w x w square as cell permutations, built here. */
static void square_syms(int w, int p[8][64])
{
    for (int s = 0; s < 8; s++)
        for (int r = 0; r < w; r++)
            for (int c = 0; c < w; c++) {
                int rr = r, cc = c, t;
                if (s & 1)
                    cc = w - 1 - cc; /* mirror */
                for (int q = 0; q < (s >> 1); q++) {
                    t = rr, rr = cc, cc = w - 1 - t; /* rotate 90 */
                }
                p[s][r * w + c] = rr * w + cc;
            }
}

static int ncycles(const int *p, int n)
{
    int seen[64] = {0}, nc = 0;

    for (int i = 0; i < n; i++) {
        if (seen[i])
            continue;
        nc++;
        for (int j = i; !seen[j]; j = p[j])
            seen[j] = 1;
    }
    return nc;
}

static void test_burnside(void)
{
    qn_rules *r = NULL;
    qn_err err = QN_ERR_INIT;
    int p[8][64], distinct = 1;
    uint64_t fixed = 0;
    uint8_t s[9], cf[9];
    char *isc = calloc(512, 1);
    size_t norbits = 0;

    square_syms(3, p);
    for (int a = 0; a < 8; a++)
        for (int b = 0; b < a; b++)
            if (!memcmp(p[a], p[b], 9 * sizeof(int)))
                distinct = 0;
    T_CHECK(distinct);
    for (int g = 0; g < 8; g++)
        fixed += (uint64_t)1 << ncycles(p[g], 9);
    T_EQ(fixed % 8, 0);
    T_EQ(fixed / 8, 102);

    T_EQ(qn_rules_load_file(&r, "rules/classic-3x3.yaml", &err), QN_OK);
    if (!r)
        return;
    T_EQ(qn_rules_nsyms(r), 8);
    for (unsigned v = 0; v < 512; v++) {
        unsigned key = 0;
        for (int i = 0; i < 9; i++)
            s[i] = (uint8_t)((v >> i) & 1);
        qn_canon_form(r, cf, s);
        for (int i = 0; i < 9; i++)
            key |= (unsigned)cf[i] << i;
        if (!isc[key])
            norbits++;
        isc[key] = 1;
    }
    T_EQ(norbits, fixed / 8);
    free(isc);
    qn_rules_free(r);
}

typedef struct collect {
    int n;
    uint8_t x[64][16];
} collect;

static int collect_fn(void *ctx, const uint8_t *x)
{
    collect *c = ctx;

    if (c->n < 64)
        memcpy(c->x[c->n], x, 16);
    c->n++;
    return 0;
}

/* The 16 solutions of the all-on 4x4 board: 5 classes (OEIS A075463). */
static void test_a075463(void)
{
    qn_rules *r = NULL;
    qn_err err = QN_ERR_INIT;
    qn_system *sys;
    uint8_t s[16], cf[64][16];
    const uint8_t *goal;
    collect c;
    int nclass = 0, p[8][64], nclass_own = 0;
    uint8_t own[64][16];

    T_EQ(qn_rules_load_file(&r, "rules/whack-a-mole-4x4.yaml", &err), QN_OK);
    if (!r)
        return;
    T_EQ(qn_rules_ncells(r), 16);
    T_EQ(qn_rules_nsyms(r), 8);
    sys = mksys(qn_rules_matrix(r), 16, 16, 2);
    goal = qn_rules_goal(r);
    for (int i = 0; i < 16; i++)
        s[i] = (uint8_t)(1 ^ goal[i]); /* all on, relative to the goal */
    memset(&c, 0, sizeof(c));
    T_EQ(qn_minpress_each(sys, s, 1000, collect_fn, &c), 16);
    T_EQ(c.n, 16);
    square_syms(4, p);
    for (int i = 0; i < c.n && i < 64; i++) {
        uint8_t y[16], best[16];
        int dup = 0;

        qn_canon_form(r, cf[nclass], c.x[i]);
        for (int j = 0; j < nclass; j++)
            if (!memcmp(cf[j], cf[nclass], 16))
                dup = 1;
        if (!dup)
            nclass++;
        /* The same with the test's own permutations. */
        memcpy(best, c.x[i], 16);
        for (int g = 1; g < 8; g++) {
            for (int k = 0; k < 16; k++)
                y[p[g][k]] = c.x[i][k];
            if (memcmp(y, best, 16) < 0)
                memcpy(best, y, 16);
        }
        dup = 0;
        for (int j = 0; j < nclass_own; j++)
            if (!memcmp(own[j], best, 16))
                dup = 1;
        if (!dup)
            memcpy(own[nclass_own++], best, 16);
    }
    T_EQ(nclass, 5);
    T_EQ(nclass_own, 5);
    qn_system_free(sys);
    qn_rules_free(r);
}

/* ------------------------------------------------------------------
 * Census (issue 20): every target's states and distinct puzzles per press
 * count against brute force over every press vector, with orbits counted
 * by marking representatives (a state no symmetry maps below it), not by
 * Burnside.
 */
typedef struct bf {
    int n;
    unsigned k;
    size_t ns;     /* k^n states, indexed sum s_i k^i */
    uint8_t *best; /* least presses, 255 unsolvable */
    uint8_t *nopt; /* plans attaining it, saturated at 2 */
} bf;

static void bf_visit(bf *b, size_t s, unsigned w)
{
    if (w < b->best[s])
        b->best[s] = (uint8_t)w, b->nopt[s] = 1;
    else if (w == b->best[s] && b->nopt[s] < 2)
        b->nopt[s]++;
}

/* Every x in Z_k^n; the state it solves is -(A x). */
static void bf_run(bf *b, const uint8_t *a)
{
    int n = b->n;
    unsigned k = b->k, x[32] = {0}, st[32] = {0}, w = 0;
    uint32_t col[32] = {0}, s = 0;

    b->ns = 1;
    for (int i = 0; i < n; i++)
        b->ns *= k;
    b->best = malloc(b->ns);
    b->nopt = calloc(b->ns, 1);
    memset(b->best, 255, b->ns);
    if (k == 2) { /* Gray code: one column per step */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                col[j] |= (uint32_t)(a[i * n + j] & 1) << i;
        bf_visit(b, 0, 0);
        for (uint64_t g = 1; g < ((uint64_t)1 << n); g++) {
            int j = __builtin_ctzll(g);
            s ^= col[j];
            w = (unsigned)__builtin_popcountll(g ^ (g >> 1));
            bf_visit(b, s, w);
        }
        return;
    }
    for (size_t it = 0; it < b->ns; it++) {
        size_t idx = 0;
        for (int i = n - 1; i >= 0; i--)
            idx = idx * k + (k - st[i]) % k;
        bf_visit(b, idx, w);
        for (int j = 0; j < n; j++) { /* x += 1 (mixed radix) */
            for (int i = 0; i < n; i++)
                st[i] = (st[i] + a[i * n + j]) % k;
            w++;
            if (++x[j] < k)
                break;
            x[j] = 0;
            w -= k;
        }
    }
}

static void bf_digits(const bf *b, size_t s, unsigned *dig)
{
    for (int i = 0; i < b->n; i++)
        dig[i] = (unsigned)(s % b->k), s /= b->k;
}

static int bf_member(const bf *b, size_t s, const qn_target *t)
{
    unsigned dig[32], m = b->best[s];
    int lit = 0;

    if (m == 255 || m < t->lo || m > t->hi)
        return 0; /* the cheap test first: 5x5 has 2^25 states */
    bf_digits(b, s, dig);
    for (int i = 0; i < b->n; i++)
        lit += dig[i] != 0;
    return m != 255 && m >= 1 && m >= t->lo && m <= t->hi &&
           lit >= t->min_lit && (t->max_lit <= 0 || lit <= t->max_lit) &&
           (!t->unique_optimum || b->nopt[s] == 1);
}

/* No symmetry maps s to a smaller index. */
static int bf_is_rep(const bf *b, size_t s, const int (*p)[64], size_t np)
{
    unsigned dig[32], y[32];

    bf_digits(b, s, dig);
    for (size_t g = 1; g < np; g++) {
        size_t idx = 0;
        for (int i = 0; i < b->n; i++)
            y[p[g][i]] = dig[i];
        for (int i = b->n - 1; i >= 0; i--)
            idx = idx * b->k + y[i];
        if (idx < s)
            return 0;
    }
    return 1;
}

/* The census of t against brute force, and its nth enumeration. Returns
 * the distinct puzzles at press count `at` (for the caller's facts). */
static uint64_t check_census(const char *what, const qn_rules *r, const bf *b,
                             const int (*p)[64], size_t np, const qn_target *t,
                             size_t at)
{
    qn_system *sys = mksys(qn_rules_matrix(r), b->n, b->n, b->k);
    qn_distrib *d = mkdist(sys);
    qn_census *c = NULL;
    qn_err err = QN_ERR_INIT;
    uint64_t st[256] = {0}, orb[256] = {0}, got_at;
    uint8_t *hit = calloc(b->ns, 1), out[32];
    int bad = 0;

    T_EQ(qn_census_new(&c, d, sys, r, t, &err), QN_OK);
    if (!c) {
        fprintf(stderr, "%s: %s\n", what, err.msg);
        exit(2);
    }
    for (size_t s = 0; s < b->ns; s++)
        if (bf_member(b, s, t)) {
            st[b->best[s]]++;
            orb[b->best[s]] += (uint64_t)bf_is_rep(b, s, p, np);
        }
    for (size_t m = 0; m < 256; m++)
        if (qn_census_states(c, m) != st[m] ||
            qn_census_distinct(c, m) != orb[m]) {
            T_FAILF("%s: m = %zu: %llu states, %llu distinct; brute force "
                    "%llu, %llu",
                    what, m, (unsigned long long)qn_census_states(c, m),
                    (unsigned long long)qn_census_distinct(c, m),
                    (unsigned long long)st[m], (unsigned long long)orb[m]);
            bad = 1;
        }
    /* nth lists each member once */
    for (size_t m = 0; m < qn_census_len(c) && !bad; m++)
        for (uint64_t i = 0; i < st[m] && i < 20000; i++) {
            size_t idx = 0;
            qn_census_nth(c, m, i, out);
            for (int j = b->n - 1; j >= 0; j--)
                idx = idx * b->k + out[j];
            if (hit[idx] || !bf_member(b, idx, t) || b->best[idx] != m)
                bad = 1;
            hit[idx] = 1;
        }
    if (bad)
        T_FAILF("%s: the census's states differ from brute force", what);
    else
        t_pass++;
    got_at = qn_census_distinct(c, at);
    free(hit);
    qn_census_free(c);
    qn_distrib_free(d);
    qn_system_free(sys);
    return got_at;
}

/*
 * Issue 31: qn_image_orbits (Burnside by linear algebra) against the
 * representatives brute force marks, the goal's orbit included; and the
 * coset bound (qn_minpress_bound) never below brute force's largest
 * count.
 */
static void check_orbits_bound(const char *what, const qn_rules *r, const bf *b,
                               const int (*p)[64], size_t np)
{
    qn_system *sys = mksys(qn_rules_matrix(r), b->n, b->n, b->k);
    qn_err err = QN_ERR_INIT;
    uint64_t reps = 0, orbits = 0;
    unsigned max = 0;

    for (size_t s = 0; s < b->ns; s++)
        if (b->best[s] != 255) {
            reps += (uint64_t)bf_is_rep(b, s, p, np);
            if (b->best[s] > max)
                max = b->best[s];
        }
    T_EQ(qn_image_orbits(sys, r, &orbits, &err), QN_OK);
    if (orbits != reps)
        T_FAILF("%s: %llu orbits, brute force %llu", what,
                (unsigned long long)orbits, (unsigned long long)reps);
    else
        t_pass++;
    if (qn_minpress_bound(sys) < max)
        T_FAILF("%s: bound %llu below the maximum %u", what,
                (unsigned long long)qn_minpress_bound(sys), max);
    else
        t_pass++;
    qn_system_free(sys);
}

static qn_target target(uint64_t lo, uint64_t hi, int min_lit, int max_lit,
                        int unique)
{
    qn_target t;

    qn_target_init(&t);
    t.lo = lo, t.hi = hi, t.min_lit = min_lit, t.max_lit = max_lit;
    t.unique_optimum = unique;
    return t;
}

/* A rule's own symmetries, for boards the test builds none for. */
static size_t own_syms(const qn_rules *r, int (*p)[64], size_t max)
{
    size_t n = qn_rules_nsyms(r);

    T_CHECK(n <= max);
    for (size_t g = 0; g < n && g < max; g++)
        memcpy(p[g], qn_rules_sym(r, g), sizeof(int) * qn_rules_ncells(r));
    return n < max ? n : max;
}

static qn_rules *load_rules(const char *path, const char *text)
{
    qn_rules *r = NULL;
    qn_err err = QN_ERR_INIT;
    int rc = text ? qn_rules_load_buf(&r, text, strlen(text), path, &err)
                  : qn_rules_load_file(&r, path, &err);

    if (rc != QN_OK) {
        fprintf(stderr, "%s: %s\n", path, err.msg);
        exit(2);
    }
    return r;
}

static void test_census_small(void)
{
    static int p[256][64];
    static const char mod3[] = "quench: 1\nname: plus-3x3-mod3\ncolours: 3\n"
                               "board: {grid: [3, 3]}\n"
                               "press: {stencil: plus}\n";
    struct {
        const char *path, *text;
        int w;
    } boards[] = {
        {"rules/whack-a-mole-4x4.yaml", NULL, 4},
        {"plus-3x3-mod3", mod3, 3},
        {"rules/hexagon-3.yaml", NULL, 0},
        {"rules/ring6-mod8.yaml", NULL, 0},
    };

    for (size_t i = 0; i < sizeof(boards) / sizeof(boards[0]); i++) {
        qn_rules *r = load_rules(boards[i].path, boards[i].text);
        bf b = {qn_rules_ncells(r), qn_rules_colours(r), 0, NULL, NULL};
        size_t np = 8;
        qn_target ts[5];

        if (boards[i].w) {
            T_EQ(qn_rules_nsyms(r), 8);
            square_syms(boards[i].w, (int(*)[64])p);
        } else {
            np = own_syms(r, p, 256);
        }
        bf_run(&b, qn_rules_matrix(r));
        ts[0] = target(1, UINT64_MAX, 0, 0, 0);
        ts[1] = target(1, UINT64_MAX, 0, 0, 1);
        ts[2] = target(2, 5, 3, 0, 0);
        ts[3] = target(1, UINT64_MAX, 2, b.n - 2, 1);
        ts[4] = target(3, 3, 0, 4, 0);
        for (size_t j = 0; j < 5; j++)
            check_census(boards[i].path, r, &b, (const int(*)[64])p, np, &ts[j],
                         0);
        check_orbits_bound(boards[i].path, r, &b, (const int(*)[64])p, np);
        free(b.best);
        free(b.nopt);
        qn_rules_free(r);
    }
}

/*
 * Classic 5x5: issue 20 says 1,049 distinct puzzles need exactly 15
 * presses; brute force and the census agree on the number (7350 states,
 * conformance data). The all-lit board (lit 25) is one puzzle of 15.
 */
static void test_census_5x5(void)
{
    static int p[8][64];
    qn_rules *r = load_rules("rules/classic-5x5.yaml", NULL);
    bf b = {25, 2, 0, NULL, NULL};
    qn_target t;

    square_syms(5, p);
    bf_run(&b, qn_rules_matrix(r));
    t = target(15, 15, 0, 0, 0);
    T_EQ(check_census("5x5 15", r, &b, (const int(*)[64])p, 8, &t, 15), 1049);
    t = target(1, UINT64_MAX, 25, 0, 0);
    T_EQ(check_census("5x5 lit 25", r, &b, (const int(*)[64])p, 8, &t, 15), 1);
    t = target(13, 15, 20, 0, 0);
    check_census("5x5 13..15 lit 20..", r, &b, (const int(*)[64])p, 8, &t, 0);
    t = target(1, 3, 0, 2, 0);
    check_census("5x5 1..3 lit ..2", r, &b, (const int(*)[64])p, 8, &t, 0);
    check_orbits_bound("5x5", r, &b, (const int(*)[64])p, 8);
    free(b.best);
    free(b.nopt);
    qn_rules_free(r);
}

int main(void)
{
    test_classic();
    test_ring();
    test_random();
    test_nth();
    test_limit();
    test_json();
    test_tiers();
    test_burnside();
    test_a075463();
    test_census_small();
    test_census_5x5();
    return t_done();
}
