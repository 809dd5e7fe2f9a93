#!/bin/sh
# scripts/fresh-root.sh [DIR]: prove the README's set-up on a bare Debian 12.
#
# Builds a minimal Debian 12 root (mmdebstrap --variant=minbase: no make,
# no compiler, no sudo, no git) from the Debian registry in DIR (default a
# temporary directory, removed at the end), copies a clone of this
# repository's HEAD into it, and runs the README's two set-up commands
# inside it with chroot, as root, exactly as written:
#
#   sh scripts/make demo
#   sh scripts/make check
#
# It prints how long each step took and how much was downloaded, and exits
# non-zero when either command fails. Run it (as root, on Debian, with
# mmdebstrap installed) whenever the set-up changes; the README quotes its
# figures. Mounts (/proc, /dev, /dev/pts, /dev/shm) live in a private mount
# namespace, so they vanish with it whatever happens.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "fresh-root: run as root" >&2; exit 77; }
command -v mmdebstrap >/dev/null 2>&1 ||
    { echo "fresh-root: needs mmdebstrap (apt-get install mmdebstrap)" >&2; exit 69; }

root=${1:-}
keep=1
if [ -z "$root" ]; then
    root=$(mktemp -d /var/tmp/quench-root.XXXXXX)
    keep=0
fi
cleanup() {
    [ "$keep" -eq 1 ] || rm -rf "$root"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now() { date +%s; }
mib() { du -sm "$1" 2>/dev/null | cut -f1; }

mkdir -p "$top/build"
# 1. the bare root; the downloaded packages are kept, to be counted
t0=$(now)
rmdir "$root" 2>/dev/null || true
mmdebstrap --variant=minbase --skip=download/empty --skip=cleanup/apt/cache bookworm "$root" \
    http://deb.debian.org/debian >"$top/build/fresh-root.log" 2>&1 ||
    { tail -n 20 "$top/build/fresh-root.log" >&2; exit 1; }
boot_s=$(($(now) - t0))
boot_mib=$(mib "$root/var/cache/apt/archives")
for tool in make cc gcc sudo git; do
    if chroot "$root" sh -c "command -v $tool" >/dev/null 2>&1; then
        echo "fresh-root: the bare root already has $tool" >&2
        exit 1
    fi
done
echo "fresh-root: bare Debian 12 root in ${boot_s} s, ${boot_mib} MiB downloaded (no make, cc, sudo or git)"

# 2. a clone of HEAD, as a user would have it
git clone -q --no-local "$top" "$root/root/quench"
cp /etc/resolv.conf "$root/etc/resolv.conf"

# inside CMD: run CMD in the root, in the clone, as root, with the mounts a
# browser and the tests need; the log goes to build/fresh-root-*.log
inside() {
    unshare --mount --propagation private sh -c '
        r=$1; shift
        mount --rbind /dev "$r/dev"
        mount -t proc proc "$r/proc"
        mount -t tmpfs tmpfs "$r/dev/shm"
        exec chroot "$r" /usr/bin/env -i HOME=/root TERM=dumb \
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            sh -c "cd /root/quench && $*"' sh "$root" "$@"
}

status=0
for cmd in "sh scripts/make demo" "sh scripts/make check"; do
    name=$(echo "$cmd" | sed 's/.* //')
    before=$(mib "$root/var/cache/apt/archives")
    t0=$(now)
    if inside "$cmd" >"$top/build/fresh-root-$name.log" 2>&1; then
        result=ok
    else
        result="FAILED (exit $?)"
        status=1
    fi
    secs=$(($(now) - t0))
    got=$(($(mib "$root/var/cache/apt/archives") - before))
    echo "fresh-root: '$cmd': $result in ${secs} s, ${got} MiB downloaded" \
        "(log: build/fresh-root-$name.log)"
    tail -n 3 "$top/build/fresh-root-$name.log" | sed 's/^/    /'
done
echo "fresh-root: total downloaded $(mib "$root/var/cache/apt/archives") MiB"
exit $status
