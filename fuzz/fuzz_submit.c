/* fuzz_submit: the submission stream reader (qn_submit_open/next) over a
 * memory stream; the first byte picks the board and the format. */
#include <string.h>

#include "fuzz.h"
#include "rules/layout.h"
#include "validate/submit.h"

#define NBOARDS 3
static qn_layout boards[NBOARDS];
static unsigned colours[NBOARDS] = {2, 3, 4};
static int ready;

static void setup(void)
{
    static const uint8_t mask3[9] = {1, 1, 1, 1, 0, 1, 1, 1, 1};
    qn_err e = QN_ERR_INIT;
    int ok = qn_layout_init_grid(&boards[0], 5, 5, 0, NULL, &e) == QN_OK &&
             qn_layout_init_grid(&boards[1], 3, 3, 0, mask3, &e) == QN_OK &&
             qn_layout_init_grid(&boards[2], 2, 2, 0, NULL, &e) == QN_OK;
    FUZZ_ASSERT(ok);
    ready = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > FUZZ_MAX_INPUT)
        return 0;
    if (!ready)
        setup();
    int b = data[0] % NBOARDS;
    qn_submit_format fmt = (qn_submit_format)((data[0] / NBOARDS) % 5);
    const qn_layout *l = &boards[b];
    unsigned k = colours[b];
    FILE *f = fmemopen((void *)(data + 1), size - 1, "r");
    if (!f)
        return 0;
    qn_err err = QN_ERR_INIT;
    qn_submit_reader *r = NULL;
    if (qn_submit_open(&r, f, "fuzz", l, k, fmt, &err) != QN_OK) {
        FUZZ_ASSERT(r == NULL);
        fclose(f);
        return 0;
    }
    FUZZ_ASSERT(qn_submit_format_name(qn_submit_detected(r)) != NULL);
    const qn_submission *rec;
    uint64_t seq = 0;
    int rc, last = 0;
    while ((rc = qn_submit_next(r, &rec, &err)) == 1) {
        FUZZ_ASSERT(rec->seq == ++seq);
        FUZZ_ASSERT(rec->id != NULL);
        FUZZ_ASSERT(strlen(rec->id) <= QN_SUBMIT_MAX_ID);
        FUZZ_ASSERT(rec->line >= 1 && rec->col >= 1);
        FUZZ_ASSERT(rec->line >= last);
        last = rec->line;
        if (rec->ok) {
            FUZZ_ASSERT(rec->err.code == QN_OK);
            for (int i = 0; i < l->ncells; i++)
                FUZZ_ASSERT(rec->cells[i] < k);
            if (rec->has_solution)
                for (int i = 0; i < l->ncells; i++)
                    FUZZ_ASSERT(rec->solution[i] < k);
        } else {
            FUZZ_ASSERT(rec->err.code == QN_ESYNTAX ||
                        rec->err.code == QN_ELIMIT);
            FUZZ_ASSERT(rec->err.line >= 1 && rec->err.col >= 1);
        }
    }
    FUZZ_ASSERT(rc <= 0);
    /* the end is sticky */
    const qn_submission *rec2;
    qn_err err2 = QN_ERR_INIT;
    FUZZ_ASSERT(qn_submit_next(r, &rec2, &err2) == rc);
    qn_submit_close(r);
    fclose(f);
    return 0;
}
