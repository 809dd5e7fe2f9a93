/*
 * t.h: the unit-test harness. Each test program includes this once, calls
 * T_CHECK/T_EQ as it goes and returns t_done() from main, which prints
 * "N passed, N failed" and exits non-zero on any failure.
 */
#ifndef QN_T_H
#define QN_T_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static long t_pass, t_fail;

#define T_CHECK(cond)                                                          \
    do {                                                                       \
        if (cond) {                                                            \
            t_pass++;                                                          \
        } else {                                                               \
            t_fail++;                                                          \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__,   \
                    #cond);                                                    \
        }                                                                      \
    } while (0)

/* Integer equality with both values in the failure message. */
#define T_EQ(a, b)                                                             \
    do {                                                                       \
        long long t_a_ = (long long)(a), t_b_ = (long long)(b);                \
        if (t_a_ == t_b_) {                                                    \
            t_pass++;                                                          \
        } else {                                                               \
            t_fail++;                                                          \
            fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n",          \
                    __FILE__, __LINE__, #a, #b, t_a_, t_b_);                   \
        }                                                                      \
    } while (0)

/* Like T_CHECK but counts once per group; use in loops over many cases. */
#define T_FAILF(...)                                                           \
    do {                                                                       \
        t_fail++;                                                              \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                        \
        fprintf(stderr, __VA_ARGS__);                                          \
        fputc('\n', stderr);                                                   \
    } while (0)

static inline int t_done(void)
{
    printf("%ld passed, %ld failed\n", t_pass, t_fail);
    return t_fail ? 1 : 0;
}

/* Remove the directory tree a test made with mkdtemp; a failure counts. */
static inline void t_rmtree(const char *dir)
{
    char cmd[4200];

    if (snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir) >= (int)sizeof(cmd) ||
        system(cmd) != 0)
        T_FAILF("cannot remove %s", dir);
}

/*
 * Deterministic test RNG (splitmix64), so failures reproduce. Every output
 * bit is usable: xorshift-style generators have low bits that satisfy a
 * short linear recurrence, which makes "random" GF(2) matrices singular.
 */
static inline uint64_t t_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#endif
