#!/bin/sh
# t016: the ABI guard (scripts/abi-check.sh, issue #32): the built
# libquench.so matches the record in abi/ at the Makefile's VERSION, and
# the check fails when the exported ABI changes while VERSION stays (a
# record without one of today's functions: the library "added" it), and
# passes once VERSION moves.
. "$(dirname "$0")/lib.sh"

command -v abidiff >/dev/null 2>&1 || {
    not_ok "abidiff missing (scripts/install-deps --test)"
    done_testing
}
lib=$OUT/libquench.so
version=$(sed -n 's/^VERSION = //p' "$TOP/Makefile")
sh "$TOP/scripts/abi-check.sh" "$lib" "$version" "$TOP/abi" >out 2>"$TMP/err"
expect_eq "$?" 0 "the library matches abi/ ($(head -c 300 "$TMP/err"))"
expect_eq "$(cat "$TOP/abi/VERSION")" "$version" \
    "abi/ was recorded at the Makefile's VERSION"

# a record that lacks qn_pack_doc_npuzzles
mkdir -p old
cp "$TOP/abi/VERSION" old/VERSION
python3 - "$TOP/abi/libquench.abi" old/libquench.abi <<'PY'
import re, sys
s = open(sys.argv[1]).read()
s = re.sub(r"\n *<elf-symbol name='qn_pack_doc_npuzzles'[^\n]*", '', s)
s = re.sub(r"\n *<function-decl name='qn_pack_doc_npuzzles'.*?</function-decl>",
           '', s, flags=re.S)
open(sys.argv[2], 'w').write(s)
PY
expect_eq "$(grep -c qn_pack_doc_npuzzles old/libquench.abi)" 0 \
    "the doctored record lacks the function"
sh "$TOP/scripts/abi-check.sh" "$lib" "$version" old >out 2>"$TMP/err"
expect_eq "$?" 1 "an added function without a version bump fails"
expect_err "changed but VERSION is still $version" "says to bump VERSION"
expect_err "qn_pack_doc_npuzzles" "names the function"
echo 0.0.1 >old/VERSION
sh "$TOP/scripts/abi-check.sh" "$lib" "$version" old >out 2>"$TMP/err"
expect_eq "$?" 0 "the same change with VERSION moved passes"
expect_out "make abi-update records it" "and says to record it"
done_testing
