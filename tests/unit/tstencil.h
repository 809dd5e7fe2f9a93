/*
 * tstencil.h: stencil boards straight from the definition, for tests that
 * check the fast solvers against dense elimination: pressing (x, y) adds
 * amount (mod k) to (x + dx, y + dy) when that is on the w x h board.
 */
#ifndef QN_TSTENCIL_H
#define QN_TSTENCIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The dense n x n matrix (n = w h, row-major cells), malloc'd. */
static inline uint8_t *t_stencil_dense(int w, int h, unsigned k,
                                       const int (*off)[3], int n)
{
    int cells = w * h;
    uint8_t *a = calloc((size_t)cells * cells + 1, 1);

    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int o = 0; o < n; o++) {
                int xx = x + off[o][0], yy = y + off[o][1];
                unsigned am = (unsigned)(((long)off[o][2] % (long)k + k) % k);
                if (xx < 0 || xx >= w || yy < 0 || yy >= h)
                    continue;
                uint8_t *e = &a[(size_t)(yy * w + xx) * cells + y * w + x];
                *e = (uint8_t)((*e + am) % k);
            }
    return a;
}

/* r = s + A x over Z/k, one byte per cell, from the definition. */
static inline void t_stencil_apply(uint8_t *r, const uint8_t *x,
                                   const uint8_t *s, int w, int h, unsigned k,
                                   const int (*off)[3], int n)
{
    for (int i = 0; i < w * h; i++)
        r[i] = s ? s[i] : 0;
    for (int y = 0; y < h; y++)
        for (int xx = 0; xx < w; xx++)
            for (int o = 0; o < n; o++) {
                int tx = xx + off[o][0], ty = y + off[o][1];
                unsigned am = (unsigned)(((long)off[o][2] % (long)k + k) % k);
                if (tx < 0 || tx >= w || ty < 0 || ty >= h)
                    continue;
                uint8_t *e = &r[ty * w + tx];
                *e = (uint8_t)((*e + am * x[y * w + xx]) % k);
            }
}

/*
 * The published nullities of the classic n x n board (OEIS A159257,
 * tests/golden/plus_square_nullity.tsv): n and nullity into the arrays,
 * at most max rows; returns how many (0 if the file is missing).
 */
static inline int t_golden_nullity(int *n, int *nul, int max)
{
    FILE *f = fopen("tests/golden/plus_square_nullity.tsv", "r");
    char line[128];
    int count = 0;

    if (!f)
        return 0;
    while (count < max && fgets(line, sizeof(line), f))
        if (sscanf(line, "%d %d", &n[count], &nul[count]) == 2)
            count++;
    fclose(f);
    return count;
}

#endif
