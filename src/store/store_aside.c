/*
 * store_aside.c: a database built aside, under a temporary name nobody
 * else opens, and published under its own name only when it is whole
 * (db merge into a new OUT: docs/STORE.md, "A new OUT is built aside").
 * While it is built it has no journal and is never synced: SQLite's log
 * (WAL) would write every page twice, once into the log and once into
 * the file, which a copy into a database others may read must pay and
 * this one need not. A failure or a kill leaves the temporary file
 * alone, never a half-written database under the published name.
 */
#include "store/store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "base/mem.h"
#include "store_internal.h"

int qn_store_open_aside(qn_store **out, const char *tmp_path, qn_err *err)
{
    return qn_store_open(out, tmp_path, QN_STORE_CREATE | QN_STORE__ASIDE, err);
}

/* QN_EIO naming path, with errno e's text. */
static int io_fail(const char *what, const char *path, int e, qn_err *err)
{
    qn_err_source(err, path);
    return qn_err_set(err, QN_EIO, 0, 0, "%s: %s", what, strerror(e));
}

/* fsync of path (a file or a directory). */
static int sync_path(const char *path, qn_err *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC), e;

    if (fd < 0)
        return io_fail("cannot open to sync", path, errno, err);
    if (fsync(fd) != 0) {
        e = errno;
        close(fd);
        return io_fail("cannot sync", path, e, err);
    }
    close(fd);
    return QN_OK;
}

/* The directory holding path ("." for a bare name). */
static int sync_dir_of(const char *path, qn_err *err)
{
    qn_buf d = QN_BUF_INIT;
    const char *slash = strrchr(path, '/');
    int rc;

    if (!slash)
        qn_buf_adds(&d, ".");
    else
        qn_buf_add(&d, path, slash == path ? 1 : (size_t)(slash - path));
    rc = d.failed ? qn_err_nomem(err) : sync_path(d.buf, err);
    qn_buf_release(&d);
    return rc;
}

/* Give tmp the name final, never replacing a file there: a hard link
 * then the old name's removal; where the file system has no hard links,
 * a rename after a look (a file made at that instant would be lost). */
static int take_name(const char *tmp, const char *final, qn_err *err)
{
    struct stat sb;
    int e;

    if (link(tmp, final) == 0) {
        unlink(tmp);
        return QN_OK;
    }
    e = errno;
    if (e != EEXIST &&
        (e == EPERM || e == EOPNOTSUPP || e == EMLINK || e == ENOSYS)) {
        if (lstat(final, &sb) != 0 && errno == ENOENT) {
            if (rename(tmp, final) == 0)
                return QN_OK;
            return io_fail("cannot rename the database built aside into "
                           "place",
                           final, errno, err);
        }
        e = EEXIST;
    }
    if (e == EEXIST) {
        qn_err_source(err, final);
        return qn_err_set(err, QN_EBUSY, 0, 0,
                          "another process created it while this one built "
                          "it aside; it was left as it is: run again");
    }
    return io_fail("cannot link the database built aside into place", final, e,
                   err);
}

int qn_store_aside_publish(qn_store *s, const char *final, qn_err *err)
{
    char *tmp = NULL;
    qn_buf wal = QN_BUF_INIT;
    struct stat sb;
    int rc = QN_OK;

    if (s->in_batch)
        rc = qn_err_set(err, QN_EINVAL, 0, 0, "cannot publish inside a batch");
    else if (!(tmp = qn_strdup(s->path)))
        rc = qn_err_nomem(err);
    /* the store's own mode, as every other quench database has it (the
     * file's header says WAL); its log is empty when the last connection
     * closes */
    if (rc == QN_OK) {
        qn_store__stmt q;
        qn_store__sql(&q, s, "PRAGMA main.journal_mode = WAL", err);
        if (qn_store__row(&q) && strcmp(qn_store__col_str(q.st, 0), "wal"))
            q.rc = qn_err_set(err, QN_EDB, 0, 0,
                              "cannot switch the database built aside to "
                              "its log (WAL)");
        rc = qn_store__end(&q);
    }
    qn_store_close(s);
    if (rc == QN_OK) {
        qn_buf_addf(&wal, "%s-wal", tmp);
        if (wal.failed)
            rc = qn_err_nomem(err);
        else if (stat(wal.buf, &sb) == 0 && sb.st_size > 0)
            rc = io_fail("its log was not emptied on close", tmp, EIO, err);
    }
    if (rc == QN_OK)
        rc = sync_path(tmp, err);
    if (rc == QN_OK)
        rc = take_name(tmp, final, err);
    if (rc == QN_OK)
        rc = sync_dir_of(final, err);
    qn_buf_release(&wal);
    free(tmp);
    return rc;
}
