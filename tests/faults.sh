#!/bin/sh
# tests/faults.sh ARGS...: the allocation-failure sweep of one quench command
# (issue #9). Sourced through tests/cli/lib.sh when QN_FAULTS=1: before a
# CLI test runs a command for real, this runs it again for N = 1, 2, ...
# with QN_FAIL_ALLOC=N, each time in a fresh copy of the test's directory,
# until a run reaches its end without meeting the injected failure. Each
# run must end cleanly: exit 71 with "out of memory", or (a library that
# recovers from a failed allocation, e.g. SQLite's page cache) exactly the
# clean run's status and standard output; never a signal, never a
# sanitizer report; every SQLite file left must pass integrity_check
# (the sqlite3 shell).
# QN_FAIL_ALLOC_LIBS (s: SQLite, j: jansson) widens the count. Appends
# "points failures command" to $QN_FAULTS_LOG and details of failures to
# $QN_FAULTS_LOG.fail.
#
# Environment: QUENCH, TMP (the test's directory), QN_FAULTS_LOG,
# QN_FAULTS_STDIN (a file for standard input, else /dev/null),
# QN_FAULTS_MAX (stop after that many points, 0 or unset: never; a command
# stopped there is also listed in $QN_FAULTS_LOG.capped).
in=${QN_FAULTS_STDIN:-/dev/null}
case $in in /*) ;; *) in=$TMP/$in ;; esac
S=$(mktemp -d)
copy() {
    rm -rf "$S/w" && cp -R "$TMP" "$S/w"
}
# Arguments naming the test's directory by its absolute path point into
# the copy instead; databases already damaged on purpose are not checked.
n=0
for a in "$@"; do
    [ $n -eq 0 ] && set --
    n=1
    case $a in "$TMP"/*) a=$S/w/${a#"$TMP"/} ;; esac
    set -- "$@" "$a"
done
copy
damaged=""
for db in "$S"/w/*.db; do
    [ -f "$db" ] || continue
    [ "$(sqlite3 "$db" 'PRAGMA integrity_check' 2>&1)" = ok ] ||
        damaged="$damaged $(basename "$db")"
done
(cd "$S/w" && "$QUENCH" "$@" >"$S/ref.out" 2>"$S/ref.err" <"$in")
ref=$?
n=1
bad=0
while :; do
    copy
    (cd "$S/w" && QN_FAIL_ALLOC=$n "$QUENCH" "$@" >"$S/out" 2>"$S/err" <"$in")
    rc=$?
    grep -q "injected allocation failure" "$S/err" || break
    if [ "${QN_FAULTS_MAX:-0}" -gt 0 ] && [ $n -gt "$QN_FAULTS_MAX" ]; then
        echo "$*" >>"$QN_FAULTS_LOG.capped"
        break
    fi
    why=""
    if [ $rc -eq 71 ]; then
        grep -q "out of memory" "$S/err" || why="exit 71 without 'out of memory'"
    elif [ $rc -ne $ref ] || ! cmp -s "$S/out" "$S/ref.out"; then
        why="exit $rc (clean run: $ref) or different output"
    fi
    [ $rc -ge 128 ] && why="killed by signal $((rc - 128))"
    if grep -qE "Sanitizer|runtime error" "$S/err"; then
        why="sanitizer report"
    fi
    for db in "$S"/w/*.db; do
        [ -f "$db" ] || continue
        case "$damaged " in *" $(basename "$db") "*) continue ;; esac
        r=$(sqlite3 "$db" 'PRAGMA integrity_check' 2>&1)
        [ "$r" = ok ] || why="$(basename "$db"): integrity: $r"
    done
    if [ -n "$why" ]; then
        bad=$((bad + 1))
        { echo "QN_FAIL_ALLOC=$n quench $*: $why"; sed 's/^/    /' "$S/err" | head -5; } \
            >>"$QN_FAULTS_LOG.fail"
    fi
    n=$((n + 1))
done
echo "$((n - 1)) $bad $*" >>"$QN_FAULTS_LOG"
rm -rf "$S"
