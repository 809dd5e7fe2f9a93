/*
 * fail_main.c: runs one of examples/ (built with -Dmain=example_main)
 * with the N-th allocation failing when QN_FAIL_ALLOC=N is set, through
 * the public allocator hook as a program embedding libquench would
 * (tests/unit/tfail.h): "injected allocation failure N" goes to stderr as
 * it fails, so the sweep knows N is not past the last allocation.
 * jansson's allocations are counted too. The sweep:
 * tests/cli/t445-examples-nomem.sh.
 */
#include <stdlib.h>

#include <quench.h>

#include "unit/tfail.h"

int example_main(int argc, char **argv);

int main(int argc, char **argv)
{
    const char *n = getenv("QN_FAIL_ALLOC");

    t_alloc_hook();
    t_fail_say = 1;
    if (n)
        t_fail_after(atol(n));
    return example_main(argc, argv);
}
