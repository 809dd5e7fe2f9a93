/*
 * quench/ruleset.h: a rule of the Lights Out family, loaded from a YAML
 * rule file (docs/RULES.md), and its facts.
 *
 * A qn_rules is immutable once loaded: any number of threads may read one
 * at the same time. Every pointer an accessor returns is borrowed from the
 * rule and lives as long as it does.
 */
#ifndef QN_PUBLIC_RULESET_H
#define QN_PUBLIC_RULESET_H

#include "quench/common.h"

typedef struct qn_rules qn_rules; /* opaque */

/*
 * Load a rule file (path) or rule text (len bytes, need not be
 * NUL-terminated; `source` names it in errors, NULL = "<text>"). On
 * success *out is the caller's (qn_rules_free). Errors: QN_ENOTFOUND /
 * QN_EIO (the file), QN_ESYNTAX (YAML, located), QN_EINVAL (a rule that
 * breaks the schema, located), QN_ELIMIT (past a documented limit).
 */
QN_API int qn_rules_load_file(qn_rules **out, const char *path, qn_err *err);
QN_API int qn_rules_load_buf(qn_rules **out, const char *text, size_t len,
                             const char *source, qn_err *err);
/* Free a rule; NULL is a no-op. */
QN_API void qn_rules_free(qn_rules *r);

/* Texts: the name, and the title, description and author ("" when
 * absent); qn_rules_text is the YAML text the rule was loaded from
 * (its length in *len_out when not NULL). */
QN_API const char *qn_rules_name(const qn_rules *r);
QN_API const char *qn_rules_title(const qn_rules *r);
QN_API const char *qn_rules_description(const qn_rules *r);
QN_API const char *qn_rules_author(const qn_rules *r);
QN_API const char *qn_rules_text(const qn_rules *r, size_t *len_out);

/* Active cells n (holes excluded, numbered row-major) and colours k. */
QN_API int qn_rules_ncells(const qn_rules *r);
QN_API unsigned qn_rules_colours(const qn_rules *r);
/* The press matrix, n * n bytes row-major: A[i * n + j] = what pressing
 * j adds to cell i (mod k); the goal, n values < k. */
QN_API const uint8_t *qn_rules_matrix(const qn_rules *r);
QN_API const uint8_t *qn_rules_goal(const qn_rules *r);
/* 1 when A equals its transpose. */
QN_API int qn_rules_is_symmetric(const qn_rules *r);
/* The canonical content hash: 64 lowercase hex digits and a NUL
 * (matrix, goal, n and k; not names nor spelling). */
QN_API void qn_rules_hash(const qn_rules *r, char hex_out[65]);

/* Grading tiers in file order (may be none): inclusive press ranges. */
QN_API size_t qn_rules_ntiers(const qn_rules *r);
QN_API const char *qn_rules_tier_name(const qn_rules *r, size_t i);
QN_API int qn_rules_tier_lo(const qn_rules *r, size_t i);
QN_API int qn_rules_tier_hi(const qn_rules *r, size_t i);

/* The board's symmetries that keep the rule: how many (identity
 * included), and their group's name ("D4 (order 8)", "trivial"). */
QN_API size_t qn_rules_nsyms(const qn_rules *r);
QN_API const char *qn_rules_symmetry_name(const qn_rules *r);

/*
 * The board: its kind ("grid", "hex", "hexagon" or "graph", static), and
 * in *w and *h (either may be NULL) the positions per row and the rows
 * (a graph: n and 1). qn_rules_cell_at gives the cell at row r, column c
 * (-1 for a hole or outside the board); qn_rules_cell_rc the row and
 * column of cell i (0 <= i < n).
 */
QN_API const char *qn_rules_board(const qn_rules *r, int *w, int *h);
QN_API int qn_rules_cell_at(const qn_rules *r, int row, int col);
QN_API void qn_rules_cell_rc(const qn_rules *r, int i, int *row, int *col);

/*
 * States: n values < k in cell order. qn_rules_parse_state reads the
 * state text format (rows of digits separated by '/' or newlines, '.'
 * for a hole: docs/RULES.md) from len bytes of text into cells_out (n
 * bytes). QN_OK, or QN_ESYNTAX with err->line:col within text.
 * qn_rules_format_state appends the state text to out, rows joined by sep ('/'
 * or '\n').
 */
QN_API int qn_rules_parse_state(const qn_rules *r, uint8_t *cells_out,
                                const char *text, size_t len, qn_err *err);
QN_API void qn_rules_format_state(const qn_rules *r, qn_buf *out,
                                  const uint8_t *cells, char sep);

#endif
