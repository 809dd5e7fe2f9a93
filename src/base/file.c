/*
 * file.c: opening and reading input files by name (file.h). The split
 * between "cannot be had" and "failed while reading" follows sysexits:
 * EX_NOINPUT is an input that did not exist or was not readable.
 */
#include "quench/file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "quench/mem.h"

/* Open failures that say the input is not there to be read. */
static int is_noinput(int e)
{
    return e == ENOENT || e == ENOTDIR || e == EACCES || e == EPERM ||
           e == EISDIR || e == ELOOP || e == ENAMETOOLONG;
}

int qn_file_open_read(FILE **out, const char *path, qn_err *err)
{
    struct stat st;
    FILE *f;
    int e;

    *out = NULL;
    if (!strcmp(path, "-")) {
        qn_err_source(err, "<stdin>");
        *out = stdin;
        return QN_OK;
    }
    qn_err_source(err, path);
    if (!(f = fopen(path, "rb"))) {
        e = errno;
        return qn_err_set(err, is_noinput(e) ? QN_ENOTFOUND : QN_EIO, 0, 0,
                          "cannot open: %s", strerror(e));
    }
    /* open(2) lets a directory be opened for reading; its first read
     * fails with EISDIR, which would be reported as an i/o error */
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return qn_err_set(err, QN_ENOTFOUND, 0, 0, "cannot open: %s",
                          strerror(EISDIR));
    }
    *out = f;
    return QN_OK;
}

void qn_file_close(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
}

int qn_file_read_all(char **out, size_t *len, const char *path, size_t max,
                     qn_err *err)
{
    size_t cap = 4096, n = 0, got;
    char *buf;
    FILE *f;
    int rc;

    *out = NULL;
    *len = 0;
    if ((rc = qn_file_open_read(&f, path, err)) != QN_OK)
        return rc;
    buf = qn_xmalloc(cap + 1);
    /* one byte past the limit tells "exactly max" from "more" */
    while (n <= max) {
        if (n == cap) {
            cap = cap > max / 2 ? max + 1 : 2 * cap;
            buf = qn_xrealloc(buf, cap + 1);
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (n <= max && ferror(f)) {
        int e = errno;
        rc = qn_err_set(err, QN_EIO, 0, 0, "read failed: %s", strerror(e));
    } else if (n > max) {
        rc = qn_err_set(err, QN_ELIMIT, 0, 0, "input larger than %zu bytes",
                        max);
    }
    qn_file_close(f);
    if (rc != QN_OK) {
        free(buf);
        return rc;
    }
    buf[n] = '\0'; /* callers may treat it as a string */
    *out = buf;
    *len = n;
    return QN_OK;
}
