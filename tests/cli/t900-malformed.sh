#!/bin/sh
# t900: a seeded sample of the malformed-input corpus (issue #9): 400 of the
# cases scripts/torture.py makes from tests/torture/ and the bundled rules
# (truncations, single-byte corruptions, bad encodings, deep nesting, alias
# bombs, huge and negative numbers, tampered packs, damaged databases). Each
# must end in its documented exit status with a located message, never a
# signal or a sanitizer report. No time limit but the hang guard: timings
# belong to `make torture`, which runs the whole corpus with its 100 ms bar.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
    echo "# python3 not installed: malformed-input sample skipped"
    done_testing
    exit $?
fi
python3 "$TOP/scripts/torture.py" --quench "$QUENCH" --sample 400 --jobs 2 --limit-ms 0 \
    --out "$TMP/torture" >"$TMP/log" 2>&1
rc=$?
passed=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$TMP/log" | tail -n 1)
failed=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$TMP/log" | tail -n 1)
if [ -z "$passed" ]; then
    not_ok "torture.py did not finish (exit $rc)"
    sed 's/^/    /' "$TMP/log" | tail -n 20
else
    # one check per case
    PASS=$((PASS + passed))
    FAIL=$((FAIL + failed))
    if [ "$failed" -ne 0 ] || [ "$rc" -ne 0 ]; then
        grep -A4 '^FAIL ' "$TMP/log" | head -n 80
        [ "$failed" -ne 0 ] || not_ok "torture.py exit $rc"
    fi
fi
done_testing
