/*
 * cmd_generate_out.c: `quench generate`'s output, JSON Lines: the header,
 * one record per puzzle (written by hand on the fast path, through the
 * JSON writer otherwise), the summary, and the output's commit.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/jsonw.h"
#include "base/version.h"
#include "cmd_generate.h"
#include "rules/puzzle_id.h"
#include "rules/state.h"
#include "solve/human.h"
#include "solve/human_score.h"

/*
 * Worker threads: one JSON line per puzzle. This runs a million times a
 * second, so it writes straight into the buffer: the constant parts are
 * escaped once (gc->tail, gc->grades), numbers and cells are written by
 * hand, and only states with values past base 36 take the general path.
 */
static char *put_str(char *w, const char *s)
{
    size_t n = strlen(s);
    memcpy(w, s, n);
    return w + n;
}

static char *put_mem(char *w, const char *s, size_t n)
{
    memcpy(w, s, n);
    return w + n;
}

/* Cells 0..9 as digits, eight a step: a byte under 10 plus '0' carries
 * into no neighbour. */
static char *put_digits(char *w, const uint8_t *cells, int n)
{
    int i = 0;

    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, cells + i, 8);
        v += UINT64_C(0x3030303030303030);
        memcpy(w + i, &v, 8);
    }
    for (; i < n; i++)
        w[i] = (char)('0' + cells[i]);
    return w + n;
}

/* Rows of a plain state: the cells as digits at once (put_digits, into
 * digits), then each row copied 8 bytes a step. A row's last step may
 * write up to 7 bytes past it, which what follows overwrites: the
 * caller's buffer has room for them (cmd_generate_format_puzzle). */
static char *put_rows(char *w, const qn_layout *l, const uint8_t *cells)
{
    char digits[QN_RULES_MAX_CELLS + 8];
    size_t width = (size_t)l->w;

    put_digits(digits, cells, l->w * l->h);
    memset(digits + (size_t)l->w * l->h, 0, 8); /* copied, then overwritten */
    for (int r = 0; r < l->h; r++) {
        const char *from = digits + (size_t)r * width;
        if (r)
            *w++ = '/';
        for (size_t c = 0; c < width; c += 8)
            memcpy(w + c, from + c, 8);
        w += width;
    }
    return w;
}

static char *put_state(char *w, const qn_layout *l, const uint8_t *cells,
                       int plain)
{
    static const char digit[] = "0123456789abcdefghijklmnopqrstuvwxyz";

    if (plain)
        return put_rows(w, l, cells);
    for (int r = 0; r < l->h; r++) {
        if (r)
            *w++ = '/';
        for (int c = 0; c < l->w; c++) {
            int i = l->index[r * l->w + c];
            *w++ = i < 0 ? '.' : digit[cells[i]];
        }
    }
    return w;
}

/* The plan's values as a JSON array's items: v, for values below 10
 * (the usual case) 16 at a time where SSE2 is: each byte plus '0',
 * interleaved with commas (the last comma is the caller's to take
 * back). */
static char *put_plan(char *w, const uint8_t *plan, int n)
{
    int i = 0;

#ifdef __SSE2__
    const __m128i nine = _mm_set1_epi8(9), zero = _mm_set1_epi8('0');
    const __m128i comma = _mm_set1_epi8(',');

    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(plan + i));
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, nine), nine)) !=
            0xffff)
            break; /* a value past 9: the general loop from here */
        v = _mm_add_epi8(v, zero);
        _mm_storeu_si128((__m128i *)w, _mm_unpacklo_epi8(v, comma));
        _mm_storeu_si128((__m128i *)(w + 16), _mm_unpackhi_epi8(v, comma));
        w += 32;
    }
#endif
    for (; i < n; i++) {
        unsigned v = plan[i];
        if (v < 10) { /* the usual case: one digit */
            w[0] = (char)('0' + v);
            w[1] = ',';
            w += 2;
        } else {
            w = qn_json_put_u64(w, v);
            *w++ = ',';
        }
    }
    return w;
}

/* ,"human_level":"chase","human_level_number":1,"human_score":4125
 * (nulls when the level is not decided). */
static char *put_human(char *w, const qn_gen_puzzle *p)
{
    if (p->human_level < 0)
        return put_str(w, ",\"human_level\":null,\"human_level_number\":"
                          "null,\"human_score\":null");
    w = put_str(w, ",\"human_level\":\"");
    w = put_str(w, qn_human_level_name(p->human_level));
    w = put_str(w, "\",\"human_level_number\":");
    *w++ = (char)('0' + p->human_level);
    w = put_str(w, ",\"human_score\":");
    if (p->human_score < 0) /* a calibrated model may predict below 1 s */
        *w++ = '-';
    return qn_json_put_u64(w, p->human_score < 0
                                  ? (uint64_t)0 - (uint64_t)p->human_score
                                  : (uint64_t)p->human_score);
}

/* The tier's name as a JSON value, escaped once in
 * cmd_generate_prepare_format(). */
static const char *grade_json(const gen_cli *gc, const char *grade)
{
    for (size_t i = 0; grade && i < gc->tiers.n; i++)
        if (grade == gc->tiers.name[i])
            return gc->grade_esc[i].buf;
    return "null";
}

/* The same record through the JSON writer (any k, any layout). */
static void format_general(const gen_cli *gc, const qn_gen_puzzle *p,
                           qn_buf *out)
{
    const qn_rules *r = qn_solver_rules(gc->solver);
    int n = qn_solver_ncells(gc->solver);
    char hash[65];
    qn_jsonw w;
    qn_buf text = QN_BUF_INIT;

    qn_rules_hash(r, hash);
    qn_jsonw_init(&w, out);
    qn_jsonw_obj(&w);
    qn_jsonw_key(&w, "type"), qn_jsonw_str(&w, "puzzle");
    qn_jsonw_key(&w, "id"), qn_jsonw_str(&w, p->id);
    qn_jsonw_key(&w, "index"), qn_jsonw_uint(&w, p->index);
    qn_jsonw_key(&w, "rule_hash"), qn_jsonw_str(&w, hash);
    qn_state_format(&text, qn_rules_layout(r), p->state, '/');
    qn_jsonw_key(&w, "state"), qn_jsonw_strn(&w, text.buf, text.len);
    qn_buf_release(&text);
    qn_jsonw_key(&w, "min_presses"), qn_jsonw_uint(&w, p->presses);
    qn_jsonw_key(&w, "optimal_solutions"), qn_jsonw_uint(&w, p->noptimal);
    qn_jsonw_key(&w, "solution");
    qn_jsonw_arr(&w);
    for (int i = 0; i < n; i++)
        qn_jsonw_uint(&w, p->plan[i]);
    qn_jsonw_end(&w);
    qn_jsonw_key(&w, "grade");
    if (p->grade)
        qn_jsonw_str(&w, p->grade);
    else
        qn_jsonw_null(&w);
    qn_jsonw_key(&w, "human_level");
    if (p->human_level >= 0) {
        qn_jsonw_str(&w, qn_human_level_name(p->human_level));
        qn_jsonw_key(&w, "human_level_number");
        qn_jsonw_int(&w, p->human_level);
        qn_jsonw_key(&w, "human_score"), qn_jsonw_int(&w, p->human_score);
    } else {
        qn_jsonw_null(&w);
        qn_jsonw_key(&w, "human_level_number"), qn_jsonw_null(&w);
        qn_jsonw_key(&w, "human_score"), qn_jsonw_null(&w);
    }
    qn_jsonw_key(&w, "seed"), qn_jsonw_str(&w, gc->seed_hex);
    qn_jsonw_end(&w);
    qn_buf_addc(out, '\n');
}

/* May put_state write the cells in order, 8 a step? */
static int plain_cells(const gen_cli *gc)
{
    const qn_layout *l = qn_rules_layout(qn_solver_rules(gc->solver));

    if (qn_solver_colours(gc->solver) > 10 || l->ncells != l->w * l->h)
        return 0;
    for (int i = 0; i < l->w * l->h; i++)
        if (l->index[i] != i)
            return 0;
    return 1;
}

/* The constant parts of every record, escaped once. */
void cmd_generate_prepare_format(gen_cli *gc)
{
    char hash[65];

    qn_rules_hash(qn_solver_rules(gc->solver), hash);
    snprintf(gc->head, sizeof(gc->head), ",\"rule_hash\":\"%s\",\"state\":\"",
             hash);
    snprintf(gc->tail, sizeof(gc->tail), ",\"seed\":\"%s\"}\n", gc->seed_hex);
    gc->head_len = strlen(gc->head);
    gc->tail_len = strlen(gc->tail);
    gc->plain_cells = plain_cells(gc);
    for (size_t i = 0; i < gc->tiers.n; i++) {
        qn_buf_init(&gc->grade_esc[i]);
        qn_json_escape(&gc->grade_esc[i], gc->tiers.name[i],
                       strlen(gc->tiers.name[i]));
        if (gc->grade_esc[i].len > gc->grade_max)
            gc->grade_max = gc->grade_esc[i].len;
    }
}

void cmd_generate_format_puzzle(void *vctx, const qn_gen_puzzle *p, qn_buf *out)
{
    const gen_cli *gc = vctx;
    const qn_layout *l = qn_rules_layout(qn_solver_rules(gc->solver));
    int n = qn_solver_ncells(gc->solver);
    char *w;

    if (qn_solver_colours(gc->solver) > 36) { /* "(NNN)" cells: general path */
        format_general(gc, p, out);
        return;
    }
    /* + 8: put_rows may write 7 bytes past the state */
    if (qn_buf_grow(out, 384 + 8 + strlen(gc->tail) + (size_t)l->w * l->h +
                             (size_t)l->h + 4 * (size_t)n + gc->grade_max))
        return;
    w = out->buf + out->len;
    w = put_str(w, "{\"type\":\"puzzle\",\"id\":\"");
    w = put_mem(w, p->id, QN_PUZZLE_ID_HEX - 1); /* always 16 digits */
    w = put_str(w, "\",\"index\":");
    w = qn_json_put_u64(w, p->index);
    w = put_mem(w, gc->head, gc->head_len);
    w = put_state(w, l, p->state, gc->plain_cells);
    w = put_str(w, "\",\"min_presses\":");
    w = qn_json_put_u64(w, p->presses);
    w = put_str(w, ",\"optimal_solutions\":");
    w = qn_json_put_u64(w, p->noptimal);
    w = put_str(w, ",\"solution\":[");
    w = put_plan(w, p->plan, n);
    if (n) /* the last comma */
        w--;
    w = put_str(w, "],\"grade\":");
    w = put_str(w, grade_json(gc, p->grade));
    w = put_human(w, p);
    w = put_mem(w, gc->tail, gc->tail_len);
    out->len = (size_t)(w - out->buf);
    out->buf[out->len] = '\0';
}

int cmd_generate_flush_span(gen_cli *gc)
{
    if (!gc->spanlen)
        return gc->write_failed ? -1 : 0;
    /* what waits in buf (the header) first, then the puzzles */
    if (!gc->write_failed &&
        (fwrite(gc->buf.buf, 1, gc->buf.len, gc->out.f) != gc->buf.len ||
         fwrite(gc->span, 1, gc->spanlen, gc->out.f) != gc->spanlen))
        gc->write_failed = errno ? errno : EIO;
    qn_buf_reset(&gc->buf);
    gc->span = NULL;
    gc->spanlen = 0;
    return gc->write_failed ? -1 : 0;
}

/* Text that does not outlive the call (a stored run printed again):
 * copied into gc->buf, written 64 KiB at a time. 0, or 1 (write failed). */
int cmd_generate_emit_copy(gen_cli *gc, const char *text, size_t len)
{
    if (cmd_generate_flush_span(gc) != 0)
        return 1;
    qn_buf_add(&gc->buf, text, len);
    if (gc->buf.len > (1u << 16)) {
        if (fwrite(gc->buf.buf, 1, gc->buf.len, gc->out.f) != gc->buf.len) {
            gc->write_failed = errno ? errno : EIO;
            return 1;
        }
        qn_buf_reset(&gc->buf);
    }
    return 0;
}

/* A puzzle's text is written from the generator's block, not copied
 * (the copy read every record a worker wrote on another core): texts
 * that adjoin are kept as one span until the block's progress call, or
 * a text that does not adjoin, writes it. */
int cmd_generate_emit_puzzle(void *vctx, const qn_gen_puzzle *p)
{
    gen_cli *gc = vctx;

    if (gc->spanlen && gc->span + gc->spanlen == p->text) {
        gc->spanlen += p->textlen;
        return 0;
    }
    if (cmd_generate_flush_span(gc) != 0)
        return 1;
    gc->span = p->text;
    gc->spanlen = p->textlen;
    return 0;
}

void cmd_generate_write_header(gen_cli *gc)
{
    const qn_rules *r = qn_solver_rules(gc->solver);
    char hash[65];
    qn_jsonw w;

    qn_rules_hash(r, hash);
    qn_jsonw_init(&w, &gc->buf);
    qn_jsonw_obj(&w);
    qn_jsonw_key(&w, "type"), qn_jsonw_str(&w, "header");
    qn_jsonw_key(&w, "format"), qn_jsonw_str(&w, "quench-puzzles");
    qn_jsonw_key(&w, "format_version"), qn_jsonw_int(&w, 1);
    qn_jsonw_key(&w, "tool");
    qn_buf_adds(&gc->buf, "\"quench ");
    qn_buf_adds(&gc->buf, qn_version());
    qn_buf_addc(&gc->buf, '"');
    w.key_pending = 0;
    qn_jsonw_key(&w, "rule"), qn_jsonw_str(&w, qn_rules_name(r));
    qn_jsonw_key(&w, "rule_hash"), qn_jsonw_str(&w, hash);
    qn_jsonw_key(&w, "seed"), qn_jsonw_str(&w, gc->seed_hex);
    qn_jsonw_key(&w, "count"), qn_jsonw_uint(&w, gc->o.count);
    qn_jsonw_key(&w, "presses");
    qn_jsonw_arr(&w);
    qn_jsonw_uint(&w, gc->o.lo);
    if (gc->o.hi == UINT64_MAX)
        qn_jsonw_null(&w);
    else
        qn_jsonw_uint(&w, gc->o.hi);
    qn_jsonw_end(&w);
    qn_jsonw_key(&w, "unique_optimum"), qn_jsonw_bool(&w, gc->o.unique_optimum);
    qn_jsonw_key(&w, "min_lit"), qn_jsonw_int(&w, gc->o.min_lit);
    if (gc->o.human_levels) { /* --human-level: the levels it takes */
        qn_jsonw_key(&w, "human_levels");
        qn_jsonw_arr(&w);
        for (int l = 0; l < QN_HUMAN_NLEVELS; l++)
            if (gc->o.human_levels >> l & 1)
                qn_jsonw_str(&w, qn_human_level_name(l));
        qn_jsonw_end(&w);
    }
    if (gc->shard_spec) {
        qn_jsonw_key(&w, "shard");
        qn_jsonw_arr(&w);
        qn_jsonw_uint(&w, gc->o.shard);
        qn_jsonw_uint(&w, gc->o.nshards);
        qn_jsonw_end(&w);
    }
    qn_jsonw_key(&w, "grader_version"), qn_jsonw_int(&w, QN_GRADER_VERSION);
    qn_jsonw_key(&w, "human_model_version");
    qn_jsonw_int(&w, gc->human_model.version);
    qn_jsonw_end(&w);
    qn_buf_addc(&gc->buf, '\n');
}

/* A spread pilot's measure of one count (key PREFIX NAME), or null. */
static void write_pilot(qn_jsonw *w, const char *prefix, const char *name,
                        const qn_gen_pilot *m)
{
    char key[64];

    snprintf(key, sizeof(key), "%s%s", prefix, name);
    qn_jsonw_key(w, key);
    if (!m->presses) {
        qn_jsonw_null(w);
        return;
    }
    qn_jsonw_obj(w);
    qn_jsonw_key(w, "presses"), qn_jsonw_uint(w, m->presses);
    qn_jsonw_key(w, "climbs"), qn_jsonw_uint(w, m->climbs);
    qn_jsonw_key(w, "arrived"), qn_jsonw_uint(w, m->arrived);
    qn_jsonw_end(w);
}

void cmd_generate_write_pilot(qn_jsonw *w, const qn_gen_target_info *t,
                              const char *prefix)
{
    char key[64];

    snprintf(key, sizeof(key), "%sleft_out", prefix);
    qn_jsonw_key(w, key);
    qn_jsonw_arr(w);
    if (t->first > t->lo) { /* not reached */
        qn_jsonw_arr(w);
        qn_jsonw_uint(w, t->lo);
        qn_jsonw_uint(w, t->first - 1);
        qn_jsonw_end(w);
    }
    if (t->ended.presses) { /* from the count that ended the spread */
        qn_jsonw_arr(w);
        qn_jsonw_uint(w, t->ended.presses);
        qn_jsonw_uint(w, t->left_hi);
        qn_jsonw_end(w);
    }
    qn_jsonw_end(w);
    write_pilot(w, prefix, "ended", &t->ended);
    write_pilot(w, prefix, "slowest", &t->slowest);
}

/* What the plan knew of the target: its distinct puzzles (exact, or a
 * pilot's estimate with a 95 % interval), and a spread's range. */
static void write_target(qn_jsonw *w, const qn_gen_stats *st)
{
    const qn_gen_target_info *t = &st->target;

    qn_jsonw_key(w, "target_distinct");
    if (t->distinct < 0)
        qn_jsonw_null(w);
    else if (t->exact)
        qn_jsonw_uint(w, (uint64_t)t->distinct);
    else
        qn_jsonw_real(w, t->distinct);
    qn_jsonw_key(w, "target_distinct_exact"), qn_jsonw_bool(w, t->exact);
    if (t->at_least > 0 && t->at_least < 0x1p53) {
        qn_jsonw_key(w, "target_distinct_at_least");
        qn_jsonw_uint(w, (uint64_t)t->at_least);
    } else if (t->at_least > 0) { /* no exact integer: its logarithm */
        qn_jsonw_key(w, "target_distinct_at_least_log2");
        qn_jsonw_real(w, t->at_least_log2);
    }
    if (t->distinct >= 0 && !t->exact) {
        qn_jsonw_key(w, "target_distinct_95");
        qn_jsonw_arr(w);
        qn_jsonw_real(w, t->distinct_lo);
        qn_jsonw_real(w, t->distinct_hi);
        qn_jsonw_end(w);
    }
    if (st->mode == QN_GEN_SPREAD) {
        qn_jsonw_key(w, "spread");
        qn_jsonw_arr(w);
        qn_jsonw_uint(w, t->lo);
        qn_jsonw_uint(w, t->hi);
        qn_jsonw_end(w);
        qn_jsonw_key(w, "spread_hi_estimated");
        qn_jsonw_bool(w, t->hi_estimated);
        qn_jsonw_key(w, "spread_counts"), qn_jsonw_uint(w, t->counts);
        qn_jsonw_key(w, "spread_unreached"), qn_jsonw_uint(w, t->unreached);
        qn_jsonw_key(w, "spread_cannot_tell");
        qn_jsonw_bool(w, t->cannot_tell);
        cmd_generate_write_pilot(w, t, "spread_");
        qn_jsonw_key(w, "retired"), qn_jsonw_uint(w, st->retired);
        qn_jsonw_key(w, "ahead"), qn_jsonw_uint(w, st->ahead);
    }
    qn_jsonw_key(w, "max_presses"), qn_jsonw_uint(w, t->max_presses);
    qn_jsonw_key(w, "max_presses_exact"), qn_jsonw_bool(w, t->max_exact);
}

void cmd_generate_write_summary(gen_cli *gc, const qn_gen_stats *st, int done,
                                qn_buf *out)
{
    qn_jsonw w;

    (void)gc;
    qn_jsonw_init(&w, out);
    qn_jsonw_obj(&w);
    qn_jsonw_key(&w, "type"), qn_jsonw_str(&w, "summary");
    /* the records written: a shard's own, not the whole run's */
    qn_jsonw_key(&w, "emitted"),
        qn_jsonw_uint(&w, st->emitted - st->other_shards);
    qn_jsonw_key(&w, "complete"), qn_jsonw_bool(&w, done);
    qn_jsonw_key(&w, "draws"), qn_jsonw_uint(&w, st->draws);
    qn_jsonw_key(&w, "on_target"), qn_jsonw_uint(&w, st->on_target);
    qn_jsonw_key(&w, "duplicates"), qn_jsonw_uint(&w, st->duplicates);
    qn_jsonw_key(&w, "mode"), qn_jsonw_str(&w, qn_gen_mode_name(st->mode));
    qn_jsonw_key(&w, "target_fraction");
    if (st->rarity >= 0)
        qn_jsonw_real(&w, st->rarity);
    else
        qn_jsonw_null(&w);
    qn_jsonw_key(&w, "target_fraction_exact");
    qn_jsonw_bool(&w, st->rarity_exact);
    write_target(&w, st);
    qn_jsonw_end(&w);
    qn_buf_addc(out, '\n');
}

/* Flush what is buffered, then commit the output (for -o: fsync, rename). */
int cmd_generate_close_output(gen_cli *gc)
{
    int bad = gc->write_failed;

    if (!bad && gc->buf.len &&
        fwrite(gc->buf.buf, 1, gc->buf.len, gc->out.f) != gc->buf.len)
        bad = errno ? errno : EIO;
    if (bad) {
        const char *name = gc->out.name;
        cmd_out_discard(&gc->out);
        return cmd_write_error(name, bad);
    }
    return cmd_out_commit(&gc->out);
}
