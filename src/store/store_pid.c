/*
 * store_pid.c: the puzzle id of a stored row, computed from its state and
 * its rule set's text instead of read from puzzles.uid, which the flip
 * drops (docs/STORE-KEYRUNS.md "The flip"): the rule loaded once a walk,
 * the state canonicalized (by table where one applies) and hashed with
 * the id key of the rule's stored hash, as qn_store_put_puzzle keys it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "rules/canon.h"
#include "rules/rules.h"
#include "store_internal.h"

void qn_store__pid_release(qn_store__pid *p)
{
    qn_canon_table_free(p->table);
    qn_rules_free(p->rules);
    free(p->cells);
    free(p->form);
    memset(p, 0, sizeof(*p));
}

/* p's rule dropped, the reason it has none kept in p->why (export's
 * words for the same faults, pack_load.c: a reader then fails as export
 * did when it read puzzles.uid) */
static int unloadable(qn_store__pid *p, int64_t rule_id, const char *fmt, ...)
{
    va_list ap;

    qn_canon_table_free(p->table);
    qn_rules_free(p->rules);
    p->table = NULL;
    p->rules = NULL;
    p->rule_id = rule_id;
    va_start(ap, fmt);
    vsnprintf(p->why, sizeof(p->why), fmt, ap);
    va_end(ap);
    return QN_OK;
}

/* r (loaded from rule_id's text) into p, with room for its states */
static int take_rules(qn_store__pid *p, qn_rules *r, int n, unsigned k,
                      qn_err *err)
{
    uint8_t *cells, *form;

    /* a block that cannot grow stays as it was: p stays valid, its rule
     * unloaded */
    if ((cells = QN_REALLOCN(p->cells, (size_t)n, uint8_t)))
        p->cells = cells;
    if ((form = QN_REALLOCN(p->form, (size_t)n, uint8_t)))
        p->form = form;
    qn_canon_table_free(p->table);
    p->table = NULL;
    qn_rules_free(p->rules);
    p->rules = r;
    if (!cells || !form || qn_canon_table_new(&p->table, r, err) != QN_OK) {
        qn_rules_free(p->rules);
        p->rules = NULL;
        return qn_err_nomem(err);
    }
    p->n = n;
    p->k = k;
    return QN_OK;
}

int qn_store__pid_rule(qn_store__pid *p, int64_t rule_id, const char *hash,
                       const char *yaml, int n, unsigned k, qn_err *err)
{
    qn_err why = QN_ERR_INIT;
    qn_rules *r = NULL;
    char h[65];
    int rc;

    if (p->rule_id == rule_id && rule_id != 0 && hash && !strcmp(p->hash, hash))
        return QN_OK;
    p->rule_id = 0;
    snprintf(p->hash, sizeof(p->hash), "%s",
             hash && strlen(hash) == 64 ? hash : "");
    if (!hash || !qn_store__rule_sizes_ok(hash, n, k) || !yaml)
        return unloadable(p, rule_id,
                          "stored rule %lld does not load: its hash, cells, "
                          "colours or text are damaged",
                          (long long)rule_id);
    rc = qn_rules_load_buf(&r, yaml, strlen(yaml), "rules", &why);
    if (rc == QN_ENOMEM)
        return qn_err_nomem(err);
    if (rc != QN_OK)
        return unloadable(p, rule_id,
                          "stored rule %lld does not load: %d:%d: %.80s",
                          (long long)rule_id, why.line, why.col, why.msg);
    /* the id is keyed by the stored hash, the form by the text's
     * symmetries: they must be one rule's */
    qn_rules_hash(r, h);
    if (strcmp(h, hash) || qn_rules_ncells(r) != n ||
        qn_rules_colours(r) != k) {
        unloadable(p, rule_id,
                   "stored rule %lld (%.40s) hashes to %s, the database says "
                   "%s",
                   (long long)rule_id, qn_rules_name(r), h, hash);
        qn_rules_free(r);
        return QN_OK;
    }
    if ((rc = take_rules(p, r, n, k, err)) != QN_OK)
        return rc;
    qn_puzzle_id_key_init(&p->key, hash);
    p->why[0] = '\0';
    p->rule_id = rule_id;
    return QN_OK;
}

int qn_store__pid_need(qn_store *s, const qn_store__pid *p, qn_err *err)
{
    if (p->rules)
        return QN_OK;
    qn_err_source(err, s->path);
    return qn_err_set(err, QN_EINVAL, 0, 0, "%s: run 'quench db check'",
                      p->why);
}

uint64_t qn_store__pid_of(qn_store__pid *p, const uint8_t *cells)
{
    qn_canon_form_table(p->table, p->rules, p->form, cells);
    return qn_puzzle_id(&p->key, p->form, p->n);
}

int qn_store__pid_packed(qn_store__pid *p, const void *packed, size_t len,
                         uint64_t *out)
{
    if (!packed || len != qn_store_canon_size(p->n, p->k))
        return 0;
    qn_store_canon_unpack(p->cells, packed, p->n, p->k);
    for (int i = 0; i < p->n; i++)
        if (p->cells[i] >= p->k)
            return 0;
    *out = qn_store__pid_of(p, p->cells);
    return 1;
}
