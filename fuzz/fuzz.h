/* fuzz.h: shared bits of the libFuzzer targets (fuzz/fuzz_*.c). */
#ifndef QN_FUZZ_H
#define QN_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FUZZ_MAX_INPUT (64 * 1024) /* bytes: longer inputs are ignored */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* abort() with a message when an invariant does not hold. */
#define FUZZ_ASSERT(c)                                                         \
    do {                                                                       \
        if (!(c)) {                                                            \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__,         \
                    __LINE__, #c);                                             \
            abort();                                                           \
        }                                                                      \
    } while (0)

#endif
