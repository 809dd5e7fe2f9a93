/*
 * trules.h: loading rule files in tests. A load that fails is a failed
 * check (with the diagnostic), one that works a passed one.
 */
#ifndef QN_TRULES_H
#define QN_TRULES_H

#include <string.h>

#include "rules/rules.h"
#include "t.h"

static inline qn_rules *load(const char *path)
{
    qn_rules *r = NULL;
    qn_err e = QN_ERR_INIT;

    if (qn_rules_load_file(&r, path, &e) != QN_OK) {
        T_FAILF("%s:%d:%d: %s", e.source, e.line, e.col, e.msg);
        return NULL;
    }
    t_pass++;
    return r;
}

static inline qn_rules *load_text(const char *text)
{
    qn_rules *r = NULL;
    qn_err e = QN_ERR_INIT;

    if (qn_rules_load_buf(&r, text, strlen(text), "<text>", &e) != QN_OK) {
        T_FAILF("<text>:%d:%d: %s\n%s", e.line, e.col, e.msg, text);
        return NULL;
    }
    t_pass++;
    return r;
}

#endif
