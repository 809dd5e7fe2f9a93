/*
 * test_canon.c: distances between puzzles up to symmetry
 * (qn_canon_distance) and canonical forms by table (qn_canon_form_table),
 * checked against the square's eight rigid motions written out here,
 * apart from the rule's own symmetry group: classic Lights Out on an
 * n x n board has exactly the dihedral group D4. On other rules the
 * table must agree with qn_canon_form, or decline.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/canon.h"
#include "rules/puzzle_id.h"
#include "rules/rules.h"
#include "t.h"

#define N 5
#define CELLS (N * N)

/* Cell of (row, col) after motion m of the square (0..7). */
static int motion(int m, int row, int col)
{
    int r = row, c = col, t;

    for (int i = 0; i < (m & 3); i++) { /* quarter turns */
        t = r;
        r = c;
        c = N - 1 - t;
    }
    if (m & 4)
        c = N - 1 - c; /* mirror */
    return r * N + c;
}

static void apply(int m, uint8_t *out, const uint8_t *s)
{
    for (int row = 0; row < N; row++)
        for (int col = 0; col < N; col++)
            out[motion(m, row, col)] = s[row * N + col];
}

/* The definition, by brute force over the eight motions. */
static int brute(const uint8_t *a, const uint8_t *b)
{
    uint8_t img[CELLS];
    int best = CELLS;

    for (int m = 0; m < 8; m++) {
        int d = 0;
        apply(m, img, b);
        for (int j = 0; j < CELLS; j++)
            d += a[j] != img[j];
        if (d < best)
            best = d;
    }
    return best;
}

static void random_state(uint8_t *s, unsigned *seed)
{
    for (int j = 0; j < CELLS; j++)
        s[j] = (uint8_t)((*seed = *seed * 1103515245u + 12345u) >> 16 & 1);
}

/* The canonical form by definition: the smallest of the eight images. */
static void brute_canon(uint8_t *out, const uint8_t *s)
{
    uint8_t img[CELLS];

    for (int m = 0; m < 8; m++) {
        apply(m, img, s);
        if (m == 0 || memcmp(img, out, CELLS) < 0)
            memcpy(out, img, CELLS);
    }
}

static void test_table_5x5(const qn_rules *r)
{
    qn_canon_table *t;
    uint8_t s[CELLS], want[CELLS], got[CELLS], img[CELLS];
    unsigned seed = 24;
    int bad = 0, moved = 0;

    T_EQ(qn_canon_table_new(&t, r, NULL), QN_OK);
    T_CHECK(t != NULL);
    for (int i = 0; i < 20000; i++) {
        random_state(s, &seed);
        if (i % 3 == 0) /* symmetric states too: ties between images */
            for (int j = 0; j < CELLS; j++)
                s[motion(4, j / N, j % N)] = s[j];
        brute_canon(want, s);
        size_t g = qn_canon_form_table(t, r, got, s);
        bad += memcmp(got, want, CELLS) != 0;
        bad += g != qn_canon_form(r, img, s);
        moved += g != 0;
    }
    T_EQ(bad, 0);
    T_CHECK(moved > 10000);
    qn_canon_table_free(t);
}

/* The form and id from bits (qn_canon_bits_table, qn_puzzle_id_bits)
 * against the cells' (want: s's form by qn_canon_form); the bits past
 * the state's cells set from noise, which must not matter. */
static int bits_differ(const qn_canon_table *t, const qn_rules *r,
                       const uint8_t *s, const uint8_t *want, unsigned noise)
{
    int n = qn_rules_ncells(r), bad = 0;
    uint64_t m = n < 64 ? (uint64_t)noise << n : 0, form;
    qn_puzzle_id_key key;
    char hash[65];

    for (int j = 0; j < n; j++)
        m |= (uint64_t)s[j] << j;
    form = qn_canon_bits_table(t, m);
    for (int j = 0; j < n; j++)
        bad += (form >> (n - 1 - j) & 1) != want[j];
    bad += n < 64 && form >> n != 0;
    qn_rules_hash(r, hash);
    qn_puzzle_id_key_init(&key, hash);
    bad += qn_puzzle_id_bits(&key, form, n) != qn_puzzle_id(&key, want, n);
    return bad;
}

/* Every shipped rule: the table gives qn_canon_form's answer, or there is
 * none (more colours, cells or symmetries than it takes). */
static void test_table_rules(void)
{
    static const char *const files[] = {
        "rules/classic-3x3.yaml", "rules/classic-7x7.yaml",
        "rules/classic-9x9.yaml", "rules/cross-7x7.yaml",
        "rules/hexagon-3.yaml",   "rules/moore-6x6.yaml",
        "rules/torus-5x5.yaml",   "rules/whack-a-mole-4x4.yaml",
        "rules/ring6-mod8.yaml",  "rules/merlin.yaml"};
    int tabled = 0;

    for (size_t f = 0; f < sizeof(files) / sizeof(*files); f++) {
        qn_rules *r = NULL;
        qn_canon_table *t;
        uint8_t s[4096], want[4096], got[4096];
        unsigned seed = 5;
        int n, bad = 0;
        unsigned k;

        if (qn_rules_load_file(&r, files[f], NULL) != QN_OK) {
            T_FAILF("%s does not load", files[f]);
            continue;
        }
        n = qn_rules_ncells(r);
        k = qn_rules_colours(r);
        T_EQ(qn_canon_table_new(&t, r, NULL), QN_OK);
        T_CHECK((t != NULL) == (k == 2 && n <= 64 && qn_rules_nsyms(r) > 1 &&
                                qn_rules_nsyms(r) <= 16));
        tabled += t != NULL;
        for (int i = 0; i < 2000; i++) {
            for (int j = 0; j < n; j++)
                s[j] =
                    (uint8_t)(((seed = seed * 1103515245u + 12345u) >> 16) % k);
            bad +=
                qn_canon_form_table(t, r, got, s) != qn_canon_form(r, want, s);
            bad += memcmp(got, want, (size_t)n) != 0;
            if (t)
                bad += bits_differ(t, r, s, want, seed);
        }
        if (bad)
            T_FAILF("%s: %d differences from qn_canon_form", files[f], bad);
        qn_canon_table_free(t);
        qn_rules_free(r);
    }
    T_CHECK(tabled >= 5);
}

/*
 * qn_seen against a list searched by hand: 6000 random 12-cell states
 * mod 3 with 8 cells free (about a third repeats), added to a set left
 * to grow, one reserved for them all before the first and one reserved
 * midway. Each add says new or not and names the first payload as the
 * list does.
 */
static void test_seen_reserve(void)
{
    enum { SN = 6000, SC = 12 };
    static uint8_t list[SN][SC];
    qn_seen *set[3];
    unsigned seed = 11;
    int bad = 0, repeats = 0;

    for (int k = 0; k < 3; k++)
        set[k] = qn_seen_new(SC, 3, NULL);
    T_CHECK(set[0] && set[1] && set[2]);
    if (!set[0] || !set[1] || !set[2])
        goto out;
    T_EQ(qn_seen_reserve(set[1], SN), QN_OK);
    for (int i = 0; i < SN; i++) {
        int first = -1;
        for (int c = 0; c < SC; c++) /* 3^8 states: repeats happen */
            list[i][c] = (uint8_t)(c < 4 ? 0 : rand_r(&seed) % 3);
        for (int j = 0; j < i && first < 0; j++)
            if (!memcmp(list[j], list[i], SC))
                first = j;
        repeats += first >= 0;
        if (i == SN / 2)
            T_EQ(qn_seen_reserve(set[2], 2 * SN), QN_OK);
        for (int k = 0; k < 3; k++) {
            uint64_t got = UINT64_MAX;
            int added = qn_seen_add(set[k], list[i], (uint64_t)i, &got);
            bad += added != (first < 0);
            bad += first >= 0 && got != (uint64_t)first;
        }
    }
    T_EQ(bad, 0);
    T_CHECK(repeats > SN / 10);
    for (int k = 0; k < 3; k++)
        T_EQ(qn_seen_count(set[k]), (size_t)(SN - repeats));
out:
    for (int k = 0; k < 3; k++)
        qn_seen_free(set[k]);
}

int main(void)
{
    qn_rules *r = NULL;
    qn_err err = QN_ERR_INIT;
    uint8_t a[CELLS], b[CELLS], img[CELLS];
    unsigned seed = 7;
    int bad[5] = {0, 0, 0, 0, 0}, near = 0;

    if (qn_rules_load_file(&r, "rules/classic-5x5.yaml", &err) != QN_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    T_EQ(qn_rules_nsyms(r), 8);
    for (int i = 0; i < 2000; i++) {
        random_state(a, &seed);
        random_state(b, &seed);
        if (i % 4 == 0) { /* near pairs too: b an image of a, a cell off */
            apply(i / 4 % 8, b, a);
            b[i % CELLS] ^= 1;
        }
        int d = qn_canon_distance(r, a, b, CELLS + 1);
        bad[0] += d != brute(a, b);
        bad[1] += d != qn_canon_distance(r, b, a, CELLS + 1);
        bad[2] += qn_canon_distance(r, a, b, 3) != (d < 3 ? d : 3);
        apply(i % 8, img, a);
        bad[3] += qn_canon_distance(r, img, a, CELLS + 1) != 0;
        bad[4] += qn_canon_distance(r, img, b, CELLS + 1) != d;
        near += d == 1;
    }
    T_EQ(bad[0], 0);      /* the definition */
    T_EQ(bad[1], 0);      /* symmetric */
    T_EQ(bad[2], 0);      /* stops at the limit */
    T_EQ(bad[3], 0);      /* an image is the same puzzle */
    T_EQ(bad[4], 0);      /* the same for images */
    T_CHECK(near >= 400); /* the near pairs were near */
    test_table_5x5(r);
    test_table_rules();
    test_seen_reserve();
    qn_rules_free(r);
    return t_done();
}
