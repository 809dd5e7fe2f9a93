/*
 * bench_generate.c: issue #5's figures, on the real binary with 2 threads:
 * generate + grade + dedup to JSON Lines, medians of several runs.
 *   1,000,000 classic 7x7 puzzles        >= 1,000,000 puzzles/s
 *   1,000,000 classic 9x9 (kernel 256)   >=   300,000 puzzles/s
 *   100,000 distinct classic 5x5         <  0.5 s
 *   100 distinct 5x5 needing 15 presses  <  1 s (7350 such states exist)
 *   100 distinct 9x9 needing >= 35       <  10 s (uniform sampling: about
 *                                           4 in 10^6 draws, measured)
 *   and the four-colour 10x10 rate.
 * With QUENCH_BASE (a build of 4604f03), issue #35's bar: the CPU time
 * (user + system, every thread) of 1,000,000 classic 7x7 at --jobs 1 and
 * 2 against the base's, runs alternating; >= 1.3x its CPU rate
 * (QN_BENCH_GEN_CPU_ONLY=1: that part alone).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static double median_of(const char *const argv[], int reps)
{
    double t[16];

    if (reps > 16)
        reps = 16;
    for (int r = 0; r < reps; r++)
        t[r] = bench_exec(argv, NULL);
    return bench_median(t, reps);
}

static void rate(const char *label, const char *rules, const char *count,
                 double bar)
{
    const char *argv[] = {"build/quench", "-q", "generate", rules, "-n", count,
                          "--seed",       "1",  "--jobs",   "2",   NULL};
    double n = atof(count), med = median_of(argv, bench_reps(3));

    printf("generate %-28s %8s puzzles, 2 threads: median %.3f s, "
           "%.0f puzzles/s",
           label, count, med, n / med);
    if (bar > 0)
        printf(" (target >= %.0f/s: %s)", bar,
               n / med >= bar ? "PASS" : "FAIL");
    putchar('\n');
}

static void timed(const char *label, const char *const argv[], double bar)
{
    double med = median_of(argv, bench_reps(5));

    printf("generate %-44s median %.3f s (target < %.1f s: %s)\n", label, med,
           bar, med < bar ? "PASS" : "FAIL");
}

/* Issue #35 s.3: CPU rate of generate against QUENCH_BASE. */
static void cpu_ratio(const char *base, const char *jobs)
{
    const char *nw[] = {
        "build/quench", "-q",      "generate", "rules/classic-7x7.yaml",
        "-n",           "1000000", "--seed",   "1",
        "--jobs",       jobs,      NULL};
    const char *old[] = {
        base,     "-q",      "generate", "rules/classic-7x7.yaml",
        "-n",     "1000000", "--seed",   "1",
        "--jobs", jobs,      NULL};
    double tn[16], to[16];
    int reps = bench_reps(5);

    if (reps > 16)
        reps = 16;
    bench_load("start");
    for (int r = 0; r < reps; r++) {
        bench_exec_cpu(old, NULL, &to[r]);
        bench_exec_cpu(nw, NULL, &tn[r]);
    }
    bench_load("end");
    double mn = bench_median(tn, reps), mo = bench_median(to, reps);
    printf("generate classic 7x7 1000000, --jobs %s, CPU (user+sys): this "
           "build %.3f s (%.2f us/puzzle), base %.3f s: %.2fx (issue #35 "
           "bar >= 1.3x: %s)\n",
           jobs, mn, mn, mo, mo / mn, mo / mn >= 1.3 ? "PASS" : "FAIL");
}

int main(void)
{
    const char *base = getenv("QUENCH_BASE");
    const char *distinct[] = {
        "build/quench", "-q",     "generate", "rules/classic-5x5.yaml",
        "-n",           "100000", "--seed",   "1",
        "--jobs",       "2",      NULL};
    const char *fifteen[] = {"build/quench",
                             "-q",
                             "generate",
                             "rules/classic-5x5.yaml",
                             "-n",
                             "100",
                             "--presses",
                             "15",
                             "--seed",
                             "1",
                             "--jobs",
                             "2",
                             NULL};
    const char *rare[] = {"build/quench",
                          "-q",
                          "generate",
                          "rules/classic-9x9.yaml",
                          "-n",
                          "100",
                          "--presses",
                          "35..",
                          "--seed",
                          "1",
                          "--jobs",
                          "2",
                          NULL};

    if (base) {
        cpu_ratio(base, "1");
        cpu_ratio(base, "2");
        if (getenv("QN_BENCH_GEN_CPU_ONLY"))
            return 0;
    } else {
        printf("generate CPU vs base: not measured (set QUENCH_BASE to a "
               "build of 4604f03, docs/PERFORMANCE.md)\n");
    }
    rate("classic 7x7", "rules/classic-7x7.yaml", "1000000", 1e6);
    rate("classic 9x9 (kernel 256)", "rules/classic-9x9.yaml", "1000000", 3e5);
    rate("four-colour 10x10", "rules/four-colour-10x10.yaml", "1000000", 0);
    timed("100000 distinct classic 5x5", distinct, 0.5);
    timed("100 distinct classic 5x5 with 15 presses", fifteen, 1.0);
    timed("100 distinct classic 9x9 with >= 35 presses", rare, 10.0);
    return 0;
}
