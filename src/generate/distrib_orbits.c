/*
 * distrib_orbits.c: how many puzzles a rule has in all, up to its
 * symmetries, without enumerating a state (distrib.h,
 * qn_image_orbits): Burnside's lemma, with the solvable states each
 * symmetry fixes counted by linear algebra.
 *
 * A symmetry p maps the image of A onto itself (it keeps the matrix and
 * the goal), and the offsets it fixes are those constant on its cycles:
 * U = { C y : y in Z_k^c }, C the cells-by-cycles indicator matrix, which
 * is one-to-one. C y is solvable iff every cokernel condition holds,
 * c_j . C y = 0 (mod d_j); scaled by k / d_j each condition is a row of a
 * matrix M over Z/k (rows: conditions, columns: cycles), so the fixed
 * solvable offsets number |ker M| = k^c / |image of M|, which M's own
 * factorisation says.
 */
#include "generate/distrib.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "distrib_internal.h"

int qn_distrib__cycles(const int *p, int n, int *cyc)
{
    int ncyc = 0;

    for (int i = 0; i < n; i++)
        cyc[i] = -1;
    for (int i = 0; i < n; i++) {
        if (cyc[i] >= 0)
            continue;
        for (int j = i; cyc[j] < 0; j = p[j])
            cyc[j] = ncyc;
        ncyc++;
    }
    return ncyc;
}

/* The solvable offsets permutation p fixes, into *out (at most image). */
static int fixed_solvable(const qn_system *sys, const int *p, uint64_t image,
                          uint64_t *out, qn_err *err)
{
    int n = qn_system_nrows(sys), ncyc, rc = QN_OK;
    unsigned k = qn_system_modulus(sys);
    size_t nc = qn_system_cokernel_ngens(sys);
    int *cyc = QN_ALLOCN((size_t)n + 1, int);
    uint8_t *m;
    qn_system *ms = NULL;
    uint64_t fix = 1;

    if (!cyc)
        return qn_err_nomem(err);
    ncyc = qn_distrib__cycles(p, n, cyc);
    if (nc == 0) { /* every state solvable: k^cycles */
        for (int i = 0; i < ncyc && rc == QN_OK; i++)
            if (fix > image / k)
                rc = QN_ELIMIT;
            else
                fix *= k;
    } else { /* |ker M| = k^cycles / |image of M| */
        if (!(m = QN_ALLOCN(nc * (size_t)ncyc + 1, uint8_t))) {
            free(cyc);
            return qn_err_nomem(err);
        }
        for (size_t j = 0; j < nc; j++) {
            const uint8_t *cond = qn_system_condition(sys, j);
            unsigned scale = k / qn_system_cokernel_order(sys, j);
            for (int i = 0; i < n; i++) {
                uint8_t *e = &m[j * (size_t)ncyc + (size_t)cyc[i]];
                *e = (uint8_t)((*e + scale * cond[i]) % k);
            }
        }
        rc = qn_system_new(&ms, m, (int)nc, ncyc, k, err);
        if (rc == QN_OK)
            rc = qn_system_group_size_u64(ms, QN_KERNEL, &fix);
        qn_system_free(ms);
        free(m);
    }
    free(cyc);
    if (rc == QN_ELIMIT || (rc == QN_OK && fix > image))
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "too many states to count the puzzles exactly");
    *out = fix;
    return rc;
}

int qn_image_orbits(const qn_system *sys, const qn_rules *r, uint64_t *out,
                    qn_err *err)
{
    size_t nsyms = qn_rules_nsyms(r);
    uint64_t image, q = 0, rem = 0;

    if (qn_system_group_size_u64(sys, QN_IMAGE, &image) != QN_OK)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "2^64 or more solvable states: too many to count "
                          "the puzzles exactly");
    /* sum over g of fix(g), divided by |G| as it goes: q |G| + rem */
    for (size_t g = 0; g < nsyms; g++) {
        uint64_t fix = image; /* the identity fixes every state */
        int rc;
        if (g && (rc = fixed_solvable(sys, qn_rules_sym(r, g), image, &fix,
                                      err)) != QN_OK)
            return rc;
        q += fix / nsyms;
        rem += fix % nsyms;
        q += rem / nsyms;
        rem %= nsyms;
    }
    if (rem)
        return qn_err_set(err, QN_ERR, 0, 0,
                          "Burnside's sum is not a multiple of the group's "
                          "order (a bug)");
    *out = q;
    return QN_OK;
}
