# cases.sh: sourced by tests/loaders/t6*.sh after tests/cli/lib.sh. The
# documents of tests/loaders/cases.py (issue #31), which every loader's
# replay driver must treat alike: the same exit status and the same
# message, word for word.

# make_cases SRC: write the documents, made from the pack SRC, to
# $TMP/cases/ and their table to $TMP/cases.txt.
make_cases() {
    mkdir -p "$TMP/cases"
    python3 "$TOP/tests/loaders/cases.py" "$1" "$TMP/cases" >"$TMP/cases.txt" ||
        not_ok "cannot make the documents of tests/loaders/cases.py"
}

# run_cases LABEL CMD...: run CMD FILE for every document (CMD sets $rc,
# $TMP/out and $TMP/err, as each test's replay function does) and check
# its exit status, stderr and stdout against the table.
run_cases() {
    label=$1
    shift
    sep=$(printf '\037')
    while IFS=$sep read -r name status line stdout flags; do
        file=$TMP/cases/$name.json
        "$@" "$file" </dev/null
        expect_rc "$status" "$label: $name"
        if [ -n "$line" ]; then
            want=$(printf '%s' "$line" | sed "s|{FILE}|$file|")
            # awk reads the line from the environment: -v would take its
            # backslashes for escapes.
            case $want in
            *'*')
                found=$(W=${want%'*'} awk 'index($0, ENVIRON["W"]) == 1 { print "yes"; exit }' "$TMP/err") ;;
            *)
                found=$(W=$want awk '$0 == ENVIRON["W"] { print "yes"; exit }' "$TMP/err") ;;
            esac
            if [ "$found" = yes ]; then ok; else
                not_ok "$label: $name: stderr lacks the line '$want'"
                sed 's/^/    stderr: /' "$TMP/err" | head -n 5
            fi
        fi
        expect_eq "$(cat "$TMP/out")" "$stdout" "$label: $name: stdout"
        if [ "$flags" = clean ]; then
            # Any control character but a newline.
            if tr -d '\n' <"$TMP/err" | LC_ALL=C grep -q '[[:cntrl:]]'; then
                not_ok "$label: $name: a control character on stderr"
                od -c "$TMP/err" | head -n 5 | sed 's/^/    /'
            else ok; fi
        fi
    done <"$TMP/cases.txt"
}
