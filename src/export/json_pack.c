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
#include "export/export.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/mem.h"
#include "base/rng.h"
#include "base/text.h"
#include "export_internal.h"
#include "generate/distrib.h"
#include "json_get.h"
#include "rules/puzzle_id.h"
#include "solve/human.h"
#include "store/store.h"

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
                        qn_err *err, const qn_export__where *at)
{
    if (*p->grade && !is_tier(p->grade, pr))
        return qn_export__jbad(
            err, at,
            pr->ntiers ? "'grade' '%.64s' is not a tier of rule '%s'"
                       : "'grade' '%.64s' is not a default tier name "
                         "(rule '%s' has no tiers)",
            p->grade, pr->name);
    if (*p->grader && !is_decimal(p->grader, 9))
        return qn_export__jbad(err, at,
                               "'grader_version' '%.16s' is not a number of "
                               "up to 9 digits",
                               p->grader);
    if (*p->seed && !(strlen(p->seed) == 2 * QN_SEED_BYTES &&
                      strspn(p->seed, "0123456789abcdef") == 2 * QN_SEED_BYTES))
        return qn_export__jbad(err, at,
                               "'seed' must be \"\" or %d lowercase hex digits",
                               2 * QN_SEED_BYTES);
    return QN_OK;
}

static const char *const puzzle_keys_v1[] = {
    "id",       "rule",  "state",          "min_presses", "optimal_solutions",
    "solution", "grade", "grader_version", "seed",        "index",
    NULL};
static const char *const puzzle_keys[] = {"id",
                                          "position",
                                          "rule",
                                          "state",
                                          "min_presses",
                                          "optimal_solutions",
                                          "solution",
                                          "grade",
                                          "grader_version",
                                          "seed",
                                          "index",
                                          "submission",
                                          "source",
                                          "meta",
                                          "slot",
                                          "section",
                                          "human_level",
                                          "human_level_number",
                                          "human_score",
                                          "human_model_version",
                                          NULL};

/*
 * Format 1 numbers puzzles 1, 2, ... by position in "id". Format 2 names
 * each by its puzzle id (16 lowercase hex digits, as quench writes it)
 * and gives its position apart; whether the id is the puzzle's own is
 * checked once the state is read (check_id).
 */
static int parse_name(qn_pack_puzzle *p, json_t *jp, size_t pos, int format,
                      qn_err *err, qn_export__where *at)
{
    char *id = NULL;
    long long x;
    uint64_t lo, hi;
    int rc;

    p->position = (int64_t)pos + 1;
    if (format == 1) {
        if ((rc = qn_export__jint(jp, "id", INT64_MIN, INT64_MAX, &x, err, at)))
            return rc;
        snprintf(at->what, sizeof(at->what), "puzzle %lld: ", x);
        if (x != p->position)
            return qn_export__jbad(err, at,
                                   "ids must be 1, 2, ... in order; this is "
                                   "entry %zu",
                                   pos + 1);
        return qn_export__jkeys(jp, puzzle_keys_v1, err, at);
    }
    if ((rc = qn_export__jstr(jp, "id", &id, err, at)))
        goto done;
    if (strlen(id) != 16 || strspn(id, "0123456789abcdef") != 16 ||
        qn_puzzle_id_prefix(id, &lo, &hi) != 0) {
        rc = qn_export__jbad(err, at, "'id' must be 16 lowercase hex digits");
        goto done;
    }
    p->id = lo;
    qn_export__puzzle_name(at->what, p);
    strcat(at->what, ": ");
    if ((rc = qn_export__jint(jp, "position", INT64_MIN, INT64_MAX, &x, err,
                              at)))
        goto done;
    if (x != p->position) {
        rc = qn_export__jbad(err, at,
                             "'position' is %lld: positions must be 1, 2, ... "
                             "in order",
                             x);
        goto done;
    }
    rc = qn_export__jkeys(jp, puzzle_keys, err, at);
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
                    qn_err *err, const qn_export__where *at)
{
    uint64_t content = qn_export__content_id(pr, p->state);
    char a[QN_PUZZLE_ID_HEX], b[QN_PUZZLE_ID_HEX];

    if (format == 1)
        p->id = content;
    if (p->id == content)
        return QN_OK;
    qn_puzzle_id_hex(a, p->id);
    qn_puzzle_id_hex(b, content);
    return qn_export__jbad(err, at, "'id' is %s, its rule and state give %s", a,
                           b);
}

/*
 * Where an accepted submission came from (validate --into): its id, its
 * "FILE:LINE" and its other fields as the text of a JSON object, each ""
 * for a puzzle that did not come from one.
 */
static int parse_provenance(qn_pack_puzzle *p, json_t *jp, qn_err *err,
                            const qn_export__where *at)
{
    json_t *meta;
    int rc;

    if ((rc = qn_export__jtext(jp, "submission", QN_PACK_MAX_SUBMISSION,
                               &p->submission, err, at)) ||
        (rc = qn_export__jtext(jp, "source", QN_PACK_MAX_SOURCE, &p->source,
                               err, at)) ||
        (rc =
             qn_export__jtext(jp, "meta", QN_PACK_MAX_META, &p->meta, err, at)))
        return rc;
    if (!*p->meta)
        return QN_OK;
    qn_json_nomem_clear();
    meta = json_loads(p->meta, JSON_REJECT_DUPLICATES, NULL);
    if (qn_json_nomem()) { /* not the document's fault */
        json_decref(meta);
        return qn_err_nomem(err);
    }
    rc = json_is_object(meta)
             ? QN_OK
             : qn_export__jbad(err, at,
                               "'meta' must be \"\" or the text of a JSON "
                               "object");
    json_decref(meta);
    return rc;
}

/*
 * The level slot and recipe section (docs/EXPORT.md): both optional (a
 * document of an older quench has neither: the import gives new slots);
 * a section is "" or a name under the rules of pack names, as a recipe's.
 */
static int parse_slot(qn_pack_puzzle *p, json_t *jp, qn_err *err,
                      const qn_export__where *at)
{
    long long x;
    int rc;

    if (json_object_get(jp, "slot")) {
        if ((rc =
                 qn_export__jint(jp, "slot", 1, QN_PACK_MAX_SLOT, &x, err, at)))
            return rc;
        p->slot = x;
    }
    if (!json_object_get(jp, "section"))
        return (p->section = qn_strdup("")) ? QN_OK : qn_err_nomem(err);
    if ((rc = qn_export__jstr(jp, "section", &p->section, err, at)))
        return rc;
    if (*p->section && (rc = qn_store_pack_check_name(p->section, err))) {
        char why[256];
        snprintf(why, sizeof(why), "%s", err->msg);
        return qn_export__jbad(err, at, "'section': %s", why);
    }
    return QN_OK;
}

/*
 * The human grade (docs/EXPORT.md): absent or null together (not
 * graded), or a level name, its number when given, a score in
 * thousandths (an integer of at most 10^12 in absolute value) and a
 * model version >= 1. Checked by qn_pack_doc_verify.
 */
#define QN_HUMAN_SCORE_MAX 1000000000000LL
static int parse_human(qn_pack_puzzle *p, json_t *jp, qn_err *err,
                       const qn_export__where *at)
{
    json_t *jl = json_object_get(jp, "human_level");
    json_t *js = json_object_get(jp, "human_score");
    json_t *jn = json_object_get(jp, "human_level_number");
    json_t *jm = json_object_get(jp, "human_model_version");
    long long x;
    int rc;

    p->human_level = -1;
    p->human_score = 0;
    p->human_model = 0;
    if (!jl || json_is_null(jl)) {
        if ((js && !json_is_null(js)) || (jn && !json_is_null(jn)) ||
            (jm && !json_is_null(jm)))
            return qn_export__jbad(err, at,
                                   "'human_level' is null but the human "
                                   "score, number or model is not");
        return QN_OK;
    }
    if (!json_is_string(jl) ||
        (p->human_level = qn_human_level_parse(json_string_value(jl))) < 0)
        return qn_export__jbad(err, at,
                               "'human_level' must be \"spot\", \"chase\", "
                               "\"table\", \"global\" or null");
    if (jn &&
        !(json_is_integer(jn) && json_integer_value(jn) == p->human_level))
        return qn_export__jbad(err, at,
                               "'human_level_number' must be %d, the number "
                               "of '%s'",
                               p->human_level,
                               qn_human_level_name(p->human_level));
    if (!js)
        return qn_export__jbad(err, at,
                               "'human_score' is missing: 'human_level' is "
                               "given");
    if ((rc = qn_export__jint(jp, "human_score", -QN_HUMAN_SCORE_MAX,
                              QN_HUMAN_SCORE_MAX, &x, err, at)))
        return rc;
    p->human_score = x;
    if ((rc = qn_export__jint(jp, "human_model_version", 1, INT32_MAX, &x, err,
                              at)))
        return rc;
    p->human_model = (int)x;
    return QN_OK;
}

typedef struct slot_at {
    int64_t slot;
    size_t i;
} slot_at;

static int cmp_slot_at(const void *a, const void *b)
{
    const slot_at *x = a, *y = b;
    if (x->slot != y->slot)
        return (x->slot > y->slot) - (x->slot < y->slot);
    return (x->i > y->i) - (x->i < y->i);
}

/* No two puzzles in one slot: a game would load one save for both. */
static int check_slots(const qn_pack_doc *doc, qn_err *err)
{
    slot_at *v = QN_ALLOCN(doc->npuzzles + 1, slot_at);
    size_t n = 0;
    int rc = QN_OK;

    if (!v)
        return qn_err_nomem(err);
    for (size_t i = 0; i < doc->npuzzles; i++)
        if (doc->puzzles[i].slot)
            v[n++] = (slot_at){doc->puzzles[i].slot, i};
    /* all or none: a puzzle without one would be given a slot another
     * puzzle of the document may hold */
    for (size_t i = 0; n && n < doc->npuzzles && i < doc->npuzzles; i++)
        if (!doc->puzzles[i].slot) {
            qn_export__where at;
            qn_export__puzzle_name(at.what, &doc->puzzles[i]);
            strcat(at.what, ": ");
            free(v);
            return qn_export__jbad(err, &at,
                                   "no 'slot', and other puzzles have one: "
                                   "give every puzzle a slot or none");
        }
    qsort(v, n, sizeof(*v), cmp_slot_at);
    for (size_t j = 1; j < n && rc == QN_OK; j++)
        if (v[j].slot == v[j - 1].slot) {
            qn_export__where at;
            qn_export__puzzle_name(at.what, &doc->puzzles[v[j].i]);
            strcat(at.what, ": ");
            rc = qn_export__jbad(err, &at,
                                 "'slot' %lld is puzzle %lld's too: a slot "
                                 "names one level",
                                 (long long)v[j].slot,
                                 (long long)doc->puzzles[v[j - 1].i].position);
        }
    free(v);
    return rc;
}

static int parse_puzzle(qn_pack_puzzle *p, const qn_pack_doc *doc, json_t *jp,
                        size_t pos, int format, qn_err *err)
{
    qn_export__where at;
    char *hash = NULL;
    long long x;
    const qn_pack_rule *pr;
    size_t r;
    int rc;

    if (!json_is_object(jp))
        return qn_err_set(err, QN_EINVAL, 0, 0, "puzzle %zu must be an object",
                          pos + 1);
    snprintf(at.what, sizeof(at.what), "puzzle %zu: ", pos + 1);
    if ((rc = parse_name(p, jp, pos, format, err, &at)))
        return rc;
    if ((rc = qn_export__jstr(jp, "rule", &hash, err, &at))) {
        free(hash);
        return rc;
    }
    for (r = 0; r < doc->nrules && strcmp(doc->rules[r].hash, hash); r++)
        ;
    free(hash);
    if (r == doc->nrules)
        return qn_export__jbad(err, &at,
                               "'rule' names no rule of the document");
    p->rule = r;
    pr = &doc->rules[r];
    p->state = QN_ALLOCN((size_t)pr->ncells, uint8_t);
    p->solution = QN_ALLOCN((size_t)pr->ncells, uint8_t);
    if (!p->state || !p->solution)
        return qn_err_nomem(err);
    if ((rc = qn_export__jcells(jp, "state", pr->ncells, pr->colours, p->state,
                                err, &at)) ||
        (rc = check_id(p, pr, format, err, &at)) ||
        (rc = qn_export__jcells(jp, "solution", pr->ncells, pr->colours,
                                p->solution, err, &at)))
        return rc;
    if ((rc = qn_export__jint(jp, "min_presses", 0, INT64_MAX, &x, err, &at)))
        return rc;
    p->min_presses = (uint64_t)x;
    if ((rc = qn_export__jint(jp, "optimal_solutions", 0, INT64_MAX, &x, err,
                              &at)))
        return rc;
    p->noptimal = (uint64_t)x;
    if ((rc = qn_export__jint(jp, "index", -1, INT64_MAX, &x, err, &at)))
        return rc;
    p->index = x;
    if ((rc = qn_export__jstr(jp, "grade", &p->grade, err, &at)) ||
        (rc = qn_export__jstr(jp, "grader_version", &p->grader, err, &at)) ||
        (rc = qn_export__jstr(jp, "seed", &p->seed, err, &at)))
        return rc;
    p->human_level = -1;
    if (format == 1) {
        if (!(p->submission = qn_strdup("")) || !(p->source = qn_strdup("")) ||
            !(p->meta = qn_strdup("")) || !(p->section = qn_strdup("")))
            return qn_err_nomem(err);
    } else if ((rc = parse_provenance(p, jp, err, &at)) ||
               (rc = parse_slot(p, jp, err, &at)) ||
               (rc = parse_human(p, jp, err, &at))) {
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

static const char *const top_keys[] = {
    "format", "format_version", "pack", "rules", "puzzles", "$schema", NULL};
static const char *const pack_keys_v1[] = {"name", "title", "description",
                                           "author", NULL};
static const char *const pack_keys[] = {"name",   "title",   "description",
                                        "author", "version", NULL};

/*
 * The pack object: its name and texts, and its version, which counts the
 * changes made to the pack (store.h): any version from 1, since a
 * generator run's appends keep it (docs/STORE.md, "Pack versions").
 */
static int parse_pack(qn_pack_doc *doc, json_t *root, int format,
                      size_t npuzzles, qn_err *err)
{
    qn_export__where at = {""}, pat = {"pack: "};
    json_t *pack =
        qn_export__jmember(root, "pack", JSON_OBJECT, "an object", err, &at);
    long long x;
    int rc;

    if (!pack)
        return QN_EINVAL;
    if ((rc = qn_export__jkeys(pack, format == 1 ? pack_keys_v1 : pack_keys,
                               err, &pat)) ||
        (rc = qn_export__jstr(pack, "name", &doc->name, err, &pat)) ||
        (rc = qn_export__jstr(pack, "title", &doc->title, err, &pat)) ||
        (rc = qn_export__jstr(pack, "description", &doc->description, err,
                              &pat)) ||
        (rc = qn_export__jstr(pack, "author", &doc->author, err, &pat)))
        return rc;
    /* a format 1 document has no version: its pack is new, at 1, as a
     * pack a generator run built is */
    doc->version = 1;
    (void)npuzzles;
    if ((rc = check_pack(doc, err)) || format == 1)
        return rc;
    /* any version from 1 up: a pack a generator run built holds all its
     * puzzles at version 1 (store.h, qn_store_pack_append_build) */
    if ((rc = qn_export__jint(pack, "version", 1, INT64_MAX, &x, err, &pat)))
        return rc;
    doc->version = x;
    return QN_OK;
}

/*
 * jansson's verdict on the span sp as one JSON value into *out: QN_OK;
 * QN_ESYNTAX, its place turned into the document's, when it is no valid
 * JSON; QN_ENOMEM when jansson ran out of memory, which it may report as
 * a syntax error (qn_json_nomem, mem.h): not the input's fault.
 */
static int load_span(const qn_export__text *t, qn_export__span sp, json_t **out,
                     qn_err *err)
{
    json_error_t je;
    int line, col;

    qn_json_nomem_clear();
    *out = json_loadb(t->s + sp.at, sp.end - sp.at,
                      JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
    if (qn_json_nomem()) { /* even a value it built may lack a part */
        json_decref(*out);
        *out = NULL;
        return qn_err_nomem(err);
    }
    if (*out)
        return QN_OK;
    if (json_error_code(&je) == json_error_out_of_memory)
        return qn_err_nomem(err);
    qn_export__line_col(t->s, sp.at, &line, &col);
    if (je.line > 0)
        return qn_err_set(err, QN_ESYNTAX, line + je.line - 1,
                          je.line == 1 ? col + je.column - 1 : je.column,
                          "invalid JSON: %s", je.text);
    return qn_err_set(err, QN_ESYNTAX, 0, 0, "invalid JSON: %s", je.text);
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
        if ((rc = load_span(t, k, &key, err)))
            return rc;
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
        } else if ((rc = load_span(t, v, &key, err))) {
            return rc; /* an unknown member is still JSON */
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
        int rc;
        if (!r->val[m].end)
            continue;
        if ((m == M_RULES || m == M_PUZZLES) && t->s[r->val[m].at] == '[')
            v = json_array();
        else if ((m == M_RULES || m == M_PUZZLES) && t->s[r->val[m].at] == '{')
            v = json_object();
        else if ((rc = load_span(t, r->val[m], &v, err)))
            return rc;
        /* json_object_set_new takes v (and frees it) even when it fails */
        if (!v || json_object_set_new(root, top_keys[m], v))
            return qn_err_nomem(err);
    }
    return QN_OK;
}

static int parse_doc(qn_pack_doc *doc, const qn_export__text *t, size_t start,
                     qn_err *err)
{
    qn_export__where at = {""};
    root_scan r;
    json_t *root = json_object(), *v;
    char *format = NULL;
    size_t nrules = 0, npuzzles = 0, pos;
    qn_export__span el;
    long long x;
    int rc;

    if (!root)
        return qn_err_nomem(err);
    if ((rc = scan_root(t, start, &r, err)) ||
        (rc = small_members(t, &r, root, err)))
        goto done;
    if (*r.unknown) {
        rc = qn_export__jbad(err, &at, "unknown key '%s'", r.unknown);
        goto done;
    }
    /* "$schema" names the schema for editors: a text, not read further
     * (a document may name its own copy) */
    if (json_object_get(root, "$schema") &&
        (rc = qn_export__jstr(root, "$schema", &format, err, &at)))
        goto done;
    free(format);
    format = NULL;
    rc = qn_export__jstr(root, "format", &format, err, &at);
    if (rc == QN_OK && strcmp(format, QN_PACK_FORMAT) != 0)
        rc = qn_export__jbad(err, &at, "'format' is '%s', expected '%s'",
                             format, QN_PACK_FORMAT);
    free(format);
    if (rc || (rc = qn_export__jint(root, "format_version", 1,
                                    QN_PACK_FORMAT_VERSION, &x, err, &at)))
        goto done;
    if (!qn_export__jmember(root, "puzzles", JSON_ARRAY, "an array of objects",
                            err, &at)) {
        rc = QN_EINVAL;
        goto done;
    }
    if ((rc = parse_pack(doc, root, (int)x, 0, err)))
        goto done;
    if (!qn_export__jmember(root, "rules", JSON_ARRAY, "an array of objects",
                            err, &at)) {
        rc = QN_EINVAL;
        goto done;
    }
    if ((rc = qn_export__json_count(t, r.val[M_RULES], "rule", 0,
                                    QN_PACK_MAX_RULES, &nrules, err)))
        goto done;
    if (!(doc->rules = QN_ALLOCN(nrules + 1, qn_pack_rule))) {
        rc = qn_err_nomem(err);
        goto done;
    }
    pos = r.val[M_RULES].at;
    for (size_t i = 0; i < nrules; i++) {
        qn_export__where rat;
        qn_export__json_element(t, r.val[M_RULES], &pos, &el, i, "rule", err);
        snprintf(rat.what, sizeof(rat.what), "rule %zu: ", i);
        doc->nrules = i + 1;
        if ((rc = load_span(t, el, &v, err)))
            goto done;
        rc = qn_export__json_rule(&doc->rules[i], v, err, &rat);
        json_decref(v);
        if (rc)
            goto done;
        for (size_t q = 0; q < i; q++)
            if (strcmp(doc->rules[q].hash, doc->rules[i].hash) == 0) {
                rc = qn_export__jbad(err, &rat, "the same rule as rule %zu", q);
                goto done;
            }
    }
    if ((rc = qn_export__json_count(t, r.val[M_PUZZLES], "puzzle", 1,
                                    QN_PACK_MAX_PUZZLES, &npuzzles, err)))
        goto done;
    if (!(doc->puzzles = QN_ALLOCN(npuzzles + 1, qn_pack_puzzle))) {
        rc = qn_err_nomem(err);
        goto done;
    }
    pos = r.val[M_PUZZLES].at;
    for (size_t i = 0; i < npuzzles; i++) {
        qn_export__json_element(t, r.val[M_PUZZLES], &pos, &el, i + 1, "puzzle",
                                err);
        doc->npuzzles = i + 1;
        if ((rc = load_span(t, el, &v, err)))
            goto done;
        rc = parse_puzzle(&doc->puzzles[i], doc, v, i, (int)x, err);
        json_decref(v);
        if (rc)
            goto done;
    }
    rc = check_slots(doc, err);
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
        json_t *v;
        rc = load_span(&t, (qn_export__span){0, len}, &v, err);
        if (rc == QN_OK)
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "the document must be a JSON object");
        json_decref(v);
    }
done:
    if (rc != QN_OK)
        qn_pack_doc_release(out);
    qn_err_source(err, source ? source : "");
    return rc;
}
