/*
 * test_canon.c: distances between puzzles up to symmetry
 * (qn_canon_distance), checked against the square's eight rigid motions
 * written out here, apart from the rule's own symmetry group: classic
 * Lights Out on an n x n board has exactly the dihedral group D4.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quench/canon.h"
#include "quench/rules.h"
#include "t.h"

#define N 5
#define CELLS (N * N)

/* Cell of (row, col) after motion m of the square (0..7). */
static int motion(int m, int row, int col)
{
    int r = row, c = col, t;

    for (int i = 0; i < (m & 3); i++) { /* quarter turns */
        t = r;
        r = c;
        c = N - 1 - t;
    }
    if (m & 4)
        c = N - 1 - c; /* mirror */
    return r * N + c;
}

static void apply(int m, uint8_t *out, const uint8_t *s)
{
    for (int row = 0; row < N; row++)
        for (int col = 0; col < N; col++)
            out[motion(m, row, col)] = s[row * N + col];
}

/* The definition, by brute force over the eight motions. */
static int brute(const uint8_t *a, const uint8_t *b)
{
    uint8_t img[CELLS];
    int best = CELLS;

    for (int m = 0; m < 8; m++) {
        int d = 0;
        apply(m, img, b);
        for (int j = 0; j < CELLS; j++)
            d += a[j] != img[j];
        if (d < best)
            best = d;
    }
    return best;
}

static void random_state(uint8_t *s, unsigned *seed)
{
    for (int j = 0; j < CELLS; j++)
        s[j] = (uint8_t)((*seed = *seed * 1103515245u + 12345u) >> 16 & 1);
}

int main(void)
{
    qn_rules *r = NULL;
    qn_err err = QN_ERR_INIT;
    uint8_t a[CELLS], b[CELLS], img[CELLS];
    unsigned seed = 7;
    int bad[5] = {0, 0, 0, 0, 0}, near = 0;

    if (qn_rules_load_file(&r, "rules/classic-5x5.yaml", &err) != QN_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    T_EQ(qn_rules_nsyms(r), 8);
    for (int i = 0; i < 2000; i++) {
        random_state(a, &seed);
        random_state(b, &seed);
        if (i % 4 == 0) { /* near pairs too: b an image of a, a cell off */
            apply(i / 4 % 8, b, a);
            b[i % CELLS] ^= 1;
        }
        int d = qn_canon_distance(r, a, b, CELLS + 1);
        bad[0] += d != brute(a, b);
        bad[1] += d != qn_canon_distance(r, b, a, CELLS + 1);
        bad[2] += qn_canon_distance(r, a, b, 3) != (d < 3 ? d : 3);
        apply(i % 8, img, a);
        bad[3] += qn_canon_distance(r, img, a, CELLS + 1) != 0;
        bad[4] += qn_canon_distance(r, img, b, CELLS + 1) != d;
        near += d == 1;
    }
    T_EQ(bad[0], 0); /* the definition */
    T_EQ(bad[1], 0); /* symmetric */
    T_EQ(bad[2], 0); /* stops at the limit */
    T_EQ(bad[3], 0); /* an image is the same puzzle */
    T_EQ(bad[4], 0); /* the same for images */
    T_CHECK(near >= 400); /* the near pairs were near */
    qn_rules_free(r);
    return t_done();
}
