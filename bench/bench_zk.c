/*
 * bench_zk.c: timing of the Z/k factorisation (qn_zfact_new) on 1000-cell
 * systems, dense and banded, and of qn_zfact_solve on 25- and 1000-cell
 * boards.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "engine/zk.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

static void random_mat(qn_zmat *a, int m, int n, unsigned k)
{
    size_t i;

    qn_zmat_init(a, m, n, k);
    for (i = 0; i < (size_t)m * n; i++)
        a->e[i] = (uint8_t)((rnd() >> 32) % k);
}

/* Classic plus board, w columns by h rows, amount 1, no wrap. */
static void plus_board(qn_zmat *a, int w, int h, unsigned k)
{
    static const int dr[5] = {0, 1, -1, 0, 0}, dc[5] = {0, 0, 0, 1, -1};
    int r, c, d;

    qn_zmat_init(a, w * h, w * h, k);
    for (r = 0; r < h; r++)
        for (c = 0; c < w; c++)
            for (d = 0; d < 5; d++) {
                int rr = r + dr[d], cc = c + dc[d];
                if (rr >= 0 && rr < h && cc >= 0 && cc < w)
                    qn_zmat_set(a, rr * w + cc, r * w + c, 1);
            }
}

/* Median time of qn_zfact_new on a; prints one line, returns 1 on a miss. */
static int time_factor(const char *what, const qn_zmat *a, double target)
{
    int reps = bench_reps(7), i;
    double *t = malloc(sizeof(*t) * (size_t)reps), med;

    for (i = 0; i < reps; i++) {
        qn_zfact *f;
        double t0 = bench_now();

        if (qn_zfact_new(&f, a, NULL) != QN_OK) {
            fprintf(stderr, "bench_zk: factorisation failed\n");
            exit(1);
        }
        t[i] = bench_now() - t0;
        qn_zfact_free(f);
    }
    med = bench_median(t, reps);
    free(t);
    if (target > 0)
        printf("zk factor %s: median %.3f s target <= %.1f s: %s\n", what, med,
               target, med <= target ? "PASS" : "FAIL");
    else
        printf("zk factor %s: median %.3f s (information)\n", what, med);
    return target > 0 && med > target;
}

/* Median time of nsolve qn_zfact_solve calls on a w x h plus board. */
static void time_solve(int w, int h, unsigned k, int nsolve)
{
    const int n = w * h;
    int reps = bench_reps(5), i, j;
    double *t = malloc(sizeof(*t) * (size_t)reps), med;
    uint8_t *s = malloc((size_t)nsolve * n), *x = malloc((size_t)n);
    uint8_t *y = malloc((size_t)n);
    unsigned long nok = 0;
    qn_zmat a;
    qn_zfact *f;

    plus_board(&a, w, h, k);
    qn_zfact_new(&f, &a, NULL);
    /* Right-hand sides from random presses, so all are solvable. */
    for (i = 0; i < nsolve; i++) {
        for (j = 0; j < n; j++)
            x[j] = (uint8_t)((rnd() >> 32) % k);
        qn_zmat_mul_vec(s + (size_t)i * n, &a, x);
    }
    for (i = 0; i < reps; i++) {
        double t0 = bench_now();

        for (j = 0; j < nsolve; j++)
            nok += qn_zfact_solve(f, x, s + (size_t)j * n) == QN_OK;
        t[i] = bench_now() - t0;
    }
    qn_zmat_mul_vec(y, &a, x);
    if (nok != (unsigned long)nsolve * reps ||
        memcmp(y, s + (size_t)(nsolve - 1) * n, (size_t)n)) {
        fprintf(stderr, "bench_zk: wrong solution\n");
        exit(1);
    }
    med = bench_median(t, reps);
    printf("zk solve %dx%d plus mod %u: %d solves median %.3f s = %.0f "
           "solves/s\n",
           w, h, k, nsolve, med, nsolve / med);
    free(t);
    free(s);
    free(x);
    free(y);
    qn_zfact_free(f);
    qn_zmat_release(&a);
}

int main(void)
{
    qn_zmat a;
    int miss = 0, i;

    random_mat(&a, 1000, 1000, 8);
    miss += time_factor("1000x1000 random mod 8", &a, 0.1);
    qn_zmat_release(&a);
    random_mat(&a, 1000, 1000, 7);
    miss += time_factor("1000x1000 random mod 7", &a, 0.1);
    qn_zmat_release(&a);
    plus_board(&a, 40, 25, 8);
    miss += time_factor("40x25 plus (1000 cells) mod 8", &a, 0.1);
    qn_zmat_release(&a);
    plus_board(&a, 40, 25, 7);
    miss += time_factor("40x25 plus (1000 cells) mod 7", &a, 0.1);
    qn_zmat_release(&a);
    random_mat(&a, 500, 500, 6);
    time_factor("500x500 random mod 6", &a, 0);
    qn_zmat_release(&a);
    random_mat(&a, 500, 500, 255);
    time_factor("500x500 random mod 255", &a, 0);
    qn_zmat_release(&a);
    /* Every pivot a non-unit: a thousand generators and conditions. */
    random_mat(&a, 1000, 1000, 8);
    for (i = 0; i < 1000 * 1000; i++)
        a.e[i] = (uint8_t)(a.e[i] * 2 % 8);
    time_factor("1000x1000 2*random mod 8", &a, 0);
    qn_zmat_release(&a);
    random_mat(&a, 2000, 1000, 7);
    time_factor("2000x1000 random mod 7", &a, 0);
    qn_zmat_release(&a);
    time_solve(5, 5, 2, 100000);
    time_solve(5, 5, 8, 100000);
    time_solve(5, 5, 6, 100000);
    time_solve(40, 25, 8, 1000);
    /* A missed target is reported, not fatal: the figures are the point. */
    (void)miss;
    return 0;
}
