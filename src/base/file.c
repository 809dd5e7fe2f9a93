/*
 * file.c: opening and reading input files by name (file.h). The split
 * between "cannot be had" and "failed while reading" follows sysexits:
 * EX_NOINPUT is an input that did not exist or was not readable.
 */
#include "base/file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/mem.h"

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

/* What a file that is not regular is, for the message. */
static const char *kind_of(mode_t m)
{
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a regular file";
}

int qn_file_open_regular(FILE **out, const char *path, qn_err *err)
{
    struct stat st;
    int fd, flags, e;
    FILE *f;

    *out = NULL;
    if (!strcmp(path, "-"))
        return qn_file_open_read(out, path, err);
    qn_err_source(err, path);
    /* O_NONBLOCK: open(2) of a FIFO without a writer would wait for one
     * for ever; the type is then read from what was opened, so nothing
     * swapped in after a check can block either */
    if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0) {
        e = errno;
        return qn_err_set(err, is_noinput(e) ? QN_ENOTFOUND : QN_EIO, 0, 0,
                          "cannot open: %s", strerror(e));
    }
    if (fstat(fd, &st) != 0) {
        e = errno;
        close(fd);
        return qn_err_set(err, QN_EIO, 0, 0, "cannot open: %s", strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        if (S_ISDIR(st.st_mode)) /* as qn_file_open_read says it */
            return qn_err_set(err, QN_ENOTFOUND, 0, 0, "cannot open: %s",
                              strerror(EISDIR));
        return qn_err_set(err, QN_ENOTFOUND, 0, 0,
                          "cannot open: not a regular file (%s)",
                          kind_of(st.st_mode));
    }
    if ((flags = fcntl(fd, F_GETFL)) < 0 ||
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ||
        !(f = fdopen(fd, "rb"))) {
        e = errno;
        close(fd);
        return qn_err_set(err, QN_EIO, 0, 0, "cannot open: %s", strerror(e));
    }
    *out = f;
    return QN_OK;
}

void qn_file_close(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
}

/* The whole input behind an open f, as qn_file_read_all says. */
static int read_whole(FILE *f, char **out, size_t *len, size_t max, qn_err *err)
{
    size_t cap = 4096, n = 0, got;
    char *buf;
    int rc = QN_OK;

    if (!(buf = qn_malloc(cap + 1))) {
        qn_file_close(f);
        return qn_err_nomem(err);
    }
    /* one byte past the limit tells "exactly max" from "more" */
    while (n <= max) {
        if (n == cap) {
            char *more;
            cap = cap > max / 2 ? max + 1 : 2 * cap;
            if (!(more = qn_realloc(buf, cap + 1))) {
                rc = qn_err_nomem(err);
                break;
            }
            buf = more;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (rc != QN_OK) {
        /* out of memory, said above */
    } else if (n <= max && ferror(f)) {
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

/* The whole input at path, opened by opener. */
static int read_path(char **out, size_t *len, const char *path, size_t max,
                     qn_err *err,
                     int (*opener)(FILE **, const char *, qn_err *))
{
    FILE *f;
    int rc;

    *out = NULL;
    *len = 0;
    if ((rc = opener(&f, path, err)) != QN_OK)
        return rc;
    return read_whole(f, out, len, max, err);
}

int qn_file_read_all(char **out, size_t *len, const char *path, size_t max,
                     qn_err *err)
{
    return read_path(out, len, path, max, err, qn_file_open_read);
}

int qn_file_read_regular(char **out, size_t *len, const char *path, size_t max,
                         qn_err *err)
{
    return read_path(out, len, path, max, err, qn_file_open_regular);
}
