#!/bin/sh
# tests/valgrind.sh [TEST...]: every CLI test (default tests/cli/t*.sh)
# with each quench command run under
# valgrind (memcheck: invalid reads and writes, uninitialised values,
# definite leaks). Each process logs to $OUT/valgrind/PID.log, which stays
# empty when valgrind found nothing; prints the number of quench processes
# run, of logs with errors (shown), and the CLI checks' own tally (tests
# that time a kill or a lock may fail from the slowdown alone: those
# failures are listed, not counted as memory errors). Exit 1 on any
# memory error. Environment: QUENCH (the binary, a debug build is best),
# OUT (default build/debug).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
: "${QUENCH:?QUENCH must name the quench binary under test}"
out=${OUT:-$top/build/debug}/valgrind
rm -rf "$out"
mkdir -p "$out"
wrap=$out/quench
cat >"$wrap" <<WRAP
#!/bin/sh
exec valgrind -q --error-exitcode=0 --leak-check=full \\
    --show-leak-kinds=definite --errors-for-leak-kinds=definite \\
    --log-file="$out/%p.log" "$QUENCH" "\$@"
WRAP
chmod +x "$wrap"
start=$(date +%s)
[ $# -gt 0 ] || set -- "$top"/tests/cli/t[0-9]*.sh
for t in "$@"; do
    name=$(basename "$t" .sh)
    (cd "$top" && QUENCH=$wrap sh "$t") >"$out/$name.txt" 2>&1
    echo "$name: $(grep -E '^[0-9]+ passed' "$out/$name.txt" | tail -n 1)"
done >"$out/run.txt"
nproc=$(ls "$out"/*.log 2>/dev/null | wc -l)
bad=0
for f in "$out"/*.log; do
    [ -s "$f" ] || continue
    bad=$((bad + 1))
    [ $bad -le 5 ] && { echo "== $f"; head -n 30 "$f"; }
done
cat "$out/run.txt"
echo "valgrind: $nproc quench processes, $bad with memory errors, $(( $(date +%s) - start )) s"
[ $bad -eq 0 ]
