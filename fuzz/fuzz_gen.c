/* fuzz_gen: validate(generate(seed)) is always ok. The bytes pick a
 * shipped rule (run from the project root), a count and a seed; the
 * generated puzzles, written as submission records with their witness and
 * minimum, are read back by the submission reader and judged, and every
 * verdict must be ok: the generator, the reader and the judge agree. */
#include <string.h>

#include "fuzz.h"
#include "generate/gen.h"
#include "rules/rules.h"
#include "rules/state.h"
#include "validate/submit.h"
#include "validate/verdict.h"

/* Shipped rules over several k, prime and composite, and board kinds. */
static const char *const rule_files[] = {
    "rules/classic-3x3.yaml",  "rules/whack-a-mole-4x4.yaml",
    "rules/quatrainment.yaml", "rules/ring6-mod8.yaml",
    "rules/hexagon-3.yaml",    "rules/merlin.yaml",
};
#define NRULES (sizeof(rule_files) / sizeof(rule_files[0]))
static qn_rules *rules[NRULES];
static qn_solver *games[NRULES];

static const qn_solver *game_for(size_t i)
{
    if (!games[i]) {
        qn_err e = QN_ERR_INIT;
        FUZZ_ASSERT(qn_rules_load_file(&rules[i], rule_files[i], &e) == QN_OK);
        FUZZ_ASSERT(qn_solver_new(&games[i], rules[i], &e) == QN_OK);
    }
    return games[i];
}

struct emit_ctx {
    const qn_layout *l;
    qn_buf out; /* JSON Lines records */
    uint64_t n;
};

static int emit_record(void *vctx, const qn_gen_puzzle *p)
{
    struct emit_ctx *c = vctx;
    qn_buf_addf(&c->out, "{\"id\":\"%s\",\"state\":\"", p->id);
    qn_state_format(&c->out, c->l, p->state, '/');
    qn_buf_addf(&c->out, "\",\"solution\":\"");
    qn_state_format(&c->out, c->l, p->plan, '/');
    qn_buf_addf(&c->out, "\",\"min_presses\":%llu}\n",
                (unsigned long long)p->presses);
    c->n++;
    return QN_GEN_EMITTED;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > FUZZ_MAX_INPUT)
        return 0;
    size_t which = data[1] % NRULES;
    const qn_solver *solver = game_for(which);
    const qn_layout *l = qn_rules_layout(rules[which]);
    qn_gen_opts o;
    qn_gen_opts_init(&o);
    o.count = 1 + data[0] % 2;
    o.mode = QN_GEN_SAMPLE; /* AUTO's pilot sample would cost 10x more */
    o.max_draws = 256;
    o.jobs = 0; /* in this thread: a worker per input costs more */
    memcpy(o.seed.b + QN_SEED_BYTES - (size - 2 < 16 ? size - 2 : 16), data + 2,
           size - 2 < 16 ? size - 2 : 16);
    struct emit_ctx c = {l, QN_BUF_INIT, 0};
    qn_gen_hooks h = {NULL, emit_record, NULL, &c, NULL};
    qn_gen_stats st;
    qn_err err = QN_ERR_INIT;
    int rc = qn_gen_run(solver, &o, &h, &st, &err);
    FUZZ_ASSERT(rc == QN_OK || rc == QN_ELIMIT);
    FUZZ_ASSERT(c.n == st.emitted && (rc != QN_OK || c.n == o.count));

    FILE *f = fmemopen(c.out.buf ? c.out.buf : (char *)"", c.out.len, "r");
    FUZZ_ASSERT(f != NULL);
    qn_submit_reader *r = NULL;
    FUZZ_ASSERT(qn_submit_open(&r, f, "gen", l, qn_solver_colours(solver),
                               QN_SUBMIT_AUTO, &err) == QN_OK);
    qn_judge *j = qn_judge_new(solver);
    qn_ruling ru;
    FUZZ_ASSERT(j != NULL && qn_ruling_init(&ru, j, NULL) == QN_OK);
    const qn_submission *sub;
    uint64_t seen = 0;
    while ((rc = qn_submit_next(r, &sub, &err)) == 1) {
        FUZZ_ASSERT(qn_judge_one(j, &ru, sub) == QN_OK);
        if (ru.verdict != QN_VERDICT_OK)
            fprintf(stderr, "%s: %s: %s\n", rule_files[which],
                    qn_verdict_name(ru.verdict),
                    ru.reason.buf ? ru.reason.buf : "");
        FUZZ_ASSERT(ru.verdict == QN_VERDICT_OK);
        seen++;
    }
    FUZZ_ASSERT(rc == 0 && seen == c.n);
    qn_ruling_release(&ru);
    qn_judge_free(j);
    qn_submit_close(r);
    fclose(f);
    qn_buf_release(&c.out);
    return 0;
}
