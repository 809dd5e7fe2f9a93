/*
 * file.h: opening an input file by name, the one place that decides which
 * failures mean "this input cannot be had" (exit 66, EX_NOINPUT) and which
 * mean "reading went wrong" (exit 74, EX_IOERR), so every reader of rule
 * files, states, images, submissions and documents agrees.
 */
#ifndef QN_FILE_H
#define QN_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "base/err.h"

/*
 * Open `path` for reading ("-" is stdin, borrowed: not to be closed; see
 * qn_file_close). err->source is set to the path (or "<stdin>") either
 * way. Returns QN_OK with *out set, or *out NULL and:
 *   QN_ENOTFOUND  the file cannot be opened for reading: it does not
 *                 exist, a directory on the way is missing or not one
 *                 (ENOENT, ENOTDIR, ELOOP, ENAMETOOLONG), permission is
 *                 denied (EACCES, EPERM), or it is a directory (found by
 *                 fstat at open, not left to the first read);
 *   QN_EIO        any other failure (EMFILE, EIO, ...).
 * Errors after a successful open (a failed read) are the reader's QN_EIO.
 */
int qn_file_open_read(FILE **out, const char *path, qn_err *err);

/*
 * As qn_file_open_read, for an input that must be a regular file (rule
 * files and recipes, read whole, often named by another file): a FIFO,
 * a device or a socket is QN_ENOTFOUND, "cannot open: not a regular file
 * (a FIFO)", and the open never blocks (O_NONBLOCK, cleared once the
 * type is known from what was opened): a FIFO without a writer would
 * otherwise wait for one for ever, and a device such as /dev/tty would
 * wait for input. "-" is stdin, as before.
 */
int qn_file_open_regular(FILE **out, const char *path, qn_err *err);

/* Close what qn_file_open_read opened; stdin and NULL are left alone. */
void qn_file_close(FILE *f);

/*
 * Read a whole input ("-" is stdin) of at most `max` bytes into *out
 * (malloc'd, NUL-terminated; *len excludes the NUL; free() it). Reads at
 * most max + 1 bytes, so an endless input (/dev/zero) fails as soon as it
 * passes the limit. Returns QN_OK; the codes of qn_file_open_read;
 * QN_ELIMIT ("input larger than MAX bytes") past the limit; QN_EIO for a
 * read error. err->source is the path or "<stdin>".
 */
int qn_file_read_all(char **out, size_t *len, const char *path, size_t max,
                     qn_err *err);
/* The same through qn_file_open_regular. */
int qn_file_read_regular(char **out, size_t *len, const char *path, size_t max,
                         qn_err *err);

#endif
