/*
 * rules_load.c: reading a rule file or buffer into a qn_rules, or into a
 * big-grid rule when the board is past the dense model; the file limits
 * and the source name of every error (recipe.c reads recipes the same way).
 */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "rules_internal.h"

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
    if (rc == QN_OK && (rc = qn_rules__keep_text(*out, text, len, err))) {
        qn_rules_free(*out);
        *out = NULL;
    }
    qn_rules_spec_release(&spec);
    return rc;
}

/* A rule file or recipe is a regular file (or "-", stdin): a FIFO or a
 * device is refused at once, never waited on (file.h). A bigger file is
 * the same syntax error as a bigger buffer (see rules_yaml.c): reading
 * stops one byte past the limit, so an endless stdin is refused at
 * once. */
int qn_rules__read_file(const char *path, char **buf_out, size_t *len_out,
                        qn_err *err)
{
    int rc =
        qn_file_read_regular(buf_out, len_out, path, QN_RULES_MAX_FILE, err);

    if (rc == QN_ELIMIT)
        return qn_err_set(err, QN_ESYNTAX, 0, 0,
                          "file is larger than %d bytes (the limit)",
                          QN_RULES_MAX_FILE);
    return rc;
}

const char *qn_rules__source_name(const char *path)
{
    return strcmp(path, "-") ? path : "<stdin>";
}

int qn_rules_load_file(qn_rules **out, const char *path, qn_err *err)
{
    char *buf;
    size_t len;
    int rc;

    *out = NULL;
    if ((rc = qn_rules__read_file(path, &buf, &len, err)) != QN_OK)
        return rc;
    rc = qn_rules_load_buf(out, buf, len, qn_rules__source_name(path), err);
    free(buf);
    return rc;
}

int qn_rules_read_spec(qn_rules_spec *spec, const char *path, qn_err *err)
{
    char *buf;
    size_t len;
    int rc;

    if ((rc = qn_rules__read_file(path, &buf, &len, err)) != QN_OK)
        return rc;
    rc = qn_rules_parse_yaml(spec, buf, len, err);
    if (rc != QN_OK)
        qn_err_source(err, qn_rules__source_name(path));
    free(buf);
    return rc;
}

/* The error that stopped a load with a list: kept too when it is not the
 * list's first (an error that stops comes after those kept before it);
 * every entry named by the source, the first again in err. */
static void all_errors(const qn_rules_spec *spec, qn_err *err,
                       const char *source)
{
    qn_rules_errs *l = spec->errs;

    if (!l->n || l->e[0].line != err->line || l->e[0].col != err->col ||
        strcmp(l->e[0].msg, err->msg) != 0) {
        qn_err e = *err;
        qn_rules__keep(spec, &e);
        qn_rules__kept(spec, err);
    }
    for (size_t i = 0; i < l->n; i++)
        qn_err_source(&l->e[i], source);
    qn_err_source(err, source);
}

int qn_rules_load_sized(qn_rules **dense_out, qn_grid_rule *grid_out,
                        const char *path, int w, int h, qn_err *err)
{
    return qn_rules_load_sized_all(dense_out, grid_out, path, w, h, NULL, err);
}

int qn_rules_load_sized_all(qn_rules **dense_out, qn_grid_rule *grid_out,
                            const char *path, int w, int h, qn_rules_errs *errs,
                            qn_err *err)
{
    const char *source = qn_rules__source_name(path);
    qn_rules_spec spec;
    char *buf;
    size_t len;
    int rc;

    *dense_out = NULL;
    memset(grid_out, 0, sizeof(*grid_out));
    if ((rc = qn_rules__read_file(path, &buf, &len, err)) != QN_OK)
        return rc;
    qn_rules_spec_init(&spec);
    spec.errs = errs;
    rc = qn_rules_parse_yaml(&spec, buf, len, err);
    if (rc != QN_OK) {
        qn_err_source(err, source);
    } else if (qn_rules_spec_is_big(&spec, w, h)) {
        rc = qn_rules_grid(grid_out, &spec, w, h, source, err);
        /* the header's errors were kept, not returned */
        if (rc == QN_OK && (rc = qn_rules__kept(&spec, err)) != QN_OK) {
            qn_grid_rule_release(grid_out);
            qn_err_source(err, source);
        }
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
        if (rc == QN_OK &&
            (rc = qn_rules__keep_text(*dense_out, buf, len, err))) {
            qn_rules_free(*dense_out);
            *dense_out = NULL;
        }
    }
    if (rc != QN_OK && errs && err)
        all_errors(&spec, err, source);
    qn_rules_spec_release(&spec);
    free(buf);
    return rc;
}
