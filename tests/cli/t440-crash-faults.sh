#!/bin/sh
# tier: full (kill -9 rounds and an allocation sweep: minutes)
# t440: the small versions of `make torture`'s crash and fault runs (issue
# #9): kill -9 rounds over generate, pack edits, import, migrations and
# db migrate's compaction (scripts/killtorture.py), and the
# allocation-failure sweep of a few commands that read every kind of
# input (tests/faults.sh).
. "$(dirname "$0")/lib.sh"
R=$TOP/rules
W=$R/whack-a-mole-4x4.yaml

python3 "$TOP/scripts/killtorture.py" --quench "$QUENCH" --rounds 2 \
    --scenarios generate,pack,import,migrate,compact \
    --pack-size 500 >kill.txt 2>&1
expect_eq "$?" 0 "kill -9 rounds: $(tail -n 1 kill.txt)"
grep -q "^killtorture: 10 rounds, 0 failures" kill.txt && ok ||
    { not_ok "kill -9 rounds"; sed 's/^/    /' kill.txt | head; }

# Inputs for the sweep: a pack export, submissions in JSON Lines.
q -q generate "$W" -n 3 --seed 1 --db f.db --pack p
q export p --db f.db --format json -o p.json
sed 's/"name":"p"/"name":"p2"/' p.json >p2.json
printf '{"id":"a","state":"0100/1110/0001/1101"}\n{"id":"b","state":"1000/0000/0000/0000"}\n' >s.jsonl
export QN_FAULTS_LOG="$TMP/faults.log" QN_FAIL_ALLOC_LIBS=j
# Under the sanitizers each run is some 5x slower and the whole sweep took
# 540 s of CI's 30 minutes: there the first 250 points of each command
# (the release build sweeps them all; docs/RELIABILITY.md gives the full
# sanitizer sweep, run apart)
case $QUENCH in */san/*) export QN_FAULTS_MAX=${QN_FAULTS_MAX:-250} ;; esac
for cmd in "rules check $W" "solve $W --state 0100/1110/0001/1101" \
           "validate $W s.jsonl" "import p2.json --db f.db" \
           "pack --db f.db sort p"; do
    # shellcheck disable=SC2086
    TMP=$TMP sh "$TOP/tests/faults.sh" $cmd
done
# SQLite's own allocations failing too, in a command that writes
QN_FAIL_ALLOC_LIBS=sj TMP=$TMP sh "$TOP/tests/faults.sh" pack --db f.db create fresh
points=$(awk '{p += $1} END {print p}' faults.log)
failures=$(awk '{f += $2} END {print f}' faults.log)
expect_eq "$failures" 0 "allocation failures handled at all $points points"
[ "$points" -gt 100 ] && ok || not_ok "the sweep met only $points failure points"
[ -f faults.log.fail ] && sed 's/^/    /' faults.log.fail | head -n 20

done_testing
