#!/bin/sh
# abi-check.sh [--update] LIB VERSION [ABI_DIR]: the ABI guard of
# libquench.so (issue #32, docs/API.md "Changing the ABI").
#
# ABI_DIR (default abi/) holds libquench.abi, the abidw record of the
# exported ABI (the QN_API functions and the types of include/), and
# VERSION, the Makefile VERSION it was recorded at. The check compares LIB
# with the record (abidiff) and fails when
#   - the ABI changed (anything added, removed or changed) and VERSION is
#     the recorded one: bump VERSION, then record again (--update);
#   - the change is incompatible (a function removed, a type changed) and
#     the SONAME (libquench.so.MAJOR, MAJOR = VERSION's first number) is
#     the recorded one: bump MAJOR.
# With --update it records LIB and VERSION instead. Needs abigail-tools.
set -u
update=0
[ "${1:-}" = --update ] && { update=1; shift; }
lib=${1:?usage: abi-check.sh [--update] LIB VERSION [ABI_DIR]}
version=${2:?usage: abi-check.sh [--update] LIB VERSION [ABI_DIR]}
dir=${3:-abi}
top=$(cd "$(dirname "$0")/.." && pwd)
for t in abidw abidiff; do
    command -v $t >/dev/null 2>&1 || {
        echo "abi-check: $t missing: scripts/install-deps --test" >&2
        exit 69
    }
done
abidw_lib() { # the ABI of LIB as the record keeps it, on stdout
    abidw --no-corpus-path --no-comp-dir-path --drop-private-types \
        --headers-dir "$top/include" "$lib"
}
if [ $update = 1 ]; then
    mkdir -p "$dir"
    abidw_lib >"$dir/libquench.abi.tmp" &&
        mv "$dir/libquench.abi.tmp" "$dir/libquench.abi" &&
        echo "$version" >"$dir/VERSION" || exit 1
    echo "abi: recorded $lib at $version in $dir/"
    exit 0
fi
[ -f "$dir/libquench.abi" ] && [ -f "$dir/VERSION" ] || {
    echo "abi-check: no record in $dir/: make abi-update" >&2
    exit 66
}
recorded=$(cat "$dir/VERSION")
# A sanitizer build exports ASan's __odr_asan.* markers beside the API.
supp=${TMPDIR:-/tmp}/abisupp.$$
printf '[suppress_variable]\n  symbol_name_regexp = ^__odr_asan\\.\n' >"$supp"
abidiff --suppressions "$supp" --hd2 "$top/include" "$dir/libquench.abi" \
    "$lib" >"${TMPDIR:-/tmp}/abidiff.$$" 2>&1
rc=$?
report() { sed 's/^/    /' "${TMPDIR:-/tmp}/abidiff.$$" | head -n 40 >&2; }
trap 'rm -f "${TMPDIR:-/tmp}/abidiff.$$" "$supp"' EXIT
if [ $rc -eq 0 ]; then
    echo "abi: $lib matches the record ($recorded)"
    exit 0
fi
if [ $((rc & 3)) -ne 0 ]; then
    echo "abi-check: abidiff failed (status $rc)" >&2
    report
    exit 1
fi
major() { echo "$1" | cut -d. -f1; }
if [ "$version" = "$recorded" ]; then
    echo "abi-check: the ABI of $lib changed but VERSION is still" \
        "$version: bump VERSION in the Makefile (and its first number" \
        "for an incompatible change), then make abi-update" >&2
    report
    exit 1
fi
if [ $((rc & 8)) -ne 0 ] && [ "$(major "$version")" = "$(major "$recorded")" ]; then
    echo "abi-check: incompatible ABI change from $recorded to $version" \
        "without a new SONAME: bump VERSION's first number" \
        "(libquench.so.$(major "$version")), then make abi-update" >&2
    report
    exit 1
fi
echo "abi: $lib changed since $recorded, and VERSION $version says so:" \
    "make abi-update records it"
exit 0
