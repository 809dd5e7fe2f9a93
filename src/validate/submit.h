/*
 * submit.h: reading submissions (states to validate) from a stream, with
 * bounded memory whatever the input: millions of records, a line that never
 * ends or binary junk. Every record, well-formed or not, comes back in input
 * order; a malformed record carries the absolute line:col of its first problem.
 *
 * Formats (QN_SUBMIT_AUTO picks one from the first non-blank byte):
 *
 *   TEXT   one state per line in the state text format (state.h) with rows
 *          separated by '/'. Lines that are blank or whose first non-blank
 *          character is '#' are skipped. The record id is the line number.
 *   JSONL  one JSON object per line:
 *            {"id": "name" | 17, "state": "101/010/101" | [1,0,1, ...],
 *             "solution": [0,1, ...] | "0100...", "min_presses": 3,
 *             "rule": "<64 hex digits>"}
 *          "state" is required, the others optional ("rule_hash" is
 *          another spelling of "rule"); any other key is kept as the
 *          record's metadata (below). Blank lines are skipped. Duplicate
 *          keys are an error. quench's own records around the puzzles
 *          ("type": "header" or "summary" of generate, "record": "pack" of
 *          export) are skipped and counted (qn_submit_skipped);
 *          "type"/"record" "puzzle" is a submission.
 *   CSV    RFC 4180: a header row naming the columns (state required; any
 *          order; a repeated or unnamed column, or more than
 *          QN_SUBMIT_MAX_COLUMNS, is an error for the whole input, as is
 *          a header without state, whose message names the columns found
 *          and expected), then one record per row. The columns id, state,
 *          solution, min_presses, rule and rule_hash are read, their
 *          names in any case ("State"); any other column is
 *          the record's metadata. Cells may be quoted ("" for a quote;
 *          commas and newlines allowed inside quotes). Empty id, solution,
 *          min_presses and rule cells mean "absent". Blank lines are
 *          skipped.
 *   JSON   one JSON document, read element by element: an array of
 *          integers (one state: the whole document is one record), an
 *          array of record objects as in JSONL (one record each), or a
 *          quench-pack document (`quench export --format json`,
 *          docs/EXPORT.md): an object whose "format" is "quench-pack",
 *          "format_version" 1 or 2, and whose "puzzles" array holds one
 *          record each; its other members ("pack", "rules", ...) are
 *          skipped unread. `[]` holds no records. Anything else is a
 *          whole-input error, as is a document object without "format":
 *          "quench-pack" or without "puzzles" (said at its end, after the
 *          records before it).
 *
 * AUTO: after an optional UTF-8 BOM and blank space, '[' means JSON; '{'
 * means JSON when the object's first key is "format" (a quench-pack
 * document, one line or pretty-printed), else JSONL; a first line that is
 * not a '#' comment and starts with "id," or '"', or contains both
 * "state" and ',', or is just "state", means CSV; anything else (including
 * an empty input) TEXT.
 *
 * Metadata: the fields of a record that quench does not read, kept as one
 * compact JSON object text in input order: a JSON record's other members
 * with their values as written (blanks outside strings removed), a CSV
 * record's other cells as strings keyed by their column names (an empty
 * cell is ""). A record is at most QN_SUBMIT_MAX_LINE bytes, and so is its
 * metadata: there is no other cap. When such a field's name is close to
 * one quench reads ("min_press", "Solution"), the record carries a note
 * saying so, since its value was not checked.
 *
 * Rules: a record may name the rule it is for by its content hash
 * (qn_rules_hash) in "rule" or "rule_hash"; after qn_submit_expect_rule,
 * a record naming another rule is malformed (before its state is read).
 *
 * Record ids: the "id" value when given (JSONL, CSV, records of a JSON
 * document), else the record's first line number as text. A malformed
 * record keeps its id when the id itself reads: the first top-level "id"
 * of JSON that jansson refuses, the id cell of a CSV row whose quoting
 * goes wrong after it.
 *
 * Values in records:
 *   - a state string is the state text format (holes as '.'); a state array
 *     holds exactly l->ncells integers 0..k-1, one per active cell in cell
 *     order (holes are left out, not written as 0 or null);
 *   - a solution is the same: l->ncells press counts 0..k-1, as an array,
 *     as a string in the state text format, or as a string of exactly
 *     l->ncells base-36 digits with no separators (cell order);
 *   - min_presses is a decimal integer 0..2^64-1 (JSON: 0..2^63-1);
 *   - an id is a string of 1..QN_SUBMIT_MAX_ID bytes or a JSON integer.
 *
 * Positions: lines and columns are 1-based and count bytes; a leading BOM
 * is not counted. CRLF line ends are accepted everywhere. Within a JSON
 * string holding escapes, an error inside the string points at its opening
 * quote.
 *
 * Limits: a line (TEXT, JSONL), a CSV record or an element of a JSON array
 * holds at most QN_SUBMIT_MAX_LINE bytes (a trailing CR not counted); a
 * longer one is one malformed record (QN_ELIMIT, even if it would have
 * been a comment), returned as soon as the limit is passed (not at the
 * line's end, which may never come), and its rest is skipped without being
 * buffered; a CSV record cut off this way resumes at the next physical
 * line. At most QN_SUBMIT_MAX_GAP bytes are read without a record coming
 * out: past that (the rest of an over-long line or element that still has
 * not ended, as /dev/zero's never does; a one-state JSON document that
 * long; a run of blank lines, comments or quench's own header records) the
 * input as a whole fails with QN_ELIMIT, after every record before it was
 * returned. So every input ends, and a bounded stretch of it yields a
 * verdict or an error. JSON nesting deeper than
 * QN_SUBMIT_MAX_DEPTH is malformed. NUL bytes and invalid UTF-8 are
 * malformed ("NUL byte", "invalid UTF-8") wherever they appear in a record
 * (skipped TEXT comment lines are not looked at). A one-state JSON document
 * is streamed, so only each of its elements is limited.
 *
 * Memory: one 2 MiB read buffer, a scratch buffer of at most a few MiB for
 * multi-line CSV records and JSON elements, a metadata buffer of at most
 * about twice a record, the CSV columns, and two l->ncells arrays, all
 * reused; no allocation per TEXT or CSV record (jansson allocates while it
 * parses a JSON record and frees it at once).
 */
#ifndef QN_SUBMIT_H
#define QN_SUBMIT_H

#include "quench/validate.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "rules/layout.h"

#define QN_SUBMIT_MAX_LINE (1 << 20) /* bytes per line / record / element */
#define QN_SUBMIT_MAX_GAP (1 << 26)  /* bytes read without a record (64 MiB) */
#define QN_SUBMIT_MAX_ID 256         /* bytes in an id */
#define QN_SUBMIT_MAX_DEPTH 8        /* JSON nesting within one record */
#define QN_SUBMIT_MAX_COLUMNS 1024   /* columns in a CSV header */

typedef struct qn_submit_reader qn_submit_reader;

/*
 * Start reading submissions from `in` (borrowed, left open; read with
 * fread only, so a pipe works) for boards of layout `l` (borrowed: must
 * outlive the reader) and modulus k (2..255). `source` names the input in
 * errors ("<stdin>", a file name; copied; NULL = ""). With QN_SUBMIT_AUTO
 * this reads ahead to detect the format. Sets *out to a reader to free with
 * qn_submit_close() and returns QN_OK, or QN_EIO (read error) with *out
 * NULL. An empty input is not an error: it simply holds no records.
 */
int qn_submit_open(qn_submit_reader **out, FILE *in, const char *source,
                   const qn_layout *l, unsigned k, qn_submit_format fmt,
                   qn_err *err);

/*
 * Read the next record. Input is read in blocks of 2 MiB with fread, so on
 * a live pipe a record is returned once its block or the end of the input
 * has arrived. Returns 1 and sets *rec_out to a record (borrowed;
 * see qn_submission) whether it is well-formed or not: a malformed record
 * is never skipped or merged with its neighbours. Returns 0 at the end of
 * the input. Returns a negative code, with a located `err`, when the input
 * as a whole cannot be read: QN_EIO (read error), QN_ESYNTAX (a CSV header
 * that is missing or invalid, a JSON document that is not an array or is
 * broken between elements), QN_ELIMIT (a CSV header over the line limit,
 * QN_SUBMIT_MAX_GAP bytes without a record). After 0 or a negative code,
 * further calls return the same.
 */
int qn_submit_next(qn_submit_reader *r, const qn_submission **rec_out,
                   qn_err *err);

/*
 * Records that name their rule ("rule"/"rule_hash") must name the rule
 * whose qn_rules_hash is `hash` (64 lowercase hex digits, copied): one
 * naming another is malformed ("puzzle of rule X, not of the rules given
 * (Y)"). Without this call the field is read and not compared. Call it
 * before the first qn_submit_next.
 */
void qn_submit_expect_rule(qn_submit_reader *r, const char *hash);

/* How many of quench's own records around the puzzles (generate's header
 * and summary, export's pack record) were skipped so far. */
uint64_t qn_submit_skipped(const qn_submit_reader *r);

/*
 * Slices: a TEXT or JSONL input's whole lines cut off by the reading thread and
 * parsed on others, each by a reader of its own that gives the records
 * (seq, line, id, error) the one reader would have given.
 */
typedef struct qn_submit_slice {
    const char *p;    /* its bytes: whole lines (the last may end the
                         input without LF) */
    size_t n;         /* bytes */
    long long line;   /* the line number of p[0] */
    uint64_t seq;     /* records before it */
    uint64_t records; /* records in it, 1..max; its last line is one */
    uint64_t lines;   /* lines in it */
} qn_submit_slice;

/*
 * Cut the next records off r as a slice of about `want` bytes (at most
 * max records, max >= 1): returns 1 with *out set (p borrowed from r
 * until its next call), r then past the slice as if its records had been
 * read; 0 when the next records are for qn_submit_next (a format other
 * than TEXT and JSONL, comment lines, a JSONL line that may be one of
 * quench's own records, a line longer than want, the end of the input,
 * an error, a gap nearing QN_SUBMIT_MAX_GAP): read at least one
 * with it before asking again, or meet the end or the error.
 */
int qn_submit_take_slice(qn_submit_reader *r, size_t want, int max,
                         qn_submit_slice *out);

/*
 * A reader of slices cut from `from` (borrowed only here): same format,
 * source, board and expected rule, no input of its own. QN_OK, or
 * QN_ENOMEM with *out NULL. Free it with qn_submit_close.
 */
int qn_submit_open_slices(qn_submit_reader **out, const qn_submit_reader *from);

/* Read the slice's bytes p[0..n) (borrowed until the reader's next
 * qn_submit_read_slice or close) from qn_submit_next on: its records,
 * numbered from seq + 1 and read from line `line`, then 0. */
void qn_submit_read_slice(qn_submit_reader *r, const char *p, size_t n,
                          long long line, uint64_t seq);

/* Free the reader (not the FILE); NULL is a no-op. */
void qn_submit_close(qn_submit_reader *r);

/* The format in use: the one given, or the detected one for AUTO. */
qn_submit_format qn_submit_detected(const qn_submit_reader *r);

/* "auto", "text", "jsonl", "csv" or "json". */
const char *qn_submit_format_name(qn_submit_format fmt);

/*
 * Parse one state given whole (a command-line argument or a small file):
 * a JSON array of l->ncells integers if its first non-blank byte is '[',
 * else the state text format (rows separated by '/' or newlines). Writes
 * l->ncells values < k to cells_out. Returns QN_OK, or QN_ESYNTAX /
 * QN_ELIMIT with err->line:col located within `text` (err->source is left
 * alone). On error cells_out is unspecified.
 */
int qn_submit_parse_state(uint8_t *cells_out, const qn_layout *l, unsigned k,
                          const char *text, size_t len, qn_err *err);

#endif
