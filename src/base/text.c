/*
 * text.c: untrusted text (text.h): UTF-8 decoding, the check names and
 * free texts pass before they are stored, and escaping for a terminal.
 */
#include "base/text.h"

#include <stdio.h>
#include <string.h>

size_t qn_text_utf8(const char *s, size_t n, uint32_t *cp_out)
{
    const unsigned char *p = (const unsigned char *)s;
    uint32_t cp, min;
    size_t len;

    if (p[0] < 0x80)
        len = 1, cp = p[0], min = 0;
    else if ((p[0] & 0xe0) == 0xc0)
        len = 2, cp = p[0] & 0x1fu, min = 0x80;
    else if ((p[0] & 0xf0) == 0xe0)
        len = 3, cp = p[0] & 0x0fu, min = 0x800;
    else if ((p[0] & 0xf8) == 0xf0)
        len = 4, cp = p[0] & 0x07u, min = 0x10000;
    else
        return 0; /* a continuation byte, or F8..FF */
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3fu);
    }
    /* RFC 3629: the shortest form only, no surrogates, nothing past
     * U+10FFFF (this also refuses the lead bytes C0, C1 and F5..F7) */
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    if (cp_out)
        *cp_out = cp;
    return len;
}

/* Why cp may not be stored or printed as it is, or NULL when it may. */
static const char *unsafe(uint32_t cp)
{
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
        return "a control character";
    if (cp == 0x2028 || cp == 0x2029)
        return "a line separator";
    if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
        return "a bidirectional formatting character";
    return NULL;
}

/* Unicode White_Space outside the control characters. */
static int is_space(uint32_t cp)
{
    return cp == 0x20 || cp == 0xa0 || cp == 0x1680 ||
           (cp >= 0x2000 && cp <= 0x200a) || cp == 0x202f || cp == 0x205f ||
           cp == 0x3000;
}

int qn_text_check(const char *s, size_t max, unsigned flags, const char *what,
                  qn_err *err)
{
    size_t n = strlen(s), i = 0, len = 0;
    uint32_t cp = 0;
    const char *why;

    if (n > max)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "%s is %zu bytes, longer than %zu", what, n, max);
    if ((flags & QN_TEXT_NAME) && n == 0)
        return qn_err_set(err, QN_EINVAL, 0, 0, "%s is empty", what);
    if ((flags & QN_TEXT_NAME) && s[0] == '-')
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "%s begins with '-' (it would read as an option)",
                          what);
    for (; i < n; i += len) {
        if ((len = qn_text_utf8(s + i, n - i, &cp)) == 0)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "%s is not valid UTF-8 (byte %zu)", what, i + 1);
        if (cp == '\n' && (flags & QN_TEXT_LINES))
            continue;
        if ((why = unsafe(cp)))
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "%s holds %s (U+%04X) at byte %zu", what, why,
                              (unsigned)cp, i + 1);
        if ((flags & QN_TEXT_NAME) && is_space(cp) && (i == 0 || i + len == n))
            return qn_err_set(err, QN_EINVAL, 0, 0, "%s %s with a space", what,
                              i == 0 ? "begins" : "ends");
    }
    return QN_OK;
}

/* '\\', the letter, then v in `digits` lowercase hex digits. */
static char *put_hex(char *p, char letter, uint32_t v, int digits)
{
    *p++ = '\\';
    *p++ = letter;
    while (digits--)
        *p++ = "0123456789abcdef"[v >> (4 * digits) & 15];
    return p;
}

char *qn_text_put_escaped(char *p, const char *s, size_t len)
{
    size_t i = 0, n, run = 0;
    uint32_t cp = 0;

    /* safe runs are copied whole: most text has no escape at all */
    while (i < len) {
        n = qn_text_utf8(s + i, len - i, &cp);
        if (n && !unsafe(cp)) {
            i += n;
            continue;
        }
        memcpy(p, s + run, i - run);
        p += i - run;
        if (!n) /* malformed: the byte itself */
            p = put_hex(p, 'x', (unsigned char)s[i], 2), n = 1;
        else if (cp == '\n' || cp == '\r' || cp == '\t')
            *p++ = '\\', *p++ = cp == '\n' ? 'n' : cp == '\r' ? 'r' : 't';
        else
            p = cp < 0x80 ? put_hex(p, 'x', cp, 2) : put_hex(p, 'u', cp, 4);
        i += n;
        run = i;
    }
    memcpy(p, s + run, i - run);
    return p + (i - run);
}

void qn_text_escape(qn_buf *out, const char *s)
{
    size_t len = strlen(s);
    char *end;

    if (qn_buf_grow(out, QN_TEXT_ESCAPED_MAX(len)))
        return;
    end = qn_text_put_escaped(out->buf + out->len, s, len);
    out->len = (size_t)(end - out->buf);
    out->buf[out->len] = '\0';
}

int qn_hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

const char *qn_plural(uint64_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}
