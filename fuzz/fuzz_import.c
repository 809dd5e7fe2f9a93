/* fuzz_import: the quench-pack JSON reader (qn_pack_doc_parse_json); a
 * document that parses is verified, written back as JSON and re-read. */
#include <string.h>

#include "export/export.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    qn_pack_doc doc;
    qn_err err = QN_ERR_INIT;
    int rc =
        qn_pack_doc_parse_json(&doc, (const char *)data, size, "fuzz", &err);
    if (rc != QN_OK) {
        FUZZ_ASSERT(rc == QN_ESYNTAX || rc == QN_EINVAL || rc == QN_ELIMIT);
        FUZZ_ASSERT(doc.rules == NULL && doc.puzzles == NULL);
        return 0;
    }
    for (size_t i = 0; i < doc.npuzzles; i++)
        FUZZ_ASSERT(doc.puzzles[i].rule < doc.nrules);
    qn_err e2 = QN_ERR_INIT;
    (void)qn_pack_doc_verify(&doc, &e2);
    qn_buf out = QN_BUF_INIT;
    qn_err e3 = QN_ERR_INIT;
    if (qn_export_write(&out, &doc, QN_EXPORT_JSON, NULL, &e3) == QN_OK) {
        qn_pack_doc back;
        qn_err e4 = QN_ERR_INIT;
        int rc2 = qn_pack_doc_parse_json(&back, out.buf, out.len, "again", &e4);
        if (rc2 != QN_OK)
            fprintf(stderr, "re-read: %s:%d:%d: %s\n", e4.source, e4.line,
                    e4.col, e4.msg);
        FUZZ_ASSERT(rc2 == QN_OK);
        FUZZ_ASSERT(back.nrules == doc.nrules && back.npuzzles == doc.npuzzles);
        qn_pack_doc_release(&back);
    }
    qn_buf_release(&out);
    qn_pack_doc_release(&doc);
    return 0;
}
