/*
 * quench/common.h: what every part of libquench shares: the export macro,
 * the error value, the growable buffer, the seed and the versions.
 *
 * Conventions of the whole API (docs/API.md):
 * - A fallible function returns an int: QN_OK (0) or a negative qn_code,
 *   and takes `qn_err *err` as its last parameter (may be NULL), filled in
 *   on failure with the code, a place (source:line:col when there is one)
 *   and a message. qn_err is a plain value: nothing to free.
 * - Ownership: a `**out` parameter receives an object the caller owns and
 *   frees with the matching _free/_close; every other pointer is borrowed
 *   for the call, or, where a comment says so, for the object's life.
 * - Threads: the library keeps no global state except what
 *   qn_rng_global_init sets up once. An object may be used by one thread
 *   at a time; the immutable ones (qn_rules, qn_solver) say so and may be
 *   shared. A qn_store is one SQLite connection: one per thread.
 */
#ifndef QN_PUBLIC_COMMON_H
#define QN_PUBLIC_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Marks the functions libquench.so exports (the library is built with
 * -fvisibility=hidden; everything else is internal). */
#if defined(__GNUC__) && __GNUC__ >= 4
#define QN_API __attribute__((visibility("default")))
#else
#define QN_API
#endif

#if defined(__GNUC__)
#define QN_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define QN_PRINTF(f, a)
#endif

typedef enum qn_code {
    QN_OK = 0,
    QN_ERR = -1,         /* unexpected / internal */
    QN_EIO = -2,         /* open/read/write failed; strerror(errno) in msg */
    QN_ESYNTAX = -3,     /* malformed YAML, state text or option value */
    QN_EINVAL = -4,      /* well-formed but violates the rules/schema */
    QN_ENOTFOUND = -5,   /* rule set or puzzle id missing; an input file
                            that cannot be opened (file.h) */
    QN_EUNSOLVABLE = -6, /* state has no solution under its rules */
    QN_EDB = -7,         /* SQLite failure; sqlite3_errmsg() in msg */
    QN_ELIMIT = -8,      /* input or search exceeds a documented limit */
    QN_EBUSY = -9,       /* resource busy (database locked): retry later */
    QN_ENEWER = -10,     /* database written by a newer quench */
    QN_ENOMEM = -11,     /* out of memory (quench's or a library's) */
} qn_code;

typedef struct qn_err {
    qn_code code;
    char source[256]; /* file name, "<stdin>", or "" */
    int line, col;    /* 1-based; 0 = unknown */
    char msg[256];    /* lowercase, no final period */
} qn_err;

#define QN_ERR_INIT                                                            \
    {                                                                          \
        QN_OK, "", 0, 0, ""                                                    \
    }

/* Reset *err to QN_OK with empty fields; NULL-safe. Thread-safe. */
QN_API void qn_err_clear(qn_err *err);

/* A short constant name for a code ("syntax error", "unsolvable", ...):
 * static storage, never NULL. Thread-safe. */
QN_API const char *qn_code_name(qn_code code);

/* Where the error is, as a message begins: "SOURCE:LINE:COL: ", or
 * "SOURCE: " without a line, or "" without a source; written into buf
 * (n bytes, cut short if need be, always NUL-terminated when n > 0). */
QN_API void qn_err_place(const qn_err *err, char *buf, size_t n);

/*
 * qn_buf: a growable byte buffer for text output. `buf` is always
 * NUL-terminated and `len` excludes the NUL; a buffer from QN_BUF_INIT
 * (or qn_buf_init) points at a shared empty string and owns nothing until
 * the first append. The caller owns a buffer and releases it with
 * qn_buf_release.
 *
 * Running out of memory is sticky (as git's strbuf): an append that cannot
 * allocate sets `failed` and leaves the contents as they were, and every
 * later append is a no-op until qn_buf_reset or qn_buf_release. So a
 * function that builds text appends without checking and looks at
 * `failed` once at the end; the library's functions that write into a
 * qn_buf return QN_ENOMEM (or, the void ones, leave `failed` set for the
 * caller to check).
 */
typedef struct qn_buf {
    char *buf;    /* NUL-terminated contents */
    size_t len;   /* bytes used, excluding the NUL */
    size_t alloc; /* bytes allocated; 0 = buf is the shared empty string */
    int failed;   /* 1: an append ran out of memory (see above) */
} qn_buf;

/* The shared empty string of unallocated buffers: never write to it. */
QN_API extern char qn_buf_empty[];
#define QN_BUF_INIT                                                            \
    {                                                                          \
        qn_buf_empty, 0, 0, 0                                                  \
    }

QN_API void qn_buf_init(qn_buf *b);
/* Free the contents; b is left as from qn_buf_init. */
QN_API void qn_buf_release(qn_buf *b);
/* len = 0 and failed = 0; keeps the allocation. */
QN_API void qn_buf_reset(qn_buf *b);
/* Append len bytes / a NUL-terminated string (sticky on failure). */
QN_API void qn_buf_add(qn_buf *b, const void *data, size_t len);
QN_API void qn_buf_adds(qn_buf *b, const char *s);
/* Hand the contents to the caller (free() them); b is left empty.
 * *len_out (may be NULL) gets the length. NULL (and b released) when
 * the buffer failed or the empty result cannot be allocated. */
QN_API char *qn_buf_detach(qn_buf *b, size_t *len_out);

/*
 * The allocator: every allocation of libquench goes through these three
 * functions (the C library's malloc, calloc and realloc by default). They
 * may count, limit or fail allocations (a test injecting failures, a game
 * with a memory budget) but must hand out memory that the C library's
 * free() releases: the library, and its callers (qn_buf_detach), release
 * with free(). A failed allocation is reported as QN_ENOMEM by the public
 * function that met it, its objects left valid; the library never exits
 * (the layers not converted yet still do: docs/API.md "Out of memory").
 * Call qn_set_allocator before any other libquench call, from one thread;
 * a NULL `a` restores the default. `libs`: QN_ALLOC_JANSSON routes
 * jansson's allocations through it too (process-wide: jansson has one
 * allocator). SQLite's own allocations follow with qn_store_use_allocator
 * (quench/db.h). QN_OK, or QN_EINVAL when a function is missing.
 */
typedef struct qn_allocator {
    void *(*malloc_fn)(size_t size);
    void *(*calloc_fn)(size_t n, size_t size);
    void *(*realloc_fn)(void *p, size_t size);
} qn_allocator;

#define QN_ALLOC_JANSSON 1u

QN_API int qn_set_allocator(const qn_allocator *a, unsigned libs, qn_err *err);

/*
 * Seeds: a batch seed of up to 256 bits determines a generation run
 * (quench/generate.h). qn_rng_global_init must run once, before any
 * other call that draws (generation), from one thread: it initialises
 * libsodium. QN_OK or QN_ERR.
 */
#define QN_SEED_BYTES 32

typedef struct qn_seed {
    uint8_t b[QN_SEED_BYTES]; /* the seed as a 256-bit big-endian number */
} qn_seed;

QN_API int qn_rng_global_init(qn_err *err);
/* Parse 1..64 hex digits (optional 0x): QN_OK or QN_ESYNTAX. */
QN_API int qn_seed_parse(qn_seed *out, const char *hex, qn_err *err);
/* A fresh random seed (the operating system's randomness). */
QN_API void qn_seed_random(qn_seed *out);
/* The seed as 64 lowercase hex digits and a NUL. */
QN_API void qn_seed_format(const qn_seed *seed, char hex_out[65]);

/* Versions (static strings): quench's own and those of the libraries it
 * runs on (SQLite, libyaml, libsodium, jansson). Thread-safe. */
QN_API const char *qn_version(void);
QN_API const char *qn_version_sqlite(void);
QN_API const char *qn_version_yaml(void);
QN_API const char *qn_version_sodium(void);
QN_API const char *qn_version_jansson(void);

/* Minimal presses of one state (see quench/solve.h): defined here, below
 * the layers that compute them. */
/* Default walk limit: 2^30 coset elements (a few seconds for k = 2). */
#define QN_MINPRESS_DEFAULT_LIMIT ((uint64_t)1 << 30)

typedef struct qn_minpress {
    uint64_t presses;    /* least total clicks sum(x_i) over all solutions */
    uint64_t noptimal;   /* how many solutions attain it */
    uint64_t nsolutions; /* size of the coset (= kernel size) */
    int exact;           /* 1: walked the whole coset; 0: past the walk
                            limit, presses not proven minimal */
} qn_minpress;

#endif
