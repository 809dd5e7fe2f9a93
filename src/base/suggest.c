/*
 * suggest.c: "did you mean" (suggest.h): the optimal-string-alignment
 * distance and the few closest known words.
 */
#include "base/suggest.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

#define MAX_WORD 64 /* longer words are never suggested nor matched */

static int same(char a, char b)
{
    return tolower((unsigned char)a) == tolower((unsigned char)b);
}

static int min3(int a, int b, int c)
{
    int m = a < b ? a : b;
    return m < c ? m : c;
}

/*
 * The classic dynamic programme over the (|a|+1) x (|b|+1) table: d[i][j]
 * is the distance between the first i bytes of a and the first j of b.
 * A swap of a[i-2..i-1] with b[j-2..j-1] extends d[i-2][j-2] by one.
 */
int qn_suggest_distance(const char *a, const char *b)
{
    int d[MAX_WORD + 1][MAX_WORD + 1];
    int na = (int)strnlen(a, MAX_WORD + 1), nb = (int)strnlen(b, MAX_WORD + 1);

    if (na > MAX_WORD || nb > MAX_WORD)
        return INT_MAX;
    for (int i = 0; i <= na; i++)
        d[i][0] = i;
    for (int j = 0; j <= nb; j++)
        d[0][j] = j;
    for (int i = 1; i <= na; i++)
        for (int j = 1; j <= nb; j++) {
            int cost = !same(a[i - 1], b[j - 1]);
            d[i][j] =
                min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) &&
                same(a[i - 2], b[j - 1]) && d[i - 2][j - 2] + 1 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 1;
        }
    return d[na][nb];
}

void qn_suggest_init(qn_suggest *s, const char *typed)
{
    memset(s, 0, sizeof(*s));
    s->typed = typed;
    s->best = -1;
}

/* The most edits a typed word of n bytes may be from a word offered. */
static int limit(size_t n)
{
    return n <= 3 ? 1 : n <= 6 ? 2 : 3;
}

void qn_suggest_add(qn_suggest *s, const char *word)
{
    size_t n = strlen(s->typed);
    int d = qn_suggest_distance(s->typed, word), lim = limit(n);

    if (d > lim && n >= 2 && !strncmp(word, s->typed, n))
        d = lim; /* an abbreviation: as far as a close word may be */
    if (d > lim || d == INT_MAX)
        return;
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->cand[i], word))
            return;
    if (s->best < 0 || d < s->best) {
        qn_suggest_release(s);
        qn_suggest_init(s, s->typed);
        s->best = d;
    }
    /* out of memory leaves the word out: a suggestion is only a courtesy
     * of an error message, never worth failing it */
    if (d == s->best && s->n < QN_SUGGEST_MAX &&
        (s->cand[s->n] = qn_strdup(word)))
        s->n++;
}

void qn_suggest_format(const qn_suggest *s, qn_buf *out)
{
    for (int i = 0; i < s->n; i++)
        qn_buf_addf(out, "%s'%s'",
                    i == 0          ? "; did you mean "
                    : i + 1 == s->n ? " or "
                                    : ", ",
                    s->cand[i]);
    if (s->n)
        qn_buf_addc(out, '?');
}

void qn_suggest_release(qn_suggest *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->cand[i]);
    s->n = 0;
}
