#!/bin/sh
# Determinism (#9): the same seed gives byte-identical output across gcc
# and clang, -O0 and -O2, sanitizer and plain builds, and --jobs 1 vs 2.
#
# Builds quench in extra configurations, each into its own directories
# (build/det/<config>, objects in build/det/obj/<config>, never build/obj,
# so a concurrent `make` or `make check` of the main tree is not disturbed),
# runs a fixed set of seeded commands with every binary, hashes each output
# (stdout plus exit status; images and exports by file) with sha256sum,
# prints a command x config matrix of short hashes and exits 1 on any
# mismatch, naming it and showing the first differing lines.
#
#   sh tests/determinism.sh [--res FILE]  (from anywhere; `make` built first)
# With --res, "PASSED FAILED" (outputs that agree, and 1 on any failure)
# goes to FILE for tests/run.sh to count in make check's total; the
# matrix itself ends with a "determinism: ..." line, not a total.
# Environment: DET_CONFIGS to pick configurations (default: all of
# gcc-O2 gcc-O0 gcc-san clang-O2 clang-O0), DET_JOBS for make -j.
set -u
res=
if [ "${1:-}" = --res ]; then
    res=$2
fi
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

# Invoked from a make recipe: do not inherit its command-line variables
# (VARIANT=san, OUT=...) or jobserver.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES 2>/dev/null || true

ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
jobs=${DET_JOBS:-$ncpu}
configs=${DET_CONFIGS:-gcc-O2 gcc-O0 gcc-san clang-O2 clang-O0}
gcc=gcc
command -v gcc >/dev/null 2>&1 || gcc=cc

now_ms() {
    t=$(date +%s%N 2>/dev/null)
    case $t in
    *N | '') echo $(($(date +%s) * 1000)) ;;
    *) echo $((t / 1000000)) ;;
    esac
}
secs() { # milliseconds -> seconds with one decimal
    echo "$1" | awk '{ printf "%.1f", $1 / 1000 }'
}

work=$top/build/det/run
rm -rf "$work"
mkdir -p "$work" || exit 1
fail=0

# ---- builds --------------------------------------------------------------
# build CONFIG CC VARIANT: sets bin to the binary, or to "" when it failed.
build() {
    name=$1 cc=$2 variant=$3
    out=build/det/$name
    log=$work/build-$name.log
    t0=$(now_ms)
    if make -f tests/det/det.mk -j"$jobs" CC="$cc" VARIANT="$variant" \
        OUT="$out" OBJ_DIR="build/det/obj/$name" "$out/quench" \
        >"$log" 2>&1; then
        bin=$top/$out/quench
        echo "built $name ($cc, VARIANT=$variant) in $(secs $(($(now_ms) - t0))) s"
    else
        bin=
        echo "FAIL build $name ($cc, VARIANT=$variant):"
        tail -n 30 "$log" | sed 's/^/    /'
        fail=1
    fi
}

# The release build is gcc -O2: reuse build/quench when make has nothing
# to rebuild for it (make -n prints only the `deps` probe).
release_current() {
    [ -x build/quench ] || return 1
    ! make -n build/quench 2>/dev/null | grep -q -e ' -c ' -e ' -o build/quench'
}

have_clang=yes
command -v clang >/dev/null 2>&1 || have_clang=no
run_configs=
for c in $configs; do
    bin=
    case $c in
    gcc-O2)
        if release_current; then
            bin=$top/build/quench
            echo "reusing build/quench for gcc-O2 (release build is current)"
        else
            build gcc-O2 "$gcc" release
        fi ;;
    gcc-O0) build gcc-O0 "$gcc" debug ;;
    gcc-san) build gcc-san "$gcc" san ;;
    clang-O2 | clang-O0 | clang-san)
        if [ $have_clang = no ]; then
            echo "skipped: no clang ($c)"
            continue
        fi
        case $c in
        clang-O2) build clang-O2 clang release ;;
        clang-O0) build clang-O0 clang debug ;;
        clang-san) build clang-san clang san ;;
        esac ;;
    *) echo "unknown configuration '$c'"; fail=1; continue ;;
    esac
    [ -n "$bin" ] || continue
    eval "bin_$(echo "$c" | tr '-' '_')=\$bin"
    run_configs="$run_configs $c"
done

# ---- the seeded commands -------------------------------------------------
R=$top/rules
STATE=10100/00000/11001/00111/11011

# record CONFIG CMD FILE: store the hash of FILE as CONFIG's result for CMD.
record() {
    mkdir -p "$work/out/$2"
    cp "$3" "$work/out/$2/$1"
    sha256sum <"$3" | cut -c1-64 >"$work/hash/$1.$2"
    case " $cmds " in *" $2 "*) ;; *) cmds="$cmds $2" ;; esac
}
# run CONFIG CMD ARGS...: quench ARGS in CONFIG's directory; stdout and
# the exit status are hashed, stderr (timings, seed) is not.
run() {
    cfg=$1 cmd=$2
    shift 2
    (cd "$dir" && "$Q" -q "$@" >"$dir/$cmd.out" 2>"$dir/$cmd.err"
     echo "exit $?" >>"$dir/$cmd.out")
    record "$cfg" "$cmd" "$dir/$cmd.out"
}

cmds=
mkdir -p "$work/hash"
for c in $run_configs; do
    eval "Q=\$bin_$(echo "$c" | tr '-' '_')"
    dir=$work/$c
    mkdir -p "$dir"
    t0=$(now_ms)
    for j in 1 2; do
        run "$c" gen-5x5@j$j generate "$R/classic-5x5.yaml" -n 200 \
            --seed 1234abcd --jobs $j
        run "$c" gen-4colour@j$j generate "$R/four-colour-10x10.yaml" -n 50 \
            --seed c0ffee --jobs $j
        run "$c" gen-presses@j$j generate "$R/classic-7x7.yaml" -n 30 \
            --presses 20.. --seed 77 --jobs $j
        run "$c" gen-tier@j$j generate "$R/classic-5x5.yaml" -n 30 \
            --tier hard --unique-optimum --seed 5eed --jobs $j
        run "$c" gen-exhaustive@j$j generate "$R/classic-5x5.yaml" -n 20 \
            --mode exhaustive --presses 15 --seed 5 --jobs $j
        run "$c" gen-climb@j$j generate "$R/classic-7x7.yaml" -n 10 \
            --mode climb --presses 30.. --seed 5 --jobs $j
        run "$c" gen-mod8@j$j generate "$R/ring6-mod8.yaml" -n 20 \
            --seed 8 --jobs $j
        rm -f "$dir/fresh$j.db"
        run "$c" gen-db@j$j generate "$R/classic-5x5.yaml" -n 100 \
            --seed d0b --db "fresh$j.db" --pack det --jobs $j
        run "$c" export-json@j$j export det --format json --db "fresh$j.db"
        run "$c" export-csv@j$j export det --format csv --db "fresh$j.db"
    done
    run "$c" solve-json solve "$R/classic-5x5.yaml" --state $STATE --json
    run "$c" solve-mod8-all solve "$R/ring6-mod8.yaml" --fill 1 --json --all
    # The generated states as text, plus a duplicate and an unsolvable one.
    { sed -n 's/.*"state":"\([^"]*\)".*/\1/p' "$dir/gen-5x5@j1.out"
      sed -n 's/.*"state":"\([^"]*\)".*/\1/p' "$dir/gen-5x5@j1.out" | head -n 1
      echo 10000/00000/00000/00000/00000; } >"$dir/submit.txt"
    run "$c" validate-jsonl validate "$R/classic-5x5.yaml" submit.txt --jsonl
    # Several batches of verdicts, so --jobs 2 runs its workers: 3000
    # puzzles, then the same 3000 again (duplicates).
    run "$c" gen-big generate "$R/classic-5x5.yaml" -n 3000 --seed 24 \
        --jobs 1
    grep -hv '^exit ' "$dir/gen-big.out" "$dir/gen-big.out" >"$dir/big.jsonl"
    for j in 1 2; do
        run "$c" validate-big@j$j validate "$R/classic-5x5.yaml" big.jsonl \
            --jsonl --jobs $j
    done
    run "$c" rules-show rules show --json --distribution "$R/classic-5x5.yaml"
    run "$c" rules-show-mod8 rules show --json --distribution "$R/ring6-mod8.yaml"
    rm -f "$dir/big.pbm"
    run "$c" big-solve solve "$R/classic-5x5.yaml" --size 500x400 --fill 1 \
        -o big.pbm
    if [ -f "$dir/big.pbm" ]; then
        record "$c" big-solve.pbm "$dir/big.pbm"
    else
        echo "no.image" >"$dir/big.none"
        record "$c" big-solve.pbm "$dir/big.none"
    fi
    echo "ran $c in $(secs $(($(now_ms) - t0))) s"
done

# ---- compare -------------------------------------------------------------
# Every command's group (its name without @jN) must have one hash across
# all configurations and both --jobs values; the first one is the reference.
ref_cfg=
for c in $run_configs; do ref_cfg=$c; break; done
if [ -z "$ref_cfg" ]; then
    echo "FAIL: no binary was built"
    exit 1
fi
printf '\n%-20s' command
for c in $run_configs; do printf ' %-9s' "$c"; done
printf '\n'
mismatches=
for cmd in $cmds; do
    group=${cmd%@j*}
    ref=$(cat "$work/hash/$ref_cfg.$group@j1" 2>/dev/null ||
          cat "$work/hash/$ref_cfg.$cmd")
    refname=$ref_cfg.$group@j1
    [ -f "$work/hash/$refname" ] || refname=$ref_cfg.$cmd
    printf '%-20s' "$cmd"
    for c in $run_configs; do
        h=$(cat "$work/hash/$c.$cmd")
        mark=' '
        if [ "$h" != "$ref" ]; then
            mark='*'
            mismatches="$mismatches $c.$cmd:$refname"
        fi
        printf ' %.8s%s' "$h" "$mark"
    done
    printf '\n'
done

if [ -n "$mismatches" ]; then
    echo
    for m in $mismatches; do
        this=${m%%:*} ref=${m#*:}
        cfg=${this%%.*} cmd=${this#*.}
        rcfg=${ref%%.*} rcmd=${ref#*.}
        echo "MISMATCH $cmd: $cfg differs from $rcfg ($rcmd);" \
             "outputs in $work/out/"
        cmp "$work/out/$rcmd/$rcfg" "$work/out/$cmd/$cfg" 2>&1 |
            sed "s|$work/out/||g; s/^/    /"
        diff "$work/out/$rcmd/$rcfg" "$work/out/$cmd/$cfg" 2>/dev/null |
            head -n 10 | cut -c1-300 | sed 's/^/    /'
    done
    fail=1
fi
ncmds=$(echo "$cmds" | wc -w)
if [ $fail -eq 0 ]; then
    echo "determinism: $ncmds outputs identical across$run_configs"
    [ -z "$res" ] || echo "$ncmds 0" >"$res"
else
    echo "determinism: FAILED"
    [ -z "$res" ] || echo "0 1" >"$res"
fi
exit $fail
