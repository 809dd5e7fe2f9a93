/*
 * test_nomem.c: a library never exits the process (issue #32 section 2).
 * Through the public allocator hook (qn_set_allocator, tfail.h) each
 * public call is run failing its n-th allocation, for every n until a run
 * makes fewer than n allocations; each run must return QN_OK or QN_ENOMEM
 * with err saying "out of memory" (never exit: this program would end),
 * leave its objects valid (freeable, and usable by the same call made
 * again with memory to spare), and, past the last allocation, give what
 * a run with the C library's allocator gives. Leaks show under ASan.
 */
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/file.h"
#include "quench.h"
#include "rules/recipe.h"
#include "t.h"
#include "tfail.h"

/* The public qn_buf functions, as a program calls them (base/buf.h names
 * the library's own variants the same). */
#undef qn_buf_add
#undef qn_buf_adds
#undef qn_buf_detach

/* The sweep stops there whatever happens (a call that never ends). */
#define MAX_POINTS 200000L

/* A failed call's verdict: QN_ENOMEM with the words, or a failure. */
static int nomem_ok(const char *what, long n, int rc, const qn_err *err)
{
    if (rc == QN_ENOMEM && err->code == QN_ENOMEM &&
        strstr(err->msg, "out of memory"))
        return 1;
    T_FAILF("%s, allocation %ld failing: rc %d, code %d, '%s'", what, n, rc,
            err->code, err->msg);
    return 0;
}

/* ------------------------------------------------------------------ */
/* qn_set_allocator */

static void test_allocator_checked(void)
{
    qn_allocator half = {malloc, NULL, realloc};
    qn_err err = QN_ERR_INIT;

    T_EQ(qn_set_allocator(&half, 0, &err), QN_EINVAL);
    T_EQ(err.code, QN_EINVAL);
    t_alloc_hook(); /* the counting one stays */
}

/* ------------------------------------------------------------------ */
/* qn_buf: out of memory is sticky */

static void test_buf_sticky(void)
{
    char want[4096];
    size_t wlen = 0;
    long n, points = 0, prefixes = 0;

    for (int i = 0; i < 400; i++)
        wlen += (size_t)snprintf(want + wlen, sizeof(want) - wlen, "%d,", i);
    for (n = 1; n < MAX_POINTS; n++) {
        qn_buf b = QN_BUF_INIT;
        char *d;
        size_t len;
        long made;

        t_fail_after(n);
        for (int i = 0; i < 400; i++) {
            char w[16];
            snprintf(w, sizeof(w), "%d,", i);
            qn_buf_adds(&b, w);
        }
        made = t_counted();
        t_fail_after(-1);
        /* whatever failed, the contents are a prefix of the text */
        if (b.len <= wlen && !memcmp(b.buf, want, b.len) &&
            strlen(b.buf) == b.len)
            prefixes++;
        if (made < n) { /* nothing failed */
            T_EQ(b.failed, 0);
            T_EQ(b.len, wlen);
            d = qn_buf_detach(&b, &len);
            T_CHECK(d && len == wlen && !strcmp(d, want));
            free(d);
            break;
        }
        points++;
        T_EQ(b.failed, 1);
        T_CHECK(b.len < wlen);
        qn_buf_adds(&b, "x"); /* a no-op once failed */
        T_CHECK(b.len == 0 || b.buf[b.len - 1] == ',');
        T_CHECK(qn_buf_detach(&b, &len) == NULL && len == 0);
        T_EQ(b.failed, 0); /* detach released it: usable again */
        qn_buf_adds(&b, "ok");
        T_CHECK(!strcmp(b.buf, "ok"));
        qn_buf_release(&b);
    }
    T_EQ(prefixes, points + 1);
    T_CHECK(points >= 3); /* the buffer grew a few times */
}

/* ------------------------------------------------------------------ */
/* Rules: load from text, format a state */

static const char *const rule_files[] = {
    "rules/classic-5x5.yaml",
    "rules/hexagon-3.yaml",
    "rules/merlin.yaml",
    "rules/torus-5x5.yaml",
    "rules/four-colour-10x10.yaml",
    "rules/cross-7x7.yaml",
    "rules/ring6-mod8.yaml",
    "rules/sigma-5x5.yaml",
};

static void sweep_rules_load(const char *path)
{
    char *text, ref_hash[65], hash[65];
    size_t len;
    qn_rules *ref = NULL, *r;
    qn_err err = QN_ERR_INIT;
    long n, points = 0;

    t_fail_after(-1);
    if (qn_file_read_all(&text, &len, path, 1 << 20, NULL) != QN_OK ||
        qn_rules_load_buf(&ref, text, len, path, &err) != QN_OK) {
        T_FAILF("%s: cannot load (%s)", path, err.msg);
        return;
    }
    qn_rules_hash(ref, ref_hash);
    for (n = 1; n < MAX_POINTS; n++) {
        long made;
        int rc;

        qn_err_clear(&err);
        t_fail_after(n);
        rc = qn_rules_load_buf(&r, text, len, path, &err);
        made = t_counted();
        t_fail_after(-1);
        if (made < n) {
            T_EQ(rc, QN_OK);
            if (rc == QN_OK)
                qn_rules_free(r);
            break;
        }
        points++;
        if (rc == QN_OK) { /* a failure it could do without */
            qn_rules_hash(r, hash);
            T_CHECK(!strcmp(hash, ref_hash));
            qn_rules_free(r);
            continue;
        }
        nomem_ok(path, n, rc, &err);
        T_CHECK(r == NULL);
    }
    T_CHECK(points > 5);
    printf("load %s: %ld allocation failure points\n", path, points);
    /* the same text again, with memory: the same rule */
    if (qn_rules_load_buf(&r, text, len, path, &err) == QN_OK) {
        qn_rules_hash(r, hash);
        T_CHECK(!strcmp(hash, ref_hash));
        qn_rules_free(r);
    } else {
        T_FAILF("%s: no load after the sweep", path);
    }
    qn_rules_free(ref);
    free(text);
}

static void test_rules_load(void)
{
    for (size_t i = 0; i < sizeof(rule_files) / sizeof(*rule_files); i++)
        sweep_rules_load(rule_files[i]);
}

/* A malformed rule file still reads as malformed with memory to spare,
 * and as malformed or out of memory without: never as anything else. */
static void test_rules_bad(void)
{
    static const char bad[] = "quench: 1\nname: x\nboard: {grid: [5, 5]}\n"
                              "press: plus\npress: plus\n";
    qn_rules *r;
    qn_err err = QN_ERR_INIT;
    long n;

    T_EQ(qn_rules_load_buf(&r, bad, strlen(bad), "bad", &err), QN_ESYNTAX);
    for (n = 1; n < MAX_POINTS; n++) {
        long made;
        int rc;

        qn_err_clear(&err);
        t_fail_after(n);
        rc = qn_rules_load_buf(&r, bad, strlen(bad), "bad", &err);
        made = t_counted();
        t_fail_after(-1);
        T_CHECK(r == NULL);
        if (made < n) {
            T_EQ(rc, QN_ESYNTAX);
            break;
        }
        if (rc != QN_ESYNTAX)
            nomem_ok("bad rule", n, rc, &err);
    }
}

static void test_format_state(void)
{
    qn_rules *r;
    uint8_t cells[25] = {1, 0, 0, 0, 1};
    qn_buf ref = QN_BUF_INIT;
    long n;

    if (qn_rules_load_file(&r, "rules/classic-5x5.yaml", NULL) != QN_OK) {
        T_FAILF("cannot load classic 5x5");
        return;
    }
    qn_rules_format_state(r, &ref, cells, '/');
    T_CHECK(!strcmp(ref.buf, "10001/00000/00000/00000/00000"));
    for (n = 1; n < MAX_POINTS; n++) {
        qn_buf b = QN_BUF_INIT;
        long made;

        t_fail_after(n);
        qn_rules_format_state(r, &b, cells, '/');
        made = t_counted();
        t_fail_after(-1);
        if (made < n) {
            T_CHECK(!b.failed && !strcmp(b.buf, ref.buf));
            qn_buf_release(&b);
            break;
        }
        T_EQ(b.failed, 1);
        qn_buf_release(&b);
    }
    qn_buf_release(&ref);
    qn_rules_free(r);
}

/* A recipe (internal: the CLI's generate --recipe reads one). */
static void test_recipe_load(void)
{
    const char *path = "rules/campaigns/starter.yaml";
    char *text;
    size_t len;
    qn_recipe *ref, *r;
    qn_err err = QN_ERR_INIT;
    long n, points = 0;

    if (qn_file_read_all(&text, &len, path, 1 << 20, NULL) != QN_OK ||
        qn_recipe_load_buf(&ref, text, len, path, &err) != QN_OK) {
        T_FAILF("%s: cannot load (%s)", path, err.msg);
        return;
    }
    for (n = 1; n < MAX_POINTS; n++) {
        long made;
        int rc;

        qn_err_clear(&err);
        t_fail_after(n);
        rc = qn_recipe_load_buf(&r, text, len, path, &err);
        made = t_counted();
        t_fail_after(-1);
        if (rc == QN_OK) {
            T_CHECK(r->nsections == ref->nsections &&
                    !strcmp(r->hash, ref->hash) &&
                    !strcmp(r->sections[0].rules_path,
                            ref->sections[0].rules_path));
            qn_recipe_free(r);
        } else {
            nomem_ok(path, n, rc, &err);
            T_CHECK(r == NULL);
        }
        if (made < n) {
            T_EQ(rc, QN_OK);
            break;
        }
        points++;
    }
    T_CHECK(points > 5);
    printf("recipe %s: %ld allocation failure points\n", path, points);
    qn_recipe_free(ref);
    free(text);
}

int main(void)
{
    t_alloc_hook();
    test_allocator_checked();
    test_buf_sticky();
    test_rules_load();
    test_rules_bad();
    test_format_state();
    test_recipe_load();
    return t_done();
}
