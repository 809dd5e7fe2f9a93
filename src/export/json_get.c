/*
 * json_get.c: the strict member readers of json_get.h. Messages name the
 * key and, through where, the rule or puzzle it belongs to, so an editor
 * of a pack by hand learns what to fix.
 */
#include "json_get.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/text.h"
#include "rules/rules.h"

int qn_export__jbad(qn_err *err, const qn_export__where *at, const char *fmt,
                    ...)
{
    char msg[200];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return qn_err_set(err, QN_EINVAL, 0, 0, "%s%s", at->what, msg);
}

/* Every key of obj is one of keys (NULL-terminated). */
int qn_export__jkeys(json_t *obj, const char *const *keys, qn_err *err,
                     const qn_export__where *at)
{
    const char *k;
    json_t *v;

    json_object_foreach(obj, k, v)
    {
        size_t i = 0;
        (void)v;
        while (keys[i] && strcmp(keys[i], k) != 0)
            i++;
        if (!keys[i])
            return qn_export__jbad(err, at, "unknown key '%s'", k);
    }
    return QN_OK;
}

json_t *qn_export__jmember(json_t *obj, const char *key, json_type type,
                           const char *type_name, qn_err *err,
                           const qn_export__where *at)
{
    json_t *v = json_object_get(obj, key);

    if (!v) {
        qn_export__jbad(err, at, "missing key '%s'", key);
        return NULL;
    }
    if (json_typeof(v) != type) {
        qn_export__jbad(err, at, "'%s' must be %s", key, type_name);
        return NULL;
    }
    return v;
}

/* A string of at most max bytes without NUL into *out (replaced). */
int qn_export__jtext(json_t *obj, const char *key, size_t max, char **out,
                     qn_err *err, const qn_export__where *at)
{
    json_t *v = qn_export__jmember(obj, key, JSON_STRING, "a string", err, at);

    if (!v)
        return QN_EINVAL;
    if (strlen(json_string_value(v)) != json_string_length(v))
        return qn_export__jbad(err, at, "'%s' holds a NUL character", key);
    if (json_string_length(v) > max)
        return qn_export__jbad(err, at, "'%s' is longer than %zu bytes", key,
                               max);
    {
        char *copy = qn_strdup(json_string_value(v));
        if (!copy)
            return qn_err_nomem(err);
        free(*out);
        *out = copy;
    }
    return QN_OK;
}

int qn_export__jstr(json_t *obj, const char *key, char **out, qn_err *err,
                    const qn_export__where *at)
{
    return qn_export__jtext(obj, key, QN_RULES_MAX_TEXT, out, err, at);
}

int qn_export__jint(json_t *obj, const char *key, long long lo, long long hi,
                    long long *out, qn_err *err, const qn_export__where *at)
{
    json_t *v =
        qn_export__jmember(obj, key, JSON_INTEGER, "an integer", err, at);
    long long x;

    if (!v)
        return QN_EINVAL;
    x = json_integer_value(v);
    if (x < lo || x > hi)
        return qn_export__jbad(err, at, "'%s' is %lld, must be %lld..%lld", key,
                               x, lo, hi);
    *out = x;
    return QN_OK;
}

/* An array of exactly n integers, each below k, into out (n bytes). */
int qn_export__jcells(json_t *obj, const char *key, int n, unsigned k,
                      uint8_t *out, qn_err *err, const qn_export__where *at)
{
    json_t *a = qn_export__jmember(obj, key, JSON_ARRAY, "an array of integers",
                                   err, at);
    size_t i;
    json_t *v;

    if (!a)
        return QN_EINVAL;
    if (json_array_size(a) != (size_t)n)
        return qn_export__jbad(err, at, "'%s' has %zu %s, the rule has %d %s",
                               key, json_array_size(a),
                               qn_plural(json_array_size(a), "value", "values"),
                               n, qn_plural((uint64_t)n, "cell", "cells"));
    json_array_foreach(a, i, v)
    {
        long long x;
        if (!json_is_integer(v))
            return qn_export__jbad(err, at, "'%s' value %zu is not an integer",
                                   key, i);
        x = json_integer_value(v);
        if (x < 0 || x >= (long long)k)
            return qn_export__jbad(err, at,
                                   "'%s' value %zu is %lld, must be 0..%u", key,
                                   i, x, k - 1);
        out[i] = (uint8_t)x;
    }
    return QN_OK;
}

int qn_export__is_hash(const char *s)
{
    size_t i = 0;

    for (; s[i]; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return i == 64;
}
