/*
 * bench_validate.c: issue #4's figure: `quench validate` on 1,000,000
 * random classic 5x5 submissions (text lines in, JSON Lines out), at least
 * 500,000 submissions per second on one core, memory flat. Runs the real
 * binary (build/quench) on a generated file, as a user would.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench.h"

static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void make_input(const char *path, long n)
{
    FILE *f = fopen(path, "w");
    uint64_t seed = 2026;

    for (long i = 0; i < n; i++) {
        uint64_t v = rnd(&seed);
        for (int c = 0; c < 25; c++) {
            if (c && c % 5 == 0)
                fputc('/', f);
            fputc('0' + (int)(v >> c & 1), f);
        }
        fputc('\n', f);
    }
    fclose(f);
}

static double run(const char *input, long *rss_kb)
{
    const char *argv[] = {"build/quench", "-q", "validate",
                    "rules/classic-5x5.yaml", input, "--jsonl", NULL};
    return bench_exec(argv, rss_kb);
}

int main(void)
{
    static const long sizes[2] = {100000, 1000000};
    char path[] = "/tmp/quench-bench-validate-XXXXXX";
    int fd = mkstemp(path), reps = bench_reps(3);
    long rss[2] = {0, 0};
    double t[16], med = 0;

    close(fd);
    for (int s = 0; s < 2; s++) {
        make_input(path, sizes[s]);
        for (int r = 0; r < reps && r < 16; r++)
            t[r] = run(path, &rss[s]);
        med = bench_median(t, reps < 16 ? reps : 16);
        printf("validate classic 5x5, %ld random text submissions -> "
               "jsonl: median %.3f s, %.0f submissions/s, peak RSS %ld "
               "KiB%s\n",
               sizes[s], med, (double)sizes[s] / med, rss[s],
               s == 1 ? ((double)sizes[s] / med >= 500000
                             ? " (target >= 500000/s: PASS)"
                             : " (target >= 500000/s: FAIL)")
                      : "");
    }
    printf("validate memory: %ld KiB at 100k, %ld KiB at 1M submissions\n",
           rss[0], rss[1]);
    unlink(path);
    return 0;
}
