/*
 * rules.c: compiling a plain rule description (qn_rules_spec) into a
 * qn_rules: the steps in order (header, board, press matrix, goal, tiers,
 * hash, symmetry group), the lifecycles and the accessors. No YAML here:
 * rules_yaml.c and rules_schema.c fill the spec.
 */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/mem.h"
#include "rules/state.h"
#include "rules_internal.h"

typedef struct tier {
    char *name;
    int lo, hi;
} tier;

struct qn_rules {
    char *name, *title, *description, *author; /* never NULL */
    unsigned k;                                /* colours, 2..255 */
    qn_layout layout;
    int n;           /* layout.ncells */
    uint8_t *matrix; /* n * n, A[i * n + j] */
    uint8_t *goal;   /* n */
    char hash[65];
    int symmetric;
    tier *tiers;
    size_t ntiers;
    qn_rules_group group; /* the symmetries */
    int *syminv;          /* group.nsyms * n: the inverse permutations */
    char *text;           /* the YAML loaded from, NUL-terminated; or NULL */
    size_t text_len;
};

/* ------------------------------------------------------------------ */
/* The spec */

void qn_rules_spec_init(qn_rules_spec *spec)
{
    memset(spec, 0, sizeof(*spec));
    spec->self = -1;
}

static void text_release(qn_text_spec *t)
{
    free(t->text);
    free(t->origins);
}

void qn_rules_spec_release(qn_rules_spec *spec)
{
    size_t i;

    free(spec->name);
    free(spec->title);
    free(spec->description);
    free(spec->author);
    text_release(&spec->mask);
    free(spec->stencil.offsets);
    free(spec->corner.offsets);
    free(spec->edge.offsets);
    free(spec->interior.offsets);
    for (i = 0; i < spec->neffects; i++)
        free(spec->effects[i].targets);
    free(spec->effects);
    text_release(&spec->goal);
    for (i = 0; i < spec->ntiers; i++)
        free(spec->tiers[i].name);
    free(spec->tiers);
    qn_rules_spec_init(spec);
}

static int build_goal(qn_rules *r, const qn_rules_spec *s, qn_err *err)
{
    const qn_text_spec *t = &s->goal;
    qn_err e = QN_ERR_INIT;
    qn_mark m;

    if (!t->text)
        return QN_OK; /* calloc'd: all zero */
    if (qn_state_parse(r->goal, &r->layout, r->k, t->text, t->len, &e) == QN_OK)
        return QN_OK;
    m = qn_rules__text_pos(t, e.line, e.col);
    return qn_rules__fail(err, m, "goal: %s", e.msg);
}

static int build_tiers(qn_rules *r, const qn_rules_spec *s, qn_err *err)
{
    long most = (long)r->n * (long)(r->k - 1);
    size_t i;

    if (s->ntiers > QN_RULES_MAX_TIERS)
        return qn_rules__fail(err, s->grading_mark,
                              "grading has %zu tiers, the limit "
                              "is %d",
                              s->ntiers, QN_RULES_MAX_TIERS);
    for (i = 0; i < s->ntiers; i++) {
        const qn_tier_spec *t = &s->tiers[i];
        if (!qn_rules__is_slug(t->name, QN_RULES_MAX_NAME))
            return qn_rules__fail(err, t->mark,
                                  "tier name '%s' must be a slug: "
                                  "lowercase letters, digits, '-' and '_'",
                                  t->name);
        if (t->lo < 0 || t->hi < t->lo)
            return qn_rules__fail(err, t->mark,
                                  "tier '%s' range %ld..%ld must be "
                                  "lo..hi with 0 <= lo <= hi",
                                  t->name, t->lo, t->hi);
        if (t->hi > most)
            return qn_rules__fail(err, t->mark,
                                  "tier '%s' range %ld..%ld goes past "
                                  "%ld, the most presses a board can take",
                                  t->name, t->lo, t->hi, most);
        if (i > 0 && t->lo <= s->tiers[i - 1].hi)
            return qn_rules__fail(err, t->mark,
                                  "tier '%s' range %ld..%ld must start "
                                  "after '%s' (%ld..%ld)",
                                  t->name, t->lo, t->hi, s->tiers[i - 1].name,
                                  s->tiers[i - 1].lo, s->tiers[i - 1].hi);
    }
    if (!(r->tiers = QN_ALLOCN(s->ntiers ? s->ntiers : 1, tier)))
        return qn_err_nomem(err);
    r->ntiers = s->ntiers;
    for (i = 0; i < s->ntiers; i++) {
        if (!(r->tiers[i].name = qn_strdup(s->tiers[i].name)))
            return qn_err_nomem(err);
        r->tiers[i].lo = (int)s->tiers[i].lo;
        r->tiers[i].hi = (int)s->tiers[i].hi;
    }
    return QN_OK;
}

static void build_hash(qn_rules *r)
{
    static const char tag[] = "quench-rules-1";
    qn_hash h;
    uint8_t d[QN_HASH_BYTES];

    qn_hash_init(&h);
    qn_hash_update(&h, tag, sizeof(tag)); /* includes the NUL */
    qn_hash_u32(&h, (uint32_t)r->n);
    qn_hash_u32(&h, r->k);
    qn_hash_update(&h, r->matrix, (size_t)r->n * r->n);
    qn_hash_update(&h, r->goal, (size_t)r->n);
    qn_hash_final(&h, d);
    qn_hash_hex(r->hash, d);
}

/* A == A^T: pressing j adds to i what pressing i adds to j, for all i, j. */
static int is_symmetric(const uint8_t *a, int n)
{
    int i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < i; j++)
            if (a[(size_t)i * n + j] != a[(size_t)j * n + i])
                return 0;
    return 1;
}

int qn_rules_build(qn_rules **out, const qn_rules_spec *s, const char *source,
                   qn_err *err)
{
    qn_rules *r = QN_ALLOC(qn_rules);
    int rc, n = 0;

    *out = NULL;
    if (!r)
        return qn_err_nomem(err);
    /* with s->errs each step's error is kept and the next step runs,
     * unless it needs what failed: the matrix, the goal and the tiers
     * (their press counts) a board and valid colours (qn_rules__keep) */
    if ((rc = qn_rules__check_header(s, err)) != QN_OK &&
        !qn_rules__keep(s, err))
        goto fail;
    r->k = s->has_colours ? (unsigned)s->colours : 2;
    if ((rc = qn_rules__build_layout(&r->layout, s, err)) != QN_OK) {
        if (!qn_rules__keep(s, err))
            goto fail;
    } else if (r->k >= 2 && r->k <= 255) {
        n = r->n = r->layout.ncells;
        r->matrix = QN_ALLOCN((size_t)n * n, uint8_t);
        r->goal = QN_ALLOCN((size_t)n, uint8_t);
        if (!r->matrix || !r->goal) {
            rc = qn_err_nomem(err);
            goto fail;
        }
        if (((rc = qn_rules__build_matrix(r->matrix, &r->layout, r->k, s,
                                          err)) != QN_OK &&
             !qn_rules__keep(s, err)) ||
            ((rc = build_goal(r, s, err)) != QN_OK &&
             !qn_rules__keep(s, err)) ||
            ((rc = build_tiers(r, s, err)) != QN_OK && !qn_rules__keep(s, err)))
            goto fail;
    }
    if ((rc = qn_rules__kept(s, err)) != QN_OK)
        goto fail;
    r->name = qn_strdup(s->name);
    r->title = qn_strdup(s->title ? s->title : "");
    r->description = qn_strdup(s->description ? s->description : "");
    r->author = qn_strdup(s->author ? s->author : "");
    r->symmetric = is_symmetric(r->matrix, n);
    build_hash(r);
    if (!r->name || !r->title || !r->description || !r->author ||
        qn_rules__find_group(&r->group, &r->layout, r->matrix, r->goal) !=
            QN_OK ||
        !(r->syminv = QN_ALLOCN(r->group.nsyms * (size_t)n + 1, int))) {
        rc = qn_err_nomem(err);
        goto fail;
    }
    for (size_t g = 0; g < r->group.nsyms; g++) {
        const int *p = r->group.syms + g * (size_t)n;
        for (int c = 0; c < n; c++)
            r->syminv[g * (size_t)n + p[c]] = c;
    }
    *out = r;
    return QN_OK;
fail:
    qn_err_source(err, source ? source : "");
    qn_rules_free(r);
    return rc;
}

void qn_rules_free(qn_rules *r)
{
    size_t i;

    if (!r)
        return;
    free(r->name);
    free(r->title);
    free(r->description);
    free(r->author);
    qn_layout_release(&r->layout);
    free(r->matrix);
    free(r->goal);
    free(r->text);
    for (i = 0; i < r->ntiers; i++)
        free(r->tiers[i].name);
    free(r->tiers);
    free(r->group.syms);
    free(r->syminv);
    free(r);
}

/* ------------------------------------------------------------------ */
/* Accessors */

int qn_rules__keep_text(qn_rules *r, const char *text, size_t len, qn_err *err)
{
    char *t = qn_malloc(len + 1);

    if (!t)
        return qn_err_nomem(err);
    free(r->text);
    r->text = t;
    memcpy(r->text, text, len);
    r->text[len] = '\0';
    r->text_len = len;
    return QN_OK;
}

const char *qn_rules_text(const qn_rules *r, size_t *len_out)
{
    if (len_out)
        *len_out = r->text ? r->text_len : 0;
    return r->text;
}

const char *qn_rules_name(const qn_rules *r)
{
    return r->name;
}
const char *qn_rules_title(const qn_rules *r)
{
    return r->title;
}
const char *qn_rules_description(const qn_rules *r)
{
    return r->description;
}
const char *qn_rules_author(const qn_rules *r)
{
    return r->author;
}
int qn_rules_ncells(const qn_rules *r)
{
    return r->n;
}
unsigned qn_rules_colours(const qn_rules *r)
{
    return r->k;
}
const uint8_t *qn_rules_matrix(const qn_rules *r)
{
    return r->matrix;
}
const uint8_t *qn_rules_goal(const qn_rules *r)
{
    return r->goal;
}
const qn_layout *qn_rules_layout(const qn_rules *r)
{
    return &r->layout;
}
int qn_rules_is_symmetric(const qn_rules *r)
{
    return r->symmetric;
}

void qn_rules_hash(const qn_rules *r, char hex_out[65])
{
    memcpy(hex_out, r->hash, 65);
}

size_t qn_rules_ntiers(const qn_rules *r)
{
    return r->ntiers;
}

const char *qn_rules_tier_name(const qn_rules *r, size_t i)
{
    return r->tiers[i].name;
}

int qn_rules_tier_lo(const qn_rules *r, size_t i)
{
    return r->tiers[i].lo;
}
int qn_rules_tier_hi(const qn_rules *r, size_t i)
{
    return r->tiers[i].hi;
}
const int *qn_rules_sym_inverse(const qn_rules *r, size_t i)
{
    return r->syminv + i * (size_t)r->n;
}

size_t qn_rules_nsyms(const qn_rules *r)
{
    return r->group.nsyms;
}

const int *qn_rules_sym(const qn_rules *r, size_t i)
{
    return r->group.syms + i * (size_t)r->n;
}

const char *qn_rules_symmetry_name(const qn_rules *r)
{
    return r->group.name;
}
