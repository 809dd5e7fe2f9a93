/*
 * jsonw.c: streaming JSON output (see jsonw.h). Hand-written rather than
 * jansson because records are emitted at hundreds of thousands per second
 * and need no tree.
 */
#include "base/jsonw.h"

#include <assert.h>
#include <string.h>

#include "base/text.h"

void qn_jsonw_init(qn_jsonw *w, qn_buf *out)
{
    memset(w, 0, sizeof(*w));
    w->out = out;
}

/* Comma and key bookkeeping before any value. */
static void before_value(qn_jsonw *w)
{
    if (w->depth == 0)
        return;
    if (w->is_obj[w->depth - 1]) {
        assert(w->key_pending && "json: value where a key is due");
        w->key_pending = 0;
        return;
    }
    if (w->count[w->depth - 1]++)
        qn_buf_addc(w->out, ',');
}

static void open(qn_jsonw *w, char c, int obj)
{
    before_value(w);
    assert(w->depth < QN_JSONW_MAX_DEPTH);
    qn_buf_addc(w->out, c);
    w->is_obj[w->depth] = (char)obj;
    w->count[w->depth++] = 0;
}

void qn_jsonw_obj(qn_jsonw *w)
{
    open(w, '{', 1);
}
void qn_jsonw_arr(qn_jsonw *w)
{
    open(w, '[', 0);
}

void qn_jsonw_end(qn_jsonw *w)
{
    assert(w->depth > 0 && !w->key_pending);
    w->depth--;
    qn_buf_addc(w->out, w->is_obj[w->depth] ? '}' : ']');
}

void qn_jsonw_key(qn_jsonw *w, const char *key)
{
    assert(w->depth > 0 && w->is_obj[w->depth - 1] && !w->key_pending);
    if (w->count[w->depth - 1]++)
        qn_buf_addc(w->out, ',');
    qn_json_escape(w->out, key, strlen(key));
    qn_buf_addc(w->out, ':');
    w->key_pending = 1;
}

void qn_jsonw_strn(qn_jsonw *w, const char *s, size_t len)
{
    before_value(w);
    qn_json_escape(w->out, s, len);
}

void qn_jsonw_str(qn_jsonw *w, const char *s)
{
    qn_jsonw_strn(w, s, strlen(s));
}

/* Decimal digits two at a time from a table: records are written by the
 * hundred thousand, and most numbers in them are single digits. */
static const char digits2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* 10^i for i = 0..19: the largest that fit in 64 bits */
static const uint64_t pow10_u64[20] = {
    1ULL,
    10ULL,
    100ULL,
    1000ULL,
    10000ULL,
    100000ULL,
    1000000ULL,
    10000000ULL,
    100000000ULL,
    1000000000ULL,
    10000000000ULL,
    100000000000ULL,
    1000000000000ULL,
    10000000000000ULL,
    100000000000000ULL,
    1000000000000000ULL,
    10000000000000000ULL,
    100000000000000000ULL,
    1000000000000000000ULL,
    10000000000000000000ULL,
};

char *qn_json_put_u64(char *dst, uint64_t v)
{
    char *end, *p;
    int n = 1;

    if (v < 10) {
        *dst = (char)('0' + v);
        return dst + 1;
    }
    /* the length first, then the digits straight into place, two a step */
    while (n < 20 && v >= pow10_u64[n])
        n++;
    end = p = dst + n;
    while (v >= 100) {
        p -= 2;
        memcpy(p, digits2 + 2 * (v % 100), 2);
        v /= 100;
    }
    if (v >= 10)
        memcpy(p - 2, digits2 + 2 * v, 2);
    else
        p[-1] = (char)('0' + v);
    return end;
}

static void add_u64(qn_buf *b, uint64_t v)
{
    char tmp[24];

    qn_buf_add(b, tmp, (size_t)(qn_json_put_u64(tmp, v) - tmp));
}

void qn_jsonw_int(qn_jsonw *w, int64_t v)
{
    before_value(w);
    if (v < 0) {
        qn_buf_addc(w->out, '-');
        add_u64(w->out, (uint64_t)0 - (uint64_t)v);
    } else {
        add_u64(w->out, (uint64_t)v);
    }
}

void qn_jsonw_uint(qn_jsonw *w, uint64_t v)
{
    before_value(w);
    add_u64(w->out, v);
}

void qn_jsonw_bool(qn_jsonw *w, int v)
{
    before_value(w);
    qn_buf_adds(w->out, v ? "true" : "false");
}

void qn_jsonw_real(qn_jsonw *w, double v)
{
    before_value(w);
    if (v != v || v > 1e300 || v < -1e300)
        qn_buf_adds(w->out, "null"); /* JSON has no NaN or infinity */
    else
        qn_buf_addf(w->out, "%.6g", v);
}

void qn_jsonw_null(qn_jsonw *w)
{
    before_value(w);
    qn_buf_adds(w->out, "null");
}

void qn_jsonw_raw(qn_jsonw *w, const char *json)
{
    before_value(w);
    qn_buf_adds(w->out, json);
}

/* What each byte needs in a JSON string: 0 nothing, 1 an escape (controls,
 * DEL, '"', '\\', '<'), 2 a UTF-8 check (bytes from 0x80). */
/* clang-format off */
static const unsigned char byte_class[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};
/* clang-format on */

/*
 * Escape s[*i..) at dst until *i reaches stop (a UTF-8 sequence may end up
 * to 3 bytes past it); the whole s[0..len) bounds the sequences. Runs of
 * plain bytes are copied whole. dst needs 6 bytes per byte read.
 */
static char *escape_part(char *dst, const char *s, size_t len, size_t *at,
                         size_t stop)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s, *cls = byte_class;
    size_t i = *at, j, n;

    while (i < stop) {
        for (j = i; j < stop && !cls[p[j]]; j++)
            ;
        memcpy(dst, s + i, j - i);
        dst += j - i;
        if ((i = j) >= stop)
            break;
        unsigned char c = p[i];
        if (cls[c] == 2) {
            if ((n = qn_text_utf8(s + i, len - i, NULL)) == 0) {
                memcpy(dst, "\\ufffd", 6), dst += 6, i++;
            } else {
                memcpy(dst, s + i, n), dst += n, i += n;
            }
            continue;
        }
        *dst++ = '\\';
        if (c == '"' || c == '\\') {
            *dst++ = (char)c;
        } else if (c == '\n') {
            *dst++ = 'n';
        } else if (c == '\t') {
            *dst++ = 't';
        } else {
            /* other controls, DEL, and '<': keeps "</script>" inert when
             * JSON is embedded in HTML */
            memcpy(dst, "u00", 3);
            dst[3] = hex[c >> 4];
            dst[4] = hex[c & 15];
            dst += 5;
        }
        i++;
    }
    *at = i;
    return dst;
}

char *qn_json_put_str(char *dst, const char *s, size_t len)
{
    size_t i = 0;

    *dst++ = '"';
    dst = escape_part(dst, s, len, &i, len);
    *dst++ = '"';
    return dst;
}

/* Pieces of a long string at a time, so the room asked for stays small. */
#define ESCAPE_PIECE 4096

void qn_json_escape(qn_buf *out, const char *s, size_t len)
{
    size_t i = 0;
    char *end;

    qn_buf_addc(out, '"');
    while (i < len) {
        size_t stop = len - i > ESCAPE_PIECE ? i + ESCAPE_PIECE : len;
        if (qn_buf_grow(out, QN_JSON_STR_MAX(stop - i + 3)))
            return;
        end = escape_part(out->buf + out->len, s, len, &i, stop);
        out->len = (size_t)(end - out->buf);
        out->buf[out->len] = '\0';
    }
    qn_buf_addc(out, '"');
}

char *qn_json_put_milli(char *dst, int64_t v)
{
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

    if (v < 0)
        *dst++ = '-';
    dst = qn_json_put_u64(dst, u / 1000);
    *dst++ = '.';
    *dst++ = (char)('0' + u / 100 % 10);
    *dst++ = (char)('0' + u / 10 % 10);
    *dst++ = (char)('0' + u % 10);
    return dst;
}
