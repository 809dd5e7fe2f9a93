/*
 * test_text.c: untrusted text (text.h) and the pack name and text checks
 * built on it (store.h). The UTF-8 cases are the well-formed byte
 * sequences of RFC 3629 section 4 (Unicode 15, table 3-7) and their
 * classic violations: overlong forms, surrogates, values past U+10FFFF,
 * stray continuation bytes and sequences cut short.
 */
#include "base/text.h"

#include <string.h>

#include "store/store.h"
#include "t.h"

typedef struct utf8_case {
    const char *bytes;
    size_t len;  /* 0: invalid */
    uint32_t cp; /* when valid */
} utf8_case;

static void test_utf8(void)
{
    static const utf8_case cases[] = {
        {"A", 1, 0x41},
        {"\x7f", 1, 0x7f},
        {"\xc2\x80", 2, 0x80},       /* smallest 2-byte */
        {"\xdf\xbf", 2, 0x7ff},      /* largest 2-byte */
        {"\xe0\xa0\x80", 3, 0x800},  /* smallest 3-byte */
        {"\xed\x9f\xbf", 3, 0xd7ff}, /* just below the surrogates */
        {"\xee\x80\x80", 3, 0xe000}, /* just above them */
        {"\xef\xbf\xbd", 3, 0xfffd},
        {"\xef\xbf\xbf", 3, 0xffff},
        {"\xf0\x90\x80\x80", 4, 0x10000},  /* smallest 4-byte */
        {"\xf4\x8f\xbf\xbf", 4, 0x10ffff}, /* the last code point */
        {"\xc0\xaf", 0, 0},                /* overlong '/' */
        {"\xc1\xbf", 0, 0},                /* overlong U+007F */
        {"\xe0\x80\xaf", 0, 0},            /* overlong '/', 3 bytes */
        {"\xe0\x9f\xbf", 0, 0},            /* overlong U+07FF */
        {"\xf0\x80\x80\xaf", 0, 0},        /* overlong '/', 4 bytes */
        {"\xf0\x8f\xbf\xbf", 0, 0},        /* overlong U+FFFF */
        {"\xed\xa0\x80", 0, 0},            /* U+D800, a surrogate */
        {"\xed\xbf\xbf", 0, 0},            /* U+DFFF */
        {"\xf4\x90\x80\x80", 0, 0},        /* U+110000 */
        {"\xf5\x80\x80\x80", 0, 0},        /* lead byte F5 */
        {"\xf8\x88\x80\x80\x80", 0, 0},    /* old 5-byte form */
        {"\xfe", 0, 0},
        {"\xff", 0, 0},
        {"\x80", 0, 0}, /* stray continuation */
        {"\xbf", 0, 0},
        {"\xc2", 0, 0}, /* cut short */
        {"\xe2\x82", 0, 0},
        {"\xf0\x9f\x98", 0, 0},
        {"\xc2\x41", 0, 0}, /* continuation missing */
        {"\xe2\x28\xa1", 0, 0},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        const utf8_case *c = &cases[i];
        uint32_t cp = 0xdead;
        size_t len = qn_text_utf8(c->bytes, strlen(c->bytes), &cp);
        if (len != c->len || (len && cp != c->cp))
            T_FAILF("case %zu: length %zu cp U+%04X, want %zu U+%04X", i, len,
                    (unsigned)cp, c->len, (unsigned)c->cp);
        else
            t_pass++;
    }
    /* a sequence is not read past n */
    T_EQ(qn_text_utf8("\xe2\x82\xac", 2, NULL), 0);
    T_EQ(qn_text_utf8("\xe2\x82\xac", 3, NULL), 3);
}

typedef struct name_case {
    const char *name;
    const char *why; /* NULL: accepted */
} name_case;

static void test_names(void)
{
    char n64[65], n65[66];
    static const name_case cases[] = {
        {"starter", NULL},
        {"Level 1: the basics", NULL},
        {"ni\xc3\xb1o \xe2\x98\xbc \xf0\x9f\x92\xa1", NULL}, /* ñ ☼ 💡 */
        {"a-b_c.d", NULL},
        {"x-", NULL},
        {"", "is empty"},
        {"-rf", "begins with '-'"},
        {" x", "begins with a space"},
        {"x ", "ends with a space"},
        {" ", "begins with a space"},
        {"\xc2\xa0x", "begins with a space"},   /* NO-BREAK SPACE */
        {"x\xe3\x80\x80", "ends with a space"}, /* IDEOGRAPHIC SPACE */
        {"a\nb", "control character (U+000A) at byte 2"},
        {"a\tb", "control character (U+0009) at byte 2"},
        {"a\rb", "(U+000D)"},
        {"\x1b[31mred", "control character (U+001B) at byte 1"},
        {"a\x7f", "control character (U+007F) at byte 2"},
        {"a\xc2\x85", "control character (U+0085) at byte 2"}, /* NEL, C1 */
        {"a\xc2\x9b"
         "31m",
         "(U+009B)"}, /* CSI, C1 */
        {"a\xc2\x9f", "(U+009F)"},
        {"a\xc2\xa0z", NULL}, /* U+00A0 inside a name is fine */
        {"a\xe2\x80\xa8z", "line separator (U+2028)"},
        {"a\xe2\x80\xa9z", "(U+2029)"},
        {"a\xe2\x80\xaez", "bidirectional formatting character (U+202E)"},
        {"a\xe2\x80\xaaz", "(U+202A)"},
        {"a\xe2\x81\xa6z", "(U+2066)"},
        {"a\xe2\x81\xa9z", "(U+2069)"},
        {"a\xc0\xafz", "not valid UTF-8 (byte 2)"},
        {"a\xed\xa0\x80z", "not valid UTF-8 (byte 2)"},
        {"ab\xf4\x90\x80\x80", "not valid UTF-8 (byte 3)"},
        {"abc\xe2\x82", "not valid UTF-8 (byte 4)"},
        {"\x80", "not valid UTF-8 (byte 1)"},
    };
    qn_err e = QN_ERR_INIT;

    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        const name_case *c = &cases[i];
        int rc = qn_store_pack_check_name(c->name, &e);
        if (!c->why && rc != QN_OK)
            T_FAILF("'%s' refused: %s", c->name, e.msg);
        else if (c->why && (rc != QN_EINVAL || !strstr(e.msg, c->why)))
            T_FAILF("'%s': %d '%s', want '%s'", c->name, rc, rc ? e.msg : "",
                    c->why);
        else
            t_pass++;
    }
    memset(n64, 'n', 64);
    n64[64] = '\0';
    memset(n65, 'n', 65);
    n65[65] = '\0';
    T_EQ(qn_store_pack_check_name(n64, &e), QN_OK);
    T_EQ(qn_store_pack_check_name(n65, &e), QN_EINVAL);
    T_CHECK(strstr(e.msg, "is 65 bytes, longer than 64") != NULL);
    /* 64 bytes of 4-byte characters: 16 of them */
    for (int i = 0; i < 16; i++)
        memcpy(n64 + 4 * i, "\xf0\x9f\x92\xa1", 4);
    T_EQ(qn_store_pack_check_name(n64, &e), QN_OK);
    T_EQ(qn_store_pack_check_name(NULL, &e), QN_EINVAL);
}

/* Titles and authors are one line; a description may hold line feeds. */
static void test_pack_texts(void)
{
    static char big[QN_STORE_PACK_TEXT_MAX + 2];
    qn_store_pack p;
    qn_err e = QN_ERR_INIT;

    memset(&p, 0, sizeof(p));
    p.name = "p";
    T_EQ(qn_store_pack_check(&p, &e), QN_OK); /* NULL texts are "" */
    p.description = "line one\nline two";
    T_EQ(qn_store_pack_check(&p, &e), QN_OK);
    p.description = "a\r\nb";
    T_EQ(qn_store_pack_check(&p, &e), QN_EINVAL);
    T_CHECK(strstr(e.msg, "pack 'p': description holds a control "
                          "character (U+000D) at byte 2") != NULL);
    p.description = NULL;
    p.title = "two\nlines";
    T_EQ(qn_store_pack_check(&p, &e), QN_EINVAL);
    T_CHECK(strstr(e.msg, "pack 'p': title") != NULL);
    p.title = NULL;
    p.author = "A \x1b[2J";
    T_EQ(qn_store_pack_check(&p, &e), QN_EINVAL);
    T_CHECK(strstr(e.msg, "pack 'p': author") != NULL);
    memset(big, 'x', QN_STORE_PACK_TEXT_MAX);
    p.author = big;
    T_EQ(qn_store_pack_check(&p, &e), QN_OK);
    big[QN_STORE_PACK_TEXT_MAX] = 'x';
    T_EQ(qn_store_pack_check(&p, &e), QN_EINVAL);
    T_CHECK(strstr(e.msg, "author is 4097 bytes, longer than 4096") != NULL);
    p.author = NULL;
    p.name = "bad\nname";
    T_EQ(qn_store_pack_check(&p, &e), QN_EINVAL); /* the name too */
}

typedef struct esc_case {
    const char *in, *out;
} esc_case;

static void test_escape(void)
{
    static const esc_case cases[] = {
        {"plain text", "plain text"},
        {"caf\xc3\xa9 \xe2\x98\xbc", "caf\xc3\xa9 \xe2\x98\xbc"},
        {"back\\slash", "back\\slash"},
        {"a\nb\tc\rd", "a\\nb\\tc\\rd"},
        {"\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m"},
        {"\x07\x7f", "\\x07\\x7f"},
        {"a\xc2\x9b"
         "2J",
         "a\\u009b2J"},
        {"x\xe2\x80\xaey", "x\\u202ey"},
        {"x\xe2\x80\xa8y", "x\\u2028y"},
        {"bad \xff\xc0\xaf!", "bad \\xff\\xc0\\xaf!"},
        {"cut \xe2\x82", "cut \\xe2\\x82"},
        {"", ""},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        qn_buf b = QN_BUF_INIT;
        qn_text_escape(&b, cases[i].in);
        if (strcmp(b.buf, cases[i].out))
            T_FAILF("escape case %zu: '%s', want '%s'", i, b.buf, cases[i].out);
        else
            t_pass++;
        qn_buf_release(&b);
    }
}

/* The pointer form: a NUL inside is escaped too, and the worst case, a
 * control byte (4 bytes each), fills QN_TEXT_ESCAPED_MAX exactly. */
static void test_put_escaped(void)
{
    char in[100], out[QN_TEXT_ESCAPED_MAX(100) + 1];
    char *end;

    end = qn_text_put_escaped(out,
                              "a\0b\xe2\x80\xae"
                              "c",
                              7);
    *end = '\0';
    T_CHECK(strcmp(out, "a\\x00b\\u202ec") == 0);
    memset(in, 1, sizeof(in));
    end = qn_text_put_escaped(out, in, sizeof(in));
    T_EQ((long)(end - out), (long)QN_TEXT_ESCAPED_MAX(sizeof(in)));
    *end = '\0';
    T_CHECK(strncmp(out, "\\x01\\x01", 8) == 0);
    /* C1 (2 bytes -> 6) and U+2028 (3 bytes -> 6) stay under 4 per byte */
    end = qn_text_put_escaped(out, "\xc2\x9b\xe2\x80\xa8", 5);
    T_EQ((long)(end - out), 12L);
}

int main(void)
{
    test_utf8();
    test_names();
    test_pack_texts();
    test_escape();
    test_put_escaped();
    return t_done();
}
