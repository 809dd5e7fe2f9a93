#!/bin/sh
# tier: full (headless Chromium, three page loads)
# t512: the html player's attempt log (issue #33 section 3,
# docs/ATTEMPTS.md) in a real browser. The page's #selftest-record mode
# drives it through DOM events on a fresh profile: nothing is kept before
# the player ticks "record my attempts"; then a solve with an undo and a
# hint, an abandoned puzzle, a puzzle left without a press (no attempt),
# a restart and three plain solves are kept with their counts, nothing
# after unticking, and "download log" gives the log's text as a blob; no
# request leaves the page. A second load on the same profile finds the
# choice and the log kept. The downloaded text is read by quench
# calibrate (the format both sides keep to), and the page's CSP is still
# closed (no connect-src).
# Needs chromium: when missing the checks FAIL (not skipped).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/cli/browser.sh"

DB=$TMP/x.db
PROF=$TMP/profile
mkdir -p "$PROF"

# open URL: browser.sh's browser on the one profile $PROF, --dump-dom.
open_page() {
    browser "$PROF" "$1" --dump-dom
}

q generate "$TOP/rules/classic-5x5.yaml" -n 10 --seed 3 --db "$DB" --pack p
expect_rc 0 "generate"
q export p --db "$DB" --format html -o "$TMP/p.html"
expect_rc 0 "export html"
page=$TMP/p.html

# The CSP is the closed one t510 checks, and names no connect-src.
expect_closed_csp "$page" "CSP meta"
if grep -q "connect-src" "$page"; then not_ok "the page names a connect-src"; else ok; fi
# off by default: the checkbox is not checked in the markup
if grep -q '<input type="checkbox" id="record">' "$page"; then ok
else not_ok "no unchecked 'record my attempts' box"; fi

# A plain load records nothing and says so.
open_page "file://$page"
if grep -q '<span id="log-count">0 attempts recorded</span>' "$TMP/dom"; then ok
else not_ok "a fresh page does not say 0 attempts recorded"; fi

open_page "file://$page#selftest-record"
expect_selftest selftest-record 'PASS attempts=6 checks=[0-9]* requests=0' \
    "the recording self-test"
sed -n '/<pre id="selftest-log">/,/<\/pre>/p' "$TMP/dom" | grep '^{' |
    sed 's/&quot;/"/g; s/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g' >log.jsonl
expect_eq "$(grep -c '"attempt"' log.jsonl)" 6 "the downloaded log holds 6 attempts"

# The same profile again: the choice (ticked again last) and the log kept.
open_page "file://$page#selftest-remember"
if grep -q '<pre id="selftest-remember">record=true attempts=6</pre>' "$TMP/dom"; then ok
else not_ok "a second load: $(sed -n 's/.*<pre id="selftest-remember">\([^<]*\).*/\1/p' "$TMP/dom")"; fi

# quench calibrate reads the page's log: 6 attempts, one abandoned, one
# with a hint, four fitted, one player.
q calibrate log.jsonl -o model.txt
expect_rc 0 "calibrate the page's log"
expect_out "attempts: 6 in 1 log: 4 solved and fitted, 1 solved with hints, 1 abandoned, 0 ungraded" \
    "calibrate counts the page's attempts"
expect_out "players: 1" "one player"

done_testing
