#!/usr/bin/env bats
# test-lane: shared-build
# make tune (chapters/08-tuned-gfx906/tune.sh) on the CPU executor: one set,
# few images, and the number of timed iterations it reports; too few timed
# iterations refused before anything is timed.

load helpers

@test "make tune on the executor: one set checked and timed over 3 iterations after the warm-up" {
    run env -u TUNE_ITERS make --no-print-directory tune HIP_PLATFORM=cpu TUNE_SETS=1:1:1 TUNE_LIMIT=64
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"make tune: chapter 08 on platform cpu, 6 iterations on 64 images per set:"* ]]
    [[ "$output" == *"3 of them timed, after 3 warm-up; median and min are over those 3"* ]]
    [[ "$output" == *"  match: "* ]]
    [[ "$output" =~ median\ ([0-9.]+)\ ms,\ min\ ([0-9.]+)\ ms\ per\ iteration,\ over\ 3\ timed\ iterations ]]
    awk -v median="${BASH_REMATCH[1]}" -v min="${BASH_REMATCH[2]}" 'BEGIN { exit !(min > 0 && min <= median) }'
    [[ "$output" == *"fastest here: cu1-f1-g1-t0, "*" ms per iteration (median of 3 timed iterations)"* ]]
}

@test "make tune with too few iterations to time 3, or a bad TUNE_ITERS or TUNE_LIMIT: status 2, named" {
    run make --no-print-directory tune HIP_PLATFORM=cpu TUNE_SETS=1:1:1 TUNE_ITERS=4
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == *"make tune: TUNE_ITERS=4 times only 1 iteration(s) (the first 3 of a run are warm-up); use TUNE_ITERS=6 or more"* ]]
    [[ "$output" != *"median"*"ms"* ]]
    run make --no-print-directory tune HIP_PLATFORM=cpu TUNE_SETS=1:1:1 TUNE_ITERS=many
    [ "$status" -eq 2 ]
    [[ "$output" == *"make tune: TUNE_ITERS must be a whole number of iterations, 1 to 999999, got 'many'"* ]]
    run env -u TUNE_ITERS make --no-print-directory tune HIP_PLATFORM=cpu TUNE_SETS=1:1:1 TUNE_LIMIT=0
    [ "$status" -eq 2 ]
    [[ "$output" == *"make tune: TUNE_LIMIT must be a number of images, 1 or more (or empty: all), got '0'"* ]]
}
