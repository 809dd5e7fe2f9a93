/*
 * validate.c: judge a file of submitted puzzles and keep the good ones
 * in a pack.
 *
 *   cc validate.c $(pkg-config --cflags --libs quench) -o validate
 *   ./validate rules/classic-5x5.yaml puzzles.txt my.db mypack
 *
 * Writes one verdict line a record (as `quench validate`), puts every
 * puzzle judged "ok" into pack PACK of the database DB (created when
 * missing), then "stored N". Exit status 0, 2 on an error.
 */
#include <stdio.h>

#include <quench.h>

int main(int argc, char **argv)
{
    qn_err err = QN_ERR_INIT;
    qn_rules *r = NULL;
    qn_solver *solver = NULL;
    qn_store *s = NULL;
    qn_submit_reader *rd = NULL;
    qn_judge *j = NULL;
    qn_verdict_stream *vs = NULL;
    const qn_verdict_item *it;
    qn_buf line = QN_BUF_INIT;
    FILE *in = NULL;
    int rc = QN_ERR, stored = 0, is_new;

    if (argc != 5) {
        fprintf(stderr, "usage: validate RULES FILE DB PACK\n");
        return 2;
    }
    if (qn_rules_load_file(&r, argv[1], &err) != QN_OK ||
        qn_solver_new(&solver, r, &err) != QN_OK ||
        qn_store_open(&s, argv[3], QN_STORE_CREATE, &err) != QN_OK)
        goto out;
    if (!(in = fopen(argv[2], "rb"))) {
        perror(argv[2]);
        goto out;
    }
    if (qn_submit_open_rules(&rd, in, argv[2], r, QN_SUBMIT_AUTO, &err) !=
        QN_OK)
        goto out;
    if (!(j = qn_judge_new(solver)) ||
        !(vs = qn_verdict_stream_new(j, rd, QN_VERDICT_TEXT, 1))) {
        fprintf(stderr, "validate: out of memory\n"); /* their only error */
        goto out;
    }
    while ((rc = qn_verdict_stream_next(vs, &it, &err)) == 1) {
        if (it->verdict == QN_VERDICT_OK) {
            rc = qn_pack_put(s, solver, it->sub->cells, argv[4], NULL, &is_new,
                             &err);
            if (rc != QN_OK)
                break;
            if (is_new)
                stored++;
            else /* the store holds it: the verdict says so */
                qn_verdict_stream_stored(vs, it->puzzle_id);
        }
        qn_buf_reset(&line);
        qn_verdict_stream_write(vs, &line);
        if (line.failed) { /* out of memory is sticky: checked once */
            rc = QN_ENOMEM;
            fprintf(stderr, "validate: out of memory\n");
            break;
        }
        fputs(line.buf, stdout);
    }
    if (rc == 0)
        printf("stored %d\n", stored);
out:
    if (rc != 0 && err.code != QN_OK) {
        char place[300];
        qn_err_place(&err, place, sizeof(place));
        fprintf(stderr, "validate: %s%s\n", place, err.msg);
    }
    qn_buf_release(&line);
    qn_verdict_stream_free(vs);
    qn_judge_free(j);
    qn_submit_close(rd);
    if (in)
        fclose(in);
    qn_store_close(s);
    qn_solver_free(solver);
    qn_rules_free(r);
    return rc == 0 ? 0 : 2;
}
