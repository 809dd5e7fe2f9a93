/*
 * human_fit.h: fitting the human score's weights to players' solve times
 * (issue #33, docs/GENERATE.md "Calibration"). Each solved attempt is an
 * observation
 *   log(seconds) = skill[player] + b0 + sum_i w_i f_i(puzzle) + noise,
 * the model Pelanek and Jarusek fit to human solving times: a latent
 * skill per player and a linear cost per feature. The fit is alternating
 * least squares: ridge regression of the weights with the skills fixed,
 * then each skill the mean residual of its player, until neither moves;
 * skills are centred (mean 0 over the players), so b0 is an average
 * player's intercept. Pure arithmetic: no I/O.
 */
#ifndef QN_HUMAN_FIT_H
#define QN_HUMAN_FIT_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "solve/human_score.h"

/* One solved attempt: the puzzle's features, log(seconds), its player
 * (0..nplayers-1). */
typedef struct qn_human_obs {
    double f[QN_HF_COUNT];
    double y;
    int player;
} qn_human_obs;

/*
 * Fit the weights of the features whose bit (1 << QN_HF_x) is in `use`
 * (the others weigh 0; so does a feature constant over obs) to the n
 * observations, into m (version left 0) and skill (nplayers values, a
 * player without observations 0). lambda: the ridge penalty on the
 * standardised features (0: plain least squares). QN_EINVAL when n is 0.
 * Deterministic: the same input gives the same bits.
 */
int qn_human_fit(const qn_human_obs *obs, size_t n, int nplayers, unsigned use,
                 double lambda, qn_human_model *m, double *skill, qn_err *err);

/* Spearman's rank correlation of a and b (n values; ties get their
 * average rank) into *rho; 0 when either is constant or n < 2.
 * QN_ENOMEM. */
int qn_spearman(const double *a, const double *b, size_t n, double *rho,
                qn_err *err);

/* Whether attempt `index` is held out for a share in 0..1 under `seed`:
 * a fixed hash of both, so the split is the same on every run. */
int qn_human_held_out(uint64_t seed, uint64_t index, double share);

/*
 * m as a model file (qn_human_model_parse reads it back bit for bit):
 * "version N", "b0 X" and one "NAME X" a feature, numbers in %.17g.
 */
void qn_human_model_write(qn_buf *out, const qn_human_model *m);

/* A version number for m's weights: 2 + a hash of b0 and the weights
 * (as written) mod 999999, so 2..1000000, never the built-in's 1; two
 * different fits rarely share one. */
int qn_human_model_digest(const qn_human_model *m);

#endif
