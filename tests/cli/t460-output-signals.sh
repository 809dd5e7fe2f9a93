#!/bin/sh
# t460: where output goes and how a run stops (issue #17, part 1).
# -o replaces only regular files (atomically), writes devices and FIFOs in
# place, follows symbolic links, means stdout for "-", and gives new files
# 0666 less the umask; SIGTERM and SIGHUP stop generate as SIGINT does
# (record finished, batch committed, summary written, 128+signal, no
# temporary file left); a reader that closes the pipe ends a command with
# a quiet exit 141 instead of a death by SIGPIPE, and a --db run is not
# left 'running'. The device nodes are mknod copies of /dev/null and
# /dev/full (the test runs as root in CI; as another user those checks
# are counted as failures, not skipped).
. "$(dirname "$0")/lib.sh"
R=$TOP/rules
C5=$R/classic-5x5.yaml
C9=$R/classic-9x9.yaml

q -q generate "$R/classic-3x3.yaml" -n 6 --seed 5eed --db base.db --pack p
expect_rc 0 "set-up: a pack"

# no_temp_left LABEL: nothing but what the test made in the directory
no_temp_left() {
    left=$(ls -A | grep -E '^\..*\.[A-Za-z0-9]{6}$|\.tmp\.' | head -n 3)
    expect_eq "$left" "" "$1: no temporary file left"
}
is_char_dev() { [ -c "$1" ] && echo char || echo "not a device"; }

# 1. Devices: written in place, never replaced.
if mknod null c 1 3 && mknod full c 1 7; then ok; else not_ok "mknod (needs root)"; fi
for spec in "solve $C5 --size 300x300 --fill 1 -o @" \
            "export p --db base.db --format json -o @" \
            "generate $C5 -n 3 --seed 1 -o @"; do
    # shellcheck disable=SC2086
    q $(echo "$spec" | sed 's|@|full|')
    expect_rc 74 "$spec on a full device: exit 74"
    expect_err "No space left on device" "$spec on a full device: says why"
    expect_eq "$(is_char_dev full)" char "$spec: full is still the device"
    # shellcheck disable=SC2086
    q $(echo "$spec" | sed 's|@|null|')
    expect_rc 0 "$spec to the null device"
    expect_eq "$(is_char_dev null)" char "$spec: null is still the device"
done
no_temp_left "devices"

# A FIFO is written in place: its reader gets the output. (Not through q:
# the allocation-failure sweep would run it again with no reader left.)
mkfifo fifo
timeout 60 cat fifo >fifo.got &
reader=$!
"$QUENCH" export p --db base.db --format csv -o fifo 2>"$TMP/err"
rc=$?
expect_rc 0 "export to a FIFO"
wait $reader
expect_eq "$(head -n 1 fifo.got | cut -d, -f1-3)" "id,position,state" "the FIFO's reader got the CSV"
expect_eq "$([ -p fifo ] && echo fifo)" fifo "fifo is still a FIFO"

# A directory cannot be an output file.
mkdir adir
q generate "$C5" -n 2 --seed 1 -o adir
expect_rc 73 "-o a directory: exit 73"
expect_err "adir: cannot create: Is a directory" "-o a directory: says why"

# 2. Symbolic links are followed; their target is replaced.
echo old >real.json
ln -s real.json link.json
q export p --db base.db --format json -o link.json
expect_rc 0 "export through a symlink"
expect_eq "$([ -L link.json ] && echo link)" link "link.json is still a link"
expect_eq "$(head -c 1 real.json)" "{" "the link's target holds the export"
mkdir sub
ln -s sub/target.jsonl dangling.jsonl
q generate "$C5" -n 2 --seed 1 -o dangling.jsonl
expect_rc 0 "generate through a dangling symlink"
expect_eq "$(grep -c '"type":"puzzle"' sub/target.jsonl)" 2 "the dangling link's target was created"
ln -s loop1 loop2 && ln -s loop2 loop1
q generate "$C5" -n 2 --seed 1 -o loop1
expect_rc 73 "-o a symlink loop: exit 73"
no_temp_left "symlinks"

# 3. -o - is standard output, for every command with -o.
q generate "$C5" -n 2 --seed 1 -o -
expect_rc 0 "generate -o -"
expect_eq "$(grep -c '"type":"puzzle"' "$TMP/out")" 2 "generate -o -: puzzles on stdout"
q solve "$C5" --size 16x16 --fill 1 -o -
expect_rc 0 "solve -o -"
expect_eq "$(head -c 2 "$TMP/out")" "P4" "solve -o -: the image on stdout"
expect_err "solvable:" "solve -o -: the report on stderr"
q export p --db base.db --format csv -o -
expect_rc 0 "export -o -"
expect_out "id,position,state" "export -o -: CSV on stdout"
expect_eq "$(ls -A | grep -cx -- -)" 0 "no file named '-'"

# 4. Modes: 0666 less the umask for a new file; a replaced file keeps its
#    permissions.
for cmd in "generate $C5 -n 2 --seed 1" "export p --db base.db --format json" \
           "solve $C5 --size 16x16 --fill 1"; do
    rm -f m022 m077 keep
    # shellcheck disable=SC2086
    (umask 022 && "$QUENCH" -q $cmd -o m022 >/dev/null 2>&1)
    expect_eq "$(stat -c %a m022)" 644 "$cmd -o under umask 022"
    # shellcheck disable=SC2086
    (umask 077 && "$QUENCH" -q $cmd -o m077 >/dev/null 2>&1)
    expect_eq "$(stat -c %a m077)" 600 "$cmd -o under umask 077"
    echo x >keep && chmod 640 keep
    # shellcheck disable=SC2086
    (umask 022 && "$QUENCH" -q $cmd -o keep >/dev/null 2>&1)
    expect_eq "$(stat -c %a keep)" 640 "$cmd -o over a 0640 file keeps 0640"
done

# 5. Stop signals (started through dfl, lib.sh, for SIGINT).
# wait_for FILE-GLOB: until a file matching it is
#    non-empty (the run is under way); 60 s at most.
wait_for() {
    i=0
    while [ $i -lt 600 ]; do
        for f in $1; do [ -s "$f" ] && return 0; done
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
# check_stream FILE COMPLETE: every line is JSON, the last one a summary
# whose "emitted" is the number of puzzle records and "complete" COMPLETE
check_stream() {
    python3 - "$1" "$2" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "", "the last line is cut"
recs = [json.loads(l) for l in lines[:-1]]
assert recs[0]["type"] == "header", recs[0]
assert recs[-1]["type"] == "summary", recs[-1]
n = sum(r["type"] == "puzzle" for r in recs)
assert recs[-1]["emitted"] == n, (recs[-1]["emitted"], n)
assert str(recs[-1]["complete"]).lower() == sys.argv[2], recs[-1]
print("ok", n)
PY
}
for sig in TERM HUP INT; do
    case $sig in TERM) want=143 ;; HUP) want=129 ;; INT) want=130 ;; esac
    rm -f big.jsonl .big.jsonl.*
    dfl "$QUENCH" generate "$C9" -n 10000000 --seed 1 --jobs 2 -o big.jsonl \
        2>sig.err &
    pid=$!
    wait_for ".big.jsonl.* big.jsonl.tmp.*" || not_ok "SIG$sig: the run never started"
    kill -$sig $pid
    wait $pid
    expect_eq "$?" $want "SIG$sig during generate -o: exit $want"
    check_stream big.jsonl false >sig.txt 2>&1 && ok ||
        not_ok "SIG$sig during generate -o: $(tail -n 1 sig.txt)"
    no_temp_left "SIG$sig during generate -o"
done
grep -q "terminated\|interrupted\|hung up" sig.err && ok || not_ok "the stop is said"

# SIGTERM with stdout a file: the last record is whole.
"$QUENCH" generate "$C9" -n 10000000 --seed 1 --jobs 2 >term.jsonl 2>/dev/null &
pid=$!
wait_for term.jsonl || not_ok "SIGTERM to stdout: the run never started"
kill -TERM $pid
wait $pid
expect_eq "$?" 143 "SIGTERM during generate to stdout: exit 143"
check_stream term.jsonl false >sig.txt 2>&1 && ok ||
    not_ok "SIGTERM to stdout: $(tail -n 1 sig.txt)"

# SIGTERM with --db: the batch committed, the run 'interrupted' with the
# true count, the database consistent, and a rerun completes the run.
"$QUENCH" generate "$C9" -n 200000 --seed 3 --batch 200 --db sig.db \
    >sigdb.jsonl 2>/dev/null &
pid=$!
wait_for sigdb.jsonl || not_ok "SIGTERM --db: the run never started"
kill -TERM $pid
wait $pid
expect_eq "$?" 143 "SIGTERM during generate --db: exit 143"
run_row() { # DB: "status stored count(puzzles)"
    python3 -c "
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
st, n = db.execute('select status, stored from runs').fetchone()
print(st, n, db.execute('select count(*) from puzzles').fetchone()[0])" "$1"
}
printed=$(grep -c '"type":"puzzle"' sigdb.jsonl)
expect_eq "$(run_row sig.db)" "interrupted $printed $printed" \
    "SIGTERM --db: run interrupted, stored = printed = in the database"
q db check --db sig.db
expect_rc 0 "SIGTERM --db: database consistent"

# 6. A reader that closes the pipe: exit 141 (not a death by SIGPIPE),
#    nothing said, and a --db run not left 'running'.
# piped CMD...: run quench, read one line, close the pipe; prints
# "exit N" or "signal N", then what stderr said.
piped() {
    python3 - "$QUENCH" "$@" <<'PY'
import subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
p.stdout.readline()
p.stdout.close()
err = p.stderr.read().decode()
p.wait()
rc = p.returncode
print("exit %d" % rc if rc >= 0 else "signal %d" % -rc)
sys.stdout.write(err)
PY
}
q -q generate "$C9" -n 3000 --seed 9 --db big.db --pack big
expect_rc 0 "set-up: a 3000-puzzle pack"
seq 1 200000 | sed 's|.*|000000000/000000000/000000000/000000000/000000000/000000000/000000000/000000000/000000001|' >subs.txt
for cmd in "generate $C9 -n 1000000 --seed 2" \
           "export big --db big.db --format jsonl" \
           "validate $C9 subs.txt --jsonl" \
           "generate $C9 -n 1000000 --seed 4 --batch 100 --db pipe.db"; do
    # shellcheck disable=SC2086
    piped -q $cmd >pipe.txt
    expect_eq "$(head -n 1 pipe.txt)" "exit 141" "$cmd | head -1: exit 141"
    expect_eq "$(sed 1d pipe.txt)" "" "$cmd | head -1: nothing said"
done
set -- $(run_row pipe.db)
if [ "$1" != running ] && [ "$2" = "$3" ]; then ok; else
    not_ok "generate --db | head -1: run row '$*', want not running, stored = puzzles"
fi

done_testing
