/*
 * distrib_target.c: a target (which solvable states a caller wants) and
 * how messages say it.
 */
#include "generate/distrib.h"

#include <string.h>

#include "solve/human.h"

void qn_target_init(qn_target *t)
{
    memset(t, 0, sizeof(*t));
    t->lo = 1;
    t->hi = UINT64_MAX;
}

/* "exactly 5 X", "A..B X", "at least A X", "at most B X"; 0 (nothing
 * written) when lo <= any_lo and hi is unbounded. */
static int add_range(qn_buf *out, uint64_t lo, uint64_t hi, uint64_t any_lo,
                     const char *what, const char *one)
{
    unsigned long long a = lo, b = hi;

    if (lo <= any_lo && hi == UINT64_MAX)
        return 0;
    if (lo == hi)
        qn_buf_addf(out, "exactly %llu %s", a, a == 1 ? one : what);
    else if (hi == UINT64_MAX)
        qn_buf_addf(out, "at least %llu %s", a, a == 1 ? one : what);
    else if (lo <= any_lo)
        qn_buf_addf(out, "at most %llu %s", b, b == 1 ? one : what);
    else
        qn_buf_addf(out, "%llu..%llu %s", a, b, what);
    return 1;
}

/* "are at human level chase", "are at human levels spot..chase" (a set
 * with gaps: "spot, table"); 0 when every level is in it. */
static int add_levels(qn_buf *out, unsigned levels, int one)
{
    unsigned all = (1u << QN_HUMAN_NLEVELS) - 1;
    int lo = -1, hi = -1, gaps = 0;

    levels &= all;
    if (!levels || levels == all)
        return 0;
    for (int l = 0; l < QN_HUMAN_NLEVELS; l++)
        if (levels >> l & 1) {
            gaps |= hi >= 0 && hi != l - 1;
            lo = lo < 0 ? l : lo, hi = l;
        }
    qn_buf_adds(out, one ? "is at human level" : "are at human level");
    if (lo == hi) {
        qn_buf_addf(out, " %s", qn_human_level_name(lo));
    } else if (!gaps) {
        qn_buf_addf(out, "s %s..%s", qn_human_level_name(lo),
                    qn_human_level_name(hi));
    } else {
        qn_buf_adds(out, "s");
        for (int l = lo, first = 1; l <= hi; l++)
            if (levels >> l & 1) {
                qn_buf_addf(out, "%s %s", first ? "" : ",",
                            qn_human_level_name(l));
                first = 0;
            }
    }
    return 1;
}

void qn_target_describe(qn_buf *out, const qn_target *t, int one)
{
    qn_buf part[4];
    size_t n = 0;
    uint64_t min_lit = t->min_lit > 0 ? (uint64_t)t->min_lit : 0;
    uint64_t max_lit = t->max_lit > 0 ? (uint64_t)t->max_lit : UINT64_MAX;

    for (size_t i = 0; i < 4; i++)
        qn_buf_init(&part[i]);
    qn_buf_adds(&part[n], one ? "needs " : "need ");
    n += (size_t)add_range(&part[n], t->lo, t->hi, 1, "presses", "press");
    qn_buf_reset(&part[n]);
    qn_buf_adds(&part[n], one ? "has " : "have ");
    n += (size_t)add_range(&part[n], min_lit, max_lit, 0, "lit cells",
                           "lit cell");
    qn_buf_reset(&part[n]);
    if (t->unique_optimum)
        qn_buf_adds(&part[n++], one ? "has a unique optimal plan"
                                    : "have a unique optimal plan");
    n += (size_t)add_levels(&part[n], t->human_levels, one);
    if (n == 0)
        qn_buf_adds(out, one ? "exists" : "exist");
    for (size_t i = 0; i < n; i++) {
        if (i)
            qn_buf_adds(out, i + 1 == n ? " and " : ", ");
        qn_buf_add(out, part[i].buf, part[i].len);
        if (part[i].failed)
            qn_buf_fail(out);
    }
    for (size_t i = 0; i < 4; i++)
        qn_buf_release(&part[i]);
}
