#!/bin/sh
# t010: the layering check (tests/deps.py, issue #18) catches what it is
# for. make check runs it on the tree and its objects (check-deps); here it
# runs on a copy of the tree with one violation planted at a time, and on
# tiny objects that use each other, and must fail naming the place.
. "$(dirname "$0")/lib.sh"

fresh() { # a pristine copy of the checked tree in $TMP/tree
    rm -rf tree
    mkdir -p tree/tests
    cp -R "$TOP/src" "$TOP/include" "$TOP/cmd" tree/
    cp "$TOP/tests/deps.py" tree/tests/
}
deps() { # run the check on the copy; sets $rc, output in $TMP/err
    python3 tree/tests/deps.py "$@" >"$TMP/err" 2>&1
    rc=$?
}
plant() { # FILE LINE: add LINE after FILE's first #include
    awk -v add="$2" '{ print } /^#include/ && !done { print add; done = 1 }' \
        "tree/$1" >tree/x && mv tree/x "tree/$1"
}
line_of() { # FILE TEXT: the line number of TEXT in the copy
    grep -nF -- "$2" "tree/$1" | head -n 1 | cut -d: -f1
}

fresh
deps
expect_rc 0 "the tree's includes pass"
expect_err "layering and cycles ok" "says what it checked"

# a low folder includes a high one
fresh
plant src/base/mem.c '#include "store/store.h"'
deps
expect_rc 1 "base includes store"
n=$(line_of src/base/mem.c '#include "store/store.h"')
expect_err "src/base/mem.c:$n: #include \"store/store.h\": src/base/ may not use src/store/" \
    "names the file, line and include"

# ... and through the public header of the store
fresh
plant src/base/mem.c '#include "quench/db.h"'
deps
expect_rc 1 "base includes quench/db.h"
expect_err "src/base/ may not use src/store/" "public header of a higher folder"

# the store includes the generator (STYLE.md's example)
fresh
plant src/store/store_names.c '#include "generate/gen.h"'
deps
expect_rc 1 "store includes gen"
expect_err "src/store/ may not use src/generate/" "store -> generate"

# a public header pulls in a higher layer
fresh
plant include/quench/common.h '#include "quench/pack.h"'
deps
expect_rc 1 "a base header includes export"
expect_err "include/quench/common.h:" "names the header"

# a public header includes an internal one
fresh
plant include/quench/ruleset.h '#include "rules/layout.h"'
deps
expect_rc 1 "a public header includes an internal one"
expect_err "a public header includes only public headers" "public -> internal"

# an internal header of a higher folder
fresh
plant src/rules/rules.h '#include "solve/solver.h"'
deps
expect_rc 1 "rules header includes solve"
expect_err "src/rules/ may not use src/solve/" "internal header include"

# a third-party header outside its file
fresh
plant src/generate/gen.c '#include <sqlite3.h>'
deps
expect_rc 1 "sqlite3.h in the generator"
expect_err "<sqlite3.h> belongs in" "third-party header"

# a private header from another folder
fresh
plant src/export/svg.c '#include "store_internal.h"'
deps
expect_rc 1 "another folder's private header"
expect_err "a private header must sit beside" "private header"

# a header left out of the umbrella
fresh
grep -v 'quench/solve.h' tree/include/quench.h >tree/x
mv tree/x tree/include/quench.h
deps
expect_rc 1 "umbrella incomplete"
expect_err "does not include quench/solve.h" "umbrella"

# a file that has grown past 900 lines
fresh
awk '{ print } END { for (i = 0; i < 900; i++) print "/* grown */" }' \
    tree/src/base/buf.c >tree/x && mv tree/x tree/src/base/buf.c
n=$(wc -l <tree/src/base/buf.c | tr -d ' ')
deps
expect_rc 1 "a file over 900 lines"
expect_err "src/base/buf.c: $n lines, over 900" "names the file and its size"

# objects: two files that use each other, and a base file that uses the
# store through a declaration of its own (no include to see)
fresh
mkdir -p obj/src/base obj/src/store
printf 'int qn_b(void);\nint qn_a(void) { return qn_b(); }\n' >a.c
printf 'int qn_a(void);\nint qn_b(void) { return qn_a() + 1; }\n' >b.c
printf 'int qn_s(void);\nint qn_c(void) { return qn_s(); }\n' >c.c
printf 'int qn_s(void) { return 1; }\n' >s.c
cc -c a.c -o obj/src/base/a.o && cc -c b.c -o obj/src/base/b.o &&
    cc -c c.c -o obj/src/base/c.o && cc -c s.c -o obj/src/store/s.o
deps obj
expect_rc 1 "objects with a cycle"
expect_err "cycle: src/base/a.c (qn_b) -> src/base/b.c (qn_a) -> back to src/base/a.c" \
    "names the cycle and the symbols"
expect_err "src/base/c.c: uses qn_s of src/store/s.c: src/base/ may not use src/store/" \
    "a use the includes hide"
rm obj/src/base/b.o obj/src/base/c.o
deps obj
expect_rc 0 "no cycle once one side goes"

done_testing
