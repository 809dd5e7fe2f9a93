/*
 * jsonw.h: a small streaming JSON writer into a qn_buf.
 *
 * Output only; reading JSON is jansson's job. It tracks nesting so commas
 * come out right, escapes strings per RFC 8259 (control characters as
 * \u00XX, invalid UTF-8 replaced by U+FFFD so the output is always valid),
 * and writes integers only. Misuse (a value where a key is due, unbalanced
 * ends, nesting deeper than QN_JSONW_MAX_DEPTH) is a programming error and
 * asserts.
 */
#ifndef QN_JSONW_H
#define QN_JSONW_H

#include <stdint.h>

#include "base/buf.h"

#define QN_JSONW_MAX_DEPTH 32

typedef struct qn_jsonw {
    qn_buf *out; /* borrowed */
    int depth;
    int count[QN_JSONW_MAX_DEPTH];   /* items written at each level */
    char is_obj[QN_JSONW_MAX_DEPTH]; /* 1: object (keys due), 0: array */
    int key_pending;                 /* a key was written, value due */
} qn_jsonw;

void qn_jsonw_init(qn_jsonw *w, qn_buf *out);
void qn_jsonw_obj(qn_jsonw *w); /* { */
void qn_jsonw_arr(qn_jsonw *w); /* [ */
void qn_jsonw_end(qn_jsonw *w); /* } or ] */
void qn_jsonw_key(qn_jsonw *w, const char *key);
void qn_jsonw_str(qn_jsonw *w, const char *s);
void qn_jsonw_strn(qn_jsonw *w, const char *s, size_t len);
void qn_jsonw_int(qn_jsonw *w, int64_t v);
void qn_jsonw_uint(qn_jsonw *w, uint64_t v);
void qn_jsonw_bool(qn_jsonw *w, int v);
/* A finite double with 6 significant digits (not for integer fields). */
void qn_jsonw_real(qn_jsonw *w, double v);
void qn_jsonw_null(qn_jsonw *w);
/* A pre-formatted JSON value (e.g. a decimal integer of any size). */
void qn_jsonw_raw(qn_jsonw *w, const char *json);

/* v thousandths as a decimal with three places ("4.125", "-0.250"), as
 * text outputs show a human score (human_score.h): written at dst (room
 * for 26 bytes); returns the end (no NUL). */
char *qn_json_put_milli(char *dst, int64_t v);

/* Write v's decimal digits at dst (room for 20) and return the end. */
char *qn_json_put_u64(char *dst, uint64_t v);

/* Append s to out as a JSON string literal, quotes included. */
void qn_json_escape(qn_buf *out, const char *s, size_t len);

/* The most bytes qn_json_put_str writes for a string of len bytes: each
 * byte may become a 6-byte escape, plus the quotes. */
#define QN_JSON_STR_MAX(len) (6 * (size_t)(len) + 2)

/* Write s as a JSON string literal (as qn_json_escape) at dst, which has
 * room for QN_JSON_STR_MAX(len) bytes; returns the end (no NUL). */
char *qn_json_put_str(char *dst, const char *s, size_t len);

#endif
