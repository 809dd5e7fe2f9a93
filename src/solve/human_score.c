/*
 * human_score.c: a state's human grade (human_score.h): its level through
 * bit masks where the board allows (k = 2, at most 64 cells) or human.c's
 * byte chase, the model's features, and the model itself (the built-in
 * weights, a model file, the score).
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/mem.h"
#include "human_internal.h"
#include "solve/human_score.h"

static const char *const feature_names[QN_HF_COUNT] = {
    "level",  "presses",   "lit",        "log2_optimal", "components",
    "spread", "overshoot", "log2_table", "multi"};

const char *qn_human_feature_name(int f)
{
    return f >= 0 && f < QN_HF_COUNT ? feature_names[f] : NULL;
}

/* Version 1: uncalibrated priors (docs/GENERATE.md "The human score"):
 * about 5 s for a one-press spot, each rung up the ladder doubles the
 * time, each press adds about 8 %. */
void qn_human_model_default(qn_human_model *m)
{
    static const double w[QN_HF_COUNT] = {
        [QN_HF_LEVEL] = 0.7,       [QN_HF_PRESSES] = 0.08,
        [QN_HF_LIT] = 0.01,        [QN_HF_OPTIMAL] = -0.1,
        [QN_HF_COMPONENTS] = 0.05, [QN_HF_SPREAD] = 0.03,
        [QN_HF_OVERSHOOT] = 0.05,  [QN_HF_TABLE] = 0.1,
        [QN_HF_MULTI] = 0.1,
    };
    m->version = QN_HUMAN_MODEL_VERSION;
    m->b0 = 1.5;
    memcpy(m->w, w, sizeof(w));
}

#define MODEL_MAX_TEXT 65536

/* One "KEY VALUE" line of a model file into m; `seen` has a bit per key
 * (0 version, 1 b0, 2 + f the features). */
static int model_line(qn_human_model *m, const char *line, size_t len,
                      int lineno, unsigned *seen, qn_err *err)
{
    char key[32], val[64], *end;
    size_t i = 0, kl = 0, vl = 0;
    int bit;

    while (i < len && isspace((unsigned char)line[i]))
        i++;
    if (i == len || line[i] == '#')
        return QN_OK;
    while (i < len && !isspace((unsigned char)line[i]) && line[i] != '#')
        if (kl + 1 < sizeof(key))
            key[kl++] = line[i++];
        else
            return qn_err_set(err, QN_ESYNTAX, lineno, 1, "key too long");
    key[kl] = '\0';
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    int vcol = (int)i + 1;
    while (i < len && !isspace((unsigned char)line[i]) && line[i] != '#')
        if (vl + 1 < sizeof(val))
            val[vl++] = line[i++];
        else
            return qn_err_set(err, QN_ESYNTAX, lineno, vcol, "value too long");
    val[vl] = '\0';
    while (i < len && isspace((unsigned char)line[i]))
        i++;
    if (i < len && line[i] != '#')
        return qn_err_set(err, QN_ESYNTAX, lineno, (int)i + 1,
                          "one key and one value a line");
    if (!vl)
        return qn_err_set(err, QN_ESYNTAX, lineno, vcol, "'%s' has no value",
                          key);
    if (!strcmp(key, "version"))
        bit = 0;
    else if (!strcmp(key, "b0"))
        bit = 1;
    else {
        bit = -1;
        for (int f = 0; f < QN_HF_COUNT; f++)
            if (!strcmp(key, feature_names[f]))
                bit = 2 + f;
        if (bit < 0)
            return qn_err_set(err, QN_ESYNTAX, lineno, 1,
                              "unknown key '%s' (version, b0 or a feature: "
                              "level, presses, lit, log2_optimal, "
                              "components, spread, overshoot, log2_table, "
                              "multi)",
                              key);
    }
    if (*seen & (1u << bit))
        return qn_err_set(err, QN_ESYNTAX, lineno, 1, "'%s' given twice", key);
    *seen |= 1u << bit;
    if (bit == 0) {
        long v = strtol(val, &end, 10);
        if (*end || v < 1 || v > 1000000)
            return qn_err_set(err, QN_ESYNTAX, lineno, vcol,
                              "version '%s' is not a whole number 1..1000000",
                              val);
        m->version = (int)v;
        return QN_OK;
    }
    double d = strtod(val, &end);
    if (*end || !isfinite(d) || fabs(d) > 1e6)
        return qn_err_set(err, QN_ESYNTAX, lineno, vcol,
                          "'%s' is not a number within +-10^6", val);
    if (bit == 1)
        m->b0 = d;
    else
        m->w[bit - 2] = d;
    return QN_OK;
}

int qn_human_model_parse(qn_human_model *m, const char *text, size_t len,
                         qn_err *err)
{
    qn_human_model t = {0};
    unsigned seen = 0;
    int lineno = 1;

    if (len > MODEL_MAX_TEXT)
        return qn_err_set(err, QN_ESYNTAX, 0, 0,
                          "a model file holds at most %d bytes",
                          MODEL_MAX_TEXT);
    for (size_t at = 0; at < len; lineno++) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len;
        if (memchr(text + at, '\0', end - at))
            return qn_err_set(err, QN_ESYNTAX, lineno, 1, "a NUL byte");
        int rc = model_line(&t, text + at, end - at, lineno, &seen, err);
        if (rc != QN_OK)
            return rc;
        at = end + 1;
    }
    if ((seen & 3u) != 3u)
        return qn_err_set(err, QN_ESYNTAX, lineno, 1,
                          "a model needs 'version' and 'b0'");
    *m = t;
    return QN_OK;
}

double qn_human_score(const qn_human_model *m, const qn_human_grade *gr)
{
    double s = m->b0;
    for (int f = 0; f < QN_HF_COUNT; f++)
        s += m->w[f] * gr->f[f];
    return s;
}

int64_t qn_human_score_milli(const qn_human_model *m, const qn_human_grade *gr)
{
    return (int64_t)floor(qn_human_score(m, gr) * 1000.0 + 0.5);
}

/* ------------------------------------------------------------------ */

/* A side's chase as masks over the cells (k = 2, n <= 64): the residual
 * on last cell l is the parity of need & res[l]; the table clears the
 * residual when every cond[j] has even parity with need. */
typedef struct fast_side {
    int nres, ncond;
    uint64_t *res, *cond;
    uint64_t *cmask;   /* per first-row press: the chase's pivot presses
                          (bits by place in the walk) its change asks for */
    uint64_t *up, *ur; /* per cell b: the pivot presses (by place in the
                          walk) and the residual (by last-row place) the
                          chase of a need on b alone gives: the chase is
                          linear, so a need's are the XOR over its cells */
    uint64_t *ylut;    /* 2^nlast residuals -> the table's pattern y (bits
                          by first-row place), NO_PATTERN off the image;
                          NULL past LUT_MAX_LAST */
} fast_side;

#define LUT_MAX_LAST 12
#define NO_PATTERN UINT64_MAX
#define KER_MAX 10 /* fast: kernels of at most 2^10 walked by masks */

struct qn_human_grader {
    const qn_solver *solver;
    qn_human *h;
    int n;
    unsigned k;
    const uint8_t *goal;
    int *row, *col;
    double table_log2[QN_HUMAN_MAX_SIDES];
    int fast;
    uint64_t *fp;          /* fast: each press's footprint */
    uint64_t *touch;       /* fast: the presses whose footprints meet j's */
    int nrowm, ncolm;      /* fast: the cells of each layout row and */
    uint64_t *rowm, *colm; /* column (spread = first..last touched) */
    uint8_t goal64[64];    /* fast: the goal, padded */
    int plain_w;           /* fast: cell = row * plain_w + col on
                              every cell (a plain grid), else 0 */
    /* fast, when the chasing sides' last rows hold at most 64 cells in
     * all: per cell, every side's residual of a need on it alone, side w
     * at bits off[w].., so a need's are one XOR over its cells */
    uint64_t *urall;
    int off[QN_HUMAN_MAX_SIDES];
    uint64_t sidemask[QN_HUMAN_MAX_SIDES];     /* side w's bits of urall */
    int nchasing, chasing[QN_HUMAN_MAX_SIDES]; /* the sides that chase */
    fast_side side[QN_HUMAN_MAX_SIDES];
    int nker;              /* fast: the kernel's generators as masks in */
    uint64_t ker[KER_MAX]; /* ker, or -1 past KER_MAX of them */
};

static uint64_t ones(int bits)
{
    return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

/* The pivot presses a chase of `need` makes, by place in the walk. */
static uint64_t chase_bits(const qn_human *h, const qn_human_side *s,
                           uint8_t *need);

/* Side s's table as a lookup (fast_side.ylut) and each first-row press's
 * chase (fast_side.cmask); need is n bytes of scratch. 0, or -1 when
 * memory ran out (what was built is freed with the grader). */
static int build_lut(const qn_human *h, const qn_human_side *s, fast_side *f,
                     uint8_t *need)
{
    int n = h->n, rc = 0;

    if (!(f->cmask = QN_ALLOCN((size_t)s->nfirst + 1, uint64_t)))
        return -1;
    for (int a = 0; a < s->nfirst; a++) {
        int j = s->first[a];
        memset(need, 0, (size_t)n);
        for (int e = h->colstart[j]; e < h->colstart[j + 1]; e++)
            need[h->colrow[e]] = h->colval[e];
        f->cmask[a] = chase_bits(h, s, need);
    }
    if (s->nlast > LUT_MAX_LAST)
        return 0;
    size_t nr = (size_t)1 << s->nlast;
    uint8_t *r = qn_malloc((size_t)s->nlast + 1);
    uint8_t *y = qn_malloc((size_t)s->nfirst + 1);
    f->ylut = QN_REALLOCN(NULL, nr, uint64_t);
    if (!r || !y || !f->ylut)
        nr = 0, rc = -1;
    for (size_t v = 0; v < nr; v++) {
        for (int l = 0; l < s->nlast; l++)
            r[l] = (uint8_t)(v >> l & 1); /* -r = r mod 2 */
        memset(y, 0, (size_t)s->nfirst + 1);
        f->ylut[v] = NO_PATTERN;
        int solved = qn_system_solve(s->table, y, r);
        if (solved == QN_ENOMEM) {
            rc = -1;
            break;
        }
        if (solved == QN_OK) {
            f->ylut[v] = 0;
            for (int a = 0; a < s->nfirst; a++)
                if (y[a])
                    f->ylut[v] |= UINT64_C(1) << a;
        }
    }
    free(r), free(y);
    return rc;
}

/* 0, or -1 when memory ran out (what was built is freed with hg). */
static int build_fast(qn_human_grader *hg)
{
    qn_human *h = hg->h;
    int n = hg->n, rc = -1;
    uint8_t *need = qn_malloc((size_t)n + 1);

    if (!need || !(hg->fp = QN_ALLOCN((size_t)n + 1, uint64_t)))
        goto done;
    for (int j = 0; j < n; j++)
        for (int e = h->colstart[j]; e < h->colstart[j + 1]; e++)
            hg->fp[j] |= UINT64_C(1) << h->colrow[e];
    for (int i = 0; i < n; i++) {
        if (hg->row[i] + 1 > hg->nrowm)
            hg->nrowm = hg->row[i] + 1;
        if (hg->col[i] + 1 > hg->ncolm)
            hg->ncolm = hg->col[i] + 1;
    }
    hg->rowm = QN_ALLOCN((size_t)hg->nrowm + 1, uint64_t);
    hg->colm = QN_ALLOCN((size_t)hg->ncolm + 1, uint64_t);
    if (!hg->rowm || !hg->colm)
        goto done;
    for (int i = 0; i < n; i++) {
        hg->rowm[hg->row[i]] |= UINT64_C(1) << i;
        hg->colm[hg->col[i]] |= UINT64_C(1) << i;
    }
    memcpy(hg->goal64, hg->goal, (size_t)n);
    hg->plain_w = hg->ncolm < 64 ? hg->ncolm : 0;
    for (int i = 0; i < n; i++)
        if (hg->row[i] * hg->ncolm + hg->col[i] != i)
            hg->plain_w = 0;
    if (!(hg->touch = QN_ALLOCN((size_t)n + 1, uint64_t)))
        goto done;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (hg->fp[i] & hg->fp[j])
                hg->touch[j] |= UINT64_C(1) << i;
    for (size_t w = 0; w < h->nsides; w++) {
        const qn_human_side *s = &h->side[w];
        fast_side *f = &hg->side[w];
        if (!s->chases)
            continue;
        f->nres = s->nlast;
        f->res = QN_ALLOCN((size_t)s->nlast + 1, uint64_t);
        f->up = QN_ALLOCN((size_t)n + 1, uint64_t);
        f->ur = QN_ALLOCN((size_t)n + 1, uint64_t);
        if (!f->res || !f->up || !f->ur)
            goto done;
        for (int i = 0; i < n; i++) {
            memset(need, 0, (size_t)n);
            need[i] = 1;
            f->up[i] = chase_bits(h, s, need);
            for (int l = 0; l < s->nlast; l++)
                if (need[s->last[l]]) {
                    f->res[l] |= UINT64_C(1) << i;
                    f->ur[i] |= UINT64_C(1) << l;
                }
        }
        if (build_lut(h, s, f, need))
            goto done;
        f->ncond = (int)qn_system_cokernel_ngens(s->table);
        if (!(f->cond = QN_ALLOCN((size_t)f->ncond + 1, uint64_t)))
            goto done;
        for (int j = 0; j < f->ncond; j++) {
            const uint8_t *c = qn_system_condition(s->table, (size_t)j);
            for (int l = 0; l < s->nlast; l++)
                if (c[l] & 1)
                    f->cond[j] ^= f->res[l];
        }
    }
    int bits = 0;
    for (size_t w = 0; w < h->nsides; w++)
        if (h->side[w].chases)
            hg->off[w] = bits, bits += h->side[w].nlast;
    for (size_t w = 0; w < h->nsides; w++)
        if (h->side[w].chases) {
            hg->chasing[hg->nchasing++] = (int)w;
            if (bits <= 64)
                hg->sidemask[w] = ones(h->side[w].nlast) << hg->off[w];
        }
    const qn_system *sys = qn_solver_system(hg->solver);
    size_t nk = qn_system_kernel_ngens(sys);
    hg->nker = nk <= KER_MAX ? (int)nk : -1;
    for (int g = 0; g < hg->nker; g++) {
        const uint8_t *x = qn_system_kernel_gen(sys, (size_t)g);
        for (int j = 0; j < n; j++)
            hg->ker[g] |= (uint64_t)(x[j] & 1) << j;
    }
    if (bits <= 64) {
        if (!(hg->urall = QN_ALLOCN((size_t)n + 1, uint64_t)))
            goto done;
        for (size_t w = 0; w < h->nsides; w++)
            for (int i = 0; h->side[w].chases && i < n; i++)
                hg->urall[i] |= hg->side[w].ur[i] << hg->off[w];
    }
    rc = 0;
done:
    free(need);
    return rc;
}

int qn_human_grader_new(qn_human_grader **out, const qn_solver *solver,
                        qn_err *err)
{
    qn_human_grader *hg = QN_ALLOC(qn_human_grader);
    const qn_rules *r = qn_solver_rules(solver);
    const qn_layout *l = qn_rules_layout(r);
    int rc;

    *out = NULL;
    if (!hg)
        return qn_err_nomem(err);
    rc = qn_human_new(&hg->h, solver, err);
    if (rc != QN_OK) {
        free(hg);
        return rc;
    }
    hg->solver = solver;
    hg->n = hg->h->n;
    hg->k = hg->h->k;
    hg->goal = qn_rules_goal(r);
    hg->row = QN_ALLOCN((size_t)hg->n + 1, int);
    hg->col = QN_ALLOCN((size_t)hg->n + 1, int);
    if (!hg->row || !hg->col) {
        qn_human_grader_free(hg);
        return qn_err_nomem(err);
    }
    for (int i = 0; i < hg->n; i++)
        qn_layout_rc(l, i, &hg->row[i], &hg->col[i]);
    for (size_t w = 0; w < hg->h->nsides; w++)
        if (hg->h->side[w].chases)
            hg->table_log2[w] =
                qn_system_group_log2(hg->h->side[w].table, QN_IMAGE);
    hg->fast = hg->k == 2 && hg->n <= 64;
    if (hg->fast && build_fast(hg)) {
        qn_human_grader_free(hg);
        return qn_err_nomem(err);
    }
    *out = hg;
    return QN_OK;
}

void qn_human_grader_free(qn_human_grader *hg)
{
    if (!hg)
        return;
    for (size_t w = 0; w < QN_HUMAN_MAX_SIDES; w++)
        free(hg->side[w].res), free(hg->side[w].cond), free(hg->side[w].cmask),
            free(hg->side[w].ylut), free(hg->side[w].up), free(hg->side[w].ur);
    free(hg->fp), free(hg->touch), free(hg->rowm), free(hg->colm);
    free(hg->urall);
    free(hg->row), free(hg->col);
    qn_human_free(hg->h);
    free(hg);
}

const qn_human *qn_human_grader_human(const qn_human_grader *hg)
{
    return hg->h;
}

static int parity(uint64_t x)
{
    return __builtin_popcountll(x) & 1;
}

/* 1 when need has even parity with each of the m masks. */
static int even_on(uint64_t need, const uint64_t *mask, int m)
{
    int bad = 0;
    for (int j = 0; j < m; j++)
        bad |= parity(need & mask[j]);
    return !bad;
}

/* The rungs above spot by masks (qn_human__rungs' answer). With urall
 * each side's residual is a slice of one XOR; else parities. */
static void fast_rungs(const qn_human_grader *hg, uint64_t need, int *level,
                       int *side)
{
    uint64_t v = 0;

    for (uint64_t q = hg->urall ? need : 0; q; q &= q - 1)
        v ^= hg->urall[__builtin_ctzll(q)];
    for (int rung = QN_HUMAN_CHASE; rung <= QN_HUMAN_TABLE; rung++)
        for (int c = 0; c < hg->nchasing; c++) {
            int w = hg->chasing[c];
            const fast_side *f = &hg->side[w];
            int clear;
            if (rung == QN_HUMAN_CHASE)
                clear = hg->urall ? !(v & hg->sidemask[w])
                                  : even_on(need, f->res, f->nres);
            else if (hg->urall && f->ylut)
                clear =
                    f->ylut[(v & hg->sidemask[w]) >> hg->off[w]] != NO_PATTERN;
            else
                clear = even_on(need, f->cond, f->ncond);
            if (clear) {
                *level = rung, *side = w;
                return;
            }
        }
    *level = QN_HUMAN_GLOBAL, *side = -1;
}

/* 1 when the presses of x (a mask) have pairwise disjoint footprints
 * (qn_human__disjoint by masks). */
static int fast_disjoint(const qn_human_grader *hg, uint64_t x)
{
    uint64_t seen = 0;

    for (; x; x &= x - 1) {
        uint64_t f = hg->fp[__builtin_ctzll(x)];
        if (seen & f)
            return 0;
        seen |= f;
    }
    return 1;
}

/* Spot by masks (qn_human_level's first question), when the kernel is
 * small enough to walk here and within the solver's walk limit (else
 * qn_plans_find would refuse it, -1): 1 when one of the optimal plans,
 * the plan's coset members with as few presses, has pairwise disjoint
 * footprints. */
static int fast_spot(const qn_human_grader *hg, uint64_t pressed)
{
    int presses = __builtin_popcountll(pressed);
    uint64_t x = pressed;

    if (hg->nker < 0 ||
        (UINT64_C(1) << hg->nker) > qn_solver_walk_limit(hg->solver))
        return -1;
    /* the coset in Gray code order: one generator changes a step */
    for (uint64_t i = 0;; i++) {
        if (__builtin_popcountll(x) == presses && fast_disjoint(hg, x))
            return 1;
        if (i + 1 == UINT64_C(1) << hg->nker)
            return 0;
        x ^= hg->ker[__builtin_ctzll(i + 1)];
    }
}

/* Presses a chase from side s makes on `need` (changed in place). */
static uint64_t chase_presses(const qn_human *h, const qn_human_side *s,
                              uint8_t *need)
{
    unsigned k = h->k;
    uint64_t total = 0;

    for (int i = 0; i < s->nseq; i++) {
        unsigned t = need[s->seq[i]] * s->inv[i] % k;
        int j = s->pivot[i];
        if (!t)
            continue;
        total += t;
        for (int e = h->colstart[j]; e < h->colstart[j + 1]; e++) {
            int c = h->colrow[e];
            need[c] = (uint8_t)((need[c] + k * k - t * h->colval[e]) % k);
        }
    }
    return total;
}

static uint64_t chase_bits(const qn_human *h, const qn_human_side *s,
                           uint8_t *need)
{
    uint64_t bits = 0;

    for (int i = 0; i < s->nseq; i++) {
        int j = s->pivot[i];
        if (!need[s->seq[i]])
            continue;
        bits |= UINT64_C(1) << i;
        for (int e = h->colstart[j]; e < h->colstart[j + 1]; e++)
            need[h->colrow[e]] ^= 1;
    }
    return bits;
}

/*
 * The presses the technique makes on `state` from side w, each counted
 * as it is made (*made): the chase's; for a table, the first chase's,
 * the pattern's (the one qn_system_solve gives for the residual) and the
 * second chase's. QN_OK, or QN_ENOMEM.
 */
static int technique_presses(const qn_human_grader *hg, const uint8_t *state,
                             int level, int w, uint64_t *made, qn_err *err)
{
    const qn_human *h = hg->h;
    const qn_human_side *s = &h->side[w];
    int n = hg->n, rc = QN_OK;
    unsigned k = hg->k;
    uint8_t *need = qn_malloc((size_t)n + 1);
    uint64_t total;

    if (!need)
        return qn_err_nomem(err);
    for (int i = 0; i < n; i++)
        need[i] = (uint8_t)((hg->goal[i] + k - state[i]) % k);
    if (level == QN_HUMAN_CHASE) {
        *made = chase_presses(h, s, need);
        free(need);
        return QN_OK;
    }
    uint8_t *first = qn_malloc((size_t)n + 1);
    uint8_t *r = qn_malloc((size_t)s->nlast + 1);
    uint8_t *y = QN_ALLOCN((size_t)s->nfirst + 1, uint8_t);
    if (!first || !r || !y) {
        free(first), free(r), free(y), free(need);
        return qn_err_nomem(err);
    }
    memcpy(first, need, (size_t)n);
    total = chase_presses(h, s, first);
    for (int l = 0; l < s->nlast; l++)
        r[l] = (uint8_t)((k - first[s->last[l]]) % k);
    rc = qn_system_solve(s->table, y, r);
    if (rc == QN_ENOMEM) {
        rc = qn_err_nomem(err);
    } else if (rc == QN_OK) {
        for (int f = 0; f < s->nfirst; f++) {
            int j = s->first[f];
            unsigned t = y[f];
            total += t;
            for (int e = h->colstart[j]; t && e < h->colstart[j + 1]; e++) {
                int c = h->colrow[e];
                first[c] = (uint8_t)((first[c] + k * k - t * h->colval[e]) % k);
            }
        }
        total += chase_presses(h, s, first);
    } else {
        rc = QN_OK; /* no pattern: the first chase's presses */
    }
    free(first), free(r), free(y), free(need);
    *made = total;
    return rc;
}

/* technique_presses by masks (k = 2, the side's lookup built): the
 * second chase walks what the pattern changed, its presses being the
 * XOR of each pattern press's chase. */
static uint64_t fast_technique(const qn_human_grader *hg, uint64_t need,
                               int level, int w)
{
    const fast_side *f = &hg->side[w];
    uint64_t p1 = 0, v = 0, y, p2 = 0;

    for (uint64_t q = need; q; q &= q - 1) {
        int b = __builtin_ctzll(q);
        p1 ^= f->up[b];
        v ^= f->ur[b];
    }
    if (level == QN_HUMAN_CHASE)
        return (uint64_t)__builtin_popcountll(p1);
    y = f->ylut[v];
    if (y == NO_PATTERN)
        return (uint64_t)__builtin_popcountll(p1);
    for (uint64_t q = y; q; q &= q - 1)
        p2 ^= f->cmask[__builtin_ctzll(q)];
    return (uint64_t)(__builtin_popcountll(p1) + __builtin_popcountll(y) +
                      __builtin_popcountll(p2));
}

/* Components of the plan's presses joined by overlapping footprints, and
 * the rows + columns they span. QN_OK, or QN_ENOMEM (the byte path). */
static int plan_shape(const qn_human_grader *hg, const uint8_t *plan,
                      uint64_t pressed, int *components, int *spread,
                      int *multi, qn_err *err)
{
    const qn_human *h = hg->h;
    int n = hg->n, comps = 0, mult = 0;
    int rlo = 0, rhi = -1, clo = 0, chi = -1;

    if (hg->fast) {
        uint64_t rem = pressed;
        if (hg->plain_w && pressed) {
            uint64_t cols = 0, wm = ones(hg->plain_w);
            rlo = __builtin_ctzll(pressed) / hg->plain_w;
            rhi = (63 - __builtin_clzll(pressed)) / hg->plain_w;
            for (uint64_t p = pressed; p; p >>= hg->plain_w)
                cols |= p & wm;
            clo = __builtin_ctzll(cols);
            chi = 63 - __builtin_clzll(cols);
            pressed = 0; /* done */
        }
        for (int r = 0; pressed && r < hg->nrowm; r++)
            if (pressed & hg->rowm[r]) {
                rlo = rhi < 0 ? r : rlo;
                rhi = r;
            }
        for (int q = 0; pressed && q < hg->ncolm; q++)
            if (pressed & hg->colm[q]) {
                clo = chi < 0 ? q : clo;
                chi = q;
            }
        while (rem) { /* flood one group over the presses it meets */
            uint64_t front = rem & -rem;
            comps++;
            rem ^= front;
            while (front) {
                uint64_t nb = hg->touch[__builtin_ctzll(front)] & rem;
                front &= front - 1;
                rem ^= nb;
                front |= nb;
            }
        }
    } else {
        int *owner = QN_REALLOCN(NULL, (size_t)n + 1, int);
        int *parent = QN_REALLOCN(NULL, (size_t)n + 1, int);
        if (!owner || !parent) {
            free(owner), free(parent);
            return qn_err_nomem(err);
        }
        for (int i = 0; i < n; i++)
            owner[i] = -1, parent[i] = i;
        for (int j = 0; j < n; j++) {
            if (!plan[j])
                continue;
            mult += plan[j] > 1;
            comps++;
            if (rhi < 0 || hg->row[j] < rlo)
                rlo = hg->row[j];
            if (rhi < 0 || hg->row[j] > rhi)
                rhi = hg->row[j];
            if (chi < 0 || hg->col[j] < clo)
                clo = hg->col[j];
            if (chi < 0 || hg->col[j] > chi)
                chi = hg->col[j];
            for (int e = h->colstart[j]; e < h->colstart[j + 1]; e++) {
                int c = h->colrow[e], a = j, b;
                if (owner[c] < 0) {
                    owner[c] = j;
                    continue;
                }
                b = owner[c];
                while (parent[a] != a)
                    a = parent[a] = parent[parent[a]];
                while (parent[b] != b)
                    b = parent[b] = parent[parent[b]];
                if (a != b)
                    parent[a] = b, comps--;
            }
        }
        free(owner), free(parent);
    }
    *components = comps;
    *spread = rhi < 0 ? 0 : (rhi - rlo + 1) + (chi - clo + 1);
    *multi = mult;
    return QN_OK;
}

/* The cells off their goal and the cells pressed, as masks. */
static void fast_masks(const qn_human_grader *hg, const uint8_t *state,
                       const uint8_t *plan, uint64_t *need, uint64_t *pressed)
{
    int n = hg->n;
#ifdef __SSE2__
    uint8_t s[64] = {0}, x[64] = {0};
    uint64_t ne = 0, pz = 0;
    __m128i zero = _mm_setzero_si128();

    memcpy(s, state, (size_t)n);
    memcpy(x, plan, (size_t)n);
    for (int i = 0; i < n; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i g = _mm_loadu_si128((const __m128i *)(hg->goal64 + i));
        __m128i p = _mm_loadu_si128((const __m128i *)(x + i));
        ne |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, g)) << i;
        pz |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(p, zero))
              << i;
    }
    uint64_t all = n == 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
    *need = ~ne & all;
    *pressed = ~pz & all;
#else
    *need = *pressed = 0;
    for (int i = 0; i < n; i++) {
        *need |= (uint64_t)(state[i] != hg->goal[i]) << i;
        *pressed |= (uint64_t)(plan[i] != 0) << i;
    }
#endif
}

int qn_human_grade_of(const qn_human_grader *hg, const uint8_t *state,
                      const uint8_t *plan, uint64_t presses, uint64_t noptimal,
                      qn_human_grade *out, qn_err *err)
{
    const qn_human *h = hg->h;
    int n = hg->n, level = QN_HUMAN_GLOBAL, side = -1, lit = 0;
    int comps, spread, multi, rc;
    uint64_t need = 0, pressed = 0;

    if (noptimal > QN_HUMAN_MAX_PLANS)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "the state has more than %d optimal plans: "
                          "its human level (spot or not) is not decided",
                          QN_HUMAN_MAX_PLANS);
    if (hg->fast) {
        fast_masks(hg, state, plan, &need, &pressed);
        lit = __builtin_popcountll(need);
    } else {
        for (int i = 0; i < n; i++)
            lit += state[i] != hg->goal[i];
    }
    int is_spot = noptimal > 1 && hg->fast ? fast_spot(hg, pressed) : -1;
    if (is_spot >= 0) {
        if (is_spot)
            level = QN_HUMAN_SPOT;
        else
            fast_rungs(hg, need, &level, &side);
    } else if (noptimal > 1) {
        rc = qn_human_level(h, state, &level, &side, err);
        if (rc != QN_OK)
            return rc;
    } else if (hg->fast) {
        /* pairwise disjoint footprints: each press is a group alone */
        plan_shape(hg, plan, pressed, &comps, &spread, &multi, err);
        if (comps == __builtin_popcountll(pressed))
            level = QN_HUMAN_SPOT;
        else
            fast_rungs(hg, need, &level, &side);
    } else {
        uint8_t *seen = qn_malloc((size_t)n + 1);
        if (!seen)
            return qn_err_nomem(err);
        int spot = qn_human__disjoint(h, plan, seen);
        free(seen);
        if (spot)
            level = QN_HUMAN_SPOT;
        else if ((rc = qn_human__rungs(h, state, &level, &side, err)) != QN_OK)
            return rc;
    }
    if ((noptimal > 1 || !hg->fast) &&
        (rc = plan_shape(hg, plan, pressed, &comps, &spread, &multi, err)) !=
            QN_OK)
        return rc;
    memset(out, 0, sizeof(*out));
    out->level = level;
    out->side = side;
    out->f[QN_HF_LEVEL] = level;
    out->f[QN_HF_PRESSES] = (double)presses;
    out->f[QN_HF_LIT] = lit;
    out->f[QN_HF_OPTIMAL] = noptimal > 1 ? log2((double)noptimal) : 0.0;
    out->f[QN_HF_COMPONENTS] = comps;
    out->f[QN_HF_SPREAD] = spread;
    out->f[QN_HF_MULTI] = multi;
    if (level == QN_HUMAN_CHASE || level == QN_HUMAN_TABLE) {
        uint64_t made = 0;
        if (hg->fast && hg->side[side].ylut)
            made = fast_technique(hg, need, level, side);
        else if ((rc = technique_presses(hg, state, level, side, &made, err)) !=
                 QN_OK)
            return rc;
        out->f[QN_HF_OVERSHOOT] =
            made > presses ? (double)(made - presses) : 0.0;
    }
    if (level == QN_HUMAN_TABLE)
        out->f[QN_HF_TABLE] = hg->table_log2[side];
    return QN_OK;
}

int qn_human_grade_state(const qn_human_grader *hg, const uint8_t *state,
                         qn_human_grade *out, qn_err *err)
{
    qn_answer a;
    int rc;

    if ((rc = qn_answer_init(&a, hg->solver, err)) != QN_OK)
        return rc;
    rc = qn_solver_answer(hg->solver, &a, state);
    if (rc == QN_OK && !a.solvable)
        rc = qn_err_set(err, QN_EUNSOLVABLE, 0, 0, "the state has no solution");
    else if (rc == QN_OK && !a.exact)
        rc = qn_err_set(err, QN_ELIMIT, 0, 0,
                        "the state's least press count is not proven: no "
                        "human grade");
    else if (rc == QN_OK && a.at_goal) {
        memset(out, 0, sizeof(*out));
        out->level = QN_HUMAN_SPOT, out->side = -1;
    } else if (rc == QN_OK)
        rc = qn_human_grade_of(hg, state, a.plan, a.mp.presses, a.mp.noptimal,
                               out, err);
    else if (rc == QN_ENOMEM)
        rc = qn_err_nomem(err);
    else
        rc = qn_err_set(err, rc, 0, 0, "the state could not be solved");
    qn_answer_release(&a);
    return rc;
}
