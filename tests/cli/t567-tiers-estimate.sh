#!/bin/sh
# t567: before sampling a rule's grading tiers (4096 states graded
# exactly, seconds to minutes on large mod-k boards), quench says how long
# it will take, from a short timed probe (issue #35). The threshold
# QUENCH_ESTIMATE_AFTER (seconds, default 2) is 0 here so that the
# message shows whatever the machine's speed; no time is asserted. Facts:
# a rule samples its tiers only when it has no grading: section and its
# exact distribution is out of reach (docs/RULES.md): 3^196 states for
# the 14x14 three-colour grid, 2^23 for classic 5x5 (in reach).
. "$(dirname "$0")/lib.sh"
R=$TOP/rules
T14=$TMP/tri-14.yaml
printf 'quench: 1\nname: tri-14\ncolours: 3\nboard: {grid: [14, 14]}\npress: {stencil: plus}\n' >"$T14"
cp "$T14" "$TMP/tri-14-graded.yaml"
printf 'grading:\n  easy: [1, 150]\n  hard: [151, 392]\n' >>"$TMP/tri-14-graded.yaml"
SAY="sampling this rule's grading tiers (4096 states graded"

# --- 1. generate and rules show say it first; their output is unchanged --
QUENCH_ESTIMATE_AFTER=86400 q generate "$T14" -n 3 --seed 1 --jobs 1
expect_rc 0 "generate, QUENCH_ESTIMATE_AFTER=86400"
cp "$TMP/out" "$TMP/plain"
if grep -q "$SAY" "$TMP/err"; then not_ok "below the threshold: silent"; else ok; fi
QUENCH_ESTIMATE_AFTER=0 q generate "$T14" -n 3 --seed 1 --jobs 1
expect_rc 0 "generate, QUENCH_ESTIMATE_AFTER=0"
expect_err "$SAY" "generate says how long the tiers take"
if cmp -s "$TMP/out" "$TMP/plain"; then ok; else
    not_ok "the puzzles are the same with the estimate"; fi
line=$(grep "$SAY" "$TMP/err")
case $line in
*"timed): about "[1-9]*" s; a grading: section in the rule file skips this") ok ;;
*) not_ok "the estimate is a whole number of seconds, at least 1: $line" ;;
esac
said=$(grep -n "$SAY" "$TMP/err" | cut -d: -f1)
done_at=$(grep -n "puzzles from" "$TMP/err" | cut -d: -f1)
if [ -n "$said" ] && [ -n "$done_at" ] && [ "$said" -lt "$done_at" ]; then
    ok; else not_ok "the estimate comes before the run's summary"; fi

QUENCH_ESTIMATE_AFTER=86400 q rules show "$T14"
cp "$TMP/out" "$TMP/plain"
if grep -q "$SAY" "$TMP/err"; then not_ok "rules show below the threshold: silent"; else ok; fi
QUENCH_ESTIMATE_AFTER=0 q rules show "$T14"
expect_rc 0 "rules show, QUENCH_ESTIMATE_AFTER=0"
expect_err "$SAY" "rules show says how long the tiers take"
if cmp -s "$TMP/out" "$TMP/plain"; then ok; else
    not_ok "rules show prints the same with the estimate"; fi

# --- 2. nothing to say: -q, a grading: section, a distribution in reach --
QUENCH_ESTIMATE_AFTER=0 q -q generate "$T14" -n 1 --seed 1
expect_rc 0 "-q generate"
if grep -q "$SAY" "$TMP/err"; then not_ok "-q: no estimate"; else ok; fi
QUENCH_ESTIMATE_AFTER=0 q rules show "$TMP/tri-14-graded.yaml"
expect_rc 0 "rules show of a rule with grading:"
if grep -q "$SAY" "$TMP/err"; then
    not_ok "a grading: section: nothing sampled, nothing said"
else ok; fi
QUENCH_ESTIMATE_AFTER=0 q generate "$R/torus-5x5.yaml" -n 2 --seed 1
expect_rc 0 "generate torus 5x5"
if grep -q "$SAY" "$TMP/err"; then
    not_ok "tiers from the exact distribution: nothing said"
else ok; fi

# --- 3. a bad value: exit 64 before anything is written ------------------
for bad in abc -1 86401 1.5; do
    QUENCH_ESTIMATE_AFTER=$bad q generate "$T14" -n 1 --seed 1 -o "$TMP/g.jsonl"
    expect_rc 64 "QUENCH_ESTIMATE_AFTER=$bad"
    expect_err "QUENCH_ESTIMATE_AFTER is '$bad': it must be a number of seconds, 0 to 86400" "says which value is wrong ($bad)"
    if [ -e "$TMP/g.jsonl" ]; then not_ok "no output file for $bad"; else ok; fi
    QUENCH_ESTIMATE_AFTER=$bad q rules show "$T14"
    expect_rc 64 "rules show, QUENCH_ESTIMATE_AFTER=$bad"
    expect_empty_out "rules show prints nothing for $bad"
done
done_testing
