#!/bin/sh
# t020: a command line that forgives and explains (issue #23): -q and -v
# anywhere before "--", "did you mean" for commands, subcommands, options
# and pack names (the closest real word from the usage texts, exit
# statuses unchanged), why an option was refused, help for every command
# and subcommand, help help, and -n 0 refused.
. "$(dirname "$0")/lib.sh"

R=$TOP/rules
DB=$TMP/f.db

# ---- global -q and -v after the command word ----
q rules check "$R/classic-3x3.yaml" -q
expect_rc 0 "-q after the command"
expect_empty_out "-q after the command: no ok line"
q rules check -q "$R/classic-3x3.yaml"
expect_rc 0 "-q between the subcommand and a file"
expect_empty_out "-q between: no ok line"
q rules check --quiet "$R/classic-3x3.yaml"
expect_rc 0 "--quiet after the command"
expect_empty_out "--quiet after the command: no ok line"
# -v after the command shows the offending line under a located error
printf 'quench: 1\nname: x\ncolours: 2\nboard:\n  grid: [3, 3]\ntoggles: 1\n' >bad.yaml
q rules check bad.yaml -v
expect_rc 65 "-v after the command: still the error status"
expect_err "  toggles: 1" "-v after the command: the source line is shown"
expect_err "  ^" "-v after the command: a caret"
# the value of an option is never taken for a global flag
q pack --db "$DB" create t1 --title -q
expect_rc 0 "--title -q: a title"
q pack --db "$DB" list --json
expect_out '"title":"-q"' "--title -q kept -q as the title"
q pack --db "$DB" create t2 -q
expect_rc 0 "pack create -q"
expect_empty_out "pack create -q says nothing"
# after "--" a -q is an operand, not a flag
q rules check -- -q
expect_rc 66 "-q after --: a file name"
expect_err "-q: cannot open" "-q after --: read as a file"

# ---- did you mean: commands ----
q generat
expect_rc 64 "mistyped command: 64"
expect_err "'generat' is not a quench command" "mistyped command named"
expect_err "did you mean 'generate'?" "mistyped command: suggestion"
q valdiate
expect_err "did you mean 'validate'?" "swapped letters: suggestion"
q frobnicate
expect_rc 64 "unknown command: 64"
if grep -q "did you mean" err; then not_ok "a far word gets no suggestion"; else ok; fi
q help generat
expect_rc 64 "help of a mistyped command"
expect_err "did you mean 'generate'?" "help: suggestion"

# ---- did you mean: subcommands ----
q pack --db "$DB" lst
expect_rc 64 "mistyped pack subcommand: 64"
expect_err "unknown subcommand 'lst'" "mistyped subcommand named"
expect_err "did you mean 'list'?" "pack lst -> list"
q db --db "$DB" stast
expect_rc 64 "mistyped db subcommand: 64"
expect_err "did you mean 'stats'?" "db stast -> stats"
q rules shwo "$R/classic-3x3.yaml"
expect_rc 64 "mistyped rules subcommand: 64"
expect_err "did you mean 'show'?" "rules shwo -> show"

# ---- did you mean: options; why an option was refused ----
q generate "$R/classic-3x3.yaml" --presess 3
expect_rc 64 "mistyped option: 64"
expect_err "unknown option '--presess'" "mistyped option named"
expect_err "did you mean '--presses'?" "--presess -> --presses"
q generate "$R/classic-3x3.yaml" --presess=3
expect_err "did you mean '--presses'?" "--presess=3 -> --presses"
q generate "$R/classic-3x3.yaml" -presses 3
expect_rc 64 "one-dash long option: 64"
expect_err "did you mean '--presses'?" "-presses -> --presses"
q solve "$R/classic-3x3.yaml" --sate 100/000/000
expect_rc 64 "solve: mistyped option"
expect_err "did you mean '--state'?" "--sate -> --state"
q export p --format json --dbb "$DB"
expect_rc 64 "export: mistyped option"
expect_err "did you mean '--db'?" "--dbb -> --db"
q validate "$R/classic-3x3.yaml" --jsnl
expect_err "did you mean '--jsonl'?" "--jsnl -> --jsonl"
q import x.json --pakc p
expect_err "did you mean '--pack'?" "--pakc -> --pack"
q rules show "$R/classic-3x3.yaml" --distrbution
expect_err "did you mean '--distribution'?" "--distrbution -> --distribution"
q rules check --jsn "$R/classic-3x3.yaml"
expect_rc 64 "rules check: mistyped option"
expect_err "did you mean '--json'?" "rules check --jsn -> --json"
q pack --db "$DB" list --nmaes
expect_err "did you mean '--names'?" "pack list --nmaes -> --names"
q db --db "$DB" stats --jsno
expect_err "did you mean '--json'?" "db stats --jsno -> --json"
q generate "$R/classic-3x3.yaml" --seed
expect_rc 64 "missing value: 64"
expect_err "option '--seed' needs a value" "missing value named"
q generate "$R/classic-3x3.yaml" --unique-optimum=yes
expect_rc 64 "a value for a flag: 64"
expect_err "option '--unique-optimum' takes no value" "a value for a flag named"
q generate "$R/classic-3x3.yaml" --p 3
expect_rc 64 "ambiguous abbreviation: 64"
expect_err "option '--p' is ambiguous: --presses, --pack" "ambiguous abbreviation named"
q pack --db "$DB" list --svg
expect_rc 64 "an option of another subcommand: 64"
expect_err "pack list: unknown option '--svg'" "pack list refuses show's --svg"
q --verbos rules check "$R/classic-3x3.yaml"
expect_rc 64 "mistyped global option: 64"
expect_err "did you mean '--verbose'?" "--verbos -> --verbose"

# ---- did you mean: pack names (66, as for a missing pack) ----
q -q generate "$R/classic-3x3.yaml" -n 2 --seed 1 --db "$DB" --pack world1
q pack --db "$DB" create world2
q pack --db "$DB" show wrold1
expect_rc 66 "mistyped pack name: 66"
expect_err "no pack named 'wrold1'; did you mean 'world1'?" "wrold1 -> world1"
q pack --db "$DB" show world
expect_err "did you mean 'world1' or 'world2'?" "two as close: both"
q pack --db "$DB" sort wrold2
expect_rc 66 "pack sort of a mistyped name: 66"
expect_err "did you mean 'world2'?" "sort: suggestion"
q pack --db "$DB" show wrold1 --svg
expect_rc 66 "pack show --svg of a mistyped name: 66"
expect_err "did you mean 'world1'?" "show --svg: suggestion"
q export wrold1 --format json --db "$DB"
expect_rc 66 "export of a mistyped pack: 66"
expect_err "did you mean 'world1'?" "export: suggestion"
q pack --db "$DB" show zzzzzzzz
expect_rc 66 "a pack name far from all: 66"
if grep -q "did you mean" err; then not_ok "a far pack name gets no suggestion"; else ok; fi

# ---- help for every command, help help, help COMMAND SUBCOMMAND ----
q help help
expect_rc 0 "help help"
expect_out "usage: quench help [COMMAND [SUBCOMMAND]]" "help help: its usage"
q help --help
expect_rc 0 "help --help"
expect_out "usage: quench help" "help --help: its usage"
q help pack add
expect_rc 0 "help pack add"
expect_out "usage: quench pack" "help pack add: pack's usage"
q help db stats
expect_rc 0 "help db stats"
expect_out "usage: quench db" "help db stats: db's usage"
q help pack lst
expect_rc 64 "help pack lst"
expect_err "did you mean 'list'?" "help pack lst: suggestion"
q help export json
expect_rc 64 "help of a subcommand of a command without any"
q help
expect_out "completions" "help lists completions"
expect_out "-q, --quiet" "help lists the global options"

# ---- -n 0 ----
q generate "$R/classic-3x3.yaml" -n 0 --seed 1
expect_rc 64 "-n 0: 64"
expect_err "--count needs a number of puzzles, 1 or more, got '0'" "-n 0: why"
expect_empty_out "-n 0: no header, no summary"
q generate "$R/classic-3x3.yaml" -n 0 --seed 1 --db "$TMP/n0.db" --pack p
expect_rc 64 "-n 0 --db: 64"
if [ -e "$TMP/n0.db" ]; then not_ok "-n 0 --db created a database"; else ok; fi

done_testing
