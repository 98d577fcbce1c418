#!/usr/bin/env bats
# --check: a trainer runs its first iterations again on the host with the CPU
# reference's own code (chapter 00's train_iteration, chapter 09's
# mlp_reference_step) and compares; a chapter with a wrong constant fails it.
# On a small copy of MNIST (1037 training images, not a tile multiple, and 100
# test images), so that each run takes about a second even under ASan.

load helpers
load small_dataset

setup_file() {
    export CHECK_DATA="$BATS_FILE_TMPDIR/data"
    small_dataset "$CHECK_DATA" 1037 100
}

# check_value OUTPUT: the weights' (or parameters') figure under "matches ..."
check_value() {
    sed -n '/^matches /,/^summary/s/^  \(weights\|parameters\)  *max relative difference \([0-9.e+-]*\) (limit 1e-4)$/\2/p' <<<"$1"
}

@test "--check: chapter 01 on the executor matches chapter 00, and the run is the one without --check" {
    run "$(chapter_binary 01)" "$CHECK_DATA" 7 --check --weights-out "$BATS_TEST_TMPDIR/checked.w" \
        --csv "$BATS_TEST_TMPDIR/checked.csv"
    echo "$output"
    [ "$status" -eq 0 ]
    value=$(check_value "$output")
    [ -n "$value" ]
    awk -v v="$value" 'BEGIN { exit !(v <= 1e-4) }'
    [[ "$output" == *"matches chapter 00
  compared           the weights after 5 iterations, and the 5 losses
  weights            max relative difference "*" (limit 1e-4)
  losses             max relative difference "*" (limit 1e-4)
  reference time     "*" ms on the host, between two timed iterations"* ]]
    within_80_columns "$(grep -v "^dataset " <<<"$output")" # all but the long path's line
    # the line comes after iteration 1's progress line, the summary after it
    [ "$(grep -n '^matches chapter 00' <<<"$output" | cut -d: -f1)" -gt \
        "$(grep -n '^  iteration      1 ' <<<"$output" | cut -d: -f1)" ]
    [[ "$output" == *"summary"* ]]
    # --check only reads W: the weights and losses are those of a plain run
    "$(chapter_binary 01)" "$CHECK_DATA" 7 --quiet --weights-out "$BATS_TEST_TMPDIR/plain.w" \
        --csv "$BATS_TEST_TMPDIR/plain.csv" >/dev/null
    cmp "$BATS_TEST_TMPDIR/checked.w" "$BATS_TEST_TMPDIR/plain.w"
    cmp "$BATS_TEST_TMPDIR/checked.csv" "$BATS_TEST_TMPDIR/plain.csv"
}

# --event-chunk: the epochs the harness queues before it reads their records
# back (collect() in common/harness/harness.hip). A GPU build waits every 256, the
# executor every 1, so without the option the suite never ran a chunk of
# several epochs, nor a chunk that --check cuts short at its last step.
@test "--event-chunk 1, 7 and 256 with --check: chapters 01 and 08 record the same losses and weights" {
    local chapter chunk out
    for chapter in 01 08; do
        for chunk in 1 7 256; do
            # 15 iterations, 5 checked: chunks [0,5) [5,12) [12,15) at 7, [0,5) [5,15) at 256
            out="$BATS_TEST_TMPDIR/$chapter-$chunk"
            run "$(chapter_binary "$chapter")" "$CHECK_DATA" 15 --train-limit 300 --check --event-chunk "$chunk" \
                --weights-out "$out.w" --csv "$out.csv"
            echo "$output"
            [ "$status" -eq 0 ]
            [[ "$output" == *"matches chapter 00"* ]]
            [[ "$output" == *"  timed iterations   12, after 3 warm-up"* ]]
            # the same progress lines (iterations 1, 10, 15), in order, without their times
            sed -n 's/^\(  iteration .*%\) .*/\1/p' <<<"$output" >"$out.progress"
            [ "$(wc -l <"$out.progress")" -eq 3 ]
            cmp "$BATS_TEST_TMPDIR/$chapter-1.progress" "$out.progress"
            [ "$(wc -l <"$out.csv")" -eq 16 ]
            cmp "$BATS_TEST_TMPDIR/$chapter-1.w" "$out.w"
            cmp "$BATS_TEST_TMPDIR/$chapter-1.csv" "$out.csv"
        done
    done
}

@test "--event-chunk on chapter 09: 3 epochs with --check, the test set evaluated after each whatever the chunk" {
    local chunk out
    for chunk in 1 7 256; do
        # batches of 50: 6 steps an epoch, so the 5 checked end inside epoch 1
        out="$BATS_TEST_TMPDIR/09-$chunk"
        run "$(chapter_binary 09)" "$CHECK_DATA" 3 --train-limit 300 --hidden 32 --batch 50 --check \
            --event-chunk "$chunk" --weights-out "$out.w" --csv "$out.csv"
        echo "$output"
        [ "$status" -eq 0 ]
        [[ "$output" == *"  compared           the parameters after 5 mini-batch steps, and the 5 losses"* ]]
        [ "$(grep -c '^  epoch ' <<<"$output")" -eq 3 ]
        # a test loss and accuracy for every epoch, none left at zero
        [ "$(awk -F, 'NR > 1 && $4 > 0 && $5 > 0' "$out.csv" | wc -l)" -eq 3 ]
        cmp "$BATS_TEST_TMPDIR/09-1.w" "$out.w"
        cmp "$BATS_TEST_TMPDIR/09-1.csv" "$out.csv"
    done
}

@test "--check with fewer than 5 iterations checks them all, with --quiet and --kernel-times too" {
    run "$(chapter_binary 08)" "$CHECK_DATA" 3 --check --quiet --kernel-times
    echo "$output"
    [ "$status" -eq 0 ]
    [ -n "$(check_value "$output")" ]
    [[ "$output" == *"  compared           the weights after 3 iterations, and the 3 losses"* ]]
    [[ "$output" == *"kernel times: median of 3 iterations"* ]]
}

@test "--check: chapter 01 with the gradient's 2 changed to 3 fails, naming what differs" {
    broken="$CPU_BUILD/01-wrong-gradient"
    [ -x "$broken" ] || { echo "$broken not built (make test builds it)"; false; }
    run "$broken" "$CHECK_DATA" 8 --check --weights-out "$BATS_TEST_TMPDIR/w"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"01-wrong-gradient: --check: does not match chapter 00
  compared           the weights after 5 iterations, and the 5 losses
  weights            max relative difference "*" (limit 1e-4)
  losses             max relative difference "*" (limit 1e-4)"* ]]
    [[ "$output" =~ "  worst weight       W["[0-9]+"]["[0-9]+"] = "[-+0-9.e]+" (reference "[-+0-9.e]+")" ]]
    # The first loss is at the initial weights, the same in both; the second
    # is after one step with a gradient 1.5 times too large.
    [[ "$output" =~ "  first loss off     iteration 2 = "[-+0-9.e]+" (reference "[-+0-9.e]+")" ]]
    within_80_columns "$(grep -v "^dataset " <<<"$output")" # all but the long path's line
    # It stops there: no matching line, no summary, no files.
    [[ "$output" != *"matches chapter 00"* ]]
    [[ "$output" != *"summary"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/w" ]
    # Without --check the same binary trains and exits 0: only the check sees it.
    run "$broken" "$CHECK_DATA" 8 --quiet
    [ "$status" -eq 0 ]
}

@test "--check when chapter 00 itself diverges within the checked iterations: says so, status 1" {
    run "$(chapter_binary 01)" "$CHECK_DATA" 6 1e30 --check --quiet
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$(unwrap "$output")" == *"--check: chapter 00's own W["*"] is no longer finite after 5 iterations: it diverged, so there is nothing to compare; try a smaller learning rate"* ]]
    within_80_columns "$(grep -v "^dataset " <<<"$output")" # all but the long path's line
    [[ "$output" != *nan* ]]
}

@test "--check on chapter 00 and on chapter 09's CPU reference: each says it is the reference" {
    run "$REFERENCE" "$CHECK_DATA" 2 --check --quiet
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$(unwrap "$output")" == *"--check: chapter 00 is the reference the other chapters' --check compares with, so there is nothing to compare it against"* ]]
    within_80_columns "$(grep -v "^dataset " <<<"$output")" # all but the long path's line
    run "$CPU_BUILD/09-hidden-layer-reference" "$CHECK_DATA" 1 --check --quiet
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$(unwrap "$output")" == *"--check: this is chapter 09's CPU reference, which the chapter's --check compares with, so there is nothing to compare it against"* ]]
    within_80_columns "$(grep -v "^dataset " <<<"$output")" # all but the long path's line
}

@test "--check: chapter 09 on the executor matches its CPU reference over its first mini-batch steps" {
    # 1037 images in batches of 256: 5 steps checked (the fifth has 13
    # images); 32 hidden units keep it quick under ASan
    run "$(chapter_binary 09)" "$CHECK_DATA" 1 --hidden 32 --check
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"matches chapter 09's CPU reference
  compared           the parameters after 5 mini-batch steps, and the 5 losses
  parameters         max relative difference "* ]]
    within_80_columns "$(grep -v "^dataset " <<<"$output")" # all but the long path's line
    value=$(check_value "$output")
    [ -n "$value" ]
    awk -v v="$value" 'BEGIN { exit !(v <= 1e-4) }'
    [[ "$output" == *"  reference time     "*" ms on the host, after epoch 1, not in its time"* ]]
    [[ "$output" == *"summary"* ]]
    # batches of 400: an epoch has 3 steps, and all 3 are checked
    run "$(chapter_binary 09)" "$CHECK_DATA" 1 --hidden 32 --batch 400 --check --quiet
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"  compared           the parameters after 3 mini-batch steps, and the 3 losses"* ]]
    # batches of 100: 11 steps an epoch, so the 5 checked end inside epoch 1
    # and the harness copies the parameters aside on the device; the run
    # goes on as the one without --check
    run "$(chapter_binary 09)" "$CHECK_DATA" 2 --hidden 32 --batch 100 --check --quiet \
        --weights-out "$BATS_TEST_TMPDIR/checked.w"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"  compared           the parameters after 5 mini-batch steps, and the 5 losses"* ]]
    run "$(chapter_binary 09)" "$CHECK_DATA" 2 --hidden 32 --batch 100 --quiet \
        --weights-out "$BATS_TEST_TMPDIR/plain.w"
    [ "$status" -eq 0 ]
    cmp "$BATS_TEST_TMPDIR/checked.w" "$BATS_TEST_TMPDIR/plain.w"
}

@test "--help lists --check" {
    run "$(chapter_binary 01)" --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"--check              run the first 5 iterations again on the host (chapter 00's code)"* ]]
    run "$(chapter_binary 09)" --help
    [[ "$output" == *"--check              run the first 5 mini-batch steps again on the host (chapter 09's CPU reference)"* ]]
}
