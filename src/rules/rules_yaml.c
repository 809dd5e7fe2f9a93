/*
 * rules_yaml.c: YAML rule files -> qn_rules_spec -> qn_rules. The only file
 * that includes <yaml.h>. It reads libyaml's event stream (never the
 * document API, which has no limits and builds cyclic graphs from
 * aliases) into a small tree with file positions, under limits on size,
 * depth and event count, then walks the tree against the schema.
 */
#include "quench/rules.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "quench/buf.h"
#include "quench/file.h"
#include "quench/mem.h"
#include "quench/version.h"

/* ------------------------------------------------------------------ */
/* The tree */

enum ntype { N_SCALAR, N_SEQ, N_MAP };

typedef struct node {
    enum ntype type;
    qn_mark mark;     /* 1-based start */
    char *val;        /* scalar value, NUL-terminated */
    size_t len;       /* scalar bytes */
    int quoted;       /* scalar written '...' or "..." */
    int plain;        /* scalar written plain */
    qn_mark *origins; /* file position of each value line, or NULL */
    size_t norigins;
    struct node **kids; /* seq: items; map: key, value, key, value... */
    size_t nkids, cap;
    size_t *keys;       /* map with many keys: hash table of key index + 1
                           into kids (0 = empty), hcap slots, or NULL */
    size_t hcap;
} node;

static void node_free(node *n)
{
    size_t i;

    if (!n)
        return;
    for (i = 0; i < n->nkids; i++)
        node_free(n->kids[i]);
    free(n->kids);
    free(n->keys);
    free(n->val);
    free(n->origins);
    free(n);
}

static void add_kid(node *p, node *k)
{
    if (p->nkids == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 8;
        p->kids = QN_RENEW(p->kids, p->cap, node *);
    }
    p->kids[p->nkids++] = k;
}

typedef struct ctx {
    const char *buf;
    size_t len;
    size_t *lines; /* byte offset of each line start */
    size_t nlines;
    qn_err *err;
} ctx;

static qn_mark mk(yaml_mark_t m)
{
    qn_mark r = {(int)m.line + 1, (int)m.column + 1};
    return r;
}

static int syn(ctx *c, qn_mark m, const char *fmt, ...) QN_PRINTF(3, 4);

static int syn(ctx *c, qn_mark m, const char *fmt, ...)
{
    va_list ap;
    char msg[256];

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return qn_err_set(c->err, QN_ESYNTAX, m.line, m.col, "%s", msg);
}

static int inval(ctx *c, qn_mark m, const char *fmt, ...) QN_PRINTF(3, 4);

static int inval(ctx *c, qn_mark m, const char *fmt, ...)
{
    va_list ap;
    char msg[256];

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return qn_err_set(c->err, QN_EINVAL, m.line, m.col, "%s", msg);
}

/* 1-based line and column (in characters) of a byte offset. */
static qn_mark offset_mark(const ctx *c, size_t off)
{
    qn_mark m = {1, 1};
    size_t i;

    for (i = 0; i < off && i < c->len; i++) {
        unsigned char b = (unsigned char)c->buf[i];
        if (b == '\n') {
            m.line++;
            m.col = 1;
        } else if ((b & 0xc0) != 0x80) {
            m.col++;
        }
    }
    return m;
}

/*
 * Bytes libyaml would take but a rule file must not contain, found before
 * parsing so the message can be exact: other encodings, NUL bytes and
 * malformed UTF-8 (overlong forms, surrogates, values past U+10FFFF).
 */
static int prescan(ctx *c)
{
    const unsigned char *s = (const unsigned char *)c->buf;
    size_t i = 0, n = c->len, need, j;
    qn_mark one = {1, 1};
    uint32_t cp, min;

    if (n > QN_RULES_MAX_FILE)
        return syn(c, one, "file is larger than %d bytes (the limit)",
                   QN_RULES_MAX_FILE);
    if (n >= 2 &&
        ((s[0] == 0xfe && s[1] == 0xff) || (s[0] == 0xff && s[1] == 0xfe)))
        return syn(c, one, "file is UTF-16; rule files must be UTF-8");
    while (i < n) {
        if (s[i] == 0)
            return syn(c, offset_mark(c, i), "NUL byte in file");
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        if (s[i] >= 0xc2 && s[i] <= 0xdf) {
            need = 1;
            cp = s[i] & 0x1f;
            min = 0x80;
        } else if (s[i] >= 0xe0 && s[i] <= 0xef) {
            need = 2;
            cp = s[i] & 0x0f;
            min = 0x800;
        } else if (s[i] >= 0xf0 && s[i] <= 0xf4) {
            need = 3;
            cp = s[i] & 0x07;
            min = 0x10000;
        } else {
            return syn(c, offset_mark(c, i), "invalid UTF-8 byte 0x%02x", s[i]);
        }
        for (j = 1; j <= need; j++) {
            if (i + j >= n || (s[i + j] & 0xc0) != 0x80)
                return syn(c, offset_mark(c, i),
                           "invalid UTF-8 sequence starting with byte 0x%02x",
                           s[i]);
            cp = (cp << 6) | (s[i + j] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return syn(c, offset_mark(c, i),
                       "invalid UTF-8 sequence starting with byte 0x%02x",
                       s[i]);
        i += need + 1;
    }
    return QN_OK;
}

static void index_lines(ctx *c)
{
    size_t i, n = 1;

    for (i = 0; i < c->len; i++)
        n += c->buf[i] == '\n';
    c->lines = QN_NEWN(n, size_t);
    c->nlines = 0;
    c->lines[c->nlines++] = 0;
    for (i = 0; i < c->len; i++)
        if (c->buf[i] == '\n')
            c->lines[c->nlines++] = i + 1;
}

/* Byte at 0-based line, column (characters; ASCII lines only matter). */
static int byte_at(const ctx *c, size_t line, size_t col)
{
    size_t off;

    if (line >= c->nlines)
        return -1;
    off = c->lines[line] + col;
    return off < c->len ? (unsigned char)c->buf[off] : -1;
}

/*
 * Where each line of a scalar's value starts in the file, when that is
 * knowable: single-line scalars whose source span has exactly the value's
 * length (no escapes, ASCII), and literal blocks ('|') without an
 * explicit indentation indicator.
 */
static void scalar_origins(ctx *c, node *n, const yaml_event_t *ev)
{
    yaml_mark_t s = ev->start_mark, e = ev->end_mark;
    yaml_scalar_style_t style = ev->data.scalar.style;
    size_t i, nl = 1, line, indent = 0;
    int ch;

    if (style == YAML_PLAIN_SCALAR_STYLE ||
        style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
        style == YAML_DOUBLE_QUOTED_SCALAR_STYLE) {
        size_t q = style == YAML_PLAIN_SCALAR_STYLE ? 0 : 2;
        if (s.line != e.line || e.index - s.index != n->len + q)
            return;
        n->origins = QN_NEW(qn_mark);
        n->norigins = 1;
        n->origins[0] = mk(s);
        n->origins[0].col += q ? 1 : 0;
        return;
    }
    if (style != YAML_LITERAL_SCALAR_STYLE)
        return;
    ch = byte_at(c, s.line, s.column + 1);
    if (ch >= '1' && ch <= '9')
        return; /* explicit indentation indicator */
    for (i = 0; i < n->len; i++)
        nl += n->val[i] == '\n';
    /* The first non-blank content line fixes the indentation. */
    for (line = s.line + 1; line < c->nlines; line++) {
        size_t col = 0;
        while ((ch = byte_at(c, line, col)) == ' ')
            col++;
        if (ch != '\n' && ch != '\r' && ch != -1) {
            indent = col;
            break;
        }
    }
    n->origins = QN_NEWN(nl, qn_mark);
    n->norigins = nl;
    for (i = 0; i < nl; i++) {
        n->origins[i].line = (int)(s.line + 2 + i);
        n->origins[i].col = (int)indent + 1;
    }
}

static const char *describe(const node *n)
{
    switch (n->type) {
    case N_SCALAR:
        return "a string";
    case N_SEQ:
        return "a sequence";
    case N_MAP:
        return "a mapping";
    }
    return "?";
}

/* Parser failure -> one diagnostic. libyaml marks are 0-based. */
static int parser_error(ctx *c, const yaml_parser_t *p)
{
    qn_mark m;
    const char *problem = p->problem ? p->problem : "malformed YAML";

    if (p->error == YAML_READER_ERROR) {
        m = offset_mark(c, p->problem_offset);
        return syn(c, m, "%s", problem);
    }
    if (p->error == YAML_MEMORY_ERROR) {
        fputs("quench: out of memory\n", stderr);
        exit(71);
    }
    m = mk(p->problem_mark);
    if (byte_at(c, p->problem_mark.line, p->problem_mark.column) == '\t')
        return syn(c, m, "tab character in indentation (use spaces)");
    if (p->context)
        return syn(c, m, "%s %s", problem, p->context);
    return syn(c, m, "%s", problem);
}

static int check_props(ctx *c, const yaml_event_t *ev)
{
    const yaml_char_t *anchor = NULL, *tag = NULL;

    switch (ev->type) {
    case YAML_SCALAR_EVENT:
        anchor = ev->data.scalar.anchor;
        tag = ev->data.scalar.tag;
        break;
    case YAML_SEQUENCE_START_EVENT:
        anchor = ev->data.sequence_start.anchor;
        tag = ev->data.sequence_start.tag;
        break;
    case YAML_MAPPING_START_EVENT:
        anchor = ev->data.mapping_start.anchor;
        tag = ev->data.mapping_start.tag;
        break;
    default:
        break;
    }
    if (anchor)
        return syn(c, mk(ev->start_mark), "anchors are not supported ('&%s')",
                   (const char *)anchor);
    if (tag)
        return syn(c, mk(ev->start_mark), "tags are not supported ('%s')",
                   (const char *)tag);
    return QN_OK;
}

#define NKEYS(a) (sizeof(a) / sizeof((a)[0]))

/* The keys of a rule file, in do_top's order. */
static const char *const top_keys[] = {
    "quench", "name",  "title",   "description", "author", "colours",
    "board",  "press", "effects", "goal",        "grading"};

static int unknown(ctx *c, const node *k, const char *what,
                   const char *const *valid, size_t nvalid);

/* Maps with more keys than this get a hash table for the duplicate check
 * (a hostile file may hold 10^5 keys). */
#define KEYS_LINEAR 16

static size_t key_hash(const node *k)
{
    uint64_t h = 14695981039346656037u;
    size_t i;

    for (i = 0; i < k->len; i++)
        h = (h ^ (unsigned char)k->val[i]) * 1099511628211u; /* FNV-1a */
    return (size_t)h;
}

static int same_key(const node *a, const node *b)
{
    return a->len == b->len && !memcmp(a->val, b->val, a->len);
}

/* Put key kids[i] in p's table (known absent); the table has room. */
static void keys_put(node *p, size_t i)
{
    size_t h = key_hash(p->kids[i]) & (p->hcap - 1);

    while (p->keys[h])
        h = (h + 1) & (p->hcap - 1);
    p->keys[h] = i + 1;
}

/* The earlier key of p equal to n, or NULL; keeps p's table big enough
 * for one more key. */
static const node *find_key(node *p, const node *n)
{
    size_t nkeys = p->nkids / 2, i, h;

    if (nkeys < KEYS_LINEAR) {
        for (i = 0; i < p->nkids; i += 2)
            if (same_key(p->kids[i], n))
                return p->kids[i];
        return NULL;
    }
    if (2 * (nkeys + 1) > p->hcap) { /* load at most 1/2 */
        free(p->keys);
        p->hcap = p->hcap ? 2 * p->hcap : 4 * KEYS_LINEAR;
        p->keys = QN_NEWN(p->hcap, size_t);
        for (i = 0; i < p->nkids; i += 2)
            keys_put(p, i);
    }
    for (h = key_hash(n) & (p->hcap - 1); p->keys[h];
         h = (h + 1) & (p->hcap - 1))
        if (same_key(p->kids[p->keys[h] - 1], n))
            return p->kids[p->keys[h] - 1];
    return NULL;
}

static int is_top_key(const node *k)
{
    size_t i;

    for (i = 0; i < NKEYS(top_keys); i++)
        if (!strcmp(k->val, top_keys[i]))
            return 1;
    return 0;
}

/* Attach a finished node to its parent (or make it the root), rejecting
 * non-scalar and duplicate mapping keys, and unknown keys of the rule file
 * itself. Takes ownership of n. */
static int attach(ctx *c, node **stack, int depth, node **root, node *n)
{
    node *p;
    const node *first;

    if (depth == 0) {
        *root = n;
        return QN_OK;
    }
    p = stack[depth - 1];
    if (p->type == N_MAP && p->nkids % 2 == 0) {
        if (n->type != N_SCALAR) {
            qn_mark m = n->mark;
            node_free(n);
            return syn(c, m,
                       "mapping keys must be strings or numbers, "
                       "not collections");
        }
        if ((first = find_key(p, n)) != NULL) {
            int rc = syn(c, n->mark,
                         "duplicate key '%.60s' (first on line %d)", n->val,
                         first->mark.line);
            node_free(n);
            return rc;
        }
        add_kid(p, n);
        if (p->keys)
            keys_put(p, p->nkids - 1);
        return QN_OK;
    }
    if (depth == 1 && p->type == N_MAP && !is_top_key(p->kids[p->nkids - 1])) {
        /* as its value starts (its anchor or tag refused first), not once
         * the tree is built: junk under an unknown key is never read */
        int rc = unknown(c, p->kids[p->nkids - 1], "key", top_keys,
                         NKEYS(top_keys));
        node_free(n);
        return rc;
    }
    add_kid(p, n);
    return QN_OK;
}

static int parse_tree(ctx *c, node **root_out)
{
    yaml_parser_t p;
    yaml_event_t ev;
    node *stack[QN_RULES_MAX_DEPTH + 1], *root = NULL, *n;
    int depth = 0, ndocs = 0, done = 0, rc = QN_OK;
    long nevents = 0;

    *root_out = NULL;
    if (!yaml_parser_initialize(&p)) {
        fputs("quench: out of memory\n", stderr);
        exit(71);
    }
    yaml_parser_set_input_string(&p, (const unsigned char *)c->buf, c->len);
    yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
    while (!done) {
        if (!yaml_parser_parse(&p, &ev)) {
            rc = parser_error(c, &p);
            break;
        }
        if (++nevents > QN_RULES_MAX_EVENTS) {
            rc = syn(c, mk(ev.start_mark),
                     "more than %d YAML events (the "
                     "limit)",
                     QN_RULES_MAX_EVENTS);
            yaml_event_delete(&ev);
            break;
        }
        if ((rc = check_props(c, &ev)) != QN_OK) {
            yaml_event_delete(&ev);
            break;
        }
        switch (ev.type) {
        case YAML_DOCUMENT_START_EVENT:
            if (++ndocs > 1)
                rc = syn(c, mk(ev.start_mark),
                         "multiple documents are not "
                         "supported");
            break;
        case YAML_STREAM_END_EVENT:
            done = 1;
            break;
        case YAML_ALIAS_EVENT:
            rc = syn(c, mk(ev.start_mark),
                     "aliases are not supported "
                     "('*%s')",
                     (const char *)ev.data.alias.anchor);
            break;
        case YAML_SCALAR_EVENT:
            /* "\0" escapes would cut C strings short: refuse them. */
            if (memchr(ev.data.scalar.value, 0, ev.data.scalar.length)) {
                rc = syn(c, mk(ev.start_mark), "NUL character in a string");
                break;
            }
            n = QN_NEW(node);
            n->type = N_SCALAR;
            n->mark = mk(ev.start_mark);
            n->len = ev.data.scalar.length;
            n->val = qn_xmemdup(ev.data.scalar.value, n->len + 1);
            n->plain = ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
            n->quoted =
                ev.data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
                ev.data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
            scalar_origins(c, n, &ev);
            rc = attach(c, stack, depth, &root, n);
            break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (depth >= QN_RULES_MAX_DEPTH) {
                rc = syn(c, mk(ev.start_mark),
                         "nesting deeper than %d "
                         "levels",
                         QN_RULES_MAX_DEPTH);
                break;
            }
            n = QN_NEW(node);
            n->type = ev.type == YAML_MAPPING_START_EVENT ? N_MAP : N_SEQ;
            n->mark = mk(ev.start_mark);
            /* Attach first so the tree owns it whatever happens next. */
            if ((rc = attach(c, stack, depth, &root, n)) == QN_OK)
                stack[depth++] = n;
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            depth--;
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
        if (rc != QN_OK)
            break;
    }
    yaml_parser_delete(&p);
    if (rc != QN_OK) {
        node_free(root);
        return rc;
    }
    *root_out = root;
    return QN_OK;
}

/* ------------------------------------------------------------------ */
/* Schema helpers */

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), i, j, prev[65], cur[65];

    if (la > 64 || lb > 64)
        return 99;
    for (j = 0; j <= lb; j++)
        prev[j] = j;
    for (i = 1; i <= la; i++) {
        cur[0] = i;
        for (j = 1; j <= lb; j++) {
            size_t d = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < d)
                d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            cur[j] = d;
        }
        memcpy(prev, cur, (lb + 1) * sizeof(size_t));
    }
    return prev[lb];
}

/* Words people reach for, and the key quench uses instead. */
static const char *const synonyms[][2] = {
    {"toggles", "effects"},     {"toggle", "effects"},
    {"effect", "effects"},      {"colors", "colours"},
    {"color", "colours"},       {"colour", "colours"},
    {"modulus", "colours"},     {"k", "colours"},
    {"states", "colours"},      {"version", "quench"},
    {"schema", "quench"},       {"target", "goal"},
    {"solved", "goal"},         {"tiers", "grading"},
    {"levels", "grading"},      {"difficulty", "grading"},
    {"neighbourhood", "press"}, {"neighborhood", "press"},
    {"topology", "board"},      {"size", "grid"},
    {"holes", "mask"},          {"torus", "wrap"},
    {"pattern", "stencil"},     {"shape", "stencil"},
    {"neighbours", "stencil"},  {"neighbors", "stencil"},
    {"centre", "interior"},     {"center", "interior"},
    {"corners", "corner"},      {"edges", "edge"},
    {"hexes", "hex"},           {"nodes", "graph"},
};

/* "unknown X 'key' (did you mean 'Y'?)", or the list of valid words. */
static int unknown(ctx *c, const node *k, const char *what,
                   const char *const *valid, size_t nvalid)
{
    size_t i, best = 0, bestd = 99, d;
    char list[200] = "";

    for (i = 0; i < sizeof(synonyms) / sizeof(synonyms[0]); i++) {
        if (strcmp(k->val, synonyms[i][0]))
            continue;
        for (d = 0; d < nvalid; d++)
            if (!strcmp(valid[d], synonyms[i][1]))
                return inval(c, k->mark,
                             "unknown %s '%.60s' (did you mean "
                             "'%s'?)",
                             what, k->val, valid[d]);
    }
    for (i = 0; i < nvalid; i++) {
        d = edit_distance(k->val, valid[i]);
        if (d < bestd) {
            bestd = d;
            best = i;
        }
    }
    if (bestd <= (strlen(k->val) + 1) / 2 && bestd <= 3)
        return inval(c, k->mark, "unknown %s '%.60s' (did you mean '%s'?)",
                     what, k->val, valid[best]);
    for (i = 0; i < nvalid; i++) {
        strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
        strncat(list, valid[i], sizeof(list) - strlen(list) - 1);
    }
    return inval(c, k->mark, "unknown %s '%.60s' (expected one of: %s)", what,
                 k->val, list);
}

static int lookup(ctx *c, const node *k, const char *what,
                  const char *const *valid, size_t nvalid, int *out)
{
    size_t i;

    for (i = 0; i < nvalid; i++) {
        if (!strcmp(k->val, valid[i])) {
            *out = (int)i;
            return QN_OK;
        }
    }
    return unknown(c, k, what, valid, nvalid);
}

static int want(ctx *c, const node *n, enum ntype t, const char *what)
{
    static const char *const names[] = {"a string", "a sequence", "a mapping"};

    if (n->type == t)
        return QN_OK;
    return inval(c, n->mark, "%s must be %s, got %s", what, names[t],
                 describe(n));
}

/* A plain decimal integer, -?[0-9]+, fitting comfortably in an int. */
static int get_int(ctx *c, const node *n, const char *what, long *out)
{
    const char *s;
    long v = 0;
    int neg = 0;

    if (n->type != N_SCALAR)
        return inval(c, n->mark, "%s must be an integer, got %s", what,
                     describe(n));
    s = n->val;
    if (!n->plain)
        return inval(c, n->mark,
                     "%s must be an integer, got the string "
                     "'%.40s'",
                     what, s);
    if (*s == '-') {
        neg = 1;
        s++;
    }
    if (!*s)
        return inval(c, n->mark, "%s must be an integer, got '%.40s'", what,
                     n->val);
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return inval(c, n->mark, "%s must be an integer, got '%.40s'", what,
                         n->val);
        v = v * 10 + (*s - '0');
        if (v > 1000000000L)
            return inval(c, n->mark, "%s is too large: %.40s", what, n->val);
    }
    *out = neg ? -v : v;
    return QN_OK;
}

static int get_bool(ctx *c, const node *n, const char *what, int *out)
{
    if (n->type == N_SCALAR && n->plain && !strcmp(n->val, "true")) {
        *out = 1;
        return QN_OK;
    }
    if (n->type == N_SCALAR && n->plain && !strcmp(n->val, "false")) {
        *out = 0;
        return QN_OK;
    }
    if (n->type != N_SCALAR)
        return inval(c, n->mark, "%s must be true or false, got %s", what,
                     describe(n));
    return inval(c, n->mark, "%s must be true or false, got '%.40s'", what,
                 n->val);
}

static int get_str(ctx *c, const node *n, const char *what, char **out)
{
    int rc = want(c, n, N_SCALAR, what);

    if (rc == QN_OK) {
        free(*out);
        *out = qn_xstrndup(n->val, n->len);
    }
    return rc;
}

/* A text value: one string, or a sequence of row strings. */
static int get_text(ctx *c, const node *n, const char *what, qn_text_spec *t)
{
    size_t i, j;
    qn_buf b = QN_BUF_INIT;

    t->mark = n->mark;
    if (n->type == N_SCALAR) {
        t->text = qn_xstrndup(n->val, n->len);
        t->len = n->len;
        if (n->origins) {
            t->origins = qn_xmemdup(n->origins, n->norigins * sizeof(qn_mark));
            t->norigins = n->norigins;
        }
        return QN_OK;
    }
    if (n->type != N_SEQ)
        return inval(c, n->mark,
                     "%s must be a string or a sequence of "
                     "rows, got %s",
                     what, describe(n));
    if (n->nkids == 0)
        return inval(c, n->mark, "%s has no rows", what);
    t->origins = QN_NEWN(n->nkids, qn_mark);
    t->norigins = n->nkids;
    for (i = 0; i < n->nkids; i++) {
        const node *k = n->kids[i];
        if (k->type != N_SCALAR) {
            qn_buf_release(&b);
            return inval(c, k->mark, "%s rows must be strings, got %s", what,
                         describe(k));
        }
        for (j = 0; j < k->len; j++) {
            if (k->val[j] == '\n' || k->val[j] == '/') {
                qn_buf_release(&b);
                return inval(c, k->mark,
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
    return QN_OK;
}

/* ------------------------------------------------------------------ */
/* The schema */


static int get_pair(ctx *c, const node *n, const char *what, long *a, long *b,
                    qn_mark *ma, qn_mark *mb)
{
    int rc;

    if (n->type != N_SEQ || n->nkids != 2)
        return inval(c, n->mark, "%s must be [width, height]", what);
    if ((rc = get_int(c, n->kids[0], what, a)) ||
        (rc = get_int(c, n->kids[1], what, b)))
        return rc;
    *ma = n->kids[0]->mark;
    *mb = n->kids[1]->mark;
    return QN_OK;
}

static int do_board(ctx *c, const node *n, qn_rules_spec *s)
{
    static const char *const keys[] = {"grid",  "hex",  "hexagon",
                                       "graph", "wrap", "mask"};
    static const char *const wraps[] = {"none", "x", "y", "both"};
    size_t i;
    int rc, which = 0, w;

    if ((rc = want(c, n, N_MAP, "board")))
        return rc;
    s->has_board = 1;
    s->board_mark = n->mark;
    for (i = 0; i < n->nkids; i += 2) {
        const node *k = n->kids[i], *v = n->kids[i + 1];
        if ((rc = lookup(c, k, "board key", keys, NKEYS(keys), &which)))
            return rc;
        if (which <= 3) {
            if (s->has_grid + s->has_hex + s->has_hexagon + s->has_graph)
                return inval(c, k->mark,
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
                if ((rc = get_int(c, v, keys[which], &s->w)))
                    return rc;
                s->h = s->w;
                s->w_mark = s->h_mark = v->mark;
            } else if ((rc = get_pair(c, v, keys[which], &s->w, &s->h,
                                      &s->w_mark, &s->h_mark))) {
                return rc;
            }
            break;
        case 2:
            s->has_hexagon = 1;
            if ((rc = get_int(c, v, "hexagon", &s->side)))
                return rc;
            break;
        case 3:
            s->has_graph = 1;
            if ((rc = get_int(c, v, "graph", &s->nnodes)))
                return rc;
            break;
        case 4:
            if ((rc = want(c, v, N_SCALAR, "wrap")))
                return rc;
            for (w = 0; w < 4; w++)
                if (!strcmp(v->val, wraps[w]))
                    break;
            if (w == 4)
                return inval(c, v->mark,
                             "wrap must be none, x, y or both, "
                             "got '%.40s'",
                             v->val);
            s->has_wrap = 1;
            s->wrap = w;
            s->wrap_mark = v->mark;
            break;
        case 5:
            if ((rc = get_text(c, v, "mask", &s->mask)))
                return rc;
            break;
        }
    }
    return QN_OK;
}

static int do_stencil(ctx *c, const node *n, const char *what,
                      qn_stencil_spec *st)
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
        if ((rc = lookup(c, n, "stencil", names, NKEYS(names), &which)))
            return rc;
        st->kind = kinds[which];
        return QN_OK;
    }
    if (n->type != N_SEQ)
        return inval(c, n->mark,
                     "%s must be a stencil name or a list of "
                     "[dx, dy] offsets, got %s",
                     what, describe(n));
    if (n->nkids > QN_RULES_MAX_OFFSETS)
        return inval(c, n->mark, "%s has %zu offsets, the limit is %d", what,
                     n->nkids, QN_RULES_MAX_OFFSETS);
    st->kind = QN_STENCIL_LIST;
    st->offsets = QN_NEWN(n->nkids ? n->nkids : 1, qn_offset);
    for (i = 0; i < n->nkids; i++) {
        const node *o = n->kids[i];
        qn_offset *off = &st->offsets[i];
        if (o->type != N_SEQ || o->nkids < 2 || o->nkids > 3)
            return inval(c, o->mark,
                         "offset must be [dx, dy] or [dx, dy, "
                         "amount]");
        if ((rc = get_int(c, o->kids[0], "dx", &v[0])) ||
            (rc = get_int(c, o->kids[1], "dy", &v[1])))
            return rc;
        if (o->nkids == 3) {
            if ((rc = get_int(c, o->kids[2], "amount", &v[2])))
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

static int do_press(ctx *c, const node *n, qn_rules_spec *s)
{
    static const char *const keys[] = {"stencil", "self", "amount",
                                       "corner",  "edge", "interior"};
    size_t i;
    int rc, which = 0;

    if ((rc = want(c, n, N_MAP, "press")))
        return rc;
    s->has_press = 1;
    s->press_mark = n->mark;
    for (i = 0; i < n->nkids; i += 2) {
        const node *k = n->kids[i], *v = n->kids[i + 1];
        if ((rc = lookup(c, k, "press key", keys, NKEYS(keys), &which)))
            return rc;
        switch (which) {
        case 0:
            rc = do_stencil(c, v, "stencil", &s->stencil);
            break;
        case 1:
            rc = get_bool(c, v, "self", &s->self);
            s->self_mark = v->mark;
            break;
        case 2:
            rc = get_int(c, v, "amount", &s->amount);
            s->has_amount = 1;
            s->amount_mark = v->mark;
            break;
        case 3:
            rc = do_stencil(c, v, "corner", &s->corner);
            break;
        case 4:
            rc = do_stencil(c, v, "edge", &s->edge);
            break;
        case 5:
            rc = do_stencil(c, v, "interior", &s->interior);
            break;
        }
        if (rc)
            return rc;
    }
    return QN_OK;
}

static int do_effects(ctx *c, const node *n, qn_rules_spec *s)
{
    size_t i, j, ne;
    int rc;

    if ((rc = want(c, n, N_MAP, "effects")))
        return rc;
    s->has_effects = 1;
    s->effects_mark = n->mark;
    ne = n->nkids / 2;
    s->effects = QN_NEWN(ne ? ne : 1, qn_effect_spec);
    for (i = 0; i < n->nkids; i += 2) {
        const node *k = n->kids[i], *v = n->kids[i + 1];
        qn_effect_spec *e = &s->effects[s->neffects];
        if ((rc = get_int(c, k, "effects key (a cell number)", &e->cell)))
            return rc;
        e->mark = k->mark;
        s->neffects++;
        if (v->type != N_SEQ)
            return inval(c, v->mark,
                         "effects of cell %ld must be a list of "
                         "[cell, amount], got %s",
                         e->cell, describe(v));
        e->targets = QN_NEWN(v->nkids ? v->nkids : 1, qn_effect_target);
        for (j = 0; j < v->nkids; j++) {
            const node *t = v->kids[j];
            qn_effect_target *tg = &e->targets[j];
            tg->mark = t->mark;
            if (t->type == N_SCALAR) {
                if ((rc = get_int(c, t, "affected cell", &tg->cell)))
                    return rc;
            } else if (t->type == N_SEQ && t->nkids == 2) {
                if ((rc = get_int(c, t->kids[0], "affected cell", &tg->cell)) ||
                    (rc = get_int(c, t->kids[1], "amount", &tg->amount)))
                    return rc;
                tg->has_amount = 1;
            } else {
                return inval(c, t->mark,
                             "effect must be [cell, amount] or "
                             "a cell number");
            }
            e->ntargets++;
        }
    }
    return QN_OK;
}

static int do_grading(ctx *c, const node *n, qn_rules_spec *s)
{
    size_t i, nt;
    int rc;

    if ((rc = want(c, n, N_MAP, "grading")))
        return rc;
    s->has_grading = 1;
    s->grading_mark = n->mark;
    nt = n->nkids / 2;
    if (nt > QN_RULES_MAX_TIERS)
        return inval(c, n->mark, "grading has %zu tiers, the limit is %d", nt,
                     QN_RULES_MAX_TIERS);
    s->tiers = QN_NEWN(nt ? nt : 1, qn_tier_spec);
    for (i = 0; i < n->nkids; i += 2) {
        const node *k = n->kids[i], *v = n->kids[i + 1];
        qn_tier_spec *t = &s->tiers[s->ntiers++];
        t->name = qn_xstrndup(k->val, k->len);
        t->mark = k->mark;
        if (v->type == N_SCALAR) {
            if ((rc = get_int(c, v, "tier range", &t->lo)))
                return rc;
            t->hi = t->lo;
        } else if (v->type == N_SEQ && v->nkids == 2) {
            if ((rc = get_int(c, v->kids[0], "tier range", &t->lo)) ||
                (rc = get_int(c, v->kids[1], "tier range", &t->hi)))
                return rc;
        } else {
            return inval(c, v->mark,
                         "tier '%.40s' must be [lo, hi] (press "
                         "counts)",
                         t->name);
        }
    }
    return QN_OK;
}

static int do_top(ctx *c, const node *n, qn_rules_spec *s)
{
    const char *const *keys = top_keys;
    size_t i;
    int rc, which = 0;

    if (n->type != N_MAP)
        return inval(c, n->mark, "a rule file must be a mapping, got %s",
                     describe(n));
    s->mark = n->mark;
    for (i = 0; i < n->nkids; i += 2) {
        const node *k = n->kids[i], *v = n->kids[i + 1];
        if ((rc = lookup(c, k, "key", keys, NKEYS(top_keys), &which)))
            return rc;
        switch (which) {
        case 0:
            rc = get_int(c, v, "quench (the schema version)", &s->version);
            s->has_version = 1;
            s->version_mark = v->mark;
            break;
        case 1:
            rc = get_str(c, v, "name", &s->name);
            s->name_mark = v->mark;
            break;
        case 2:
            rc = get_str(c, v, "title", &s->title);
            s->title_mark = v->mark;
            break;
        case 3:
            rc = get_str(c, v, "description", &s->description);
            s->description_mark = v->mark;
            break;
        case 4:
            rc = get_str(c, v, "author", &s->author);
            s->author_mark = v->mark;
            break;
        case 5:
            rc = get_int(c, v, "colours", &s->colours);
            s->has_colours = 1;
            s->colours_mark = v->mark;
            break;
        case 6:
            rc = do_board(c, v, s);
            break;
        case 7:
            rc = do_press(c, v, s);
            break;
        case 8:
            rc = do_effects(c, v, s);
            break;
        case 9:
            rc = get_text(c, v, "goal", &s->goal);
            break;
        case 10:
            rc = do_grading(c, v, s);
            break;
        }
        if (rc)
            return rc;
    }
    return QN_OK;
}

/* ------------------------------------------------------------------ */
/* Entry points */

int qn_rules_parse_yaml(qn_rules_spec *spec, const char *text, size_t len,
                        qn_err *err)
{
    ctx c = {text, len, NULL, 0, err};
    node *root = NULL;
    int rc;
    qn_mark one = {1, 1};

    /* A UTF-8 byte order mark is allowed and skipped (libyaml keeps it
     * when the encoding is forced); positions count from after it. */
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
        c.buf += 3;
        c.len -= 3;
    }
    if ((rc = prescan(&c)) != QN_OK)
        return rc;
    index_lines(&c);
    if ((rc = parse_tree(&c, &root)) == QN_OK) {
        if (!root)
            rc = inval(&c, one,
                       "file is empty: expected a mapping starting "
                       "with 'quench: 1'");
        else
            rc = do_top(&c, root, spec);
    }
    node_free(root);
    free(c.lines);
    return rc;
}

int qn_rules_load_buf(qn_rules **out, const char *text, size_t len,
                      const char *source, qn_err *err)
{
    qn_rules_spec spec;
    int rc;

    *out = NULL;
    qn_rules_spec_init(&spec);
    rc = qn_rules_parse_yaml(&spec, text, len, err);
    if (rc == QN_OK)
        rc = qn_rules_build(out, &spec, source, err);
    else
        qn_err_source(err, source ? source : "");
    qn_rules_spec_release(&spec);
    return rc;
}

/*
 * Read a whole rule file (at most QN_RULES_MAX_FILE bytes; "-" is stdin)
 * into *buf_out (malloc'd). Returns QN_OK or the error, with source set.
 * A bigger file is the same syntax error as a bigger buffer (see parse):
 * reading stops one byte past the limit, so /dev/zero is refused at once.
 */
static int read_rule_file(const char *path, char **buf_out, size_t *len_out,
                          qn_err *err)
{
    int rc = qn_file_read_all(buf_out, len_out, path, QN_RULES_MAX_FILE, err);

    if (rc == QN_ELIMIT)
        return qn_err_set(err, QN_ESYNTAX, 1, 1,
                          "file is larger than %d bytes (the limit)",
                          QN_RULES_MAX_FILE);
    return rc;
}

static const char *source_name(const char *path)
{
    return strcmp(path, "-") ? path : "<stdin>";
}

int qn_rules_load_file(qn_rules **out, const char *path, qn_err *err)
{
    char *buf;
    size_t len;
    int rc;

    *out = NULL;
    if ((rc = read_rule_file(path, &buf, &len, err)) != QN_OK)
        return rc;
    rc = qn_rules_load_buf(out, buf, len, source_name(path), err);
    free(buf);
    return rc;
}

int qn_rules_load_sized(qn_rules **dense_out, qn_grid_rule *grid_out,
                        const char *path, int w, int h, qn_err *err)
{
    const char *source = source_name(path);
    qn_rules_spec spec;
    char *buf;
    size_t len;
    int rc;

    *dense_out = NULL;
    memset(grid_out, 0, sizeof(*grid_out));
    if ((rc = read_rule_file(path, &buf, &len, err)) != QN_OK)
        return rc;
    qn_rules_spec_init(&spec);
    rc = qn_rules_parse_yaml(&spec, buf, len, err);
    if (rc != QN_OK) {
        qn_err_source(err, source);
    } else if (qn_rules_spec_is_big(&spec, w, h)) {
        rc = qn_rules_grid(grid_out, &spec, w, h, source, err);
    } else if (w > 0 && !spec.has_grid) {
        rc = qn_err_set(err, QN_EINVAL, spec.board_mark.line,
                        spec.board_mark.col,
                        "a board size can only be given for grid boards");
        qn_err_source(err, source);
    } else {
        if (w > 0) {
            spec.w = w;
            spec.h = h;
        }
        rc = qn_rules_build(dense_out, &spec, source, err);
    }
    qn_rules_spec_release(&spec);
    free(buf);
    return rc;
}

/* libyaml's version, for `quench --version` (declared in version.h: each
 * third-party version comes from the file that wraps the library). */
const char *qn_version_yaml(void)
{
    return yaml_get_version_string();
}
