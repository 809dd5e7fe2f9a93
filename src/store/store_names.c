/*
 * store_names.c: what a pack's name, title, description and author may
 * hold (store.h), checked by the store before it writes them and by every
 * command that takes them from a user or a document before it starts.
 */
#include "store/store.h"

#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "rules/rules.h"

/* one limit for the texts of packs and of rules (and so of imports) */
_Static_assert(QN_STORE_PACK_TEXT_MAX == QN_RULES_MAX_TEXT,
               "pack and rule texts share one limit");

int qn_store_pack_check_name(const char *name, qn_err *err)
{
    char what[32 + QN_STORE_PACK_NAME_MAX];

    if (!name)
        name = "";
    /* quote the name when it is short enough to be one */
    if (strlen(name) <= QN_STORE_PACK_NAME_MAX)
        snprintf(what, sizeof(what), "pack name '%s'", name);
    else
        snprintf(what, sizeof(what), "pack name");
    return qn_text_check(name, QN_STORE_PACK_NAME_MAX, QN_TEXT_NAME, what, err);
}

int qn_store_pack_check(const qn_store_pack *p, qn_err *err)
{
    const char *texts[3] = {p->title, p->description, p->author};
    static const char *const keys[3] = {"title", "description", "author"};
    char what[48 + QN_STORE_PACK_NAME_MAX];
    int rc = qn_store_pack_check_name(p->name, err);

    for (int i = 0; i < 3 && rc == QN_OK; i++) {
        snprintf(what, sizeof(what), "pack '%s': %s", p->name, keys[i]);
        rc = qn_text_check(texts[i] ? texts[i] : "", QN_STORE_PACK_TEXT_MAX,
                           i == 1 ? QN_TEXT_LINES : 0, what, err);
    }
    return rc;
}
