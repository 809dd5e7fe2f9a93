/*
 * attempts.h: players' attempt logs, as the html player exports them
 * (docs/ATTEMPTS.md, format "quench-attempts" version 1): JSON Lines, a
 * header line, the rules the attempts were played on (pack rule objects)
 * and one line per attempt. Read for quench calibrate (issue #33).
 */
#ifndef QN_EXPORT_ATTEMPTS_H
#define QN_EXPORT_ATTEMPTS_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "export/export.h"

#define QN_ATTEMPTS_VERSION 1
#define QN_ATTEMPTS_MAX_FILE (64u << 20) /* bytes a log file may hold */
#define QN_ATTEMPTS_MAX_LINE (4u << 20)  /* bytes a line may hold */
#define QN_ATTEMPTS_MAX_RULES 256        /* rule lines a file may hold */
#define QN_ATTEMPTS_MAX_TIME_MS 86400000 /* an attempt lasts <= a day */

typedef struct qn_attempt {
    int line;         /* its line in the file */
    char player[65];  /* the player's id; "" when none */
    char puzzle[17];  /* the puzzle id, 16 hex digits */
    size_t rule;      /* index into the log's rules */
    uint8_t *state;   /* the start state (the rule's ncells values) */
    int solved;       /* 1 solved, 0 abandoned */
    int64_t time_ms;  /* from the puzzle shown to solved or left */
    int64_t first_ms; /* to the first press; -1: none made */
    int64_t presses, undos, hints;
    int model_version; /* the human model of the page's scores; 0: none */
} qn_attempt;

typedef struct qn_attempt_log {
    qn_pack_rule *rules;
    size_t nrules;
    qn_attempt *attempts;
    size_t nattempts;
} qn_attempt_log;

/*
 * Parse one log file's text into out (zeroed first). Errors carry the
 * line and column: QN_ESYNTAX for a line that is no JSON object,
 * QN_EINVAL for a record that breaks the format (an unknown key, a
 * missing one, a rule that does not hash as it says, a state that is not
 * the rule's, an attempt on a rule not given before it), QN_ELIMIT past
 * the limits above; out is then empty.
 */
int qn_attempt_log_parse(qn_attempt_log *out, const char *text, size_t len,
                         const char *source, qn_err *err);
void qn_attempt_log_release(qn_attempt_log *log); /* NULL-safe */

#endif
