/*
 * tboards.h: press matrices built directly in the tests, independently of
 * the rule loader, from the textbook definitions of each board.
 */
#ifndef QN_TBOARDS_H
#define QN_TBOARDS_H

#include <stdint.h>
#include <stdlib.h>

/*
 * The w x h "plus" matrix: pressing a cell adds `amt` to itself and to its
 * orthogonal neighbours inside the board (no wrap). Cells are row-major;
 * A[i * n + j] is what pressing j adds to i. Caller frees.
 */
static inline uint8_t *t_plus(int w, int h, unsigned amt)
{
    int n = w * h;
    uint8_t *a = calloc((size_t)n * n + 1, 1);
    static const int dr[5] = {0, 1, -1, 0, 0}, dc[5] = {0, 0, 0, 1, -1};

    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++)
            for (int d = 0; d < 5; d++) {
                int rr = r + dr[d], cc = c + dc[d];
                if (rr >= 0 && rr < h && cc >= 0 && cc < w)
                    a[(size_t)(rr * w + cc) * n + (r * w + c)] = (uint8_t)amt;
            }
    return a;
}

/*
 * Quatrainment (seed 004, checked in shared/conformance): 1-based press
 * sets, one per cell, ending in 0.
 */
static inline uint8_t *t_quatrainment(void)
{
    static const int sets[16][7] = {
        {1, 2, 3, 5, 6, 9, 0},     {1, 3, 6, 0},           {2, 4, 7, 0},
        {2, 3, 4, 7, 8, 12, 0},    {1, 6, 9, 0},           {2, 5, 6, 7, 10, 0},
        {3, 6, 7, 8, 11, 0},       {4, 7, 12, 0},          {5, 10, 13, 0},
        {6, 9, 10, 11, 14, 0},     {7, 10, 11, 12, 15, 0}, {8, 11, 16, 0},
        {5, 9, 10, 13, 14, 15, 0}, {10, 13, 15, 0},        {11, 14, 16, 0},
        {8, 11, 12, 14, 15, 16, 0}};
    uint8_t *a = calloc(256, 1);

    for (int j = 0; j < 16; j++)
        for (int t = 0; sets[j][t]; t++)
            a[(sets[j][t] - 1) * 16 + j] = 1;
    return a;
}

/* The ring of 6 (seed 003): a press advances itself and both neighbours. */
static inline uint8_t *t_ring(int n)
{
    uint8_t *a = calloc((size_t)n * n + 1, 1);

    for (int j = 0; j < n; j++) {
        a[j * n + j] = 1;
        a[((j + 1) % n) * n + j] = 1;
        a[((j + n - 1) % n) * n + j] = 1;
    }
    return a;
}

#endif
