#!/bin/sh
# Run every unit-test program given as arguments, then every CLI test in
# tests/cli/, and print one total line "N passed, N failed". Exit 1 on any
# failure. Environment: QUENCH (binary under test), OUT (build directory).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
pass=0
fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)

tally() { # name, exit status, seconds; reads "N passed, N failed" from $log
    name=$1 rc=$2 secs=$3
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
    f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
    p=${p:-0} f=${f:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1 # crashed or failed without saying so
    fi
    pass=$((pass + p))
    fail=$((fail + f))
    if [ "$f" -ne 0 ]; then
        echo "FAIL $name (exit $rc, $secs s)"
        sed 's/^/    /' "$log" | tail -n 40
    else
        echo "ok   $name: $p checks, $secs s"
    fi
}

for t in "$@"; do
    t0=$(date +%s)
    (cd "$top" && "$t") >"$log" 2>&1
    tally "$(basename "$t")" $? $(($(date +%s) - t0))
done

for t in "$top"/tests/cli/t[0-9]*.sh; do
    [ -e "$t" ] || continue
    t0=$(date +%s)
    (cd "$top" && sh "$t") >"$log" 2>&1
    tally "cli/$(basename "$t")" $? $(($(date +%s) - t0))
done

echo "tests took $(($(date +%s) - start)) s"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
