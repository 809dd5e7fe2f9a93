/*
 * test_jsonw.c: the JSON writer's strings and numbers. Escapes follow RFC
 * 8259 section 7 (plus '<' as \u003c, and U+FFFD for a byte that does
 * not start well-formed UTF-8, as jsonw.h promises); numbers are checked
 * against the C library's printf.
 */
#include "base/jsonw.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "t.h"

/* What RFC 8259 asks for one ASCII byte inside a string, as jsonw.h
 * chooses among the allowed spellings. */
static void spec_escape(char *out, unsigned char c)
{
    if (c == '"' || c == '\\')
        sprintf(out, "\\%c", c);
    else if (c == '\n')
        strcpy(out, "\\n");
    else if (c == '\t')
        strcpy(out, "\\t");
    else if (c < 0x20 || c == 0x7f || c == '<')
        sprintf(out, "\\u%04x", c);
    else
        sprintf(out, "%c", c);
}

/* s escaped both ways (into a qn_buf, at a pointer) must read want. */
static int escapes_to(const char *s, size_t len, const char *want)
{
    qn_buf b = QN_BUF_INIT;
    char *room = malloc(QN_JSON_STR_MAX(len)), *end;
    int same;

    qn_buf_adds(&b, "x"); /* after other text, as in a record */
    qn_json_escape(&b, s, len);
    end = qn_json_put_str(room, s, len);
    same = b.len == strlen(want) + 1 && !strcmp(b.buf + 1, want) &&
           (size_t)(end - room) == strlen(want) &&
           !memcmp(room, want, strlen(want)) && b.buf[b.len] == '\0';
    qn_buf_release(&b);
    free(room);
    return same;
}

static void test_ascii(void)
{
    int bad = 0;

    for (int c = 1; c < 0x80; c++) {
        char s[3] = {'a', (char)c, 0}, want[16], esc[8];
        spec_escape(esc, (unsigned char)c);
        snprintf(want, sizeof(want), "\"a%s\"", esc);
        if (!escapes_to(s, 2, want) && bad++ < 5)
            T_FAILF("byte 0x%02x: not escaped as %s", c, want);
    }
    T_CHECK(!bad);
    T_CHECK(escapes_to("\0", 1, "\"\\u0000\"")); /* a NUL inside */
    T_CHECK(escapes_to("", 0, "\"\""));
    T_CHECK(escapes_to("</script>", 9, "\"\\u003c/script>\""));
}

static void test_utf8(void)
{
    /* well-formed sequences pass as they are (RFC 3629) */
    T_CHECK(escapes_to("caf\xc3\xa9 \xe2\x98\x83 \xf0\x9f\x98\x80", 14,
                       "\"caf\xc3\xa9 \xe2\x98\x83 \xf0\x9f\x98\x80\""));
    /* each byte that starts none is one U+FFFD */
    T_CHECK(escapes_to("a\xffz", 3, "\"a\\ufffdz\""));
    T_CHECK(escapes_to("\xc3", 1, "\"\\ufffd\""));            /* cut short */
    T_CHECK(escapes_to("\xc0\xaf", 2, "\"\\ufffd\\ufffd\"")); /* overlong */
    T_CHECK(escapes_to("\xed\xa0\x80", 3,
                       "\"\\ufffd\\ufffd\\ufffd\"")); /* a surrogate */
}

/* Strings longer than the escaper's pieces, with sequences across every
 * offset of a piece's end. */
static void test_long(void)
{
    for (size_t shift = 0; shift < 4; shift++) {
        size_t n = shift + 2 * 6000 + 3 * 1500, i = 0;
        char *s = malloc(n + 1), *want = malloc(n + 3);
        for (; i < shift; i++)
            s[i] = 'x';
        for (int k = 0; k < 6000; k++, i += 2)
            memcpy(s + i, "\xc3\xa9", 2);
        for (int k = 0; k < 1500; k++, i += 3)
            memcpy(s + i, "\xe2\x98\x83", 3);
        s[n] = '\0';
        sprintf(want, "\"%s\"", s);
        T_CHECK(escapes_to(s, n, want));
        free(s);
        free(want);
    }
    {
        size_t n = 9000;
        char *s = malloc(n), *want = malloc(6 * n + 3), *p = want;
        memset(s, '<', n);
        *p++ = '"';
        for (size_t i = 0; i < n; i++, p += 6)
            memcpy(p, "\\u003c", 6);
        strcpy(p, "\"");
        T_CHECK(escapes_to(s, n, want)); /* every byte at its largest */
        free(s);
        free(want);
    }
}

static void test_numbers(void)
{
    static const uint64_t edges[] = {0,
                                     1,
                                     9,
                                     10,
                                     11,
                                     99,
                                     100,
                                     101,
                                     999,
                                     1000,
                                     65535,
                                     4294967295u,
                                     99999,
                                     100000,
                                     999999999999999999u,
                                     1000000000000000000u,
                                     9999999999999999999u,
                                     10000000000000000000u,
                                     UINT64_MAX};
    uint64_t seed = 24, v;
    char got[32], want[32];
    int bad = 0;

    for (size_t i = 0; i < sizeof(edges) / sizeof(*edges) + 10000; i++) {
        v = i < sizeof(edges) / sizeof(*edges)
                ? edges[i]
                : t_rand(&seed) >> (t_rand(&seed) % 64);
        *qn_json_put_u64(got, v) = '\0';
        snprintf(want, sizeof(want), "%" PRIu64, v);
        if (strcmp(got, want) && bad++ < 5)
            T_FAILF("%s written as %s", want, got);
    }
    T_CHECK(!bad);
}

int main(void)
{
    test_ascii();
    test_utf8();
    test_long();
    test_numbers();
    return t_done();
}
