/*
 * rules_tree.c: the tree of a rule file (rules_tree.h): nodes, their
 * lifetime, and the duplicate-key check of mappings, hashed for big ones
 * (a hostile file may hold 10^5 keys).
 */
#include "rules_tree.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

typedef qn_rules_node node;

void qn_rules__node_free(node *n)
{
    size_t i;

    if (!n)
        return;
    for (i = 0; i < n->nkids; i++)
        qn_rules__node_free(n->kids[i]);
    free(n->kids);
    free(n->keys);
    free(n->val);
    free(n->origins);
    free(n);
}

int qn_rules__node_add(node *p, node *k)
{
    if (p->nkids == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 8;
        node **kids = QN_REALLOCN(p->kids, cap, node *);
        if (!kids)
            return QN_ENOMEM;
        p->kids = kids;
        p->cap = cap;
    }
    p->kids[p->nkids++] = k;
    return QN_OK;
}

/* Maps with more keys than this get a hash table for the duplicate check. */
#define KEYS_LINEAR 16

static size_t key_hash(const node *k)
{
    uint64_t h = 14695981039346656037u;
    size_t i;

    for (i = 0; i < k->len; i++)
        h = (h ^ (unsigned char)k->val[i]) * 1099511628211u; /* FNV-1a */
    return (size_t)h;
}

static int same_key(const node *a, const node *b)
{
    return a->len == b->len && !memcmp(a->val, b->val, a->len);
}

/* Put key kids[i] in p's table (known absent); the table has room. */
static void keys_put(node *p, size_t i)
{
    size_t h = key_hash(p->kids[i]) & (p->hcap - 1);

    while (p->keys[h])
        h = (h + 1) & (p->hcap - 1);
    p->keys[h] = i + 1;
}

/* The earlier key of p equal to n, or NULL; keeps p's table big enough
 * for one more key. */
const node *qn_rules__node_find_key(node *p, const node *n)
{
    size_t nkeys = p->nkids / 2, i, h;

    if (nkeys < KEYS_LINEAR) {
        for (i = 0; i < p->nkids; i += 2)
            if (same_key(p->kids[i], n))
                return p->kids[i];
        return NULL;
    }
    if (2 * (nkeys + 1) > p->hcap) { /* load at most 1/2 */
        free(p->keys);
        p->hcap = p->hcap ? 2 * p->hcap : 4 * KEYS_LINEAR;
        if (!(p->keys = QN_ALLOCN(p->hcap, size_t))) {
            /* out of memory: the table is only a shortcut; look through
             * the keys one by one until a later key can build it */
            p->hcap = 0;
            for (i = 0; i < p->nkids; i += 2)
                if (same_key(p->kids[i], n))
                    return p->kids[i];
            return NULL;
        }
        for (i = 0; i < p->nkids; i += 2)
            keys_put(p, i);
    }
    for (h = key_hash(n) & (p->hcap - 1); p->keys[h];
         h = (h + 1) & (p->hcap - 1))
        if (same_key(p->kids[p->keys[h] - 1], n))
            return p->kids[p->keys[h] - 1];
    return NULL;
}

/* find_key has made room in the table for this key. */
int qn_rules__node_add_key(node *p, node *k)
{
    if (qn_rules__node_add(p, k) != QN_OK)
        return QN_ENOMEM;
    if (p->keys)
        keys_put(p, p->nkids - 1);
    return QN_OK;
}

const char *qn_rules__node_kind(const node *n)
{
    switch (n->type) {
    case N_SCALAR:
        return "a string";
    case N_SEQ:
        return "a sequence";
    case N_MAP:
        return "a mapping";
    }
    return "?";
}
