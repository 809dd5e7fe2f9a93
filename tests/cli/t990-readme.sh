#!/bin/sh
# tier: full (the README's whole walkthrough: 10 s of CPU)
# t990: the README's walkthrough, top to bottom, as a new user would run it
# (issue #23). Every ```sh block after the set-up is taken from README.md
# and run in order, in a copy of the clone's rules/, with `quench` on the
# PATH: each command must succeed. In blocks written as a session (lines
# starting "$ "), the command is run and every output line the README
# shows must be in its output, in order ("..." stands for lines left
# out); a command ending "# exit N" must exit N. The set-up block (sh scripts/make ...) is proven on a bare Debian
# root by scripts/fresh-root.sh, not here.
. "$(dirname "$0")/lib.sh"

unset QUENCH_DB
mkdir bin
ln -s "$QUENCH" bin/quench
PATH=$TMP/bin:$PATH
export PATH
cp -R "$TOP/rules" rules
mkdir db

# The blocks, one file each: block-N.sh (commands) and block-N.session
# (a session: commands and the output shown).
awk '
    /^```sh$/ { n++; f = sprintf("block-%02d", n); inb = 1; sess = 0; next }
    /^```$/ { inb = 0; next }
    inb && n > 0 { print > f ".txt" }
' "$TOP/README.md"

blocks=$(ls block-*.txt | wc -l)
[ "$blocks" -ge 6 ] && ok || not_ok "README has $blocks sh blocks, expected the walkthrough's"

# run_commands FILE: each line a command, run in order in this directory.
run_commands() {
    while IFS= read -r line; do
        case $line in '' | '#'*) continue ;; esac
        sh -c "$line" >cmd.out 2>cmd.err </dev/null
        r=$?
        expect_eq "$r" 0 "README: $line"
        [ "$r" -eq 0 ] || sed 's/^/    /' cmd.err | head -n 5
    done <"$1"
}

# run_session FILE: "$ command" lines run; the lines after each, up to the
# next "$ ", must appear in the command's output in that order.
run_session() {
    awk '/^\$ / { n++; sub(/^\$ /, ""); print > sprintf("cmd-%02d.sh", n); next }
         n > 0 && $0 != "..." { print > sprintf("cmd-%02d.want", n) }' "$1"
    for c in cmd-*.sh; do
        line=$(cat "$c")
        # "# exit N" after a command: the README says it exits N
        want_rc=$(echo "$line" | sed -n 's/.*# exit \([0-9]*\)$/\1/p')
        sh -c "$line" >cmd.out 2>cmd.err </dev/null
        r=$?
        expect_eq "$r" "${want_rc:-0}" "README: $line"
        want=${c%.sh}.want
        [ -f "$want" ] || continue
        python3 - "$want" cmd.out "$line" <<'EOF' && ok || not_ok "README output of: $line"
import sys
want = [l.rstrip("\n") for l in open(sys.argv[1])]
got = [l.rstrip("\n") for l in open(sys.argv[2])]
i = 0
for w in want:
    while i < len(got) and got[i] != w:
        i += 1
    if i == len(got):
        print("    the README shows a line the command does not print (in this order):")
        print("    " + w)
        sys.exit(1)
    i += 1
EOF
    done
    rm -f cmd-*.sh cmd-*.want
}

for b in block-*.txt; do
    if grep -q '^sh scripts/make' "$b"; then
        continue # the set-up: scripts/fresh-root.sh
    fi
    if grep -q '^\$ ' "$b"; then
        run_session "$b"
    else
        run_commands "$b"
    fi
done

# After `make demo` alone (issue #36): the demo's commands, read from the
# Makefile's recipe, run in a fresh folder; then every README command on
# the pack `starter` (the See and Packs blocks) must succeed on the pack
# the demo made, with no earlier generate example.
mkdir demo
cp -R "$TOP/rules" demo/rules
awk '/^demo:/ { on = 1; next } on && /^\t/ { print; next } on { exit }' \
    "$TOP/Makefile" | sed 's/^\t//' |
    awk '{ if (sub(/\\$/, "")) { printf "%s", $0 } else print }' |
    sed 's/\$(QUENCH)/quench/g; s/\$(DEMO_SEED)/2026/g' >demo/demo.sh
expect_eq "$(grep -c '^quench ' demo/demo.sh)" 5 "the demo's recipe is five quench commands"
(cd demo && sh -e demo.sh >demo.out 2>demo.err)
expect_eq "$?" 0 "make demo's commands"
cat block-*.txt | grep -E '^quench .* starter( |\.json|$)' |
    grep -v '^quench generate' >demo/readme.sh
expect_eq "$(grep -c '' demo/readme.sh)" 8 "the README's commands on the pack starter"
while IFS= read -r line; do
    (cd demo && sh -c "$line" >cmd.out 2>cmd.err </dev/null)
    r=$?
    expect_eq "$r" 0 "after make demo, README: $line"
    [ "$r" -eq 0 ] || sed 's/^/    /' demo/cmd.err | head -n 3
done <demo/readme.sh

done_testing
