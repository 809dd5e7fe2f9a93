#!/bin/sh
# tests/faults-all.sh [TEST...]: the allocation-failure sweep (issue #9)
# over every CLI test (default tests/cli/t*.sh): each quench command they
# run is first re-run failing its N-th allocation for every N
# (tests/faults.sh). Prints per test the commands, the failure points and
# the failures, then the totals; exit 1 when any point failed.
# Environment: QUENCH, QN_FAIL_ALLOC_LIBS (default j: jansson's allocations
# counted too; add s for SQLite's, thousands more points per database
# command), QN_FAULTS_MAX (default 0: every N; a number stops each command
# after that many points, and the commands cut there are listed),
# FAULTS_OUT (default build/faults).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
: "${QUENCH:?QUENCH must name the quench binary under test}"
out=${FAULTS_OUT:-$top/build/faults}
export QN_FAIL_ALLOC_LIBS=${QN_FAIL_ALLOC_LIBS-j}
export QN_FAULTS_MAX=${QN_FAULTS_MAX-0}
mkdir -p "$out"
out=$(cd "$out" && pwd) # the tests run in their own directories
rm -f "$out"/*.log "$out"/*.log.fail "$out"/*.log.capped
[ $# -gt 0 ] || set -- "$top"/tests/cli/t[0-9]*.sh
start=$(date +%s)
for t in "$@"; do
    name=$(basename "$t" .sh)
    QN_FAULTS=1 QN_FAULTS_LOG="$out/$name.log" sh "$t" >"$out/$name.out" 2>&1
    touch "$out/$name.log"
    awk -v n="$name" '{c++; p += $1; f += $2}
        END {printf "%-24s %5d commands %8d points %4d failures\n", n, c, p, f}' \
        "$out/$name.log"
done
cat "$out"/*.log | awk -v s=$(( $(date +%s) - start )) '{c++; p += $1; f += $2}
    END {printf "faults: %d commands, %d allocation failure points, %d failures, %d s\n", c, p, f, s;
         exit f > 0}'
rc=$?
capped=$(cat "$out"/*.log.capped 2>/dev/null | wc -l)
[ "$capped" -eq 0 ] ||
    echo "faults: $capped commands stopped at $QN_FAULTS_MAX points (QN_FAULTS_MAX=0: all)"
cat "$out"/*.log.fail 2>/dev/null | head -n 40
exit $rc
