/*
 * json_in.c: JSON submission records through jansson (the only file that
 * includes it). jansson checks the syntax; to point errors at the value
 * they concern, a small scanner walks the raw text (already known to be
 * valid JSON) to find byte offsets of members and array elements.
 *
 * Out of memory is QN_ENOMEM, never a malformed record: jansson reports
 * some failed allocations as a syntax error, so each entry point clears
 * qn_json_nomem (mem.h) first and looks at it, and at `lost` (a decode
 * of an already valid value that failed, which only memory can make
 * fail), before it answers (nomem_check).
 */
#include "submit_internal.h"

#include "base/json_depth.h"
#include "base/mem.h"
#include "base/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

static _Thread_local int lost; /* see above */

static void nomem_clear(void)
{
    qn_json_nomem_clear();
    lost = 0;
}

/* rc, or QN_ENOMEM (err filled) when memory ran out since nomem_clear */
static int nomem_check(int rc, qn_err *err)
{
    if (lost || qn_json_nomem())
        return qn_err_nomem(err);
    return rc;
}

/* ---- positions ---------------------------------------------------------- */

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static size_t skip_ws(const char *s, size_t len, size_t i)
{
    while (i < len && is_ws(s[i]))
        i++;
    return i;
}

/* Index just after the value starting at s[i] (valid JSON assumed). */
static size_t skip_value(const char *s, size_t len, size_t i)
{
    int depth = 0, in_str = 0;

    if (i >= len)
        return len;
    if (s[i] != '"' && s[i] != '[' && s[i] != '{') {
        while (i < len && !is_ws(s[i]) && s[i] != ',' && s[i] != ']' &&
               s[i] != '}')
            i++;
        return i;
    }
    for (; i < len; i++) {
        char c = s[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"') {
                in_str = 0;
                if (depth == 0)
                    return i + 1;
            }
        } else if (c == '"') {
            in_str = 1;
        } else if (c == '[' || c == '{') {
            depth++;
        } else if (c == ']' || c == '}') {
            if (--depth == 0)
                return i + 1;
        }
    }
    return len;
}

/* One top-level member of an object: its key and its value, as byte
 * ranges of the raw text (the key with its quotes). */
typedef struct span {
    size_t key, key_end, val, val_end;
} span;

/* Where the first member of the object at the start of s would be. */
static size_t first_member(const char *s, size_t len)
{
    size_t i = skip_ws(s, len, 0);

    return i < len && s[i] == '{' ? skip_ws(s, len, i + 1) : len;
}

/* The member at *at (valid JSON assumed) into *m, moving *at to the next
 * one. Returns 0 after the last member. */
static int next_member(const char *s, size_t len, size_t *at, span *m)
{
    size_t i = *at;

    if (i >= len || s[i] != '"')
        return 0;
    m->key = i;
    m->key_end = skip_value(s, len, i);
    i = skip_ws(s, len, m->key_end);
    if (i < len && s[i] == ':')
        i = skip_ws(s, len, i + 1);
    m->val = i;
    m->val_end = skip_value(s, len, i);
    i = skip_ws(s, len, m->val_end);
    if (i < len && s[i] == ',')
        i = skip_ws(s, len, i + 1);
    *at = i;
    return 1;
}

/* Offset of element `idx` of the array at s[arr] (or of its ']'). */
static size_t find_elem(const char *s, size_t len, size_t arr, size_t idx)
{
    size_t i = skip_ws(s, len, arr + 1), n;

    for (n = 0; n < idx && i < len && s[i] != ']'; n++) {
        i = skip_ws(s, len, skip_value(s, len, i));
        if (i < len && s[i] == ',')
            i = skip_ws(s, len, i + 1);
    }
    return i;
}

/* The closing ']' of the array at s[arr]. */
static size_t array_end(const char *s, size_t len, size_t arr)
{
    size_t e = skip_value(s, len, arr);
    return e > 0 ? e - 1 : 0;
}

typedef struct ctx {
    const char *text;
    size_t len;
    int line, col;
    qn_err *err;
} ctx;

static int fail_at(const ctx *x, qn_code code, size_t off, const char *fmt, ...)
    QN_PRINTF(4, 5);

static int fail_at(const ctx *x, qn_code code, size_t off, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    int line, col;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    qn_submit__pos(x->text, off < x->len ? off : x->len, x->line, x->col, &line,
                   &col);
    return qn_err_set(x->err, code, line, col, "%s", msg);
}

/*
 * The deepest nesting must stay within QN_SUBMIT_MAX_DEPTH: jansson's own
 * limit is 2048 levels, far more than any record needs.
 */
static int check_depth(const ctx *x)
{
    size_t at = qn_json_too_deep(x->text, x->len, QN_SUBMIT_MAX_DEPTH);

    if (at == x->len)
        return QN_OK;
    return fail_at(x, QN_ELIMIT, at, "JSON nested deeper than %d levels",
                   QN_SUBMIT_MAX_DEPTH);
}

/*
 * jansson's `position` is the byte count read when it gave up, i.e. just
 * past the offending token, and its message ends "near 'TOKEN'": point at
 * the token's first byte when the message holds it whole.
 */
static int fail_json(const ctx *x, const json_error_t *je)
{
    if (json_error_code(je) == json_error_out_of_memory || qn_json_nomem())
        return qn_err_nomem(x->err); /* not the input's fault */
    size_t pos = je->position > 0 ? (size_t)je->position : 0, off = pos;
    const char *near = strstr(je->text, " near '");
    size_t tlen = strlen(je->text);

    if (near && tlen > 0 && je->text[tlen - 1] == '\'' &&
        tlen < JSON_ERROR_TEXT_LENGTH - 2) {
        size_t toklen = (size_t)(je->text + tlen - 1 - (near + 7));
        off = toklen <= pos ? pos - toklen : 0;
    } else if (strstr(je->text, "near end of file")) {
        off = pos; /* just past the last byte */
    } else if (off > 0 && off <= x->len) {
        off--;
    }
    return fail_at(x, QN_ESYNTAX, off, "invalid JSON: %s", je->text);
}

/* The text as one JSON value into *out: QN_OK, or the error. */
static int load(const ctx *x, size_t flags, json_t **out)
{
    json_error_t je;
    int rc;

    *out = NULL;
    if ((rc = check_depth(x)) < 0)
        return rc;
    *out = json_loadb(x->text, x->len, flags | JSON_REJECT_DUPLICATES, &je);
    return *out ? QN_OK : fail_json(x, &je);
}

static const char *type_name(const json_t *j)
{
    switch (json_typeof(j)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a number with a fraction or exponent";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "a value";
}

/* ---- values ------------------------------------------------------------- */

/* An array of ncells integers 0..k-1 at raw offset `at`. */
static int int_array(uint8_t *out, const qn_layout *l, unsigned k,
                     const json_t *a, const ctx *x, size_t at, const char *what)
{
    size_t n = json_array_size(a), i;
    const char *prefix = strcmp(what, "state") == 0 ? "" : "solution: ";

    for (i = 0; i < n && i < (size_t)l->ncells; i++) {
        const json_t *v = json_array_get(a, i);
        json_int_t iv;
        if (!json_is_integer(v))
            return fail_at(x, QN_ESYNTAX, find_elem(x->text, x->len, at, i),
                           "%s value at index %zu must be an integer, got "
                           "%s",
                           what, i, type_name(v));
        iv = json_integer_value(v);
        if (iv < 0 || iv >= (json_int_t)k)
            return fail_at(x, QN_ESYNTAX, find_elem(x->text, x->len, at, i),
                           "%s value %" JSON_INTEGER_FORMAT
                           " at index %zu must be 0..%u",
                           what, iv, i, k - 1);
        out[i] = (uint8_t)iv;
    }
    if (n > (size_t)l->ncells)
        return fail_at(x, QN_ESYNTAX,
                       find_elem(x->text, x->len, at, (size_t)l->ncells),
                       "%sexpected %d %s, got %zu", prefix, l->ncells,
                       qn_plural((uint64_t)l->ncells, "cell", "cells"), n);
    if (n < (size_t)l->ncells)
        return fail_at(x, QN_ESYNTAX, array_end(x->text, x->len, at),
                       "%sexpected %d %s, got %zu", prefix, l->ncells,
                       qn_plural((uint64_t)l->ncells, "cell", "cells"), n);
    return QN_OK;
}

/*
 * A string of cells at raw offset `at` (its opening quote). Errors inside
 * map back to the raw text exactly when the string has no escapes. A
 * solution may also be a flat digit string, and its errors say "solution".
 */
static int cells_string(uint8_t *out, const qn_layout *l, unsigned k,
                        int is_solution, const json_t *s, const ctx *x,
                        size_t at)
{
    size_t bad = 0, rawlen = skip_value(x->text, x->len, at) - at;
    qn_err e = QN_ERR_INIT;
    const char *str = json_string_value(s);
    size_t n = json_string_length(s);

    if (qn_submit__cells_str(out, l, k, is_solution, str, n, &bad, &e) == QN_OK)
        return QN_OK;
    if (rawlen == n + 2 && !memchr(x->text + at, '\\', rawlen))
        at += 1 + bad;
    return fail_at(x, e.code, at, "%s%s", is_solution ? "solution: " : "",
                   e.msg);
}

/* ---- members ------------------------------------------------------------ */

/* Longest key compared with the names quench reads (longer: not one). */
#define KEYCAP 64

/*
 * The decoded key of member m into out (NUL-terminated, cut at KEYCAP - 1
 * bytes). Returns its length, or -1 when it is longer than that. A key
 * written with escapes is decoded by jansson.
 */
static int key_text(const ctx *x, const span *m, char out[KEYCAP])
{
    const char *raw = x->text + m->key + 1;
    size_t n = m->key_end - m->key - 2;
    json_t *j = NULL;
    int rc;

    if (memchr(raw, '\\', n)) {
        j = json_loadb(raw - 1, n + 2, JSON_DECODE_ANY, NULL);
        if (!j) { /* valid JSON already: only memory can fail */
            lost = 1;
            out[0] = '\0';
            return -1;
        }
        raw = json_string_value(j);
        n = json_string_length(j);
    }
    rc = n < KEYCAP ? (int)n : -1;
    if (n >= KEYCAP)
        n = KEYCAP - 1;
    memcpy(out, raw, n);
    out[n] = '\0';
    json_decref(j);
    return rc;
}

/* The member called `key` of the record, into *m; 0 when absent. */
static int find_member(const ctx *x, const char *key, span *m)
{
    size_t at = first_member(x->text, x->len);
    char name[KEYCAP];

    while (next_member(x->text, x->len, &at, m))
        if (key_text(x, m, name) >= 0 && strcmp(name, key) == 0)
            return 1;
    return 0;
}

/* The keys quench reads: the submission's fields and its own markers. */
static int is_read_key(const char *key)
{
    static const char *const read[] = {"id",          "state", "solution",
                                       "min_presses", "rule",  "rule_hash",
                                       "type",        "record"};
    size_t i;

    for (i = 0; i < sizeof(read) / sizeof(read[0]); i++)
        if (strcmp(key, read[i]) == 0)
            return 1;
    return 0;
}

/* s[0..n) without the blanks outside its strings, onto b. */
static void add_compact(qn_buf *b, const char *s, size_t n)
{
    size_t i, from = 0;
    int in_str = 0;

    for (i = 0; i < n; i++) {
        if (in_str) {
            if (s[i] == '\\')
                i++;
            else if (s[i] == '"')
                in_str = 0;
        } else if (s[i] == '"') {
            in_str = 1;
        } else if (is_ws(s[i])) {
            qn_buf_add(b, s + from, i - from);
            from = i + 1;
        }
    }
    qn_buf_add(b, s + from, n - from);
}

/* A member quench does not read: onto the record's metadata, as written. */
static void add_meta(qn_submit__rec *rec, const ctx *x, const span *m)
{
    qn_buf_addc(&rec->meta, rec->meta.len ? ',' : '{');
    qn_buf_add(&rec->meta, x->text + m->key, m->key_end - m->key);
    qn_buf_addc(&rec->meta, ':');
    add_compact(&rec->meta, x->text + m->val, m->val_end - m->val);
}

/*
 * The record's "type" (generate) or "record" (export) member, when it has
 * one: "puzzle" is a submission; "header", "summary" (generate) and
 * "pack" (export) are quench's own records around the puzzles
 * (rec->is_meta); anything else is an error.
 */
static int record_type(qn_submit__rec *rec, const json_t *j, const ctx *x)
{
    static const char *const names[2] = {"type", "record"};
    size_t i;
    span m;

    for (i = 0; i < 2; i++) {
        const json_t *v = json_object_get(j, names[i]);
        const char *t = json_string_value(v);
        if (!v)
            continue;
        if (!find_member(x, names[i], &m))
            m.val = skip_ws(x->text, x->len, 0);
        if (t && strcmp(t, "puzzle") == 0)
            continue;
        if (t && (strcmp(t, "header") == 0 || strcmp(t, "summary") == 0 ||
                  strcmp(t, "pack") == 0)) {
            rec->is_meta = 1;
            continue;
        }
        return fail_at(x, QN_ESYNTAX, m.val,
                       "%s must be \"puzzle\" (or \"header\", "
                       "\"summary\", \"pack\" on quench's own records)",
                       names[i]);
    }
    return QN_OK;
}

/*
 * The rule the record names ("rule", as export writes it, or "rule_hash",
 * as generate does), checked before anything else is read: a puzzle of
 * another rule is reported as such, not as a state of the wrong size.
 */
static int record_rule(const qn_submit__rec *rec, const json_t *j, const ctx *x)
{
    static const char *const names[2] = {"rule", "rule_hash"};
    qn_err e = QN_ERR_INIT;
    size_t i;
    span m;

    for (i = 0; i < 2; i++) {
        const json_t *v = json_object_get(j, names[i]);
        if (!v)
            continue;
        if (!find_member(x, names[i], &m))
            m.val = skip_ws(x->text, x->len, 0);
        if (!json_is_string(v))
            return fail_at(x, QN_ESYNTAX, m.val,
                           "%s must be a string (a rule hash), got %s",
                           names[i], type_name(v));
        if (qn_submit__check_rule(rec, json_string_value(v),
                                  json_string_length(v), &e) != QN_OK)
            return fail_at(x, e.code, m.val, "%s", e.msg);
    }
    return QN_OK;
}

static int get_id(qn_submit__rec *rec, const json_t *v, const ctx *x, size_t at)
{
    if (json_is_integer(v)) {
        snprintf(rec->id, sizeof(rec->id), "%" JSON_INTEGER_FORMAT,
                 json_integer_value(v));
    } else if (json_is_string(v)) {
        size_t n = json_string_length(v);
        if (n == 0)
            return fail_at(x, QN_ESYNTAX, at, "id is empty");
        if (n > QN_SUBMIT_MAX_ID)
            return fail_at(x, QN_ELIMIT, at, "id longer than %d bytes (%zu)",
                           QN_SUBMIT_MAX_ID, n);
        memcpy(rec->id, json_string_value(v), n);
        rec->id[n] = '\0';
    } else {
        return fail_at(x, QN_ESYNTAX, at,
                       "id must be a string or an integer, got %s",
                       type_name(v));
    }
    rec->has_id = 1;
    return QN_OK;
}

/* "state" or "solution" at raw offset `at`: a string of cells or an array
 * of integers, into out. */
static int cells_value(uint8_t *out, const qn_submit__rec *rec, int is_solution,
                       const json_t *v, const ctx *x, size_t at)
{
    const char *what = is_solution ? "solution" : "state";

    if (json_is_string(v))
        return cells_string(out, rec->l, rec->k, is_solution, v, x, at);
    if (json_is_array(v))
        return int_array(out, rec->l, rec->k, v, x, at, what);
    return fail_at(x, QN_ESYNTAX, at,
                   "%s must be a string or an array of integers, got %s", what,
                   type_name(v));
}

static int get_min(qn_submit__rec *rec, const json_t *v, const ctx *x,
                   size_t at)
{
    if (!json_is_integer(v))
        return fail_at(x, QN_ESYNTAX, at,
                       "min_presses must be a non-negative integer, got %s",
                       type_name(v));
    if (json_integer_value(v) < 0)
        return fail_at(x, QN_ESYNTAX, at,
                       "min_presses must be a non-negative integer, got "
                       "%" JSON_INTEGER_FORMAT,
                       json_integer_value(v));
    rec->min_presses = (uint64_t)json_integer_value(v);
    rec->has_min = 1;
    return QN_OK;
}

/* Read member `key` (value v at raw offset `at`) of a submission record
 * into rec; type, record and the rule were checked first. */
static int member(qn_submit__rec *rec, const char *key, const json_t *v,
                  const ctx *x, size_t at)
{
    int rc;

    if (strcmp(key, "id") == 0)
        return get_id(rec, v, x, at);
    if (strcmp(key, "state") == 0)
        return cells_value(rec->cells, rec, 0, v, x, at);
    if (strcmp(key, "solution") == 0) {
        rc = cells_value(rec->solution, rec, 1, v, x, at);
        rec->has_solution = rc == QN_OK;
        return rc;
    }
    if (strcmp(key, "min_presses") == 0)
        return get_min(rec, v, x, at);
    return QN_OK;
}

/*
 * Every member in text order: the ones quench reads into rec (the first
 * error kept), the others onto the metadata, each looked at for a note.
 */
static int members(qn_submit__rec *rec, const json_t *j, const ctx *x)
{
    size_t at = first_member(x->text, x->len);
    char key[KEYCAP];
    int rc = QN_OK, n;
    span m;

    while (next_member(x->text, x->len, &at, &m)) {
        n = key_text(x, &m, key);
        if (n >= 0 && is_read_key(key)) {
            if (rc == QN_OK)
                rc = member(rec, key, json_object_get(j, key), x, m.val);
            continue;
        }
        add_meta(rec, x, &m);
        qn_submit__note_field(rec, "key", key, strlen(key));
    }
    if (rec->meta.len)
        qn_buf_addc(&rec->meta, '}');
    return rc;
}

/*
 * A record jansson refused still keeps its submitter's id when one can be
 * read: the first top-level member written "id" whose value, alone, is a
 * valid string or integer (the scanner walks invalid JSON safely: every
 * index stays within the text, and nothing but that value is decoded).
 */
static void salvage_id(qn_submit__rec *rec, const ctx *x)
{
    size_t at = first_member(x->text, x->len);
    span m;

    while (next_member(x->text, x->len, &at, &m)) {
        json_t *v;
        if (m.key_end - m.key != 4 || memcmp(x->text + m.key, "\"id\"", 4))
            continue;
        v = json_loadb(x->text + m.val, m.val_end - m.val, JSON_DECODE_ANY,
                       NULL);
        if (v)
            (void)get_id(rec, v, &(ctx){x->text, x->len, x->line, x->col, NULL},
                         m.val);
        json_decref(v);
        return;
    }
}

int qn_submit__json_record(qn_submit__rec *rec, const char *text, size_t len,
                           int line, int col, qn_err *err)
{
    ctx x = {text, len, line, col, err};
    json_t *j;
    span m;
    int rc = QN_OK;

    rec->has_id = rec->has_solution = rec->has_min = rec->is_meta = 0;
    qn_buf_reset(&rec->meta);
    rec->note[0] = '\0';
    nomem_clear();
    if ((rc = load(&x, JSON_DECODE_ANY, &j)) != QN_OK) {
        if (rc != QN_ENOMEM)
            salvage_id(rec, &x);
        return nomem_check(rc, err);
    }
    if (!json_is_object(j)) {
        rc = fail_at(&x, QN_ESYNTAX, skip_ws(text, len, 0),
                     "expected a JSON object, got %s", type_name(j));
        goto done;
    }
    /* The id first, so even a malformed record is reported by its id. */
    if (find_member(&x, "id", &m))
        (void)get_id(rec, json_object_get(j, "id"),
                     &(ctx){text, len, line, col, NULL}, m.val);
    if ((rc = record_type(rec, j, &x)) < 0 || rec->is_meta)
        goto done;
    if ((rc = record_rule(rec, j, &x)) < 0)
        goto done;
    if ((rc = members(rec, j, &x)) < 0)
        goto done;
    if (!json_object_get(j, "state"))
        rc = fail_at(&x, QN_ESYNTAX, skip_ws(text, len, 0),
                     "missing key 'state'");
done:
    json_decref(j);
    if (rec->meta.failed)
        return qn_err_nomem(err);
    return nomem_check(rc, err);
}

int qn_submit__json_state(uint8_t *out, const qn_layout *l, unsigned k,
                          const char *text, size_t len, int line, int col,
                          qn_err *err)
{
    ctx x = {text, len, line, col, err};
    json_t *j;
    int rc;

    nomem_clear();
    if ((rc = load(&x, 0, &j)) != QN_OK)
        return nomem_check(rc, err);
    if (json_is_array(j))
        rc = int_array(out, l, k, j, &x, skip_ws(text, len, 0), "state");
    else
        rc = fail_at(&x, QN_ESYNTAX, skip_ws(text, len, 0),
                     "expected an array of integers, got %s", type_name(j));
    json_decref(j);
    return nomem_check(rc, err);
}

int qn_submit__json_int(long long *out, int *is_int_out, const char *text,
                        size_t len, int line, int col, qn_err *err)
{
    ctx x = {text, len, line, col, err};
    json_t *j;
    int rc = QN_OK;

    *is_int_out = 0;
    nomem_clear();
    if ((rc = load(&x, JSON_DECODE_ANY, &j)) != QN_OK)
        return nomem_check(rc, err);
    if (json_is_integer(j)) {
        *is_int_out = 1;
        *out = json_integer_value(j);
    } else {
        rc = fail_at(&x, QN_ESYNTAX, 0, "expected an integer, got %s",
                     type_name(j));
    }
    json_decref(j);
    return nomem_check(rc, err);
}
