/*
 * test_human_fit.c: the calibration fit (human_fit.h) on facts known
 * without quench: Spearman's rho of small rankings worked by hand
 * (1 - 6 sum d^2 / (n (n^2 - 1)) without ties, Pearson of the average
 * ranks with them); noiseless times with player skills give back the
 * weights, b0 and the centred skills exactly; a feature constant within
 * every player weighs 0; a model written reads back bit for bit, with a
 * digest version of 2..1000000; the held-out split keeps about its share.
 */
#include "solve/human_fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"

/* qn_spearman's rho, memory to spare */
static double rho_of(const double *a, const double *b, size_t n)
{
    double rho = -2.0;

    T_EQ(qn_spearman(a, b, n, &rho, NULL), QN_OK);
    return rho;
}

static int close_to(double a, double b, double tol)
{
    return fabs(a - b) <= tol;
}

static void spearman_facts(void)
{
    double a[] = {1, 2, 3, 4, 5}, b[] = {2, 1, 4, 3, 5}, c[] = {5, 4, 3, 2, 1};
    /* d = (1, 1, 1, 1, 0): 1 - 6 * 4 / (5 * 24) = 0.8 */
    T_CHECK(close_to(rho_of(a, b, 5), 0.8, 1e-12));
    T_CHECK(close_to(rho_of(a, c, 5), -1.0, 1e-12));
    /* monotone, not linear: rank correlation 1 */
    double sq[] = {1, 4, 9, 16, 25};
    T_CHECK(close_to(rho_of(a, sq, 5), 1.0, 1e-12));
    /* ties: ranks of (1, 1, 2, 3) are (1.5, 1.5, 3, 4); of (1, 2, 3, 4)
     * themselves: Pearson = 4.5 / sqrt(4.5 * 5) = 0.9486832980505138 */
    double t1[] = {1, 1, 2, 3}, t2[] = {1, 2, 3, 4};
    T_CHECK(close_to(rho_of(t1, t2, 4), 4.5 / sqrt(4.5 * 5.0), 1e-12));
    double k[] = {3, 3, 3};
    T_CHECK(rho_of(k, a, 3) == 0.0);
    T_CHECK(rho_of(a, b, 1) == 0.0);
}

/* y = skill + 0.7 + 0.5 level + 0.08 presses - 0.2 components, no noise,
 * 3 players over a small grid of features. */
static void exact_recovery(void)
{
    const double skill[3] = {-0.4, 0.1, 0.6};
    qn_human_obs obs[3 * 24];
    size_t n = 0;
    qn_err err = QN_ERR_INIT;

    for (int p = 0; p < 3; p++)
        for (int lv = 0; lv < 4; lv++)
            for (int pr = 1; pr <= 6; pr++) {
                qn_human_obs *o = &obs[n++];
                memset(o, 0, sizeof(*o));
                o->player = p;
                o->f[QN_HF_LEVEL] = lv;
                o->f[QN_HF_PRESSES] = pr;
                o->f[QN_HF_COMPONENTS] = (pr * 7 + lv * 3 + p) % 4;
                o->f[QN_HF_MULTI] = p; /* constant within each player */
                o->y = skill[p] + 0.7 + 0.5 * lv + 0.08 * pr -
                       0.2 * o->f[QN_HF_COMPONENTS];
            }
    qn_human_model m;
    double got[3];
    T_EQ(qn_human_fit(obs, n, 3, (1u << QN_HF_COUNT) - 1, 0.0, &m, got, &err),
         QN_OK);
    T_CHECK(close_to(m.w[QN_HF_LEVEL], 0.5, 1e-9));
    T_CHECK(close_to(m.w[QN_HF_PRESSES], 0.08, 1e-9));
    T_CHECK(close_to(m.w[QN_HF_COMPONENTS], -0.2, 1e-9));
    T_CHECK(m.w[QN_HF_MULTI] == 0.0);
    T_CHECK(m.w[QN_HF_LIT] == 0.0);
    /* skills centred: mean 0.1 goes to b0 */
    T_CHECK(close_to(m.b0, 0.8, 1e-9));
    for (int p = 0; p < 3; p++)
        T_CHECK(close_to(got[p], skill[p] - 0.1, 1e-9));
    /* only the press count: its weight, the rest 0 */
    T_EQ(qn_human_fit(obs, n, 3, 1u << QN_HF_PRESSES, 0.0, &m, got, &err),
         QN_OK);
    T_CHECK(m.w[QN_HF_LEVEL] == 0.0 && m.w[QN_HF_COMPONENTS] == 0.0);
    T_EQ(qn_human_fit(obs, 0, 3, 1, 0.0, &m, got, &err), QN_EINVAL);
}

static void model_file(void)
{
    qn_human_model m = {0}, back;
    qn_buf b;
    qn_err err = QN_ERR_INIT;

    m.version = 12345;
    m.b0 = 1.0 / 3.0;
    for (int f = 0; f < QN_HF_COUNT; f++)
        m.w[f] = (f - 4) * 0.1234567890123;
    qn_buf_init(&b);
    qn_human_model_write(&b, &m);
    T_EQ(qn_human_model_parse(&back, b.buf, b.len, &err), QN_OK);
    T_CHECK(back.version == 12345 && back.b0 == m.b0 &&
            !memcmp(back.w, m.w, sizeof(m.w)));
    qn_buf_release(&b);
    int v = qn_human_model_digest(&m);
    T_CHECK(v >= 2 && v <= 1000000);
    m.version = 7; /* the version is not part of the digest */
    T_EQ(qn_human_model_digest(&m), v);
    m.w[QN_HF_LIT] += 1e-9;
    T_CHECK(qn_human_model_digest(&m) != v);
}

static void split(void)
{
    int held = 0;
    for (uint64_t i = 0; i < 10000; i++)
        held += qn_human_held_out(1, i, 0.2);
    T_CHECK(held > 1800 && held < 2200);
    T_EQ(qn_human_held_out(1, 5, 0.0), 0);
    T_EQ(qn_human_held_out(1, 5, 1.0), 1);
}

int main(void)
{
    spearman_facts();
    exact_recovery();
    model_file();
    split();
    return t_done();
}
