#!/bin/sh
# t600: every command that takes a pack's name or a tier's name answers a
# misspelt one with the closest names ("did you mean"), as `pack sort`
# and `export` do: `show --pack`, generate's --tier and a recipe's tiers
# (pack build). The expected words are the pack created here and the
# tiers written in classic-5x5.yaml (easy 1-5, medium 6-10, hard 11-15).
. "$(dirname "$0")/lib.sh"
R=$TOP/rules

q generate "$R/classic-3x3.yaml" --count 2 --seed 1 --db p.db --pack starter
expect_rc 0 "generate a pack"

# ---- pack names: show --pack as export and pack sort ------------------
q show --pack startr --db p.db
expect_rc 66 "show --pack: no such pack"
expect_err "no pack named 'startr'; did you mean 'starter'?" "show --pack: suggestion"
q export startr --format json --db p.db
expect_rc 66 "export: no such pack"
expect_err "did you mean 'starter'?" "export: suggestion"
q pack show startr --db p.db
expect_rc 66 "pack show: no such pack"
expect_err "did you mean 'starter'?" "pack show: suggestion"
q show --pack zzzzzzzzzz --db p.db
expect_rc 66 "show --pack: a far name"
if grep -q "did you mean" "$TMP/err"; then not_ok "a far pack name gets a suggestion"; else ok; fi

# ---- tier names: generate --tier --------------------------------------
q generate "$R/classic-5x5.yaml" --count 1 --seed 1 --tier meduim
expect_rc 65 "generate --tier meduim"
expect_err "no tier 'meduim'" "generate: names the tier"
expect_err "easy 1-5, medium 6-10, hard 11-15" "generate: lists the tiers"
expect_err "did you mean 'medium'?" "generate --tier: suggestion"
expect_empty_out "generate --tier meduim: no output"

# ---- tier names: a recipe's tiers (pack build) -------------------------
cat >r.yaml <<EOT
pack: typo
seed: 1
sections:
  - name: one
    rules: $R/classic-5x5.yaml
    tiers: {hrad: 2}
EOT
q pack build r.yaml --db b.db
expect_rc 65 "pack build: unknown tier"
expect_err "r.yaml:6:13: section 'one': no tier 'hrad'" "pack build: the tier's place"
expect_err "did you mean 'hard'?" "pack build: suggestion"

done_testing
