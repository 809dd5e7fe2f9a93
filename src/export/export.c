/*
 * export.c: qn_export_write, the pack document (export.h) written as
 * json, jsonl, csv, Flip IDs, svg, png (png.c) or html (export_html.c),
 * and the format names. The document is read from the store by pack_load.c,
 * from JSON by json_pack.c, and imported by pack_import.c.
 */
#include "export/export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"
#include "base/mem.h"
#include "base/text.h"
#include "export/flip_id.h"
#include "export/png.h"
#include "export/svg.h"
#include "export_internal.h"
#include "rules/puzzle_id.h"
#include "rules/state.h"
#include "solve/human.h"

/* ---- formats ------------------------------------------------------------ */

static const char *const format_names[] = {
#define QN_X_(e, s) s,
    QN_EXPORT_FORMATS(QN_X_)
#undef QN_X_
};
/* ", json, jsonl, ...": the spellings for messages, from the same list */
#define QN_X_(e, s) ", " s
static const char format_list[] = QN_EXPORT_FORMATS(QN_X_);
#undef QN_X_

const char *qn_export_format_name(qn_export_format f)
{
    if ((unsigned)f >= QN_EXPORT_NFORMATS)
        return "?";
    return format_names[f];
}

int qn_export_format_parse(qn_export_format *out, const char *name, qn_err *err)
{
    for (int f = 0; f < QN_EXPORT_NFORMATS; f++)
        if (strcmp(name, format_names[f]) == 0) {
            *out = (qn_export_format)f;
            return QN_OK;
        }
    return qn_err_set(err, QN_ESYNTAX, 0, 0, "unknown format '%s' (%s)", name,
                      format_list + 2);
}

/* ---- writers ------------------------------------------------------------ */

static void json_cells(qn_jsonw *w, const uint8_t *v, int n)
{
    qn_jsonw_arr(w);
    for (int i = 0; i < n; i++)
        qn_jsonw_int(w, v[i]);
    qn_jsonw_end(w);
}

static void json_pack_meta(qn_jsonw *w, const qn_pack_doc *doc)
{
    qn_jsonw_key(w, "format"), qn_jsonw_str(w, QN_PACK_FORMAT);
    qn_jsonw_key(w, "format_version"), qn_jsonw_int(w, QN_PACK_FORMAT_VERSION);
    qn_export__json_pack(w, doc);
}

void qn_export__json_pack(qn_jsonw *w, const qn_pack_doc *doc)
{
    qn_jsonw_key(w, "pack");
    qn_jsonw_obj(w);
    qn_jsonw_key(w, "name"), qn_jsonw_str(w, doc->name);
    qn_jsonw_key(w, "title"), qn_jsonw_str(w, doc->title);
    qn_jsonw_key(w, "description"), qn_jsonw_str(w, doc->description);
    qn_jsonw_key(w, "author"), qn_jsonw_str(w, doc->author);
    qn_jsonw_key(w, "version"), qn_jsonw_int(w, doc->version);
    qn_jsonw_end(w);
}

void qn_export__write_rule(qn_jsonw *w, const qn_pack_rule *pr)
{
    int n = pr->ncells;

    qn_jsonw_obj(w);
    qn_jsonw_key(w, "hash"), qn_jsonw_str(w, pr->hash);
    qn_jsonw_key(w, "name"), qn_jsonw_str(w, pr->name);
    qn_jsonw_key(w, "title"), qn_jsonw_str(w, pr->title);
    qn_jsonw_key(w, "description"), qn_jsonw_str(w, pr->description);
    qn_jsonw_key(w, "author"), qn_jsonw_str(w, pr->author);
    qn_jsonw_key(w, "colours"), qn_jsonw_int(w, pr->colours);
    qn_jsonw_key(w, "board");
    qn_jsonw_obj(w);
    qn_jsonw_key(w, "kind"), qn_jsonw_str(w, qn_layout_kind_name(pr->kind));
    qn_jsonw_key(w, "width"), qn_jsonw_int(w, pr->w);
    qn_jsonw_key(w, "height"), qn_jsonw_int(w, pr->h);
    qn_jsonw_key(w, "wrap"), qn_jsonw_str(w, qn_export__wrap_name(pr->wrap));
    qn_jsonw_key(w, "side"), qn_jsonw_int(w, pr->side);
    qn_jsonw_end(w);
    qn_jsonw_key(w, "ncells"), qn_jsonw_int(w, n);
    qn_jsonw_key(w, "goal"), json_cells(w, pr->goal, n);
    qn_jsonw_key(w, "cells");
    qn_jsonw_arr(w);
    for (int j = 0; j < n; j++) {
        qn_jsonw_obj(w);
        qn_jsonw_key(w, "index"), qn_jsonw_int(w, j);
        qn_jsonw_key(w, "row"), qn_jsonw_int(w, pr->row[j]);
        qn_jsonw_key(w, "col"), qn_jsonw_int(w, pr->col[j]);
        qn_jsonw_key(w, "effects");
        qn_jsonw_arr(w);
        for (int i = 0; i < n; i++) {
            unsigned a = pr->matrix[(size_t)i * (size_t)n + (size_t)j];
            if (!a)
                continue;
            qn_jsonw_obj(w);
            qn_jsonw_key(w, "cell"), qn_jsonw_int(w, i);
            qn_jsonw_key(w, "amount"), qn_jsonw_int(w, a);
            qn_jsonw_end(w);
        }
        qn_jsonw_end(w);
        qn_jsonw_end(w);
    }
    qn_jsonw_end(w);
    qn_jsonw_key(w, "tiers");
    qn_jsonw_arr(w);
    for (size_t t = 0; t < pr->ntiers; t++) {
        qn_jsonw_obj(w);
        qn_jsonw_key(w, "name"), qn_jsonw_str(w, pr->tier_name[t]);
        qn_jsonw_key(w, "lo"), qn_jsonw_int(w, pr->tier_lo[t]);
        qn_jsonw_key(w, "hi"), qn_jsonw_int(w, pr->tier_hi[t]);
        qn_jsonw_end(w);
    }
    qn_jsonw_end(w);
    /* the play kit: what a loader needs for the least presses left from
     * any position (docs/EXPORT.md, "Hints") */
    if (pr->kernel_known) {
        qn_jsonw_key(w, "kernel");
        qn_jsonw_arr(w);
        for (size_t g = 0; g < pr->nkernel; g++) {
            qn_jsonw_obj(w);
            qn_jsonw_key(w, "order"), qn_jsonw_int(w, pr->kernel_order[g]);
            qn_jsonw_key(w, "presses");
            json_cells(w, pr->kernel + g * (size_t)n, n);
            qn_jsonw_end(w);
        }
        qn_jsonw_end(w);
    }
    qn_jsonw_end(w);
}

void qn_export__json_puzzle(qn_jsonw *w, const qn_pack_doc *doc,
                            const qn_pack_puzzle *p)
{
    const qn_pack_rule *pr = &doc->rules[p->rule];
    char id[QN_PUZZLE_ID_HEX];

    qn_puzzle_id_hex(id, p->id);
    qn_jsonw_key(w, "id"), qn_jsonw_str(w, id);
    qn_jsonw_key(w, "position"), qn_jsonw_int(w, p->position);
    qn_jsonw_key(w, "rule"), qn_jsonw_str(w, pr->hash);
    qn_jsonw_key(w, "state"), json_cells(w, p->state, pr->ncells);
    qn_jsonw_key(w, "min_presses"), qn_jsonw_uint(w, p->min_presses);
    qn_jsonw_key(w, "optimal_solutions"), qn_jsonw_uint(w, p->noptimal);
    qn_jsonw_key(w, "solution"), json_cells(w, p->solution, pr->ncells);
    qn_jsonw_key(w, "grade"), qn_jsonw_str(w, p->grade);
    qn_jsonw_key(w, "grader_version"), qn_jsonw_str(w, p->grader);
    qn_jsonw_key(w, "seed"), qn_jsonw_str(w, p->seed);
    qn_jsonw_key(w, "index"), qn_jsonw_int(w, p->index);
    qn_jsonw_key(w, "submission"), qn_jsonw_str(w, p->submission);
    qn_jsonw_key(w, "source"), qn_jsonw_str(w, p->source);
    qn_jsonw_key(w, "meta"), qn_jsonw_str(w, p->meta);
    /* the level slot and recipe section (docs/EXPORT.md, "Slots and
     * sections"); a document read without slots has none to write */
    if (p->slot > 0)
        qn_jsonw_key(w, "slot"), qn_jsonw_int(w, p->slot);
    qn_jsonw_key(w, "section"), qn_jsonw_str(w, p->section ? p->section : "");
    qn_export_json_human(w, p->human_level, p->human_score, p->human_model);
}

void qn_export_json_human(qn_jsonw *w, int level, int64_t score, int model)
{
    qn_jsonw_key(w, "human_level");
    if (model < 1) {
        qn_jsonw_null(w);
        qn_jsonw_key(w, "human_level_number"), qn_jsonw_null(w);
        qn_jsonw_key(w, "human_score"), qn_jsonw_null(w);
        qn_jsonw_key(w, "human_model_version"), qn_jsonw_null(w);
        return;
    }
    qn_jsonw_str(w, qn_human_level_name(level));
    qn_jsonw_key(w, "human_level_number"), qn_jsonw_int(w, level);
    qn_jsonw_key(w, "human_score"), qn_jsonw_int(w, score);
    qn_jsonw_key(w, "human_model_version"), qn_jsonw_int(w, model);
}

static void write_json(qn_buf *out, const qn_pack_doc *doc)
{
    qn_jsonw w;

    qn_jsonw_init(&w, out);
    qn_jsonw_obj(&w);
    qn_jsonw_key(&w, "$schema"), qn_jsonw_str(&w, QN_PACK_SCHEMA_URL);
    json_pack_meta(&w, doc);
    qn_jsonw_key(&w, "rules");
    qn_jsonw_arr(&w);
    for (size_t i = 0; i < doc->nrules; i++)
        qn_export__write_rule(&w, &doc->rules[i]);
    qn_jsonw_end(&w);
    qn_jsonw_key(&w, "puzzles");
    qn_jsonw_arr(&w);
    for (size_t i = 0; i < doc->npuzzles; i++) {
        qn_jsonw_obj(&w);
        qn_export__json_puzzle(&w, doc, &doc->puzzles[i]);
        qn_jsonw_end(&w);
    }
    qn_jsonw_end(&w);
    qn_jsonw_end(&w);
    qn_buf_addc(out, '\n');
}

/* jsonl: a header record (pack and rules), then one record per puzzle. */
static void write_jsonl(qn_buf *out, const qn_pack_doc *doc)
{
    qn_jsonw w;

    qn_jsonw_init(&w, out);
    qn_jsonw_obj(&w);
    qn_jsonw_key(&w, "record"), qn_jsonw_str(&w, "pack");
    json_pack_meta(&w, doc);
    qn_jsonw_key(&w, "rules");
    qn_jsonw_arr(&w);
    for (size_t i = 0; i < doc->nrules; i++)
        qn_export__write_rule(&w, &doc->rules[i]);
    qn_jsonw_end(&w);
    qn_jsonw_key(&w, "puzzle_count"), qn_jsonw_uint(&w, doc->npuzzles);
    qn_jsonw_end(&w);
    qn_buf_addc(out, '\n');
    for (size_t i = 0; i < doc->npuzzles; i++) {
        qn_jsonw_init(&w, out);
        qn_jsonw_obj(&w);
        qn_jsonw_key(&w, "record"), qn_jsonw_str(&w, "puzzle");
        qn_export__json_puzzle(&w, doc, &doc->puzzles[i]);
        qn_jsonw_end(&w);
        qn_buf_addc(out, '\n');
    }
}

/*
 * One RFC 4180 field: quoted when it holds a comma, quote, CR or LF. A
 * spreadsheet runs a cell that begins with = + - @ TAB or CR as a formula
 * (CSV injection): such a field gets a leading ' inside the quotes, as
 * OWASP recommends, so it shows as text. quench's own values (states,
 * solutions, tier names, hex seeds) never begin with one of them; a hand
 * edited or older database may hold anything.
 */
static void csv_field(qn_buf *out, const char *s)
{
    int formula = *s && strchr("=+-@\t\r", *s);

    if (!formula && !strpbrk(s, ",\"\r\n")) {
        qn_buf_adds(out, s);
        return;
    }
    qn_buf_addc(out, '"');
    if (formula)
        qn_buf_addc(out, '\'');
    for (; *s; s++) {
        if (*s == '"')
            qn_buf_addc(out, '"');
        qn_buf_addc(out, *s);
    }
    qn_buf_addc(out, '"');
}

/*
 * A text field from outside (a submission's id and source; a grade or a
 * seed, which a hand-edited database may hold anything in): its control
 * characters, line separators and bidirectional controls escaped as in
 * everything quench prints (text.h), then a field. A csv file is read on
 * terminals and in spreadsheets: an ESC or a U+202E must reach neither.
 */
static void csv_text(qn_buf *out, qn_buf *tmp, const char *s)
{
    qn_buf_reset(tmp);
    qn_text_escape(tmp, s);
    if (tmp->failed) /* out of memory: out fails with it */
        qn_buf_fail(out);
    else
        csv_field(out, tmp->buf);
}

/*
 * meta, the text of a JSON object: escaped the same way but for its
 * whitespace (tab, LF, CR between tokens of an imported document), so it
 * stays JSON of the same meaning: anything else unsafe can only stand
 * inside a string, where \uNNNN is JSON's own escape for it.
 */
static void csv_json(qn_buf *out, qn_buf *tmp, const char *s)
{
    qn_buf_reset(tmp);
    for (;;) {
        size_t n = strcspn(s, "\t\n\r");
        if (qn_buf_grow(tmp, QN_TEXT_ESCAPED_MAX(n) + 1)) {
            qn_buf_fail(out);
            return;
        }
        tmp->len =
            (size_t)(qn_text_put_escaped(tmp->buf + tmp->len, s, n) - tmp->buf);
        if (!s[n])
            break;
        tmp->buf[tmp->len++] = s[n];
        s += n + 1;
    }
    tmp->buf[tmp->len] = '\0';
    csv_field(out, tmp->buf);
}

/*
 * A row's level slot and recipe section, and its rule (the hash and the
 * name): a row stands alone, and a mixed pack's rows split by rule or
 * section (docs/EXPORT.md, "csv").
 */
static void csv_row_place(qn_buf *out, qn_buf *tmp, const qn_pack_doc *doc,
                          const qn_pack_puzzle *p)
{
    const qn_pack_rule *pr = &doc->rules[p->rule];

    if (p->slot > 0)
        qn_buf_addf(out, ",%lld,", (long long)p->slot);
    else
        qn_buf_adds(out, ",,");
    csv_text(out, tmp, p->section ? p->section : "");
    qn_buf_addf(out, ",%s,", pr->hash);
    csv_text(out, tmp, pr->name);
}

/*
 * The json document's puzzle fields with the rule as its hash and name
 * (not its cells), with the pack's version on every row so that each row
 * stands alone; state and solution in the state text format.
 */
/* ,LEVEL,SCORE,MODEL: "table", 7680 (thousandths), 1; three empty
 * fields when not graded. */
static void csv_human(qn_buf *out, const qn_pack_puzzle *p)
{
    if (p->human_model < 1) {
        qn_buf_adds(out, ",,,");
        return;
    }
    qn_buf_addf(out, ",%s,%lld,%d", qn_human_level_name(p->human_level),
                (long long)p->human_score, p->human_model);
}

static void write_csv(qn_buf *out, const qn_pack_doc *doc)
{
    qn_buf text = QN_BUF_INIT;
    char id[QN_PUZZLE_ID_HEX];

    qn_buf_adds(out, "id,position,state,min_presses,optimal_solutions,"
                     "solution,grade,seed,pack_version,submission,source,"
                     "meta,slot,section,rule,rule_name,human_level,"
                     "human_score,human_model_version\r\n");
    for (size_t i = 0; i < doc->npuzzles; i++) {
        const qn_pack_puzzle *p = &doc->puzzles[i];
        const qn_layout *l = qn_rules_layout(doc->rules[p->rule].rules);

        qn_puzzle_id_hex(id, p->id);
        qn_buf_addf(out, "%s,%lld,", id, (long long)p->position);
        qn_buf_reset(&text);
        qn_state_format(&text, l, p->state, '/');
        if (text.failed)
            qn_buf_fail(out);
        csv_field(out, text.buf);
        qn_buf_addf(out, ",%llu,%llu,", (unsigned long long)p->min_presses,
                    (unsigned long long)p->noptimal);
        qn_buf_reset(&text);
        qn_state_format(&text, l, p->solution, '/');
        if (text.failed)
            qn_buf_fail(out);
        csv_field(out, text.buf);
        qn_buf_addc(out, ',');
        csv_text(out, &text, p->grade);
        qn_buf_addc(out, ',');
        csv_text(out, &text, p->seed);
        qn_buf_addf(out, ",%lld,", (long long)doc->version);
        csv_text(out, &text, p->submission);
        qn_buf_addc(out, ',');
        csv_text(out, &text, p->source);
        qn_buf_addc(out, ',');
        csv_json(out, &text, p->meta);
        csv_row_place(out, &text, doc, p);
        csv_human(out, p);
        qn_buf_adds(out, "\r\n");
    }
    qn_buf_release(&text);
}

/*
 * Say which puzzle an export cannot hold: err already holds why (the
 * rule's reason), and the puzzle goes in front of it.
 */
static int blocked(qn_err *err, const qn_pack_puzzle *p)
{
    char name[QN_EXPORT__NAME], why[sizeof(err->msg)];

    if (!err)
        return QN_EINVAL;
    snprintf(why, sizeof(why), "%s", err->msg);
    return qn_err_set(err, err->code, 0, 0, "%s: %s",
                      qn_export__puzzle_name(name, p), why);
}

static int write_flip(qn_buf *out, const qn_pack_doc *doc, qn_err *err)
{
    for (size_t i = 0; i < doc->npuzzles; i++) {
        const qn_pack_puzzle *p = &doc->puzzles[i];
        if (qn_flip_encode(out, doc->rules[p->rule].rules, p->state, err) !=
            QN_OK)
            return blocked(err, p);
        qn_buf_addc(out, '\n');
    }
    return QN_OK;
}

/* One puzzle alone, titled with the pack, its position and its id; as a
 * PNG, the same picture without its text (png.h). */
static int write_svg_board(qn_buf *out, const qn_pack_doc *doc,
                           const qn_pack_puzzle *p, int png, qn_err *err)
{
    qn_svg_opts o;
    qn_buf t = QN_BUF_INIT;
    char name[QN_EXPORT__NAME];
    int rc = QN_OK;

    memset(&o, 0, sizeof(o));
    qn_buf_addf(&t, "%s, %s", *doc->title ? doc->title : doc->name,
                qn_export__puzzle_name(name, p));
    o.title = t.buf;
    if (t.failed)
        rc = qn_err_nomem(err);
    else if (png)
        rc = qn_png_board(out, doc->rules[p->rule].rules, p->state, &o, err);
    else
        qn_svg_board(out, doc->rules[p->rule].rules, p->state, &o);
    qn_buf_release(&t);
    return rc;
}

/* A sheet shares one rule's cell shapes: the first puzzle of another rule
 * is what blocks it. */
static int sheet_blocked(const qn_pack_doc *doc, qn_err *err)
{
    const qn_pack_puzzle *first = &doc->puzzles[0], *p = first;
    char name[QN_EXPORT__NAME];

    while (p->rule == first->rule)
        p++;
    return qn_err_set(err, QN_EINVAL, 0, 0,
                      "a contact sheet needs one rule: %s has rule '%.64s', "
                      "puzzle 1 has '%.64s' (export one puzzle with "
                      "--puzzle)",
                      qn_export__puzzle_name(name, p), doc->rules[p->rule].name,
                      doc->rules[first->rule].name);
}

/* Every puzzle as a thumbnail: "#position" over grade and par, the id
 * beneath (a PNG: the same sheet without its text). */
static int write_svg_sheet(qn_buf *out, const qn_pack_doc *doc, int png,
                           qn_err *err)
{
    size_t n = doc->npuzzles ? doc->npuzzles : 1;
    qn_svg_item *items = QN_ALLOCN(n, qn_svg_item);
    char(*labels)[24] = qn_calloc(n, sizeof(*labels));
    char(*ids)[QN_PUZZLE_ID_HEX] = qn_calloc(n, sizeof(*ids));
    const char **notes = QN_ALLOCN(n, const char *);
    qn_svg_opts o;
    int rc = QN_OK;

    if (!items || !labels || !ids || !notes) {
        rc = qn_err_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < doc->npuzzles; i++) {
        const qn_pack_puzzle *p = &doc->puzzles[i];
        snprintf(labels[i], sizeof(labels[i]), "#%lld", (long long)p->position);
        qn_puzzle_id_hex(ids[i], p->id);
        items[i].id = labels[i];
        items[i].grade = *p->grade ? p->grade : NULL;
        items[i].par = p->min_presses;
        items[i].state = p->state;
        notes[i] = ids[i];
    }
    memset(&o, 0, sizeof(o));
    o.title = *doc->title ? doc->title : doc->name;
    o.notes = notes;
    if (png)
        rc = qn_png_sheet(out, doc->rules[0].rules, doc->npuzzles, items, &o,
                          err);
    else
        qn_svg_sheet(out, doc->rules[0].rules, doc->npuzzles, items, &o);
done:
    free(notes);
    free(ids);
    free(labels);
    free(items);
    return rc;
}

/* svg (png): the puzzle at position `puzzle` alone, or (0) a contact
 * sheet. */
static int write_svg(qn_buf *out, const qn_pack_doc *doc, int64_t puzzle,
                     int png, qn_err *err)
{
    if (puzzle > 0) {
        if ((uint64_t)puzzle > doc->npuzzles)
            return qn_err_set(err, QN_ENOTFOUND, 0, 0,
                              "pack '%s' has no puzzle at position %lld "
                              "(it has %zu)",
                              doc->name, (long long)puzzle, doc->npuzzles);
        return write_svg_board(out, doc, &doc->puzzles[puzzle - 1], png, err);
    }
    if (doc->nrules == 0)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "pack '%s' is empty: no sheet to draw", doc->name);
    if (doc->nrules > 1)
        return sheet_blocked(doc, err);
    return write_svg_sheet(out, doc, png, err);
}

static int write_format(qn_buf *out, const qn_pack_doc *doc, qn_export_format f,
                        const qn_export_opts *o, qn_err *err)
{
    switch (f) {
    case QN_EXPORT_JSON:
        write_json(out, doc);
        return QN_OK;
    case QN_EXPORT_JSONL:
        write_jsonl(out, doc);
        return QN_OK;
    case QN_EXPORT_CSV:
        write_csv(out, doc);
        return QN_OK;
    case QN_EXPORT_FLIP:
        return write_flip(out, doc, err);
    case QN_EXPORT_SVG:
        return write_svg(out, doc, o ? o->puzzle : 0, 0, err);
    case QN_EXPORT_PNG:
        return write_svg(out, doc, o ? o->puzzle : 0, 1, err);
    case QN_EXPORT_HTML: {
        qn_buf json = QN_BUF_INIT;
        write_json(&json, doc);
        if (json.failed)
            qn_buf_fail(out);
        else
            qn_export__html(out, doc, json.buf, json.len);
        qn_buf_release(&json);
        return QN_OK;
    }
    case QN_EXPORT_NFORMATS:
        break;
    }
    return qn_err_set(err, QN_ERR, 0, 0, "bad export format %d", (int)f);
}

/* Out of memory anywhere in a writer is out's failed flag (the writers'
 * scratch buffers and arrays pass theirs on to it), checked once here. */
int qn_export_write(qn_buf *out, const qn_pack_doc *doc, qn_export_format f,
                    const qn_export_opts *o, qn_err *err)
{
    int rc;

    rc = write_format(out, doc, f, o, err);
    if (rc == QN_OK && out->failed)
        rc = qn_err_nomem(err);
    return rc;
}
