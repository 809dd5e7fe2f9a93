/*
 * validate_api.c: the public reader constructor (quench/validate.h),
 * which takes a rule instead of its layout.
 */
#include "rules/rules.h"
#include "validate/submit.h"

int qn_submit_open_rules(qn_submit_reader **out, FILE *in, const char *source,
                         const qn_rules *r, qn_submit_format fmt, qn_err *err)
{
    return qn_submit_open(out, in, source, qn_rules_layout(r),
                          qn_rules_colours(r), fmt, err);
}
