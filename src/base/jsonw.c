/*
 * jsonw.c: streaming JSON output (see jsonw.h). Hand-written rather than
 * jansson because records are emitted at hundreds of thousands per second
 * and need no tree.
 */
#include "quench/jsonw.h"

#include <assert.h>
#include <string.h>

#include "quench/text.h"

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

void qn_jsonw_obj(qn_jsonw *w) { open(w, '{', 1); }
void qn_jsonw_arr(qn_jsonw *w) { open(w, '[', 0); }

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

/* Decimal digits by hand: records are written by the hundred thousand. */
char *qn_json_put_u64(char *dst, uint64_t v)
{
    char tmp[24];
    int i = (int)sizeof(tmp);

    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    memcpy(dst, tmp + i, sizeof(tmp) - (size_t)i);
    return dst + (sizeof(tmp) - (size_t)i);
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

void qn_json_escape(qn_buf *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;

    qn_buf_addc(out, '"');
    while (i < len) {
        unsigned char c = p[i];
        size_t n;
        if (c == '"' || c == '\\') {
            qn_buf_addc(out, '\\');
            qn_buf_addc(out, (char)c);
            i++;
        } else if (c == '\n') {
            qn_buf_adds(out, "\\n"), i++;
        } else if (c == '\t') {
            qn_buf_adds(out, "\\t"), i++;
        } else if (c < 0x20 || c == 0x7f) {
            qn_buf_addf(out, "\\u%04x", c), i++;
        } else if (c == '<') {
            /* keeps "</script>" inert when JSON is embedded in HTML */
            qn_buf_adds(out, "\\u003c"), i++;
        } else if ((n = qn_text_utf8(s + i, len - i, NULL)) == 0) {
            qn_buf_adds(out, "\\ufffd"), i++;
        } else {
            qn_buf_add(out, p + i, n);
            i += n;
        }
    }
    qn_buf_addc(out, '"');
}
