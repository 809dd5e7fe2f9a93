/*
 * verdict_internal.h: what verdict_stream.c needs of a judge (verdict.c)
 * when it keeps the rulings of a batch in its own compact form. Not
 * installed.
 */
#ifndef QN_VERDICT_INTERNAL_H
#define QN_VERDICT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "validate/verdict.h"

/*
 * qn_judge_settle on the parts of a ruling it reads: the prepared
 * verdict *v, the seen key and hash, and the record's seq and id (has_id:
 * the submitter's). Settles *v and counts it; for a duplicate, *first is
 * the handle of the first submission (for qn_judge__first). QN_OK, or
 * QN_ENOMEM with the judge and *v as they were.
 */
int qn_judge__settle(qn_judge *j, qn_verdict *v, const uint8_t *key,
                     uint64_t hash, uint64_t seq, const char *id, int has_id,
                     uint64_t *first);

/* The seq and id (borrowed until the judge accepts another puzzle) of an
 * accepted submission, by the handle qn_judge__settle gave. */
uint64_t qn_judge__first(const qn_judge *j, uint64_t first, const char **id,
                         int *has_id);

/* A hint: a record whose seen key hashes to hash settles soon. */
void qn_judge__prefetch(const qn_judge *j, uint64_t hash);

/* A counted verdict changed from `from` to `to`. */
void qn_judge__recount(qn_judge *j, qn_verdict from, qn_verdict to);

const qn_solver *qn_judge__solver(const qn_judge *j);
/* The human score model's version that ok verdicts carry. */
int qn_judge__human_model(const qn_judge *j);
size_t qn_judge__key_size(const qn_judge *j); /* bytes of a seen key */

#endif
