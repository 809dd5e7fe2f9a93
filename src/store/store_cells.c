/*
 * store_cells.c: cell values packed as a row keeps them (docs/STORE.md):
 * the canonical key, and since migration 0004 the state and the witness,
 * while the API speaks state text (state.h). The board's shape is kept once a
 * rule, as rules.layout: the text of its all-zero board, so the store
 * reads and writes texts without the rules parser.
 */
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/bits.h"
#include "base/mem.h"
#include "rules/state.h"
#include "store_internal.h"

/* ---------------------------------------------------------------------
 * Packing: ceil(log2 k) bits a cell, LSB first.
 */
static int bits_for(unsigned k)
{
    int b = 1;
    while ((1u << b) < k)
        b++;
    return b;
}

size_t qn_store_canon_size(int n, unsigned k)
{
    return ((size_t)n * bits_for(k) + 7) / 8;
}

/* Cells go into a 64-bit accumulator, b bits each, and whole bytes
 * leave its low end: the same bits, LSB first, as setting them one by
 * one, at a byte's work per byte (bit by bit was 7% of generate --db,
 * which packs three keys a puzzle). A value is masked to b bits. */
size_t qn_store_canon_pack(uint8_t *out, const uint8_t *cells, int n,
                           unsigned k)
{
    size_t len = qn_store_canon_size(n, k), o = 0;
    int b = bits_for(k), have = 0, i = 0;
    uint64_t acc = 0, mask = (1u << b) - 1;

    /* two colours: 64 cells a word by qn_bits_low's multiplies, then
     * its bytes (the packing was 4% of generate --db's CPU cell by
     * cell); whole bytes only, the last few cells below */
    while (b == 1 && n - i >= 8) {
        int m = n - i >= 64 ? 64 : (n - i) / 8 * 8;
        uint64_t w = qn_bits_low(cells + i, m);
        for (int j = 0; j < m; j += 8)
            out[o++] = (uint8_t)(w >> j);
        i += m;
    }
    for (; i < n; i++) {
        acc |= (cells[i] & mask) << have;
        if ((have += b) >= 8) {
            do {
                out[o++] = (uint8_t)acc;
                acc >>= 8;
            } while ((have -= 8) >= 8);
        }
    }
    if (have)
        out[o++] = (uint8_t)acc;
    return len;
}

/* Eight cells of one bit from byte x: x copied into each byte of a
 * word, byte j keeping bit j, then each byte made 0 or 1 (adding 0x7f
 * sets its top bit exactly when it is not 0, and never carries). db
 * merge unpacks every state of an input: this is a seventh of the
 * loop's cost there. */
static void unpack8(uint8_t *cells, unsigned x)
{
    uint64_t m = (x * 0x0101010101010101ULL) & 0x8040201008040201ULL;

    m = ((m + 0x7f7f7f7f7f7f7f7fULL) >> 7) & 0x0101010101010101ULL;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(cells, &m, 8); /* byte j is cell j */
#else
    for (int j = 0; j < 8; j++)
        cells[j] = (uint8_t)(m >> 8 * j);
#endif
}

void qn_store_canon_unpack(uint8_t *cells, const uint8_t *packed, int n,
                           unsigned k)
{
    size_t o = 0;
    int b = bits_for(k), have = 0, i = 0;
    uint64_t acc = 0, mask = (1u << b) - 1;

    if (b == 1)
        for (; i + 8 <= n; i += 8)
            unpack8(cells + i, packed[o++]);
    for (; i < n; i++) {
        if (have < b) {
            acc |= (uint64_t)packed[o++] << have;
            have += 8;
        }
        cells[i] = (uint8_t)(acc & mask);
        acc >>= b;
        have -= b;
    }
}

/* ---------------------------------------------------------------------
 * State texts on a layout.
 */
/* One token of a state text at *p: a cell (*value set, returns 1) or
 * any other byte (returns 0, *value untouched); *p moves past it. A
 * "(NNN)" too big for a byte reads as 256; an unclosed one is the byte
 * '('. */
static int token(const char **p, unsigned *value)
{
    const char *t = *p;
    unsigned v = 0;

    if (*t >= '0' && *t <= '9')
        v = (unsigned)(*t - '0');
    else if (*t >= 'a' && *t <= 'z')
        v = (unsigned)(*t - 'a' + 10);
    else if (*t >= 'A' && *t <= 'Z')
        v = (unsigned)(*t - 'A' + 10);
    else if (*t == '(' && t[1] >= '0' && t[1] <= '9') {
        for (t++; *t >= '0' && *t <= '9'; t++)
            if ((v = v * 10 + (unsigned)(*t - '0')) > 256)
                v = 256;
        if (*t != ')') {
            *p += 1;
            return 0;
        }
    } else {
        *p += 1;
        return 0;
    }
    *p = t + 1;
    *value = v;
    return 1;
}

int qn_store__layout_check(const char *layout, int n)
{
    int cells = 0;

    for (const char *p = layout; *p; p++)
        if (*p == '0')
            cells++;
        else if (*p != '.' && *p != '/')
            return 0;
    return cells == n;
}

/* What a layout byte stands for, in messages. */
static const char *expected(char c)
{
    return c == '0' ? "a cell" : c == '/' ? "'/'" : c == '.' ? "'.'" : "?";
}

int qn_store__cells_pack(uint8_t *out, uint8_t *cells, const char *what,
                         const char *text, const char *layout, int n,
                         unsigned k, qn_err *err)
{
    const char *p = text, *l = layout;
    int i = 0;

    /* the text walks the layout: a cell for each '0', the layout's own
     * byte elsewhere ('/' and a newline both separate rows) */
    for (; *l; l++) {
        const char *at = p;
        unsigned v = 0;
        int is_cell = *p ? token(&p, &v) : 0;
        if (*l == '0' && is_cell && v < k) {
            cells[i++] = (uint8_t)v;
            continue;
        }
        if (*l == '0' && is_cell)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "%s at byte %zu: value %u, the rule set has "
                              "%u colours",
                              what, (size_t)(at - text) + 1, v, k);
        if (*l != '0' && !is_cell && (*at == *l || (*l == '/' && *at == '\n')))
            continue;
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "%s at byte %zu: expected %s, got %s%.*s%s "
                          "(the board is \"%.40s%s\")",
                          what, (size_t)(at - text) + 1, expected(*l),
                          *at ? "'" : "the end", *at ? (int)(p - at) : 0, at,
                          *at ? "'" : "", layout,
                          strlen(layout) > 40 ? "..." : "");
    }
    if (*p)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "%s at byte %zu: expected the end, got '%c' (the "
                          "board is \"%.40s%s\")",
                          what, (size_t)(p - text) + 1, *p, layout,
                          strlen(layout) > 40 ? "..." : "");
    qn_store_canon_pack(out, cells, n, k);
    return QN_OK;
}

size_t qn_store__cells_text_max(const char *layout, int n)
{
    /* "(NNN)" for a value above 35: 4 more bytes a cell, and the NUL */
    return strlen(layout) + 4 * (size_t)n + 1;
}

char *qn_store__cells_put(char *dst, const char *layout, const uint8_t *cells)
{
    for (const char *l = layout; *l; l++)
        if (*l == '0')
            dst = qn_state_put_value(dst, *cells++);
        else
            *dst++ = *l;
    *dst = '\0';
    return dst;
}

/* ---------------------------------------------------------------------
 * The SQL functions migration 0004 packs the rows of schema 3 with.
 */

/* 1 when one of the text arguments argv[from..to] (already read with
 * sqlite3_value_text) is a value SQLite had no memory to turn into text:
 * said as out of memory, not as a row that does not fit its board. */
static int text_nomem(sqlite3_context *ctx, sqlite3_value **argv, int from,
                      int to)
{
    for (int i = from; i <= to; i++)
        if (sqlite3_value_type(argv[i]) != SQLITE_NULL &&
            !sqlite3_value_text(argv[i])) {
            sqlite3_result_error_nomem(ctx);
            return 1;
        }
    return 0;
}

/* quench_layout(state): the state text with each cell made '0', NULL
 * when it holds anything but cells, '.', '/' and newlines (or is NULL). */
static void sql_layout(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const char *text = (const char *)sqlite3_value_text(argv[0]), *p;
    char *out, *o;

    (void)argc;
    if (text_nomem(ctx, argv, 0, 0) || !text)
        return;
    if (!(o = out = qn_malloc(strlen(text) + 1))) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    for (p = text; *p;) {
        unsigned v;
        char c = *p;
        if (token(&p, &v))
            *o++ = '0';
        else if (c == '.' || c == '/' || c == '\n')
            *o++ = c == '\n' ? '/' : c;
        else
            break;
    }
    *o = '\0';
    if (!*p)
        sqlite3_result_text(ctx, out, (int)(o - out), free);
    else
        free(out);
}

/* quench_pack(row, what, text, layout, cells, colours): the packed
 * blob, or an error naming the puzzle's row. */
static void sql_pack(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const char *what = (const char *)sqlite3_value_text(argv[1]);
    const char *text = (const char *)sqlite3_value_text(argv[2]);
    const char *layout = (const char *)sqlite3_value_text(argv[3]);
    int n = sqlite3_value_int(argv[4]);
    unsigned k = (unsigned)sqlite3_value_int(argv[5]);
    char msg[512];
    qn_err err;

    (void)argc;
    if (text_nomem(ctx, argv, 1, 3))
        return;
    qn_err_clear(&err);
    if (sqlite3_value_type(argv[4]) == SQLITE_NULL) {
        snprintf(msg, sizeof(msg),
                 "puzzle at row %lld: its rule set is not in the database",
                 (long long)sqlite3_value_int64(argv[0]));
    } else if (!layout || !qn_store__layout_check(layout, n) || k < 2 ||
               k > 255) {
        snprintf(msg, sizeof(msg),
                 "puzzle at row %lld: its rule set's board cannot be read "
                 "from the rule set's first stored state, which is not a "
                 "state text of its %d cells",
                 (long long)sqlite3_value_int64(argv[0]), n);
    } else {
        size_t len = qn_store_canon_size(n, k);
        uint8_t *cells = QN_ALLOCN((size_t)n, uint8_t);
        uint8_t *out = qn_malloc(len);
        int rc = cells && out
                     ? qn_store__cells_pack(out, cells, what, text ? text : "",
                                            layout, n, k, &err)
                     : QN_ENOMEM;
        free(cells);
        if (rc == QN_ENOMEM) { /* SQLite says out of memory */
            free(out);
            sqlite3_result_error_nomem(ctx);
            return;
        }
        if (rc == QN_OK) {
            sqlite3_result_blob(ctx, out, (int)len, free);
            return;
        }
        free(out);
        snprintf(msg, sizeof(msg), "puzzle at row %lld: %s",
                 (long long)sqlite3_value_int64(argv[0]), err.msg);
    }
    sqlite3_result_error(ctx, msg, -1);
}

int qn_store__cells_sql(qn_store *s, int on, qn_err *err)
{
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    int r = sqlite3_create_function(s->db, "quench_layout", 1, flags, NULL,
                                    on ? sql_layout : NULL, NULL, NULL);

    if (r == SQLITE_OK)
        r = sqlite3_create_function(s->db, "quench_pack", 6, flags, NULL,
                                    on ? sql_pack : NULL, NULL, NULL);
    return r == SQLITE_OK ? QN_OK : qn_store__fail(s, r, err);
}
