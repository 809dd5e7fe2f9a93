#!/bin/sh
# t000: the CLI conventions every command shares: help, version, usage
# errors and exit statuses, and the man page kept in step with --help.
. "$(dirname "$0")/lib.sh"

q --version
expect_rc 0 "--version"
expect_out "quench " "--version names quench"
expect_out "sqlite 3." "--version names SQLite"
expect_out "libyaml 0." "--version names libyaml"
expect_out "libsodium 1." "--version names libsodium"
expect_out "libpng 1." "--version names libpng"

q --help
expect_rc 0 "--help"
expect_out "usage: quench" "--help synopsis"
q -h
expect_rc 0 "-h"
q help
expect_rc 0 "help"
expect_out "commands:" "help lists commands"

q
expect_rc 64 "no command"
q frobnicate
expect_rc 64 "unknown command"
expect_err "'frobnicate' is not a quench command" "unknown command message"
q --bogus
expect_rc 64 "unknown global option"
q help frobnicate
expect_rc 64 "help for an unknown command"

# Every command: help COMMAND, COMMAND --help and -h print the same usage
# on stdout with status 0, and its synopsis appears in the man page.
for c in $("$QUENCH" help | sed -n '/^commands:/,/^$/p' | awk 'NR>1 {print $1}'); do
    q help "$c"
    expect_rc 0 "help $c"
    cp "$TMP/out" "$TMP/help1"
    q "$c" --help
    expect_rc 0 "$c --help"
    if cmp -s "$TMP/out" "$TMP/help1"; then ok; else not_ok "$c --help differs from help $c"; fi
    q "$c" -h
    expect_rc 0 "$c -h"
    head -n 1 "$TMP/help1" | sed 's/^usage: //' >"$TMP/synopsis"
    syn=$(cat "$TMP/synopsis")
    # the man page writes the synopsis with roff escapes for '-'
    if sed 's/\\-/-/g; s/\\f[BIRP]//g' "$TOP/docs/quench.1" | grep -qF -- "$syn"; then ok; else
        not_ok "docs/quench.1 lacks the synopsis '$syn'"
    fi
done

done_testing
