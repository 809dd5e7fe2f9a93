/*
 * export_internal.h: what the export module's files share: the html
 * writer (export_html.c) that export.c calls, the wrap names that rule
 * YAML (pack_doc.c) and the JSON writer (export.c) both use, and a
 * puzzle's id and name (pack_id.c) that loading, parsing, importing and
 * writing all need, and the walk of a JSON text the document reader uses
 * (json_scan.c). Private to the export module; callers use
 * quench/export.h.
 */
#ifndef QN_EXPORT_INTERNAL_H
#define QN_EXPORT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "export/export.h"

/*
 * Append the self-contained page that plays doc to out. json (len bytes)
 * is doc's quench-pack document as write_json makes it; it is embedded
 * as-is, which is safe because qn_json_escape writes '<' as \u003c.
 */
void qn_export__html(qn_buf *out, const qn_pack_doc *doc, const char *json,
                     size_t len);

/* export.c: the json document's pieces, for the dir export
 * (export_dir.c): the "pack" key and object, one rule object, and one
 * puzzle's fields (inside an object the caller opened). */
void qn_export__json_pack(qn_jsonw *w, const qn_pack_doc *doc);
void qn_export__write_rule(qn_jsonw *w, const qn_pack_rule *pr);
void qn_export__json_puzzle(qn_jsonw *w, const qn_pack_doc *doc,
                            const qn_pack_puzzle *p);

/* "none", "x", "y" or "both" for a QN_WRAP_* value (pack_doc.c). */
const char *qn_export__wrap_name(int wrap);

/*
 * The puzzle id (puzzle_id.h) of state under pr (compiled): the id its
 * content gives, whatever a database or a document says.
 */
uint64_t qn_export__content_id(const qn_pack_rule *pr, const uint8_t *state);

/* "puzzle 3 (id 2f8a834424156cc2)": p by position and id, as messages
 * name it; returns out. */
#define QN_EXPORT__NAME 48
const char *qn_export__puzzle_name(char out[QN_EXPORT__NAME],
                                   const qn_pack_puzzle *p);

/* ---- json_scan.c: a JSON text walked without parsing it ---------------- */

typedef struct qn_export__text {
    const char *s;
    size_t len;
} qn_export__text;

typedef struct qn_export__span {
    size_t at, end; /* [at, end) of the text; end 0: absent */
} qn_export__span;

/* 1-based line and column of byte off, columns in characters (as jansson
 * counts them). */
void qn_export__line_col(const char *text, size_t off, int *line, int *col);
/* QN_ELIMIT at the first bracket nested deeper than QN_PACK_MAX_DEPTH. */
int qn_export__json_depth(const char *text, size_t len, qn_err *err);
/* The first byte from i that is not JSON whitespace (or t->len). */
size_t qn_export__json_ws(const qn_export__text *t, size_t i);
/* QN_ESYNTAX "invalid JSON: WHAT near ..." at byte off. */
int qn_export__json_syntax(const qn_export__text *t, size_t off,
                           const char *what, qn_err *err);
/* Past the value at byte i into *end, its JSON values counted into
 * *nvalues (exact for valid JSON); QN_ESYNTAX when there is no value or
 * the text ends inside it. Whether it is valid is jansson's to say. */
int qn_export__json_value(const qn_export__text *t, size_t i, size_t *end,
                          size_t *nvalues, qn_err *err);
/* The array at sp element by element: 1 with the next one's span in *el
 * (*pos: the walk, sp.at to begin), 0 after the last, or a negative code
 * at a syntax error of the array or an element past QN_PACK_MAX_VALUES
 * ("WHAT INDEX has more than ..."). */
int qn_export__json_element(const qn_export__text *t, qn_export__span sp,
                            size_t *pos, qn_export__span *el, size_t index,
                            const char *what, qn_err *err);
/* The number of elements of the array at sp (checked as above, the first
 * numbered `first`), at most max: past it QN_ELIMIT "more than MAX
 * WHATs". */
int qn_export__json_count(const qn_export__text *t, qn_export__span sp,
                          const char *what, size_t first, size_t max,
                          size_t *count, qn_err *err);

#endif
