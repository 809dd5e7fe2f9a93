/*
 * export_internal.h: what export.c needs from the html writer in
 * export_html.c. Private to the export module; callers use
 * quench/export.h (qn_export_write with QN_EXPORT_HTML).
 */
#ifndef QN_EXPORT_INTERNAL_H
#define QN_EXPORT_INTERNAL_H

#include <stddef.h>

#include "quench/buf.h"
#include "quench/export.h"

/*
 * Append the self-contained page that plays doc to out. json (len bytes)
 * is doc's quench-pack document as write_json makes it; it is embedded
 * as-is, which is safe because qn_json_escape writes '<' as \u003c.
 */
void qn_export__html(qn_buf *out, const qn_pack_doc *doc, const char *json,
                     size_t len);

#endif
