/*
 * cmd_report.c: the one error reporter. An error reaches the user as one
 * line of stderr (FILE:LINE:COL: message where there is a place; with -v
 * the source line and a caret) and an exit status from docs/quench.1.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/text.h"
#include "cmd.h"

int cli_exit_for(qn_code code)
{
    switch (code) {
    case QN_OK:
        return QN_EXIT_OK;
    case QN_ESYNTAX:
    case QN_EINVAL:
    case QN_EUNSOLVABLE:
    case QN_ELIMIT:
        return QN_EXIT_DATAERR;
    case QN_ENOTFOUND:
        return QN_EXIT_NOINPUT;
    case QN_EIO:
        return QN_EXIT_IOERR;
    case QN_EDB:
        return QN_EXIT_IOERR;
    case QN_EBUSY:
        return QN_EXIT_TEMPFAIL;
    case QN_ENEWER:
        return QN_EXIT_CONFIG;
    case QN_ENOMEM:
        return QN_EXIT_OSERR;
    case QN_ERR:
        break;
    }
    return QN_EXIT_SOFTWARE;
}

/*
 * One line of stderr. Messages quote names and values from files,
 * databases and the command line: their control characters are escaped
 * (text.h), so no message can move the cursor or fake another line.
 */
static void put_line(const char *prefix, const char *text)
{
    qn_buf b = QN_BUF_INIT;

    qn_text_escape(&b, prefix);
    qn_text_escape(&b, text);
    qn_buf_addc(&b, '\n');
    if (b.failed) /* out of memory: the words of the message at least */
        fprintf(stderr, "%s%s\n", prefix, text);
    else
        fputs(b.buf, stderr);
    qn_buf_release(&b);
}

/*
 * With -v: the source line and a caret under the column. Only a regular
 * file is read again: a FIFO whose writer is gone would block the open
 * for ever, and a device (/dev/zero) has no lines to show. The file is
 * opened non-blocking, so even a FIFO swapped in after the check cannot
 * hang the report.
 */
static void show_source_line(const qn_err *err)
{
    struct stat st;
    FILE *f;
    char line[512];
    int n = 1, fd, at_start = 1;

    if (!err->source[0] || err->line < 1 || !strcmp(err->source, "<stdin>"))
        return;
    if ((fd = open(err->source, O_RDONLY | O_NONBLOCK)) < 0)
        return;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "r"))) {
        close(fd);
        return;
    }
    /* lines longer than the buffer come in pieces: count line ends */
    while (n <= err->line && fgets(line, sizeof(line), f)) {
        int ends = strchr(line, '\n') != NULL;
        if (n == err->line && at_start) {
            line[strcspn(line, "\r\n")] = '\0';
            put_line("  ", line);
            fprintf(stderr, "  %*s^\n", err->col > 1 ? err->col - 1 : 0, "");
        }
        at_start = ends;
        n += ends;
    }
    fclose(f);
}

int cli_report(const cli_ctx *ctx, const qn_err *err)
{
    char where[300];

    if (err->code == QN_ENOMEM) { /* one message, wherever it happened */
        fputs("quench: out of memory\n", stderr);
        return QN_EXIT_OSERR;
    }
    qn_err_place(err, where, sizeof(where));
    if (!where[0])
        snprintf(where, sizeof(where), "quench: ");
    put_line(where, err->msg);
    if (ctx && ctx->verbose)
        show_source_line(err);
    return cli_exit_for(err->code);
}

int cli_usage_error(const char *fmt, ...)
{
    qn_buf msg = QN_BUF_INIT;
    va_list ap;

    va_start(ap, fmt);
    qn_buf_vaddf(&msg, fmt, ap);
    va_end(ap);
    put_line("quench: ", msg.buf);
    qn_buf_release(&msg);
    return QN_EXIT_USAGE;
}
