/*
 * export_internal.h: what the export module's files share: the html
 * writer (export_html.c) that export.c calls, the wrap names that rule
 * YAML (pack_doc.c) and the JSON writer (export.c) both use, and a
 * puzzle's id and name (pack_id.c) that loading, parsing, importing and
 * writing all need. Private to the export module; callers use
 * quench/export.h.
 */
#ifndef QN_EXPORT_INTERNAL_H
#define QN_EXPORT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "quench/buf.h"
#include "quench/export.h"

/*
 * Append the self-contained page that plays doc to out. json (len bytes)
 * is doc's quench-pack document as write_json makes it; it is embedded
 * as-is, which is safe because qn_json_escape writes '<' as \u003c.
 */
void qn_export__html(qn_buf *out, const qn_pack_doc *doc, const char *json,
                     size_t len);

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

#endif
