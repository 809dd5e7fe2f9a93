/*
 * solve.c: solve one state of a rule exactly.
 *
 *   cc solve.c $(pkg-config --cflags --libs quench) -o solve
 *   ./solve rules/classic-5x5.yaml 11000/10000/00000/00000/00000
 *
 * Prints "min_presses N" and "solution C,C,...": the least number of
 * presses and the smallest optimal plan (per-cell press counts), or
 * "unsolvable" and why. Exit status 0, 1 on unsolvable, 2 on an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <quench.h>

int main(int argc, char **argv)
{
    qn_err err = QN_ERR_INIT;
    qn_rules *r = NULL;
    qn_solver *solver = NULL;
    qn_answer a;
    uint8_t *state;
    int rc = 2;

    if (argc != 3) {
        fprintf(stderr, "usage: solve RULES STATE\n");
        return 2;
    }
    if (qn_rules_load_file(&r, argv[1], &err) != QN_OK ||
        qn_solver_new(&solver, r, &err) != QN_OK) {
        fprintf(stderr, "solve: %s: %s\n", argv[1], err.msg);
        qn_rules_free(r);
        return 2;
    }
    state = malloc((size_t)qn_rules_ncells(r));
    if (state && qn_rules_parse_state(r, state, argv[2], strlen(argv[2]),
                                      &err) == QN_OK) {
        if (qn_answer_init(&a, solver, &err) != QN_OK) {
            fprintf(stderr, "solve: %s\n", err.msg);
            goto done;
        }
        if (qn_solver_answer(solver, &a, state) != QN_OK) {
            fprintf(stderr, "solve: out of memory\n");
        } else if (a.solvable) {
            printf("min_presses %llu\nsolution ",
                   (unsigned long long)a.mp.presses);
            for (int i = 0; i < qn_rules_ncells(r); i++)
                printf("%s%u", i ? "," : "", a.plan[i]);
            printf("\n");
            rc = 0;
        } else {
            qn_buf why = QN_BUF_INIT;
            qn_solver_explain(solver, &why, state, 3);
            /* out of memory is sticky in a qn_buf: checked once */
            if (why.failed) {
                fprintf(stderr, "solve: out of memory\n");
            } else {
                printf("unsolvable\n%s", why.buf);
                rc = 1;
            }
            qn_buf_release(&why);
        }
        qn_answer_release(&a);
    } else if (state) {
        fprintf(stderr, "solve: state:%d:%d: %s\n", err.line, err.col, err.msg);
    }
done:
    free(state);
    qn_solver_free(solver);
    qn_rules_free(r);
    return rc;
}
