/*
 * human_fit.c: the human score's weights fitted to solve times
 * (human_fit.h). The skills are fixed effects: subtracting each player's
 * mean from its observations removes the skill exactly, so the weights
 * are one ridge regression of the centred log times on the centred
 * features (standardised), and each skill is what its player's mean is
 * left with. That is the least-squares point the alternating fit
 * (weights, then skills, then weights ...) converges to, reached in one
 * step.
 */
#include "solve/human_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* Solve a x = b (d unknowns, a row-major d x d, both destroyed) by
 * Gaussian elimination with partial pivoting; an unknown whose pivot
 * vanishes is 0. */
static void solve_small(double *a, double *b, double *x, int d)
{
    int piv[QN_HF_COUNT];

    for (int c = 0; c < d; c++) {
        int best = c;
        for (int r = c + 1; r < d; r++)
            if (fabs(a[r * d + c]) > fabs(a[best * d + c]))
                best = r;
        if (best != c) {
            for (int q = 0; q < d; q++) {
                double t = a[c * d + q];
                a[c * d + q] = a[best * d + q];
                a[best * d + q] = t;
            }
            double t = b[c];
            b[c] = b[best];
            b[best] = t;
        }
        piv[c] = fabs(a[c * d + c]) > 1e-12;
        if (!piv[c])
            continue;
        for (int r = c + 1; r < d; r++) {
            double m = a[r * d + c] / a[c * d + c];
            if (m == 0.0)
                continue;
            for (int q = c; q < d; q++)
                a[r * d + q] -= m * a[c * d + q];
            b[r] -= m * b[c];
        }
    }
    for (int c = d - 1; c >= 0; c--) {
        double s = b[c];
        if (!piv[c]) {
            x[c] = 0.0;
            continue;
        }
        for (int q = c + 1; q < d; q++)
            s -= a[c * d + q] * x[q];
        x[c] = s / a[c * d + c];
    }
}

int qn_human_fit(const qn_human_obs *obs, size_t n, int nplayers, unsigned use,
                 double lambda, qn_human_model *m, double *skill, qn_err *err)
{
    int cols[QN_HF_COUNT], d = 0;
    double sd[QN_HF_COUNT];

    if (!n || nplayers < 1)
        return qn_err_set(err, QN_EINVAL, 0, 0, "no attempts to fit");
    double *py = QN_ALLOCN((size_t)nplayers, double);
    double *pf = QN_ALLOCN((size_t)nplayers * QN_HF_COUNT, double);
    size_t *pn = QN_ALLOCN((size_t)nplayers, size_t);

    if (!py || !pf || !pn) {
        free(py), free(pf), free(pn);
        return qn_err_nomem(err);
    }

    /* each player's mean time and features */
    for (size_t i = 0; i < n; i++) {
        int p = obs[i].player;
        pn[p]++;
        py[p] += obs[i].y;
        for (int f = 0; f < QN_HF_COUNT; f++)
            pf[(size_t)p * QN_HF_COUNT + f] += obs[i].f[f];
    }
    for (int p = 0; p < nplayers; p++)
        if (pn[p]) {
            py[p] /= (double)pn[p];
            for (int f = 0; f < QN_HF_COUNT; f++)
                pf[(size_t)p * QN_HF_COUNT + f] /= (double)pn[p];
        }
    /* the features that vary within players, and their spread */
    for (int f = 0; f < QN_HF_COUNT; f++) {
        double ss = 0.0;
        if (!(use & 1u << f))
            continue;
        for (size_t i = 0; i < n; i++) {
            double z =
                obs[i].f[f] - pf[(size_t)obs[i].player * QN_HF_COUNT + f];
            ss += z * z;
        }
        sd[f] = sqrt(ss / (double)n);
        if (sd[f] > 1e-9)
            cols[d++] = f;
    }
    double a[QN_HF_COUNT * QN_HF_COUNT] = {0}, b[QN_HF_COUNT] = {0};
    double beta[QN_HF_COUNT] = {0};
    for (size_t i = 0; i < n; i++) {
        const double *mf = &pf[(size_t)obs[i].player * QN_HF_COUNT];
        double z[QN_HF_COUNT];
        double yc = obs[i].y - py[obs[i].player];
        for (int c = 0; c < d; c++)
            z[c] = (obs[i].f[cols[c]] - mf[cols[c]]) / sd[cols[c]];
        for (int r = 0; r < d; r++) {
            b[r] += z[r] * yc;
            for (int c = 0; c < d; c++)
                a[r * d + c] += z[r] * z[c];
        }
    }
    for (int c = 0; c < d; c++)
        a[c * d + c] += lambda;
    solve_small(a, b, beta, d);
    memset(m, 0, sizeof(*m));
    for (int c = 0; c < d; c++)
        m->w[cols[c]] = beta[c] / sd[cols[c]];
    /* each player's level, b0 their mean over the players seen */
    double b0 = 0.0;
    int seen = 0;
    for (int p = 0; p < nplayers; p++) {
        skill[p] = 0.0;
        if (!pn[p])
            continue;
        double lv = py[p];
        for (int f = 0; f < QN_HF_COUNT; f++)
            lv -= m->w[f] * pf[(size_t)p * QN_HF_COUNT + f];
        skill[p] = lv;
        b0 += lv;
        seen++;
    }
    b0 /= seen;
    for (int p = 0; p < nplayers; p++)
        if (pn[p])
            skill[p] -= b0;
    m->b0 = b0;
    free(py), free(pf), free(pn);
    return QN_OK;
}

typedef struct ranked {
    double v;
    size_t i;
} ranked;

static int cmp_ranked(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->v != b->v)
        return a->v < b->v ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* Ranks of v (1..n, ties averaged) into r; QN_ENOMEM. */
static int ranks(const double *v, size_t n, double *r)
{
    ranked *t = QN_ALLOCN(n, ranked);

    if (!t)
        return QN_ENOMEM;
    for (size_t i = 0; i < n; i++)
        t[i].v = v[i], t[i].i = i;
    qsort(t, n, sizeof(*t), cmp_ranked);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && t[j + 1].v == t[i].v)
            j++;
        double avg = ((double)i + (double)j) / 2.0 + 1.0;
        for (size_t q = i; q <= j; q++)
            r[t[q].i] = avg;
        i = j + 1;
    }
    free(t);
    return QN_OK;
}

int qn_spearman(const double *a, const double *b, size_t n, double *rho,
                qn_err *err)
{
    *rho = 0.0;
    if (n < 2)
        return QN_OK;
    double *ra = QN_ALLOCN(n, double), *rb = QN_ALLOCN(n, double);
    double mean = ((double)n + 1.0) / 2.0, sab = 0, saa = 0, sbb = 0;

    if (!ra || !rb || ranks(a, n, ra) != QN_OK || ranks(b, n, rb) != QN_OK) {
        free(ra), free(rb);
        return qn_err_nomem(err);
    }
    for (size_t i = 0; i < n; i++) {
        double x = ra[i] - mean, y = rb[i] - mean;
        sab += x * y, saa += x * x, sbb += y * y;
    }
    free(ra), free(rb);
    *rho = saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0.0;
    return QN_OK;
}

int qn_human_held_out(uint64_t seed, uint64_t index, double share)
{
    /* splitmix64 of the pair: a fixed, well-mixed hash */
    uint64_t z = seed * 0x9E3779B97F4A7C15u + index + 0x632BE59BD9B4E019u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53 < share;
}

/* The weights' lines (all but the version). */
static void write_weights(qn_buf *out, const qn_human_model *m)
{
    char num[40];

    snprintf(num, sizeof(num), "%.17g", m->b0);
    qn_buf_adds(out, "b0 ");
    qn_buf_adds(out, num);
    qn_buf_addc(out, '\n');
    for (int f = 0; f < QN_HF_COUNT; f++) {
        snprintf(num, sizeof(num), "%.17g", m->w[f]);
        qn_buf_adds(out, qn_human_feature_name(f));
        qn_buf_addc(out, ' ');
        qn_buf_adds(out, num);
        qn_buf_addc(out, '\n');
    }
}

void qn_human_model_write(qn_buf *out, const qn_human_model *m)
{
    char num[24];

    snprintf(num, sizeof(num), "%d", m->version);
    qn_buf_adds(out, "version ");
    qn_buf_adds(out, num);
    qn_buf_addc(out, '\n');
    write_weights(out, m);
}

int qn_human_model_digest(const qn_human_model *m)
{
    qn_buf b;
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a, 64 bits */

    qn_buf_init(&b);
    write_weights(&b, m);
    for (size_t i = 0; i < b.len; i++)
        h = (h ^ (unsigned char)b.buf[i]) * 0x100000001b3u;
    qn_buf_release(&b);
    return 2 + (int)(h % 999999u);
}
