#!/usr/bin/env bats
# make help: every target a reader runs is listed, with the defaults that
# matter to a newcomer.

# The targets make declares .PHONY (in the Makefile and the files it
# includes) that are a reader's, % written as N. Left out: the package
# installers, the test suite's internal steps, chapter 09's aliases of
# chapter-N, and help itself.
reader_targets() {
    # Continuation lines joined, then the .PHONY lines' names, one a line.
    awk '{ line = line $0 } /\\$/ { sub(/\\$/, " ", line); next } { print line; line = "" }' \
        Makefile plots/plots.mk chapters/08-tuned-gfx906/tune.mk |
        sed -n 's/^\.PHONY:[[:space:]]*//p' | tr -s ' \t' '\n\n' | sed 's/%/N/' | grep -v '^$' |
        grep -vx 'help\|hip-tools\|test-tools\|plot-tools\|trace-tests\|tune-deps\|build-N\|chapter-9\|chapter-09\|chapter-\$(MLP)\|figures-compare\|figures-plots' |
        sort -u
}

@test "make help lists every reader target" {
    run reader_targets
    echo "targets: ${lines[*]}"
    # The list itself is read right: the core targets are in it.
    for target in dataset chapter-N test fuzz isa-N tune compare; do
        [[ " ${lines[*]} " == *" $target "* ]]
    done
    targets=("${lines[@]}")
    run make --no-print-directory help HIP_PLATFORM=cpu
    [ "$status" -eq 0 ]
    missing=0
    for target in "${targets[@]}"; do
        grep -q "^  make $target " <<<"$output" || { echo "make help does not list make $target"; missing=1; }
    done
    [ "$missing" -eq 0 ]
}

@test "make help: the executor's iteration default, make fuzz, make isa-N's file" {
    # The defaults, not what make test or the caller set.
    run env -u FUZZ_SECONDS -u ITERS -u CPU_ITERS -u LR -u ISA_DIR -u FUZZ_LOG make --no-print-directory help HIP_PLATFORM=cpu
    echo "$output"
    [[ "$output" == *"(ITERS=100 LR=0.01 ARGS=...;"* ]]
    [[ "$output" == *"a GPU chapter on the CPU executor: CPU_ITERS=10 unless ITERS is given;"* ]]
    [[ "$output" == *"make fuzz           fuzz the IDX and MNIST loaders for FUZZ_SECONDS=60; prints one verdict line,"* ]]
    [[ "$output" == *"libFuzzer's output in build/fuzz.log"* ]]
    [[ "$output" == *"its instructions: build/isa/NN-name.gfx906.s"* ]]
    run make --no-print-directory help HIP_PLATFORM=cpu CPU_ITERS=3 FUZZ_SECONDS=9
    [[ "$output" == *"CPU_ITERS=3 unless ITERS is given"* ]]
    [[ "$output" == *"for FUZZ_SECONDS=9;"* ]]
}
