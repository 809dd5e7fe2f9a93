/*
 * json_pack.c: read a quench-pack JSON document (export.h) through jansson
 * (with json_in.c, the only files that include it). Strict: duplicate or
 * unknown keys, wrong types, numbers that are not integers and documents
 * past the QN_PACK_MAX_* limits are errors.
 *
 * A document is not parsed whole: jansson's tree of it took some 14 times
 * its text (an 86 MB document, 1.2 GB) before the first field was looked
 * at. A small scanner (json_scan.c) walks the top-level object and its
 * "rules" and "puzzles" arrays, counting their elements and each
 * element's values against the limits before anything is allocated, and
 * jansson parses one member or one element at a time: the text, the
 * parsed document and one element's tree are all that is ever held.
 */
#include "quench/export.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "export_internal.h"
#include "quench/distrib.h"
#include "quench/mem.h"
#include "quench/puzzle_id.h"
#include "quench/rng.h"
#include "quench/store.h"
#include "quench/text.h"

/* "rule 2: " or "puzzle 17: " or "": who an error is about. */
typedef struct where {
    char what[64];
} where;

static int bad(qn_err *err, const where *at, const char *fmt, ...)
    QN_PRINTF(3, 4);

static int bad(qn_err *err, const where *at, const char *fmt, ...)
{
    char msg[200];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return qn_err_set(err, QN_EINVAL, 0, 0, "%s%s", at->what, msg);
}

/* Every key of obj is one of keys (NULL-terminated). */
static int only_keys(json_t *obj, const char *const *keys, qn_err *err,
                     const where *at)
{
    const char *k;
    json_t *v;

    json_object_foreach(obj, k, v) {
        size_t i = 0;
        (void)v;
        while (keys[i] && strcmp(keys[i], k) != 0)
            i++;
        if (!keys[i])
            return bad(err, at, "unknown key '%s'", k);
    }
    return QN_OK;
}

static json_t *member(json_t *obj, const char *key, json_type type,
                      const char *type_name, qn_err *err, const where *at)
{
    json_t *v = json_object_get(obj, key);

    if (!v) {
        bad(err, at, "missing key '%s'", key);
        return NULL;
    }
    if (json_typeof(v) != type) {
        bad(err, at, "'%s' must be %s", key, type_name);
        return NULL;
    }
    return v;
}

/* A string of at most max bytes without NUL into *out (replaced). */
static int get_text(json_t *obj, const char *key, size_t max, char **out,
                    qn_err *err, const where *at)
{
    json_t *v = member(obj, key, JSON_STRING, "a string", err, at);

    if (!v)
        return QN_EINVAL;
    if (strlen(json_string_value(v)) != json_string_length(v))
        return bad(err, at, "'%s' holds a NUL character", key);
    if (json_string_length(v) > max)
        return bad(err, at, "'%s' is longer than %zu bytes", key, max);
    free(*out);
    *out = qn_xstrdup(json_string_value(v));
    return QN_OK;
}

static int get_str(json_t *obj, const char *key, char **out, qn_err *err,
                   const where *at)
{
    return get_text(obj, key, QN_RULES_MAX_TEXT, out, err, at);
}

static int get_int(json_t *obj, const char *key, long long lo, long long hi,
                   long long *out, qn_err *err, const where *at)
{
    json_t *v = member(obj, key, JSON_INTEGER, "an integer", err, at);
    long long x;

    if (!v)
        return QN_EINVAL;
    x = json_integer_value(v);
    if (x < lo || x > hi)
        return bad(err, at, "'%s' is %lld, must be %lld..%lld", key, x, lo,
                   hi);
    *out = x;
    return QN_OK;
}

/* An array of exactly n integers, each below k, into out (n bytes). */
static int get_cells(json_t *obj, const char *key, int n, unsigned k,
                     uint8_t *out, qn_err *err, const where *at)
{
    json_t *a = member(obj, key, JSON_ARRAY, "an array of integers", err, at);
    size_t i;
    json_t *v;

    if (!a)
        return QN_EINVAL;
    if (json_array_size(a) != (size_t)n)
        return bad(err, at, "'%s' has %zu %s, the rule has %d %s", key,
                   json_array_size(a),
                   qn_plural(json_array_size(a), "value", "values"), n,
                   qn_plural((uint64_t)n, "cell", "cells"));
    json_array_foreach(a, i, v) {
        long long x;
        if (!json_is_integer(v))
            return bad(err, at, "'%s' value %zu is not an integer", key, i);
        x = json_integer_value(v);
        if (x < 0 || x >= (long long)k)
            return bad(err, at, "'%s' value %zu is %lld, must be 0..%u", key,
                       i, x, k - 1);
        out[i] = (uint8_t)x;
    }
    return QN_OK;
}

static int is_hash(const char *s)
{
    size_t i = 0;

    for (; s[i]; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return i == 64;
}

static const char *const rule_keys[] = {
    "hash", "name", "title", "description", "author", "colours", "board",
    "ncells", "goal", "cells", "tiers", "kernel", NULL};
static const char *const kernel_keys[] = {"order", "presses", NULL};
static const char *const board_keys[] = {"kind", "width", "height", "wrap",
                                         "side", NULL};
static const char *const cell_keys[] = {"index", "row", "col", "effects",
                                        NULL};
static const char *const effect_keys[] = {"cell", "amount", NULL};
static const char *const tier_keys[] = {"name", "lo", "hi", NULL};

static int parse_board(qn_pack_rule *pr, json_t *jr, qn_err *err,
                       const where *at)
{
    static const char *const kinds[] = {"grid", "hex", "hexagon", "graph"};
    static const char *const wraps[] = {"none", "x", "y", "both"};
    json_t *b = member(jr, "board", JSON_OBJECT, "an object", err, at);
    char *s = NULL;
    long long x;
    int rc, i;

    if (!b)
        return QN_EINVAL;
    if ((rc = only_keys(b, board_keys, err, at)) != QN_OK)
        return rc;
    if ((rc = get_str(b, "kind", &s, err, at)) != QN_OK)
        return rc;
    for (i = 0; i < 4 && strcmp(s, kinds[i]) != 0; i++)
        ;
    if (i == 4) {
        rc = bad(err, at, "board kind '%s' is not grid, hex, hexagon or "
                          "graph", s);
        free(s);
        return rc;
    }
    pr->kind = (qn_layout_kind)i;
    if ((rc = get_str(b, "wrap", &s, err, at)) != QN_OK) {
        free(s);
        return rc;
    }
    for (i = 0; i < 4 && strcmp(s, wraps[i]) != 0; i++)
        ;
    if (i == 4) {
        rc = bad(err, at, "wrap '%s' is not none, x, y or both", s);
        free(s);
        return rc;
    }
    free(s);
    pr->wrap = i; /* QN_WRAP_* in the same order */
    if ((rc = get_int(b, "width", 1, QN_LAYOUT_MAX_SIDE, &x, err, at)))
        return rc;
    pr->w = (int)x;
    if ((rc = get_int(b, "height", 1, QN_LAYOUT_MAX_SIDE, &x, err, at)))
        return rc;
    pr->h = (int)x;
    if ((rc = get_int(b, "side", 0, QN_LAYOUT_MAX_HEXAGON, &x, err, at)))
        return rc;
    pr->side = (int)x;
    return QN_OK;
}

/* Cell j of pr: its position and its effects, column j of the matrix. */
static int parse_cell(qn_pack_rule *pr, json_t *c, size_t j, qn_err *err,
                      const where *at)
{
    int n = pr->ncells, rc;
    unsigned k = pr->colours;
    json_t *effects, *e;
    long long x;
    size_t ei;
    where cat;

    snprintf(cat.what, sizeof(cat.what), "%.16scell %zu: ", at->what, j);
    if (!json_is_object(c))
        return bad(err, at, "cell %zu must be an object", j);
    if ((rc = only_keys(c, cell_keys, err, &cat)))
        return rc;
    if ((rc = get_int(c, "index", (long long)j, (long long)j, &x, err, &cat)))
        return rc;
    if ((rc = get_int(c, "row", 0, QN_LAYOUT_MAX_SIDE, &x, err, &cat)))
        return rc;
    pr->row[j] = (int)x;
    if ((rc = get_int(c, "col", 0, QN_LAYOUT_MAX_SIDE, &x, err, &cat)))
        return rc;
    pr->col[j] = (int)x;
    effects =
        member(c, "effects", JSON_ARRAY, "an array of objects", err, &cat);
    if (!effects)
        return QN_EINVAL;
    json_array_foreach(effects, ei, e) {
        long long cell, amount;
        uint8_t *m;
        if (!json_is_object(e))
            return bad(err, &cat, "effect %zu must be an object", ei);
        if ((rc = only_keys(e, effect_keys, err, &cat)) ||
            (rc = get_int(e, "cell", 0, n - 1, &cell, err, &cat)) ||
            (rc = get_int(e, "amount", 1, k - 1, &amount, err, &cat)))
            return rc;
        m = &pr->matrix[(size_t)cell * (size_t)n + j];
        if (*m)
            return bad(err, &cat, "cell %lld is listed twice in "
                                  "'effects'", cell);
        *m = (uint8_t)amount;
    }
    return QN_OK;
}

/* The rule's grading tiers: names and press ranges. */
static int parse_tiers(qn_pack_rule *pr, json_t *jr, qn_err *err,
                       const where *at)
{
    json_t *tiers, *t;
    long long x;
    size_t ti;
    int rc;

    tiers = member(jr, "tiers", JSON_ARRAY, "an array of objects", err, at);
    if (!tiers)
        return QN_EINVAL;
    if (json_array_size(tiers) > QN_RULES_MAX_TIERS)
        return bad(err, at, "more than %d tiers", QN_RULES_MAX_TIERS);
    pr->ntiers = json_array_size(tiers);
    pr->tier_name = QN_NEWN(pr->ntiers ? pr->ntiers : 1, char *);
    pr->tier_lo = QN_NEWN(pr->ntiers ? pr->ntiers : 1, int);
    pr->tier_hi = QN_NEWN(pr->ntiers ? pr->ntiers : 1, int);
    json_array_foreach(tiers, ti, t) {
        if (!json_is_object(t))
            return bad(err, at, "tier %zu must be an object", ti);
        if ((rc = only_keys(t, tier_keys, err, at)) ||
            (rc = get_str(t, "name", &pr->tier_name[ti], err, at)) ||
            (rc = get_int(t, "lo", 0, 1 << 20, &x, err, at)))
            return rc;
        pr->tier_lo[ti] = (int)x;
        if ((rc = get_int(t, "hi", 0, 1 << 20, &x, err, at)))
            return rc;
        pr->tier_hi[ti] = (int)x;
    }
    return QN_OK;
}

/*
 * Generator g of a document's kernel (the play kit): of order o (which
 * divides k: o presses of each of its cells add up to 0 mod k) and
 * quiet (A g = 0: pressing it changes no cell).
 */
static int check_kernel_gen(const qn_pack_rule *pr, const uint8_t *g,
                            unsigned o, qn_err *err, const where *at)
{
    int n = pr->ncells;
    unsigned k = pr->colours;

    if (k % o)
        return bad(err, at, "'order' %u does not divide colours %u", o, k);
    for (int j = 0; j < n; j++)
        if (g[j] * o % k)
            return bad(err, at,
                       "'presses' value %d is %u, not of order %u "
                       "mod %u",
                       j, g[j], o, k);
    for (int i = 0; i < n; i++) {
        unsigned sum = 0;
        for (int j = 0; j < n; j++)
            sum = (sum + pr->matrix[(size_t)i * (size_t)n + (size_t)j] * g[j]) %
                  k;
        if (sum)
            return bad(err, at, "not quiet: pressing it changes cell %d", i);
    }
    return QN_OK;
}

/*
 * The document's kernel, when it has one, is what a game walks for its
 * hints: each generator must be quiet and of its order, and the orders
 * the kernel's invariant factors, as quench computes them (pr's own
 * kernel, which is what an export writes back).
 */
static int parse_kernel(const qn_pack_rule *pr, json_t *jr, qn_err *err,
                        const where *at)
{
    json_t *list = json_object_get(jr, "kernel"), *e;
    uint8_t *g;
    size_t i;
    int rc = QN_OK;

    if (!list)
        return QN_OK; /* an older export: no play kit */
    if (!json_is_array(list))
        return bad(err, at, "'kernel' must be an array of objects");
    if (json_array_size(list) > QN_PACK_MAX_KERNEL)
        return bad(err, at, "'kernel' has more than %d generators",
                   QN_PACK_MAX_KERNEL);
    if (!pr->kernel_known || json_array_size(list) != pr->nkernel)
        return bad(err, at,
                   "'kernel' has %zu %s, the rule's kernel has "
                   "%zu",
                   json_array_size(list),
                   qn_plural(json_array_size(list), "generator", "generators"),
                   pr->kernel_known ? pr->nkernel : (size_t)0);
    g = QN_NEWN((size_t)pr->ncells, uint8_t);
    json_array_foreach(list, i, e)
    {
        where gat;
        long long o;
        snprintf(gat.what, sizeof(gat.what), "%.32skernel %zu: ", at->what, i);
        if (!json_is_object(e))
            rc = bad(err, at, "kernel %zu must be an object", i);
        else if (!(rc = only_keys(e, kernel_keys, err, &gat)) &&
                 !(rc = get_int(e, "order", 2, pr->colours, &o, err, &gat)) &&
                 !(rc = get_cells(e, "presses", pr->ncells, pr->colours, g, err,
                                  &gat)) &&
                 !(rc = check_kernel_gen(pr, g, (unsigned)o, err, &gat)) &&
                 (unsigned)o != pr->kernel_order[i])
            rc = bad(err, &gat,
                     "'order' is %lld, the rule's kernel has "
                     "%u there",
                     o, pr->kernel_order[i]);
        if (rc)
            break;
    }
    free(g);
    return rc;
}

/*
 * One rule object: its texts, board, cells (with their effects) and
 * tiers, then compiled, so a rule that does not hash as it says is an
 * error here.
 */
static int parse_rule(qn_pack_rule *pr, json_t *jr, qn_err *err,
                      const where *at)
{
    json_t *cells, *c;
    long long x;
    size_t j;
    int n, rc;
    unsigned k;

    if (!json_is_object(jr))
        return bad(err, at, "a rule must be an object");
    if ((rc = only_keys(jr, rule_keys, err, at)) != QN_OK)
        return rc;
    if ((rc = get_str(jr, "hash", &pr->hash, err, at)) ||
        (rc = get_str(jr, "name", &pr->name, err, at)) ||
        (rc = get_str(jr, "title", &pr->title, err, at)) ||
        (rc = get_str(jr, "description", &pr->description, err, at)) ||
        (rc = get_str(jr, "author", &pr->author, err, at)))
        return rc;
    if (!is_hash(pr->hash))
        return bad(err, at, "'hash' must be 64 lowercase hex digits");
    if ((rc = get_int(jr, "colours", 2, 255, &x, err, at)))
        return rc;
    k = pr->colours = (unsigned)x;
    if ((rc = parse_board(pr, jr, err, at)))
        return rc;
    if ((rc = get_int(jr, "ncells", 1, QN_RULES_MAX_CELLS, &x, err, at)))
        return rc;
    n = (int)x;
    pr->row = QN_NEWN((size_t)n, int);
    pr->col = QN_NEWN((size_t)n, int);
    pr->goal = QN_NEWN((size_t)n, uint8_t);
    pr->matrix = qn_xcalloc((size_t)n * (size_t)n, 1);
    pr->ncells = n;
    if ((rc = get_cells(jr, "goal", n, k, pr->goal, err, at)))
        return rc;
    cells = member(jr, "cells", JSON_ARRAY, "an array of objects", err, at);
    if (!cells)
        return QN_EINVAL;
    if (json_array_size(cells) != (size_t)n)
        return bad(err, at, "'cells' has %zu entries, 'ncells' is %d",
                   json_array_size(cells), n);
    json_array_foreach(cells, j, c)
        if ((rc = parse_cell(pr, c, j, err, at)))
            return rc;
    if ((rc = parse_tiers(pr, jr, err, at)))
        return rc;
    if ((rc = qn_pack_rule_compile(pr, err)))
        return rc;
    return parse_kernel(pr, jr, err, at);
}

/*
 * grade, grader_version and seed are stored and exported as they are (a
 * spreadsheet opening the csv export may run a cell that begins with
 * '='), so they must be what quench itself writes: a grade is "" or a
 * tier name of the puzzle's rule (the default tier names when the rule
 * has no tiers, distrib.h); a grader version "" or a decimal number; a
 * seed "" or qn_seed_format's 64 lowercase hex digits.
 */
static int is_tier(const char *grade, const qn_pack_rule *pr)
{
    for (size_t t = 0; t < pr->ntiers; t++)
        if (!strcmp(grade, pr->tier_name[t]))
            return 1;
    for (size_t t = 0; !pr->ntiers && t < QN_TIERS_DEFAULT; t++)
        if (!strcmp(grade, qn_tiers_default_name(t)))
            return 1;
    return 0;
}

static int is_decimal(const char *s, size_t max)
{
    size_t n = strspn(s, "0123456789");

    return n >= 1 && n <= max && !s[n] && (s[0] != '0' || n == 1);
}

static int check_record(const qn_pack_puzzle *p, const qn_pack_rule *pr,
                        qn_err *err, const where *at)
{
    if (*p->grade && !is_tier(p->grade, pr))
        return bad(err, at,
                   pr->ntiers ? "'grade' '%.64s' is not a tier of rule '%s'"
                              : "'grade' '%.64s' is not a default tier name "
                                "(rule '%s' has no tiers)",
                   p->grade, pr->name);
    if (*p->grader && !is_decimal(p->grader, 9))
        return bad(err, at, "'grader_version' '%.16s' is not a number of "
                            "up to 9 digits",
                   p->grader);
    if (*p->seed && !(strlen(p->seed) == 2 * QN_SEED_BYTES &&
                      strspn(p->seed, "0123456789abcdef") ==
                          2 * QN_SEED_BYTES))
        return bad(err, at, "'seed' must be \"\" or %d lowercase hex digits",
                   2 * QN_SEED_BYTES);
    return QN_OK;
}

static const char *const puzzle_keys_v1[] = {
    "id", "rule", "state", "min_presses", "optimal_solutions", "solution",
    "grade", "grader_version", "seed", "index", NULL};
static const char *const puzzle_keys[] = {
    "id", "position", "rule", "state", "min_presses", "optimal_solutions",
    "solution", "grade", "grader_version", "seed", "index", "submission",
    "source", "meta", NULL};

/*
 * Format 1 numbers puzzles 1, 2, ... by position in "id". Format 2 names
 * each by its puzzle id (16 lowercase hex digits, as quench writes it)
 * and gives its position apart; whether the id is the puzzle's own is
 * checked once the state is read (check_id).
 */
static int parse_name(qn_pack_puzzle *p, json_t *jp, size_t pos, int format,
                      qn_err *err, where *at)
{
    char *id = NULL;
    long long x;
    uint64_t lo, hi;
    int rc;

    p->position = (int64_t)pos + 1;
    if (format == 1) {
        if ((rc = get_int(jp, "id", INT64_MIN, INT64_MAX, &x, err, at)))
            return rc;
        snprintf(at->what, sizeof(at->what), "puzzle %lld: ", x);
        if (x != p->position)
            return bad(err, at, "ids must be 1, 2, ... in order; this is "
                                "entry %zu", pos + 1);
        return only_keys(jp, puzzle_keys_v1, err, at);
    }
    if ((rc = get_str(jp, "id", &id, err, at)))
        goto done;
    if (strlen(id) != 16 || strspn(id, "0123456789abcdef") != 16 ||
        qn_puzzle_id_prefix(id, &lo, &hi) != 0) {
        rc = bad(err, at, "'id' must be 16 lowercase hex digits");
        goto done;
    }
    p->id = lo;
    qn_export__puzzle_name(at->what, p);
    strcat(at->what, ": ");
    if ((rc = get_int(jp, "position", INT64_MIN, INT64_MAX, &x, err, at)))
        goto done;
    if (x != p->position) {
        rc = bad(err, at, "'position' is %lld: positions must be 1, 2, ... "
                          "in order",
                 x);
        goto done;
    }
    rc = only_keys(jp, puzzle_keys, err, at);
done:
    free(id);
    return rc;
}

/*
 * A puzzle's id is a function of its rule and state: a document whose id
 * is another's would file the puzzle under a name that finds another
 * puzzle, or none. Format 1 documents had no ids: theirs are computed.
 */
static int check_id(qn_pack_puzzle *p, const qn_pack_rule *pr, int format,
                    qn_err *err, const where *at)
{
    uint64_t content = qn_export__content_id(pr, p->state);
    char a[QN_PUZZLE_ID_HEX], b[QN_PUZZLE_ID_HEX];

    if (format == 1)
        p->id = content;
    if (p->id == content)
        return QN_OK;
    qn_puzzle_id_hex(a, p->id);
    qn_puzzle_id_hex(b, content);
    return bad(err, at, "'id' is %s, its rule and state give %s", a, b);
}

/*
 * Where an accepted submission came from (validate --into): its id, its
 * "FILE:LINE" and its other fields as the text of a JSON object, each ""
 * for a puzzle that did not come from one.
 */
static int parse_provenance(qn_pack_puzzle *p, json_t *jp, qn_err *err,
                            const where *at)
{
    json_t *meta;
    int rc;

    if ((rc = get_text(jp, "submission", QN_PACK_MAX_SUBMISSION,
                       &p->submission, err, at)) ||
        (rc = get_text(jp, "source", QN_PACK_MAX_SOURCE, &p->source, err,
                       at)) ||
        (rc = get_text(jp, "meta", QN_PACK_MAX_META, &p->meta, err, at)))
        return rc;
    if (!*p->meta)
        return QN_OK;
    meta = json_loads(p->meta, JSON_REJECT_DUPLICATES, NULL);
    rc = json_is_object(meta)
             ? QN_OK
             : bad(err, at, "'meta' must be \"\" or the text of a JSON "
                            "object");
    json_decref(meta);
    return rc;
}

static int parse_puzzle(qn_pack_puzzle *p, const qn_pack_doc *doc,
                        json_t *jp, size_t pos, int format, qn_err *err)
{
    where at;
    char *hash = NULL;
    long long x;
    const qn_pack_rule *pr;
    size_t r;
    int rc;

    if (!json_is_object(jp))
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "puzzle %zu must be an object", pos + 1);
    snprintf(at.what, sizeof(at.what), "puzzle %zu: ", pos + 1);
    if ((rc = parse_name(p, jp, pos, format, err, &at)))
        return rc;
    if ((rc = get_str(jp, "rule", &hash, err, &at))) {
        free(hash);
        return rc;
    }
    for (r = 0; r < doc->nrules && strcmp(doc->rules[r].hash, hash); r++)
        ;
    free(hash);
    if (r == doc->nrules)
        return bad(err, &at, "'rule' names no rule of the document");
    p->rule = r;
    pr = &doc->rules[r];
    p->state = QN_NEWN((size_t)pr->ncells, uint8_t);
    p->solution = QN_NEWN((size_t)pr->ncells, uint8_t);
    if ((rc = get_cells(jp, "state", pr->ncells, pr->colours, p->state, err,
                        &at)) ||
        (rc = check_id(p, pr, format, err, &at)) ||
        (rc = get_cells(jp, "solution", pr->ncells, pr->colours,
                        p->solution, err, &at)))
        return rc;
    if ((rc = get_int(jp, "min_presses", 0, INT64_MAX, &x, err, &at)))
        return rc;
    p->min_presses = (uint64_t)x;
    if ((rc = get_int(jp, "optimal_solutions", 0, INT64_MAX, &x, err, &at)))
        return rc;
    p->noptimal = (uint64_t)x;
    if ((rc = get_int(jp, "index", -1, INT64_MAX, &x, err, &at)))
        return rc;
    p->index = x;
    if ((rc = get_str(jp, "grade", &p->grade, err, &at)) ||
        (rc = get_str(jp, "grader_version", &p->grader, err, &at)) ||
        (rc = get_str(jp, "seed", &p->seed, err, &at)))
        return rc;
    if (format == 1) {
        p->submission = qn_xstrdup("");
        p->source = qn_xstrdup("");
        p->meta = qn_xstrdup("");
    } else if ((rc = parse_provenance(p, jp, err, &at))) {
        return rc;
    }
    return check_record(p, pr, err, &at);
}

/* The pack's name and texts pass what every other way in checks. */
static int check_pack(const qn_pack_doc *doc, qn_err *err)
{
    qn_store_pack pk;

    memset(&pk, 0, sizeof(pk));
    pk.name = doc->name;
    pk.title = doc->title;
    pk.description = doc->description;
    pk.author = doc->author;
    return qn_store_pack_check(&pk, err);
}

static const char *const top_keys[] = {"format", "format_version", "pack",
                                       "rules", "puzzles", "$schema",
                                       NULL};
static const char *const pack_keys_v1[] = {"name", "title", "description",
                                           "author", NULL};
static const char *const pack_keys[] = {"name", "title", "description",
                                        "author", "version", NULL};

/*
 * The pack object: its name and texts, and its version, which counts the
 * changes made to the pack, each puzzle added one (store.h): a pack of n
 * puzzles is at version n + 1 or later, and an import that keeps the
 * version relies on that.
 */
static int parse_pack(qn_pack_doc *doc, json_t *root, int format,
                      size_t npuzzles, qn_err *err)
{
    where at = {""}, pat = {"pack: "};
    json_t *pack = member(root, "pack", JSON_OBJECT, "an object", err, &at);
    long long x;
    int rc;

    if (!pack)
        return QN_EINVAL;
    if ((rc = only_keys(pack, format == 1 ? pack_keys_v1 : pack_keys, err,
                        &pat)) ||
        (rc = get_str(pack, "name", &doc->name, err, &pat)) ||
        (rc = get_str(pack, "title", &doc->title, err, &pat)) ||
        (rc = get_str(pack, "description", &doc->description, err, &pat)) ||
        (rc = get_str(pack, "author", &doc->author, err, &pat)))
        return rc;
    /* a format 1 document has no version: its pack is new, at 1, as a
     * pack a generator run built is */
    doc->version = 1;
    (void)npuzzles;
    if ((rc = check_pack(doc, err)) || format == 1)
        return rc;
    /* any version from 1 up: a pack a generator run built holds all its
     * puzzles at version 1 (store.h, qn_store_pack_append_build) */
    if ((rc = get_int(pack, "version", 1, INT64_MAX, &x, err, &pat)))
        return rc;
    doc->version = x;
    return QN_OK;
}

/* jansson's verdict on the span sp as one JSON value, its place turned
 * into the document's; NULL with err set when it is no valid JSON. */
static json_t *load_span(const qn_export__text *t, qn_export__span sp,
                         qn_err *err)
{
    json_error_t je;
    json_t *v;
    int line, col;

    v = json_loadb(t->s + sp.at, sp.end - sp.at,
                   JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
    if (v)
        return v;
    if (json_error_code(&je) == json_error_out_of_memory)
        qn_mem_oom(); /* not the input's fault: exit 71 like any OOM */
    qn_export__line_col(t->s, sp.at, &line, &col);
    if (je.line > 0)
        qn_err_set(err, QN_ESYNTAX, line + je.line - 1,
                   je.line == 1 ? col + je.column - 1 : je.column,
                   "invalid JSON: %s", je.text);
    else
        qn_err_set(err, QN_ESYNTAX, 0, 0, "invalid JSON: %s", je.text);
    return NULL;
}

/* The top-level members quench reads (top_keys, in its order): their key
 * and value spans. */
enum { M_FORMAT, M_VERSION, M_PACK, M_RULES, M_PUZZLES, M_SCHEMA, M_N };

typedef struct root_scan {
    qn_export__span key[M_N], val[M_N];
    char unknown[80]; /* the first unknown key, "" when none */
} root_scan;

/*
 * Walk the top-level object: every member's key decoded by jansson, one
 * member of each known key (a second is a syntax error, as jansson says
 * it), the first unknown key kept for the message, and every value but
 * the two arrays' within QN_PACK_MAX_VALUES. Then the text must end.
 */
static int scan_root(const qn_export__text *t, size_t i, root_scan *r,
                     qn_err *err)
{
    char unknown_raw[80] = "";

    memset(r, 0, sizeof(*r));
    i = qn_export__json_ws(t, i + 1); /* past '{' */
    if (i < t->len && t->s[i] == '}')
        return qn_export__json_ws(t, i + 1) == t->len
                   ? QN_OK
                   : qn_export__json_syntax(t, qn_export__json_ws(t, i + 1),
                                            "end of file expected", err);
    for (;;) {
        qn_export__span k = {i, 0}, v;
        size_t n;
        json_t *key;
        const char *name;
        int m, rc;

        if (i >= t->len || t->s[i] != '"')
            return qn_export__json_syntax(t, i, "string or '}' expected", err);
        if ((rc = qn_export__json_value(t, i, &k.end, &n, err)))
            return rc;
        if (!(key = load_span(t, k, err)))
            return QN_ESYNTAX;
        name = json_string_value(key);
        for (m = 0; m < M_N && strcmp(name, top_keys[m]); m++)
            ;
        if ((m < M_N && r->key[m].end) ||
            (m == M_N && *unknown_raw && !strcmp(unknown_raw, name))) {
            json_decref(key);
            return qn_export__json_syntax(t, k.at, "duplicate object key", err);
        }
        if (m == M_N && !*unknown_raw)
            snprintf(unknown_raw, sizeof(unknown_raw), "%s", name);
        json_decref(key);
        i = qn_export__json_ws(t, k.end);
        if (i >= t->len || t->s[i] != ':')
            return qn_export__json_syntax(t, i, "':' expected", err);
        v.at = qn_export__json_ws(t, i + 1);
        if ((rc = qn_export__json_value(t, v.at, &v.end, &n, err)))
            return rc;
        if (m != M_RULES && m != M_PUZZLES && n > QN_PACK_MAX_VALUES) {
            int line, col;
            qn_export__line_col(t->s, v.at, &line, &col);
            return qn_err_set(err, QN_ELIMIT, line, col,
                              "a member with more than %d JSON values",
                              QN_PACK_MAX_VALUES);
        }
        if (m < M_N) {
            r->key[m] = k, r->val[m] = v;
        } else if (!(key = load_span(t, v, err))) {
            return QN_ESYNTAX; /* an unknown member is still JSON */
        } else {
            json_decref(key);
        }
        i = qn_export__json_ws(t, v.end);
        if (i < t->len && t->s[i] == ',') {
            i = qn_export__json_ws(t, i + 1);
            continue;
        }
        if (i >= t->len || t->s[i] != '}')
            return qn_export__json_syntax(t, i, "',' or '}' expected", err);
        i = qn_export__json_ws(t, i + 1);
        if (i != t->len)
            return qn_export__json_syntax(t, i, "end of file expected", err);
        break;
    }
    snprintf(r->unknown, sizeof(r->unknown), "%s", unknown_raw);
    return QN_OK;
}

/*
 * The small members (format, format_version, pack) as jansson values in
 * one object, with stand-ins for the two arrays: an empty array when the
 * text holds one there (its elements are parsed one by one), an empty
 * object for an object (its type is wrong, and it need not be parsed), or
 * the value itself, so that `member` says what is missing or wrong as it
 * does for any object.
 */
static int small_members(const qn_export__text *t, const root_scan *r,
                         json_t *root, qn_err *err)
{
    for (int m = 0; m < M_N; m++) {
        json_t *v;
        if (!r->val[m].end)
            continue;
        if ((m == M_RULES || m == M_PUZZLES) && t->s[r->val[m].at] == '[')
            v = json_array();
        else if ((m == M_RULES || m == M_PUZZLES) && t->s[r->val[m].at] == '{')
            v = json_object();
        else if (!(v = load_span(t, r->val[m], err)))
            return QN_ESYNTAX;
        if (!v || json_object_set_new(root, top_keys[m], v))
            qn_mem_oom();
    }
    return QN_OK;
}

static int parse_doc(qn_pack_doc *doc, const qn_export__text *t, size_t start,
                     qn_err *err)
{
    where at = {""};
    root_scan r;
    json_t *root = json_object(), *v;
    char *format = NULL;
    size_t nrules = 0, npuzzles = 0, pos;
    qn_export__span el;
    long long x;
    int rc;

    if (!root)
        qn_mem_oom();
    if ((rc = scan_root(t, start, &r, err)) ||
        (rc = small_members(t, &r, root, err)))
        goto done;
    if (*r.unknown) {
        rc = bad(err, &at, "unknown key '%s'", r.unknown);
        goto done;
    }
    /* "$schema" names the schema for editors: a text, not read further
     * (a document may name its own copy) */
    if (json_object_get(root, "$schema") &&
        (rc = get_str(root, "$schema", &format, err, &at)))
        goto done;
    free(format);
    format = NULL;
    rc = get_str(root, "format", &format, err, &at);
    if (rc == QN_OK && strcmp(format, QN_PACK_FORMAT) != 0)
        rc = bad(err, &at, "'format' is '%s', expected '%s'", format,
                 QN_PACK_FORMAT);
    free(format);
    if (rc || (rc = get_int(root, "format_version", 1, QN_PACK_FORMAT_VERSION,
                            &x, err, &at)))
        goto done;
    if (!member(root, "puzzles", JSON_ARRAY, "an array of objects", err, &at)) {
        rc = QN_EINVAL;
        goto done;
    }
    if ((rc = parse_pack(doc, root, (int)x, 0, err)))
        goto done;
    if (!member(root, "rules", JSON_ARRAY, "an array of objects", err, &at)) {
        rc = QN_EINVAL;
        goto done;
    }
    if ((rc = qn_export__json_count(t, r.val[M_RULES], "rule", 0,
                                    QN_PACK_MAX_RULES, &nrules, err)))
        goto done;
    doc->rules = QN_NEWN(nrules + 1, qn_pack_rule);
    pos = r.val[M_RULES].at;
    for (size_t i = 0; i < nrules; i++) {
        where rat;
        qn_export__json_element(t, r.val[M_RULES], &pos, &el, i, "rule", err);
        snprintf(rat.what, sizeof(rat.what), "rule %zu: ", i);
        doc->nrules = i + 1;
        if (!(v = load_span(t, el, err))) {
            rc = QN_ESYNTAX;
            goto done;
        }
        rc = parse_rule(&doc->rules[i], v, err, &rat);
        json_decref(v);
        if (rc)
            goto done;
        for (size_t q = 0; q < i; q++)
            if (strcmp(doc->rules[q].hash, doc->rules[i].hash) == 0) {
                rc = bad(err, &rat, "the same rule as rule %zu", q);
                goto done;
            }
    }
    if ((rc = qn_export__json_count(t, r.val[M_PUZZLES], "puzzle", 1,
                                    QN_PACK_MAX_PUZZLES, &npuzzles, err)))
        goto done;
    doc->puzzles = QN_NEWN(npuzzles + 1, qn_pack_puzzle);
    pos = r.val[M_PUZZLES].at;
    for (size_t i = 0; i < npuzzles; i++) {
        qn_export__json_element(t, r.val[M_PUZZLES], &pos, &el, i + 1, "puzzle",
                                err);
        doc->npuzzles = i + 1;
        if (!(v = load_span(t, el, err))) {
            rc = QN_ESYNTAX;
            goto done;
        }
        rc = parse_puzzle(&doc->puzzles[i], doc, v, i, (int)x, err);
        json_decref(v);
        if (rc)
            goto done;
    }
done:
    json_decref(root);
    return rc;
}

int qn_pack_doc_parse_json(qn_pack_doc *out, const char *text, size_t len,
                           const char *source, qn_err *err)
{
    qn_export__text t = {text, len};
    size_t start;
    int rc;

    memset(out, 0, sizeof(*out));
    if (len > QN_PACK_MAX_FILE)
        rc = qn_err_set(err, QN_ELIMIT, 0, 0, "document larger than %u bytes",
                        QN_PACK_MAX_FILE);
    else
        rc = qn_export__json_depth(text, len, err);
    if (rc != QN_OK)
        goto done;
    start = qn_export__json_ws(&t, 0);
    if (start < len && text[start] == '{') {
        rc = parse_doc(out, &t, start, err);
    } else if (start < len && text[start] == '[') {
        /* an array is no document, whatever it holds: not parsed */
        rc = qn_err_set(err, QN_EINVAL, 0, 0,
                        "the document must be a JSON object");
    } else { /* a scalar, or no JSON at all: jansson says which */
        json_t *v = load_span(&t, (qn_export__span){0, len}, err);
        rc = v ? qn_err_set(err, QN_EINVAL, 0, 0,
                            "the document must be a JSON object")
               : QN_ESYNTAX;
        json_decref(v);
    }
done:
    if (rc != QN_OK)
        qn_pack_doc_release(out);
    qn_err_source(err, source ? source : "");
    return rc;
}
