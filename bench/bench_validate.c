/*
 * bench_validate.c: issue #24's figure: `quench validate` on 1,000,000
 * random classic 5x5 submissions (text lines in, JSON Lines out) at
 * --jobs 2, against a build of the previous main in the same run
 * (QUENCH_BASE=path/to/its/quench; docs/PERFORMANCE.md says how to build
 * it): at least 2.5x its rate, peak RSS within 2x of its. Runs the real
 * binaries on a generated file, as a user would, alternating them so load
 * from other work falls on both; reports medians of QN_BENCH_REPS runs
 * (default 5), CPU time next to wall time, and the load average at the
 * start and the end. Issue #4's bar (>= 500,000/s on one core) and the
 * memory at 100k against 1M submissions are still printed, and issue
 * #35's: at least 1.3x the CPU rate of 4604f03 (the minimal repair of an
 * unsolvable line copied from a per-class table), at --jobs 2 and at
 * --jobs 1 (the base at its default, the number of cores).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#define MAX_REPS 31

static void make_input(const char *path, long n)
{
    FILE *f = fopen(path, "w");
    uint64_t seed = 2026;

    if (!f) {
        perror(path);
        exit(1);
    }
    for (long i = 0; i < n; i++) {
        uint64_t v = bench_rnd(&seed);
        bench_put_5x5(f, v);
    }
    fclose(f);
}

/* One binary's runs: medians of wall and CPU seconds, the largest RSS. */
typedef struct runs {
    const char *label, *bin, *jobs; /* jobs NULL: no --jobs option */
    double wall[MAX_REPS], cpu[MAX_REPS];
    int n;
    long rss_kb;
} runs;

static void run_once(runs *r, const char *input)
{
    const char *argv[] = {
        r->bin, "-q",      "validate", "rules/classic-5x5.yaml",
        input,  "--jsonl", "--jobs",   r->jobs,
        NULL};
    long rss;

    if (!r->jobs)
        argv[6] = NULL;
    r->wall[r->n] = bench_exec_cpu(argv, &rss, &r->cpu[r->n]);
    r->n++;
    if (rss > r->rss_kb)
        r->rss_kb = rss;
}

static void report(runs *r, long lines)
{
    double wall = bench_median(r->wall, r->n), cpu = bench_median(r->cpu, r->n);

    printf("  %-26s median %.3f s wall, %.3f s CPU (user+sys), "
           "%.0f lines/s, peak RSS %ld KiB\n",
           r->label, wall, cpu, (double)lines / wall, r->rss_kb);
}

int main(void)
{
    static const long big = 1000000, small = 100000;
    char path[] = "/tmp/quench-bench-validate-XXXXXX";
    const char *base = getenv("QUENCH_BASE");
    int fd = mkstemp(path), reps = bench_reps(5);
    runs nw = {"new, --jobs 2", "build/quench", "2", {0}, {0}, 0, 0};
    runs one = {"new, --jobs 1", "build/quench", "1", {0}, {0}, 0, 0};
    runs old = {"base", base, NULL, {0}, {0}, 0, 0};
    runs mem = {"new, --jobs 2, 100k", "build/quench", "2", {0}, {0}, 0, 0};

    if (reps > MAX_REPS)
        reps = MAX_REPS;
    close(fd);
    make_input(path, small);
    run_once(&mem, path);
    make_input(path, big);
    printf("validate classic 5x5, %ld random text lines -> jsonl, "
           "%d runs each\n",
           big, reps);
    bench_load("start");
    for (int i = 0; i < reps; i++) {
        if (base)
            run_once(&old, path);
        run_once(&nw, path);
        run_once(&one, path);
    }
    if (base)
        report(&old, big);
    report(&nw, big);
    report(&one, big);
    bench_load("end");
    if (base) {
        double ratio =
            bench_median(old.wall, old.n) / bench_median(nw.wall, nw.n);
        double rss = (double)nw.rss_kb / (double)old.rss_kb;
        /* #24's bars are against the main #24 was filed on (8e98519) */
        printf("validate --jobs 2 vs base: %.2fx the rate (#24's bar >= "
               "2.5x, set against 8e98519: %s), peak RSS %.2fx "
               "(bar <= 2x: %s)\n",
               ratio, ratio >= 2.5 ? "PASS" : "FAIL", rss,
               rss <= 2.0 ? "PASS" : "FAIL");
        /* issue #35 s.3 (QUENCH_BASE a build of 4604f03): CPU time, which
         * load from other work does not inflate as it does wall time */
        ratio = bench_median(old.cpu, old.n) / bench_median(nw.cpu, nw.n);
        printf("validate CPU rate vs base: %.2fx (issue #35 bar >= 1.3x: "
               "%s)\n",
               ratio, ratio >= 1.3 ? "PASS" : "FAIL");
        ratio = bench_median(old.cpu, old.n) / bench_median(one.cpu, one.n);
        printf("validate --jobs 1 CPU rate vs base: %.2fx (issue #35 bar "
               ">= 1.3x: %s)\n",
               ratio, ratio >= 1.3 ? "PASS" : "FAIL");
    } else {
        printf("validate --jobs 2 vs base: not measured (set QUENCH_BASE "
               "to a build of the previous main, docs/PERFORMANCE.md)\n");
    }
    printf("validate --jobs 1: %.0f lines/s (issue #4 bar >= 500000/s: "
           "%s)\n",
           (double)big / bench_median(one.wall, one.n),
           (double)big / bench_median(one.wall, one.n) >= 500000 ? "PASS"
                                                                 : "FAIL");
    printf("validate memory: %ld KiB at 100k, %ld KiB at 1M submissions "
           "(--jobs 2)\n",
           mem.rss_kb, nw.rss_kb);
    unlink(path);
    return 0;
}
