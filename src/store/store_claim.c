/*
 * store_claim.c: run claims (store.h, "Runs are claimed"): one writer per
 * generator run, so that two copies of one command can never interleave
 * their puzzles and counts in one run row.
 *
 * A claim is a write lock on byte run_id of the file PATH-lock, taken with
 * an open-file-description lock (F_OFD_SETLK). Such a lock belongs to the
 * connection's own descriptor, so it is released when the connection
 * closes or the process dies (kill -9 too), and it is not dropped when
 * some other descriptor of the file is closed, as a POSIX record lock
 * would be. The database file itself is never opened here: closing a
 * second descriptor of it would drop SQLite's own POSIX locks.
 */
#define _GNU_SOURCE /* F_OFD_SETLK (Linux 3.15, POSIX.1-2024) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "store_internal.h"

static int open_lock_file(qn_store *s, qn_err *err)
{
    qn_buf name = QN_BUF_INIT;
    int rc;

    qn_buf_addf(&name, "%s-lock", s->path);
    if ((rc = qn_buf_check(&name, err)) != QN_OK) {
        qn_buf_release(&name);
        return rc;
    }
    s->claim_fd = open(name.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (s->claim_fd < 0) {
        int e = errno;
        qn_err_source(err, name.buf);
        qn_buf_release(&name);
        return qn_err_set(err, QN_EDB, 0, 0,
                          "cannot open the run lock file: %s", strerror(e));
    }
    qn_buf_release(&name);
    return QN_OK;
}

int qn_store__claim_run(qn_store *s, int64_t run_id, qn_err *err)
{
#ifdef F_OFD_SETLK
    struct flock fl;
    int rc;

    if (!strcmp(s->path, ":memory:") || !s->path[0])
        return QN_OK; /* no other connection can see it */
    if (s->claim_fd < 0 && (rc = open_lock_file(s, err)) != QN_OK)
        return rc;
    memset(&fl, 0, sizeof(fl));
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = (off_t)run_id;
    fl.l_len = 1;
    if (fcntl(s->claim_fd, F_OFD_SETLK, &fl) == 0)
        return QN_OK;
    qn_err_source(err, s->path);
    if (errno == EAGAIN || errno == EACCES)
        return qn_err_set(err, QN_EBUSY, 0, 0,
                          "run %lld is being written by another process "
                          "(the same command is running); retry when it "
                          "has finished",
                          (long long)run_id);
    return qn_err_set(err, QN_EDB, 0, 0, "cannot claim run %lld: %s",
                      (long long)run_id, strerror(errno));
#else
    (void)s, (void)run_id, (void)err;
    return QN_OK; /* no open-file-description locks: unclaimed */
#endif
}

void qn_store__claims_release(qn_store *s)
{
    if (s->claim_fd >= 0)
        close(s->claim_fd);
    s->claim_fd = -1;
}
