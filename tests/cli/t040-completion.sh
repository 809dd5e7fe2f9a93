#!/bin/sh
# t040: shell completion (issue #23). The bash script is sourced in bash
# and its function called with COMP_WORDS/COMP_CWORD set, as bash does on
# Tab; the fish script is asked through `complete -C`; zsh's is parsed
# (zsh -n) and its function run with compadd stubbed. Candidates come
# from the command table, so a command, subcommand or option the usage
# texts name must be offered; pack names come from the database on the
# line, tier names from the rule file on the line. Needs bash; zsh and
# fish (Debian packages zsh, fish) are skipped with a note when missing.
. "$(dirname "$0")/lib.sh"

R=$TOP/rules
DB=$TMP/c.db
# the scripts run `quench` from PATH, as an installed one would
mkdir bin
ln -s "$QUENCH" bin/quench
PATH=$TMP/bin:$PATH
export PATH

q -q generate "$R/classic-3x3.yaml" -n 2 --seed 1 --db "$DB" --pack world1
q pack --db "$DB" create world2 -q
q pack --db "$DB" create other -q

for sh in bash zsh fish; do
    q completions $sh
    expect_rc 0 "completions $sh"
    cp out "script.$sh"
done
q completions tcsh
expect_rc 64 "completions of an unknown shell: 64"

# ---- bash: source the script, call _quench as bash would ----
# comp WORD...: complete the last word (may be ''); candidates in "got"
comp() {
    bash -c '. ./script.bash
COMP_WORDS=(quench "$@"); COMP_CWORD=$#
_quench
printf "%s\n" "${COMPREPLY[@]}"' comp "$@" >got 2>comp.err
}
got() { sort got | tr '\n' ' ' | sed 's/ $//'; }

comp ""
for c in rules solve show validate generate pack db export import completions help; do
    grep -qx "$c" got && ok || not_ok "bash: command '$c' offered"
done
comp gen
expect_eq "$(got)" "generate" "bash: gen -> generate"
comp pack ""
expect_eq "$(got)" "add build create delete list move remove rename replace show sort" "bash: pack's subcommands"
comp db s
expect_eq "$(got)" "stats" "bash: db s -> stats"
comp db stats --
expect_eq "$(got)" "--db --help --json --quiet --verbose" "bash: db stats' options, each once"
comp rules show --
expect_eq "$(got)" "--distribution --format --help --json --matrix --png --quiet --sample --svg --tiers --verbose" "bash: rules show's options"
comp generate x --pr
expect_eq "$(got)" "--presses" "bash: generate --pr -> --presses"
comp export p --format ""
expect_eq "$(got)" "csv dir flip html json jsonl png svg" "bash: export --format's values"
comp show x --color ""
expect_eq "$(got)" "always auto never" "bash: show --color's values (its usage: auto, always, never)"
comp show --db "$DB" --pack ""
expect_eq "$(got)" "other world1 world2" "bash: show --pack: pack names from --db"
comp generate x --mode s
expect_eq "$(got)" "sample spread" "bash: generate --mode s"
comp pack --db "$DB" show ""
expect_eq "$(got)" "other world1 world2" "bash: pack names from --db"
comp pack --db "$DB" add w
expect_eq "$(got)" "world1 world2" "bash: pack add w -> the packs"
QUENCH_DB=$DB comp export w
expect_eq "$(got)" "world1 world2" "bash: pack names from \$QUENCH_DB"
# bash splits --db=FILE into --db, =, FILE
comp pack --db = "$DB" sort o
expect_eq "$(got)" "other" "bash: --db=FILE read as bash splits it"
comp generate "$R/classic-5x5.yaml" --tier ""
# classic-5x5.yaml's own grading: easy, medium, hard
expect_eq "$(got)" "easy hard medium" "bash: tier names from the rule file on the line"
comp generate "$R/ring6-mod8.yaml" --tier e
expect_eq "$(got)" "easy expert" "bash: tiers of a rule without its own (rules show --tiers)"
comp help pack r
expect_eq "$(got)" "remove rename replace" "bash: help pack r"
comp completions ""
expect_eq "$(got)" "bash fish zsh" "bash: completions' shells"
comp -
expect_eq "$(got)" "--help --quiet --verbose --version -h -q -v" "bash: global options"
touch rulesfile.yaml
comp generate rulesf
expect_eq "$(got)" "rulesfile.yaml" "bash: a RULES operand completes file names"
comp frobnicate ""
expect_eq "$(got)" "" "bash: nothing after an unknown command"
[ -s comp.err ] && not_ok "bash: the completion printed errors" || ok
q completions --candidates -- pack --db "$TMP/none.db" show ""
expect_rc 0 "candidates with a missing database"
expect_eq "$(cat out)" "words" "candidates with a missing database: none"
if [ -e "$TMP/none.db" ]; then not_ok "completion created a database"; else ok; fi

# ---- zsh ----
if command -v zsh >/dev/null 2>&1; then
    zsh -n script.zsh && ok || not_ok "zsh -n script.zsh"
    zsh -c '
compadd() { local arr; while (( $# )); do [[ $1 == -a ]] && arr=$2; shift; done; print -l -- ${(P)arr}; }
compset() { :; }
_files() { print -- "<files>"; }
source ./script.zsh >/dev/null 2>&1
words=(quench pack --db '"$DB"' show w); CURRENT=6; _quench
words=(quench gen); CURRENT=2; _quench
words=(quench generate ""); CURRENT=3; _quench' >got 2>&1
    expect_eq "$(cat got | tr '\n' ' ')" "world1 world2 generate <files> " "zsh: candidates"
else
    echo "# zsh not installed (Debian: zsh): zsh checks skipped"
fi

# ---- fish ----
if command -v fish >/dev/null 2>&1; then
    fish -n script.fish && ok || not_ok "fish -n script.fish"
    fish -c "source script.fish; complete -C'quench gen'" >got 2>&1
    expect_eq "$(cut -f1 got)" "generate" "fish: gen -> generate"
    grep -q "generate	generate graded" got && ok || not_ok "fish: the command's summary as its description"
    fish -c "source script.fish; complete -C'quench pack --db $DB show w'" >got 2>&1
    expect_eq "$(cut -f1 got | tr '\n' ' ')" "world1 world2 " "fish: pack names"
    fish -c "source script.fish; complete -C'quench export --format=js'" >got 2>&1
    expect_eq "$(cut -f1 got | tr '\n' ' ')" "--format=json --format=jsonl " "fish: --format=VALUE"
else
    echo "# fish not installed (Debian: fish): fish checks skipped"
fi

done_testing
