/*
 * bench_minpress.c: the exact minimal-press walk. Issue #2's figure: for
 * k = 2, at least 100 M coset elements per second for boards of up to 1024
 * cells; issue #24's: the AVX-512 block walk at least 1.8 times the rate of
 * the step loop it replaced at 256 and 1024 cells, timed in the same run
 * with the same results. Also the general-k walk and whole-pipeline solves
 * per second. Wall and CPU medians, load average at start and end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/engine/minpress_gf2.h" /* to time the old walk too */
#include "../src/engine/system_internal.h"
#include "bench.h"
#include "engine/minpress.h"
#include "engine/system.h"

static uint8_t *plus(int w, int h)
{
    int n = w * h;
    uint8_t *a = calloc((size_t)n * n, 1);
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            int j = r * w + c;
            a[(size_t)j * n + j] = 1;
            if (r > 0)
                a[(size_t)(j - w) * n + j] = 1;
            if (r < h - 1)
                a[(size_t)(j + w) * n + j] = 1;
            if (c > 0)
                a[(size_t)(j - 1) * n + j] = 1;
            if (c < w - 1)
                a[(size_t)(j + 1) * n + j] = 1;
        }
    return a;
}

/* Wall and CPU seconds of one solve; fills mp and x. */
static void time_solve(const qn_system *sys, qn_minpress *mp, uint8_t *x,
                       const uint8_t *s, double *wall, double *cpu)
{
    qn_err err;
    double t0 = bench_now(), c0 = bench_cpu();

    qn_minpress_solve(sys, mp, x, s, UINT64_MAX, &err);
    *wall = bench_now() - t0;
    *cpu = bench_cpu() - c0;
}

/*
 * The walk over one system. For k = 2 on a CPU with AVX-512 it also times
 * the step loop the block walk replaced (issue #24), alternating the two
 * so that both see the same machine, checks that they report the same
 * minimum, count and plan, and holds the block walk to `bar` times the
 * step loop's rate (0: no bar).
 */
static void walk(const char *label, uint8_t *a, int n, unsigned k, double bar)
{
    qn_system *sys;
    qn_err err;
    uint8_t *s = calloc((size_t)n, 1), *x = calloc((size_t)n, 1);
    uint8_t *xo = calloc((size_t)n, 1);
    int reps = bench_reps(5), old = 0;
    double tw[64], tc[64], ow[64], oc[64], w, c, rate;
    qn_minpress mp, mo;

    if (reps > 64)
        reps = 64;
    if (qn_system_new(&sys, a, n, n, k, &err)) {
        printf("%s: %s\n", label, err.msg);
        return;
    }
    /* a solvable state: s = A * (pattern) */
    for (int i = 0; i < n; i++)
        x[i] = (uint8_t)((i * 7) % k);
    memset(s, 0, (size_t)n);
    qn_system_apply(sys, s, x, s);
    old = k == 2 && qn__walk2_can(QN_WALK2_AVX512_STEP);
    for (int r = 0; r < reps; r++) {
        if (old) {
            qn_system__set_walk(sys, QN_WALK2_AVX512_STEP);
            time_solve(sys, &mo, xo, s, &ow[r], &oc[r]);
            qn_system__set_walk(sys, QN_WALK2_AUTO);
        }
        time_solve(sys, &mp, x, s, &tw[r], &tc[r]);
    }
    w = bench_median(tw, reps);
    c = bench_median(tc, reps);
    rate = (double)mp.nsolutions / w;
    printf("minpress %-34s cells %5d k %3u coset %10llu: median %.4f s "
           "(cpu %.4f s), %.1f M elements/s%s\n",
           label, n, k, (unsigned long long)mp.nsolutions, w, c, rate / 1e6,
           k == 2 && n <= 1024 ? (rate >= 1e8 ? " (target >= 100 M/s: PASS)"
                                              : " (target >= 100 M/s: FAIL)")
                               : "");
    if (old) {
        double owm = bench_median(ow, reps), ocm = bench_median(oc, reps);
        int same = mo.presses == mp.presses && mo.noptimal == mp.noptimal &&
                   memcmp(xo, x, (size_t)n) == 0;

        printf("  step loop (before #24) median %.4f s (cpu %.4f s), %.1f M "
               "elements/s; block walk x%.2f wall, x%.2f cpu; %s",
               owm, ocm, (double)mo.nsolutions / owm / 1e6, owm / w, ocm / c,
               same ? "same minimum, count and plan" : "RESULTS DIFFER");
        if (bar > 0)
            printf(" (bar >= x%.1f: %s)", bar,
                   owm / w >= bar && same ? "PASS" : "FAIL");
        printf("\n");
    }
    qn_system_free(sys);
    free(s);
    free(x);
    free(xo);
}

/* Whole solves per second on a small board (what generation does). */
static void solves(const char *label, int w, int h, unsigned k)
{
    int n = w * h, reps = bench_reps(5);
    uint8_t *a = plus(w, h), *x = malloc((size_t)n), *s = malloc((size_t)n);
    qn_system *sys;
    qn_err err;
    double t[64], c[64], tm;
    long iters = 200000;

    if (reps > 64)
        reps = 64;
    for (int i = 0; i < n * n; i++)
        a[i] = (uint8_t)(a[i] % k);
    qn_system_new(&sys, a, n, n, k, &err);
    for (int r = 0; r < reps; r++) {
        uint64_t st = 12345;
        double t0 = bench_now(), c0 = bench_cpu();
        for (long it = 0; it < iters; it++) {
            qn_minpress mp;
            for (int i = 0; i < n; i++) {
                st = st * 6364136223846793005ULL + 1;
                x[i] = (uint8_t)((st >> 40) % k);
            }
            memset(s, 0, (size_t)n);
            qn_system_apply(sys, s, x, s);
            qn_minpress_solve(sys, &mp, x, s, UINT64_MAX, &err);
        }
        t[r] = bench_now() - t0;
        c[r] = bench_cpu() - c0;
    }
    tm = bench_median(t, reps);
    printf("minpress %-34s %ld random solvable states: median %.3f s "
           "(cpu %.3f s), %.0f solves/s\n",
           label, iters, tm, bench_median(c, reps), (double)iters / tm);
    qn_system_free(sys);
    free(a);
    free(x);
    free(s);
}

int main(void)
{
    uint8_t *a;

    bench_load("start");

    a = plus(19, 19);
    walk("plus 19x19 (nullity 16)", a, 361, 2, 0);
    free(a);
    a = plus(30, 30);
    walk("plus 30x30 (nullity 20)", a, 900, 2, 0);
    free(a);
    a = plus(32, 32);
    walk("plus 32x32 (nullity 20)", a, 1024, 2, 1.8);
    free(a);
    a = bench_random_kernel(1024, 24, 99);
    walk("random dense 1024 cells, kernel 2^24", a, 1024, 2, 1.8);
    free(a);
    a = bench_random_kernel(256, 26, 7);
    walk("random dense 256 cells, kernel 2^26", a, 256, 2, 1.8);
    free(a);
    a = plus(4, 4);
    for (int i = 0; i < 256; i++)
        a[i] = a[i] ? 1 : 0;
    walk("plus 4x4 mod 8 (kernel 256)", a, 16, 8, 0);
    free(a);
    solves("plus 5x5 k=2", 5, 5, 2);
    solves("plus 7x7 k=2", 7, 7, 2);
    solves("plus 9x9 k=2 (kernel 256)", 9, 9, 2);
    solves("plus 5x5 k=3 (kernel 27)", 5, 5, 3);
    bench_load("end");
    return 0;
}
