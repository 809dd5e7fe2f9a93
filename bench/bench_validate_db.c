/*
 * bench_validate_db.c: `quench validate --db`, which looks each ok
 * submission up among the stored puzzles. #35 replaced the unique index
 * those lookups used with key runs, and the first build after it spent
 * 2.5x 4604f03's CPU here (three statements compiled a lookup); this
 * prints the figure so that it stays watched.
 *
 * Each build generates its own database of 100,000 classic 5x5 puzzles
 * (seed 3) and judges the same 300,000 text lines against it, every
 * second line a stored puzzle's state, the others random; --jsonl, the
 * default --jobs. With QUENCH_BASE (a build of 4604f03) the runs
 * alternate, the medians of QN_BENCH_REPS (default 5) CPU times are set
 * side by side, and each line's verdict and puzzle id must be the base's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#define MAX_REPS 31
#define STORED 100000
#define LINES 300000

static FILE *open_or_die(const char *path, const char *mode)
{
    FILE *f = fopen(path, mode);

    if (!f) {
        perror(path);
        exit(1);
    }
    return f;
}

/* The states of generate's JSON Lines output, as "ddddd/.../ddddd". */
static char (*read_states(const char *path, size_t *n))[30]
{
    static char line[4096];
    char(*st)[30] = calloc(STORED, sizeof(*st));
    FILE *f = open_or_die(path, "r");

    *n = 0;
    while (st && *n < STORED && fgets(line, sizeof(line), f)) {
        const char *p = strstr(line, "\"state\":\"");
        if (!p || strlen(p + 9) < 30 || p[9 + 29] != '"')
            continue;
        memcpy(st[*n], p + 9, 29);
        st[(*n)++][29] = '\0';
    }
    fclose(f);
    if (!st || *n == 0) {
        fprintf(stderr, "bench: no states in %s\n", path);
        exit(1);
    }
    return st;
}

static void make_input(const char *path, const char *gen)
{
    size_t n;
    char(*st)[30] = read_states(gen, &n);
    FILE *f = open_or_die(path, "w");
    uint64_t seed = 35;

    for (long i = 0; i < LINES; i++) {
        uint64_t v = bench_rnd(&seed);
        if (i % 2) {
            fprintf(f, "%s\n", st[v % n]);
            continue;
        }
        bench_put_5x5(f, v);
    }
    fclose(f);
    free(st);
}

/* One build: its database, its verdicts and the CPU times of its runs. */
typedef struct build {
    const char *label, *bin;
    char db[64], out[64];
    double cpu[MAX_REPS];
    int n;
} build;

static void setup(build *b, const char *dir, const char *name, const char *gen)
{
    const char *argv[] = {
        b->bin, "-q",     "generate", "rules/classic-5x5.yaml",
        "-n",   "100000", "--seed",   "3",
        "--db", b->db,    "-o",       gen,
        NULL};

    snprintf(b->db, sizeof(b->db), "%s/%s.db", dir, name);
    snprintf(b->out, sizeof(b->out), "%s/%s.jsonl", dir, name);
    if (!gen)
        argv[10] = NULL;
    bench_exec(argv, NULL);
}

static void judge(build *b, const char *input)
{
    const char *argv[] = {b->bin, "-q",   "validate", "rules/classic-5x5.yaml",
                          input,  "--db", b->db,      "--jsonl",
                          NULL};

    bench_exec_out(argv, b->out, NULL, &b->cpu[b->n++]);
}

/* The value of "key":"..." in a verdict line, or "" (at most 63 bytes). */
static void field(const char *line, const char *key, char out[64])
{
    const char *p = strstr(line, key);
    size_t n = 0;

    if (p)
        for (p += strlen(key); p[n] && p[n] != '"' && n < 63; n++)
            out[n] = p[n];
    out[n] = '\0';
}

/* The same verdict and puzzle id on every line. 4604f03's verdicts lack
 * fields added since (why, human_level), so whole lines cannot match. */
static int same_verdicts(const char *a, const char *b)
{
    static char x[8192], y[8192];
    char fx[64], fy[64];
    FILE *f = open_or_die(a, "r"), *g = open_or_die(b, "r");
    int same = 1;
    long n = 0;

    for (;;) {
        char *lx = fgets(x, sizeof(x), f), *ly = fgets(y, sizeof(y), g);
        if (!lx || !ly) {
            same &= !lx && !ly;
            break;
        }
        n++;
        for (int k = 0; k < 2; k++) {
            const char *key = k ? "\"puzzle_id\":\"" : "\"verdict\":\"";
            field(x, key, fx);
            field(y, key, fy);
            same &= strcmp(fx, fy) == 0 && fx[0];
        }
    }
    fclose(f);
    fclose(g);
    return same && n == LINES;
}

static void clean(const char *dir, build *b, int nb, const char *in,
                  const char *gen)
{
    for (int i = 0; i < nb; i++) {
        bench_remove_db(b[i].db);
        unlink(b[i].out);
    }
    unlink(in);
    unlink(gen);
    rmdir(dir);
}

int main(void)
{
    char dir[] = "/tmp/quench-bench-vdb-XXXXXX", in[64], gen[64];
    const char *base = getenv("QUENCH_BASE");
    build b[2] = {{"new", "build/quench", "", "", {0}, 0},
                  {"base", base, "", "", {0}, 0}};
    int nb = base ? 2 : 1, reps = bench_reps(5);

    if (reps > MAX_REPS)
        reps = MAX_REPS;
    if (!mkdtemp(dir)) {
        perror(dir);
        return 1;
    }
    snprintf(in, sizeof(in), "%s/in.txt", dir);
    snprintf(gen, sizeof(gen), "%s/gen.jsonl", dir);
    setup(&b[0], dir, "new", gen);
    if (base)
        setup(&b[1], dir, "base", NULL);
    make_input(in, gen);
    printf("validate --db: %d classic 5x5 text lines (every second one "
           "stored) against %d stored puzzles, --jsonl, %d runs each\n",
           LINES, STORED, reps);
    bench_load("start");
    for (int r = 0; r < reps; r++)
        for (int i = nb - 1; i >= 0; i--)
            judge(&b[i], in);
    bench_load("end");
    for (int i = nb - 1; i >= 0; i--)
        printf("  %-5s median %.3f s CPU (user+sys)\n", b[i].label,
               bench_median(b[i].cpu, b[i].n));
    if (base) {
        double ratio =
            bench_median(b[1].cpu, reps) / bench_median(b[0].cpu, reps);
        int same = same_verdicts(b[0].out, b[1].out);
        printf("validate --db CPU rate vs base: %.2fx (no bar: 4604f03 "
               "looked up by index; watched since #35), every verdict "
               "and puzzle id the base's: %s\n",
               ratio, same ? "PASS" : "FAIL");
    } else {
        printf("validate --db vs base: not measured (set QUENCH_BASE)\n");
    }
    clean(dir, b, nb, in, gen);
    return 0;
}
