/*
 * json_depth.c: the nesting pre-scan of a JSON text (json_depth.h).
 */
#include "base/json_depth.h"

size_t qn_json_too_deep(const char *text, size_t len, int max)
{
    int depth = 0, in_str = 0;

    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = 0;
        } else if (c == '"') {
            in_str = 1;
        } else if (c == '[' || c == '{') {
            if (++depth > max)
                return i;
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return len;
}
