/*
 * cmd_export_dir.c: `quench export PACK --format dir -o DIR [--force]`:
 * one file per level and a table of contents (export_dir.c), written as
 * a whole or not at all. The folder is built beside DIR under a
 * temporary name, every file and folder fsynced, and renamed to DIR; an
 * existing DIR is refused unless --force, and then only when it is a
 * dir export itself (its index.json says so), moved aside, replaced and
 * removed file by file (nothing quench did not write is deleted).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/mem.h"
#include "cmd.h"
#include "export/export.h"

/* path + "/" + name, malloc'd. */
static char *join(const char *path, const char *name)
{
    size_t a = strlen(path), b = strlen(name);
    char *s = cli_xmalloc(a + b + 2);

    memcpy(s, path, a);
    s[a] = '/';
    memcpy(s + a + 1, name, b + 1);
    return s;
}

static int fsync_path(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

    if (fd < 0)
        return -1;
    rc = fsync(fd);
    close(fd);
    return rc;
}

/* Write data to the new file path, fsynced: 0, or errno. */
static int put_file(const char *path, const qn_buf *data)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644), e = 0;
    size_t off = 0;

    if (fd < 0)
        return errno;
    while (!e && off < data->len) {
        ssize_t n = write(fd, data->buf + off, data->len - off);
        if (n < 0 && errno != EINTR)
            e = errno;
        else if (n > 0)
            off += (size_t)n;
    }
    if (!e && fsync(fd) != 0)
        e = errno;
    if (close(fd) != 0 && !e)
        e = errno;
    return e;
}

/*
 * Remove a dir export at path: index.json, levels/ and the *.json files
 * in it, then the folder. 0 when it is gone; -1 when something else was
 * in it (it stays, with that).
 */
static int remove_export(const char *path)
{
    char *levels = join(path, "levels"), *f;
    DIR *d = opendir(levels);
    struct dirent *e;
    int rc;

    while (d && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 5 && !strcmp(e->d_name + n - 5, ".json")) {
            f = join(levels, e->d_name);
            unlink(f);
            free(f);
        }
    }
    if (d)
        closedir(d);
    rmdir(levels);
    f = join(path, "index.json");
    unlink(f);
    free(f);
    free(levels);
    rc = rmdir(path);
    return rc;
}

/* Whether the folder at path is a dir export (its index.json says so). */
static int is_dir_export(const char *path)
{
    char *index = join(path, "index.json"), head[256];
    FILE *f = fopen(index, "r");
    size_t n = f ? fread(head, 1, sizeof(head) - 1, f) : 0;

    if (f)
        fclose(f);
    free(index);
    head[n] = '\0';
    return strstr(head, "\"format\":\"" QN_PACK_INDEX_FORMAT "\"") != NULL;
}

/* Every file of the export into the new folder tmp: 0, or errno. */
static int write_all(const char *tmp, const qn_pack_doc *doc)
{
    char name[QN_EXPORT_DIR_PATH], *path, *levels = join(tmp, "levels");
    qn_buf b = QN_BUF_INIT;
    int e = mkdir(levels, 0755) ? errno : 0;

    for (size_t i = 0; !e && i < doc->npuzzles; i++) {
        qn_buf_reset(&b);
        if (qn_export_dir_level(&b, doc, i, NULL) != QN_OK)
            cli_oom(); /* as the buffer's own failure (cli_mem.c) */
        path = join(tmp, qn_export_dir_level_path(name, doc, i));
        e = put_file(path, &b);
        free(path);
    }
    if (!e) {
        qn_buf_reset(&b);
        if (qn_export_dir_index(&b, doc, NULL) != QN_OK)
            cli_oom();
        path = join(tmp, "index.json");
        e = put_file(path, &b);
        free(path);
    }
    if (!e && (fsync_path(levels) || fsync_path(tmp)))
        e = errno;
    qn_buf_release(&b);
    free(levels);
    return e;
}

/* dir without its trailing slashes, and its parent folder. */
static char *parent_of(const char *dir)
{
    char *p = cli_xstrdup(dir), *slash = strrchr(p, '/');

    if (!slash)
        strcpy(p, ".");
    else if (slash == p)
        p[1] = '\0';
    else
        *slash = '\0';
    return p;
}

int cmd_export_dir(const qn_pack_doc *doc, const char *out, int force)
{
    char *dir = cli_xstrdup(out), *tmp, *old = NULL, *parent;
    size_t len = strlen(dir);
    struct stat st;
    int exists, e, status = QN_EXIT_OK;

    while (len > 1 && dir[len - 1] == '/')
        dir[--len] = '\0';
    exists = lstat(dir, &st) == 0;
    if (exists && !force) {
        fprintf(stderr,
                "quench: %s: already exists (give --force to replace a "
                "dir export)\n",
                dir);
        free(dir);
        return QN_EXIT_CANTCREAT;
    }
    if (exists && (!S_ISDIR(st.st_mode) || !is_dir_export(dir))) {
        fprintf(stderr,
                "quench: %s: not a dir export (no index.json of format "
                "%s): not replaced, even with --force\n",
                dir, QN_PACK_INDEX_FORMAT);
        free(dir);
        return QN_EXIT_CANTCREAT;
    }
    tmp = cli_xmalloc(len + 16);
    snprintf(tmp, len + 16, "%s.tmp-XXXXXX", dir);
    if (!mkdtemp(tmp)) {
        status = cmd_cannot_create(dir, errno);
        free(tmp);
        free(dir);
        return status;
    }
    if ((e = write_all(tmp, doc)) != 0) {
        remove_export(tmp);
        status = e == ENOSPC || e == EIO || e == EDQUOT
                     ? cmd_write_error(dir, e)
                     : cmd_cannot_create(dir, e);
        goto done;
    }
    if (exists) {
        old = cli_xmalloc(len + 16);
        snprintf(old, len + 16, "%s.old-XXXXXX", dir);
        /* a free name beside dir to move it aside to */
        if (!mkdtemp(old) || rmdir(old) != 0 || rename(dir, old) != 0) {
            status = cmd_cannot_create(dir, errno);
            remove_export(tmp);
            goto done;
        }
    }
    if (rename(tmp, dir) != 0) {
        e = errno;
        if (old)
            rename(old, dir); /* put the old export back */
        remove_export(tmp);
        status = cmd_cannot_create(dir, e);
        goto done;
    }
    parent = parent_of(dir);
    fsync_path(parent);
    free(parent);
    if (old && remove_export(old) != 0)
        fprintf(stderr,
                "quench: %s: the replaced export held other files: kept\n",
                old);
done:
    free(old);
    free(tmp);
    free(dir);
    return status;
}
