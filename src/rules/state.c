/*
 * state.c: parsing and formatting the one-character-per-cell state text
 * (format in state.h). Every parse error points at a 1-based line:col.
 */
#include "rules/state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/text.h"

enum tok_kind { T_END, T_SEP, T_VALUE, T_HOLE, T_BAD };

typedef struct tok {
    enum tok_kind kind;
    int line, col;   /* 1-based start of the token */
    unsigned value;  /* T_VALUE; saturates at 256: no colour is that big */
    char text[40];   /* the token as written (shortened), for messages */
    const char *why; /* T_BAD: the whole message, when not "bad <text>" */
} tok;

typedef struct lexer {
    const char *s;
    size_t len, i;
    int line, col; /* position of s[i] */
} lexer;

static void advance(lexer *x)
{
    if (x->s[x->i] == '\n') {
        x->line++;
        x->col = 1;
    } else {
        x->col++;
    }
    x->i++;
}

static int digit_value(int ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'Z')
        return ch - 'A' + 10;
    return -1;
}

static void next(lexer *x, tok *t)
{
    unsigned char ch;

    while (x->i < x->len &&
           (x->s[x->i] == ' ' || x->s[x->i] == '\t' || x->s[x->i] == '\r'))
        advance(x);
    t->line = x->line;
    t->col = x->col;
    t->text[0] = '\0';
    t->why = NULL;
    if (x->i >= x->len) {
        t->kind = T_END;
        return;
    }
    ch = (unsigned char)x->s[x->i];
    if (ch == '/' || ch == '\n') {
        t->kind = T_SEP;
        advance(x);
        return;
    }
    if (ch == '.') {
        t->kind = T_HOLE;
        strcpy(t->text, ".");
        advance(x);
        return;
    }
    if (ch == '(') {
        /* "(NNN)": a decimal value, for moduli above 36. Any number of
         * digits is read, so a value too big is reported as one. */
        size_t start = x->i, nd;
        unsigned v = 0;
        advance(x);
        while (x->i < x->len && x->s[x->i] >= '0' && x->s[x->i] <= '9') {
            v = v * 10 + (unsigned)(x->s[x->i] - '0');
            if (v > 256)
                v = 256;
            advance(x);
        }
        nd = x->i - start - 1;
        t->kind = T_BAD;
        if (nd == 0) {
            t->why = "'(' must be followed by a decimal value and ')'";
            return;
        }
        if (x->i >= x->len || x->s[x->i] != ')') {
            t->why = "a decimal value in '(' has no closing ')'";
            return;
        }
        advance(x);
        t->kind = T_VALUE;
        t->value = v;
        if (nd + 2 < sizeof(t->text))
            snprintf(t->text, sizeof(t->text), "%.*s", (int)nd + 2,
                     x->s + start);
        else
            snprintf(t->text, sizeof(t->text), "%.*s...)",
                     (int)sizeof(t->text) - 6, x->s + start);
        return;
    }
    if (digit_value(ch) >= 0) {
        t->kind = T_VALUE;
        t->value = (unsigned)digit_value(ch);
        t->text[0] = (char)ch;
        t->text[1] = '\0';
        advance(x);
        return;
    }
    t->kind = T_BAD;
    if (ch >= 0x21 && ch < 0x7f)
        snprintf(t->text, sizeof(t->text), "character '%c'", ch);
    else
        snprintf(t->text, sizeof(t->text), "byte 0x%02x", ch);
    advance(x);
}

/* Positions left in the current row from the lexer's position (for the
 * "row has N characters" message); the lexer is a copy. */
static int rest_of_row(lexer x)
{
    tok t;
    int n = 0;

    for (;;) {
        next(&x, &t);
        if (t.kind == T_END || t.kind == T_SEP)
            return n;
        n++;
    }
}

/* Rows between the first and the last position, counting empty ones. */
static int count_rows(lexer x)
{
    tok t;
    int rows = 0, seps = 0, seen = 0;

    for (;;) {
        next(&x, &t);
        if (t.kind == T_END)
            return rows;
        if (t.kind == T_SEP) {
            seps += seen;
            continue;
        }
        if (!seen)
            rows = 1;
        seen = 1;
        rows += seps;
        seps = 0;
    }
}

/* A '.' or a value at (row, c), where the board has cell `cell` (-1 for a
 * hole): '.' only on a hole, a value only on a cell and below k. */
static int check_place(const tok *t, int cell, int row, int c, unsigned k,
                       qn_err *err)
{
    if (t->kind == T_HOLE && cell >= 0)
        return qn_err_set(err, QN_ESYNTAX, t->line, t->col,
                          "'.' at row %d, col %d but the board has a "
                          "cell there",
                          row, c);
    if (t->kind == T_VALUE && cell < 0)
        return qn_err_set(err, QN_ESYNTAX, t->line, t->col,
                          "'%s' at row %d, col %d but the board has a "
                          "hole there (write '.')",
                          t->text, row, c);
    if (t->kind != T_VALUE || t->value < k)
        return QN_OK;
    /* too big: said the way it was written */
    if (t->text[0] >= '0' && t->text[0] <= '9')
        return qn_err_set(err, QN_ESYNTAX, t->line, t->col,
                          "value '%s' must be less than "
                          "colours (%u)",
                          t->text, k);
    if (t->text[0] == '(')
        return qn_err_set(err, QN_ESYNTAX, t->line, t->col,
                          "value %s must be less than colours "
                          "(%u)",
                          t->text, k);
    return qn_err_set(err, QN_ESYNTAX, t->line, t->col,
                      "value '%s' (%u) must be less than "
                      "colours (%u)",
                      t->text, t->value, k);
}

int qn_state_parse(uint8_t *cells_out, const qn_layout *l, unsigned k,
                   const char *text, size_t len, qn_err *err)
{
    lexer x = {text, len, 0, 1, 1};
    tok t;
    int row = 0, c = 0, started = 0, cell, end_line = 1, end_col = 1, rc;
    int empty_line = 0, empty_col = 0, nrows = count_rows(x);

    for (;;) {
        next(&x, &t);
        if (t.kind == T_END)
            break;
        if (t.kind == T_SEP) {
            if (!started)
                continue;
            if (c > 0 && c < l->w)
                return qn_err_set(
                    err, QN_ESYNTAX, t.line, t.col,
                    "row %d has %d %s, board rows have %d", row, c,
                    qn_plural((uint64_t)c, "character", "characters"), l->w);
            if (c == 0 && !empty_line) {
                empty_line = t.line; /* an empty row: fatal if more follow */
                empty_col = t.col;
            }
            if (c == l->w) {
                row++;
                c = 0;
            }
            continue;
        }
        if (empty_line)
            return qn_err_set(err, QN_ESYNTAX, empty_line, empty_col,
                              "row %d is empty", row);
        started = 1;
        if (t.kind == T_BAD && t.why)
            return qn_err_set(err, QN_ESYNTAX, t.line, t.col, "%s", t.why);
        if (t.kind == T_BAD)
            return qn_err_set(err, QN_ESYNTAX, t.line, t.col, "bad %s in state",
                              t.text);
        if (row >= l->h)
            return qn_err_set(err, QN_ESYNTAX, t.line, t.col,
                              "state has %d %s, board has %d", nrows,
                              qn_plural((uint64_t)nrows, "row", "rows"), l->h);
        if (c >= l->w)
            return qn_err_set(err, QN_ESYNTAX, t.line, t.col,
                              "row %d has %d characters, board rows have %d",
                              row, l->w + 1 + rest_of_row(x), l->w);
        cell = l->index[row * l->w + c];
        if ((rc = check_place(&t, cell, row, c, k, err)) != QN_OK)
            return rc;
        if (t.kind == T_VALUE)
            cells_out[cell] = (uint8_t)t.value;
        c++;
        end_line = x.line;
        end_col = x.col;
    }
    if (!started)
        return qn_err_set(err, QN_ESYNTAX, 1, 1,
                          "state is empty, board has %d %s", l->h,
                          qn_plural((uint64_t)l->h, "row", "rows"));
    if (c > 0 && c < l->w)
        return qn_err_set(err, QN_ESYNTAX, end_line, end_col,
                          "row %d has %d %s, board rows have %d", row, c,
                          qn_plural((uint64_t)c, "character", "characters"),
                          l->w);
    if (row + (c == l->w) < l->h)
        return qn_err_set(err, QN_ESYNTAX, end_line, end_col,
                          "state has %d %s, board has %d", nrows,
                          qn_plural((uint64_t)nrows, "row", "rows"), l->h);
    return QN_OK;
}

size_t qn_state_format_max(const qn_layout *l)
{
    /* a character a position, h - 1 separators, "(NNN)" for big values */
    return (size_t)l->w * (size_t)l->h + (size_t)l->h + 4 * (size_t)l->ncells;
}

char *qn_state_put_value(char *dst, uint8_t v)
{
    static const char digit[] = "0123456789abcdefghijklmnopqrstuvwxyz";

    if (v < 36) {
        *dst++ = digit[v];
        return dst;
    }
    *dst++ = '(';
    if (v >= 100)
        *dst++ = (char)('0' + v / 100);
    *dst++ = (char)('0' + v / 10 % 10);
    *dst++ = (char)('0' + v % 10);
    *dst++ = ')';
    return dst;
}

char *qn_state_put(char *dst, const qn_layout *l, const uint8_t *cells,
                   char sep)
{
    const int *index = l->index;
    int r, c, i;

    for (r = 0; r < l->h; r++, index += l->w) {
        if (r > 0)
            *dst++ = sep;
        for (c = 0; c < l->w; c++) {
            i = index[c];
            if (i < 0)
                *dst++ = '.';
            else
                dst = qn_state_put_value(dst, cells[i]);
        }
    }
    return dst;
}

void qn_state_format(qn_buf *out, const qn_layout *l, const uint8_t *cells,
                     char sep)
{
    char *end;

    if (qn_buf_grow(out, qn_state_format_max(l)))
        return;
    end = qn_state_put(out->buf + out->len, l, cells, sep);
    out->len = (size_t)(end - out->buf);
    out->buf[out->len] = '\0';
}

void qn_state_format_zero(qn_buf *out, const qn_layout *l)
{
    uint8_t *zero = QN_ALLOCN(l->ncells ? (size_t)l->ncells : 1, uint8_t);

    if (!zero) {
        qn_buf_fail(out);
        return;
    }
    qn_state_format(out, l, zero, '/');
    free(zero);
}
