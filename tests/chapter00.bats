#!/usr/bin/env bats
# Chapter 00, the reference: it learns, it is deterministic, it reports.

load helpers

@test "learns MNIST: 2,000 images, 100 iterations reach at least 75% test accuracy" {
    # Measured 81.88% (2026-11-22). Chance is 10%; a wrong sign or scale in the
    # gradient stays near chance or diverges, so 75% separates right from wrong
    # with room for harmless changes in summation order.
    run "$REFERENCE" "$DATASET_DIR" 100 0.01 --train-limit 2000 --quiet
    echo "$output"
    [ "$status" -eq 0 ]
    accuracy=$(awk '/test accuracy/ {sub("%", "", $3); print $3}' <<<"$output")
    awk -v a="$accuracy" 'BEGIN { exit !(a >= 75) }'
}

@test "loss never increases at learning rate 0.01 (2,000 images, 30 iterations)" {
    run "$REFERENCE" "$DATASET_DIR" 30 0.01 --train-limit 2000 --quiet --csv "$BATS_TEST_TMPDIR/loss.csv"
    [ "$status" -eq 0 ]
    run awk -F, 'NR > 2 && $2 > previous { print "loss rose at iteration " $1; bad = 1 }
                 { previous = $2 } END { exit bad }' "$BATS_TEST_TMPDIR/loss.csv"
    echo "$output"
    [ "$status" -eq 0 ]
}

@test "two runs give bit-identical weights and CSV" {
    for n in 1 2; do
        "$REFERENCE" "$DATASET_DIR" 5 --train-limit 500 --quiet \
            --weights-out "$BATS_TEST_TMPDIR/w$n" --csv "$BATS_TEST_TMPDIR/c$n" >/dev/null
    done
    cmp "$BATS_TEST_TMPDIR/w1" "$BATS_TEST_TMPDIR/w2"
    cmp "$BATS_TEST_TMPDIR/c1" "$BATS_TEST_TMPDIR/c2"
    [ "$(stat -c %s "$BATS_TEST_TMPDIR/w1")" -eq 31400 ]
}

@test "output: header, progress every 10 iterations, summary" {
    run "$REFERENCE" "$DATASET_DIR" 20 --train-limit 300
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "chapter 00-cpu-reference | platform cpu" ]
    [ "${lines[1]}" = "device host CPU, plain C, one thread" ]
    [ "${lines[2]}" = "dataset in ${DATASET_DIR%/}/: 60000 training images, 10000 test images, 28x28 pixels" ]
    [ "${lines[3]}" = "  using the first 300 training images (--train-limit)" ]
    [ "$(grep -c '^  iteration' <<<"$output")" -eq 3 ] # iterations 1, 10 and 20
    [[ "$output" == *"ms per iteration   median"* ]]
    [[ "$output" == *"  timed iterations   17, after 3 warm-up"* ]]
    [[ "$output" =~ "  training time      "[0-9.]+" ms measured" ]]
    [[ "$output" =~ "  upload             "[0-9.]+" ms (not in the per-iteration time)" ]]
}

@test "--bench-out appends one row per run under a header" {
    for n in 1 2; do
        "$REFERENCE" "$DATASET_DIR" 4 --train-limit 200 --quiet --bench-out "$BATS_TEST_TMPDIR/b.tsv" >/dev/null
    done
    run cat "$BATS_TEST_TMPDIR/b.tsv"
    echo "$output"
    [ "${#lines[@]}" -eq 3 ]
    [[ "${lines[0]}" == "chapter	platform	device	images	iterations	median_ms	min_ms	max_ms	train_accuracy	test_accuracy	final_loss	date	warmup_iterations	pixels_per_image	parameters" ]]
    [[ "${lines[2]}" == *"	3	784	7850" ]] # 4 iterations, the first 3 warm-up; 28 x 28 pixels; 10 x 785 weights
    [[ "${lines[2]}" == "00-cpu-reference	cpu	"*"	200	4	"* ]]
}

@test "a learning rate that blows the loss up is reported, not printed as NaN" {
    run "$REFERENCE" "$DATASET_DIR" 60 5 --train-limit 200 --quiet
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$(unwrap "$output")" == *"the loss diverged at iteration "*" with learning rate 5; try a smaller learning rate"* ]]
    [[ "$output" != *"accuracy"* ]]
    # With progress lines (iterations 1, 10 and 20): only iteration 1's, none
    # once the loss is inf or NaN (iteration 10 would print "loss -nan"),
    # then the message. The same for chapter 01 on the CPU executor, whose
    # lines come from the GPU harness.
    for binary in "$REFERENCE" "$(chapter_binary 01)"; do
        run "$binary" "$DATASET_DIR" 20 5 --train-limit 200
        echo "$output"
        [ "$status" -eq 1 ]
        [[ "$(unwrap "$output")" == *"the loss diverged at iteration 9 (loss = inf) with learning rate 5"* ]]
        [ "$(grep -c '^  iteration' <<<"$output")" -eq 1 ] # iteration 1 only: 10 and 20 diverged
        [[ "$output" != *nan* && "$output" != *NaN* ]]
        [[ "$(grep '^  iteration' <<<"$output")" != *inf* ]]
    done
}
