/*
 * keyrun_sort.c: the pairs of a run sorted by (key, row) (qn_kr_sort),
 * by LSD radix.
 */
#include "store/keyrun.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "quench/common.h"

/*
 * LSD radix, 8 bits a pass, the row's bytes then the key's
 * (stable, so the key passes keep the rows' order). A pass whose digit
 * is one value for every pair moves nothing and is skipped, and the row
 * passes are all skipped when the rows come in order already (a batch's
 * rows are appended in order): a batch of 65,536 random ids is 8 passes.
 */
static unsigned digit(const qn_kr_pair *p, int d)
{
    uint64_t v = d < 8 ? (uint64_t)p->row ^ 1ull << 63 : p->key;

    return (unsigned)(v >> (8 * (d & 7))) & 0xff;
}

int qn_kr_sort(qn_kr_pair *a, size_t n)
{
    size_t(*count)[256];
    qn_kr_pair *from = a, *to;
    void *mem;
    int d0 = 8; /* the first digit sorted: 8 when the rows are in order */

    if (n < 2)
        return QN_OK;
    if (n > (SIZE_MAX - sizeof(size_t[16][256])) / sizeof(*a) ||
        !(mem = qn_malloc(sizeof(size_t[16][256]) + n * sizeof(*a))))
        return QN_ENOMEM;
    count = mem;
    to = (qn_kr_pair *)(count + 16);
    memset(count, 0, sizeof(size_t[16][256]));
    for (size_t i = 1; i < n && d0; i++)
        if (a[i].row < a[i - 1].row)
            d0 = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = a[i].key, r = (uint64_t)a[i].row ^ 1ull << 63;
        for (int d = 8; d < 16; d++)
            count[d][k >> (8 * (d - 8)) & 0xff]++;
        for (int d = d0; d < 8; d++)
            count[d][r >> (8 * d) & 0xff]++;
    }
    for (int d = d0; d < 16; d++) {
        size_t sum = 0;
        qn_kr_pair *t;
        if (count[d][digit(&a[0], d)] == n)
            continue;
        for (int v = 0; v < 256; v++) {
            size_t c = count[d][v];
            count[d][v] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            to[count[d][digit(&from[i], d)]++] = from[i];
        t = from;
        from = to;
        to = t;
    }
    if (from != a)
        memcpy(a, from, n * sizeof(*a));
    free(mem);
    return QN_OK;
}
