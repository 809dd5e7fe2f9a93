/*
 * rules_check.c: the checks every compile step shares: an error at a file
 * position, positions inside a text value, slugs, amounts, and the header
 * of every rule file (version, name, texts, colours).
 */
#include "rules_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/text.h"

int qn_rules__fail(qn_err *err, qn_mark m, const char *fmt, ...)
{
    va_list ap;
    char msg[256];

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return qn_err_set(err, QN_EINVAL, m.line, m.col, "%s", msg);
}

void qn_rules_errs_release(qn_rules_errs *l)
{
    free(l->e);
    memset(l, 0, sizeof(*l));
}

int qn_rules_errs_add(qn_rules_errs *l, const qn_err *err)
{
    if (l->n == QN_RULES_MAX_ERRS) {
        l->more++;
        return QN_OK;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        qn_err *e = QN_REALLOCN(l->e, cap, qn_err);

        if (!e)
            return QN_ENOMEM;
        l->e = e, l->cap = cap;
    }
    l->e[l->n++] = *err;
    return QN_OK;
}

/* Out of memory is never kept: it ends the check like any other call. */
int qn_rules__keep(const qn_rules_spec *s, qn_err *err)
{
    if (!s->errs || !err || err->code == QN_ENOMEM)
        return 0;
    if (qn_rules_errs_add(s->errs, err) != QN_OK) {
        qn_err_nomem(err);
        return 0;
    }
    qn_err_clear(err);
    return 1;
}

static int by_place(const void *a, const void *b)
{
    const qn_err *x = a, *y = b;

    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->col < y->col ? -1 : x->col > y->col;
}

int qn_rules__kept(const qn_rules_spec *s, qn_err *err)
{
    qn_rules_errs *l = s->errs;

    if (!l || !l->n)
        return QN_OK;
    /* stable: errors at one place keep the order they were found in */
    for (size_t i = 1; i < l->n; i++)
        for (size_t j = i; j > 0 && by_place(&l->e[j - 1], &l->e[j]) > 0; j--) {
            qn_err t = l->e[j];
            l->e[j] = l->e[j - 1];
            l->e[j - 1] = t;
        }
    if (err)
        *err = l->e[0];
    return l->e[0].code;
}

/* Map a position inside a text value (line, col of the text) to the file. */
qn_mark qn_rules__text_pos(const qn_text_spec *t, int line, int col)
{
    qn_mark m = t->mark;

    if (t->origins && line >= 1 && (size_t)line <= t->norigins) {
        m = t->origins[line - 1];
        m.col += col - 1;
    }
    return m;
}

int qn_rules__is_slug(const char *s, size_t max)
{
    size_t i, n = strlen(s);

    if (n == 0 || n > max)
        return 0;
    if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9')))
        return 0;
    for (i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
              s[i] == '-' || s[i] == '_'))
            return 0;
    return 1;
}

int qn_rules__check_amount(long a, unsigned k, qn_mark m, qn_err *err)
{
    if (a < 1)
        return qn_rules__fail(err, m, "amount must be at least 1, got %ld", a);
    if (a >= (long)k)
        return qn_rules__fail(
            err, m, "amount %ld must be less than colours (%u)", a, k);
    return QN_OK;
}

/* The checks of a pack's texts (text.h): a description may span lines,
 * a title or author may not. */
int qn_rules__check_texts(const char *const texts[3], const qn_mark marks[3],
                          qn_err *err)
{
    static const char *const keys[3] = {"title", "description", "author"};
    qn_err why = QN_ERR_INIT;

    for (int i = 0; i < 3; i++)
        if (texts[i] &&
            qn_text_check(texts[i], QN_RULES_MAX_TEXT,
                          i == 1 ? QN_TEXT_LINES : 0, keys[i], &why) != QN_OK)
            return qn_rules__fail(err, marks[i], "%s", why.msg);
    return QN_OK;
}

/* The checks every rule file passes, whatever its board. */
int qn_rules__check_header(const qn_rules_spec *s, qn_err *err)
{
    const char *const texts[3] = {s->title, s->description, s->author};
    const qn_mark marks[3] = {s->title_mark, s->description_mark,
                              s->author_mark};
    int rc;

    if (!s->has_version)
        return qn_rules__fail(err, s->mark,
                              "missing 'quench: %d' (the schema version)",
                              QN_RULES_VERSION);
    if (s->version != QN_RULES_VERSION)
        return qn_rules__fail(err, s->version_mark,
                              "unsupported schema version %ld (this quench "
                              "reads %d)",
                              s->version, QN_RULES_VERSION);
    /* the name, the texts and the colours are apart: each error is kept
     * (qn_rules__keep) where the caller wants them all */
    rc = QN_OK;
    if (!s->name && !s->name_mark.line)
        rc = qn_rules__fail(err, s->mark, "missing 'name'");
    else if (!s->name)
        ; /* given but not a string: said where it was read */
    else if (!qn_rules__is_slug(s->name, QN_RULES_MAX_NAME))
        rc = qn_rules__fail(err, s->name_mark,
                            "name '%.64s' must be a slug of up to %d "
                            "lowercase letters, digits, '-' and '_'",
                            s->name, QN_RULES_MAX_NAME);
    if (rc != QN_OK && !qn_rules__keep(s, err))
        return rc;
    if ((rc = qn_rules__check_texts(texts, marks, err)) != QN_OK &&
        !qn_rules__keep(s, err))
        return rc;
    if (s->has_colours && (s->colours < 2 || s->colours > 255)) {
        rc = qn_rules__fail(err, s->colours_mark,
                            "colours must be 2..255, got %ld", s->colours);
        if (!qn_rules__keep(s, err))
            return rc;
    }
    return QN_OK;
}
