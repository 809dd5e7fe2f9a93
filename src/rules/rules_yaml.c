/*
 * rules_yaml.c: YAML text -> the tree of rules_tree.h, for rule files and
 * recipes alike. The only file that includes <yaml.h>. It reads libyaml's
 * event stream (never the document API, which has no limits and builds
 * cyclic graphs from aliases) into a small tree with file positions, under
 * limits on size, depth and event count; a schema then reads the tree
 * (rules_schema.c for rule files, recipe_schema.c for recipes).
 */
#include "rules/rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "base/mem.h"
#include "base/version.h"
#include "rules_internal.h"
#include "rules_tree.h"

typedef qn_rules_node node;

typedef struct ctx {
    const char *buf;
    size_t len;
    size_t *lines; /* byte offset of each line start */
    size_t nlines;
    const qn_rules_yaml_kind *kind;
    qn_err *err;
    int at_byte; /* prescan failed at a byte of the text (NUL, UTF-8) */
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

/* The byte at offset i is refused: "WHAT 0xNN" (or WHAT alone for NUL),
 * at its place. */
static int bad_byte(ctx *c, size_t i, const char *what)
{
    unsigned char b = (unsigned char)c->buf[i];

    c->at_byte = 1;
    if (!b)
        return syn(c, offset_mark(c, i), "%s", what);
    return syn(c, offset_mark(c, i), "%s 0x%02x", what, b);
}

/*
 * Bytes libyaml would take but a rule file or recipe must not contain, found
 * before parsing so the message can be exact: other encodings, NUL bytes and
 * malformed UTF-8 (overlong forms, surrogates, values past U+10FFFF).
 */
static int prescan(ctx *c)
{
    const unsigned char *s = (const unsigned char *)c->buf;
    size_t i = 0, n = c->len, need, j;
    /* Faults of the whole file have no place: a place would make -v show
     * line 1 of what may not be a rule file at all (issue #31). */
    qn_mark whole = {0, 0};
    uint32_t cp, min;

    if (n > QN_RULES_MAX_FILE)
        return syn(c, whole, "file is larger than %d bytes (the limit)",
                   QN_RULES_MAX_FILE);
    if (n >= 2 &&
        ((s[0] == 0xfe && s[1] == 0xff) || (s[0] == 0xff && s[1] == 0xfe)))
        return syn(c, whole, "file is UTF-16; %s must be UTF-8",
                   c->kind->files);
    while (i < n) {
        if (s[i] == 0)
            return bad_byte(c, i, "NUL byte in file");
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
            return bad_byte(c, i, "invalid UTF-8 byte");
        }
        for (j = 1; j <= need; j++) {
            if (i + j >= n || (s[i + j] & 0xc0) != 0x80)
                return bad_byte(c, i,
                                "invalid UTF-8 sequence starting with "
                                "byte");
            cp = (cp << 6) | (s[i + j] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return bad_byte(c, i, "invalid UTF-8 sequence starting with byte");
        i += need + 1;
    }
    return QN_OK;
}

static int index_lines(ctx *c)
{
    size_t i, n = 1;

    for (i = 0; i < c->len; i++)
        n += c->buf[i] == '\n';
    if (!(c->lines = QN_ALLOCN(n, size_t)))
        return qn_err_nomem(c->err);
    c->nlines = 0;
    c->lines[c->nlines++] = 0;
    for (i = 0; i < c->len; i++)
        if (c->buf[i] == '\n')
            c->lines[c->nlines++] = i + 1;
    return QN_OK;
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
static int scalar_origins(ctx *c, node *n, const yaml_event_t *ev)
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
            return QN_OK;
        if (!(n->origins = QN_ALLOC(qn_mark)))
            return qn_err_nomem(c->err);
        n->norigins = 1;
        n->origins[0] = mk(s);
        n->origins[0].col += q ? 1 : 0;
        return QN_OK;
    }
    if (style != YAML_LITERAL_SCALAR_STYLE)
        return QN_OK;
    ch = byte_at(c, s.line, s.column + 1);
    if (ch >= '1' && ch <= '9')
        return QN_OK; /* explicit indentation indicator */
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
    if (!(n->origins = QN_ALLOCN(nl, qn_mark)))
        return qn_err_nomem(c->err);
    n->norigins = nl;
    for (i = 0; i < nl; i++) {
        n->origins[i].line = (int)(s.line + 2 + i);
        n->origins[i].col = (int)indent + 1;
    }
    return QN_OK;
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
    if (p->error == YAML_MEMORY_ERROR)
        return qn_err_nomem(c->err);
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

/* The tree as it is built: the collections still open, innermost last. */
typedef struct build {
    node *stack[QN_RULES_MAX_DEPTH + 1];
    int depth;
    node *root;
    int ndocs, done; /* documents started; the stream has ended */
    long nevents;
    int marked; /* the kind's marker key was read at the top level */
} build;

/* Attach a finished node to its parent (or make it the root), rejecting
 * non-scalar and duplicate mapping keys, and unknown keys of the top
 * mapping. Takes ownership of n. */
static int attach(ctx *c, build *b, node *n)
{
    node *p;
    const node *first;
    int depth = b->depth;

    if (depth == 0) {
        b->root = n;
        return QN_OK;
    }
    p = b->stack[depth - 1];
    if (p->type == N_MAP && p->nkids % 2 == 0) {
        if (depth == 1 && c->kind->marker && n->type == N_SCALAR &&
            !strcmp(n->val, c->kind->marker))
            b->marked = 1;
        if (n->type != N_SCALAR) {
            qn_mark m = n->mark;
            qn_rules__node_free(n);
            return syn(c, m,
                       "mapping keys must be strings or numbers, "
                       "not collections");
        }
        if ((first = qn_rules__node_find_key(p, n)) != NULL) {
            int rc = syn(c, n->mark, "duplicate key '%.60s' (first on line %d)",
                         n->val, first->mark.line);
            qn_rules__node_free(n);
            return rc;
        }
        if (qn_rules__node_add_key(p, n) != QN_OK) {
            qn_rules__node_free(n);
            return qn_err_nomem(c->err);
        }
        return QN_OK;
    }
    if (depth == 1 && p->type == N_MAP) {
        /* as its value starts (its anchor or tag refused first), not once
         * the tree is built: junk under an unknown key is never read */
        int rc = c->kind->top_key(p->kids[p->nkids - 1], c->err);
        if (rc != QN_OK) {
            qn_rules__node_free(n);
            return rc;
        }
    }
    if (qn_rules__node_add(p, n) != QN_OK) {
        qn_rules__node_free(n);
        return qn_err_nomem(c->err);
    }
    return QN_OK;
}

/* A scalar event as a node of the tree. */
static int add_scalar(ctx *c, build *b, const yaml_event_t *ev)
{
    yaml_scalar_style_t style = ev->data.scalar.style;
    node *n;

    /* "\0" escapes would cut C strings short: refuse them. */
    if (memchr(ev->data.scalar.value, 0, ev->data.scalar.length))
        return syn(c, mk(ev->start_mark), "NUL character in a string");
    if (!(n = QN_ALLOC(node)))
        return qn_err_nomem(c->err);
    n->type = N_SCALAR;
    n->mark = mk(ev->start_mark);
    n->len = ev->data.scalar.length;
    n->plain = style == YAML_PLAIN_SCALAR_STYLE;
    n->quoted = style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
                style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
    if (!(n->val = qn_memdup(ev->data.scalar.value, n->len + 1)) ||
        scalar_origins(c, n, ev) != QN_OK) {
        qn_rules__node_free(n);
        return qn_err_nomem(c->err);
    }
    return attach(c, b, n);
}

/* A sequence or mapping starts: its node is attached and left open. */
static int open_collection(ctx *c, build *b, const yaml_event_t *ev)
{
    node *n;
    int rc;

    if (b->depth >= QN_RULES_MAX_DEPTH)
        return syn(c, mk(ev->start_mark),
                   "nesting deeper than %d "
                   "levels",
                   QN_RULES_MAX_DEPTH);
    if (!(n = QN_ALLOC(node)))
        return qn_err_nomem(c->err);
    n->type = ev->type == YAML_MAPPING_START_EVENT ? N_MAP : N_SEQ;
    n->mark = mk(ev->start_mark);
    /* Attach first so the tree owns it whatever happens next. */
    if ((rc = attach(c, b, n)) == QN_OK)
        b->stack[b->depth++] = n;
    return rc;
}

/* One event into the tree, under the limits. */
static int take_event(ctx *c, build *b, const yaml_event_t *ev)
{
    int rc;

    if (++b->nevents > QN_RULES_MAX_EVENTS)
        return syn(c, mk(ev->start_mark),
                   "more than %d YAML events (the "
                   "limit)",
                   QN_RULES_MAX_EVENTS);
    if ((rc = check_props(c, ev)) != QN_OK)
        return rc;
    switch (ev->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (++b->ndocs > 1)
            return syn(c, mk(ev->start_mark),
                       "multiple documents are not "
                       "supported");
        break;
    case YAML_STREAM_END_EVENT:
        b->done = 1;
        break;
    case YAML_ALIAS_EVENT:
        return syn(c, mk(ev->start_mark),
                   "aliases are not supported "
                   "('*%s')",
                   (const char *)ev->data.alias.anchor);
    case YAML_SCALAR_EVENT:
        return add_scalar(c, b, ev);
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
        return open_collection(c, b, ev);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        b->depth--;
        break;
    default:
        break;
    }
    return QN_OK;
}

/*
 * Does the text have the kind's marker as a key of its top mapping? The
 * events from the start, under the event limit, nothing built or checked:
 * no until the stream ends, the limit passes or libyaml fails; -1 when
 * libyaml ran out of memory.
 */
static int has_marker(const ctx *c)
{
    yaml_parser_t p;
    yaml_event_t ev;
    int depth = 0, map = 0, key = 0, found = 0, end = 0;
    long nevents = 0;

    if (!yaml_parser_initialize(&p))
        return -1;
    yaml_parser_set_input_string(&p, (const unsigned char *)c->buf, c->len);
    yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
    while (!found && !end && ++nevents <= QN_RULES_MAX_EVENTS &&
           yaml_parser_parse(&p, &ev)) {
        int at_top = depth == 1 && map;
        switch (ev.type) {
        case YAML_STREAM_END_EVENT:
        case YAML_DOCUMENT_END_EVENT: /* the first document only */
            end = 1;
            break;
        case YAML_MAPPING_START_EVENT:
        case YAML_SEQUENCE_START_EVENT:
            if (depth == 0)
                map = ev.type == YAML_MAPPING_START_EVENT, key = 1;
            else if (at_top)
                key = !key;
            depth++;
            break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT:
            depth--;
            break;
        case YAML_SCALAR_EVENT:
            found =
                at_top && key &&
                !strcmp((const char *)ev.data.scalar.value, c->kind->marker);
            /* fall through */
        case YAML_ALIAS_EVENT:
            if (at_top)
                key = !key;
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
    }
    if (!found && !end && p.error == YAML_MEMORY_ERROR)
        found = -1;
    yaml_parser_delete(&p);
    return found;
}

/*
 * When libyaml fails before it could tell (its reader refuses a control
 * character before the first event): a line that starts with the marker
 * as a key ("quench:", quoted or not, or after a flow mapping's "{").
 */
static int has_marker_line(const ctx *c)
{
    size_t m = strlen(c->kind->marker);

    for (size_t l = 0; l < c->nlines; l++) {
        const char *p = c->buf + c->lines[l], *end = c->buf + c->len;
        char q = 0;
        if (p < end && *p == '{')
            while (++p < end && (*p == ' ' || *p == '\t'))
                ;
        if (p < end && (*p == '"' || *p == '\''))
            q = *p++;
        if ((size_t)(end - p) < m + 1 || memcmp(p, c->kind->marker, m))
            continue;
        p += m;
        if (q && *p++ != q)
            continue;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (p < end && *p == ':')
            return 1;
    }
    return 0;
}

/* An error found before the marker was read (rc): the file's own, when it
 * has the marker after all; else only "not a rule file", unlocated. */
static int unmarked(ctx *c, int rc)
{
    int has = has_marker(c);

    if (has < 0)
        return qn_err_nomem(c->err);
    if (has || has_marker_line(c))
        return rc;
    return qn_err_set(c->err, QN_EINVAL, 0, 0, "%s", c->kind->not_marked);
}

static int parse_tree(ctx *c, node **root_out)
{
    yaml_parser_t p;
    yaml_event_t ev;
    build b;
    int rc = QN_OK;

    *root_out = NULL;
    memset(&b, 0, sizeof(b));
    if (!yaml_parser_initialize(&p))
        return qn_err_nomem(c->err);
    yaml_parser_set_input_string(&p, (const unsigned char *)c->buf, c->len);
    yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
    while (!b.done) {
        if (!yaml_parser_parse(&p, &ev)) {
            rc = parser_error(c, &p);
            break;
        }
        rc = take_event(c, &b, &ev);
        yaml_event_delete(&ev);
        if (rc != QN_OK)
            break;
    }
    yaml_parser_delete(&p);
    if (rc != QN_OK && rc != QN_ENOMEM && c->kind->marker && !b.marked)
        rc = unmarked(c, rc);
    if (rc != QN_OK) {
        qn_rules__node_free(b.root);
        return rc;
    }
    *root_out = b.root;
    return QN_OK;
}

/* ------------------------------------------------------------------ */
/* Entry points */

int qn_rules__yaml_tree(node **out, const char *text, size_t len,
                        const qn_rules_yaml_kind *kind, qn_err *err)
{
    ctx c = {text, len, NULL, 0, kind, err, 0};
    qn_mark one = {1, 1};
    int rc;

    *out = NULL;
    /* A UTF-8 byte order mark is allowed and skipped (libyaml keeps it
     * when the encoding is forced); positions count from after it. */
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
        c.buf += 3;
        c.len -= 3;
    }
    rc = prescan(&c);
    if (index_lines(&c) != QN_OK)
        return QN_ENOMEM;
    /* a byte no rule file may hold, in a file without a 'quench:' line:
     * neither the byte nor its place is said (unmarked) */
    if (rc != QN_OK && c.at_byte && kind->marker && !has_marker_line(&c))
        rc = qn_err_set(err, QN_EINVAL, 0, 0, "%s", kind->not_marked);
    if (rc == QN_OK)
        rc = parse_tree(&c, out);
    free(c.lines);
    if (rc == QN_OK && !*out)
        rc = qn_rules__fail(err, one, "%s", kind->empty);
    return rc;
}

int qn_rules_parse_yaml(qn_rules_spec *spec, const char *text, size_t len,
                        qn_err *err)
{
    static const qn_rules_yaml_kind rule_file = {
        "rule files",
        "file is empty: expected a mapping starting with "
        "'quench: 1'",
        qn_rules__check_top_key, "quench",
        "not a rule file: it has no 'quench' key (a rule file is a mapping "
        "starting with 'quench: 1'); nothing of it is quoted"};
    node *root;
    int rc = qn_rules__yaml_tree(&root, text, len, &rule_file, err);

    if (rc == QN_OK)
        rc = qn_rules__spec_from_tree(spec, root, err);
    qn_rules__node_free(root);
    return rc;
}

/* libyaml's version, for `quench --version` (declared in version.h: each
 * third-party version comes from the file that wraps the library). */
const char *qn_version_yaml(void)
{
    return yaml_get_version_string();
}
