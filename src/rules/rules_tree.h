/*
 * rules_tree.h: the small tree with file positions that rules_yaml.c
 * builds from libyaml's events and rules_schema.c reads into a
 * qn_rules_spec; no libyaml type appears here. Not part of the public API.
 */
#ifndef QN_RULES_TREE_H
#define QN_RULES_TREE_H

#include <stddef.h>

#include "quench/rules.h"

enum qn_rules_ntype { N_SCALAR, N_SEQ, N_MAP };

typedef struct qn_rules_node {
    enum qn_rules_ntype type;
    qn_mark mark;     /* 1-based start */
    char *val;        /* scalar value, NUL-terminated */
    size_t len;       /* scalar bytes */
    int quoted;       /* scalar written '...' or "..." */
    int plain;        /* scalar written plain */
    qn_mark *origins; /* file position of each value line, or NULL */
    size_t norigins;
    struct qn_rules_node **kids; /* seq: items; map: key, value, key... */
    size_t nkids, cap;
    size_t *keys; /* map with many keys: hash table of key index + 1 into
                     kids (0 = empty), hcap slots, or NULL */
    size_t hcap;
} qn_rules_node;

/* rules_tree.c */

/* Frees n and everything under it; NULL is a no-op. */
void qn_rules__node_free(qn_rules_node *n);
/* Appends kid to p's kids (p owns it from now on). */
void qn_rules__node_add(qn_rules_node *p, qn_rules_node *kid);
/* The earlier key of map p equal to key k, or NULL. */
const qn_rules_node *qn_rules__node_find_key(qn_rules_node *p,
                                             const qn_rules_node *k);
/* Appends key k to map p (not already there: see find_key). */
void qn_rules__node_add_key(qn_rules_node *p, qn_rules_node *k);
/* "a string", "a sequence" or "a mapping", for messages. */
const char *qn_rules__node_kind(const qn_rules_node *n);

/* rules_schema.c */

/* QN_OK if k is a key of a rule file's top mapping, else the error. */
int qn_rules__check_top_key(const qn_rules_node *k, qn_err *err);
/* Reads the tree of a whole rule file into *s (initialised by the caller;
 * filled in part on failure: the caller releases it either way). */
int qn_rules__spec_from_tree(qn_rules_spec *s, const qn_rules_node *n,
                             qn_err *err);

#endif
