#!/usr/bin/env bats
# make help: every target a reader runs is listed, with its note, and every
# setting with its value now and its meaning, both read from the Makefile
# (a target's ## note, a setting's comment), so the list cannot drift.

# The targets the Makefile declares .PHONY that are a reader's, % written as
# N. Left out: the package checks and make figures' two halves.
reader_targets() {
    sed -n 's/^\.PHONY:[[:space:]]*//p' Makefile | tr -s ' \t' '\n\n' | sed 's/%/N/' | grep -v '^$' |
        grep -vx 'hip-tools\|clang-tools\|nvcc-tool\|no-sanitizer\|test-tools\|plot-tools\|figures-compare\|figures-plots' |
        sort -u
}

@test "make help lists every reader target" {
    run reader_targets
    echo "targets: ${lines[*]}"
    # The list itself is read right: the core targets are in it.
    for target in dataset chapter-N test fuzz isa-N tune compare help; do
        [[ " ${lines[*]} " == *" $target "* ]]
    done
    targets=("${lines[@]}")
    run make --no-print-directory help HIP_PLATFORM=cpu
    [ "$status" -eq 0 ]
    missing=0
    for target in "${targets[@]}"; do
        grep -Eq "^  make $target +[a-z]" <<<"$output" || { echo "make help does not list make $target"; missing=1; }
    done
    [ "$missing" -eq 0 ]
}

@test "make help: every setting the Makefile reads with ?= has its meaning, and is listed with its value" {
    # A setting without a comment would be left out of the list: there is none.
    run grep -nE '^[A-Z_]+ [?]=[^#]*$' Makefile
    echo "$output"
    [ "$status" -eq 1 ]
    settings=$(sed -n 's/^\([A-Z_]*\) ?=.*/\1/p' Makefile)
    [ "$(wc -l <<<"$settings")" -ge 30 ]
    run env -u FUZZ_SECONDS -u ITERS -u LR -u ISA_DIR -u FUZZ_LOG make --no-print-directory help HIP_PLATFORM=cpu
    for name in $settings; do
        grep -Eq "^  $name=" <<<"$output" || { echo "make help does not list $name"; return 1; }
    done
}

@test "make help: the iteration defaults, make fuzz, make isa-N's folder; the values given win" {
    # The defaults, not what make test or the caller set.
    run env -u FUZZ_SECONDS -u ITERS -u LR -u ISA_DIR -u FUZZ_LOG make --no-print-directory help HIP_PLATFORM=cpu
    echo "$output"
    [[ "$output" == *"So here make chapter-N trains 100 iterations (a GPU chapter on the executor: 10), make compare 2"* ]]
    grep -Eq '^  ITERS= +iterations per run \(chapter-N, compare\); unset: 100; on the CPU executor 10' <<<"$output"
    grep -Eq '^  FUZZ_SECONDS=60 +make fuzz' <<<"$output"
    grep -Eq '^  FUZZ_LOG=build/fuzz.log ' <<<"$output"
    grep -Eq '^  ISA_DIR=build/isa ' <<<"$output"
    grep -Eq '^  make fuzz +fuzz the IDX and MNIST loaders for FUZZ_SECONDS' <<<"$output"
    run make --no-print-directory help HIP_PLATFORM=cpu ITERS=3 FUZZ_SECONDS=9
    [[ "$output" == *"So here make chapter-N trains 3 iterations (a GPU chapter on the executor: 3), make compare 3"* ]]
    grep -Eq '^  FUZZ_SECONDS=9 ' <<<"$output"
}
