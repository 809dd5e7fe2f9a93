/*
 * submit_lines.c: the two formats with one record a line: TEXT (a board
 * in the state text format, with a fast path for the common exact form)
 * and JSON Lines (one object a line, parsed by json_in.c).
 */
#include "submit_reader.h"

#include <string.h>

#if defined(__SSSE3__)
#include <tmmintrin.h>
#define VEC 1
#else
#define VEC 0
#endif

#include "base/mem.h"
#include "rules/state.h"

/*
 * The common case of a TEXT line, without qn_state_parse's generality: h
 * rows of exactly w characters joined by '/', each a digit or '.' as the
 * layout demands, every value < k. Returns 1 if the line is exactly that;
 * 0 sends it to the careful path, which also finds the error.
 */
static int fast_state(uint8_t *out, const qn_layout *l, unsigned k,
                      const char *s, size_t n)
{
    const int *index = l->index;
    size_t i = 0;
    int r, c, w = l->w;

    if (n != (size_t)l->h * (size_t)(w + 1) - 1)
        return 0;
    for (r = 0; r < l->h; r++) {
        if (r > 0 && s[i++] != '/')
            return 0;
        for (c = 0; c < w; c++, i++) {
            int cell = index[r * w + c];
            unsigned char ch = (unsigned char)s[i];
            if (cell < 0) {
                if (ch != '.')
                    return 0;
            } else {
                unsigned v = (unsigned)ch - '0';
                if (v > 9) {
                    v = (unsigned)(ch | 0x20) - 'a';
                    if (v > 25)
                        return 0;
                    v += 10;
                }
                if (v >= k)
                    return 0;
                out[cell] = (uint8_t)v;
            }
        }
    }
    return 1;
}

/*
 * The template's gather as byte shuffles (pshufb picks 16 bytes out of
 * one 16-byte chunk, 0x80 giving 0): each 16 cells OR together the
 * shuffles of the chunks their bytes lie in. Lines and boards of at most
 * QN_SUBMIT__VEC_MAX bytes and cells.
 */
static void build_vector(qn_submit_reader *r)
{
    int n = r->l->ncells;

    r->vec = 0;
    if (!VEC || r->tmpl != 1 || r->tmpl_len > QN_SUBMIT__VEC_MAX ||
        n > QN_SUBMIT__VEC_MAX)
        return;
    for (int c = 0; c * 16 < n; c++) {
        int lo = 255, hi = 0;
        for (int i = c * 16; i < n && i < c * 16 + 16; i++) {
            int chunk = r->tmpl_pos[i] / 16;
            lo = chunk < lo ? chunk : lo;
            hi = chunk > hi ? chunk : hi;
        }
        r->vec_lo[c] = (unsigned char)lo;
        r->vec_hi[c] = (unsigned char)hi;
        for (int k = lo; k <= hi; k++)
            for (int j = 0; j < 16; j++) {
                int i = c * 16 + j;
                r->vec_shuf[c][k][j] =
                    i < n && r->tmpl_pos[i] / 16 == k
                        ? (unsigned char)(r->tmpl_pos[i] % 16)
                        : 0x80;
            }
    }
    /* the last chunk, 16c.. n - 1, is bytes 16c + 16 - n.. 15 of the
     * line's last 16 */
    for (int j = 0, shift = (int)((r->tmpl_len + 15) / 16 * 16 - r->tmpl_len);
         j < 16; j++)
        r->vec_tail[j] = j + shift < 16 ? (unsigned char)(j + shift) : 0x80;
    r->vec = 1;
}

#if VEC
/* template_state 16 bytes a step: loads within the line (its last chunk
 * from its last 16 bytes, shifted; a line shorter than 16 from a copy),
 * so none passes its end; bytes past it meet a zero mask and want. The
 * cells are stored 16 at a time (QN_SUBMIT__CELLS_PAD). */
static int vector_state(const qn_submit_reader *r, uint8_t *out, const char *s,
                        size_t n)
{
    __m128i line[QN_SUBMIT__VEC_MAX / 16];
    __m128i bad = _mm_setzero_si128(), zero = _mm_setzero_si128();
    __m128i low = _mm_set1_epi8((char)(r->k - 1));
    size_t chunks = (n + 15) / 16;
    int ncells = r->l->ncells;

    if (n != r->tmpl_len)
        return 0;
    if (n >= 16) {
        for (size_t c = 0; c + 1 < chunks; c++)
            line[c] = _mm_loadu_si128((const __m128i *)(s + 16 * c));
        line[chunks - 1] =
            _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(s + n - 16)),
                             _mm_loadu_si128((const __m128i *)r->vec_tail));
    } else {
        line[0] = zero;
        memcpy(line, s, n);
    }
    for (size_t c = 0; c < chunks; c++) {
        __m128i m = _mm_loadu_si128((const __m128i *)(r->tmpl_mask + 16 * c));
        __m128i w = _mm_loadu_si128((const __m128i *)(r->tmpl_want + 16 * c));
        bad = _mm_or_si128(bad, _mm_xor_si128(_mm_and_si128(line[c], m), w));
    }
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(bad, zero)) != 0xffff)
        return 0;
    for (int c = 0; c * 16 < ncells; c++) {
        __m128i acc = zero;
        for (int k = r->vec_lo[c]; k <= r->vec_hi[c]; k++)
            acc = _mm_or_si128(
                acc, _mm_shuffle_epi8(
                         line[k],
                         _mm_loadu_si128((const __m128i *)r->vec_shuf[c][k])));
        _mm_storeu_si128((__m128i *)(out + 16 * c), _mm_and_si128(acc, low));
    }
    return 1;
}
#endif

/*
 * fast_state as a byte template, for k of 2, 4 or 8 (a digit below k is
 * '0' with its low bits set): r->tmpl becomes 1 when the board's lines
 * fit, else -1.
 */
static void build_template(qn_submit_reader *r)
{
    const qn_layout *l = r->l;
    size_t len = (size_t)l->h * (size_t)(l->w + 1) - 1, i = 0;
    int cells = 0;

    r->tmpl = -1;
    if ((r->k != 2 && r->k != 4 && r->k != 8) || len > QN_SUBMIT__TMPL_MAX ||
        l->ncells > QN_SUBMIT__TMPL_MAX)
        return;
    for (int row = 0; row < l->h; row++) {
        if (row > 0) {
            r->tmpl_mask[i] = 0xff;
            r->tmpl_want[i++] = '/';
        }
        for (int c = 0; c < l->w; c++, i++) {
            int cell = l->index[row * l->w + c];
            r->tmpl_mask[i] = 0xff;
            r->tmpl_want[i] = '.';
            if (cell >= 0) {
                r->tmpl_mask[i] = (unsigned char)(0xff & ~(r->k - 1));
                r->tmpl_want[i] = '0';
                r->tmpl_pos[cell] = (unsigned char)i;
                cells++;
            }
        }
    }
    r->tmpl_len = len;
    r->tmpl = cells == l->ncells ? 1 : -1;
    build_vector(r);
}

/* fast_state by the template: 8 bytes a step, then a gather. */
static int template_state(const qn_submit_reader *r, uint8_t *out,
                          const char *s, size_t n)
{
    uint64_t bad = 0, a, m, w;
    size_t i = 0;
    unsigned low = r->k - 1;

#if VEC
    if (r->vec)
        return vector_state(r, out, s, n);
#endif
    if (n != r->tmpl_len)
        return 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&a, s + i, 8);
        memcpy(&m, r->tmpl_mask + i, 8);
        memcpy(&w, r->tmpl_want + i, 8);
        bad |= (a & m) ^ w;
    }
    for (; i < n; i++)
        bad |= ((unsigned char)s[i] & r->tmpl_mask[i]) ^ r->tmpl_want[i];
    if (bad)
        return 0;
    for (int c = 0; c < r->l->ncells; c++)
        out[c] = (uint8_t)((unsigned char)s[r->tmpl_pos[c]] & low);
    return 1;
}

/* ---- TEXT --------------------------------------------------------------- */

int qn_submit__next_text(qn_submit_reader *r, qn_err *err)
{
    const char *s = NULL;
    size_t n = 0, i;
    long long line;
    int rc, tl;
    qn_err e;

    for (;;) {
        rc = qn_submit__get_line(r, &s, &n, &line, &tl, err);
        if (rc <= 0)
            return rc;
        if (tl) {
            qn_submit__begin(r, line, 1);
            return qn_submit__too_long(r, line, "line");
        }
        if (!r->tmpl)
            build_template(r);
        if (r->tmpl > 0 ? template_state(r, r->data.cells, s, n)
                        : fast_state(r->data.cells, r->l, r->k, s, n)) {
            qn_submit__begin(r, line, 1);
            return 1;
        }
        for (i = 0; i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'); i++)
            ;
        if (i < n && s[i] != '#')
            break;
    }
    qn_submit__begin(r, line, 1);
    if (qn_submit__bad_bytes(r, s, n, line, 1))
        return 1;
    if (qn_state_parse(r->data.cells, r->l, r->k, s, n, &e) != QN_OK)
        return qn_submit__bad(r, e.code, line, e.col, "%s", e.msg);
    return 1;
}

/* ---- JSONL -------------------------------------------------------------- */

int qn_submit__next_jsonl(qn_submit_reader *r, qn_err *err)
{
    const char *s = NULL;
    size_t n = 0;
    long long line;
    int rc, tl;
    qn_err e = QN_ERR_INIT;

    for (;;) {
        do {
            rc = qn_submit__get_line(r, &s, &n, &line, &tl, err);
            if (rc <= 0)
                return rc;
        } while (!tl && qn_submit__is_blank(s, n));
        qn_submit__begin(r, line, 1);
        if (tl)
            return qn_submit__too_long(r, line, "line");
        if (qn_submit__bad_bytes(r, s, n, line, 1))
            return 1;
        rc = qn_submit__json_record(&r->data, s, n, qn_submit__clamp(line), 1,
                                    &e);
        if (rc == QN_ENOMEM)
            return qn_submit__nomem(r, err);
        if (rc < 0)
            qn_submit__bad_err(r, &e);
        if (!r->rec.ok || !r->data.is_meta)
            return qn_submit__finish(r);
        qn_submit__skip_meta(r);
    }
}
