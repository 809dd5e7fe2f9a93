/*
 * test_suggest.c: "did you mean" (suggest.h). The distances are the
 * textbook ones: kitten/sitting 3 (Levenshtein 1966, the usual example),
 * CA/ABC 3 under optimal string alignment where unrestricted
 * Damerau-Levenshtein gives 2 (Boytsov 2011), one swap of neighbours 1.
 */
#include "base/suggest.h"

#include <limits.h>
#include <string.h>

#include "t.h"

static void test_distance(void)
{
    T_EQ(qn_suggest_distance("", ""), 0);
    T_EQ(qn_suggest_distance("abc", ""), 3);
    T_EQ(qn_suggest_distance("", "abc"), 3);
    T_EQ(qn_suggest_distance("kitten", "sitting"), 3);
    T_EQ(qn_suggest_distance("sitting", "kitten"), 3);
    T_EQ(qn_suggest_distance("flaw", "lawn"), 2);
    T_EQ(qn_suggest_distance("CA", "ABC"), 3); /* OSA, not 2 */
    T_EQ(qn_suggest_distance("ab", "ba"), 1);  /* one swap */
    T_EQ(qn_suggest_distance("presess", "presses"), 1);
    T_EQ(qn_suggest_distance("wrold1", "world1"), 1);
    T_EQ(qn_suggest_distance("generat", "generate"), 1);
    T_EQ(qn_suggest_distance("Generate", "generate"), 0); /* case */
    T_EQ(qn_suggest_distance("lst", "list"), 1);
    char longw[80];
    memset(longw, 'a', 79);
    longw[79] = '\0';
    T_EQ(qn_suggest_distance(longw, "a"), INT_MAX);
}

/* What the suggestion line says for typed among words. */
static void says(const char *typed, const char *const *words, const char *want)
{
    qn_suggest s;
    qn_buf b = QN_BUF_INIT;

    qn_suggest_init(&s, typed);
    for (size_t i = 0; words[i]; i++)
        qn_suggest_add(&s, words[i]);
    qn_suggest_format(&s, &b);
    if (strcmp(b.len ? b.buf : "", want))
        T_FAILF("'%s': got \"%s\", want \"%s\"", typed, b.len ? b.buf : "",
                want);
    else
        T_CHECK(1);
    qn_suggest_release(&s);
    qn_buf_release(&b);
}

static void test_suggest(void)
{
    static const char *const cmds[] = {"rules", "solve", "validate", "generate",
                                       "pack",  "db",    "export",   "import",
                                       "help",  NULL};
    static const char *const subs[] = {"create", "list",  "show", "add",
                                       "remove", "move",  "sort", "rename",
                                       "delete", "build", NULL};
    static const char *const packs[] = {"world1", "world2", "starter", NULL};

    says("generat", cmds, "; did you mean 'generate'?");
    says("valdiate", cmds, "; did you mean 'validate'?");
    says("exprot", cmds, "; did you mean 'export'?");
    says("gen", cmds, "; did you mean 'generate'?"); /* abbreviation */
    says("frobnicate", cmds, "");                    /* nothing close */
    says("x", cmds, "");
    says("lst", subs, "; did you mean 'list'?");
    says("mvoe", subs, "; did you mean 'move'?");
    says("shw", subs, "; did you mean 'show'?");
    says("wrold1", packs, "; did you mean 'world1'?");
    says("world", packs, "; did you mean 'world1' or 'world2'?");
    says("world3", packs, "; did you mean 'world1' or 'world2'?");
}

int main(void)
{
    test_distance();
    test_suggest();
    return t_done();
}
