/* fuzz_flip: Flip game IDs. qn_flip_decode either fails cleanly (outputs
 * zeroed, located error) or its matrix, written as a quench rule file and
 * encoded again with qn_flip_encode, reproduces the ID (canonical form:
 * "WxH:", lowercase hex, no generator letter). */
#include <ctype.h>
#include <string.h>

#include "base/buf.h"
#include "export/flip_id.h"
#include "fuzz.h"
#include "rules/rules.h"

#define MAX_FLIP_CELLS 64 /* round trip only small boards (YAML size) */

static void canonical(qn_buf *out, const char *id, int w, int h)
{
    const char *colon = strchr(id, ':');
    FUZZ_ASSERT(colon != NULL);
    qn_buf_addf(out, "%dx%d:", w, h);
    for (const char *p = colon + 1; *p; p++)
        qn_buf_addc(out, (char)tolower((unsigned char)*p));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    char *id = malloc(size + 1);
    memcpy(id, data, size);
    id[size] = '\0';
    size = strlen(id); /* the API reads a C string: stop at a NUL */
    int w = -1, h = -1;
    uint8_t *m = (uint8_t *)id, *g = (uint8_t *)id;
    qn_err err = QN_ERR_INIT;
    int rc = qn_flip_decode(id, &w, &h, &m, &g, &err);
    if (rc != QN_OK) {
        FUZZ_ASSERT(w == 0 && h == 0 && m == NULL && g == NULL);
        FUZZ_ASSERT(rc == QN_ESYNTAX || rc == QN_EINVAL || rc == QN_ELIMIT);
        FUZZ_ASSERT(err.code == rc);
        if (rc != QN_ELIMIT)
            FUZZ_ASSERT(err.line == 1 && err.col >= 1 &&
                        (size_t)err.col <= size + 1);
        free(id);
        return 0;
    }
    FUZZ_ASSERT(w >= 1 && h >= 1 && m && g);
    long n = (long)w * h;
    FUZZ_ASSERT(n <= QN_RULES_MAX_CELLS);
    for (long i = 0; i < n * n; i++)
        FUZZ_ASSERT(m[i] <= 1);
    for (long i = 0; i < n; i++)
        FUZZ_ASSERT(g[i] <= 1);

    /* every press must change something for quench to load the rule */
    int loadable = n <= MAX_FLIP_CELLS;
    for (long j = 0; loadable && j < n; j++) {
        int any = 0;
        for (long i = 0; i < n; i++)
            any |= m[i * n + j];
        loadable = any;
    }
    if (loadable) {
        qn_buf y = QN_BUF_INIT;
        qn_buf_addf(&y,
                    "quench: 1\nname: flip\ncolours: 2\n"
                    "board: {grid: [%d, %d]}\neffects:\n",
                    w, h);
        for (long j = 0; j < n; j++) {
            qn_buf_addf(&y, "  %ld: [", j);
            const char *sep = "";
            for (long i = 0; i < n; i++)
                if (m[i * n + j]) {
                    qn_buf_addf(&y, "%s%ld", sep, i);
                    sep = ", ";
                }
            qn_buf_adds(&y, "]\n");
        }
        qn_rules *r = NULL;
        qn_err e2 = QN_ERR_INIT;
        if (qn_rules_load_buf(&r, y.buf, y.len, "flip.yaml", &e2) != QN_OK)
            fprintf(stderr, "%s\n%d:%d: %s\n", y.buf, e2.line, e2.col, e2.msg);
        FUZZ_ASSERT(r != NULL);
        FUZZ_ASSERT(qn_rules_ncells(r) == n);
        FUZZ_ASSERT(memcmp(qn_rules_matrix(r), m, (size_t)(n * n)) == 0);
        qn_err e3 = QN_ERR_INIT;
        FUZZ_ASSERT(qn_flip_can_express(r, &e3) == QN_OK);
        qn_buf enc = QN_BUF_INIT, want = QN_BUF_INIT;
        FUZZ_ASSERT(qn_flip_encode(&enc, r, g, &e3) == QN_OK);
        canonical(&want, id, w, h);
        if (strcmp(enc.buf, want.buf) != 0)
            fprintf(stderr, "encode: %s\nwant:   %s\n", enc.buf, want.buf);
        FUZZ_ASSERT(strcmp(enc.buf, want.buf) == 0);
        /* and it decodes to the same thing */
        int w2, h2;
        uint8_t *m2, *g2;
        FUZZ_ASSERT(qn_flip_decode(enc.buf, &w2, &h2, &m2, &g2, &e3) == QN_OK);
        FUZZ_ASSERT(w2 == w && h2 == h);
        FUZZ_ASSERT(memcmp(m2, m, (size_t)(n * n)) == 0 &&
                    memcmp(g2, g, (size_t)n) == 0);
        free(m2);
        free(g2);
        qn_buf_release(&enc);
        qn_buf_release(&want);
        qn_rules_free(r);
        qn_buf_release(&y);
    }
    free(m);
    free(g);
    free(id);
    return 0;
}
