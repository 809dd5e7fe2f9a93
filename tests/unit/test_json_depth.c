/*
 * test_json_depth.c: the JSON nesting pre-scan (base/json_depth.h) on
 * texts whose depths are counted by hand: brackets in strings and after a
 * backslash do not count, the offset is the first bracket past the limit.
 */
#include "base/json_depth.h"

#include <string.h>

#include "t.h"

static size_t deep(const char *s, int max)
{
    return qn_json_too_deep(s, strlen(s), max);
}

int main(void)
{
    T_EQ(deep("", 8), 0);
    T_EQ(deep("[[[]]]", 3), 6);          /* 3 levels: within 3 */
    T_EQ(deep("[[[]]]", 2), 2);          /* the third '[' is past 2 */
    T_EQ(deep("{\"a\":[{}]}", 2), 6);    /* '{' '[' '{': the third at 6 */
    T_EQ(deep("[\"[[[[\"]", 1), 8);      /* brackets in a string */
    T_EQ(deep("[\"\\\"[[\"]", 1), 8);    /* an escaped quote stays inside */
    T_EQ(deep("[\"\\\\\",[[]]]", 2), 7); /* an escaped backslash ends */
    T_EQ(deep("[][][][]", 1), 8);        /* siblings do not add up */
    T_EQ(deep("x[", 0), 1);              /* not JSON: still scanned */
    return t_done();
}
