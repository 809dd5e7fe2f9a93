/*
 * bench_bigboard.c: huge boards (issue #8). Each row runs in a child
 * process, so its peak RSS is its own; the time is the median over the
 * repetitions of the I/O-free solve (solver set-up plus solve, the state
 * already in memory), and every answer is checked against the stencil.
 *
 *   classic plus over GF(2), all-on and random solvable, n = 1000..10000
 *   plus over GF(2) on 1000 x 4000; Moore 2000 x 2000 over GF(2);
 *   plus mod 3 on 2000 x 2000
 *
 * With LIGHTSOUT_H=/path/to/lightsout.h (njpipeorgan/LightsOut, never
 * committed; a path relative to the current directory is fine) and a C++
 * compiler, its solve<N>() for the all-on board is timed in the same run,
 * as a median too, and the ratios printed. Wall and CPU medians, and the
 * load average at start and end, tell a slow run from a busy machine.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "bench.h"
#include "bigboard/grid.h"

static const int plus[5][3] = {
    {0, 0, 1}, {1, 0, 1}, {-1, 0, 1}, {0, 1, 1}, {0, -1, 1}};
static const int moore[9][3] = {{-1, -1, 1}, {0, -1, 1}, {1, -1, 1},
                                {-1, 0, 1},  {0, 0, 1},  {1, 0, 1},
                                {-1, 1, 1},  {0, 1, 1},  {1, 1, 1}};

typedef struct row {
    const char *name;
    int w, h;
    unsigned k;
    const int (*off)[3];
    size_t noff;
    int random; /* 0: all-on, 1: A x* for a random x* */
    double bar; /* seconds, 0 if the issue names none */
} row;

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* s = A x* for a random x*: solvable by construction. */
static void random_solvable(const qn_grid_rule *r, qn_grid_state *s)
{
    qn_grid_state x, zero;
    uint64_t seed = 8;

    qn_grid_state_init(&x, r->w, r->h, r->k);
    qn_grid_state_init(&zero, r->w, r->h, r->k);
    if (r->k == 2) {
        for (int y = 0; y < r->h; y++) {
            uint64_t *w = qn_bitboard_row(&x.bits, y);
            for (size_t j = 0; j < x.bits.stride; j++)
                w[j] = splitmix(&seed);
            w[x.bits.stride - 1] &= qn_bitboard_tail_mask(&x.bits);
        }
        qn_bitboard_apply(&s->bits, &x.bits, &zero.bits,
                          (const int(*)[3])r->offsets, r->noffsets);
    } else {
        for (size_t i = 0; i < (size_t)r->w * r->h; i++)
            x.cells[i] = (uint8_t)(splitmix(&seed) % r->k);
        for (int y = 0; y < r->h; y++)
            for (int c = 0; c < r->w; c++) {
                unsigned v = 0;
                for (size_t o = 0; o < r->noffsets; o++) {
                    int sx = c - r->offsets[o][0], sy = y - r->offsets[o][1];
                    if (sx >= 0 && sx < r->w && sy >= 0 && sy < r->h)
                        v += (unsigned)r->offsets[o][2] *
                             x.cells[(size_t)sy * r->w + sx];
                }
                s->cells[(size_t)y * r->w + c] = (uint8_t)(v % r->k);
            }
    }
    qn_grid_state_release(&x);
    qn_grid_state_release(&zero);
}

/* The child: time reps solves, check the last, print one line; the wall
 * and CPU medians go to fd too. */
static int run_row(const row *rw, int reps, int fd)
{
    qn_grid_rule r = {(char *)"bench",    rw->w,   rw->h, rw->k,
                      (int(*)[3])rw->off, rw->noff};
    qn_grid_state s, x;
    qn_grid_answer a;
    double t[64], c[64];
    int ok = 1;

    qn_grid_state_init(&s, r.w, r.h, r.k);
    qn_grid_state_init(&x, r.w, r.h, r.k);
    if (rw->random)
        random_solvable(&r, &s);
    else
        qn_grid_state_fill(&s, 1);
    for (int i = 0; i < reps; i++) {
        qn_grid *g = NULL;
        double t0 = bench_now(), c0 = bench_cpu();
        if (qn_grid_new(&g, &r, NULL) != QN_OK ||
            qn_grid_min_presses(g, &x, &a, &s, NULL) != QN_OK) {
            fprintf(stderr, "%s: refused or unsolvable\n", rw->name);
            return 1;
        }
        t[i] = bench_now() - t0;
        c[i] = bench_cpu() - c0;
        if (i == reps - 1)
            printf("%-34s %-30s presses %-10llu %s ", rw->name,
                   qn_grid_method(g), (unsigned long long)a.presses,
                   a.exact ? "exact" : "not-proven");
        qn_grid_free(g);
    }
    ok = qn_grid_replays(&r, &x, &s);
    t[0] = bench_median(t, reps);
    t[1] = bench_median(c, reps);
    printf("median %.4f s (cpu %.4f s)", t[0], t[1]);
    if (write(fd, t, 2 * sizeof t[0]) != 2 * sizeof t[0])
        ok = 0;
    if (rw->bar > 0)
        printf(" (bar %.2f s)", rw->bar);
    printf(" replay %s", ok ? "ok" : "FAILED");
    fflush(stdout);
    qn_grid_state_release(&s);
    qn_grid_state_release(&x);
    return !ok;
}

/* Run one row in a child; med gets its median wall and CPU seconds. */
static void run_forked(const row *rw, int reps, double med[2])
{
    struct rusage ru;
    int status, fds[2];
    pid_t pid;

    fflush(stdout);
    if (pipe(fds) != 0)
        exit(1);
    pid = fork();
    if (pid == 0)
        _exit(run_row(rw, reps, fds[1]));
    close(fds[1]);
    if (read(fds[0], med, 2 * sizeof med[0]) != 2 * sizeof med[0])
        med[0] = med[1] = 0;
    close(fds[0]);
    wait4(pid, &status, 0, &ru);
    printf(" peak %.1f MB", ru.ru_maxrss / 1024.0);
    if (rw->bar > 0) /* 10^8 cells: also the 200 MB bar */
        printf(" %s",
               med[0] <= rw->bar && ((long long)rw->w * rw->h < 100000000LL ||
                                     ru.ru_maxrss <= 200 * 1024)
                   ? "PASS"
                   : "FAIL");
    printf("\n");
    if (!WIFEXITED(status) || WEXITSTATUS(status)) {
        fprintf(stderr, "bench_bigboard: %s failed\n", rw->name);
        exit(1);
    }
}

/*
 * The driver built in dir, per size: reps runs (fewer from 5000 on, where
 * one solve takes seconds), each in its own process; medians against
 * quench's.
 */
static void time_peer(const char *dir, const double ours[4][2], int reps)
{
    static const int sizes[] = {1000, 2000, 5000, 10000};
    char cmd[PATH_MAX + 32];

    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int n = sizes[i], nrep = n >= 5000 && reps > 3 ? 3 : reps, got = 0;
        double wall[64], cpu[64];

        for (int k = 0; k < nrep && k < 64; k++) {
            FILE *p;

            snprintf(cmd, sizeof cmd, "%s/peer %d", dir, n);
            p = popen(cmd, "r");
            if (p && fscanf(p, "%lf %lf", &wall[got], &cpu[got]) == 2)
                got++;
            if (p)
                pclose(p);
        }
        if (got == 0 || got < nrep) {
            printf("njpipeorgan/LightsOut %d: failed\n", n);
            continue;
        }
        printf("njpipeorgan/LightsOut all-on %dx%d (first row only): median "
               "%.4f s (cpu %.4f s, %d runs); quench (whole board) %.4f s "
               "(cpu %.4f s): %.0fx faster (cpu %.0fx)\n",
               n, n, bench_median(wall, got), bench_median(cpu, got), got,
               ours[i][0], ours[i][1], bench_median(wall, got) / ours[i][0],
               bench_median(cpu, got) / ours[i][1]);
    }
}

/*
 * njpipeorgan/LightsOut beside quench: a driver of ours around its header,
 * built in a fresh temporary directory and removed after. The header is
 * included by its absolute path: a relative LIGHTSOUT_H (the docs' own
 * build/ext/lightsout.h) would be looked up beside the driver instead.
 */
static void lightsout_peer(const double ours[4][2], int reps)
{
    const char *h = getenv("LIGHTSOUT_H");
    char hdr[PATH_MAX], dir[] = "/tmp/quench-peer-XXXXXX";
    char cmd[3 * PATH_MAX];
    FILE *f;

    if (!h) {
        printf("njpipeorgan/LightsOut: not timed (set LIGHTSOUT_H to its "
               "lightsout.h)\n");
        return;
    }
    if (!realpath(h, hdr)) {
        printf("njpipeorgan/LightsOut: not timed: LIGHTSOUT_H=%s: %s\n", h,
               strerror(errno));
        return;
    }
    if (!mkdtemp(dir)) {
        printf("njpipeorgan/LightsOut: not timed: %s: %s\n", dir,
               strerror(errno));
        return;
    }
    snprintf(cmd, sizeof cmd, "%s/peer.cpp", dir);
    f = fopen(cmd, "w");
    if (f) {
        /* prints wall and CPU seconds of one solve<N>() */
        fprintf(f,
                "#include \"%s\"\n#include <chrono>\n#include <cstdio>\n"
                "#include <cstdlib>\n#include <ctime>\n"
                "template <int N> static void t() {\n"
                "  std::clock_t c = std::clock();\n"
                "  auto a = std::chrono::steady_clock::now();\n"
                "  auto r = solve<N>(); (void)r;\n"
                "  auto b = std::chrono::steady_clock::now();\n"
                "  std::printf(\"%%.6f %%.6f\\n\",\n"
                "    std::chrono::duration<double>(b - a).count(),\n"
                "    double(std::clock() - c) / CLOCKS_PER_SEC); }\n"
                "int main(int c, char **v) { int n = atoi(v[1]);\n"
                "  if (n == 1000) t<1000>(); if (n == 2000) t<2000>();\n"
                "  if (n == 5000) t<5000>(); if (n == 10000) t<10000>(); }\n",
                hdr);
        fclose(f);
        snprintf(cmd, sizeof cmd,
                 "c++ -std=c++17 -O3 -march=native -o %s/peer %s/peer.cpp", dir,
                 dir);
        fflush(stdout);
        if (system(cmd) == 0)
            time_peer(dir, ours, reps);
        else
            printf("njpipeorgan/LightsOut: did not build (%s)\n", cmd);
    } else {
        printf("njpipeorgan/LightsOut: not timed: %s: %s\n", cmd,
               strerror(errno));
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("njpipeorgan/LightsOut: could not remove %s\n", dir);
}

int main(void)
{
    static const row rows[] = {
        {"plus GF(2) all-on 1000x1000", 1000, 1000, 2, plus, 5, 0, 0},
        {"plus GF(2) random 1000x1000", 1000, 1000, 2, plus, 5, 1, 0},
        {"plus GF(2) all-on 2000x2000", 2000, 2000, 2, plus, 5, 0, 0.02},
        {"plus GF(2) random 2000x2000", 2000, 2000, 2, plus, 5, 1, 0.02},
        {"plus GF(2) all-on 5000x5000", 5000, 5000, 2, plus, 5, 0, 0},
        {"plus GF(2) random 5000x5000", 5000, 5000, 2, plus, 5, 1, 0},
        {"plus GF(2) all-on 10000x10000", 10000, 10000, 2, plus, 5, 0, 1},
        {"plus GF(2) random 10000x10000", 10000, 10000, 2, plus, 5, 1, 1},
        {"plus GF(2) random 1000x4000", 1000, 4000, 2, plus, 5, 1, 0},
        {"Moore GF(2) random 2000x2000", 2000, 2000, 2, moore, 9, 1, 0},
        {"plus mod 3 random 2000x2000", 2000, 2000, 3, plus, 5, 1, 0},
    };
    int reps = bench_reps(7);
    double ours[4][2] = {{0}}; /* all-on 1000, 2000, 5000, 10000 */

    bench_load("start");
    printf("huge boards: median of %d I/O-free solves (set-up + solve), "
           "peak RSS of the whole child\n",
           reps);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double t[2];

        run_forked(&rows[i], strstr(rows[i].name, "Moore") ? 3 : reps, t);
        if (i < 8 && !rows[i].random)
            memcpy(ours[i / 2], t, sizeof t);
    }
    lightsout_peer(ours, reps);
    bench_load("end");
    return 0;
}
