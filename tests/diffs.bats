#!/usr/bin/env bats
# make diff-N, the tutorial's lessons: each of chapters 02-07 adds at most
# about 120 lines of code (comments and blank lines aside) to the chapter
# before; chapter 09, an extension, gets a note instead of a rewrite's diff;
# and no chapter sizes a grid from a literal CU count.

load helpers

added_code_lines() { # N: lines of code make diff-N adds
    make --no-print-directory "diff-$1" | awk '
        /^\+\+\+ / { next }
        /^\+/ { line = substr($0, 2); sub(/^[ \t]+/, "", line)
                if (line == "" || line ~ /^(\/\*|\*|\/\/)/) next; added++ }
        END { print added + 0 }'
}

@test "make diff-2 to diff-7: each adds at most 120 lines of code" {
    for n in 2 3 4 5 6 7; do
        added=$(added_code_lines "$n")
        echo "diff-$n: $added lines of code added"
        [ "$added" -gt 0 ]
        [ "$added" -le 120 ]
    done
}
@test "make diff-8 compares chapter 08 with chapter 07" {
    run make --no-print-directory diff-8
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "diff --git a/chapters/07-kernel-fusion/train.hip b/chapters/08-tuned-gfx906/train.hip" ]]
}
@test "make diff-9: a note pointing to chapter 09's README, not a rewrite's diff" {
    run make --no-print-directory diff-9
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"chapter 09-hidden-layer is an extension"* ]]
    [[ "$output" == *"chapters/09-hidden-layer/README.md"* ]]
    grep -q "^## What was reused, and what had to change" chapters/09-hidden-layer/README.md
    [[ "$output" != *"diff --git"* ]]
}
@test "make diff-0 and diff-42: refused with a message" {
    run make --no-print-directory diff-0
    [ "$status" -eq 2 ]
    [[ "$output" == *"has no chapter before it"* ]]
    run make --no-print-directory diff-42
    [ "$status" -eq 2 ]
    [[ "$output" == *"no chapter '42'"* ]]
}
@test "no chapter has a literal CU count: persistent grids come from the device" {
    # Code lines only (comments may cite gfx906's 60 CUs).
    run grep -nE '^[^/*]*[^0-9.]60[^0-9.]|FUSED_BLOCKS' chapters/*/train.hip
    echo "$output"
    [ "$status" -eq 1 ]
    grep -q 'hipOccupancyMaxActiveBlocksPerMultiprocessor' chapters/07-kernel-fusion/train.hip
    grep -q 'hipOccupancyMaxActiveBlocksPerMultiprocessor' chapters/08-tuned-gfx906/train.hip
}

# make diff-8 | head must not end with "make: *** [...: diff-8] Error 1"
# when head stops reading. Here the reader is gone before make starts: its
# stdout is a FIFO whose only reader was closed, so the first write gets SIGPIPE.
@test "make diff-N and make help into a pipe whose reader is gone: status 0, no make error" {
    local fifo="$BATS_TEST_TMPDIR/fifo" err="$BATS_TEST_TMPDIR/err" target status
    mkfifo "$fifo"
    for target in diff-8 diff-2 diff-9 help; do
        # shellcheck disable=SC2094 # opened both ways so that the write end opens, then the reader closed
        exec 4<>"$fifo" 5>"$fifo" 4<&-
        status=0
        plain_make "$target" HIP_PLATFORM=cpu >&5 2>"$err" || status=$?
        exec 5>&-
        echo "make $target: status $status, stderr: $(cat "$err")"
        [ "$status" -eq 0 ]
        [ ! -s "$err" ]
    done
    # A real failure is still one
    run plain_make diff-0
    [ "$status" -eq 2 ]
}

@test "make in a chapter's folder runs that chapter's goal; its Makefile is the same in every folder, so no diff shows it" {
    run make -s -C chapters/03-shared-memory-tiles diff
    echo "$output" | head -3
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "diff --git a/chapters/02-coalesced-layout/train.hip b/chapters/03-shared-memory-tiles/train.hip" ]]
    run make -s -C chapters/00-cpu-reference -n
    [ "$status" -eq 0 ]
    [[ "$output" == *"chapter-00"* ]]
    [ "$(cat chapters/*/Makefile | sort | uniq | wc -l)" -eq "$(wc -l <chapters/00-cpu-reference/Makefile)" ]
    [ "$(ls -d chapters/*/ | wc -l)" -eq "$(ls chapters/*/Makefile | wc -l)" ]
}
