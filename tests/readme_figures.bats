#!/usr/bin/env bats
# test-lane: shared-build
# Every block of a README that quotes a command's output
# sits between markers naming that command, `make readme-figures` rewrites
# them all, and these tests fail when a block no longer matches what its
# command prints on a small slice (plots/readme_figures.sh --check).

load helpers

setup() {
    cd "$BATS_TEST_DIRNAME/.." || return 1
}

# a README of one figure block, made from chapter 07's: the command of its
# first block with a slice of its own, so the check compares it exactly
sliced_readme() {
    local out=$1
    {
        echo "# a test README"
        echo
        echo '<!-- figure: make profile-7 ARGS="--train-limit 1024" | counters model why:train_step -->'
        echo '<!-- figure end -->'
        echo
        echo "text after the block stays"
    } >"$out"
}

@test "readme figures: every marked block of the READMEs matches its command on a 1,024-image slice" {
    run plots/readme_figures.sh --check README.md chapters/*/README.md common/executor/README.md common/model/README.md
    echo "$output"
    [ "$status" -eq 0 ]
    [[ $output == *"every figure block matches its command"* ]]
    # every chapter with kernels quotes its profile between markers
    local dir n
    for dir in chapters/[0-9][0-9]-*/; do
        n=$(basename "$dir")
        n=${n%%-*}
        [ "$n" = 00 ] || [ "$n" -ge 9 ] && continue
        grep -q "^<!-- figure: make profile-$((10#$n)) | counters" "$dir/README.md" ||
            { echo "$dir/README.md quotes no make profile-$((10#$n)) between figure markers"; return 1; }
    done
}

@test "readme figures: a block with its own slice is written by its command and must then match it exactly" {
    local readme=$BATS_TEST_TMPDIR/README.md
    sliced_readme "$readme"
    run plots/readme_figures.sh "$readme"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ $output == *"rewritten"* ]]
    grep -q '^train_step  *1  *600 ' "$readme"
    grep -q '^Written by `make readme-figures` from `make profile-7 ARGS="--train-limit 1024"` on ' "$readme"
    tail -1 "$readme" | grep -qx "text after the block stays"
    run plots/readme_figures.sh --check "$readme"
    [ "$status" -eq 0 ]
    # a second run leaves it as it is
    cp "$readme" "$readme.before"
    run plots/readme_figures.sh "$readme"
    [[ $output == *"up to date"* ]]
    cmp "$readme" "$readme.before"
    # one number changed: the check fails and names the file, line and command
    sed -i 's/^\(train_step  *1  *600  *\)[0-9]*/\1999/' "$readme"
    run plots/readme_figures.sh --check "$readme"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"$readme:3: the block no longer matches 'make profile-7 ARGS=\"--train-limit 1024\"' (exact"* ]]
    [[ $output == *"-train_step"*"999"* ]]
}

# broken_copy SED: chapter 07's README with SED applied, which must change it
broken_copy() {
    sed "$1" chapters/07-kernel-fusion/README.md >"$BATS_TEST_TMPDIR/README.md"
    run cmp -s "$BATS_TEST_TMPDIR/README.md" chapters/07-kernel-fusion/README.md
    [ "$status" -ne 0 ]
    run plots/readme_figures.sh --check --limit 512 "$BATS_TEST_TMPDIR/README.md"
    echo "$output"
    [ "$status" -eq 1 ]
}

@test "readme figures: a full-MNIST block is checked in shape: a renamed kernel, site or source line fails" {
    run plots/readme_figures.sh --check --limit 512 chapters/07-kernel-fusion/README.md
    echo "$output"
    [ "$status" -eq 0 ]
    # the kernel's name in the counter table
    broken_copy 's/^train_step  /train_stop  /'
    [[ $output == *"the block no longer matches 'make profile-7 ARGS=\"--train-limit 512\"' (shape"* ]]
    # a call site's line number
    broken_copy 's/^\(  train_step  *train\.hip:\)58 /\159 /'
    [[ $output == *"train.hip:59 x_rows"* ]]
    # a quoted source line that the source no longer has there
    broken_copy 's/s += w_lane\[j\] \* x\[j\];/s += x[j];/'
    [[ $output == *"no longer those of their source"*"s += x[j];"*"07-kernel-fusion/train.hip:97 is now: s += w_lane[j] * x[j];"* ]]
}

@test "readme figures: a malformed marker, a command it does not run, and a failing command are refused; the file stays" {
    local readme=$BATS_TEST_TMPDIR/README.md
    printf '%s\n' '<!-- figure: make profile-7 -->' '<!-- figure end -->' >"$readme"
    run plots/readme_figures.sh "$readme"
    [ "$status" -eq 1 ]
    [[ $output == *"$readme:1: the marker is not <!-- figure: COMMAND | PARTS -->"* ]]
    printf '%s\n' '<!-- figure: make profile-7 | counters -->' 'old' >"$readme"
    run plots/readme_figures.sh "$readme"
    [ "$status" -eq 1 ]
    [[ $output == *"$readme:1: this figure block is never closed"* ]]
    printf '%s\n' '<!-- figure: make profile-7; touch pwned | counters -->' 'old' '<!-- figure end -->' >"$readme"
    cp "$readme" "$readme.before"
    run plots/readme_figures.sh "$readme"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"not a command this script runs: 'make profile-7; touch pwned'"* ]]
    [ ! -e pwned ]
    cmp "$readme" "$readme.before"
    printf '%s\n' '<!-- figure: make profile-7 ARGS="--train-limit abc" | counters -->' 'old' '<!-- figure end -->' >"$readme"
    cp "$readme" "$readme.before"
    run plots/readme_figures.sh "$readme"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"$readme:1: 'make profile-7 ARGS=\"--train-limit abc\"' failed; $readme is left as it was"* ]]
    cmp "$readme" "$readme.before"
    printf '%s\n' '<!-- figure: make profile-7 ARGS="--train-limit 64" | counters colours -->' '<!-- figure end -->' >"$readme"
    run plots/readme_figures.sh "$readme"
    [ "$status" -eq 1 ]
    [[ $output == *"unknown part 'colours'"* ]]
}
