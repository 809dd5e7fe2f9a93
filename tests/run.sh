#!/bin/sh
# tests/run.sh [-j N] [-d DIR]... [--fast] [--only PATTERN] [--res FILE]
#              [UNIT...]: run every unit-test program given as arguments,
# then every tNNN-*.sh in each DIR (default tests/cli), N at a time
# (default: the number of cores), and print one total line "N passed, N
# failed". Exit 1 on any failure. Environment: QUENCH (binary under test),
# OUT (build directory), QN_PYTHON3 (the python3 interpreter the tests
# run; found behind python3 when unset).
#
#   --fast          leave out the tests of the full tier: a script with a
#                   line "# tier: full (why)", a unit program whose source
#                   (tests/unit/NAME.c) has a line "/* tier: full (why) */"
#                   (make test; make check runs every tier)
#   --only PATTERN  run only the tests whose name contains PATTERN (a
#                   shell pattern: "t545", "test_st*"; "t530|t470" is
#                   either), in every tier
#   --res FILE      count FILE's "PASSED FAILED" (a check run before this
#                   one, the determinism matrix) in the total
#
# Each test runs in its own temporary directory and writes only there, so
# tests can run side by side; a result line is printed as each one ends and
# the slowest start first, so a 2-core machine finishes in about half the
# time of one after another.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)

# --one WORK INDEX TEST: run one test (a program, or a .sh script) from the
# top directory; its output goes to WORK/INDEX.log, "passed failed secs" to
# WORK/INDEX.res, and one line "ok ..." or "FAIL ..." to stdout.
if [ "${1:-}" = --one ]; then
    work=$2 idx=$3 t=$4
    case $t in
        *.sh) name=$(basename "$(dirname "$t")")/$(basename "$t") ;;
        *) name=$(basename "$t") ;;
    esac
    log=$work/$idx.log
    t0=$(date +%s)
    case $t in
        *.sh) (cd "$top" && sh "$t") >"$log" 2>&1 ;;
        *) (cd "$top" && "$t") >"$log" 2>&1 ;;
    esac
    rc=$?
    secs=$(($(date +%s) - t0))
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
    f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
    p=${p:-0} f=${f:-0}
    # a test that crashed or failed without saying so counts one failure
    [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    echo "$p $f $secs" >"$work/$idx.res"
    if [ "$f" -ne 0 ]; then
        # one write, so lines of tests ending together do not interleave
        printf 'FAIL %s (exit %s, %s s)\n%s\n' "$name" "$rc" "$secs" \
            "$(sed 's/^/    /' "$log" | tail -n 40)"
    else
        echo "ok   $name: $p checks, $secs s"
    fi
    exit 0
fi

jobs=$(nproc 2>/dev/null || echo 2)
dirs=
fast=0 only= res=
while [ $# -gt 0 ]; do
    case $1 in
        -j) jobs=$2; shift 2 ;;
        -j*) jobs=${1#-j}; shift ;;
        -d) dirs="$dirs $2"; shift 2 ;;
        --fast) fast=1; shift ;;
        --only) only=$2; shift 2 ;;
        --res) res=$2; shift 2 ;;
        *) break ;;
    esac
done
[ -n "$dirs" ] || dirs=" tests/cli"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The tests start python3 hundreds of times. A python3 on the PATH may be
# a launcher, a script run on every start (pyenv's shim: 0.15 s of CPU
# more than the interpreter it runs): find the interpreter once, and the
# tests' lib.sh runs it (QN_PYTHON3). Unset when there is no python3.
if [ -z "${QN_PYTHON3:-}" ]; then
    QN_PYTHON3=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) ||
        QN_PYTHON3=
fi
export QN_PYTHON3
# The queue: one test per line. The slowest known tests go first (their
# time bounds the whole run), then the rest in name order.
slow='test_store t440-crash-faults.sh t420-generate-db.sh t310-validate.sh t330-bigboard.sh'
{
    for t in "$@"; do echo "$t"; done
    for d in $dirs; do
        for t in "$top/$d"/t[0-9]*.sh; do
            [ -e "$t" ] && echo "$d/$(basename "$t")"
        done
    done
} >"$work/all"
# source TEST: the file whose text says the test's tier.
source_of() {
    case $1 in
        *.sh) echo "$top/$1" ;;
        *) echo "$top/tests/unit/$(basename "$1").c" ;;
    esac
}
# keep TEST: 0 when the options leave TEST out.
keep() {
    name=$(basename "$1")
    if [ -n "$only" ]; then
        rest=$only
        while :; do
            pat=${rest%%|*}
            # shellcheck disable=SC2254
            case $name in *$pat*) return 0 ;; esac
            [ "$pat" != "$rest" ] || return 1
            rest=${rest#*|}
        done
    fi
    [ "$fast" -eq 1 ] || return 0
    ! grep -q -E '^(# |/\* )tier: full' "$(source_of "$1")" 2>/dev/null
}
while read -r t; do
    if keep "$t"; then echo "$t"; fi
done <"$work/all" >"$work/kept"
for s in $slow; do grep -E "(^|/)$s\$" "$work/kept"; done >"$work/queue"
grep -v -x -F -f "$work/queue" "$work/kept" >>"$work/queue"

queued=$(wc -l <"$work/queue")
if [ "$queued" -eq 0 ]; then
    echo "FAIL no tests found (in$dirs${only:+ matching '$only'})"
    exit 1
fi
start=$(date +%s)
awk '{print NR, $0}' "$work/queue" |
    xargs -P "$jobs" -L 1 sh "$0" --one "$work"
units=$(grep -c -v '\.sh$' "$work/queue")
echo "ran $units unit test programs and $((queued - units)) test scripts" \
    "(from$dirs), $jobs at a time, in $(($(date +%s) - start)) s"
ran=$(ls "$work"/*.res 2>/dev/null | wc -l)
if [ -n "$res" ]; then
    if [ -r "$res" ]; then
        cp "$res" "$work/before.res"
    else
        echo "FAIL $res: no result of the checks run before the tests"
        echo "0 1" >"$work/before.res"
    fi
fi
pass=$(cat "$work"/*.res 2>/dev/null | awk '{p += $1} END {print p + 0}')
fail=$(cat "$work"/*.res 2>/dev/null | awk '{f += $2} END {print f + 0}')
if [ "$ran" -ne "$queued" ]; then
    echo "FAIL only $ran of $queued tests reported a result"
    fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
