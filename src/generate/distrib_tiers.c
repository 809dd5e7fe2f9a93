/*
 * distrib_tiers.c: grading tiers (named press-count ranges): the rule's
 * own, or cut from the exact distribution or from a sample at the default
 * cumulative shares, and the grade of a press count.
 */
#include "generate/distrib.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/suggest.h"
#include "distrib_internal.h"

static const char *const default_names[QN_TIERS_DEFAULT] = {
    "easy", "medium", "hard", "expert", "master"};

const char *qn_tiers_default_name(size_t i)
{
    assert(i < QN_TIERS_DEFAULT);
    return default_names[i];
}

/* Cumulative shares where tiers 0..3 end (nearest press count). */
static const double default_cuts[QN_TIERS_DEFAULT - 1] = {0.10, 0.40, 0.70,
                                                          0.95};

/*
 * Cut tiers from a histogram of positive press counts: val[0 .. nval-1]
 * increasing, cnt[] > 0; the tiers cover 1..max (max >= val[nval-1]).
 */
static void cut_tiers(qn_tiers *out, const uint64_t *val, const uint64_t *cnt,
                      size_t nval, uint64_t max)
{
    size_t e[QN_TIERS_DEFAULT], nt;
    uint64_t sum = 0, run = 0;

    memset(out, 0, sizeof(*out));
    if (max == 0)
        return;
    if (nval == 0) {
        out->n = 1;
        strcpy(out->name[0], default_names[0]);
        out->lo[0] = 1, out->hi[0] = max;
        return;
    }
    nt = nval < QN_TIERS_DEFAULT ? nval : QN_TIERS_DEFAULT;
    if (nt < QN_TIERS_DEFAULT) {
        for (size_t t = 0; t < nt; t++)
            e[t] = t;
    } else {
        double best[QN_TIERS_DEFAULT - 1];

        for (size_t i = 0; i < nval; i++)
            sum += cnt[i];
        for (size_t t = 0; t + 1 < nt; t++)
            e[t] = 0, best[t] = 2.0;
        for (size_t i = 0; i < nval; i++) {
            double f;
            run += cnt[i];
            f = (double)run / (double)sum;
            for (size_t t = 0; t + 1 < nt; t++) {
                double dist = f > default_cuts[t] ? f - default_cuts[t]
                                                  : default_cuts[t] - f;
                if (dist < best[t])
                    best[t] = dist, e[t] = i;
            }
        }
        /* Non-empty and increasing, leaving room for the later tiers. */
        for (size_t t = 1; t + 1 < nt; t++)
            if (e[t] <= e[t - 1])
                e[t] = e[t - 1] + 1;
        if (e[nt - 2] > nval - 2)
            e[nt - 2] = nval - 2;
        for (size_t t = nt - 2; t-- > 0;)
            if (e[t] >= e[t + 1])
                e[t] = e[t + 1] - 1;
        e[nt - 1] = nval - 1;
    }
    out->n = nt;
    for (size_t t = 0; t < nt; t++) {
        strcpy(out->name[t], default_names[t]);
        out->lo[t] = t ? out->hi[t - 1] + 1 : 1;
        out->hi[t] = t + 1 < nt ? val[e[t]] : max;
    }
}

size_t qn_tiers_from_rules(qn_tiers *out, const qn_rules *r)
{
    size_t n = qn_rules_ntiers(r);

    memset(out, 0, sizeof(*out));
    assert(n <= QN_TIERS_MAX);
    for (size_t i = 0; i < n; i++) {
        int lo = qn_rules_tier_lo(r, i), hi = qn_rules_tier_hi(r, i);
        strncpy(out->name[i], qn_rules_tier_name(r, i), QN_RULES_MAX_NAME);
        out->lo[i] = lo > 0 ? (uint64_t)lo : 0;
        out->hi[i] = hi > 0 ? (uint64_t)hi : 0;
    }
    out->n = n;
    return n;
}

int qn_tiers_from_distrib(qn_tiers *out, const qn_distrib *d)
{
    size_t nval = d->len - 1;
    uint64_t *val = QN_ALLOCN(nval + 1, uint64_t);

    if (!val)
        return QN_ENOMEM;
    for (size_t m = 1; m < d->len; m++)
        val[m - 1] = m;
    /* BFS levels are contiguous, so every count 1..len-1 is positive. */
    cut_tiers(out, val, d->count + 1, nval, nval);
    free(val);
    return QN_OK;
}

static int cmp64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

int qn_tiers_from_samples(qn_tiers *out, const uint64_t *presses, size_t n,
                          uint64_t max_presses)
{
    uint64_t *s = QN_ALLOCN(n + 1, uint64_t), *cnt = QN_ALLOCN(n + 1, uint64_t);
    size_t nval = 0;

    if (!s || !cnt) {
        free(s);
        free(cnt);
        return QN_ENOMEM;
    }
    if (n)
        memcpy(s, presses, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp64);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == 0)
            continue;
        if (nval && s[nval - 1] == s[i]) {
            cnt[nval - 1]++;
        } else {
            s[nval] = s[i];
            cnt[nval++] = 1;
        }
    }
    if (nval && s[nval - 1] > max_presses)
        max_presses = s[nval - 1];
    cut_tiers(out, s, cnt, nval, max_presses);
    free(s);
    free(cnt);
    return QN_OK;
}

const char *qn_tiers_grade(const qn_tiers *t, uint64_t presses)
{
    for (size_t i = 0; i < t->n; i++)
        if (presses >= t->lo[i] && presses <= t->hi[i])
            return t->name[i];
    return NULL;
}

long qn_tiers_find(const qn_tiers *t, const char *name, qn_buf *out)
{
    qn_suggest sg;

    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->name[i], name))
            return (long)i;
    qn_buf_addf(out, "its tiers: %s", t->n ? "" : "none");
    qn_suggest_init(&sg, name);
    for (size_t i = 0; i < t->n; i++) {
        qn_buf_addf(out, "%s%s %llu-%llu", i ? ", " : "", t->name[i],
                    (unsigned long long)t->lo[i], (unsigned long long)t->hi[i]);
        qn_suggest_add(&sg, t->name[i]);
    }
    qn_suggest_format(&sg, out);
    qn_suggest_release(&sg);
    return -1;
}
