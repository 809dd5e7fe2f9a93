/*
 * rules_internal.h: what the files of the rules compiler share (rules.c
 * and the steps it calls, rules_grid.c for big grids, rules_schema.c, and
 * the recipe reader, which reads and checks its file the same way), not
 * part of the public API.
 */
#ifndef QN_RULES_INTERNAL_H
#define QN_RULES_INTERNAL_H

#include "rules/rules.h"

/* rules_check.c */

/* QN_EINVAL with the message at m; always returns QN_EINVAL. */
int qn_rules__fail(qn_err *err, qn_mark m, const char *fmt, ...)
    QN_PRINTF(3, 4);
/*
 * An error found reading or checking s (in err): with s->errs it is kept
 * there and err cleared, and 1 is returned, so the caller goes on;
 * without, 0 (the caller returns the error).
 */
int qn_rules__keep(const qn_rules_spec *s, qn_err *err);
/* Once everything is read or checked: the kept errors sorted into file
 * order, the first copied to err; its code, or QN_OK when none. */
int qn_rules__kept(const qn_rules_spec *s, qn_err *err);
/* Map a position inside a text value (line, col of the text) to the file. */
qn_mark qn_rules__text_pos(const qn_text_spec *t, int line, int col);
/* 1 if s is 1..max of [a-z0-9_-], starting with a letter or digit. */
int qn_rules__is_slug(const char *s, size_t max);
int qn_rules__check_amount(long a, unsigned k, qn_mark m, qn_err *err);
/* The title, description and author texts (NULL = absent) at their marks:
 * at most QN_RULES_MAX_TEXT bytes of safe UTF-8 (text.h), one line except
 * the description. */
int qn_rules__check_texts(const char *const texts[3], const qn_mark marks[3],
                          qn_err *err);
/* Version, name, texts and colours: the checks of every rule file. */
int qn_rules__check_header(const qn_rules_spec *s, qn_err *err);

/* rules_load.c */

/*
 * Read a whole file of at most QN_RULES_MAX_FILE bytes ("-" is stdin) into
 * *buf_out (malloc'd, NUL-terminated). QN_OK, or the codes of
 * qn_file_read_all with a larger file as QN_ESYNTAX at 1:1; err's source
 * is set either way.
 */
int qn_rules__read_file(const char *path, char **buf_out, size_t *len_out,
                        qn_err *err);
/* The source name of path in messages: "<stdin>" for "-". */
const char *qn_rules__source_name(const char *path);

/* rules.c: keep a copy of the YAML that r was loaded from (qn_rules_text),
 * so a caller that stores the rule need not read its file twice (standard
 * input cannot be). QN_OK or QN_ENOMEM (r unchanged). */
int qn_rules__keep_text(qn_rules *r, const char *text, size_t len, qn_err *err);

/* rules_board.c: the board section into *l (released by the caller). */
int qn_rules__build_layout(qn_layout *l, const qn_rules_spec *s, qn_err *err);

/* rules_stencil.c */

typedef struct qn_rules_off {
    int dx, dy;
    unsigned amount;
} qn_rules_off;

/*
 * A stencil (not rowcol) as offsets with amounts: named stencils exclude
 * the pressed cell and `self` (default true) adds it; lists are taken as
 * written. *out is malloc'd (the caller frees it).
 */
int qn_rules__expand(qn_rules_off **out, size_t *nout,
                     const qn_stencil_spec *st, const qn_rules_spec *s,
                     int is_hex, unsigned k, const char *what, qn_err *err);

/* rules_matrix.c: 'press' and 'effects' into a (n * n, zeroed, n = the
 * layout's cells; A[i * n + j] is what pressing j adds to i). */
int qn_rules__build_matrix(uint8_t *a, const qn_layout *l, unsigned k,
                           const qn_rules_spec *s, qn_err *err);
/* The class of a grid cell for per-class stencils: 0 interior, 1 edge,
 * 2 corner. */
int qn_rules__cell_class(const qn_layout *l, int r, int c);
/* The offset written for class cls's reference cell (the top-left corner,
 * a top edge cell) that becomes (*dx, *dy) at the cell (r, c) of that
 * class: the inverse of how a class stencil is oriented. */
void qn_rules__unorient(const qn_layout *l, int cls, int r, int c, int *dx,
                        int *dy);

/* rules_sym.c */

typedef struct qn_rules_group {
    int *syms;      /* nsyms * n: symmetry g sends cell c to syms[g * n + c];
                       malloc'd, the identity first */
    size_t nsyms;   /* at least 1 */
    char name[128]; /* e.g. "D4 (order 8)" */
} qn_rules_group;

/* The cell permutations that preserve A (n * n) and the goal: QN_OK or
 * QN_ENOMEM (out released). */
int qn_rules__find_group(qn_rules_group *out, const qn_layout *l,
                         const uint8_t *a, const uint8_t *goal);

#endif
