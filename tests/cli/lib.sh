# lib.sh: sourced by every tests/cli/tNNN-*.sh. Runs quench ($QUENCH, the
# binary under test) in a fresh temporary directory and counts checks; the
# script ends with `done_testing`, which prints "N passed, N failed".
set -u
: "${QUENCH:?QUENCH must name the quench binary under test}"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
PASS=0
FAIL=0
# the schema version of a current database: the last migration's number
# (db/migrations/NNNN_name.sql), never written out in a test
SCHEMA=$(ls "$TOP"/db/migrations/[0-9]*.sql | sed -n '$s|.*/0*\([0-9][0-9]*\)_.*|\1|p')

# python3: the interpreter tests/run.sh found behind the python3 on the
# PATH (QN_PYTHON3), not a launcher that starts it on every call
if [ -n "${QN_PYTHON3:-}" ] && [ -x "$QN_PYTHON3" ]; then
    python3() { "$QN_PYTHON3" "$@"; }
fi

ok() { PASS=$((PASS + 1)); }
not_ok() { FAIL=$((FAIL + 1)); echo "not ok: $*"; }

# q ARGS...: run quench; sets $rc, stdout in $TMP/out, stderr in $TMP/err.
# With QN_FAULTS=1 each command first goes through the allocation-failure
# sweep (tests/faults.sh).
q() {
    [ -z "${QN_FAULTS:-}" ] || TMP=$TMP sh "$TOP/tests/faults.sh" "$@"
    "$QUENCH" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    rc=$?
}
# qin FILE ARGS...: the same with FILE on standard input.
qin() {
    f=$1
    shift
    [ -z "${QN_FAULTS:-}" ] || TMP=$TMP QN_FAULTS_STDIN=$f sh "$TOP/tests/faults.sh" "$@"
    "$QUENCH" "$@" >"$TMP/out" 2>"$TMP/err" <"$f"
    rc=$?
}

# runs_from_rows DB: DB's key runs built again from its rows by
# tests/keyruns.py (the run format written apart from quench, level-1
# runs as migration 0008 builds them: the same bytes), each row's id its
# `uid` while the table has one, else computed from its state. A fixture
# whose rows sqlite3 wrote or changed calls it: such rows are in no run
# (or not in their run), which db check reports as damage.
runs_from_rows() {
    python3 "$TOP/tests/keyruns.py" "$1"
}

# The flip of the key-run store (docs/STORE-KEYRUNS.md) drops
# puzzles.canon, puzzles.uid and the unique key on them; these work on
# both schemas.
# has_column DB TABLE COLUMN: whether DB's TABLE has COLUMN
has_column() {
    [ "$(sqlite3 "$1" "SELECT count(*) FROM pragma_table_info('$2') WHERE name = '$3'")" = 1 ]
}
# put_sql DB <SCRIPT: SQL with tests/state_blob.py's functions, where
# `INSERT INTO new_puzzles (...)` (no canon, no uid) inserts a puzzle
# with its canonical form and id computed from its state while the table
# has those columns; then runs_from_rows DB.
put_sql() {
    python3 "$TOP/tests/state_blob.py" --put "$1" - && runs_from_rows "$1"
}
# wrong_id DB ROW: DB holds a wrong id for ROW (its own plus one), the
# same in the rows and the key runs: `uid` while the table has one, else
# the runs alone
wrong_id() {
    if has_column "$1" puzzles uid; then
        sqlite3 "$1" "UPDATE puzzles SET uid = uid + 1 WHERE id = $2" &&
            runs_from_rows "$1"
    else
        python3 "$TOP/tests/keyruns.py" "$1" --bump "$2"
    fi
}
# rekey DB [ROW...]: the rows' canon and uid (while the table has them)
# from their states again, after a test changed the states
rekey() {
    python3 "$TOP/tests/state_blob.py" --rekey "$@"
}

# dfl CMD...: exec CMD with SIGINT, SIGTERM and SIGHUP at their default
# actions. A background job of sh starts with SIGINT ignored, and quench
# keeps a signal ignored when it starts ignored (as nohup expects), so a
# test that sends SIGINT to a background quench starts it through dfl.
dfl() {
    exec env --default-signal=INT,TERM,HUP "$@"
}

# as_user CMD...: run CMD where file modes apply. Root ignores them, so as
# root CMD runs as nobody (setpriv, util-linux); the files it reads must
# then be reachable by nobody (chmod 755 "$TMP"). CMD itself may sit in a
# checkout nobody cannot reach (a clone under a 0700 folder): then nobody
# runs a copy of it from "$TMP", so the test checks what it says it does.
# Its variable has a long name: sh has no locals, callers have a $cmd.
as_user() {
    if [ "$(id -u)" != 0 ]; then
        "$@"
        return
    fi
    as_user_cmd=$1
    shift
    if ! setpriv --reuid=65534 --regid=65534 --clear-groups \
        test -x "$as_user_cmd" 2>/dev/null; then
        mkdir -p "$TMP/.as_user" && chmod 755 "$TMP/.as_user" &&
            cp "$as_user_cmd" "$TMP/.as_user/" || return 126
        as_user_cmd=$TMP/.as_user/$(basename "$as_user_cmd")
        chmod 755 "$as_user_cmd"
    fi
    setpriv --reuid=65534 --regid=65534 --clear-groups "$as_user_cmd" "$@"
}

expect_rc() { # status, label
    if [ "$rc" -eq "$1" ]; then ok; else
        not_ok "$2: exit $rc, expected $1"
        sed 's/^/    stderr: /' "$TMP/err" | head -n 5
    fi
}
expect_out() { # fixed string, label
    if grep -qF -- "$1" "$TMP/out"; then ok; else
        not_ok "$2: stdout lacks '$1'"
        sed 's/^/    stdout: /' "$TMP/out" | head -n 10
    fi
}
expect_err() { # fixed string, label
    if grep -qF -- "$1" "$TMP/err"; then ok; else
        not_ok "$2: stderr lacks '$1'"
        sed 's/^/    stderr: /' "$TMP/err" | head -n 10
    fi
}
expect_empty_out() { # label
    if [ ! -s "$TMP/out" ]; then ok; else not_ok "$1: stdout not empty"; fi
}
expect_eq() { # got, want, label
    if [ "$1" = "$2" ]; then ok; else not_ok "$3: got '$1', want '$2'"; fi
}
expect_line() { # the whole of stdout, label
    expect_eq "$(cat "$TMP/out")" "$1" "$2"
}
# py_checks ARGS... <PROGRAM: run a Python program (on stdin) that prints
# one line per check, "ok" or "not ok: what is wrong", and count them.
py_checks() {
    python3 - "$@" >"$TMP/py.out" 2>&1 || echo "not ok: python exited $?" >>"$TMP/py.out"
    py_count
}
# py_count: count $TMP/py.out's lines, "ok" or "not ok: ..."
py_count() {
    while IFS= read -r line; do
        case $line in
            ok) ok ;;
            *) not_ok "${line#not ok: }" ;;
        esac
    done <"$TMP/py.out"
}

# Deferred Python checks: a python3 start costs 30-300 ms, more than most
# quench commands, so checks written in Python are queued and run
# together in one python3 (tests/pyq.py) by py_flush, which done_testing
# calls. A queued check copies each argument that names a regular file
# (or is PREFIX:FILE) as it is now, so later commands may overwrite it
# (out, err); its program reads only files it is given. Queue from the
# script's own shell (not inside $(...) or a pipeline), as ok and not_ok
# count there.
#
# py_eq PROGRAM WANT LABEL [ARGS...]: the check
#     expect_eq "$(python3 -c PROGRAM ARGS...)" WANT LABEL
# py_ok LABEL [ARGS...] <PROGRAM: one check, ok when PROGRAM succeeds
# py_later [ARGS...] <PROGRAM: the checks py_checks ARGS... <PROGRAM makes
PYQ=0
py_eq() {
    pyq_prog=$1 pyq_want=$2 pyq_label=$3
    shift 3
    py_queue eq "$@" || return
    printf '%s' "$pyq_prog" >"$pyq_n.prog"
    printf '%s' "$pyq_want" >"$pyq_n.want"
    printf '%s' "$pyq_label" >"$pyq_n.label"
}
py_ok() {
    pyq_label=$1
    shift
    py_queue exit "$@" || return
    cat >"$pyq_n.prog"
    printf '%s' "$pyq_label" >"$pyq_n.label"
}
py_later() {
    py_queue checks "$@" || return
    cat >"$pyq_n.prog"
}
# py_queue KIND ARGS...: a new queue entry $pyq_n (tests/pyq.py's files)
py_queue() {
    [ -d "$TMP/.pyq" ] || mkdir "$TMP/.pyq" || {
        not_ok "cannot queue a Python check"
        return 1
    }
    PYQ=$((PYQ + 1))
    pyq_n=$TMP/.pyq/$PYQ
    printf '%s' "$1" >"$pyq_n.kind"
    shift
    : >"$pyq_n.args"
    pyq_i=0
    for pyq_a in "$@"; do
        pyq_i=$((pyq_i + 1))
        if [ -f "$pyq_a" ]; then
            cp "$pyq_a" "$pyq_n.a$pyq_i" && pyq_a=$pyq_n.a$pyq_i
        elif [ -f "${pyq_a#*:}" ]; then
            cp "${pyq_a#*:}" "$pyq_n.a$pyq_i" &&
                pyq_a=${pyq_a%%:*}:$pyq_n.a$pyq_i
        fi
        printf '%s\n' "$pyq_a" >>"$pyq_n.args"
    done
}
# py_flush: run the queued checks (in queue order) and count them
py_flush() {
    [ -d "$TMP/.pyq" ] || return 0
    python3 "$TOP/tests/pyq.py" "$TMP/.pyq" >"$TMP/py.out" 2>&1 ||
        echo "not ok: python exited $?" >>"$TMP/py.out"
    py_count
    rm -rf "$TMP/.pyq"
}
done_testing() {
    py_flush
    echo "$PASS passed, $FAIL failed"
    [ "$FAIL" -eq 0 ]
}
