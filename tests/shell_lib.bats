#!/usr/bin/env bats
# common/scripts/lib.sh, the scripts' one library: die's message and detail
# lines on stderr and its status 1, die_usage's status 2, error's lines
# without an exit, ERROR_TAG, SCRIPT_NAME (its default, and not taken from
# the environment); the option parser and gnuplot strings; scripts run from
# another folder find it beside themselves; no script reports an error
# another way; and it is the one library, sourcing nothing, so no folder's
# scripts source another's that source them back.

setup() {
    cd "$BATS_TEST_DIRNAME/.." || return 1
    LIB=$PWD/common/scripts/lib.sh
}

# script NAME BODY: BODY as the script BATS_TEST_TMPDIR/NAME, after sourcing the
# library by its absolute path.
script() {
    printf '#!/usr/bin/env bash\nset -euo pipefail\n. "%s"\n%s\n' "$LIB" "$2" >"$BATS_TEST_TMPDIR/$1"
}

# split_streams COMMAND...: COMMAND with its stderr into BATS_TEST_TMPDIR/stderr
# (bats's run would add it to $output).
split_streams() { "$@" 2>"$BATS_TEST_TMPDIR/stderr"; }

# run_script [VAR=VALUE...] NAME: runs it (with those in its environment);
# $status, its stdout in $output, its stderr in $errors.
run_script() {
    run split_streams env "${@:1:$#-1}" bash "$BATS_TEST_TMPDIR/${!#}"
    errors=$(cat "$BATS_TEST_TMPDIR/stderr")
    echo "status $status; stdout: $output"
    echo "stderr:"
    echo "$errors"
}

@test "shell lib: die prints NAME: MESSAGE on stderr, each DETAIL on a line of its own under it, and exits 1" {
    script a.sh 'SCRIPT_NAME="make thing"
echo before
die "it broke: '\''x y'\''" "first detail" "second  detail, two spaces kept"
echo after'
    run_script a.sh
    [ "$status" -eq 1 ]
    [ "$output" = before ]
    [ "$errors" = "make thing: it broke: 'x y'
make thing:   first detail
make thing:   second  detail, two spaces kept" ]
}

@test "shell lib: die_usage exits 2; a message alone is one line; a message with a % or a backslash is printed as it is" {
    script b.sh 'SCRIPT_NAME=thing
die_usage "N must be 1 or more, got '\''50%\\n'\''"'
    run_script b.sh
    [ "$status" -eq 2 ]
    [ -z "$output" ]
    [ "$errors" = "thing: N must be 1 or more, got '50%\\n'" ]
}

@test "shell lib: error prints the same lines and goes on" {
    script c.sh 'SCRIPT_NAME=thing
error "one failed" "why"
error "two failed"
echo "still running"'
    run_script c.sh
    [ "$status" -eq 0 ]
    [ "$output" = "still running" ]
    [ "$errors" = "thing: one failed
thing:   why
thing: two failed" ]
}

@test "shell lib: ERROR_TAG goes between the name and the message, not into the detail lines (dataset/fetch.sh's form)" {
    script d.sh 'SCRIPT_NAME=dataset ERROR_TAG=error
die "the folder is wrong" "do this" "or that"'
    run_script d.sh
    [ "$status" -eq 1 ]
    [ "$errors" = "dataset: error: the folder is wrong
dataset:   do this
dataset:   or that" ]
}

@test "shell lib: SCRIPT_NAME defaults to the script's file name; neither it nor ERROR_TAG comes from the environment" {
    script e.sh 'die "no name set"'
    run_script SCRIPT_NAME=outside ERROR_TAG=outside e.sh
    [ "$status" -eq 1 ]
    [ "$errors" = "e.sh: no name set" ]
}

@test "shell lib: SCRIPT_NAME=FILE error (or die) names a file for that one message" {
    script f.sh 'SCRIPT_NAME=thing
SCRIPT_NAME=build/out.hip error "the text to change was not found"
die "the next one is the script'\''s again"'
    run_script f.sh
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "$errors" = "build/out.hip: the text to change was not found
thing: the next one is the script's again" ]
}

@test "shell lib: scripts run from another folder find it beside themselves, and keep their messages and statuses" {
    local root=$PWD
    cd "$BATS_TEST_TMPDIR"
    run bash "$root/tests/fuzz.sh" only-one-argument
    echo "$output"
    [ "$status" -eq 2 ]
    [ "$output" = "fuzz: usage: tests/fuzz.sh FUZZER SECONDS LOG CRASH_DIR WORK_DIR SEED_DIR (got 1 arguments)" ]
    run bash "$root/common/model/validation/validate.sh" nonsense
    echo "$output"
    [ "$status" -eq 2 ]
    [ "$output" = "validate: usage: validate.sh trace|simulate [FILE...]|cached|write|check|heldout" ]
    run bash "$root/common/scripts/derive_chapter.sh" no-such-chapter "$BATS_TEST_TMPDIR/derived/train.hip"
    echo "$output"
    [ "$status" -eq 2 ]
    [ "$output" = "derive_chapter.sh: no derived chapter 'no-such-chapter'" ]
    [ ! -e "$BATS_TEST_TMPDIR/derived/train.hip" ]
}

@test "shell lib: no script defines its own die or ends on an echo to stderr; every die caller sources the library" {
    git rev-parse --is-inside-work-tree >/dev/null 2>&1 || skip "not a git checkout"
    local scripts
    scripts=$(git ls-files '*.sh' '*.bash' .ci/run)
    # shellcheck disable=SC2086 # one path a line, none with spaces
    run grep -nE '^[[:space:]]*(function[[:space:]]+)?die[[:space:]]*\(\)|echo [^;|]*>&2; *exit' $scripts
    echo "$output"
    [ "$output" = "common/scripts/lib.sh:$(grep -n '^die()' common/scripts/lib.sh | cut -d: -f1):die() {" ]
    local file missing=0
    for file in $(grep -lE '(^|[^_[:alnum:]])(die|die_usage|error) ["$]' $scripts); do
        [ "$file" = common/scripts/lib.sh ] && continue
        grep -qE '^\. .*lib\.sh"?$' "$file" || { echo "$file calls die but sources no lib.sh"; missing=1; }
    done
    [ "$missing" -eq 0 ]
}

@test "shell lib: parse_options sets --NAME VALUE and flags, leaves the rest, names an unknown option" {
    script g.sh 'SCRIPT_NAME=thing
out_dir= verbose=
parse_options out-dir verbose! -- --out-dir "a b" --verbose first -- second
echo "[$out_dir] [$verbose] [${REST[*]}]"
parse_options out-dir -- --colour red'
    run_script g.sh
    [ "$status" -eq 1 ]
    [ "$output" = "[a b] [1] [first -- second]" ]
    [ "$errors" = "thing: unknown option '--colour' (options: --out-dir)" ]
}

@test "shell lib: refuse_uncommitted stops before a rewrite would lose changes not committed, naming each file; FORCE_REWRITE=1 goes on" {
    local repo=$BATS_TEST_TMPDIR/repo
    mkdir -p "$repo"
    git -C "$repo" init -q
    printf 'one\n' >"$repo/edited.md"
    printf 'two\n' >"$repo/clean.md"
    git -C "$repo" add edited.md clean.md
    git -C "$repo" -c user.name=t -c user.email=t@t commit -q -m start
    printf 'changed\n' >>"$repo/edited.md"
    printf 'new\n' >"$repo/untracked.md"
    script refuse 'SCRIPT_NAME=make-x; refuse_uncommitted "make x" "$@"; echo went on'
    run split_streams bash "$BATS_TEST_TMPDIR/refuse" "$repo/edited.md" "$repo/clean.md" "$repo/untracked.md" "$repo/missing.md"
    errors=$(cat "$BATS_TEST_TMPDIR/stderr")
    echo "$errors"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ $errors == "make-x: make x would rewrite files with changes not committed; commit or stash them, or set FORCE_REWRITE=1:"* ]]
    [[ $errors == *"$repo/edited.md"* ]]
    [[ $errors != *"clean.md"* && $errors != *"untracked.md"* ]]
    run bash "$BATS_TEST_TMPDIR/refuse" "$repo/clean.md" "$repo/untracked.md"
    [ "$status" -eq 0 ]
    [ "$output" = "went on" ]
    run env FORCE_REWRITE=1 bash "$BATS_TEST_TMPDIR/refuse" "$repo/edited.md"
    [ "$status" -eq 0 ]
    [ "$output" = "went on" ]
    # make readme-table's script refuses the same way, and leaves the file as it was
    cp README.md plots/chapter_ideas.tsv "$repo/"
    git -C "$repo" add README.md && git -C "$repo" -c user.name=t -c user.email=t@t commit -q -m readme
    awk '/<!-- chapter-table:begin/ { print; print "| a hand edit |"; next } { print }' README.md >"$repo/README.md"
    cp "$repo/README.md" "$BATS_TEST_TMPDIR/edited-readme"
    run plots/readme_table.sh --data plots/compare.tsv --ideas plots/chapter_ideas.tsv --readme "$repo/README.md"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"make readme-table would rewrite files with changes not committed"*"$repo/README.md"* ]]
    cmp "$repo/README.md" "$BATS_TEST_TMPDIR/edited-readme"
    [ -z "$(find "$repo" -name 'README.md.*')" ]
}

@test "shell lib: gp_string quotes a title for gnuplot, its new lines as \\n" {
    script h.sh 'gp_string "line \"one\"
line two"'
    run_script h.sh
    [ "$status" -eq 0 ]
    [ "$output" = "\"line 'one'\\nline two\"" ]
}

@test "shell lib: the one library sources nothing; every script that sources a library sources it, none a library of its own" {
    git rev-parse --is-inside-work-tree >/dev/null 2>&1 || skip "not a git checkout"
    run grep -nE '^[[:space:]]*(\.|source) ' common/scripts/lib.sh
    [ "$status" -eq 1 ]
    [ "$(git ls-files '*lib.sh')" = common/scripts/lib.sh ]
    # shellcheck disable=SC2046 # one path a line, none with spaces
    run grep -nE '^[[:space:]]*(\.|source) .*lib\.sh' $(git ls-files '*.sh' '*.bash')
    echo "$output"
    [ "$(grep -vc '/scripts/lib\.sh"\?$' <<<"$output")" -eq 0 ]
}
