#!/bin/sh
# t430: I/O faults (issue #9): every command that writes, against a full
# device (/dev/full), a file size limit (ulimit -f, the full disk of a
# test), a read-only database and a database locked by another writer.
# Each must exit with its documented status (74 i/o error, 75 busy), say
# where, and lose nothing: the database passes `db check` and holds what
# it held before the failed command.
. "$(dirname "$0")/lib.sh"
R=$TOP/rules
C=$R/classic-3x3.yaml

# A database with one pack, and files the commands read.
q -q generate "$C" -n 6 --seed 5eed --db base.db --pack p
expect_rc 0 "set-up: generate"
q export p --db base.db --format json -o p.json
expect_rc 0 "set-up: export"
printf '100/000/000\n010/111/010\n' >subs.txt
dump() { # the rows that matter, in a stable order
    python3 - "$1" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for t in ('puzzles', 'packs', 'pack_puzzles'):
    for row in c.execute('select * from %s order by 1, 2' % t):
        print(t, row)
PY
}
dump base.db >base.txt

# Commands that write to the database, with a fresh copy of base.db each.
writers() {
    cat <<'CMDS'
generate @RULE@ -n 4 --seed 77 --db @DB@ --pack g
pack --db @DB@ create fresh
pack --db @DB@ sort p
pack --db @DB@ rename p q
pack --db @DB@ delete p
import p2.json --db @DB@
validate @RULE@ subs.txt --db @DB@ --into v
db --db @DB@ migrate
CMDS
}
writers >cmds.txt
# fill LINE DB RULE: the command of LINE on database DB with rule file RULE.
# The placeholders cannot occur in a path (a bare D did, in a mktemp name).
fill() {
    echo "$1" | sed "s|@DB@|$2|g; s|@RULE@|$3|g"
}
sed 's/"name":"p"/"name":"p2"/' p.json >p2.json

# 1. Standard output on a full device: 74 and a message; the database
#    (where the command writes one) passes check.
for cmd in "rules check $C" "solve $C --state 100/000/000" \
           "validate $C subs.txt" "export p --db base.db --format csv" \
           "export p --db base.db --format jsonl" "pack --db base.db list" \
           "db --db base.db stats" "generate $C -n 3 --seed 1"; do
    # shellcheck disable=SC2086
    "$QUENCH" $cmd >/dev/full 2>err.txt
    expect_eq "$?" 74 "$cmd > /dev/full: exit 74"
    grep -qi "no space\|write" err.txt && ok || not_ok "$cmd > /dev/full: no message"
done
cp base.db full.db
"$QUENCH" generate "$C" -n 4 --seed 77 --db full.db --pack g >/dev/full 2>err.txt
expect_eq "$?" 74 "generate --db > /dev/full: exit 74"
q db check --db full.db
expect_rc 0 "generate --db > /dev/full: database consistent"

# 2. A file size limit below what the database needs: 74 with SQLite's
#    reason at the database's name; the database as it was.
while read -r line; do
    rm -f lim.db* && cp base.db lim.db
    cmd=$(fill "$line" lim.db "$C")
    # the limit is 1 block past the current size: the first growth fails
    blocks=$(( $(wc -c <lim.db) / 512 + 1 ))
    # shellcheck disable=SC2086
    (ulimit -f $blocks; "$QUENCH" $cmd >/dev/null 2>err.txt)
    rc=$?
    case $rc in
    0) ok ;; # the change fitted in the pages the file already had
    74) grep -q "lim.db" err.txt && ok || not_ok "$line: ulimit: no located message" ;;
    *) not_ok "$line: ulimit -f: exit $rc, expected 0 or 74"; sed 's/^/    /' err.txt | head -3 ;;
    esac
    q db check --db lim.db
    expect_rc 0 "$line: ulimit -f: database passes check"
    if [ $rc -ne 0 ]; then
        dump lim.db | cmp -s - base.txt && ok || not_ok "$line: ulimit -f: database changed"
    fi
done <cmds.txt

# 3. A read-only database: 74 naming it, nothing changed. Root ignores
#    file modes, so as root the command runs as nobody (as_user).
# nobody may not reach the checkout (a clone under a mktemp -d, mode 700):
# the rule file it reads is copied next to the database
chmod 755 "$TMP"
cp "$C" ro-rule.yaml
chmod 644 p2.json subs.txt ro-rule.yaml
while read -r line; do
    rm -f ro.db* && cp base.db ro.db && chmod 444 ro.db
    cmd=$(fill "$line" ro.db "$TMP/ro-rule.yaml")
    # shellcheck disable=SC2086
    as_user "$QUENCH" $cmd >/dev/null 2>err.txt
    rc=$?
    expect_eq "$rc" 74 "$line: read-only database: exit 74"
    grep -q "ro.db" err.txt && grep -qi "read.only\|readonly" err.txt && ok ||
        { not_ok "$line: read-only: message"; sed 's/^/    /' err.txt | head -3; }
    dump ro.db | cmp -s - base.txt && ok || not_ok "$line: read-only: database changed"
done <cmds.txt

# 4. Locked by another writer past the timeout: 75, nothing changed, and
#    the same command works once the lock is gone.
if command -v sqlite3 >/dev/null 2>&1; then
    while read -r line; do
        case $line in "db --db @DB@ migrate") continue ;; esac
        rm -f lk.db* && cp base.db lk.db
        cmd=$(fill "$line" lk.db "$C")
        # The holder takes the write lock and keeps it until told: no
        # sleeps to guess with, so a loaded machine cannot let quench in
        # before the lock or after it.
        rm -f lk.fifo && mkfifo lk.fifo
        sqlite3 lk.db <lk.fifo >/dev/null 2>&1 &
        holder=$!
        exec 3>lk.fifo
        printf '.timeout 10000\nBEGIN IMMEDIATE;\nCREATE TABLE hold (x);\n' >&3
        n=0 # until a second writer is refused: the lock is held
        while sqlite3 lk.db '.timeout 0' 'BEGIN IMMEDIATE;' 'ROLLBACK;' \
            >/dev/null 2>&1 && [ $n -lt 600 ]; do
            sleep 0.1
            n=$((n + 1))
        done
        # shellcheck disable=SC2086
        QUENCH_BUSY_TIMEOUT=100 "$QUENCH" $cmd >/dev/null 2>err.txt
        expect_eq "$?" 75 "$line: locked database: exit 75"
        grep -q "locked" err.txt && ok || not_ok "$line: locked: message"
        exec 3>&- # end of input: the holder rolls back and exits
        wait $holder
        dump lk.db | cmp -s - base.txt && ok || not_ok "$line: locked: database changed"
        # shellcheck disable=SC2086
        "$QUENCH" $cmd >/dev/null 2>err.txt
        rc=$?
        case $rc in 0|1) ok ;; *) not_ok "$line: after the lock: exit $rc" ;; esac
    done <cmds.txt
else
    not_ok "the sqlite3 shell is missing (scripts/install-deps --test installs it)"
fi

done_testing
