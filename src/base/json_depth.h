/*
 * json_depth.h: the nesting pre-scan of a JSON text, before a parser sees
 * it. jansson's own limit is 2048 levels, far more than any record or
 * document of quench needs, and each level costs the parser stack: the
 * readers of untrusted JSON (src/validate/json_in.c, src/export/json_pack.c)
 * refuse a text nested deeper than their limit first, with its place.
 */
#ifndef QN_JSON_DEPTH_H
#define QN_JSON_DEPTH_H

#include <stddef.h>

/*
 * The offset of the first '[' or '{' of text (len bytes) nested deeper
 * than max levels, or len when there is none. Brackets inside strings do
 * not count (a backslash escapes the byte after it); the text need not be
 * valid JSON. Reads text only; never fails.
 */
size_t qn_json_too_deep(const char *text, size_t len, int max);

#endif
