/*
 * json_get.h: the strict member readers the JSON pack reader's files
 * (json_pack.c, json_rule.c) share over jansson: a missing, unknown or
 * mistyped key is an error naming the key and who it belongs to. Private
 * to the export module; only the files that may include jansson.h
 * include it (tests/deps.py).
 */
#ifndef QN_EXPORT_JSON_GET_H
#define QN_EXPORT_JSON_GET_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "base/err.h"
#include "export/export.h"

/* "rule 2: " or "puzzle 17: " or "": who an error is about. */
typedef struct qn_export__where {
    char what[64];
} qn_export__where;

/* Set err to QN_EINVAL with at's prefix and the message; returns it. */
int qn_export__jbad(qn_err *err, const qn_export__where *at, const char *fmt,
                    ...) QN_PRINTF(3, 4);

/* QN_OK when every key of obj is one of keys (NULL-terminated). */
int qn_export__jkeys(json_t *obj, const char *const *keys, qn_err *err,
                     const qn_export__where *at);

/* obj's member key when it has that type (type_name for the message). */
json_t *qn_export__jmember(json_t *obj, const char *key, json_type type,
                           const char *type_name, qn_err *err,
                           const qn_export__where *at);

/* A string of at most max bytes without NUL into *out (freed, replaced). */
int qn_export__jtext(json_t *obj, const char *key, size_t max, char **out,
                     qn_err *err, const qn_export__where *at);

/* qn_export__jtext bounded by QN_RULES_MAX_TEXT. */
int qn_export__jstr(json_t *obj, const char *key, char **out, qn_err *err,
                    const qn_export__where *at);

/* An integer in lo..hi into *out. */
int qn_export__jint(json_t *obj, const char *key, long long lo, long long hi,
                    long long *out, qn_err *err, const qn_export__where *at);

/* An array of exactly n integers, each below k, into out (n bytes). */
int qn_export__jcells(json_t *obj, const char *key, int n, unsigned k,
                      uint8_t *out, qn_err *err, const qn_export__where *at);

/* Whether s is 64 lowercase hex digits (a rule hash). */
int qn_export__is_hash(const char *s);

/*
 * One rule object of a pack document into pr: its texts, board, cells,
 * tiers and kernel, compiled, so a rule that does not hash as it says is
 * an error (json_rule.c).
 */
int qn_export__json_rule(qn_pack_rule *pr, json_t *jr, qn_err *err,
                         const qn_export__where *at);

#endif
