/*
 * human_steps.c: the technique of a state's level in words (solve --steps
 * --human; human_score.h): the presses of a spot, the rows a chase walks
 * and what it presses, the table pattern and the second chase.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "human_internal.h"
#include "solve/human_score.h"

/* " (r,c)" for each cell with a count, "x2" after a count above one. */
static void add_presses(const qn_solver *solver, qn_buf *out, const int *cells,
                        const unsigned *times, int n)
{
    for (int i = 0; i < n; i++) {
        if (!times[i])
            continue;
        qn_buf_addc(out, ' ');
        qn_solver_cell_name(solver, out, cells[i]);
        if (times[i] > 1)
            qn_buf_addf(out, "x%u", times[i]);
    }
}

/* Side s's chase of need (in place), one line per walk row it presses
 * in, each line indented by `indent`; returns the presses made. Out of
 * memory: out's failed flag (nothing chased). */
static uint64_t chase_lines(const qn_human *h, const qn_human_side *s,
                            uint8_t *need, qn_buf *out, const char *indent)
{
    unsigned k = h->k;
    uint64_t total = 0;
    unsigned *t = QN_ALLOCN((size_t)s->nseq + 1, unsigned);
    int *piv = QN_ALLOCN((size_t)s->nseq + 1, int);

    if (!t || !piv) {
        free(t), free(piv);
        qn_buf_fail(out);
        return 0;
    }
    for (int i = 0; i < s->nseq; i++) {
        int j = s->pivot[i];
        piv[i] = j;
        t[i] = need[s->seq[i]] * s->inv[i] % k;
        total += t[i];
        for (int e = h->colstart[j]; t[i] && e < h->colstart[j + 1]; e++) {
            int c = h->colrow[e];
            need[c] = (uint8_t)((need[c] + k * k - t[i] * h->colval[e]) % k);
        }
    }
    for (int r = 0; r + 1 < s->nrows; r++) {
        int lo = s->rowstart[r], hi = s->rowstart[r + 1], any = 0;
        for (int i = lo; i < hi; i++)
            any |= t[i] != 0;
        if (!any)
            continue;
        qn_buf_addf(out, "%srow %d clears: press in row %d:", indent, r + 1,
                    r + 2);
        add_presses(h->solver, out, piv + lo, t + lo, hi - lo);
        qn_buf_addc(out, '\n');
    }
    if (!total)
        qn_buf_addf(out, "%snothing to press\n", indent);
    free(t);
    free(piv);
    return total;
}

static int narrate(const qn_human_grader *hg, const uint8_t *state, qn_buf *out,
                   qn_err *err)
{
    const qn_human *h = qn_human_grader_human(hg);
    const qn_solver *solver = h->solver;
    const uint8_t *goal = qn_rules_goal(qn_solver_rules(solver));
    int n = h->n;
    unsigned k = h->k;
    qn_human_grade gr;
    qn_answer a;
    int rc;

    rc = qn_human_grade_state(hg, state, &gr, err);
    if (rc != QN_OK)
        return rc;
    qn_buf_addf(out, "technique: %s (%d)", qn_human_level_name(gr.level),
                gr.level);
    if (gr.side >= 0)
        qn_buf_addf(out, " from the %s", h->side[gr.side].name);
    qn_buf_addc(out, '\n');
    if (gr.level == QN_HUMAN_SPOT || gr.level == QN_HUMAN_GLOBAL) {
        int *cells = QN_ALLOCN((size_t)n + 1, int);
        unsigned *t = QN_ALLOCN((size_t)n + 1, unsigned);
        if (!cells || !t) {
            free(cells), free(t);
            return qn_err_nomem(err);
        }
        if ((rc = qn_answer_init(&a, solver, err)) != QN_OK) {
            free(cells);
            free(t);
            return rc;
        }
        if (qn_solver_answer(solver, &a, state) != QN_OK) {
            qn_answer_release(&a);
            free(cells), free(t);
            return qn_err_nomem(err);
        }
        for (int i = 0; i < n; i++)
            cells[i] = i, t[i] = a.solvable ? a.plan[i] : 0;
        qn_buf_adds(out, gr.level == QN_HUMAN_SPOT
                             ? "  press separate patterns (no two presses "
                               "change a cell in common):"
                             : "  no chase clears it: press at once:");
        add_presses(solver, out, cells, t, n);
        qn_buf_addc(out, '\n');
        qn_answer_release(&a);
        free(cells);
        free(t);
        return QN_OK;
    }
    const qn_human_side *s = &h->side[gr.side];
    uint8_t *need = qn_malloc((size_t)n + 1);
    if (!need)
        return qn_err_nomem(err);
    for (int i = 0; i < n; i++)
        need[i] = (uint8_t)((goal[i] + k - state[i]) % k);
    if (gr.level == QN_HUMAN_CHASE) {
        qn_buf_addf(out, "  chase from the %s, row by row:\n", s->name);
        chase_lines(h, s, need, out, "    ");
        free(need);
        return QN_OK;
    }
    uint8_t *r = QN_ALLOCN((size_t)s->nlast + 1, uint8_t);
    uint8_t *y = QN_ALLOCN((size_t)s->nfirst + 1, uint8_t);
    unsigned *ty = QN_ALLOCN((size_t)s->nfirst + 1, unsigned);
    int *lit = QN_ALLOCN((size_t)s->nlast + 1, int);
    unsigned *on = QN_ALLOCN((size_t)s->nlast + 1, unsigned);
    if (!r || !y || !ty || !lit || !on) {
        free(r), free(y), free(ty), free(lit), free(on), free(need);
        return qn_err_nomem(err);
    }
    qn_buf_addf(out, "  first chase, from the %s:\n", s->name);
    chase_lines(h, s, need, out, "    ");
    for (int l = 0; l < s->nlast; l++) {
        r[l] = (uint8_t)((k - need[s->last[l]]) % k);
        lit[l] = s->last[l];
        on[l] = need[s->last[l]] != 0;
    }
    qn_buf_adds(out, "  left in the last row:");
    add_presses(solver, out, lit, on, s->nlast);
    qn_buf_addc(out, '\n');
    rc = qn_system_solve(s->table, y, r);
    if (rc == QN_OK) {
        for (int f = 0; f < s->nfirst; f++) {
            int j = s->first[f];
            ty[f] = y[f];
            for (int e = h->colstart[j]; y[f] && e < h->colstart[j + 1]; e++) {
                int c = h->colrow[e];
                need[c] =
                    (uint8_t)((need[c] + k * k - y[f] * h->colval[e]) % k);
            }
        }
        qn_buf_addf(out, "  table: that row calls for the pattern");
        add_presses(solver, out, s->first, ty, s->nfirst);
        qn_buf_addf(out, " in the first row (a table of %.0f patterns)\n",
                    gr.f[QN_HF_TABLE] > 0 ? exp2(gr.f[QN_HF_TABLE]) - 1 : 0);
        qn_buf_addf(out, "  second chase, from the %s:\n", s->name);
        chase_lines(h, s, need, out, "    ");
    } else if (rc == QN_ENOMEM) {
        rc = qn_err_nomem(err);
    } else {
        rc = qn_err_set(err, QN_ERR, 0, 0,
                        "the table has no pattern for "
                        "the residual (a bug)");
    }
    free(r), free(y), free(ty), free(lit), free(on), free(need);
    return rc;
}

int qn_human_narrate(const qn_human_grader *hg, const uint8_t *state,
                     qn_buf *out, qn_err *err)
{
    int rc;

    rc = narrate(hg, state, out, err);
    if (rc == QN_OK && out->failed)
        rc = qn_err_nomem(err);
    return rc;
}
