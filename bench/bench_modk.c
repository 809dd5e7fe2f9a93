/*
 * bench_modk.c: mod-k grading without waiting (issue #35, section 2).
 * Times, in CPU seconds (user + system of the child), the three cases of
 * the issue on the new build/quench and on QUENCH_BASE (a build of
 * 4604f03, docs/PERFORMANCE.md): `generate -n 3` and `rules show` of a
 * 29x29 three-colour plus grid (a kernel of 3^9), and `pack build --plan`
 * of a one-section recipe on a 22x22 three-colour grid. The bar is 10x
 * the base's CPU time for each. Then the rate of `generate -n 3000
 * --jobs 1` on a 14x14 three-colour plus grid (a kernel of 3^7, every
 * grade a walk of its coset), reported as puzzles per CPU second. QN_BENCH_REPS
 * runs each (default 1: the base takes over a minute a case).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define MAX_REPS 9

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    if (!f || fputs(text, f) == EOF || fclose(f)) {
        fprintf(stderr, "bench: cannot write %s\n", path);
        exit(1);
    }
}

static double cpu_of(const char *bin, const char *const *args, int reps)
{
    double t[MAX_REPS];
    const char *argv[16];
    int n = 0;

    argv[n++] = bin;
    for (int i = 0; args[i]; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    for (int r = 0; r < reps; r++)
        bench_exec_cpu(argv, NULL, &t[r]);
    return bench_median(t, reps);
}

int main(void)
{
    char dir[] = "/tmp/quench-bench-modk-XXXXXX", r29[128], r22[128], rec[128],
         r14[128];
    const char *base = getenv("QUENCH_BASE");
    int reps = bench_reps(1);

    if (reps > MAX_REPS)
        reps = MAX_REPS;
    if (!mkdtemp(dir))
        return 1;
    snprintf(r29, sizeof r29, "%s/tri-29.yaml", dir);
    snprintf(r22, sizeof r22, "%s/tri-22.yaml", dir);
    snprintf(rec, sizeof rec, "%s/plan.yaml", dir);
    snprintf(r14, sizeof r14, "%s/tri-14.yaml", dir);
    put(r29, "quench: 1\nname: tri-29\ncolours: 3\n"
             "board: {grid: [29, 29]}\npress: {stencil: plus}\n");
    put(r22, "quench: 1\nname: tri-22\ncolours: 3\n"
             "board: {grid: [22, 22]}\npress: {stencil: plus}\n");
    put(r14, "quench: 1\nname: tri-14\ncolours: 3\n"
             "board: {grid: [14, 14]}\npress: {stencil: plus}\n");
    put(rec, "pack: tri22\nseed: 2026\nsections:\n"
             "  - name: one\n    rules: tri-22.yaml\n    count: 10\n");
    {
        const char *gen[] = {"generate", r29, "-n", "3", "--seed", "1", NULL};
        const char *show[] = {"rules", "show", r29, NULL};
        const char *plan[] = {"pack", "build", rec, "--plan", NULL};
        const char *g14[] = {"generate", r14, "-n", "3000",      "--seed", "1",
                             "--jobs",   "1", "-o", "/dev/null", NULL};
        const struct {
            const char *label;
            const char *const *args;
        } cases[] = {{"generate -n 3, 29x29 k=3", gen},
                     {"rules show, 29x29 k=3", show},
                     {"pack build --plan, 22x22 k=3", plan}};

        printf("mod-k grading (issue #35 s.2), CPU s (user+sys), median "
               "of %d\n",
               reps);
        bench_load("start");
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            double nw = cpu_of("build/quench", cases[i].args, reps);
            if (base) {
                double old = cpu_of(base, cases[i].args, reps);
                printf("  %-30s new %8.2f s  base %8.2f s  %6.1fx "
                       "(bar >= 10x: %s)\n",
                       cases[i].label, nw, old, old / nw,
                       old / nw >= 10 ? "PASS" : "FAIL");
            } else {
                printf("  %-30s new %8.2f s  (set QUENCH_BASE to a build "
                       "of 4604f03 for the 10x ratio)\n",
                       cases[i].label, nw);
            }
            fflush(stdout);
        }
        {
            double nw = cpu_of("build/quench", g14, reps);
            printf("  %-30s new %8.0f puzzles/CPU s",
                   "generate -n 3000, 14x14 k=3", 3000 / nw);
            if (base) {
                double old = cpu_of(base, g14, reps);
                printf("  base %8.0f  %6.1fx", 3000 / old, old / nw);
            }
            printf("  (CPU %.2f s)\n", nw);
        }
        bench_load("end");
    }
    remove(r29);
    remove(r22);
    remove(rec);
    remove(r14);
    rmdir(dir);
    return 0;
}
