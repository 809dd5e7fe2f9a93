/*
 * bench.h: timing helpers shared by the benchmark programs. Every benchmark
 * repeats a measurement and reports the median, as docs/PERFORMANCE.md asks.
 */
#ifndef QN_BENCH_H
#define QN_BENCH_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n timings (sorts them in place). */
static inline double bench_median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof(*t), bench_cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* Number of repetitions: QN_BENCH_REPS or the given default. */
static inline int bench_reps(int dflt)
{
    const char *s = getenv("QN_BENCH_REPS");
    int n = s ? atoi(s) : dflt;
    return n > 0 ? n : dflt;
}

#endif
