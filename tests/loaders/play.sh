# play.sh: sourced by tests/loaders/t6*.sh after tests/cli/lib.sh. The
# play drivers (loaders/<lang>/play, issue #34) against `quench solve`:
# from random positions of packs over rules with 2, 3, 4, 6 and 8
# colours, a hex board, a torus and a masked grid, presses_left must be
# the least presses quench finds for that position and the plan (what
# following hint() presses) must reach the goal in exactly that many
# (tests/loaders/play.py says how it checks). Then the fallback: a
# document whose rules carry no kernel gets valid plans marked inexact.

PLAY_RULES="rules/classic-5x5.yaml rules/lights-out-2000.yaml
tests/loaders/rules/plus-5x5-mod4.yaml tests/loaders/rules/graph-amounts.yaml
rules/ring6-mod8.yaml tests/loaders/rules/hex-goal.yaml
rules/torus-5x5.yaml tests/loaders/rules/mask-five.yaml"

# play_packs: a pack of 3 puzzles per rule above and its positions (the
# start, the solved position, 3 random ones each), in $TMP/play/.
play_packs() {
    mkdir -p "$TMP/play"
    for f in $PLAY_RULES; do
        p=$(basename "$f" .yaml)
        q generate "$TOP/$f" -n 3 --seed 34 --db "$TMP/play/x.db" --pack "$p"
        expect_rc 0 "play: generate $p"
        q export "$p" --format json --db "$TMP/play/x.db" -o "$TMP/play/$p.json"
        expect_rc 0 "play: export $p"
        python3 "$TOP/tests/loaders/play.py" moves "$TMP/play/$p.json" 34 3 \
            >"$TMP/play/$p.moves" || not_ok "play: cannot make moves for $p"
    done
    # no kernel anywhere: what an older quench wrote, or a kernel too
    # large to list
    python3 - "$TMP/play/classic-5x5.json" "$TMP/play/nokernel.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["rules"]:
    r.pop("kernel", None)
json.dump(d, open(sys.argv[2], "w"))
PY
    python3 - "$TMP/play/classic-5x5.json" "$TMP/play/loud.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["rules"][0]["kernel"][0]["presses"][0] ^= 1
json.dump(d, open(sys.argv[2], "w"))
PY
}

# play_checks LABEL CMD...: CMD PACK MOVES is the driver.
play_checks() {
    label=$1
    shift
    for f in $PLAY_RULES; do
        p=$(basename "$f" .yaml)
        "$@" "$TMP/play/$p.json" "$TMP/play/$p.moves" \
            >"$TMP/play/out" 2>"$TMP/play/err" </dev/null
        rc=$?
        if [ "$rc" -ne 0 ]; then
            not_ok "$label play $p: exit $rc"
            sed 's/^/    stderr: /' "$TMP/play/err" | head -n 5
            continue
        fi
        ok
        if QUENCH=$QUENCH python3 "$TOP/tests/loaders/play.py" check "$TOP/$f" \
            "$TMP/play/$p.json" "$TMP/play/$p.moves" "$TMP/play/out" \
            >"$TMP/play/check" 2>&1; then ok; else
            not_ok "$label play $p: answers differ from quench solve"
            sed 's/^/    /' "$TMP/play/check" | head -n 8
        fi
    done
    "$@" "$TMP/play/nokernel.json" "$TMP/play/classic-5x5.moves" \
        >"$TMP/play/out" 2>"$TMP/play/err" </dev/null
    rc=$?
    [ "$rc" -eq 0 ] && ok || not_ok "$label play without a kernel: exit $rc"
    if QUENCH=$QUENCH python3 "$TOP/tests/loaders/play.py" fallback \
        "$TOP/rules/classic-5x5.yaml" "$TMP/play/nokernel.json" \
        "$TMP/play/classic-5x5.moves" "$TMP/play/out" >"$TMP/play/check" 2>&1
    then ok; else
        not_ok "$label play without a kernel: not a valid fallback"
        sed 's/^/    /' "$TMP/play/check" | head -n 8
    fi
    # a kernel generator that is not quiet: refused, nothing played
    "$@" "$TMP/play/loud.json" "$TMP/play/classic-5x5.moves" \
        >"$TMP/play/out" 2>"$TMP/play/err" </dev/null
    rc=$?
    [ "$rc" -eq 65 ] && ok || not_ok "$label play, kernel not quiet: exit $rc, expected 65"
    grep -q 'kernel\[0\].*not quiet' "$TMP/play/err" && ok ||
        not_ok "$label play, kernel not quiet: stderr $(head -c 200 "$TMP/play/err")"
    [ -s "$TMP/play/out" ] && not_ok "$label play, kernel not quiet: printed" || ok
}
