/*
 * store.c: a connection to the puzzle store (store.h): opening a file
 * (checking what it is, WAL, migrating it), closing it, its settings,
 * and the batches that group many calls into one transaction.
 */
#include "store/store.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "base/mem.h"
#include "store_internal.h"

#define DEFAULT_BUSY_MS 5000
/*
 * The WAL is copied into the file once it holds this many pages (4 KiB
 * each: 80 MiB), not SQLite's 1000. A generate --db batch rewrites most
 * pages of the unique index (store_internal.h); checkpointing after every
 * batch wrote each of them to the file again, with an fsync, each time.
 * Checkpointing every few batches writes a page rewritten meanwhile once
 * (1M classic 7x7: 15% less time, docs/PERFORMANCE.md). The WAL file
 * grows to about this size plus a batch while a writer works; SQLite
 * removes it when the last connection closes.
 */
#define WAL_AUTOCHECKPOINT "20000"

static int is_memory(const char *path)
{
    return !strcmp(path, ":memory:") || !strcmp(path, "");
}

static void close_handle(qn_store *s)
{
    sqlite3_finalize(s->put_puzzle);
    sqlite3_finalize(s->dup_puzzle);
    qn_store__kept_free(s);
    sqlite3_close_v2(s->db);
    qn_store__claims_release(s);
    qn_store__keys_forget(s);
    qn_store__runs_free(s);
    qn_store__unique_free(s);
    qn_store__find_free(s);
    qn_store__grades_forget(s);
    free(s->path);
    free(s);
}

static int header(qn_store *s, long long *app, long long *ver, long long *nobj,
                  qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s,
                  "SELECT (SELECT application_id FROM pragma_application_id),"
                  " (SELECT user_version FROM pragma_user_version),"
                  " (SELECT count(*) FROM sqlite_schema)",
                  err);
    if (qn_store__row(&q)) {
        *app = sqlite3_column_int64(q.st, 0);
        *ver = sqlite3_column_int64(q.st, 1);
        *nobj = sqlite3_column_int64(q.st, 2);
    }
    return qn_store__end(&q);
}

/* Check the header fields; migrate unless told not to. */
static int setup(qn_store *s, unsigned flags, qn_err *err)
{
    long long app = 0, ver = 0, nobj = 0;
    int rc, latest = qn_store_schema_version();
    int ro = sqlite3_db_readonly(s->db, "main");

    /* one statement, so one snapshot: another process may be creating
     * the schema right now, and three separate reads could straddle it */
    if ((rc = qn_store__exec(s, "PRAGMA foreign_keys = ON", err)) ||
        (rc = header(s, &app, &ver, &nobj, err)))
        return rc;
    if (app != QN_STORE_APPLICATION_ID && !(app == 0 && ver == 0 && nobj == 0))
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "not a quench database (application_id 0x%08llx, "
                          "expected 0x%08x)",
                          (unsigned long long)app & 0xffffffffu,
                          (unsigned)QN_STORE_APPLICATION_ID);
    if (ver > latest)
        return qn_err_set(err, QN_ENEWER, 0, 0,
                          "database schema version %lld is newer than this "
                          "quench knows (%d); upgrade quench",
                          ver, latest);
    if ((rc = qn_store__exec(s, "PRAGMA cache_size = " QN_STORE_CACHE_SIZE,
                             err)))
        return rc;
    if (!ro && (flags & QN_STORE__ASIDE)) {
        /* a file nobody else opens (qn_store_open_aside): no log, no
         * syncs until qn_store_aside_publish */
        s->aside = 1;
        if ((rc = qn_store__exec(s, "PRAGMA main.journal_mode = OFF", err)) ||
            (rc = qn_store__exec(s, "PRAGMA main.synchronous = OFF", err)))
            return rc;
    } else if (!ro && !(flags & QN_STORE_READONLY)) {
        /* WAL: readers never block the writer; synchronous=NORMAL syncs
         * at checkpoints only, so a committed batch survives a crash of
         * the process but the last ones may be lost on power failure. A
         * reader leaves the journal mode as it is. */
        if ((rc = qn_store__exec(s, "PRAGMA journal_mode = WAL", err)) ||
            (rc = qn_store__exec(s, "PRAGMA synchronous = NORMAL", err)) ||
            (rc = qn_store__exec(
                 s, "PRAGMA wal_autocheckpoint = " WAL_AUTOCHECKPOINT, err)))
            return rc;
    }
    if (ver < latest && !(flags & QN_STORE_NO_MIGRATE)) {
        if (ro)
            return qn_err_set(err, QN_EDB, 0, 0,
                              "database schema version %lld is older than "
                              "%d and the database is read-only; run "
                              "'quench db migrate' on a writable copy",
                              ver, latest);
        if ((rc = qn_store_migrate(s, NULL, NULL, err)))
            return rc;
    }
    /* a reader's connection cannot change the file (writes fail with
     * SQLITE_READONLY), though the file may be open for writing */
    if (flags & QN_STORE_READONLY)
        return qn_store__exec(s, "PRAGMA query_only = ON", err);
    return QN_OK;
}

/*
 * A database that cannot be opened at all is a missing input (66), as for
 * every other input file (file.h): not there (unless it may be created),
 * a directory, or not readable. SQLite would say only "unable to open
 * database file" (74).
 */
static int can_open(const char *path, unsigned flags, qn_err *err)
{
    struct stat sb;
    int e = 0;

    if (stat(path, &sb) != 0) {
        if (errno != ENOENT || !(flags & QN_STORE_CREATE))
            e = errno;
    } else if (S_ISDIR(sb.st_mode)) {
        e = EISDIR;
    } else if (access(path, R_OK) != 0 && errno == EACCES) {
        e = EACCES; /* unreadable (a read-only one is SQLite's to report) */
    }
    if (!e)
        return QN_OK;
    qn_err_source(err, path);
    return qn_err_set(err, e == EIO ? QN_EIO : QN_ENOTFOUND, 0, 0,
                      "cannot open database: %s", strerror(e));
}

/*
 * SQLite counts every allocation under a global mutex for
 * sqlite3_memory_used, which quench never asks: off, before SQLite
 * initialises (a no-op if something initialised it already). 8% of the
 * CPU time of generate --db (docs/PERFORMANCE.md).
 */
static pthread_once_t sqlite_once = PTHREAD_ONCE_INIT;

static void configure_sqlite(void)
{
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/* (Re)connect s to `name` (a path, or a file: URI with SQLITE_OPEN_URI)
 * and check it as flags say (setup). */
static int connect_to(qn_store *s, const char *name, int oflags, unsigned flags,
                      qn_err *err)
{
    int rc;

    sqlite3_close_v2(s->db);
    s->db = NULL;
    rc = sqlite3_open_v2(name, &s->db, oflags | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK)
        return qn_store__fail(s, rc, err);
    sqlite3_busy_timeout(s->db, s->busy_ms);
    /*
     * Two processes opening a new file at once both try to switch it to
     * WAL and migrate it; SQLite answers one of them SQLITE_BUSY at once,
     * without its busy handler, where waiting could deadlock. setup() is
     * idempotent, so retry it for up to the busy timeout.
     */
    for (int waited = 0;; waited += 10) {
        rc = setup(s, flags, err);
        if (rc != QN_EBUSY || waited >= s->busy_ms)
            return rc;
        sqlite3_sleep(10);
    }
}

/* The file: URI of path with SQLite's immutable flag (percent-encoded:
 * '?', '#' and '%' would end or change the path). */
static char *immutable_uri(const char *path)
{
    qn_buf b = QN_BUF_INIT;
    char *uri;

    /* "file:///abs" (an empty authority) or "file:rel" */
    qn_buf_adds(&b, path[0] == '/' ? "file://" : "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            (*p >= '0' && *p <= '9') || strchr("/-._~", *p))
            qn_buf_addc(&b, (char)*p);
        else
            qn_buf_addf(&b, "%%%02X", *p);
    }
    qn_buf_adds(&b, "?immutable=1");
    uri = qn_buf_detach(&b, NULL);
    return uri;
}

/* Whether nothing can change path while it is read: it is on a read-only
 * file system, or neither it nor its folder may be written by anyone
 * (no write permission bit at all). -1: out of memory. */
static int cannot_change(const char *path)
{
    struct statvfs vfs;
    struct stat file, dir;
    char *folder, *slash;
    int ok;

    if (statvfs(path, &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
        return 1;
    if (!(folder = qn_strdup(path)))
        return -1;
    slash = strrchr(folder, '/');
    if (slash)
        slash[slash == folder] = '\0'; /* "/x.db": the folder is "/" */
    ok = stat(path, &file) == 0 && !(file.st_mode & 0222) &&
         stat(slash ? folder : ".", &dir) == 0 && !(dir.st_mode & 0222);
    free(folder);
    return ok;
}

/*
 * A reader's fallback for a database in a folder it cannot write (a
 * package's share/, read-only media): SQLite reads a WAL database through
 * its index PATH-shm, which it cannot create there, and fails ("attempt
 * to write a readonly database", "unable to open database file"; a
 * database in rollback-journal mode needs no index and opens as it is).
 * SQLite's immutable mode reads the file alone, without locks, index or
 * log: right only when the file holds every committed change (no log
 * PATH-wal with changes not yet copied in) and nothing can change it
 * while it is read (cannot_change). Otherwise say what to do.
 */
static int open_immutable(qn_store *s, unsigned flags, qn_err *err)
{
    char *wal = qn_malloc(strlen(s->path) + 5), *uri;
    struct stat sb;
    int has_log, rc, fixed;

    if (!wal)
        return qn_err_nomem(err);
    sprintf(wal, "%s-wal", s->path);
    has_log = stat(wal, &sb) == 0 && sb.st_size > 0;
    free(wal);
    if (has_log)
        return qn_err_set(err, QN_EDB, 0, 0,
                          "cannot read the database where this user "
                          "cannot write: its log %s-wal holds changes not "
                          "yet in it, which SQLite reads only through an "
                          "index %s-shm it cannot create here; copy both "
                          "files to a folder you can write and read the "
                          "copy",
                          s->path, s->path);
    if ((fixed = cannot_change(s->path)) < 0)
        return qn_err_nomem(err);
    if (!fixed)
        return qn_err_set(err, QN_EDB, 0, 0,
                          "cannot read the database where this user "
                          "cannot write: SQLite needs an index %s-shm "
                          "beside it, and reads it without one only if "
                          "nothing can change it; copy it to a folder you "
                          "can write, or make it and its folder read-only "
                          "for everyone (chmod a-w)",
                          s->path);
    if (!(uri = immutable_uri(s->path)))
        return qn_err_nomem(err);
    rc = connect_to(s, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, flags, err);
    free(uri);
    return rc;
}

int qn_store_open(qn_store **out, const char *path, unsigned flags, qn_err *err)
{
    qn_store *s;
    int oflags, rc;

    *out = NULL;
    pthread_once(&sqlite_once, configure_sqlite);
    if (!is_memory(path) && (rc = can_open(path, flags, err)) != QN_OK)
        return rc;
    if (!(s = QN_ALLOC(qn_store)))
        return qn_err_nomem(err);
    s->claim_fd = -1;
    if (!(s->path = qn_strdup(path))) {
        close_handle(s);
        return qn_err_nomem(err);
    }
    s->busy_ms = DEFAULT_BUSY_MS;
    /*
     * A reader too opens the file for writing where it may (SQLite opens
     * it read-only where it may not): its connection is kept from
     * changing anything (setup: query_only), but the last connection to
     * close copies SQLite's log into the file and removes it and its
     * index (PATH-wal, PATH-shm), which a read-only one cannot: each
     * `pack list` left both behind. An older schema is migrated as by a
     * writer.
     */
    oflags = SQLITE_OPEN_READWRITE |
             (flags & QN_STORE_CREATE ? SQLITE_OPEN_CREATE : 0);
    rc = connect_to(s, path, oflags, flags, err);
    if (rc != QN_OK && (flags & QN_STORE_READONLY) && !is_memory(path) &&
        ((s->sqlite_rc & 0xff) == SQLITE_READONLY ||
         (s->sqlite_rc & 0xff) == SQLITE_CANTOPEN) &&
        access(path, R_OK) == 0)
        rc = open_immutable(s, flags, err);
    if (rc != QN_OK)
        goto fail;
    *out = s;
    return QN_OK;
fail:
    qn_err_source(err, path);
    close_handle(s);
    return rc;
}

void qn_store_close(qn_store *s)
{
    if (!s)
        return;
    if (s->in_batch)
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    close_handle(s);
}

const char *qn_store_path(const qn_store *s)
{
    return s->path;
}

void qn_store_set_busy_timeout(qn_store *s, int ms)
{
    s->busy_ms = ms;
    sqlite3_busy_timeout(s->db, ms);
}

/* ---------------------------------------------------------------------
 * Batches.
 */
int qn_store_begin(qn_store *s, qn_err *err)
{
    int rc;

    if (s->in_batch)
        return qn_err_set(err, QN_EINVAL, 0, 0, "a batch is already open");
    qn_store__runs_forget(s);
    if ((rc = qn_store__exec(s, "BEGIN IMMEDIATE", err)) != QN_OK)
        return rc;
    /* other writers' runs into the id sets, under the write lock */
    if ((rc = qn_store__unique_sync(s, err)) != QN_OK) {
        int undo = sqlite3_get_autocommit(s->db)
                       ? QN_OK
                       : qn_store__exec(s, "ROLLBACK", err);
        return undo != QN_OK ? undo : rc;
    }
    s->in_batch = 1;
    s->batches++;
    return QN_OK;
}

int qn_store_commit(qn_store *s, qn_err *err)
{
    int rc;

    if (!s->in_batch)
        return qn_err_set(err, QN_EINVAL, 0, 0, "no batch to commit");
    /* the batch's rows and their key runs commit together */
    if ((rc = qn_store__runs_flush(s, err)) == QN_OK &&
        (rc = qn_store__unique_flushed(s, err)) == QN_OK)
        rc = qn_store__exec(s, "COMMIT", err);
    if (rc != QN_OK) { /* nothing of the batch may survive a failed commit */
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        qn_store__unique_forget(s);
    }
    qn_store__runs_forget(s);
    s->in_batch = 0;
    return rc;
}

int qn_store_rollback(qn_store *s, qn_err *err)
{
    if (!s->in_batch)
        return qn_err_set(err, QN_EINVAL, 0, 0, "no batch to roll back");
    s->in_batch = 0;
    qn_store__runs_forget(s);
    qn_store__unique_forget(s); /* read again at their next put */
    return qn_store__exec(s, "ROLLBACK", err);
}

int qn_store_in_batch(const qn_store *s)
{
    return s->in_batch;
}
