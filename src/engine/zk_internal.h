/*
 * zk_internal.h: the layout of qn_zfact and of its prime-power parts, and
 * the modular arithmetic shared by the zk_*.c files that build and use it.
 * Private to the zk module; callers use quench/zk.h.
 */
#ifndef QN_ZK_INTERNAL_H
#define QN_ZK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "engine/zk.h"

#define MAX_PARTS 4 /* 2*3*5*7 = 210 is the most primes below 256 */

/* Raw sum of a[i] b[i], len <= 32768 (zk_solve.c). */
typedef uint32_t dot_fn(const uint8_t *a, const uint8_t *b, size_t len);

/* dst -= f src (mod q), f given by its product table (zk_rowop.c). */
typedef void rowop_fn(uint8_t *dst, const uint8_t *src, size_t len,
                      const uint8_t *tab, unsigned q);

/*
 * One prime-power part Z/q, q = p^e, of the factorisation.
 *
 * Elimination with full pivoting gives, over Z/q,
 *
 *     Pr A Pc = L T,    T = D V,
 *
 * with Pr, Pc permutations (prow, pcol), L unit lower triangular (m x m),
 * D = diag(d_0..d_{r-1}, 0...) with d_i = u_i p^{v_i}, u_i a unit, and V
 * unit upper triangular (n x n, identity below row r). So with
 * P = L^-1 Pr and Q = Pc V^-1, P A Q = D: the Smith form. The pivots are
 * chosen of least valuation, so v_0 <= v_1 <= ... and every entry of the
 * pivot row and column is a multiple of the pivot: that is what makes
 * V[i][c] = T[i][c] / d_i and the multipliers L[r][i] = A'[r][i] / d_i exist
 * (any lift of the quotient mod p^(e - v_i) works, since d_i kills the
 * ambiguity).
 *
 * Storage, in w (m x n, row-major, permuted order): w[i][i] = d_i for
 * i < rank; below the diagonal -L (negated so that forward substitution is
 * one dot product plus the right-hand side); right of the diagonal in rows
 * i < rank, -V. Everything else is zero.
 */
struct part {
    unsigned q, p, e; /* q = p^e */
    int rank;         /* number of nonzero pivots */
    uint8_t *w;       /* m x n, row stride ld, see above */
    size_t ld;        /* row stride of w: n rounded up, plus >= 32 zeros */
    int *prow;        /* m: permuted row -> original row */
    int *pcol;        /* n: permuted column -> original column */
    int *lbeg;        /* m: row l of -L is zero before column lbeg[l] */
    int *vend;        /* rank: row j of -V is zero in columns vend[j]..rank-1 */
    uint8_t *val;     /* rank: v_i, the valuation of pivot i */
    uint8_t *uinv;    /* rank: inverse mod q of u_i = d_i / p^{v_i} */
    uint8_t *tab;     /* q x 32: nibble product tables (zk_rowop.c) */
    rowop_fn *rowop;  /* row operation picked for this CPU and q */
    dot_fn *dot;      /* dot product picked for this CPU */
    uint64_t magic;   /* qn_zk__fastmod_magic(q) */
    unsigned ppow[9]; /* p^0 .. p^e */
    uint8_t red[256]; /* x -> x mod q */
};

struct qn_zfact {
    int m, n; /* nrows, ncols */
    unsigned k;
    int nparts;
    struct part part[MAX_PARTS];
    unsigned crt[MAX_PARTS]; /* idempotents: 1 mod own q, 0 mod the others */
    uint64_t magic;          /* qn_zk__fastmod_magic(k) */
    size_t nker;             /* kernel generators ... */
    uint8_t *ker;            /* nker x n */
    unsigned *kord;          /* nker, ascending by divisibility */
    size_t ninv;             /* min(m, n) */
    unsigned *inv;           /* Smith diagonal over Z/k, k meaning 0 */
    size_t ncok;             /* cokernel orders and conditions ... */
    unsigned *cord;          /* ncok */
    uint8_t *cond;           /* ncok x m */
};

/* ---------------------------------------------------------------------- */
/* Modular arithmetic (zk.c) */

/* Sum of a[i] b[i] mod q, any len. */
unsigned qn_zk__dotmod(const uint8_t *a, const uint8_t *b, size_t len,
                       unsigned q);

/* Inverse of a unit a mod q (extended Euclid). */
unsigned qn_zk__inv_mod(unsigned a, unsigned q);

/*
 * x mod q for x < 2^32 without a division (Lemire, Kaser and Kurz, "Faster
 * remainder by direct computation", 2019): with M = floor((2^64 - 1) / q)
 * + 1, the low 64 bits of M x are frac(x / q) scaled by 2^64 (to within an
 * error too small to matter for x < 2^32), and multiplying by q lifts the
 * remainder into the high word. qn_zfact_solve runs this per entry.
 */
static inline uint64_t qn_zk__fastmod_magic(unsigned q)
{
    return UINT64_MAX / q + 1;
}

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 zk_u128;

static inline unsigned qn_zk__fastmod(uint32_t x, uint64_t magic, unsigned q)
{
    return (unsigned)(((zk_u128)(magic * x) * q) >> 64);
}
#else
static inline unsigned qn_zk__fastmod(uint32_t x, uint64_t magic, unsigned q)
{
    (void)magic;
    return x % q;
}
#endif

/* ---------------------------------------------------------------------- */
/* Inner loops picked for this CPU */

/* The fastest row operation this CPU runs for modulus q (zk_rowop.c). */
rowop_fn *qn_zk__pick_rowop(unsigned q);

/* The fastest dot product this CPU runs (zk_solve.c). */
dot_fn *qn_zk__pick_dot(void);

/* ---------------------------------------------------------------------- */
/* Building the factorisation */

/*
 * Smith form of a over Z/q for the part pt, whose q, p, e and ppow are
 * set: fills in everything else of pt (zk_smith.c). QN_OK, or QN_ENOMEM
 * with what pt holds left for qn_zfact_free.
 */
int qn_zk__factor_part(struct part *pt, const qn_zmat *a);

/*
 * Kernel generators and cokernel conditions of the factorised parts of f,
 * joined into invariant-factor form with the CRT: sets f->nker, ker, kord
 * and f->ncok, cord, cond (zk_kernel.c). QN_OK, or QN_ENOMEM with what
 * f holds left for qn_zfact_free.
 */
int qn_zk__kernels(qn_zfact *f);

#endif
