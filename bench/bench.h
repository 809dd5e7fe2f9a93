/*
 * bench.h: timing helpers shared by the benchmark programs. Every benchmark
 * repeats a measurement and reports the median, as docs/PERFORMANCE.md asks.
 */
#ifndef QN_BENCH_H
#define QN_BENCH_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds of this process (all threads), to set beside wall time: on
 * a loaded machine wall time grows and CPU time does not. */
static inline double bench_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * Print the 1, 5 and 15 minute load averages with `when` ("start", "end"),
 * so a reader can tell a slow run from a busy machine.
 */
static inline void bench_load(const char *when)
{
    double l[3];

    if (getloadavg(l, 3) == 3)
        printf("load average at %s: %.2f %.2f %.2f (%ld cores)\n", when, l[0],
               l[1], l[2], sysconf(_SC_NPROCESSORS_ONLN));
    fflush(stdout);
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

/*
 * SplitMix64: the benchmarks' seeded inputs (not quench's generator). Not
 * xorshift: the low bits of an xorshift* output are GF(2)-linear in its
 * state, which makes "random" matrices rank-deficient by about 2 columns
 * per word and changes what is being measured.
 */
static inline uint64_t bench_rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A classic 5x5 state as a text line: cell c is bit c of v. */
static inline void bench_put_5x5(FILE *f, uint64_t v)
{
    for (int c = 0; c < 25; c++) {
        if (c && c % 5 == 0)
            fputc('/', f);
        fputc('0' + (int)(v >> c & 1), f);
    }
    fputc('\n', f);
}

/* Number of repetitions: QN_BENCH_REPS or the given default. */
static inline int bench_reps(int dflt)
{
    const char *s = getenv("QN_BENCH_REPS");
    int n = s ? atoi(s) : dflt;
    return n > 0 ? n : dflt;
}

/*
 * A random k = 2 system on n cells whose kernel has dimension d and dense
 * generators: each of the last d columns is the sum of a random half of
 * the others. Caller frees.
 */
static inline uint8_t *bench_random_kernel(int n, int d, uint64_t seed)
{
    uint8_t *a = calloc((size_t)n * n, 1);

    for (int r = 0; r < n; r++)
        for (int c = 0; c < n - d; c++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            a[(size_t)r * n + c] = (uint8_t)(seed >> 63);
        }
    for (int c = n - d; c < n; c++)
        for (int j = 0; j < n - d; j++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            if (seed >> 63)
                for (int r = 0; r < n; r++)
                    a[(size_t)r * n + c] ^= a[(size_t)r * n + j];
        }
    return a;
}

/*
 * Run argv (the real quench binary, as a user would) with stdout to the
 * file out (NULL: /dev/null) and stderr to /dev/null; return wall seconds, the
 * child's peak RSS in *rss_kb and its CPU seconds (user + system) in *cpu_s
 * (each if not NULL). Exits the benchmark if the command fails (status > 1).
 */
static inline double bench_exec_out(const char *const argv[], const char *out,
                                    long *rss_kb, double *cpu_s)
{
    struct rusage ru;
    int status;
    double t0 = bench_now();
    pid_t pid = fork();

    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        int fo = out ? open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644) : fd;
        dup2(fo, 1);
        dup2(fd, 2);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    wait4(pid, &status, 0, &ru);
    if (rss_kb)
        *rss_kb = ru.ru_maxrss;
    if (cpu_s)
        *cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
                 (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
    if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
        fprintf(stderr, "bench: %s failed (status %d)\n", argv[0], status);
        exit(1);
    }
    return bench_now() - t0;
}

static inline double bench_exec_cpu(const char *const argv[], long *rss_kb,
                                    double *cpu_s)
{
    return bench_exec_out(argv, NULL, rss_kb, cpu_s);
}

/* Remove a database and the files SQLite and quench keep beside it. */
static inline void bench_remove_db(const char *path)
{
    static const char *const ext[] = {"", "-wal", "-shm", "-lock"};
    char p[512];

    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof(p), "%s%s", path, ext[i]);
        unlink(p);
    }
}

static inline double bench_exec(const char *const argv[], long *rss_kb)
{
    return bench_exec_cpu(argv, rss_kb, NULL);
}

#endif
