#!/usr/bin/env bats
# make help: every target a reader runs is listed, with its note, and every
# setting with its value now and its meaning, both read from the Makefile
# and the mk/*.mk files it includes (a target's ## note, a setting's
# comment), so the list cannot drift.

load helpers

# The targets the Makefile declares .PHONY that are a reader's, % written as
# N. Left out: the package checks and make figures' two halves.
reader_targets() {
    sed -n 's/^\.PHONY:[[:space:]]*//p' Makefile mk/*.mk | tr -s ' \t' '\n\n' | sed 's/%/N/' | grep -v '^$' |
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
    run grep -nE '^[A-Z_]+ [?]=[^#]*$' Makefile mk/*.mk
    echo "$output"
    [ "$status" -eq 1 ]
    settings=$(sed -n 's/^\([A-Z_]*\) ?=.*/\1/p' Makefile mk/*.mk)
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
    [[ "$output" == *"So here (HIP_PLATFORM=cpu) make chapter-N trains chapter 00 100 iterations, a GPU chapter 10, chapter 09 2 epochs; make compare 2 iterations x 1 run(s) a chapter"* ]]
    grep -Eq '^  ITERS= +iterations per run \(chapter-N, compare\); unset: 100; on the CPU executor 10' <<<"$output"
    grep -Eq '^  FUZZ_SECONDS=60 +make fuzz' <<<"$output"
    grep -Eq '^  FUZZ_LOG=build/fuzz.log ' <<<"$output"
    grep -Eq '^  ISA_DIR=build/isa ' <<<"$output"
    grep -Eq '^  make fuzz +fuzz the IDX and MNIST loaders for FUZZ_SECONDS' <<<"$output"
    run make --no-print-directory help HIP_PLATFORM=cpu ITERS=3 FUZZ_SECONDS=9
    [[ "$output" == *"So here (HIP_PLATFORM=cpu) make chapter-N trains chapter 00 3 iterations, a GPU chapter 3, chapter 09 2 epochs; make compare 3 iterations x 1 run(s) a chapter"* ]]
    grep -Eq '^  FUZZ_SECONDS=9 ' <<<"$output"
}

# A note per target, so that make profile-N and make racecheck-N are told
# apart, and a last line whose every number is filled.
@test "make help: every target has a note of its own, and the last line's numbers are what make chapter-N runs" {
    unset ITERS EPOCHS REPEATS ARGS # the defaults, not those of a surrounding make test
    run plain_make help HIP_PLATFORM=cpu
    [ "$status" -eq 0 ]
    local notes
    notes=$(sed -n 's/^  make [^ ]* *//p' <<<"$output")
    echo "$notes"
    [ "$(wc -l <<<"$notes")" -ge 20 ]
    run uniq -d <<<"$(sort <<<"$notes")"
    echo "notes given to more than one target: $output"
    [ -z "$output" ]
    # The last line on each platform: every number filled in, and on the
    # executor the ones make chapter-N passes its trainers (make -n: nothing runs).
    local platform line
    for platform in cpu amd nvidia; do
        line=$(plain_make help HIP_PLATFORM="$platform" | tail -n 1)
        echo "$line"
        [[ "$line" =~ ^So\ here\ \(HIP_PLATFORM=$platform\)\ make\ chapter-N\ trains\ (chapter\ 00\ [0-9]+\ iterations,\ a\ GPU\ chapter\ [0-9]+|[0-9]+\ iterations),\ chapter\ 09\ [0-9]+\ epochs\;\ make\ compare\ [0-9]+\ iterations\ x\ [0-9]+\ run\(s\)\ a\ chapter$ ]]
    done
    line=$(plain_make help HIP_PLATFORM=cpu | tail -n 1)
    local n
    for n in 0 1 9; do
        run plain_make -n "chapter-$n" HIP_PLATFORM=cpu DATASET_DIR=dataset
        echo "${lines[-1]}"
        case $n in
        0) [[ "${lines[-1]}" == "build/cpu/00-cpu-reference dataset 100 "* && "$line" == *"chapter 00 100 iterations"* ]] ;;
        1) [[ "${lines[-1]}" == "build/cpu/01-naive-gemm dataset 10 "* && "$line" == *"a GPU chapter 10,"* ]] ;;
        9) [[ "${lines[-1]}" == "build/cpu/09-hidden-layer dataset 2 "* && "$line" == *"chapter 09 2 epochs"* ]] ;;
        esac
    done
}
