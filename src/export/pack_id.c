/*
 * pack_id.c: a document's puzzles by name. Each is known by its puzzle
 * id (puzzle_id.h), computed from its rule and state as the generator,
 * the validator and the store compute it, and by its position in the
 * pack; messages about a puzzle give both.
 */
#include "export_internal.h"

#include <stdio.h>
#include <stdlib.h>

#include "rules/canon.h"
#include "rules/puzzle_id.h"

uint64_t qn_export__content_id(const qn_pack_rule *pr, const uint8_t *state)
{
    uint8_t canon[QN_RULES_MAX_CELLS]; /* on the stack: nothing to fail */
    qn_puzzle_id_key key;

    qn_canon_form(pr->rules, canon, state);
    qn_puzzle_id_key_init(&key, pr->hash);
    return qn_puzzle_id(&key, canon, pr->ncells);
}

const char *qn_export__puzzle_name(char out[QN_EXPORT__NAME],
                                   const qn_pack_puzzle *p)
{
    char hex[QN_PUZZLE_ID_HEX];

    qn_puzzle_id_hex(hex, p->id);
    snprintf(out, QN_EXPORT__NAME, "puzzle %lld (id %s)",
             (long long)p->position, hex);
    return out;
}
