/*
 * suggest.h: "did you mean": the known words closest to a mistyped one,
 * as git and cargo suggest commands. Closeness is the Damerau-Levenshtein
 * distance in its optimal-string-alignment form (insert, delete or replace
 * a byte, swap two neighbours; a change of case alone costs nothing), and
 * a word is offered only when it is close for its length, so a typo gets
 * an answer and a different word gets none.
 */
#ifndef QN_SUGGEST_H
#define QN_SUGGEST_H

#include "base/buf.h"

#define QN_SUGGEST_MAX 3 /* words offered at most (ties at the best) */

typedef struct qn_suggest {
    const char *typed;          /* borrowed */
    int best;                   /* distance of cand[]; -1: none yet */
    char *cand[QN_SUGGEST_MAX]; /* owned copies, in the order added */
    int n;
} qn_suggest;

/*
 * The distance between a and b: the fewest single-byte insertions,
 * deletions, replacements and swaps of two adjacent bytes (each part of
 * the string edited once) that turn one into the other, letters compared
 * without case. Words longer than 64 bytes compare as far apart (INT_MAX
 * distance): nothing is suggested for them.
 */
int qn_suggest_distance(const char *a, const char *b);

/* Start collecting suggestions for typed (borrowed until release). */
void qn_suggest_init(qn_suggest *s, const char *typed);
/*
 * Offer word (copied). It is kept when it is close to typed: at most 1
 * edit for a typed word of up to 3 bytes, 2 up to 6, else 3; or typed, 2
 * bytes or more, begins it (an abbreviation, ranked as the farthest close
 * word). Only the closest words are kept, the first QN_SUGGEST_MAX of them
 * (one that cannot be copied, out of memory, is left out).
 */
void qn_suggest_add(qn_suggest *s, const char *word);
/* Append "; did you mean 'a'?" ("'a' or 'b'", "'a', 'b' or 'c'") to out,
 * or nothing when no word was close. */
void qn_suggest_format(const qn_suggest *s, qn_buf *out);
void qn_suggest_release(qn_suggest *s);

#endif
