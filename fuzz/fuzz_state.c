/* fuzz_state: qn_submit_parse_state (state text and JSON array forms) on a
 * few fixed boards; the first byte picks the board. */
#include <string.h>

#include "fuzz.h"
#include "rules/layout.h"
#include "validate/submit.h"

#define NBOARDS 6
static qn_layout boards[NBOARDS];
static unsigned colours[NBOARDS] = {2, 3, 5, 2, 7, 255};
static int ready;

static void setup(void)
{
    static const uint8_t mask3[9] = {1, 1, 1, 1, 0, 1, 1, 1, 1};
    qn_err e = QN_ERR_INIT;
    int ok = qn_layout_init_grid(&boards[0], 5, 5, 0, NULL, &e) == QN_OK &&
             qn_layout_init_grid(&boards[1], 3, 3, 0, mask3, &e) == QN_OK &&
             qn_layout_init_grid(&boards[2], 4, 2, QN_WRAP_BOTH, NULL, &e) ==
                 QN_OK &&
             qn_layout_init_hexagon(&boards[3], 2, &e) == QN_OK &&
             qn_layout_init_graph(&boards[4], 7, &e) == QN_OK &&
             qn_layout_init_grid(&boards[5], 1, 1, 0, NULL, &e) == QN_OK;
    FUZZ_ASSERT(ok);
    ready = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > FUZZ_MAX_INPUT)
        return 0;
    if (!ready)
        setup();
    int b = data[0] % NBOARDS;
    const qn_layout *l = &boards[b];
    unsigned k = colours[b];
    /* exact-size copy so ASan sees any read past len */
    char *text = malloc(size - 1 ? size - 1 : 1);
    memcpy(text, data + 1, size - 1);
    uint8_t *cells = malloc((size_t)l->ncells);
    qn_err err = QN_ERR_INIT;
    int rc = qn_submit_parse_state(cells, l, k, text, size - 1, &err);
    if (rc == QN_OK) {
        for (int i = 0; i < l->ncells; i++)
            FUZZ_ASSERT(cells[i] < k);
    } else {
        FUZZ_ASSERT(rc == QN_ESYNTAX || rc == QN_ELIMIT);
        FUZZ_ASSERT(err.code == rc);
        FUZZ_ASSERT(err.line >= 1 && err.col >= 1);
    }
    free(cells);
    free(text);
    return 0;
}
