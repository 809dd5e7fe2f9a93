/*
 * replay.c: run a libFuzzer target without libFuzzer. Linked with one
 * fuzz/fuzz_*.c, it feeds LLVMFuzzerTestOneInput every regular file of
 * every directory (and every file) named on the command line, so a plain
 * gcc build (make check, VARIANT=san too) replays the corpora. A crash or
 * sanitizer report ends the process non-zero; otherwise it prints how many
 * inputs ran and exits 0.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0, got;
    uint8_t *buf = malloc(cap);
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    int bad = !buf || ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "replay: %s: read error\n", path);
        free(buf);
        return -1;
    }
    /* an exact-size copy, so ASan catches reads past the end */
    uint8_t *exact = malloc(len ? len : 1);
    memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    long n = 0;
    int status = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
            status = 1;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            if (run_file(argv[i]) != 0)
                status = 1;
            else
                n++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        if (!d) {
            fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
            status = 1;
            continue;
        }
        char **names = NULL;
        size_t nn = 0, cap = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            if (nn == cap) {
                cap = cap ? cap * 2 : 64;
                names = realloc(names, cap * sizeof *names);
            }
            size_t l = strlen(argv[i]) + strlen(e->d_name) + 2;
            names[nn] = malloc(l);
            snprintf(names[nn++], l, "%s/%s", argv[i], e->d_name);
        }
        closedir(d);
        qsort(names, nn, sizeof *names, cmp);
        for (size_t j = 0; j < nn; j++) {
            if (stat(names[j], &st) == 0 && S_ISREG(st.st_mode)) {
                if (run_file(names[j]) != 0)
                    status = 1;
                else
                    n++;
            }
            free(names[j]);
        }
        free(names);
    }
    printf("replay: %ld inputs\n", n);
    return status;
}
