/*
 * recipe.c: loading a campaign recipe (recipe.h): the file read as rule
 * files are, its YAML tree read by recipe_schema.c, rules paths taken from
 * the recipe's folder, the hash of its text, and its sections' seeds.
 */
#include "rules/recipe.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/mem.h"
#include "rules_internal.h"
#include "rules_tree.h"

_Static_assert(QN_HASH_BYTES == QN_SEED_BYTES,
               "a section seed is a BLAKE2b-256 digest");

static const qn_rules_yaml_kind recipe_file = {
    "recipes",
    "file is empty: expected a recipe mapping with 'pack', 'seed' and "
    "'sections'",
    qn_rules__recipe_top_key, NULL, NULL};

/*
 * rel taken from the folder of the recipe at `path`: "a/r.yaml" and
 * "../x.yaml" give "a/../x.yaml". An absolute rel, and a recipe without
 * a folder (NULL, stdin, a bare file name), leave rel as it is, but for
 * "-", which the loaders read as stdin: a file named "-" is "./-". Nothing
 * is folded: the ".." of a symlinked folder is not its textual parent.
 * NULL when out of memory.
 */
static char *resolve(const char *path, const char *rel)
{
    const char *slash = path && strcmp(path, "-") ? strrchr(path, '/') : NULL;
    size_t nd, nr = strlen(rel);
    char *out;

    if (!slash && !strcmp(rel, "-"))
        return qn_strdup("./-");
    if (rel[0] == '/' || !slash)
        return qn_strdup(rel);
    nd = (size_t)(slash - path) + 1;
    if (!(out = qn_malloc(nd + nr + 1)))
        return NULL;
    memcpy(out, path, nd);
    memcpy(out + nd, rel, nr + 1);
    return out;
}

int qn_recipe_load_buf(qn_recipe **out, const char *text, size_t len,
                       const char *path, qn_err *err)
{
    qn_recipe *r = QN_ALLOC(qn_recipe);
    qn_rules_node *root;
    int rc;

    *out = NULL;
    if (!r ||
        !(r->source = qn_strdup(path ? qn_rules__source_name(path) : ""))) {
        free(r);
        return qn_err_nomem(err);
    }
    rc = qn_rules__yaml_tree(&root, text, len, &recipe_file, err);
    if (rc == QN_OK)
        rc = qn_rules__recipe_from_tree(r, root, err);
    qn_rules__node_free(root);
    if (rc != QN_OK) {
        qn_err_source(err, r->source);
        qn_recipe_free(r);
        return rc;
    }
    for (size_t i = 0; i < r->nsections; i++)
        if (!(r->sections[i].rules_path = resolve(path, r->sections[i].rules)))
            goto nomem;
    if (!(r->text = qn_malloc(len + 1)))
        goto nomem;
    memcpy(r->text, text, len);
    r->text[len] = '\0';
    r->len = len;
    qn_hash_buf_hex(r->hash, text, len);
    *out = r;
    return QN_OK;
nomem:
    qn_recipe_free(r);
    return qn_err_nomem(err);
}

int qn_recipe_load(qn_recipe **out, const char *path, qn_err *err)
{
    char *buf;
    size_t len;
    int rc;

    *out = NULL;
    if ((rc = qn_rules__read_file(path, &buf, &len, err)) != QN_OK)
        return rc;
    rc = qn_recipe_load_buf(out, buf, len, path, err);
    free(buf);
    return rc;
}

void qn_recipe_free(qn_recipe *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nsections; i++) {
        qn_recipe_section *sec = &r->sections[i];
        for (size_t j = 0; j < sec->ntiers; j++)
            free(sec->tiers[j].name);
        free(sec->tiers);
        free(sec->name);
        free(sec->rules);
        free(sec->rules_path);
        free(sec->human_level);
    }
    free(r->sections);
    free(r->source);
    free(r->pack);
    free(r->title);
    free(r->description);
    free(r->author);
    free(r->text);
    free(r);
}

/* A string framed by its length, so no two (name, tier) pairs collide. */
static void hash_str(qn_hash *h, const char *s)
{
    size_t n = strlen(s);

    qn_hash_u32(h, (uint32_t)n);
    qn_hash_update(h, s, n);
}

static int has_tier(const qn_recipe_section *sec, const char *tier)
{
    for (size_t j = 0; j < sec->ntiers; j++)
        if (!strcmp(sec->tiers[j].name, tier))
            return 1;
    return 0;
}

void qn_recipe_section_seed(const qn_recipe *r, size_t i, const char *tier,
                            qn_seed *out)
{
    static const char domain[] = "quench-recipe-section-1"; /* + its NUL */
    qn_hash h;

    assert(i < r->nsections);
    assert(!tier || has_tier(&r->sections[i], tier));
    qn_hash_init(&h);
    qn_hash_update(&h, domain, sizeof(domain));
    qn_hash_update(&h, r->seed.b, QN_SEED_BYTES);
    hash_str(&h, r->sections[i].name);
    hash_str(&h, tier ? tier : "");
    qn_hash_final(&h, out->b);
}
