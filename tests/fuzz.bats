#!/usr/bin/env bats
# The libFuzzer target tests/fuzz_loader.c (the IDX and MNIST loaders, built
# with clang, ASan and UBSan): every seed replays cleanly, then `make fuzz`
# runs for FUZZ_SECONDS (60 by default) without a crash, a leak, a timeout or a
# sanitizer report, and ends with its one-line verdict (tests/fuzz.sh), which
# on a crash names the saved input and how to reproduce it. A crash leaves its
# input in build/fuzz_crashes/; add it to tests/test_idx.c (or test_mnist.c) as a regular
# case (see tests/README.md).

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

@test "make fuzz: ${FUZZ_SECONDS:-60} s of fuzzing find no crash, leak or sanitizer report; one verdict line" {
    log="$BATS_TEST_TMPDIR/fuzz.log"
    run make --no-print-directory fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-60}" FUZZ_LOG="$log"
    echo "$output"
    # The statistics and the last lines of libFuzzer's log are enough to read a failure.
    grep -v '^#\|^"' "$log" | tail -n 60
    [ "$status" -eq 0 ]
    last=$(tail -n 1 <<<"$output")
    [[ "$last" =~ ^fuzz:\ no\ crash\ in\ [0-9]+\ s\ \([1-9][0-9]*\ runs,\ corpus\ [1-9][0-9]*\ inputs\)\;\ log:\ $log$ ]]
    grep -q "^Done [0-9]* runs in " "$log"
    run grep -q "ERROR: \|runtime error" "$log"
    [ "$status" -eq 1 ]
}

# tests/fuzz.sh, make fuzz's runner, on a target that crashes on any input
# starting with '!', seeded with one: the verdict names the saved input and
# the command that reproduces it, which does.
@test "make fuzz's verdict on a crash: the input saved, the command to reproduce it, status 1" {
    printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
        'int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {' \
        '    if (size > 0 && data[0] == 0x21) { volatile int *p = NULL; return *p; }' \
        '    return 0;' '}' >"$BATS_TEST_TMPDIR/crasher.c"
    "${FUZZ_CC:-clang}" -g -O1 -fsanitize=fuzzer,address "$BATS_TEST_TMPDIR/crasher.c" -o "$BATS_TEST_TMPDIR/crasher"
    mkdir -p "$BATS_TEST_TMPDIR/seeds"
    printf '!' >"$BATS_TEST_TMPDIR/seeds/bang"
    crashes="$BATS_TEST_TMPDIR/crashes" log="$BATS_TEST_TMPDIR/crasher.log"
    run bash tests/fuzz.sh "$BATS_TEST_TMPDIR/crasher" 20 "$log" "$crashes" "$BATS_TEST_TMPDIR/work" "$BATS_TEST_TMPDIR/seeds"
    echo "$output"
    [ "$status" -eq 1 ]
    saved=$(ls "$crashes"/crash-*)
    [ "$(cat "$saved")" = "!" ]
    [ "${lines[-1]}" = "fuzz: CRASH: input saved as $saved; reproduce with: $BATS_TEST_TMPDIR/crasher $saved; log: $log" ]
    [[ "$output" == *"SUMMARY: AddressSanitizer: SEGV"* ]]
    [[ "$output" != *"no crash"* ]]
    # The command it names reproduces the crash.
    run "$BATS_TEST_TMPDIR/crasher" "$saved"
    [ "$status" -ne 0 ]
    [[ "$output" == *"AddressSanitizer: SEGV"* ]]
}

@test "make fuzz with a bad FUZZ_SECONDS or no fuzzer: the argument named, status 2, nothing run" {
    run make --no-print-directory fuzz FUZZ_SECONDS=soon FUZZ_LOG="$BATS_TEST_TMPDIR/bad.log"
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == *"fuzz: FUZZ_SECONDS must be a whole number of seconds, 1 or more, got 'soon'"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/bad.log" ]
    run bash tests/fuzz.sh "$BATS_TEST_TMPDIR/none" 5 "$BATS_TEST_TMPDIR/bad.log" "$BATS_TEST_TMPDIR/c" "$BATS_TEST_TMPDIR/w" tests/fuzz_corpus
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == *"fuzz: FUZZER '$BATS_TEST_TMPDIR/none' is not an executable file"* ]]
}
