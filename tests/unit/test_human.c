/*
 * test_human.c: the technique ladder (human.h) against a slow reference
 * that applies the definitions of docs/GENERATE.md literally: every press
 * vector of a small board is tried (the optimal plans of each state and
 * whether one has disjoint footprints), each side's chase is played cell
 * by cell (a cell off its goal is fixed by the one next-row cell that
 * changes it by a unit and disturbs no cell walked before it), and the
 * table rung tries every first-row pattern between two chases. The level
 * of every solvable state and the shares are compared; plus facts known
 * without quench: every solvable 4x4 board falls to one chase from the top
 * (the issue), a torus and a graph have no chase.
 */
#include "solve/human.h"
#include "solve/human_score.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"
#include "solve/solver.h"
#include "t.h"
#include "trules.h"

#define MAXN 20

typedef struct ref {
    const qn_rules *r;
    int n;
    unsigned k;
    const uint8_t *a, *goal;
    int nsides;
    int ok[6];         /* side has a chase order */
    int walk[6][MAXN]; /* cells in walk order */
    int row[6][MAXN];  /* row number of walk[i] */
    int nrows[6];
} ref;

static int unit(unsigned v, unsigned k)
{
    for (unsigned t = 1; t < k; t++)
        if (v * t % k == 1)
            return 1;
    return 0;
}

/* The side's coordinates, written out from the definitions. */
static void coords(const qn_layout *l, int side, int cell, int *p, int *s)
{
    int row, col, q, r, sg = side & 1 ? -1 : 1;
    qn_layout_rc(l, cell, &row, &col);
    if (l->kind == QN_LAYOUT_GRID) {
        if (side < 2)
            *p = sg * row, *s = col;
        else
            *p = sg * col, *s = row;
        return;
    }
    if (l->kind == QN_LAYOUT_HEXAGON)
        q = col - (l->side - 1), r = row - (l->side - 1);
    else
        q = col - (row - (row & 1)) / 2, r = row;
    if (side < 2)
        *p = sg * r, *s = q;
    else if (side < 4)
        *p = sg * q, *s = r;
    else
        *p = sg * (q + r) * -1, *s = r;
}

/* Is cell j a candidate for the walk's cell at index i? */
static int candidate(const ref *f, int sd, int i, int j)
{
    int c = f->walk[sd][i];
    if (!unit(f->a[c * f->n + j], f->k))
        return 0;
    for (int e = 0; e < i; e++)
        if (f->a[f->walk[sd][e] * f->n + j])
            return 0;
    return 1;
}

static int the_pivot(const ref *f, int sd, int i)
{
    int found = -1, count = 0;
    for (int t = 0; t < f->n; t++)
        if (f->row[sd][t] == f->row[sd][i] + 1 &&
            candidate(f, sd, i, f->walk[sd][t]))
            found = f->walk[sd][t], count++;
    return count == 1 ? found : -1;
}

static void ref_sides(ref *f)
{
    const qn_layout *l = qn_rules_layout(f->r);
    f->nsides = l->kind == QN_LAYOUT_GRID    ? 4
                : l->kind == QN_LAYOUT_GRAPH ? 0
                                             : 6;
    for (int sd = 0; sd < f->nsides; sd++) {
        int p[MAXN], s[MAXN], used[MAXN] = {0};
        for (int i = 0; i < f->n; i++)
            coords(l, sd, i, &p[i], &s[i]);
        /* selection sort by (p, s) */
        for (int i = 0; i < f->n; i++) {
            int b = -1;
            for (int c = 0; c < f->n; c++)
                if (!used[c] &&
                    (b < 0 || p[c] < p[b] || (p[c] == p[b] && s[c] < s[b])))
                    b = c;
            used[b] = 1;
            f->walk[sd][i] = b;
            f->row[sd][i] =
                i == 0 ? 0
                       : f->row[sd][i - 1] + (p[b] != p[f->walk[sd][i - 1]]);
        }
        f->nrows[sd] = f->row[sd][f->n - 1] + 1;
        int ok = f->nrows[sd] >= 2;
        /* each row left to right, else right to left */
        for (int lo = 0; ok && f->row[sd][lo] < f->nrows[sd] - 1;) {
            int hi = lo;
            while (f->row[sd][hi] == f->row[sd][lo])
                hi++;
            for (int rev = 0; rev < 2; rev++) {
                if (rev) /* reverse the row's cells */
                    for (int a = lo, b = hi - 1; a < b; a++, b--) {
                        int t = f->walk[sd][a];
                        f->walk[sd][a] = f->walk[sd][b];
                        f->walk[sd][b] = t;
                    }
                ok = 1;
                for (int i = lo; ok && i < hi; i++)
                    ok = the_pivot(f, sd, i) >= 0;
                if (ok)
                    break;
            }
            lo = hi;
        }
        f->ok[sd] = ok;
    }
}

static void press(const ref *f, uint8_t *s, int j, unsigned times)
{
    for (int i = 0; i < f->n; i++)
        s[i] = (uint8_t)((s[i] + times * f->a[i * f->n + j]) % f->k);
}

static unsigned chase_count; /* presses the chases made */

/* Play the chase on s, literally; 1 when s ends at the goal. */
static int chase(const ref *f, int sd, uint8_t *s)
{
    for (int i = 0; i < f->n; i++) {
        int c = f->walk[sd][i];
        if (f->row[sd][i] == f->nrows[sd] - 1 || s[c] == f->goal[c])
            continue;
        int j = the_pivot(f, sd, i);
        unsigned t = 1;
        while ((s[c] + t * f->a[c * f->n + j]) % f->k != f->goal[c])
            t++;
        press(f, s, j, t);
        chase_count += t;
    }
    return !memcmp(s, f->goal, (size_t)f->n);
}

static size_t index_of(const ref *f, const uint8_t *s)
{
    size_t x = 0;
    for (int i = f->n; i-- > 0;)
        x = x * f->k + s[i];
    return x;
}

static void unindex(const ref *f, size_t x, uint8_t *s)
{
    for (int i = 0; i < f->n; i++, x /= f->k)
        s[i] = (uint8_t)(x % f->k);
}

static int footprints_disjoint(const ref *f, const uint8_t *x)
{
    for (int i = 0; i < f->n; i++) {
        int hits = 0;
        for (int j = 0; j < f->n; j++)
            hits += x[j] && f->a[i * f->n + j];
        if (hits > 1)
            return 0;
    }
    return 1;
}

/* First-row pattern number m of side sd pressed on s. */
static void first_row(const ref *f, int sd, uint8_t *s, size_t m)
{
    for (int i = 0; i < f->n && f->row[sd][i] == 0; i++, m /= f->k)
        press(f, s, f->walk[sd][i], (unsigned)(m % f->k));
}

static size_t first_patterns(const ref *f, int sd)
{
    size_t m = 1;
    for (int i = 0; i < f->n && f->row[sd][i] == 0; i++)
        m *= f->k;
    return m;
}

static int ref_lit(const ref *f, const uint8_t *s)
{
    int lit = 0;
    for (int i = 0; i < f->n; i++)
        lit += s[i] != f->goal[i];
    return lit;
}

/* Plan number m's components (presses joined when some cell is changed
 * by both, transitively: a flood fill over the presses), its bounding
 * box's rows + columns and its cells pressed more than once, against
 * the grader's features. */
static int ref_shape(const ref *f, size_t m, const double *feat)
{
    const qn_layout *l = qn_rules_layout(f->r);
    uint8_t x[MAXN];
    int group[MAXN], comps = 0, multi = 0;
    int rlo = 1 << 20, rhi = -1, clo = 1 << 20, chi = -1;

    unindex(f, m, x);
    for (int j = 0; j < f->n; j++)
        group[j] = -1;
    for (int j = 0; j < f->n; j++) {
        int row, col;
        if (!x[j])
            continue;
        multi += x[j] > 1;
        qn_layout_rc(l, j, &row, &col);
        rlo = row < rlo ? row : rlo, rhi = row > rhi ? row : rhi;
        clo = col < clo ? col : clo, chi = col > chi ? col : chi;
        if (group[j] >= 0)
            continue;
        group[j] = comps;
        for (int grew = 1; grew;) {
            grew = 0;
            for (int a = 0; a < f->n; a++)
                for (int b = 0; b < f->n; b++) {
                    if (!x[a] || !x[b] || group[a] != comps || group[b] >= 0)
                        continue;
                    for (int c = 0; c < f->n; c++)
                        if (f->a[c * f->n + a] && f->a[c * f->n + b]) {
                            group[b] = comps, grew = 1;
                            break;
                        }
                }
        }
        comps++;
    }
    int spread = rhi < 0 ? 0 : rhi - rlo + 1 + chi - clo + 1;
    return feat[QN_HF_COMPONENTS] == comps && feat[QN_HF_SPREAD] == spread &&
           feat[QN_HF_MULTI] == multi;
}

static void compare(const char *name, const char *text, int expect_sides)
{
    qn_rules *r =
        text[0] == '/' || text[0] == 'r' ? load(text) : load_text(text);
    qn_solver *solver = NULL;
    qn_human *h = NULL;
    qn_err e = QN_ERR_INIT;
    ref f = {0};

    if (!r)
        return;
    T_CHECK(qn_solver_new(&solver, r, &e) == QN_OK);
    T_CHECK(qn_human_new(&h, solver, &e) == QN_OK);
    f.r = r, f.n = qn_rules_ncells(r), f.k = qn_rules_colours(r);
    f.a = qn_rules_matrix(r), f.goal = qn_rules_goal(r);
    ref_sides(&f);
    int nchase = 0;
    for (int sd = 0; sd < f.nsides; sd++) {
        nchase += f.ok[sd];
        if (qn_human_side_chases(h, (size_t)sd) != f.ok[sd])
            T_FAILF("%s: side %d chases: quench %d, reference %d", name, sd,
                    qn_human_side_chases(h, (size_t)sd), f.ok[sd]);
    }
    T_EQ((long)qn_human_nsides(h), (long)f.nsides);
    if (expect_sides >= 0)
        T_EQ(nchase, expect_sides);

    size_t total = 1, npress = 1;
    for (int i = 0; i < f.n; i++)
        total *= f.k;
    npress = total;
    uint16_t *best = malloc(total * sizeof(*best));
    uint8_t *spot = calloc(total, 1);
    uint32_t *nopt = calloc(total, sizeof(*nopt));
    size_t *plan = calloc(total, sizeof(*plan));
    for (size_t i = 0; i < total; i++)
        best[i] = UINT16_MAX;
    uint8_t x[MAXN], s[MAXN], t[MAXN];
    for (size_t m = 0; m < npress; m++) {
        unsigned cost = 0;
        unindex(&f, m, x);
        memcpy(s, f.goal, (size_t)f.n);
        for (int j = 0; j < f.n; j++) {
            cost += x[j];
            press(&f, s, j, (f.k - x[j]) % f.k); /* s = goal - A x */
        }
        size_t si = index_of(&f, s);
        int d = footprints_disjoint(&f, x);
        if (cost < best[si])
            best[si] = (uint16_t)cost, spot[si] = (uint8_t)d, nopt[si] = 1,
            plan[si] = m;
        else if (cost == best[si])
            spot[si] |= (uint8_t)d, nopt[si]++;
    }
    qn_human_grader *hg = NULL;
    T_CHECK(qn_human_grader_new(&hg, solver, &e) == QN_OK);
    uint64_t gmism = 0;
    uint64_t solvable = 0, top = 0, any = 0, mism = 0, counts[4] = {0};
    for (size_t si = 0; si < total; si++) {
        int lvl = -1, side = -1, got = -1, clear_top = 0, clear_any = 0;
        if (best[si] == UINT16_MAX) {
            if (si % 7 == 0) {
                unindex(&f, si, s);
                T_CHECK(qn_human_level(h, s, &got, NULL, &e) == QN_EUNSOLVABLE);
            }
            continue;
        }
        solvable++;
        for (int sd = 0; sd < f.nsides; sd++) {
            if (!f.ok[sd])
                continue;
            unindex(&f, si, s);
            int c = chase(&f, sd, s);
            clear_any |= c;
            if (sd == 0)
                clear_top = c;
        }
        top += clear_top, any += clear_any;
        unsigned chased = 0; /* presses of the first side's clearing chase */
        for (int sd = 0; sd < f.nsides && clear_any && !spot[si]; sd++) {
            if (!f.ok[sd])
                continue;
            unindex(&f, si, s);
            chase_count = 0;
            if (chase(&f, sd, s)) {
                chased = chase_count;
                break;
            }
        }
        if (spot[si])
            lvl = 0;
        else if (clear_any)
            lvl = 1;
        else {
            lvl = 3;
            for (int sd = 0; sd < f.nsides && lvl == 3; sd++) {
                if (!f.ok[sd])
                    continue;
                for (size_t pm = 0; pm < first_patterns(&f, sd); pm++) {
                    unindex(&f, si, s);
                    chase(&f, sd, s);
                    first_row(&f, sd, s, pm);
                    if (chase(&f, sd, s)) {
                        lvl = 2;
                        break;
                    }
                }
            }
        }
        counts[lvl]++;
        unindex(&f, si, s);
        if (qn_human_level(h, s, &got, &side, &e) != QN_OK || got != lvl) {
            if (mism++ < 3)
                T_FAILF("%s: state %zu: quench level %d, reference %d (%s)",
                        name, si, got, lvl, e.msg);
        }
        /* the grader (records' levels and features) against the same */
        qn_human_grade gr;
        unindex(&f, si, s);
        if (qn_human_grade_state(hg, s, &gr, &e) != QN_OK || gr.level != lvl ||
            gr.f[QN_HF_PRESSES] != best[si] || gr.f[QN_HF_LEVEL] != lvl ||
            gr.f[QN_HF_LIT] != ref_lit(&f, s) ||
            (si && gr.f[QN_HF_OPTIMAL] != log2((double)nopt[si])) ||
            (lvl == 1 && gr.f[QN_HF_OVERSHOOT] != chased - best[si]) ||
            (lvl != 1 && lvl != 2 && gr.f[QN_HF_OVERSHOOT] != 0) ||
            (nopt[si] == 1 && !ref_shape(&f, plan[si], gr.f))) {
            if (gmism++ < 3)
                T_FAILF("%s: state %zu: grader level %d, reference %d, "
                        "presses %g/%u lit %g optimal %g/%u overshoot %g/%u "
                        "components %g spread %g (%s)",
                        name, si, gr.level, lvl, gr.f[QN_HF_PRESSES], best[si],
                        gr.f[QN_HF_LIT], gr.f[QN_HF_OPTIMAL], nopt[si],
                        gr.f[QN_HF_OVERSHOOT], lvl == 1 ? chased - best[si] : 0,
                        gr.f[QN_HF_COMPONENTS], gr.f[QN_HF_SPREAD], e.msg);
        }
    }
    T_EQ(mism, 0);
    T_EQ(gmism, 0);
    qn_human_grader_free(hg);
    free(nopt);
    free(plan);
    printf("# %s: %llu solvable, spot %llu chase %llu table %llu global "
           "%llu; top %llu any %llu\n",
           name, (unsigned long long)solvable, (unsigned long long)counts[0],
           (unsigned long long)counts[1], (unsigned long long)counts[2],
           (unsigned long long)counts[3], (unsigned long long)top,
           (unsigned long long)any);

    /* shares: exact fractions against the counts */
    qn_human_shares sh;
    T_CHECK(qn_human_shares_compute(h, &sh, &e) == QN_OK);
    T_CHECK(sh.top.known && sh.any.known);
    T_CHECK(sh.top.num * solvable == top * sh.top.den);
    T_CHECK(sh.any.num * solvable == any * sh.any.den);
    /* the table: distinct non-zero residuals of first-row patterns */
    if (f.nsides && f.ok[0]) {
        uint8_t *seen = calloc(total, 1);
        uint64_t patterns = 0;
        for (size_t pm = 0; pm < first_patterns(&f, 0); pm++) {
            memcpy(s, f.goal, (size_t)f.n);
            first_row(&f, 0, s, pm);
            chase(&f, 0, s);
            memcpy(t, s, (size_t)f.n);
            size_t ti = index_of(&f, t);
            if (memcmp(t, f.goal, (size_t)f.n) && !seen[ti])
                seen[ti] = 1, patterns++;
        }
        T_CHECK(sh.has_table && sh.table_known);
        T_EQ(sh.table_patterns, patterns);
        free(seen);
    } else {
        T_CHECK(!sh.has_table);
    }
    free(best);
    free(spot);
    qn_human_free(h);
    qn_solver_free(solver);
    qn_rules_free(r);
}

static const char four[] = "quench: 1\nname: four\ncolours: 2\n"
                           "board: {grid: [4, 4]}\n"
                           "press: {stencil: plus, self: true}\n";

static void four_by_four_facts(void)
{
    qn_rules *r = load_text(four);
    qn_solver *solver = NULL;
    qn_human *h = NULL;
    qn_err e = QN_ERR_INIT;
    qn_human_shares sh;

    if (!r)
        return;
    T_CHECK(qn_solver_new(&solver, r, &e) == QN_OK);
    T_CHECK(qn_human_new(&h, solver, &e) == QN_OK);
    T_CHECK(qn_human_shares_compute(h, &sh, &e) == QN_OK);
    /* every solvable 4x4 board falls to one chase from the top */
    T_EQ(sh.top.num, 1);
    T_EQ(sh.top.den, 1);
    T_EQ(sh.table_patterns, 0);
    T_CHECK(!strcmp(qn_human_level_name(2), "table"));
    T_EQ(qn_human_level_parse("global"), 3);
    T_EQ(qn_human_level_parse("chased"), -1);
    qn_human_free(h);
    qn_solver_free(solver);
    qn_rules_free(r);
}

/* The model file and the score: facts computed by hand. */
static void model_facts(void)
{
    static const char good[] = "# a model\nversion 7\nb0 1.25\n"
                               "presses 0.5  # per press\nlevel -1\n";
    qn_human_model m;
    qn_human_grade gr;
    qn_err e = QN_ERR_INIT;

    memset(&gr, 0, sizeof(gr));
    gr.f[QN_HF_PRESSES] = 3, gr.f[QN_HF_LEVEL] = 2, gr.f[QN_HF_LIT] = 9;
    T_CHECK(qn_human_model_parse(&m, good, strlen(good), &e) == QN_OK);
    T_EQ(m.version, 7);
    /* 1.25 + 0.5 * 3 - 1 * 2 = 0.75; lit has weight 0 */
    T_EQ(qn_human_score_milli(&m, &gr), 750);
    gr.f[QN_HF_PRESSES] = 0;
    T_EQ(qn_human_score_milli(&m, &gr), -750);
    static const struct {
        const char *text, *msg;
        int line;
    } bad[] = {
        {"b0 1\n", "'version' and 'b0'", 2},
        {"version 1\nb0 1\npresses 1\npresses 2\n", "given twice", 4},
        {"version 1\nb0 1\npresess 1\n", "unknown key 'presess'", 3},
        {"version 1\nb0 nan\n", "not a number", 2},
        {"version 0\nb0 1\n", "not a whole number", 1},
        {"version 1\nb0 1 2\n", "one key and one value", 2},
        {"version 1\nb0\n", "has no value", 2},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        qn_err e2 = QN_ERR_INIT;
        int rc =
            qn_human_model_parse(&m, bad[i].text, strlen(bad[i].text), &e2);
        if (rc != QN_ESYNTAX || !strstr(e2.msg, bad[i].msg) ||
            e2.line != bad[i].line)
            T_FAILF("model %zu: rc %d line %d: %s", i, rc, e2.line, e2.msg);
        else
            T_CHECK(1);
    }
    qn_human_model_default(&m);
    T_EQ(m.version, QN_HUMAN_MODEL_VERSION);
    T_CHECK(!strcmp(qn_human_feature_name(QN_HF_TABLE), "log2_table"));
    T_CHECK(qn_human_feature_name(QN_HF_COUNT) == NULL);
}

/* Boards past the brute force whose masks take the other fast paths (a
 * last row past the table lookup's 12 cells; last rows past 64 bits in
 * all): the grader's level against qn_human_level on random solvable
 * states (goal - A x for random plans x). */
static void wide_boards(const char *spec, int table)
{
    qn_rules *r = spec[0] == 'r' ? load(spec) : load_text(spec);
    qn_solver *solver = NULL;
    qn_human *h = NULL;
    qn_human_grader *hg = NULL;
    qn_err e = QN_ERR_INIT;
    uint64_t seed = 33, mism = 0, levels[4] = {0};

    if (!r)
        return;
    T_CHECK(qn_solver_new(&solver, r, &e) == QN_OK);
    T_CHECK(qn_human_new(&h, solver, &e) == QN_OK);
    T_CHECK(qn_human_grader_new(&hg, solver, &e) == QN_OK);
    int n = qn_rules_ncells(r);
    const uint8_t *a = qn_rules_matrix(r);
    uint8_t s[64];
    for (int t = 0; t < 3000; t++) {
        memset(s, 0, sizeof(s));
        for (int j = 0; j < n; j++)
            if (t_rand(&seed) % (t % 2 ? 9 : 3) == 0) /* sparse and dense */
                for (int i = 0; i < n; i++)
                    s[i] ^= a[i * n + j];
        int want = -1, side = -1;
        qn_human_grade gr;
        if (qn_human_level(h, s, &want, &side, &e) != QN_OK)
            continue;
        if (qn_human_grade_state(hg, s, &gr, &e) != QN_OK || gr.level != want) {
            if (mism++ < 3)
                T_FAILF("%s: try %d: grader %d, ladder %d", spec, t, gr.level,
                        want);
        } else {
            levels[want]++;
        }
    }
    T_EQ(mism, 0);
    /* the table rung was reached (the path under test), or for the
     * boards with ties, spot */
    T_CHECK(levels[table ? QN_HUMAN_TABLE : QN_HUMAN_SPOT] > 0);
    qn_human_grader_free(hg);
    qn_human_free(h);
    qn_solver_free(solver);
    qn_rules_free(r);
}

int main(void)
{
    model_facts();
    wide_boards("quench: 1\nname: w13\ncolours: 2\nboard: {grid: [13, 4]}\n"
                "press: {stencil: plus, self: true}\n",
                1);
    wide_boards("quench: 1\nname: w32\ncolours: 2\nboard: {grid: [32, 2]}\n"
                "press: {stencil: plus, self: true}\n",
                1);
    /* kernels of 4 and 16 plans: ties, spot decided over every optimal
     * plan by masks (issue #35) against the ladder's plan listing */
    wide_boards("rules/classic-5x5.yaml", 0);
    wide_boards("quench: 1\nname: c4\ncolours: 2\nboard: {grid: [4, 4]}\n"
                "press: {stencil: plus, self: true}\n",
                0);
    four_by_four_facts();
    compare("classic-3x3", "rules/classic-3x3.yaml", 4);
    compare("4x4", four, 4);
    compare("3x3 mod 3",
            "quench: 1\nname: t3\ncolours: 3\nboard: {grid: [3, 3]}\n"
            "press: {stencil: plus, self: true}\n",
            4);
    compare("3x4 torus",
            "quench: 1\nname: tor\ncolours: 2\n"
            "board: {grid: [3, 4], wrap: both}\n"
            "press: {stencil: plus, self: true}\n",
            0);
    compare("4x3 cylinder",
            "quench: 1\nname: cyl\ncolours: 2\n"
            "board: {grid: [4, 3], wrap: x}\n"
            "press: {stencil: plus, self: true}\n",
            2);
    compare("masked 4x4",
            "quench: 1\nname: mask\ncolours: 2\n"
            "board: {grid: [4, 4], mask: \"####/#.##/####/##.#\"}\n"
            "press: {stencil: plus, self: true}\n",
            0);
    compare("notched 4x4",
            "quench: 1\nname: notch\ncolours: 2\n"
            "board: {grid: [4, 4], mask: \"####/####/####/#..#\"}\n"
            "press: {stencil: plus, self: true}\n",
            1);
    compare("moore 3x3",
            "quench: 1\nname: moore\ncolours: 2\nboard: {grid: [3, 3]}\n"
            "press: {stencil: moore, self: true}\n",
            0);
    compare("hex 4x3",
            "quench: 1\nname: hx\ncolours: 2\n"
            "board: {hex: [4, 3]}\npress: {stencil: hex}\n",
            2);
    compare("hexagon-2 mod 3",
            "quench: 1\nname: hg\ncolours: 3\n"
            "board: {hexagon: 2}\npress: {stencil: hex}\n",
            0);
    /* a hexagon narrows past its middle row: no side can chase */
    compare("hexagon-3", "rules/hexagon-3.yaml", 0);
    return t_done();
}
