#!/bin/sh
# tier: full (every allocation of three example programs, one run each)
# The allocation-failure sweep over the library calls of examples/ (issue
# #32 section 2): each example, linked with tests/fail_main.c, runs failing
# its N-th allocation for N = 1, 2, ... until a run meets no failure. A
# run must end as the clean run did (a failure the library recovered
# from) or say "out of memory" and end with the example's error status
# (2: the library returned QN_ENOMEM); never a signal, never a sanitizer
# report. A run where the library itself ended the process (status 71,
# "quench: out of memory": what a layer did before it returned
# QN_ENOMEM) fails.
. "$(dirname "$0")/lib.sh"

san=
[ "${VARIANT:-release}" != san ] ||
    san="-fsanitize=address,undefined -fno-sanitize-recover=all"
libs=$(pkg-config --libs sqlite3 yaml-0.1 libsodium jansson libpng)
for ex in solve generate validate; do
    # shellcheck disable=SC2086
    cc $san -std=c11 -Wall -Wextra -I"$TOP/include" -Dmain=example_main \
        -c -o "ex_$ex.o" "$TOP/examples/$ex.c" 2>"$TMP/err" &&
        cc $san -std=c11 -Wall -Wextra -I"$TOP/include" -o "ex_$ex" \
            "ex_$ex.o" "$TOP/tests/fail_main.c" "$OUT/libquench.a" $libs \
            -lm -pthread 2>>"$TMP/err"
    expect_eq "$?:$(head -c 300 "$TMP/err")" "0:" "examples/$ex.c builds"
done

rules=$TOP/rules/classic-5x5.yaml
printf '10000/00000/00000/00000/00000\n11000/10000/00000/00000/00000\n' \
    >subs.txt

# sweep NAME STATUS ARGS...: the sweep of ./ex_NAME ARGS, whose clean run
# ends with STATUS (in a fresh directory each run: validate writes a
# database)
sweep() {
    name=$1 want=$2
    shift 2
    rm -rf w && mkdir w && (cd w && "../ex_$name" "$@" >../ref.out 2>../ref.err)
    ref=$?
    expect_eq "$ref" "$want" "ex_$name $*: the clean run ($(head -c 200 ref.err))"
    n=1 bad=0 exited=0 returned=0
    while [ $n -lt 100000 ]; do
        rm -rf w && mkdir w
        (cd w && QN_FAIL_ALLOC=$n "../ex_$name" "$@" >../out 2>../err)
        rc=$?
        grep -q "injected allocation failure" err || break
        if grep -qE "Sanitizer|runtime error" err || [ $rc -ge 128 ]; then
            bad=$((bad + 1))
            echo "ex_$name, allocation $n failing: status $rc: $(head -c 300 err)"
        elif [ $rc -eq 71 ] && grep -q "^quench: out of memory" err; then
            exited=$((exited + 1))
        elif [ $rc -eq 2 ] && grep -q "out of memory" err; then
            returned=$((returned + 1))
        elif [ $rc -ne $ref ] || ! cmp -s out ref.out; then
            bad=$((bad + 1))
            echo "ex_$name, allocation $n failing: status $rc (clean: $ref), or other output: $(head -c 300 err)"
        fi
        n=$((n + 1))
    done
    echo "ex_$name: $((n - 1)) failure points: $returned QN_ENOMEM," \
        "$exited exits in the library, $bad wrong"
    expect_eq "$bad" 0 "ex_$name $*: every failure point ends cleanly"
    expect_eq "$exited" 0 "ex_$name $*: the library never ends the process"
    expect_eq "$([ $n -gt 5 ] && echo swept)" swept "ex_$name: points met"
}
# solvable (0) and unsolvable (1, with the explanation)
sweep solve 0 "$rules" 11000/10000/00000/00000/00000
sweep solve 1 "$rules" 10000/00000/00000/00000/00000
sweep generate 0 "$rules" 2026
sweep validate 0 "$rules" "$TMP/subs.txt" v.db p

done_testing
