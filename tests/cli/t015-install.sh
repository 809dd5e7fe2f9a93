#!/bin/sh
# t015: make install as a packager and a library user meet it (issue #32):
# each install's quench.pc names its own prefix (a second install with
# another PREFIX shipped the first one's paths), and a program using the
# installed library builds from pkg-config alone and runs.
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
expect_eq "$(./use "$TMP/b/share/quench/rules/classic-5x5.yaml")" \
    "25 cells, 2 colours" "the program reads the installed classic 5x5"
done_testing
