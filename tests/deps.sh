#!/bin/sh
# The include-layering check (STYLE.md section 2): each third-party header is
# included from exactly one library file, src/ never includes cmd/, and
# lower layers never include higher ones.
set -u
cd "$(dirname "$0")/.."
bad=0
only_in() { # header, allowed file(s) regex
    hits=$(grep -l "#include <$1" src/*.c src/*.h cmd/*.c cmd/*.h \
             include/quench/*.h 2>/dev/null | grep -v -E "$2")
    if [ -n "$hits" ]; then
        echo "deps: <$1> included outside $2: $hits"
        bad=1
    fi
}
only_in yaml.h 'src/rules_yaml\.c'
only_in sqlite3.h 'src/store[a-z_]*\.c'
only_in sodium.h 'src/(rng|hash)\.c'
only_in jansson.h 'src/json[a-z_]*\.c'
if grep -l '#include "\(\.\./\)*cmd/' src/*.c src/*.h 2>/dev/null; then
    echo "deps: src/ includes cmd/"; bad=1
fi
for low in err mem buf gf2 zk; do
    f=src/$low.c
    [ -e "$f" ] || continue
    if grep -E '#include "quench/(rules|state|system|solve|gen|grade|store|export)' "$f"; then
        echo "deps: $f (math/base layer) includes a higher layer"; bad=1
    fi
done
if grep -E '#include "quench/gen' src/store*.c 2>/dev/null; then
    echo "deps: the store includes the generator"; bad=1
fi
exit $bad
