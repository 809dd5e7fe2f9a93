/*
 * submit_slice.c: a TEXT or JSON Lines input cut into slices of whole
 * lines, so that other threads parse them (verdict_stream.c's workers)
 * while the reading thread only finds line ends; and a reader that parses
 * one such slice from memory, record for record as the reader it was cut
 * from would.
 */
#include "submit_reader.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/*
 * Whether the line s[0..n) (its LF included, if any) is a record: TEXT
 * skips a line that is blank or whose first non-blank byte is '#'
 * (qn_submit__next_text); every other line is a record, good or not.
 */
static int is_record(const char *s, size_t n)
{
    size_t i = 0;

    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
        i++;
    return i < n && s[i] != '\n' && s[i] != '#';
}

/*
 * A JSON Lines line: -1 when it may be one of quench's own records
 * around the puzzles (its "type" or "record" member, json_in.c), which
 * are skipped and counted only when parsed, so the slice stops before
 * it; a key spelt with escapes counts as maybe. Else 1 for a record
 * (every line that is not blank, good or not), 0 for a blank line.
 */
static int jsonl_line(const char *s, size_t n)
{
    const char *q = s, *end = s + n;

    if (memchr(s, '\\', n))
        return -1;
    while ((q = memchr(q, '"', (size_t)(end - q))) != NULL) {
        q++;
        if ((end - q >= 5 && memcmp(q, "type\"", 5) == 0) ||
            (end - q >= 7 && memcmp(q, "record\"", 7) == 0))
            return -1;
    }
    return !qn_submit__is_blank(s, n && s[n - 1] == '\n' ? n - 1 : n);
}

/*
 * Walk the whole lines of r->buf[pos, pos + win): up to max records,
 * the last line without LF counting when it ends the input. Sets the
 * slice to end after its last record (so that the gap is counted from
 * there, as qn_submit_next would) and *lines to the lines it holds;
 * returns the records, or 0 with *any saying whether a whole line was
 * seen.
 */
static uint64_t walk(const qn_submit_reader *r, size_t win, int last, int max,
                     qn_submit_slice *sl, int *any)
{
    const char *p = r->buf + r->pos, *end = p + win, *nl;
    uint64_t records = 0, lines = 0;

    *any = 0;
    while (p < end && records < (uint64_t)max) {
        const char *e;
        if ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL)
            e = nl + 1;
        else if (last)
            e = end;
        else
            break;
        if (r->fmt == QN_SUBMIT_JSONL) {
            int kind = jsonl_line(p, (size_t)(e - p));
            *any = 1;
            if (kind < 0)
                break;
            lines++;
            if (kind) {
                records++;
                sl->n = (size_t)(e - (r->buf + r->pos));
                sl->lines = lines;
            }
            p = e;
            continue;
        }
        *any = 1;
        lines++;
        /* the common line starts with a cell: no need to look further */
        if ((*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n' &&
             *p != '#') ||
            is_record(p, (size_t)(e - p))) {
            records++;
            sl->n = (size_t)(e - (r->buf + r->pos));
            sl->lines = lines;
        }
        p = e;
    }
    return records;
}

int qn_submit_take_slice(qn_submit_reader *r, size_t want, int max,
                         qn_submit_slice *out)
{
    for (;;) {
        size_t avail = r->end - r->pos, win = avail < want ? avail : want;
        int last = r->eof && avail <= want, any;
        uint64_t records;
        long got;

        /* what the sequential reader must see: other formats, an ended
         * or failed reader, the rest of an over-long line, a gap nearing
         * its limit (qn_submit__fill), and the input's end */
        if ((r->fmt != QN_SUBMIT_TEXT && r->fmt != QN_SUBMIT_JSONL) ||
            r->state != 0 || r->skip_line ||
            r->nread - r->mark > (uint64_t)QN_SUBMIT_MAX_GAP / 2 ||
            (avail == 0 && r->eof))
            return 0;
        records = walk(r, win, last, max, out, &any);
        if (records > 0) {
            out->p = r->buf + r->pos;
            out->line = r->line;
            out->seq = r->seq;
            out->records = records;
            r->pos += out->n;
            r->line += (long long)out->lines;
            r->seq += records;
            r->mark = r->nread - (r->end - r->pos);
            return 1;
        }
        /* no whole line in a window shorter than want: read more, as the
         * sequential reader would at this point; lines that are all
         * comments, or one longer than want, are left to it */
        if (any || r->eof || avail >= want)
            return 0;
        if ((got = qn_submit__fill(r, NULL)) < 0)
            return 0; /* r->state says it to qn_submit_next */
    }
}

int qn_submit_open_slices(qn_submit_reader **out, const qn_submit_reader *from)
{
    const qn_layout *l = from->l;
    qn_submit_reader *r;

    *out = NULL;
    if (!(r = qn_submit__new(from->source, l, from->k)))
        return QN_ENOMEM;
    r->fmt = from->fmt;
    r->slices = 1;
    r->eof = 1; /* a slice is all there is: qn_submit__fill reads nothing */
    memcpy(r->rule_hash, from->rule_hash, sizeof(r->rule_hash));
    r->data.rule_hash = from->data.rule_hash ? r->rule_hash : NULL;
    *out = r;
    return QN_OK;
}

void qn_submit_read_slice(qn_submit_reader *r, const char *p, size_t n,
                          long long line, uint64_t seq)
{
    /* read only: with eof set, nothing moves or writes the buffer */
    r->buf = (char *)p;
    r->pos = 0;
    r->end = n;
    r->line = line;
    r->seq = seq;
    r->state = 0;
}
