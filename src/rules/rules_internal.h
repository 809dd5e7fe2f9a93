/*
 * rules_internal.h: what rules.c shares with rules_grid.c (the big-grid
 * reading of a rule file), not part of the public API.
 */
#ifndef QN_RULES_INTERNAL_H
#define QN_RULES_INTERNAL_H

#include "quench/rules.h"

/* QN_EINVAL with the message at m; always returns QN_EINVAL. */
int qn_rules__fail(qn_err *err, qn_mark m, const char *fmt, ...)
    QN_PRINTF(3, 4);
int qn_rules__check_amount(long a, unsigned k, qn_mark m, qn_err *err);
/* Version, name, texts and colours: the checks of every rule file. */
int qn_rules__check_header(const qn_rules_spec *s, qn_err *err);

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

#endif
