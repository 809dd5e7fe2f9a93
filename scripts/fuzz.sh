#!/bin/sh
# scripts/fuzz.sh [RUNS] [TARGET...]: build the libFuzzer targets in fuzz/
# with clang (-fsanitize=fuzzer,address,undefined) through the Makefile
# (make VARIANT=fuzz: build/fuzz/), then run each for RUNS executions
# (default 10^7) on its seed corpus fuzz/corpus/NAME and dictionary
# fuzz/dict/NAME.dict. New inputs go to build/fuzz/corpus-NAME (never the
# repository); crashes to build/fuzz/crashes-NAME/. Prints per target the
# executions, seconds, execs/s and findings.
#
# Environment: CLANG (default clang), FUZZ_MAX_TIME (seconds per target,
# default none), FUZZ_JOBS (targets run at once, default 1), FUZZ_TIMEOUT
# (per-input seconds, default 10), FUZZ_RSS (MB, default 2048).
set -eu
cd "$(dirname "$0")/.."

RUNS=${1:-10000000}
[ $# -gt 0 ] && shift
TARGETS=${*:-"rules recipe state submit pnm import flip diff gen keyrun"}
CLANG=${CLANG:-clang}
OUT=build/fuzz
JOBS=${FUZZ_JOBS:-1}
# The targets and the instrumented library build through the Makefile
# (VARIANT=fuzz), with the project's flags: nothing is compiled here.
bins=""
for t in $TARGETS; do bins="$bins $OUT/fuzz_$t"; done
# shellcheck disable=SC2086
make -s VARIANT=fuzz CLANG="$CLANG" -j2 $bins

run_one() {
    t=$1
    mkdir -p $OUT/corpus-$t $OUT/crashes-$t
    dict=""
    [ -f fuzz/dict/$t.dict ] && dict="-dict=fuzz/dict/$t.dict"
    [ $t = diff ] || [ $t = gen ] && dict=""
    maxt=""
    [ -n "${FUZZ_MAX_TIME:-}" ] && maxt="-max_total_time=$FUZZ_MAX_TIME"
    log=$OUT/fuzz_$t.log
    start=$(date +%s)
    # new findings land in the first (writable) dir; the seeds are read only
    $OUT/fuzz_$t -runs=$RUNS $maxt $dict -max_len=65536 \
        -timeout=${FUZZ_TIMEOUT:-10} -rss_limit_mb=${FUZZ_RSS:-2048} \
        -artifact_prefix=$OUT/crashes-$t/ -print_final_stats=1 \
        $OUT/corpus-$t fuzz/corpus/$t >$log 2>&1 || true
    end=$(date +%s)
    secs=$((end - start))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' $log | tail -1)
    execs=${execs:-0}
    rate=$(( secs > 0 ? execs / secs : execs ))
    finds=$(ls $OUT/crashes-$t | wc -l)
    printf '%-8s %12s execs %6s s %8s exec/s %3s findings\n' \
        $t $execs $secs $rate $finds > $OUT/fuzz_$t.summary
    cat $OUT/fuzz_$t.summary
}

n=0
for t in $TARGETS; do
    run_one $t &
    n=$((n + 1))
    if [ $n -ge $JOBS ]; then wait; n=0; fi
done
wait

echo
echo "target          executions  seconds  exec/s  findings"
for t in $TARGETS; do cat $OUT/fuzz_$t.summary; done
for t in $TARGETS; do
    for c in $OUT/crashes-$t/*; do
        [ -f "$c" ] || continue
        echo "finding: $c (minimise: $OUT/fuzz_$t -minimize_crash=1 -runs=100000 -exact_artifact_path=$c.min $c)"
    done
done
