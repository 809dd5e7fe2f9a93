/*
 * export_dir.c: the pack as separate level files (docs/EXPORT.md, "dir"),
 * as LDtk's "separate level files": a table of contents, index.json,
 * with the pack, its rules and one entry per level naming its file, and
 * one file per level holding that puzzle's object as the json export
 * writes it. The files' bytes; the command writes the folder.
 */
#include "export/export.h"

#include <stdio.h>

#include "base/jsonw.h"
#include "export_internal.h"
#include "rules/puzzle_id.h"

const char *qn_export_dir_level_path(char out[QN_EXPORT_DIR_PATH],
                                     const qn_pack_doc *doc, size_t i)
{
    /* as wide as the last position, at least 4 digits, so the names
     * sort in pack order */
    int width = 4;

    for (size_t n = doc->npuzzles; n >= 10000; n /= 10)
        width++;
    snprintf(out, QN_EXPORT_DIR_PATH, "levels/%0*lld.json", width,
             (long long)doc->puzzles[i].position);
    return out;
}

int qn_export_dir_index(qn_buf *out, const qn_pack_doc *doc, qn_err *err)
{
    char path[QN_EXPORT_DIR_PATH], id[QN_PUZZLE_ID_HEX];
    qn_jsonw w;

    qn_jsonw_init(&w, out);
    qn_jsonw_obj(&w);
    qn_jsonw_key(&w, "$schema");
    qn_jsonw_str(&w, QN_PACK_SCHEMA_URL "#/$defs/index");
    qn_jsonw_key(&w, "format"), qn_jsonw_str(&w, QN_PACK_INDEX_FORMAT);
    qn_jsonw_key(&w, "format_version");
    qn_jsonw_int(&w, QN_PACK_FORMAT_VERSION);
    qn_export__json_pack(&w, doc);
    qn_jsonw_key(&w, "rules");
    qn_jsonw_arr(&w);
    for (size_t i = 0; i < doc->nrules; i++)
        qn_export__write_rule(&w, &doc->rules[i]);
    qn_jsonw_end(&w);
    qn_jsonw_key(&w, "levels");
    qn_jsonw_arr(&w);
    for (size_t i = 0; i < doc->npuzzles; i++) {
        const qn_pack_puzzle *p = &doc->puzzles[i];
        qn_puzzle_id_hex(id, p->id);
        qn_jsonw_obj(&w);
        qn_jsonw_key(&w, "file");
        qn_jsonw_str(&w, qn_export_dir_level_path(path, doc, i));
        qn_jsonw_key(&w, "id"), qn_jsonw_str(&w, id);
        qn_jsonw_key(&w, "position"), qn_jsonw_int(&w, p->position);
        if (p->slot > 0)
            qn_jsonw_key(&w, "slot"), qn_jsonw_int(&w, p->slot);
        qn_jsonw_key(&w, "section");
        qn_jsonw_str(&w, p->section ? p->section : "");
        qn_jsonw_key(&w, "rule"), qn_jsonw_str(&w, doc->rules[p->rule].hash);
        qn_jsonw_key(&w, "min_presses"), qn_jsonw_uint(&w, p->min_presses);
        qn_jsonw_end(&w);
    }
    qn_jsonw_end(&w);
    qn_jsonw_end(&w);
    qn_buf_addc(out, '\n');
    return qn_buf_check(out, err);
}

int qn_export_dir_level(qn_buf *out, const qn_pack_doc *doc, size_t i,
                        qn_err *err)
{
    qn_jsonw w;

    qn_jsonw_init(&w, out);
    qn_jsonw_obj(&w);
    qn_export__json_puzzle(&w, doc, &doc->puzzles[i]);
    qn_jsonw_end(&w);
    qn_buf_addc(out, '\n');
    return qn_buf_check(out, err);
}
