/*
 * json_scan.c: a JSON text walked without parsing it (export_internal.h):
 * json_pack.c reads a quench-pack document's top-level object and its
 * "rules" and "puzzles" arrays through it, byte by byte, and hands every
 * other byte, inside a member's key or value or an array element, to
 * jansson, so that the document is checked whole, in pieces. Nothing
 * here allocates.
 */
#include <string.h>

#include "base/json_depth.h"
#include "export_internal.h"

/* 1-based line and column of byte off, columns in characters (UTF-8
 * continuation bytes do not count), as jansson counts them. */
void qn_export__line_col(const char *text, size_t off, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n')
            (*line)++, *col = 1;
        else if (((unsigned char)text[i] & 0xc0) != 0x80)
            (*col)++;
    }
}

int qn_export__json_depth(const char *text, size_t len, qn_err *err)
{
    size_t at = qn_json_too_deep(text, len, QN_PACK_MAX_DEPTH);
    int line, col;

    if (at == len)
        return QN_OK;
    qn_export__line_col(text, at, &line, &col);
    return qn_err_set(err, QN_ELIMIT, line, col,
                      "JSON nested deeper than %d levels", QN_PACK_MAX_DEPTH);
}

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

size_t qn_export__json_ws(const qn_export__text *t, size_t i)
{
    while (i < t->len && is_ws(t->s[i]))
        i++;
    return i;
}

/* QN_ESYNTAX "invalid JSON: ..." at byte off (the end: "near end of
 * file"). */
int qn_export__json_syntax(const qn_export__text *t, size_t off,
                           const char *what, qn_err *err)
{
    int line, col;

    qn_export__line_col(t->s, off, &line, &col);
    if (off >= t->len)
        return qn_err_set(err, QN_ESYNTAX, line, col,
                          "invalid JSON: %s near end of file", what);
    return qn_err_set(err, QN_ESYNTAX, line, col, "invalid JSON: %s near '%c'",
                      what, t->s[off]);
}

/*
 * Past the value that starts at byte i, counting its JSON values into
 * *nvalues: a string to its closing quote, an array or object to its
 * matching bracket, anything else to the next delimiter. Whether it is
 * valid JSON is jansson's to say when it parses the span; here a value
 * can only be missing (QN_ESYNTAX). Values are counted exactly for valid
 * JSON: strings, scalars and brackets opened, less the keys (one per ':').
 * A string or container the text ends inside is a syntax error here.
 */
int qn_export__json_value(const qn_export__text *t, size_t i, size_t *end,
                          size_t *nvalues, qn_err *err)
{
    const char *s = t->s;
    size_t depth = 0, starts = 0, keys = 0;
    char prev = ',';
    int in_str = 0;

    if (i >= t->len || strchr(",:]}", s[i]))
        return qn_export__json_syntax(t, i, "a value expected", err);
    for (; i < t->len; i++) {
        char c = s[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = 0;
            if (in_str || depth)
                continue;
            i++;
            break; /* a string value ends */
        }
        if (is_ws(c)) {
            if (!depth)
                break;
            continue;
        }
        if (c == '"') {
            in_str = 1, starts++;
        } else if (c == '[' || c == '{') {
            depth++, starts++;
        } else if (c == ']' || c == '}') {
            if (!depth)
                break; /* the end of the container around a scalar */
            if (--depth == 0) {
                i++;
                break;
            }
        } else if (c == ':') {
            keys++;
        } else if (c == ',') {
            if (!depth)
                break;
        } else if (strchr("[{,:", prev)) {
            starts++; /* a number, true, false or null begins */
        }
        prev = c;
    }
    if (in_str || depth) /* the text ends inside the value */
        return qn_export__json_syntax(
            t, t->len,
            in_str ? "string not closed" : "array or object not closed", err);
    *end = i;
    *nvalues = starts > keys ? starts - keys : 1;
    return QN_OK;
}

/*
 * The elements of the array at sp, one at a time: each call puts the
 * next element's span in *el and returns 1, or 0 after the last; a
 * negative code (err set) at a syntax error of the array itself or an
 * element past QN_PACK_MAX_VALUES (`what` names it: "rule", "puzzle").
 * *pos is the walk's state, sp.at to begin.
 */
int qn_export__json_element(const qn_export__text *t, qn_export__span sp,
                            size_t *pos, qn_export__span *el, size_t index,
                            const char *what, qn_err *err)
{
    size_t i = *pos, n;
    int rc;

    if (i == sp.at) { /* '[' */
        i = qn_export__json_ws(t, i + 1);
        if (i < sp.end && t->s[i] == ']')
            return *pos = sp.end, 0;
    } else if (i >= sp.end) {
        return 0;
    } else { /* after an element */
        i = qn_export__json_ws(t, i);
        if (i < sp.end && t->s[i] == ']')
            return *pos = sp.end, 0;
        if (i >= sp.end || t->s[i] != ',')
            return qn_export__json_syntax(t, i, "',' or ']' expected", err);
        i = qn_export__json_ws(t, i + 1);
    }
    el->at = i;
    if ((rc = qn_export__json_value(t, i, &el->end, &n, err)))
        return rc;
    if (n > QN_PACK_MAX_VALUES) {
        int line, col;
        qn_export__line_col(t->s, i, &line, &col);
        return qn_err_set(err, QN_ELIMIT, line, col,
                          "%s %zu has more than %d JSON values", what, index,
                          QN_PACK_MAX_VALUES);
    }
    *pos = el->end;
    return 1;
}

/* How many elements the array at sp has, checking its skeleton and each
 * element's size on the way (the first numbered `first`), up to max: past
 * it QN_ELIMIT "more than max WHATs". */
int qn_export__json_count(const qn_export__text *t, qn_export__span sp,
                          const char *what, size_t first, size_t max,
                          size_t *count, qn_err *err)
{
    size_t pos = sp.at, n = 0;
    qn_export__span el;
    int rc;

    while ((rc = qn_export__json_element(t, sp, &pos, &el, first + n, what,
                                         err)) == 1)
        if (++n > max)
            return qn_err_set(err, QN_ELIMIT, 0, 0, "more than %zu %ss", max,
                              what);
    *count = n;
    return rc;
}
