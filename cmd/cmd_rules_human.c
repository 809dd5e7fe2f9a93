/*
 * cmd_rules_human.c: the technique ladder's part of `quench rules show`
 * (human.h; docs/GENERATE.md "The human ladder"): the sides that have a
 * chase order, the exact shares of solvable states one chase clears, and
 * the size of the first side's table.
 */
#include <stdio.h>
#include <string.h>

#include "base/jsonw.h"
#include "cmd.h"
#include "solve/human.h"
#include "solve/solver.h"

typedef struct human_info {
    int ok; /* 0: the ladder could not be built (err) */
    qn_human_shares sh;
    size_t nsides, nchase;
    const char *names[8];
    int chases[8];
    qn_err err;
} human_info;

static void human_info_init(human_info *hi, const qn_rules *r)
{
    qn_solver *solver = NULL;
    qn_human *h = NULL;

    memset(hi, 0, sizeof(*hi));
    hi->err = (qn_err)QN_ERR_INIT;
    if (qn_solver_new(&solver, r, &hi->err) == QN_OK &&
        qn_human_new(&h, solver, &hi->err) == QN_OK &&
        qn_human_shares_compute(h, &hi->sh, &hi->err) == QN_OK) {
        hi->ok = 1;
        hi->nsides = qn_human_nsides(h);
        for (size_t i = 0; i < hi->nsides && i < 8; i++) {
            hi->names[i] = qn_human_side_name(h, i);
            hi->chases[i] = qn_human_side_chases(h, i);
            hi->nchase += (size_t)hi->chases[i];
        }
    }
    qn_human_free(h);
    qn_solver_free(solver);
    if (!hi->ok && hi->err.code == QN_ENOMEM)
        cli_oom();
}

/* "1/8", "1" or "0" (rules show and rules table). */
void cmd_human_share_text(char *buf, size_t size, const qn_human_share *s)
{
    if (s->den == 1)
        snprintf(buf, size, "%llu", (unsigned long long)s->num);
    else
        snprintf(buf, size, "%llu/%llu", (unsigned long long)s->num,
                 (unsigned long long)s->den);
}

void cmd_rules_human_json(qn_jsonw *w, const qn_rules *r)
{
    human_info hi;
    char buf[64];

    human_info_init(&hi, r);
    qn_jsonw_key(w, "human");
    if (!hi.ok) {
        qn_jsonw_null(w);
        return;
    }
    qn_jsonw_obj(w);
    qn_jsonw_key(w, "sides");
    qn_jsonw_arr(w);
    for (size_t i = 0; i < hi.nsides; i++) {
        qn_jsonw_obj(w);
        qn_jsonw_key(w, "name"), qn_jsonw_str(w, hi.names[i]);
        qn_jsonw_key(w, "chase"), qn_jsonw_bool(w, hi.chases[i]);
        qn_jsonw_end(w);
    }
    qn_jsonw_end(w);
    qn_jsonw_key(w, "chase_share_top");
    if (hi.sh.top.known)
        cmd_human_share_text(buf, sizeof(buf), &hi.sh.top),
            qn_jsonw_str(w, buf);
    else
        qn_jsonw_null(w);
    qn_jsonw_key(w, "chase_share_any");
    if (hi.sh.any.known)
        cmd_human_share_text(buf, sizeof(buf), &hi.sh.any),
            qn_jsonw_str(w, buf);
    else
        qn_jsonw_null(w);
    qn_jsonw_key(w, "table_patterns");
    if (hi.sh.has_table && hi.sh.table_known)
        qn_jsonw_uint(w, hi.sh.table_patterns);
    else
        qn_jsonw_null(w);
    qn_jsonw_end(w);
}

static void add_share(qn_buf *out, const qn_human_share *s, const char *from)
{
    char buf[64];
    if (!s->known) {
        qn_buf_addf(out, "out of exact reach %s", from);
        return;
    }
    cmd_human_share_text(buf, sizeof(buf), s);
    qn_buf_addf(out, "%s %s (%.4g%%)", buf, from,
                100.0 * (double)s->num / (double)s->den);
}

void cmd_rules_human_text(qn_buf *out, const qn_rules *r, int width)
{
    human_info hi;

    human_info_init(&hi, r);
    qn_buf_addf(out, "%-*s", width, "human ladder:");
    if (!hi.ok) {
        qn_buf_addf(out, "unknown (%s)\n", hi.err.msg);
        return;
    }
    if (!hi.nchase) {
        qn_buf_adds(out, "no side has a chase order: levels spot and "
                         "global only\n");
        return;
    }
    qn_buf_adds(out, "chase from");
    for (size_t i = 0, n = 0; i < hi.nsides; i++)
        if (hi.chases[i])
            qn_buf_addf(out, "%s %s", n++ ? "," : "", hi.names[i]);
    qn_buf_addc(out, '\n');
    qn_buf_addf(out, "%-*s", width, "one chase clears:");
    add_share(out, &hi.sh.top, "from the top");
    qn_buf_adds(out, ", ");
    add_share(out, &hi.sh.any, "from any side");
    qn_buf_adds(out, " of the solvable states\n");
    qn_buf_addf(out, "%-*s", width, "chase table:");
    if (!hi.sh.has_table)
        qn_buf_adds(out, "none (no chase from the top)\n");
    else if (!hi.sh.table_known)
        qn_buf_adds(out, "out of exact reach\n");
    else
        qn_buf_addf(out, "%llu non-zero residual pattern%s (top)\n",
                    (unsigned long long)hi.sh.table_patterns,
                    hi.sh.table_patterns == 1 ? "" : "s");
}
