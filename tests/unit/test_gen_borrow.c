/*
 * test_gen_borrow.c: how long a generated puzzle's pointers live
 * (quench/generate.h, qn_gen_emit_fn): "p's pointers (text among them)
 * stay valid until the progress call that follows returns". The CLI
 * relies on it (it writes puzzles straight from the generator's block).
 *
 * Through the public API only, emit keeps every pointer it is given
 * (state, canon, plan, grade, text) beside a copy of what they pointed
 * at; the progress hook then re-reads each kept puzzle and compares it
 * with its copy, checks that the puzzles kept are exactly those emitted
 * since the previous progress call (the stats' emitted count moved by as
 * many) and lets them go. A generator that reused or cleared a block
 * before its progress call fails one check per puzzle of that block.
 * Runs at jobs 0, 1 and 2, with a formatter and without, and with emit
 * answering QN_GEN_ALREADY now and then (those pointers are kept too).
 *
 * The puzzles themselves are held to facts computed here, not by quench:
 * classic 4x4 Lights Out, a press toggling the cell and its orthogonal
 * neighbours, simulated by hand on 16-bit masks. Each puzzle's plan
 * pressed on its state turns every light off; its press count is the
 * fewest of all 2^16 press sets that do (an exhaustive table), its
 * number of optimal plans the number of them, its plan the
 * lexicographically smallest of them; lit is the number of lights on;
 * canon is one of the state's 8 images under the square's symmetries,
 * and no two puzzles of a run share a canonical form.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "quench.h"
#include "t.h"

#define SIDE 4
#define N (SIDE * SIDE)
#define NSTATES (1u << N)

static const char RULE[] = "quench: 1\n"
                           "name: classic-4x4\n"
                           "colours: 2\n"
                           "board: {grid: [4, 4], wrap: none}\n"
                           "press: {stencil: plus, self: true}\n";

/* The exhaustive table: fewest presses turning state s off, and how
 * many press sets of that size do. */
static uint8_t best[NSTATES];
static uint16_t nbest[NSTATES];
static uint16_t effect_of[N]; /* the lights a press of cell i toggles */
static uint16_t kernel[16];   /* the press sets that change nothing */
static int nkernel;

static void tables(void)
{
    for (int r = 0; r < SIDE; r++)
        for (int c = 0; c < SIDE; c++) {
            uint16_t e = (uint16_t)(1u << (r * SIDE + c));
            if (r > 0)
                e |= (uint16_t)(1u << ((r - 1) * SIDE + c));
            if (r < SIDE - 1)
                e |= (uint16_t)(1u << ((r + 1) * SIDE + c));
            if (c > 0)
                e |= (uint16_t)(1u << (r * SIDE + c - 1));
            if (c < SIDE - 1)
                e |= (uint16_t)(1u << (r * SIDE + c + 1));
            effect_of[r * SIDE + c] = e;
        }
    memset(best, 0xff, sizeof(best));
    for (uint32_t m = 0; m < NSTATES; m++) {
        uint16_t s = 0;
        int w = 0;
        for (int i = 0; i < N; i++)
            if (m >> i & 1)
                s ^= effect_of[i], w++;
        if (w < best[s])
            best[s] = (uint8_t)w, nbest[s] = 0;
        if (w == best[s])
            nbest[s]++;
        if (s == 0 && nkernel++ < 16)
            kernel[nkernel - 1] = (uint16_t)m;
    }
}

static uint16_t mask_of(const uint8_t *cells)
{
    uint16_t m = 0;

    for (int i = 0; i < N; i++)
        if (cells[i])
            m |= (uint16_t)(1u << i);
    return m;
}

/* Cell (r, c)'s image under symmetry g of the square (4 rotations, each
 * mirrored or not). */
static int image(int g, int r, int c)
{
    int t;

    for (int k = 0; k < (g & 3); k++)
        t = r, r = c, c = SIDE - 1 - t;
    if (g & 4)
        c = SIDE - 1 - c;
    return r * SIDE + c;
}

static int in_orbit(const uint8_t *state, const uint8_t *canon)
{
    for (int g = 0; g < 8; g++) {
        int same = 1;
        for (int r = 0; r < SIDE && same; r++)
            for (int c = 0; c < SIDE; c++)
                if (canon[image(g, r, c)] != state[r * SIDE + c]) {
                    same = 0;
                    break;
                }
        if (same)
            return 1;
    }
    return 0;
}

/* The lexicographically smallest plan (as N bytes, cell 0 first) among
 * the press sets of best[s] presses that turn s off: one of them, `one`
 * (a mask turning s off), plus each press set that changes nothing. */
static void smallest_plan(uint16_t s, uint16_t one, uint8_t *out)
{
    int have = 0;

    for (int j = 0; j < nkernel && j < 16; j++) {
        uint16_t m = one ^ kernel[j];
        uint8_t plan[N];
        int w = 0;
        for (int i = 0; i < N; i++)
            w += plan[i] = (uint8_t)(m >> i & 1);
        if (w != best[s])
            continue;
        if (!have || memcmp(plan, out, N) < 0)
            memcpy(out, plan, N), have = 1;
    }
    if (!have)
        memset(out, 0xff, N);
}

/* What the formatter writes: the index and the state. */
static size_t format_text(char *out, size_t n, uint64_t index,
                          const uint8_t *state)
{
    int len = snprintf(out, n, "%llu ", (unsigned long long)index);

    for (int i = 0; i < N && (size_t)len + 1 < n; i++)
        out[len++] = (char)('0' + state[i]);
    out[len++] = '\n';
    return (size_t)len;
}

static void format(void *ctx, const qn_gen_puzzle *p, qn_buf *out)
{
    char text[64];

    (void)ctx;
    qn_buf_add(out, text, format_text(text, sizeof(text), p->index, p->state));
}

/* A puzzle emit was given: its pointers, and copies of what they held. */
typedef struct kept {
    qn_gen_puzzle p; /* the pointers as given */
    uint8_t state[N], canon[N], plan[N];
    char grade[32];
    char text[64];
    size_t textlen;
    int emitted; /* emit said QN_GEN_EMITTED */
} kept;

typedef struct run {
    int jobs;
    int formatted;
    int already_every; /* answer QN_GEN_ALREADY to every n-th call (0: never) */
    uint64_t calls;    /* emit calls */
    kept *k;           /* kept since the last progress call */
    size_t nk, cap;
    uint64_t emitted_before; /* st->emitted at the last progress call */
    uint64_t progress_calls, blocks_with_puzzles, most_in_a_block;
    uint8_t seen[NSTATES]; /* canonical forms emitted */
    long fact_fail;        /* puzzles failing a fact (counted once each) */
} run;

static int emit(void *ctx, const qn_gen_puzzle *p)
{
    run *u = ctx;
    kept *k;
    uint16_t s = mask_of(p->state), x = s;
    uint8_t plan[N];
    char text[64];
    int ok = 1, lit = 0;

    if (u->nk == u->cap) {
        u->cap = u->cap ? 2 * u->cap : 16;
        u->k = realloc(u->k, u->cap * sizeof(*u->k));
        if (!u->k)
            abort();
    }
    k = &u->k[u->nk++];
    memset(k, 0, sizeof(*k));
    k->p = *p;
    memcpy(k->state, p->state, N);
    memcpy(k->canon, p->canon, N);
    memcpy(k->plan, p->plan, N);
    if (p->grade)
        snprintf(k->grade, sizeof(k->grade), "%s", p->grade);
    if (p->text && p->textlen <= sizeof(k->text))
        memcpy(k->text, p->text, p->textlen);
    k->textlen = p->textlen;
    k->emitted = !(u->already_every && ++u->calls % u->already_every == 0);

    /* the facts, from the hand simulation */
    for (int i = 0; i < N; i++) {
        if (p->state[i] > 1 || p->plan[i] > 1)
            ok = 0;
        if (p->plan[i])
            x ^= effect_of[i];
        lit += p->state[i] != 0;
    }
    if (!ok || x != 0) {
        T_FAILF("puzzle %llu: its plan does not turn it off",
                (unsigned long long)p->index);
        u->fact_fail++;
        return k->emitted ? QN_GEN_EMITTED : QN_GEN_ALREADY;
    }
    smallest_plan(s, mask_of(p->plan), plan);
    if (p->presses != best[s] || p->noptimal != nbest[s] || !p->exact ||
        memcmp(plan, p->plan, N) != 0 || p->lit != lit ||
        !in_orbit(p->state, p->canon)) {
        T_FAILF("puzzle %llu: presses %llu (table %u), optimal %llu (table "
                "%u), lit %d (%d), plan %s, canon %s",
                (unsigned long long)p->index, (unsigned long long)p->presses,
                best[s], (unsigned long long)p->noptimal, nbest[s], p->lit, lit,
                memcmp(plan, p->plan, N) ? "not the smallest" : "ok",
                in_orbit(p->state, p->canon) ? "ok" : "not an image");
        u->fact_fail++;
    } else if (k->emitted && u->seen[mask_of(p->canon)]++) {
        T_FAILF("puzzle %llu: a second puzzle of the same canonical form",
                (unsigned long long)p->index);
        u->fact_fail++;
    } else if (u->formatted && (p->textlen != format_text(text, sizeof(text),
                                                          p->index, p->state) ||
                                memcmp(p->text, text, p->textlen) != 0)) {
        T_FAILF("puzzle %llu: not the text the formatter wrote",
                (unsigned long long)p->index);
        u->fact_fail++;
    } else if (!u->formatted && p->text) {
        T_FAILF("puzzle %llu: a text without a formatter",
                (unsigned long long)p->index);
        u->fact_fail++;
    }
    return k->emitted ? QN_GEN_EMITTED : QN_GEN_ALREADY;
}

/* Every puzzle kept since the last progress call reads as it did. */
static void progress(void *ctx, const qn_gen_stats *st)
{
    run *u = ctx;
    uint64_t emitted = 0;

    u->progress_calls++;
    /* with workers, give one time to refill a block freed too early
     * (nothing here is timed: the wait only widens that window) */
    if (u->jobs > 0)
        nanosleep(&(struct timespec){0, 5 * 1000 * 1000}, NULL);
    for (size_t i = 0; i < u->nk; i++) {
        const kept *k = &u->k[i];
        const qn_gen_puzzle *p = &k->p;
        int same = memcmp(p->state, k->state, N) == 0 &&
                   memcmp(p->canon, k->canon, N) == 0 &&
                   memcmp(p->plan, k->plan, N) == 0 &&
                   (!p->grade || strcmp(p->grade, k->grade) == 0) &&
                   (!p->text || memcmp(p->text, k->text, k->textlen) == 0);
        if (same)
            t_pass++;
        else
            T_FAILF("puzzle %llu changed before the progress call after it",
                    (unsigned long long)p->index);
        emitted += (uint64_t)k->emitted;
        if (i > 0)
            T_CHECK(p->index > u->k[i - 1].p.index);
    }
    /* exactly the puzzles emitted since the last call */
    T_EQ(st->emitted - u->emitted_before, emitted);
    if (u->nk)
        u->blocks_with_puzzles++;
    if (u->nk > u->most_in_a_block)
        u->most_in_a_block = u->nk;
    u->emitted_before = st->emitted;
    u->nk = 0;
}

static void one_run(const qn_solver *solver, int jobs, int formatted,
                    int already_every, uint64_t lo, uint64_t hi, uint64_t count)
{
    run *u = calloc(1, sizeof(*u));
    qn_gen_opts o;
    qn_gen_stats st;
    qn_gen_hooks h = {NULL, emit, progress, NULL, NULL};
    qn_err err = QN_ERR_INIT;
    int rc;

    if (!u)
        abort();
    u->jobs = jobs;
    u->formatted = formatted;
    u->already_every = already_every;
    h.format = formatted ? format : NULL;
    h.ctx = u;
    qn_gen_opts_init(&o);
    qn_seed_parse(&o.seed, "b0220e", NULL);
    o.count = count;
    o.lo = lo;
    o.hi = hi;
    o.jobs = jobs;
    o.max_draws = 1000000;
    rc = qn_gen_run(solver, &o, &h, &st, &err);
    if (rc != QN_OK)
        T_FAILF("jobs %d: %s", jobs, err.msg);
    T_EQ(rc, QN_OK);
    T_EQ(st.emitted, count);
    T_EQ(u->nk, 0); /* a progress call followed the last puzzle */
    /* the run went through several blocks, more than one with puzzles */
    T_CHECK(u->progress_calls >= 5);
    T_CHECK(u->blocks_with_puzzles >= 3);
    T_CHECK(u->most_in_a_block >= 2);
    T_EQ(u->fact_fail, 0);
    printf("jobs %d%s%s, presses %llu..%llu: %llu puzzles, %llu progress "
           "calls, %llu with puzzles (at most %llu)\n",
           jobs, formatted ? ", formatted" : "",
           already_every ? ", some ALREADY" : "", (unsigned long long)lo,
           (unsigned long long)hi, (unsigned long long)st.emitted,
           (unsigned long long)u->progress_calls,
           (unsigned long long)u->blocks_with_puzzles,
           (unsigned long long)u->most_in_a_block);
    free(u->k);
    free(u);
}

int main(void)
{
    qn_rules *r = NULL;
    qn_solver *solver = NULL;
    qn_err err = QN_ERR_INIT;

    tables();
    /* the table's own facts: 2^12 solvable states (a kernel of 16 press
     * sets: nullity 4); the goal takes no press, in one way */
    {
        uint32_t solvable = 0;
        for (uint32_t s = 0; s < NSTATES; s++)
            solvable += best[s] != 0xff;
        T_EQ(solvable, 1u << 12);
        T_EQ(nbest[0], 1);
        T_EQ(nkernel, 16);
    }
    if (qn_rng_global_init(&err) != QN_OK ||
        qn_rules_load_buf(&r, RULE, strlen(RULE), "classic-4x4", &err) !=
            QN_OK ||
        qn_solver_new(&solver, r, &err) != QN_OK) {
        T_FAILF("setup: %s", err.msg);
        return t_done();
    }
    T_EQ(qn_rules_ncells(r), N);
    for (int jobs = 0; jobs <= 2; jobs++) {
        one_run(solver, jobs, 1, 0, 3, 6, 200);
        one_run(solver, jobs, 0, 5, 1, 8, 150);
    }
    qn_solver_free(solver);
    qn_rules_free(r);
    return t_done();
}
