/* fuzz_pnm: netpbm header + raster (qn_pnm_read_header, read_cells,
 * read_bits) through fmemopen; a raster that reads back is written again
 * (qn_pnm_write_buf) and must read back to the same cells. */
#include <string.h>

#include "base/buf.h"
#include "bigboard/bitboard.h"
#include "bigboard/netpbm.h"
#include "fuzz.h"

#define MAX_CELLS (1 << 20)

static int read_all(const void *data, size_t size, unsigned k,
                    qn_pnm_info *info, uint8_t **cells_out)
{
    *cells_out = NULL;
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return QN_EIO;
    qn_err err = QN_ERR_INIT;
    int rc = qn_pnm_read_header(f, info, &err);
    if (rc == QN_OK) {
        FUZZ_ASSERT(info->w >= 1 && info->h >= 1);
        FUZZ_ASSERT((long long)info->w * info->h <= QN_PNM_MAX_CELLS);
        FUZZ_ASSERT(info->maxval >= 1 && info->maxval <= 255);
        if ((long long)info->w * info->h > MAX_CELLS) {
            fclose(f);
            return QN_ELIMIT;
        }
        size_t n = (size_t)info->w * info->h;
        uint8_t *cells = malloc(n);
        rc = qn_pnm_read_cells(f, info, k, cells, &err);
        if (rc == QN_OK) {
            for (size_t i = 0; i < n; i++)
                FUZZ_ASSERT(cells[i] < k);
            *cells_out = cells;
        } else {
            free(cells);
        }
    }
    if (rc != QN_OK)
        FUZZ_ASSERT(err.code == rc);
    fclose(f);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > FUZZ_MAX_INPUT)
        return 0;
    qn_pnm_info info;
    uint8_t *cells;
    /* k from the header's maxval when it reads, else 2 */
    unsigned k = 2;
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;
    qn_err err = QN_ERR_INIT;
    if (qn_pnm_read_header(f, &info, &err) == QN_OK && info.maxval < 255)
        k = info.maxval + 1;
    fclose(f);

    if (read_all(data, size, k, &info, &cells) == QN_OK) {
        /* round trip in all four flavours that can hold k */
        for (unsigned flags = 0; flags < 4; flags++) {
            if (k != 2 && !(flags & QN_PNM_PGM))
                continue;
            qn_buf out = QN_BUF_INIT;
            qn_err e = QN_ERR_INIT;
            FUZZ_ASSERT(qn_pnm_write_buf(&out, info.w, info.h, k, cells, flags,
                                         &e) == QN_OK);
            qn_pnm_info info2;
            uint8_t *back;
            FUZZ_ASSERT(read_all(out.buf, out.len, k, &info2, &back) == QN_OK);
            FUZZ_ASSERT(info2.w == info.w && info2.h == info.h);
            FUZZ_ASSERT(memcmp(back, cells, (size_t)info.w * info.h) == 0);
            free(back);
            qn_buf_release(&out);
        }
        free(cells);
    }

    /* bit boards */
    f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;
    qn_err e3 = QN_ERR_INIT;
    if (qn_pnm_read_header(f, &info, &e3) == QN_OK &&
        (long long)info.w * info.h <= MAX_CELLS) {
        qn_bitboard b;
        qn_bitboard_init(&b, info.w, info.h);
        if (qn_pnm_read_bits(f, &info, &b, &e3) == QN_OK) {
            FUZZ_ASSERT((qn_bitboard_row(&b, b.h - 1)[b.stride - 1] &
                         ~qn_bitboard_tail_mask(&b)) == 0);
            qn_buf out = QN_BUF_INIT;
            qn_pnm_write_bits_buf(&out, &b, QN_PNM_RAW);
            qn_buf_release(&out);
        }
        qn_bitboard_release(&b);
    }
    fclose(f);
    return 0;
}
