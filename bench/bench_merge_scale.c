/*
 * bench_merge_scale.c: issue #22's figures. One generate run of TOTAL
 * classic 7x7 puzzles (QN_BENCH_MERGE_TOTAL, default 32768) split into 8,
 * 32 and 128 shards, each into its own database, then merged with the
 * real binary as a user would: flat (`db merge OUT` every shard) and as a
 * two-level tree (groups of G, then the groups). With --pack (the shards
 * of one pack join in stream order, which rewrites the pack once per
 * input) and without. Prints medians of QN_BENCH_REPS runs (default 3):
 * per-shard generate time and peak RSS, merge time and its cost per
 * puzzle, the tree's critical path (its largest group, then the final
 * merge: the groups run in parallel), and bytes on disk per puzzle of
 * the shards and of the merged database. QN_BENCH_MERGE_SET=pack or
 * plain runs only that half. Run from the project's root.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"

#define MAXARGS 160

static char dir[] = "/tmp/bench-merge-XXXXXX";
static char total[24];

/* The path of shard i of n in the set (malloc'd). */
static char *shard_path(const char *set, int n, int i)
{
    char *p = malloc(128);

    snprintf(p, 128, "%s/%s%d_%d.db", dir, set, n, i);
    return p;
}

/* Bytes of a database: the file and a WAL it may have left. */
static double file_bytes(const char *path)
{
    char wal[160];
    struct stat st;
    double b = 0;

    if (stat(path, &st) == 0)
        b += (double)st.st_size;
    snprintf(wal, sizeof(wal), "%s-wal", path);
    if (stat(wal, &st) == 0)
        b += (double)st.st_size;
    return b;
}

/* Shard i of n: seconds; its peak RSS in *rss_kb. */
static double gen_shard(const char *set, int n, int i, const char *path,
                        long *rss_kb)
{
    char spec[32];
    const char *argv[24];
    int a = 0;

    snprintf(spec, sizeof(spec), "%d/%d", i, n);
    argv[a++] = "build/quench";
    argv[a++] = "-q";
    argv[a++] = "generate";
    argv[a++] = "rules/classic-7x7.yaml";
    argv[a++] = "-n";
    argv[a++] = total;
    argv[a++] = "--seed";
    argv[a++] = "7";
    argv[a++] = "--jobs";
    argv[a++] = "1"; /* one core per node, as the Slurm script asks */
    argv[a++] = "--shard";
    argv[a++] = spec;
    argv[a++] = "--db";
    argv[a++] = path;
    if (!strcmp(set, "pack")) {
        argv[a++] = "--pack";
        argv[a++] = "camp";
    }
    argv[a] = NULL;
    return bench_exec(argv, rss_kb);
}

/* db merge OUT IN...: wall seconds, CPU seconds added to *cpu. OUT
 * starts fresh. */
static double merge(const char *out, const char *const *in, int nin,
                    double *cpu)
{
    double c = 0, t;
    const char *argv[MAXARGS];
    int a = 0;

    bench_remove_db(out);
    argv[a++] = "build/quench";
    argv[a++] = "db";
    argv[a++] = "merge";
    argv[a++] = out;
    for (int i = 0; i < nin && a < MAXARGS - 1; i++)
        argv[a++] = in[i];
    argv[a] = NULL;
    t = bench_exec_cpu(argv, NULL, &c);
    *cpu += c;
    return t;
}

typedef struct row {
    double gen, shard_bytes, flat, flat_cpu, tree_seq, tree_crit, tree_cpu,
        merged_bytes;
    long rss;
} row;

/* The two-level tree, groups of g: the sum of its merges and its
 * critical path (the largest group merge, then the final one). */
static void tree(const char *set, int n, int g, const char *const *in,
                 double *seq, double *crit, double *cpu)
{
    const char *groups[MAXARGS] = {NULL};
    char gpath[MAXARGS][128], out[128];
    int ng = 0;
    double worst = 0, t;

    *seq = *cpu = 0;
    for (int first = 0; first < n; first += g, ng++) {
        int m = n - first < g ? n - first : g;
        snprintf(gpath[ng], sizeof(gpath[ng]), "%s/%s%d-g%d.db", dir, set, n,
                 ng);
        groups[ng] = gpath[ng];
        t = merge(groups[ng], in + first, m, cpu);
        *seq += t;
        worst = t > worst ? t : worst;
    }
    snprintf(out, sizeof(out), "%s/%s%d-tree.db", dir, set, n);
    t = merge(out, groups, ng, cpu);
    *seq += t;
    *crit = worst + t;
    for (int i = 0; i < ng; i++)
        bench_remove_db(groups[i]);
}

static void measure(const char *set, int n, int g, int reps, row *r)
{
    char *in[MAXARGS];
    double *gen = calloc((size_t)n, sizeof(double));
    double *flat = calloc((size_t)reps, sizeof(double));
    double *seq = calloc((size_t)reps, sizeof(double));
    double *crit = calloc((size_t)reps, sizeof(double));
    double *fcpu = calloc((size_t)reps, sizeof(double));
    double *tcpu = calloc((size_t)reps, sizeof(double));
    char out[128];
    long rss;

    r->rss = 0;
    r->shard_bytes = 0;
    for (int i = 0; i < n; i++) {
        in[i] = shard_path(set, n, i);
        gen[i] = gen_shard(set, n, i, in[i], &rss);
        r->rss = rss > r->rss ? rss : r->rss;
        r->shard_bytes += file_bytes(in[i]);
    }
    r->gen = bench_median(gen, n);
    snprintf(out, sizeof(out), "%s/%s%d-flat.db", dir, set, n);
    for (int k = 0; k < reps; k++) {
        fcpu[k] = 0;
        flat[k] = merge(out, (const char *const *)in, n, &fcpu[k]);
        tree(set, n, g, (const char *const *)in, &seq[k], &crit[k], &tcpu[k]);
    }
    r->merged_bytes = file_bytes(out);
    r->flat = bench_median(flat, reps);
    r->tree_seq = bench_median(seq, reps);
    r->tree_crit = bench_median(crit, reps);
    r->flat_cpu = bench_median(fcpu, reps);
    r->tree_cpu = bench_median(tcpu, reps);
    for (int i = 0; i < n; i++) {
        bench_remove_db(in[i]);
        free(in[i]);
    }
    bench_remove_db(out);
    snprintf(out, sizeof(out), "%s/%s%d-tree.db", dir, set, n);
    bench_remove_db(out);
    free(gen);
    free(flat);
    free(seq);
    free(crit);
    free(fcpu);
    free(tcpu);
}

int main(void)
{
    static const int shards[] = {8, 32, 128}, groups[] = {4, 8, 16};
    static const char *const sets[] = {"pack", "plain"};
    const char *env = getenv("QN_BENCH_MERGE_TOTAL");
    const char *only = getenv("QN_BENCH_MERGE_SET");
    long t = env ? atol(env) : 32768;
    int reps = bench_reps(3);

    if (t < 128 || !mkdtemp(dir)) {
        fprintf(stderr, "bench_merge_scale: bad total or no temp dir\n");
        return 1;
    }
    snprintf(total, sizeof(total), "%ld", t);
    printf("merge scale: %ld classic 7x7 puzzles, one run (seed 7) in N "
           "shards; medians of %d\n",
           t, reps);
    printf("%-5s %4s %3s %9s %6s %7s %8s %8s %7s %8s %8s %8s %8s\n", "set", "N",
           "G", "gen/shard", "RSS MB", "shard B", "flat s", "flat us", "cpu us",
           "tree s", "crit s", "tree cpu", "merged B");
    for (size_t s = 0; s < 2; s++)
        for (size_t i = 0; i < 3 && (!only || !strcmp(only, sets[s])); i++) {
            row r;
            measure(sets[s], shards[i], groups[i], reps, &r);
            printf("%-5s %4d %3d %9.3f %6.1f %7.0f %8.2f %8.1f %7.1f %8.2f "
                   "%8.2f %8.2f %8.0f\n",
                   sets[s], shards[i], groups[i], r.gen, r.rss / 1024.0,
                   r.shard_bytes / (double)t, r.flat, r.flat / t * 1e6,
                   r.flat_cpu / t * 1e6, r.tree_seq, r.tree_crit, r.tree_cpu,
                   r.merged_bytes / (double)t);
            fflush(stdout);
        }
    printf("(shard B, merged B: bytes on disk per puzzle; flat us, cpu us: "
           "flat merge per puzzle, wall and CPU; tree s, tree cpu: all "
           "merges of the two-level tree one after another, wall and CPU; "
           "crit s: its largest group then the final merge)\n");
    rmdir(dir);
    return 0;
}
