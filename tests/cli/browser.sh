# browser.sh: headless Chromium for the tests that open pages in it (t510,
# t512, tests/loaders/t600), sourced after lib.sh. Sets $CHROMIUM to the
# browser on the PATH; a missing one is a failed check, not a skip (run
# scripts/install-deps).
CHROMIUM=
for c in chromium chromium-browser; do
    if command -v "$c" >/dev/null 2>&1; then CHROMIUM=$c; break; fi
done
[ -n "$CHROMIUM" ] ||
    not_ok "chromium is missing: run scripts/install-deps (apt-get install chromium)"

# The browser is stopped by its pid whatever ends the script: a normal
# end, an early exit, or SIGHUP, SIGINT or SIGTERM (which sh would
# otherwise die of without running the EXIT trap). Only a SIGKILL of the
# script leaves it to timeout, which then stops it within 120 s.
BROWSER_PID=
browser_stop() {
    [ -n "$BROWSER_PID" ] || return 0
    kill "$BROWSER_PID" 2>/dev/null
    wait "$BROWSER_PID" 2>/dev/null
    BROWSER_PID=
}
trap 'browser_stop; rm -rf "$TMP"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# browser PROFILE URL [ARGS...]: URL in headless Chromium with ARGS, no
# network, on the profile folder PROFILE (a fresh one per call, or one
# kept across calls); the DOM after the page's scripts ran (--dump-dom)
# goes to $TMP/dom, its stderr to $TMP/chromium.err. Returns Chromium's
# status (1 when there is none, 124 when it ran out of time). It runs in
# the background so that a signal reaches the trap above at once (sh
# runs a trap only after a foreground command ends); timeout is the
# process group leader of the browser's processes, so killing it (TERM,
# then KILL 10 s later) stops them all.
browser() {
    : >"$TMP/dom"
    [ -n "$CHROMIUM" ] || return 1
    browser_prof=$1 browser_url=$2
    shift 2
    timeout -k 10 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
        --disable-quic --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync --disable-dev-shm-usage \
        --user-data-dir="$browser_prof" --virtual-time-budget=10000 \
        "$@" "$browser_url" >"$TMP/dom" 2>"$TMP/chromium.err" &
    BROWSER_PID=$!
    wait "$BROWSER_PID"
    browser_rc=$?
    BROWSER_PID=
    return "$browser_rc"
}

# expect_selftest ID PATTERN LABEL: the page's <pre id="ID"> in $TMP/dom
# is PATTERN (a grep regex); else the check fails and shows what the page
# and Chromium said.
expect_selftest() {
    if grep -q "<pre id=\"$1\">$2</pre>" "$TMP/dom"; then ok; else
        not_ok "$3"
        sed -n "/<pre id=\"$1\">/,/<\\/pre>/p" "$TMP/dom" | head -n 20 |
            sed 's/^/    page: /'
        tail -n 3 "$TMP/chromium.err" 2>/dev/null | sed 's/^/    chromium: /'
    fi
}

# expect_closed_csp PAGE LABEL: PAGE has one CSP meta that forbids all but
# its own hashed script and style (and data: images).
expect_closed_csp() {
    expect_eq "$(grep -c "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]*='; style-src 'sha256-[A-Za-z0-9+/]*='; img-src data:; base-uri 'none'; form-action 'none'\">" "$1")" 1 "$2"
}
