/*
 * submit_cells.c: what every submission format checks a value with: clean
 * bytes (no NUL, valid UTF-8), the line:col of a byte, a string of cell
 * values (the state text format, or a flat digit string), a record's rule
 * hash, and the names of fields quench does not read.
 */
#include "submit_internal.h"

#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "rules/state.h"

size_t qn_submit__check_bytes(const char *s, size_t len, const char **what_out)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;

    while (i < len) {
        unsigned c = p[i];
        size_t n, j;
        unsigned cp;
        if (c >= 0x01 && c < 0x80) {
            i++;
            continue;
        }
        if (c == 0) {
            *what_out = "NUL byte";
            return i;
        }
        if (c >= 0xc2 && c <= 0xdf) {
            n = 1;
            cp = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 2;
            cp = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 3;
            cp = c & 0x07;
        } else {
            break;
        }
        if (i + n >= len)
            break; /* truncated sequence */
        for (j = 1; j <= n; j++) {
            if ((p[i + j] & 0xc0) != 0x80)
                break;
            cp = (cp << 6) | (p[i + j] & 0x3f);
        }
        if (j <= n)
            break;
        if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
            cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            break;
        i += n + 1;
    }
    if (i < len)
        *what_out = "invalid UTF-8";
    return i;
}

void qn_submit__pos(const char *text, size_t off, int line, int col,
                    int *line_out, int *col_out)
{
    long long ln = line, cl = col;
    size_t i;

    for (i = 0; i < off; i++) {
        if (text[i] == '\n') {
            ln++;
            cl = 1;
        } else {
            cl++;
        }
    }
    *line_out = qn_submit__clamp(ln);
    *col_out = qn_submit__clamp(cl);
}

/* Base-36 digit value, or -1. */
static int digit36(unsigned char ch)
{
    unsigned v = (unsigned)ch - '0';

    if (v <= 9)
        return (int)v;
    v = (unsigned)(ch | 0x20) - 'a';
    return v <= 25 ? (int)v + 10 : -1;
}

/* The byte offset of 1-based (line, col) within s. */
static size_t offset_of(const char *s, size_t n, int line, int col)
{
    size_t i = 0;

    while (line > 1 && i < n) {
        if (s[i++] == '\n')
            line--;
    }
    i += col > 0 ? (size_t)col - 1 : 0;
    return i < n ? i : n;
}

int qn_submit__cells_str(uint8_t *out, const qn_layout *l, unsigned k,
                         int flat_ok, const char *s, size_t n, size_t *bad_off,
                         qn_err *err)
{
    qn_err e = QN_ERR_INIT;
    size_t i, digits = 0;
    int flat = flat_ok;

    /* A flat string: only digits and blanks, no row structure. */
    for (i = 0; flat && i < n; i++) {
        if (digit36((unsigned char)s[i]) >= 0)
            digits++;
        else if (s[i] != ' ' && s[i] != '\t')
            flat = 0;
    }
    if (flat && (l->h > 1 || digits != (size_t)l->w)) {
        size_t c = 0;
        for (i = 0; i < n; i++) {
            int v = digit36((unsigned char)s[i]);
            if (v < 0)
                continue;
            if (c == (size_t)l->ncells) {
                *bad_off = i;
                return qn_err_set(
                    err, QN_ESYNTAX, 0, 0, "expected %d %s, got %zu", l->ncells,
                    qn_plural((uint64_t)l->ncells, "cell", "cells"), digits);
            }
            if ((unsigned)v >= k) {
                *bad_off = i;
                return qn_err_set(err, QN_ESYNTAX, 0, 0,
                                  "value '%c' must be less than colours "
                                  "(%u)",
                                  s[i], k);
            }
            out[c++] = (uint8_t)v;
        }
        if (c < (size_t)l->ncells) {
            *bad_off = n;
            return qn_err_set(
                err, QN_ESYNTAX, 0, 0, "expected %d %s, got %zu", l->ncells,
                qn_plural((uint64_t)l->ncells, "cell", "cells"), c);
        }
        return QN_OK;
    }
    if (qn_state_parse(out, l, k, s, n, &e) == QN_OK)
        return QN_OK;
    *bad_off = offset_of(s, n, e.line, e.col);
    return qn_err_set(err, e.code, 0, 0, "%s", e.msg);
}

/* ---- field names -------------------------------------------------------- */

/* The fields a record's unread names are compared with, for notes. */
static const char *const read_fields[] = {"id", "state", "solution",
                                          "min_presses", "rule"};
#define NREAD (sizeof(read_fields) / sizeof(read_fields[0]))

/* Edit distance, for short strings only (99 beyond). */
static size_t distance(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b), i, j, row[40], prev, tmp;

    if (la > 32 || lb > 32)
        return 99;
    for (j = 0; j <= lb; j++)
        row[j] = j;
    for (i = 1; i <= la; i++) {
        prev = row[0];
        row[0] = i;
        for (j = 1; j <= lb; j++) {
            size_t best = prev + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            tmp = row[j];
            row[j] = best;
            prev = tmp;
        }
    }
    return row[lb];
}

static char ascii_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

int qn_submit__same_name(const char *a, size_t n, const char *b)
{
    size_t i;

    if (strlen(b) != n)
        return 0;
    for (i = 0; i < n; i++)
        if (ascii_lower(a[i]) != ascii_lower(b[i]))
            return 0;
    return 1;
}

const char *qn_submit__suggest(const char *name, size_t n)
{
    size_t i, cn;

    for (i = 0; i < NREAD; i++) {
        cn = strlen(read_fields[i]);
        if (qn_submit__same_name(name, n, read_fields[i]))
            return read_fields[i];
        /* a prefix or an extension: "min_press", "states" */
        if (n >= 2 && memcmp(name, read_fields[i], n < cn ? n : cn) == 0)
            return read_fields[i];
    }
    /* a typo: one edit in a short name, two in a longer one ("grade" is
     * three from "state", and must not be taken for it) */
    for (i = 0; i < NREAD; i++)
        if (distance(name, n, read_fields[i]) <= (n <= 5 ? 1u : 2u))
            return read_fields[i];
    return NULL;
}

void qn_submit__note_field(qn_submit__rec *rec, const char *what,
                           const char *name, size_t n)
{
    const char *sug;

    if (rec->note[0] || !(sug = qn_submit__suggest(name, n)))
        return;
    snprintf(rec->note, sizeof(rec->note),
             "%s '%.*s' is kept as metadata, not read (did you mean "
             "'%s'?)",
             what, (int)(n > 64 ? 64 : n), name, sug);
}

int qn_submit__check_rule(const qn_submit__rec *rec, const char *v, size_t n,
                          qn_err *err)
{
    if (!rec->rule_hash || (n == 64 && memcmp(v, rec->rule_hash, 64) == 0))
        return QN_OK;
    return qn_err_set(err, QN_ESYNTAX, 0, 0,
                      "puzzle of rule '%.*s', not of the rules given (%s)",
                      (int)(n > 64 ? 64 : n), v, rec->rule_hash);
}
