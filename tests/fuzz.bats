#!/usr/bin/env bats
# The libFuzzer target tests/fuzz_loader.c (the IDX and MNIST loaders, built
# with clang, ASan and UBSan): every seed replays cleanly, then `make fuzz`
# runs for FUZZ_SECONDS (60 by default) without a crash, a leak, a timeout or a
# sanitizer report. A crash leaves its input in build/fuzz_crashes/; add it to
# tests/test_loader.c as a regular case (see tests/README.md).

load helpers

FUZZER=build/tests/fuzz_loader

setup() {
    [ -x "$FUZZER" ] || skip "$FUZZER is not built (make test builds it; needs clang and libclang-rt-dev)"
    # The fuzzer's own reports must reach its output, not run.sh's log folder.
    unset ASAN_OPTIONS UBSAN_OPTIONS
}

@test "fuzz_loader replays every seed in tests/fuzz_corpus without a report" {
    run "$FUZZER" -runs=0 tests/fuzz_corpus
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"INITED"* ]]
    [[ "$output" != *"ERROR"* ]]
}

@test "make fuzz: ${FUZZ_SECONDS:-60} s of fuzzing find no crash, leak or sanitizer report" {
    run make --no-print-directory fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
    # The statistics and the last lines are enough to read a failure.
    grep -v '^#\|^"' <<<"$output" | tail -n 60
    [ "$status" -eq 0 ]
    [[ "$output" == *"Done "*" runs in "* ]]
    [[ "$output" != *"ERROR: "* ]]
    [[ "$output" != *"runtime error"* ]]
}
