/*
 * bench_minpress.c: the exact minimal-press walk. Issue #2's figure: for
 * k = 2, at least 100 M coset elements per second for boards of up to 1024
 * cells. Also the general-k walk and whole-pipeline solves per second.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "quench/minpress.h"
#include "quench/system.h"

static uint8_t *plus(int w, int h)
{
    int n = w * h;
    uint8_t *a = calloc((size_t)n * n, 1);
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            int j = r * w + c;
            a[(size_t)j * n + j] = 1;
            if (r > 0) a[(size_t)(j - w) * n + j] = 1;
            if (r < h - 1) a[(size_t)(j + w) * n + j] = 1;
            if (c > 0) a[(size_t)(j - 1) * n + j] = 1;
            if (c < w - 1) a[(size_t)(j + 1) * n + j] = 1;
        }
    return a;
}

static void walk(const char *label, uint8_t *a, int n, unsigned k)
{
    qn_system *sys;
    qn_err err;
    uint8_t *s = calloc((size_t)n, 1), *x = calloc((size_t)n, 1);
    int reps = bench_reps(5);
    double t[64];
    qn_minpress mp;

    if (qn_system_new(&sys, a, n, n, k, &err)) {
        printf("%s: %s\n", label, err.msg);
        return;
    }
    /* a solvable state: s = A * (pattern) */
    for (int i = 0; i < n; i++) x[i] = (uint8_t)((i * 7) % k);
    memset(s, 0, (size_t)n);
    qn_system_apply(sys, s, x, s);
    for (int r = 0; r < reps && r < 64; r++) {
        double t0 = bench_now();
        qn_minpress_solve(sys, &mp, x, s, UINT64_MAX, &err);
        t[r] = bench_now() - t0;
    }
    double med = bench_median(t, reps < 64 ? reps : 64);
    double rate = (double)mp.nsolutions / med;
    printf("minpress %-34s cells %5d k %3u coset %10llu: median %.4f s, "
           "%.1f M elements/s%s\n",
           label, n, k, (unsigned long long)mp.nsolutions, med, rate / 1e6,
           k == 2 && n <= 1024 ? (rate >= 1e8 ? " (target >= 100 M/s: PASS)"
                                              : " (target >= 100 M/s: FAIL)")
                               : "");
    qn_system_free(sys);
    free(s);
    free(x);
}

/* Whole solves per second on a small board (what generation does). */
static void solves(const char *label, int w, int h, unsigned k)
{
    int n = w * h, reps = bench_reps(5);
    uint8_t *a = plus(w, h), *x = malloc((size_t)n), *s = malloc((size_t)n);
    qn_system *sys;
    qn_err err;
    double t[64];
    long iters = 200000;

    for (int i = 0; i < n * n; i++) a[i] = (uint8_t)(a[i] % k);
    qn_system_new(&sys, a, n, n, k, &err);
    for (int r = 0; r < reps && r < 64; r++) {
        uint64_t st = 12345;
        double t0 = bench_now();
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
    }
    printf("minpress %-34s %ld random solvable states: median %.3f s, "
           "%.0f solves/s\n",
           label, iters, bench_median(t, reps < 64 ? reps : 64),
           (double)iters / bench_median(t, reps < 64 ? reps : 64));
    qn_system_free(sys);
    free(a);
    free(x);
    free(s);
}

int main(void)
{
    uint8_t *a;

    a = plus(19, 19);
    walk("plus 19x19 (nullity 16)", a, 361, 2);
    free(a);
    a = plus(30, 30);
    walk("plus 30x30 (nullity 20)", a, 900, 2);
    free(a);
    a = plus(32, 32);
    walk("plus 32x32 (nullity 20)", a, 1024, 2);
    free(a);
    a = bench_random_kernel(1024, 24, 99);
    walk("random dense 1024 cells, kernel 2^24", a, 1024, 2);
    free(a);
    a = bench_random_kernel(256, 26, 7);
    walk("random dense 256 cells, kernel 2^26", a, 256, 2);
    free(a);
    a = plus(4, 4);
    for (int i = 0; i < 256; i++) a[i] = a[i] ? 1 : 0;
    walk("plus 4x4 mod 8 (kernel 256)", a, 16, 8);
    free(a);
    solves("plus 5x5 k=2", 5, 5, 2);
    solves("plus 7x7 k=2", 7, 7, 2);
    solves("plus 9x9 k=2 (kernel 256)", 9, 9, 2);
    solves("plus 5x5 k=3 (kernel 27)", 5, 5, 3);
    return 0;
}
