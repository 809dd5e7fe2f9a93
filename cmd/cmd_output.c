/*
 * cmd_output.c: where a command's results go (-o FILE, -o -, stdout), and
 * what a failed write means. A regular file is replaced atomically (a
 * temporary file beside it, fsync, rename); anything else that exists
 * (a device, a FIFO) is written in place, never replaced; a symbolic link
 * is followed to the file it names, as GNU tools do.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "base/mem.h"
#include "cmd.h"

#define MAX_LINKS 40 /* symbolic links followed, as Linux's ELOOP limit */

/*
 * The temporary file being written, for the signal handlers: a fatal
 * signal must not leave it behind. Only async-signal-safe state: a fixed
 * buffer and a flag set after the name is complete, cleared before the
 * file goes.
 */
static char pending_tmp[PATH_MAX + 32];
static volatile sig_atomic_t have_pending;

void cmd_out_signal_cleanup(void)
{
    if (have_pending) {
        have_pending = 0;
        unlink(pending_tmp);
    }
}

int cmd_write_error(const char *name, int e)
{
    /* the reader went away (| head): not an error of ours to report */
    if (e == EPIPE)
        return QN_EXIT_PIPE;
    fprintf(stderr, "quench: %s: write failed: %s\n", name,
            strerror(e ? e : EIO));
    return QN_EXIT_IOERR;
}

/* The one wording of every output, database or directory that cannot be
 * made, and its status. */
int cmd_cannot_create(const char *path, int e)
{
    fprintf(stderr, "quench: %s: cannot create: %s\n", path, strerror(e));
    return QN_EXIT_CANTCREAT;
}

/* dirname of path into a new string ("." when it has no slash). */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');

    if (!slash)
        return cli_xstrdup(".");
    if (slash == path)
        return cli_xstrdup("/");
    return cli_xstrndup(path, (size_t)(slash - path));
}

/*
 * Follow symbolic links from path to the name that is not one (it may
 * not exist yet: a dangling link creates its target). *st is that name's
 * lstat, or st_mode 0 when it does not exist. Returns the name (free()
 * it), or NULL with errno set.
 */
static char *follow_links(const char *path, struct stat *st)
{
    char *cur = cli_xstrdup(path);

    for (int hops = 0;; hops++) {
        char link[PATH_MAX];
        ssize_t n;

        if (lstat(cur, st) != 0) {
            if (errno != ENOENT)
                break;
            st->st_mode = 0;
            return cur;
        }
        if (!S_ISLNK(st->st_mode))
            return cur;
        if (hops == MAX_LINKS) {
            errno = ELOOP;
            break;
        }
        if ((n = readlink(cur, link, sizeof(link) - 1)) < 0)
            break;
        link[n] = '\0';
        if (link[0] == '/') {
            free(cur);
            cur = cli_xstrdup(link);
        } else {
            char *dir = dir_of(cur);
            qn_buf b = QN_BUF_INIT;
            qn_buf_addf(&b, "%s/%s", dir, link);
            free(dir);
            free(cur);
            cur = qn_buf_detach(&b, NULL);
        }
    }
    free(cur);
    return NULL;
}

/* A temporary file beside target with the mode the result should have. */
static int open_tmp(cmd_out *o, const struct stat *st)
{
    const char *base = strrchr(o->target, '/');
    char *dir = dir_of(o->target);
    qn_buf b = QN_BUF_INIT;
    mode_t mask = umask(0);
    int fd;

    umask(mask);
    qn_buf_addf(&b, "%s/.%s.XXXXXX", dir, base ? base + 1 : o->target);
    free(dir);
    if (b.len >= sizeof(pending_tmp)) {
        qn_buf_release(&b);
        errno = ENAMETOOLONG;
        return -1;
    }
    if ((fd = mkstemp(b.buf)) < 0) {
        qn_buf_release(&b);
        return -1;
    }
    memcpy(pending_tmp, b.buf, b.len + 1);
    have_pending = 1;
    o->tmp = qn_buf_detach(&b, NULL);
    /* a new file gets 0666 less the umask, as the shell's > would give;
     * a replaced one keeps its permissions and, where we may, owners */
    if (st->st_mode) {
        if (fchown(fd, st->st_uid, st->st_gid) != 0) {
            /* not ours to give away: keep ours */
        }
        fchmod(fd, st->st_mode & 07777);
    } else {
        fchmod(fd, 0666 & ~mask);
    }
    return fd;
}

int cmd_out_open(cmd_out *o, const char *path)
{
    struct stat st;
    int fd, e;

    memset(o, 0, sizeof(*o));
    if (!path || !strcmp(path, "-")) {
        o->name = "standard output";
        o->f = stdout;
        return QN_EXIT_OK;
    }
    o->name = path;
    if (!(o->target = follow_links(path, &st)))
        return cmd_cannot_create(path, errno);
    if (st.st_mode && !S_ISREG(st.st_mode)) {
        /* a device or FIFO is written, never replaced: renaming over
         * /dev/null would take it away from the whole system */
        if (S_ISDIR(st.st_mode)) {
            cmd_out_discard(o);
            return cmd_cannot_create(path, EISDIR);
        }
        fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    } else {
        fd = open_tmp(o, &st);
    }
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        e = errno;
        if (fd >= 0)
            close(fd);
        cmd_out_discard(o);
        return cmd_cannot_create(path, e);
    }
    return QN_EXIT_OK;
}

static void release(cmd_out *o)
{
    free(o->target);
    free(o->tmp);
    o->target = o->tmp = NULL;
    o->f = NULL;
}

void cmd_out_discard(cmd_out *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    if (o->tmp) {
        have_pending = 0;
        unlink(o->tmp);
    }
    release(o);
}

int cmd_out_commit(cmd_out *o)
{
    int e = 0;

    if (o->f == stdout) {
        if (fflush(stdout) != 0 || ferror(stdout))
            e = errno ? errno : EIO;
        release(o);
        return e ? cmd_write_error(o->name, e) : QN_EXIT_OK;
    }
    if (fflush(o->f) != 0 || ferror(o->f))
        e = errno ? errno : EIO;
    if (!e && o->tmp && fsync(fileno(o->f)) != 0)
        e = errno;
    if (fclose(o->f) != 0 && !e)
        e = errno ? errno : EIO;
    o->f = NULL;
    if (e) {
        cmd_out_discard(o);
        return cmd_write_error(o->name, e);
    }
    if (o->tmp && rename(o->tmp, o->target) != 0) {
        e = errno;
        cmd_out_discard(o);
        return cmd_cannot_create(o->name, e);
    }
    have_pending = 0;
    release(o);
    return QN_EXIT_OK;
}

int cmd_write_atomic(const char *path, const char *data, size_t len)
{
    cmd_out o;
    int st = cmd_out_open(&o, path);

    if (st != QN_EXIT_OK)
        return st;
    if (len && fwrite(data, 1, len, o.f) != len) {
        int e = errno;
        const char *name = o.name;
        cmd_out_discard(&o);
        return cmd_write_error(name, e);
    }
    return cmd_out_commit(&o);
}
