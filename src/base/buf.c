/*
 * buf.c: growable NUL-terminated buffer, plus exact decimal products.
 */
#include "base/buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/mem.h"

char qn_buf_empty[1];
static void (*on_failure)(void);
void qn_buf_on_failure(void (*fn)(void))
{
    on_failure = fn;
}

void qn_buf_init(qn_buf *b)
{
    b->buf = qn_buf_empty;
    b->len = 0;
    b->alloc = 0;
    b->failed = 0;
}

void qn_buf_release(qn_buf *b)
{
    if (b->alloc)
        free(b->buf);
    qn_buf_init(b);
}

void qn_buf_reset(qn_buf *b)
{
    b->len = 0;
    b->failed = 0;
    if (b->alloc)
        b->buf[0] = '\0';
}

int qn_buf_grow(qn_buf *b, size_t extra)
{
    size_t need = b->len + extra + 1;
    char *p;

    if (b->failed)
        return -1;
    if (need <= b->len) /* overflow */
        goto fail;
    if (need <= b->alloc)
        return 0;
    if (need < b->alloc * 2)
        need = b->alloc * 2;
    if (need < 64)
        need = 64;
    if (!(p = b->alloc ? qn_realloc(b->buf, need) : qn_malloc(need)))
        goto fail;
    if (!b->alloc)
        p[0] = '\0';
    b->buf = p;
    b->alloc = need;
    return 0;
fail:
    qn_buf_fail(b);
    return -1;
}

void qn_buf_fail(qn_buf *b)
{
    if (on_failure)
        on_failure();
    b->failed = 1;
}

int qn_buf_check(const qn_buf *b, qn_err *err)
{
    return b->failed ? qn_err_nomem(err) : QN_OK;
}

void qn_buf_add(qn_buf *b, const void *data, size_t len)
{
    if (qn_buf_grow(b, len))
        return;
    memcpy(b->buf + b->len, data, len);
    b->len += len;
    b->buf[b->len] = '\0';
}

void qn_buf_adds(qn_buf *b, const char *s)
{
    qn_buf_add(b, s, strlen(s));
}

void qn_buf_addc(qn_buf *b, char c)
{
    qn_buf_add(b, &c, 1);
}

void qn_buf_vaddf(qn_buf *b, const char *fmt, va_list ap)
{
    va_list cp;
    int n;

    va_copy(cp, ap);
    n = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    if (n < 0 || qn_buf_grow(b, (size_t)n))
        return;
    vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void qn_buf_addf(qn_buf *b, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    qn_buf_vaddf(b, fmt, ap);
    va_end(ap);
}

char *qn_buf_detach(qn_buf *b, size_t *len_out)
{
    char *s;

    if (!b->alloc)
        qn_buf_grow(b, 0);
    if (b->failed) {
        qn_buf_release(b);
        if (len_out)
            *len_out = 0;
        return NULL;
    }
    s = b->buf;
    if (len_out)
        *len_out = b->len;
    qn_buf_init(b);
    return s;
}

/*
 * Schoolbook multiplication in base 10^9 limbs, least significant first.
 * Factors are at most 255 here, so a limb times a factor fits in 64 bits.
 * Out of memory: b's failed flag.
 */
void qn_buf_add_product(qn_buf *b, const unsigned *factors, size_t n)
{
    size_t nlimb = 1, cap = 8, i, j;
    uint32_t *limb = qn_malloc(cap * sizeof(*limb)), *more;

    if (!limb)
        goto fail;
    limb[0] = 1;
    for (i = 0; i < n; i++) {
        uint64_t carry = 0;
        for (j = 0; j < nlimb; j++) {
            uint64_t v = (uint64_t)limb[j] * factors[i] + carry;
            limb[j] = (uint32_t)(v % 1000000000u);
            carry = v / 1000000000u;
        }
        while (carry) {
            if (nlimb == cap) {
                cap *= 2;
                if (!(more = qn_realloc(limb, cap * sizeof(*limb))))
                    goto fail;
                limb = more;
            }
            limb[nlimb++] = (uint32_t)(carry % 1000000000u);
            carry /= 1000000000u;
        }
    }
    qn_buf_addf(b, "%u", (unsigned)limb[nlimb - 1]);
    for (j = nlimb - 1; j-- > 0;)
        qn_buf_addf(b, "%09u", (unsigned)limb[j]);
    free(limb);
    return;
fail:
    free(limb);
    qn_buf_fail(b);
}
