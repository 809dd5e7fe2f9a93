/*
 * rules_schema.c: the tree of a rule file (rules_tree.h) read against the
 * schema into a qn_rules_spec: which keys each mapping takes and the types
 * of their values (read by rules_read.c, which also says "did you mean"
 * for a key it does not know). No libyaml here: rules_yaml.c builds the
 * tree.
 */
#include "rules_tree.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/mem.h"
#include "rules_internal.h"

typedef qn_rules_node node;

#define NKEYS(a) (sizeof(a) / sizeof((a)[0]))

/* The keys of a rule file, in qn_rules__spec_from_tree's order. */
static const char *const top_keys[] = {
    "quench", "name",  "title",   "description", "author", "colours",
    "board",  "press", "effects", "goal",        "grading"};

/* One key and its value of a mapping, read into s. */
typedef int pair_fn(const node *k, const node *v, qn_rules_spec *s,
                    qn_err *err);

/* Each key: value of the mapping n read by fn; past an error when s
 * keeps them (qn_rules__keep), else stopping at it. */
static int each_pair(const node *n, qn_rules_spec *s, pair_fn *fn, qn_err *err)
{
    int rc;

    for (size_t i = 0; i < n->nkids; i += 2)
        if ((rc = fn(n->kids[i], n->kids[i + 1], s, err)) &&
            !qn_rules__keep(s, err))
            return rc;
    return QN_OK;
}

/* A text value: one string, or a sequence of row strings. */
static int get_text(const node *n, const char *what, qn_text_spec *t,
                    qn_err *err)
{
    size_t i, j;
    qn_buf b = QN_BUF_INIT;

    t->mark = n->mark;
    if (n->type == N_SCALAR) {
        if (!(t->text = qn_strndup(n->val, n->len)))
            return qn_err_nomem(err);
        t->len = n->len;
        if (n->origins) {
            t->origins = qn_memdup(n->origins, n->norigins * sizeof(qn_mark));
            if (!t->origins)
                return qn_err_nomem(err);
            t->norigins = n->norigins;
        }
        return QN_OK;
    }
    if (n->type != N_SEQ)
        return qn_rules__fail(err, n->mark,
                              "%s must be a string or a sequence of "
                              "rows, got %s",
                              what, qn_rules__node_kind(n));
    if (n->nkids == 0)
        return qn_rules__fail(err, n->mark, "%s has no rows", what);
    if (!(t->origins = QN_ALLOCN(n->nkids, qn_mark)))
        return qn_err_nomem(err);
    t->norigins = n->nkids;
    for (i = 0; i < n->nkids; i++) {
        const node *k = n->kids[i];
        if (k->type != N_SCALAR) {
            qn_buf_release(&b);
            return qn_rules__fail(err, k->mark,
                                  "%s rows must be strings, got %s", what,
                                  qn_rules__node_kind(k));
        }
        for (j = 0; j < k->len; j++) {
            if (k->val[j] == '\n' || k->val[j] == '/') {
                qn_buf_release(&b);
                return qn_rules__fail(err, k->mark,
                                      "%s row %zu contains a row "
                                      "separator; give one row per item",
                                      what, i);
            }
        }
        if (i)
            qn_buf_addc(&b, '\n');
        qn_buf_add(&b, k->val, k->len);
        t->origins[i] = k->origins ? k->origins[0] : k->mark;
    }
    t->text = qn_buf_detach(&b, &t->len);
    if (!t->text)
        return qn_err_nomem(err);
    return QN_OK;
}

/* ------------------------------------------------------------------ */
/* The schema */

static int get_pair(const node *n, const char *what, long *a, long *b,
                    qn_mark *ma, qn_mark *mb, qn_err *err)
{
    int rc;

    if (n->type != N_SEQ || n->nkids != 2)
        return qn_rules__fail(err, n->mark, "%s must be [width, height]", what);
    if ((rc = qn_rules__get_int(n->kids[0], what, a, err)) ||
        (rc = qn_rules__get_int(n->kids[1], what, b, err)))
        return rc;
    *ma = n->kids[0]->mark;
    *mb = n->kids[1]->mark;
    return QN_OK;
}

/* One key k: v of the board. */
static int board_key(const node *k, const node *v, qn_rules_spec *s,
                     qn_err *err)
{
    static const char *const keys[] = {"grid",  "hex",  "hexagon",
                                       "graph", "wrap", "mask"};
    static const char *const wraps[] = {"none", "x", "y", "both"};
    int rc, which = 0, w;

    if ((rc = qn_rules__lookup(k, "board key", keys, NKEYS(keys), &which, err)))
        return rc;
    if (which <= 3) {
        if (s->has_grid + s->has_hex + s->has_hexagon + s->has_graph)
            return qn_rules__fail(err, k->mark,
                                  "board has more than one of 'grid', "
                                  "'hex', 'hexagon', 'graph'");
        s->shape_mark = v->mark;
    }
    switch (which) {
    case 0:
    case 1:
        if (which == 0)
            s->has_grid = 1;
        else
            s->has_hex = 1;
        if (v->type == N_SCALAR) { /* grid: N is N x N */
            if ((rc = qn_rules__get_int(v, keys[which], &s->w, err)))
                return rc;
            s->h = s->w;
            s->w_mark = s->h_mark = v->mark;
        } else if ((rc = get_pair(v, keys[which], &s->w, &s->h, &s->w_mark,
                                  &s->h_mark, err))) {
            return rc;
        }
        break;
    case 2:
        s->has_hexagon = 1;
        if ((rc = qn_rules__get_int(v, "hexagon", &s->side, err)))
            return rc;
        break;
    case 3:
        s->has_graph = 1;
        if ((rc = qn_rules__get_int(v, "graph", &s->nnodes, err)))
            return rc;
        break;
    case 4:
        if ((rc = qn_rules__want(v, N_SCALAR, "wrap", err)))
            return rc;
        for (w = 0; w < 4; w++)
            if (!strcmp(v->val, wraps[w]))
                break;
        if (w == 4)
            return qn_rules__fail(err, v->mark,
                                  "wrap must be none, x, y or both, "
                                  "got '%.40s'",
                                  v->val);
        s->has_wrap = 1;
        s->wrap = w;
        s->wrap_mark = v->mark;
        break;
    case 5:
        if ((rc = get_text(v, "mask", &s->mask, err)))
            return rc;
        break;
    }
    return QN_OK;
}

static int do_board(const node *n, qn_rules_spec *s, qn_err *err)
{
    int rc;

    if ((rc = qn_rules__want(n, N_MAP, "board", err)))
        return rc;
    s->has_board = 1;
    s->board_mark = n->mark;
    return each_pair(n, s, board_key, err);
}

static int do_stencil(const node *n, const char *what, qn_stencil_spec *st,
                      qn_err *err)
{
    static const char *const names[] = {"plus",   "x",      "moore",
                                        "knight", "rowcol", "hex"};
    static const qn_stencil_kind kinds[] = {
        QN_STENCIL_PLUS,   QN_STENCIL_X,      QN_STENCIL_MOORE,
        QN_STENCIL_KNIGHT, QN_STENCIL_ROWCOL, QN_STENCIL_HEX};
    size_t i;
    int rc, which = 0;
    long v[3];

    st->mark = n->mark;
    if (n->type == N_SCALAR) {
        if ((rc = qn_rules__lookup(n, "stencil", names, NKEYS(names), &which,
                                   err)))
            return rc;
        st->kind = kinds[which];
        return QN_OK;
    }
    if (n->type != N_SEQ)
        return qn_rules__fail(err, n->mark,
                              "%s must be a stencil name or a list of "
                              "[dx, dy] offsets, got %s",
                              what, qn_rules__node_kind(n));
    if (n->nkids > QN_RULES_MAX_OFFSETS)
        return qn_rules__fail(err, n->mark,
                              "%s has %zu offsets, the limit is %d", what,
                              n->nkids, QN_RULES_MAX_OFFSETS);
    st->kind = QN_STENCIL_LIST;
    if (!(st->offsets = QN_ALLOCN(n->nkids ? n->nkids : 1, qn_offset)))
        return qn_err_nomem(err);
    for (i = 0; i < n->nkids; i++) {
        const node *o = n->kids[i];
        qn_offset *off = &st->offsets[i];
        if (o->type != N_SEQ || o->nkids < 2 || o->nkids > 3)
            return qn_rules__fail(err, o->mark,
                                  "offset must be [dx, dy] or [dx, dy, "
                                  "amount]");
        if ((rc = qn_rules__get_int(o->kids[0], "dx", &v[0], err)) ||
            (rc = qn_rules__get_int(o->kids[1], "dy", &v[1], err)))
            return rc;
        if (o->nkids == 3) {
            if ((rc = qn_rules__get_int(o->kids[2], "amount", &v[2], err)))
                return rc;
            off->has_amount = 1;
            off->amount = v[2];
        }
        off->dx = (int)v[0];
        off->dy = (int)v[1];
        off->mark = o->mark;
        st->noffsets++;
    }
    return QN_OK;
}

static int do_press(const node *n, qn_rules_spec *s, qn_err *err)
{
    static const char *const keys[] = {"stencil", "self", "amount",
                                       "corner",  "edge", "interior"};
    size_t i;
    int rc, which = 0;

    if ((rc = qn_rules__want(n, N_MAP, "press", err)))
        return rc;
    s->has_press = 1;
    s->press_mark = n->mark;
    for (i = 0; i < n->nkids; i += 2) {
        const node *k = n->kids[i], *v = n->kids[i + 1];
        if ((rc = qn_rules__lookup(k, "press key", keys, NKEYS(keys), &which,
                                   err))) {
            if (!qn_rules__keep(s, err))
                return rc;
            continue;
        }
        switch (which) {
        case 0:
            rc = do_stencil(v, "stencil", &s->stencil, err);
            break;
        case 1:
            rc = qn_rules__get_bool(v, "self", &s->self, err);
            s->self_mark = v->mark;
            break;
        case 2:
            rc = qn_rules__get_int(v, "amount", &s->amount, err);
            s->has_amount = 1;
            s->amount_mark = v->mark;
            break;
        case 3:
            rc = do_stencil(v, "corner", &s->corner, err);
            break;
        case 4:
            rc = do_stencil(v, "edge", &s->edge, err);
            break;
        case 5:
            rc = do_stencil(v, "interior", &s->interior, err);
            break;
        }
        if (rc && !qn_rules__keep(s, err))
            return rc;
    }
    return QN_OK;
}

/* One entry k: v of effects. */
static int effect_entry(const node *k, const node *v, qn_rules_spec *s,
                        qn_err *err)
{
    size_t j;
    int rc;

    qn_effect_spec *e = &s->effects[s->neffects];
    if ((rc = qn_rules__get_int(k, "effects key (a cell number)", &e->cell,
                                err)))
        return rc;
    e->mark = k->mark;
    s->neffects++;
    if (v->type != N_SEQ)
        return qn_rules__fail(err, v->mark,
                              "effects of cell %ld must be a list of "
                              "[cell, amount], got %s",
                              e->cell, qn_rules__node_kind(v));
    if (!(e->targets = QN_ALLOCN(v->nkids ? v->nkids : 1, qn_effect_target)))
        return qn_err_nomem(err);
    for (j = 0; j < v->nkids; j++) {
        const node *t = v->kids[j];
        qn_effect_target *tg = &e->targets[j];
        tg->mark = t->mark;
        if (t->type == N_SCALAR) {
            if ((rc = qn_rules__get_int(t, "affected cell", &tg->cell, err)))
                return rc;
        } else if (t->type == N_SEQ && t->nkids == 2) {
            if ((rc = qn_rules__get_int(t->kids[0], "affected cell", &tg->cell,
                                        err)) ||
                (rc =
                     qn_rules__get_int(t->kids[1], "amount", &tg->amount, err)))
                return rc;
            tg->has_amount = 1;
        } else {
            return qn_rules__fail(err, t->mark,
                                  "effect must be [cell, amount] or "
                                  "a cell number");
        }
        e->ntargets++;
    }
    return QN_OK;
}

static int do_effects(const node *n, qn_rules_spec *s, qn_err *err)
{
    size_t ne;
    int rc;

    if ((rc = qn_rules__want(n, N_MAP, "effects", err)))
        return rc;
    s->has_effects = 1;
    s->effects_mark = n->mark;
    ne = n->nkids / 2;
    if (!(s->effects = QN_ALLOCN(ne ? ne : 1, qn_effect_spec)))
        return qn_err_nomem(err);
    return each_pair(n, s, effect_entry, err);
}

static int tier_entry(const node *k, const node *v, qn_rules_spec *s,
                      qn_err *err);

static int do_grading(const node *n, qn_rules_spec *s, qn_err *err)
{
    size_t nt;
    int rc;

    if ((rc = qn_rules__want(n, N_MAP, "grading", err)))
        return rc;
    s->has_grading = 1;
    s->grading_mark = n->mark;
    nt = n->nkids / 2;
    if (nt > QN_RULES_MAX_TIERS)
        return qn_rules__fail(err, n->mark,
                              "grading has %zu tiers, the limit is %d", nt,
                              QN_RULES_MAX_TIERS);
    if (!(s->tiers = QN_ALLOCN(nt ? nt : 1, qn_tier_spec)))
        return qn_err_nomem(err);
    return each_pair(n, s, tier_entry, err);
}

/* One tier k: v of grading (room for it reserved). */
static int tier_entry(const node *k, const node *v, qn_rules_spec *s,
                      qn_err *err)
{
    int rc;

    qn_tier_spec *t = &s->tiers[s->ntiers++];
    if (!(t->name = qn_strndup(k->val, k->len)))
        return qn_err_nomem(err);
    t->mark = k->mark;
    if (v->type == N_SCALAR) {
        if ((rc = qn_rules__get_int(v, "tier range", &t->lo, err)))
            return rc;
        t->hi = t->lo;
    } else if (v->type == N_SEQ && v->nkids == 2) {
        if ((rc = qn_rules__get_int(v->kids[0], "tier range", &t->lo, err)) ||
            (rc = qn_rules__get_int(v->kids[1], "tier range", &t->hi, err)))
            return rc;
    } else {
        return qn_rules__fail(err, v->mark,
                              "tier '%.40s' must be [lo, hi] (press "
                              "counts)",
                              t->name);
    }
    return QN_OK;
}

int qn_rules__spec_from_tree(qn_rules_spec *s, const node *n, qn_err *err)
{
    const char *const *keys = top_keys;
    size_t i;
    int rc, which = 0;

    if (n->type != N_MAP)
        return qn_rules__fail(err, n->mark,
                              "a rule file must be a mapping, got %s",
                              qn_rules__node_kind(n));
    s->mark = n->mark;
    /* before any value is read (and maybe quoted): every key is a rule
     * file's (rules_yaml.c checked), but is it one? */
    for (i = 0; i < n->nkids && strcmp(n->kids[i]->val, "quench"); i += 2)
        ;
    if (i >= n->nkids)
        return qn_rules__fail(err, n->mark,
                              "missing 'quench: %d' (the schema version)",
                              QN_RULES_VERSION);
    for (i = 0; i < n->nkids; i += 2) {
        const node *k = n->kids[i], *v = n->kids[i + 1];
        if ((rc = qn_rules__lookup(k, "key", keys, NKEYS(top_keys), &which,
                                   err)))
            return rc;
        switch (which) {
        case 0:
            rc = qn_rules__get_int(v, "quench (the schema version)",
                                   &s->version, err);
            s->has_version = 1;
            s->version_mark = v->mark;
            break;
        case 1:
            rc = qn_rules__get_str(v, "name", &s->name, err);
            s->name_mark = v->mark;
            break;
        case 2:
            rc = qn_rules__get_str(v, "title", &s->title, err);
            s->title_mark = v->mark;
            break;
        case 3:
            rc = qn_rules__get_str(v, "description", &s->description, err);
            s->description_mark = v->mark;
            break;
        case 4:
            rc = qn_rules__get_str(v, "author", &s->author, err);
            s->author_mark = v->mark;
            break;
        case 5:
            rc = qn_rules__get_int(v, "colours", &s->colours, err);
            s->has_colours = rc == QN_OK; /* else said already */
            s->colours_mark = v->mark;
            break;
        case 6:
            rc = do_board(v, s, err);
            break;
        case 7:
            rc = do_press(v, s, err);
            break;
        case 8:
            rc = do_effects(v, s, err);
            break;
        case 9:
            rc = get_text(v, "goal", &s->goal, err);
            break;
        case 10:
            rc = do_grading(v, s, err);
            break;
        }
        if (rc && !qn_rules__keep(s, err))
            return rc;
    }
    /* errors kept: the file is not built, but the header's checks need
     * nothing else of it (a version read wrong was said already) */
    if (s->errs && s->errs->n && s->has_version &&
        s->version == QN_RULES_VERSION &&
        (rc = qn_rules__check_header(s, err)) != QN_OK &&
        !qn_rules__keep(s, err))
        return rc;
    return qn_rules__kept(s, err);
}

int qn_rules__check_top_key(const node *k, qn_err *err)
{
    size_t i;

    for (i = 0; i < NKEYS(top_keys); i++)
        if (!strcmp(k->val, top_keys[i]))
            return QN_OK;
    return qn_rules__unknown(k, "key", top_keys, NKEYS(top_keys), err);
}
