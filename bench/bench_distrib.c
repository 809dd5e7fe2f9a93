/*
 * bench_distrib.c: the exact minimal-press distribution. Issue #5's figure:
 * classic 5x5 (2^23 solvable states) in about a second or less. Also the
 * nth-state lookup used for exhaustive selection, and the shipped rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "engine/system.h"
#include "generate/distrib.h"
#include "rules/rules.h"

static uint8_t *plus(int w, int h, unsigned amt)
{
    int n = w * h;
    uint8_t *a = calloc((size_t)n * n, 1);
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            int j = r * w + c;
            a[(size_t)j * n + j] = (uint8_t)amt;
            if (r > 0)
                a[(size_t)(j - w) * n + j] = (uint8_t)amt;
            if (r < h - 1)
                a[(size_t)(j + w) * n + j] = (uint8_t)amt;
            if (c > 0)
                a[(size_t)(j - 1) * n + j] = (uint8_t)amt;
            if (c < w - 1)
                a[(size_t)(j + 1) * n + j] = (uint8_t)amt;
        }
    return a;
}

static uint8_t *ring(int n)
{
    uint8_t *a = calloc((size_t)n * n, 1);
    for (int j = 0; j < n; j++) {
        a[j * n + j] = 1;
        a[((j + 1) % n) * n + j] = 1;
        a[((j + n - 1) % n) * n + j] = 1;
    }
    return a;
}

/* Median compute time; then nth lookups per second at the median count. */
static void run(const char *label, const uint8_t *a, int n, unsigned k,
                const char *target)
{
    qn_system *sys;
    qn_distrib *d = NULL;
    qn_err err = QN_ERR_INIT;
    int reps = bench_reps(5);
    double t[64], med;
    uint8_t *s = malloc((size_t)n + 1);

    if (qn_system_new(&sys, a, n, n, k, &err)) {
        printf("distrib %s: %s\n", label, err.msg);
        free(s);
        return;
    }
    for (int r = 0; r < reps && r < 64; r++) {
        double t0 = bench_now();
        qn_distrib_free(d);
        d = NULL;
        if (qn_distrib_compute(&d, sys, &err) != QN_OK) {
            printf("distrib %-36s: QN_ELIMIT (%s)\n", label, err.msg);
            qn_system_free(sys);
            free(s);
            return;
        }
        t[r] = bench_now() - t0;
    }
    med = bench_median(t, reps < 64 ? reps : 64);
    printf("distrib %-36s (%llu states, max %zu presses): median %.4f s%s\n",
           label, (unsigned long long)qn_distrib_total(d),
           qn_distrib_len(d) - 1, med, target ? target : "");
    if (target)
        printf("        target about 1 s or less: %s\n",
               med <= 1.0 ? "PASS" : "FAIL");

    /* nth at the most common press count, uniformly random i. */
    {
        size_t mode = 0;
        uint64_t st = 1, sink = 0;
        long iters = 200000;
        double t0;

        for (size_t m = 0; m < qn_distrib_len(d); m++)
            if (qn_distrib_count(d, m) > qn_distrib_count(d, mode))
                mode = m;
        t0 = bench_now();
        for (long it = 0; it < iters; it++) {
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            sink += qn_distrib_nth(d, mode,
                                   (st >> 11) % qn_distrib_count(d, mode), s);
        }
        t0 = bench_now() - t0;
        printf("        nth at %zu presses: %.0f ns per state (sink %llu)\n",
               mode, t0 / (double)iters * 1e9, (unsigned long long)(sink & 1));
    }
    qn_distrib_free(d);
    qn_system_free(sys);
    free(s);
}

static void rule_file(const char *path)
{
    qn_rules *r = NULL;
    qn_err err = QN_ERR_INIT;

    if (qn_rules_load_file(&r, path, &err) != QN_OK) {
        printf("distrib %s: %s\n", path, err.msg);
        return;
    }
    run(path, qn_rules_matrix(r), qn_rules_ncells(r), qn_rules_colours(r),
        NULL);
    qn_rules_free(r);
}

int main(void)
{
    uint8_t *a;
    static const char *const files[] = {
        "rules/classic-3x3.yaml",  "rules/whack-a-mole-4x4.yaml",
        "rules/quatrainment.yaml", "rules/ring6-mod8.yaml",
        "rules/merlin.yaml",       "rules/torus-5x5.yaml",
        "rules/sigma-5x5.yaml",    "rules/hexagon-3.yaml",
        "rules/moore-6x6.yaml",    "rules/lights-out-2000.yaml",
        "rules/cross-7x7.yaml",    "rules/four-colour-10x10.yaml"};

    a = plus(5, 5, 1);
    run("classic 5x5 (2^23 states)", a, 25, 2, " (issue 5)");
    free(a);
    a = plus(4, 4, 1);
    run("classic 4x4 (2^12 states)", a, 16, 2, NULL);
    free(a);
    a = ring(6);
    run("ring6 mod 8", a, 6, 8, NULL);
    free(a);
    a = plus(4, 4, 1);
    run("plus 4x4 mod 3 (k > 2 BFS)", a, 16, 3, NULL);
    free(a);
    a = plus(5, 5, 1);
    run("lights-out-2000 5x5 k=3", a, 25, 3, NULL);
    free(a);
    /* At the limit (2^26 states): the slow paths. */
    a = bench_random_kernel(30, 4, 11);
    run("random 30 cells, rank 26, kernel 2^4", a, 30, 2, NULL);
    free(a);
    a = bench_random_kernel(40, 14, 12);
    run("random 40 cells, rank 26, kernel 2^14", a, 40, 2, NULL);
    free(a);
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
        rule_file(files[i]);
    return 0;
}
