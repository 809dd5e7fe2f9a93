/*
 * gray.h: a loopless reflected mixed-radix Gray code (Knuth, TAOCP
 * 7.2.1.1, Algorithm H), the visiting order of the coset walks
 * (minpress.c, minpress_z3.c). Digit j runs 0..order[j]-1 and back; each
 * step moves one digit by +1 or -1, so a walk adds or subtracts one
 * generator a step. Private to src/engine.
 */
#ifndef QN_GRAY_H
#define QN_GRAY_H

/* At most this many digits: a coset the walks visit has under 2^64
 * elements, and every digit has at least two values. */
#define QN_GRAY_MAX 64

typedef struct qn_gray {
    int d;
    const unsigned *order;
    int a[QN_GRAY_MAX], dir[QN_GRAY_MAX], f[QN_GRAY_MAX + 1]; /* f: focus */
} qn_gray;

/* Every digit at 0, moving up; d <= QN_GRAY_MAX. */
static inline void qn_gray_init(qn_gray *g, const unsigned *order, int d)
{
    g->d = d;
    g->order = order;
    for (int j = 0; j <= d; j++) {
        g->f[j] = j;
        if (j < d) {
            g->a[j] = 0;
            g->dir[j] = 1;
        }
    }
}

/* The digit that moves next (*up: by +1, else -1), or -1 at the end. */
static inline int qn_gray_next(qn_gray *g, int *up)
{
    int j = g->f[0];

    g->f[0] = 0;
    if (j == g->d)
        return -1;
    *up = g->dir[j] > 0;
    g->a[j] += g->dir[j];
    if (g->a[j] == 0 || g->a[j] == (int)g->order[j] - 1) {
        g->dir[j] = -g->dir[j];
        g->f[j] = g->f[j + 1];
        g->f[j + 1] = j + 1;
    }
    return j;
}

#endif
