/*
 * rules_tree.h: the small tree with file positions that rules_yaml.c
 * builds from libyaml's events, and the schemas that read it: a rule file
 * into a qn_rules_spec (rules_schema.c), a recipe into a qn_recipe
 * (recipe_schema.c), both through the typed reads of rules_read.c. No
 * libyaml type appears here. Not part of the public API.
 */
#ifndef QN_RULES_TREE_H
#define QN_RULES_TREE_H

#include <stddef.h>

#include "rules/recipe.h"
#include "rules/rules.h"

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
/* Appends kid to p's kids (p owns it from now on): QN_OK, or QN_ENOMEM
 * (kid not added, still the caller's). */
int qn_rules__node_add(qn_rules_node *p, qn_rules_node *kid);
/* The earlier key of map p equal to key k, or NULL. */
const qn_rules_node *qn_rules__node_find_key(qn_rules_node *p,
                                             const qn_rules_node *k);
/* Appends key k to map p (not already there: see find_key); QN_OK or
 * QN_ENOMEM as qn_rules__node_add. */
int qn_rules__node_add_key(qn_rules_node *p, qn_rules_node *k);
/* "a string", "a sequence" or "a mapping", for messages. */
const char *qn_rules__node_kind(const qn_rules_node *n);

/* rules_yaml.c */

/* What a kind of file (rule file, recipe) adds to reading its YAML. */
typedef struct qn_rules_yaml_kind {
    const char *files; /* "rule files": "file is UTF-16; rule files must
                          be UTF-8" */
    const char *empty; /* the message for a file without a document */
    /* QN_OK if k may be a key of the top mapping, else the error; called
     * as each top-level value starts, so nothing under an unknown key is
     * read */
    int (*top_key)(const qn_rules_node *k, qn_err *err);
    /* NULL, or the top-level key a file of this kind must have
     * ("quench"): an error found before it was read, in a file that turns
     * out not to have it, says only "not a rule file", so that nothing of
     * a file that is not one is ever quoted (nor located, which would
     * let -v show its line) */
    const char *marker;
    const char *not_marked; /* that message */
} qn_rules_yaml_kind;

/*
 * Parse `len` bytes of YAML into a tree (*out, the caller's: free it with
 * qn_rules__node_free) under the limits of rules.h (QN_RULES_MAX_FILE,
 * _DEPTH, _EVENTS): QN_ESYNTAX for malformed YAML, refused features and
 * limits, QN_EINVAL (kind->empty) for a file without a document. *out is
 * NULL on failure. err's source is left to the caller.
 */
int qn_rules__yaml_tree(qn_rules_node **out, const char *text, size_t len,
                        const qn_rules_yaml_kind *kind, qn_err *err);

/* rules_read.c: typed reads; each returns QN_OK or QN_EINVAL at the node,
 * the message starting with `what`. */

/* "unknown WHAT 'key' (did you mean 'Y'?)", or the list of valid words. */
int qn_rules__unknown(const qn_rules_node *k, const char *what,
                      const char *const *valid, size_t nvalid, qn_err *err);
/* The index of k's word in valid[] into *out, or qn_rules__unknown. */
int qn_rules__lookup(const qn_rules_node *k, const char *what,
                     const char *const *valid, size_t nvalid, int *out,
                     qn_err *err);
/* QN_OK when n has type t: "WHAT must be a mapping, got a string". */
int qn_rules__want(const qn_rules_node *n, enum qn_rules_ntype t,
                   const char *what, qn_err *err);
/* A plain decimal integer, -?[0-9]+, at most 10^9 in size. */
int qn_rules__get_int(const qn_rules_node *n, const char *what, long *out,
                      qn_err *err);
/* Plain true or false. */
int qn_rules__get_bool(const qn_rules_node *n, const char *what, int *out,
                       qn_err *err);
/* A scalar, copied into *out (malloc'd; an earlier *out is freed). */
int qn_rules__get_str(const qn_rules_node *n, const char *what, char **out,
                      qn_err *err);

/* rules_schema.c */

/* QN_OK if k is a key of a rule file's top mapping, else the error. */
int qn_rules__check_top_key(const qn_rules_node *k, qn_err *err);
/* Reads the tree of a whole rule file into *s (initialised by the caller;
 * filled in part on failure: the caller releases it either way). */
int qn_rules__spec_from_tree(qn_rules_spec *s, const qn_rules_node *n,
                             qn_err *err);

/* recipe_schema.c */

/* QN_OK if k is a key of a recipe's top mapping, else the error. */
int qn_rules__recipe_top_key(const qn_rules_node *k, qn_err *err);
/* Reads the tree of a whole recipe into *r (zeroed by the caller; filled
 * in part on failure: the caller frees it either way). Rules paths stay
 * as written (rules_path is NULL). */
int qn_rules__recipe_from_tree(qn_recipe *r, const qn_rules_node *n,
                               qn_err *err);

#endif
