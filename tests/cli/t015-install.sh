#!/bin/sh
# t015: make install as a packager and a library user meet it (issue #32):
# each install's quench.pc names its own prefix (a second install with
# another PREFIX shipped the first one's paths), only the public headers
# are installed, libquench.so exports only their QN_API functions, and a
# program using the installed library builds from pkg-config alone and
# runs, linked to the shared library and statically; so do examples/.
. "$(dirname "$0")/lib.sh"

# the tests run under make check: this make is a fresh one
unset MAKEFLAGS MAKELEVEL MFLAGS
minstall() { # PREFIX
    make -s -C "$TOP" install VARIANT="${VARIANT:-release}" PREFIX="$1" \
        >"$TMP/make.log" 2>&1
}
minstall "$TMP/a"
expect_eq "$?" 0 "make install PREFIX=a"
minstall "$TMP/b"
expect_eq "$?" 0 "make install PREFIX=b"
for p in a b; do
    expect_eq "$(sed -n 's/^prefix=//p' "$TMP/$p/lib/pkgconfig/quench.pc")" \
        "$TMP/$p" "the quench.pc installed under $p names $p"
done

# A user's program: load an installed rule file, report its cells and
# colours. Static linking needs the dependencies (Requires.private).
cat >use.c <<'EOF'
#include <stdio.h>
#include <quench.h>

int main(int argc, char **argv)
{
    qn_rules *r;
    qn_err err = QN_ERR_INIT;

    if (argc != 2 || qn_rules_load_file(&r, argv[1], &err) != QN_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    printf("%d cells, %u colours\n", qn_rules_ncells(r), qn_rules_colours(r));
    qn_rules_free(r);
    return 0;
}
EOF
# an instrumented library needs its sanitizer runtime at link time
san=
[ "${VARIANT:-release}" != san ] ||
    san="-fsanitize=address,undefined -fno-sanitize-recover=all"
flags=$(PKG_CONFIG_PATH="$TMP/b/lib/pkgconfig" pkg-config --static \
    --cflags --libs quench)
expect_eq "$?" 0 "pkg-config --static --cflags --libs quench"
# shellcheck disable=SC2086
cc $san -o use use.c $flags 2>"$TMP/err"
expect_eq "$?" 0 "cc use.c \$(pkg-config --static --cflags --libs quench) ($(head -c 300 "$TMP/err"))"
expect_eq "$(LD_LIBRARY_PATH="$TMP/b/lib" \
    ./use "$TMP/b/share/quench/rules/classic-5x5.yaml")" \
    "25 cells, 2 colours" "the program reads the installed classic 5x5"
version=$(sed -n 's/^VERSION = //p' "$TOP/Makefile")

# What is installed: the shared library with its links, the archive, and
# the public headers only (quench.h and quench/*.h, none of src/).
for p in a b; do
    lib=$TMP/$p/lib
    expect_eq "$(readlink "$lib/libquench.so")" libquench.so.0 \
        "$p: libquench.so -> libquench.so.0"
    expect_eq "$(readlink "$lib/libquench.so.0")" "libquench.so.$version" \
        "$p: libquench.so.0 -> libquench.so.VERSION"
    expect_eq "$(readelf -d "$lib/libquench.so" |
        sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')" libquench.so.0 \
        "$p: SONAME"
    expect_eq "$([ -f "$lib/libquench.a" ] && echo yes)" yes "$p: the archive"
    expect_eq "$(cd "$TMP/$p/include" && echo *.h quench/*)" \
        "quench.h quench/common.h quench/db.h quench/generate.h quench/pack.h quench/ruleset.h quench/solve.h quench/validate.h" \
        "$p: the public headers and no other"
done
# Exported: exactly the functions (and qn_buf_empty) the headers mark
# QN_API, each one documented by a comment above it in its header.
sed -n 's/^QN_API[^(;[]*[ *]\([a-z_0-9]*\)[(;[].*/\1/p' \
    "$TMP"/b/include/quench/*.h | sort >api.txt
# (a sanitizer build also exports ASan's __odr_asan.* markers: not API)
nm -D --defined-only "$TMP/b/lib/libquench.so" | awk '{ print $3 }' |
    grep -v '^__odr_asan\.' | sort >exported.txt
expect_eq "$(comm -3 api.txt exported.txt | tr -d '\t' | tr '\n' ' ')" "" \
    "nm -D lists exactly the QN_API names ($(wc -l <api.txt | tr -d ' '))"
expect_eq "$(grep -c '^qn_' exported.txt)" "$(wc -l <exported.txt)" \
    "every exported name is qn_"

# Shared: cc use.c $(pkg-config --cflags --libs quench) alone, run with
# the library found by LD_LIBRARY_PATH; built against install b, it runs
# on install a's library too (the same SONAME).
flags=$(PKG_CONFIG_PATH="$TMP/b/lib/pkgconfig" pkg-config --cflags --libs \
    quench)
# shellcheck disable=SC2086
cc $san -o use_dyn use.c $flags 2>"$TMP/err"
expect_eq "$?" 0 "cc use.c \$(pkg-config --cflags --libs quench) ($(head -c 300 "$TMP/err"))"
expect_eq "$(readelf -d use_dyn | grep -c 'NEEDED.*libquench.so.0')" 1 \
    "the program needs libquench.so.0"
for p in a b; do
    expect_eq "$(LD_LIBRARY_PATH="$TMP/$p/lib" ./use_dyn \
        "$TOP/rules/classic-5x5.yaml")" "25 cells, 2 colours" \
        "the shared program runs on install $p's library"
done
# Static: with the archive and Requires.private, no libquench.so needed.
if [ "${VARIANT:-release}" != san ]; then
    flags=$(PKG_CONFIG_PATH="$TMP/a/lib/pkgconfig" pkg-config --static \
        --cflags --libs quench)
    # shellcheck disable=SC2086
    cc -static -o use_static use.c $flags 2>"$TMP/err"
    expect_eq "$?" 0 "cc -static use.c \$(pkg-config --static ...) ($(head -c 300 "$TMP/err"))"
    expect_eq "$(readelf -d use_static 2>/dev/null | grep -c NEEDED)" 0 \
        "the static program needs no shared library"
    expect_eq "$(./use_static "$TOP/rules/classic-5x5.yaml")" \
        "25 cells, 2 colours" "the static program runs"
fi

# examples/: each builds with only pkg-config against install b and runs.
export LD_LIBRARY_PATH="$TMP/b/lib"
flags=$(PKG_CONFIG_PATH="$TMP/b/lib/pkgconfig" pkg-config --cflags --libs \
    quench)
for ex in solve generate validate; do
    # shellcheck disable=SC2086
    cc $san -Wall -Wextra -o "ex_$ex" "$TOP/examples/$ex.c" $flags \
        2>"$TMP/err"
    expect_eq "$?:$(head -c 300 "$TMP/err")" "0:" "examples/$ex.c builds"
done
rules=$TOP/rules/classic-5x5.yaml
# Pressing (0,0) lights exactly (0,0), (0,1) and (1,0): one press solves
# that state, and no fewer can (it is not the goal).
./ex_solve "$rules" 11000/10000/00000/00000/00000 >out
expect_eq "$(sed -n 1p out)" "min_presses 1" "solve: one press"
expect_eq "$(sed -n 2p out)" \
    "solution 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0" \
    "solve: press the corner"
# the answer matches quench solve's on a harder state
st=10101/01010/10101/01010/10101
./ex_solve "$rules" "$st" >out
"$QUENCH" solve "$rules" --state "$st" --json >q.json
expect_eq "$(sed -n 's/^min_presses //p' out)" \
    "$(sed 's/.*"min_presses":\([0-9]*\).*/\1/' q.json)" \
    "solve: min presses as quench solve"
expect_eq "$(sed -n 's/^solution //p' out)" \
    "$(sed 's/.*"solution":\[\([0-9,]*\)\].*/\1/' q.json)" \
    "solve: the plan as quench solve"
# A lone lit corner of the 5x5 board is unsolvable (it is not orthogonal
# to the quiet patterns): exit 1.
./ex_solve "$rules" 10000/00000/00000/00000/00000 >out
expect_eq "$?:$(sed -n 1p out)" "1:unsolvable" "solve: a lone corner"

./ex_generate "$rules" 2026 >gen.txt
expect_eq "$?:$(wc -l <gen.txt | tr -d ' ')" "0:10" "generate: ten lines"
expect_eq "$(cut -d' ' -f1 gen.txt | sort -u | wc -l | tr -d ' ')" 10 \
    "generate: ten distinct states"
bad=0
while read -r state presses id; do
    "$QUENCH" solve "$rules" --state "$state" --json >q.json
    [ "$(sed 's/.*"min_presses":\([0-9]*\).*/\1/' q.json)" = "$presses" ] ||
        bad=$((bad + 1))
    [ "${#id}" = 16 ] || bad=$((bad + 1))
done <gen.txt
expect_eq "$bad" 0 "generate: each puzzle's presses are quench solve's"
./ex_generate "$rules" 2026 >gen2.txt
expect_eq "$(cmp gen.txt gen2.txt && echo same)" same "generate: same seed"

# validate: an ok puzzle, an unsolvable one, a malformed line, the first
# again: the verdicts are quench validate's, and the pack holds the one.
{ sed -n 1p gen.txt | cut -d' ' -f1; echo 10000/00000/00000/00000/00000
  echo 1x000/00000/00000/00000/00000; sed -n 1p gen.txt | cut -d' ' -f1
} >subs.txt
./ex_validate "$rules" subs.txt ex.db starter >val.txt
expect_eq "$?" 0 "validate: runs"
expect_eq "$(tail -n 1 val.txt)" "stored 1" "validate: stores the ok one"
"$QUENCH" validate "$rules" subs.txt >qval.txt
expect_eq "$(sed '$d' val.txt | cut -f3)" "$(cut -f3 qval.txt)" \
    "validate: the verdicts of quench validate"
expect_eq "$(cut -f3 qval.txt | tr '\n' ' ')" \
    "ok unsolvable malformed duplicate " "validate: the verdicts"
"$QUENCH" pack show starter --db ex.db --json >pack.json
expect_eq "$(grep -o "$(sed -n 1p gen.txt | cut -d' ' -f3)" pack.json |
    sort -u)" "$(sed -n 1p gen.txt | cut -d' ' -f3)" \
    "validate: the pack holds the puzzle"
./ex_validate "$rules" subs.txt ex.db starter >val.txt
expect_eq "$(tail -n 1 val.txt)" "stored 0" "validate: again, nothing new"
done_testing
