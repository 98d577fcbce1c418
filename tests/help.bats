#!/usr/bin/env bats
# make help: every target a reader runs is listed, with its note, and every
# setting with its value now and its meaning, both read from the Makefile
# and the mk/*.mk files it includes (a target's ## note, a setting's
# comment), so the list cannot drift. Every line fits 80 columns; a target
# make does not know gets the nearest one; the build prints a short line a file.

load helpers

# joined TEXT: make help's output with its wrapped lines joined again: a line
# that starts with spaces and is not an entry ("  make NAME" or "  NAME=")
# goes on the end of the one before.
joined() {
    awk '/^   / || (/^  / && !/^  make / && !/^  [A-Z_]+=/) { sub(/^ +/, ""); line = line " " $0; next }
         NR > 1 { print line } { line = $0 } END { print line }' <<<"$1"
}

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
    output=$(joined "$output")
    echo "$output"
    [[ "$output" == *"So here (HIP_PLATFORM=cpu) make chapter-N trains chapter 00 100 iterations, a GPU chapter 10, chapter 09 2 epochs; make compare 2 iterations x 1 run(s) a chapter"* ]]
    grep -Eq '^  ITERS= +iterations per run \(chapter-N, compare\); unset: 100; on the CPU executor 10' <<<"$output"
    grep -Eq '^  FUZZ_SECONDS=60 +make fuzz' <<<"$output"
    grep -Eq '^  FUZZ_LOG=build/fuzz.log ' <<<"$output"
    grep -Eq '^  ISA_DIR=build/isa ' <<<"$output"
    grep -Eq '^  make fuzz +fuzz the IDX and MNIST loaders for FUZZ_SECONDS' <<<"$output"
    run make --no-print-directory help HIP_PLATFORM=cpu ITERS=3 FUZZ_SECONDS=9
    output=$(joined "$output")
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
    notes=$(joined "$output" | sed -n 's/^  make [^ ]* *//p')
    echo "$notes"
    [ "$(wc -l <<<"$notes")" -ge 20 ]
    run uniq -d <<<"$(sort <<<"$notes")"
    echo "notes given to more than one target: $output"
    [ -z "$output" ]
    # The last line on each platform: every number filled in, and on the
    # executor the ones make chapter-N passes its trainers (make -n: nothing runs).
    local platform line
    for platform in cpu amd nvidia; do
        line=$(joined "$(plain_make help HIP_PLATFORM="$platform")" | tail -n 1)
        echo "$line"
        [[ "$line" =~ ^So\ here\ \(HIP_PLATFORM=$platform\)\ make\ chapter-N\ trains\ (chapter\ 00\ [0-9]+\ iterations,\ a\ GPU\ chapter\ [0-9]+|[0-9]+\ iterations),\ chapter\ 09\ [0-9]+\ epochs\;\ make\ compare\ [0-9]+\ iterations\ x\ [0-9]+\ run\(s\)\ a\ chapter$ ]]
    done
    line=$(joined "$(plain_make help HIP_PLATFORM=cpu)" | tail -n 1)
    local n
    for n in 0 1 9; do
        run plain_make -n "chapter-$n" HIP_PLATFORM=cpu DATASET_DIR=dataset
        local run_line
        run_line=$(grep '^build/cpu/' <<<"$output")
        echo "$run_line"
        case $n in
        0) [[ "$run_line" == "build/cpu/00-cpu-reference dataset 100 "* && "$line" == *"chapter 00 100 iterations"* ]] ;;
        1) [[ "$run_line" == "build/cpu/01-naive-gemm dataset 10 "* && "$line" == *"a GPU chapter 10,"* ]] ;;
        9) [[ "$run_line" == "build/cpu/09-hidden-layer dataset 2 "* && "$line" == *"chapter 09 2 epochs"* ]] ;;
        esac
    done
}

@test "make help: every line fits 80 columns, on every platform and with a long value" {
    local platform
    for platform in cpu amd nvidia; do
        run plain_make help HIP_PLATFORM="$platform"
        [ "$status" -eq 0 ]
        [ "${#lines[@]}" -ge 60 ]
        within_80_columns "$output"
    done
    run plain_make help HIP_PLATFORM=cpu DATASET_DIR="/$(printf 'a%.0s' {1..100})/data" ARGS="--train-limit 1000 --view"
    within_80_columns "$output"
    # the long value is all there, cut into lines
    [[ "$(joined "$output" | tr -d '\n ')" == *"DATASET_DIR=/$(printf 'a%.0s' {1..100})/data"* ]]
}

@test "make help: the line that named make compare's chapters is in plain words, and GPU_IMPORT_ARGS is listed" {
    run plain_make help HIP_PLATFORM=cpu
    output=$(joined "$output")
    echo "$output"
    [[ "$output" != *"09 on train another"* ]]
    [[ "$output" == *"which train the same model (09 trains a bigger one, by epochs)"* ]]
    grep -Eq '^  GPU_IMPORT_ARGS= +make gpu-import.s options: --allow-executor' <<<"$output"
}

# make's own "No rule to make target" names no target that is one; a typo
# gets the nearest target make help lists, with the number typed.
@test "a target make does not know: the nearest one, and status 2" {
    local typo expected
    for typo in chaptr-1:chapter-1 hepl:help raceckeck-8:racecheck-8 isa8:isa-8 profle-3:profile-3; do
        expected=${typo#*:} typo=${typo%%:*}
        run plain_make "$typo" HIP_PLATFORM=cpu
        echo "$output"
        [ "$status" -eq 2 ]
        [ "${lines[0]}" = "no target '$typo'; did you mean '$expected'? (make help lists them)" ]
        [[ "$output" != *"No rule to make target"* ]]
    done
    # nothing near: no guess
    run plain_make xyzzy HIP_PLATFORM=cpu
    [ "$status" -eq 2 ]
    [ "${lines[0]}" = "no target 'xyzzy' (make help lists them)" ]
    # only goals no rule names: make -B (every file remade, sources and
    # makefiles too) goes on as before
    run plain_make -n -B HIP_PLATFORM=cpu build/cpu/common/host/idx.o
    [ "$status" -eq 0 ]
    [[ "$output" == *" -c common/host/idx.c -o build/cpu/common/host/idx.o"* ]]
    # a chapter that is not there still lists the chapters
    run plain_make chapter-10 HIP_PLATFORM=cpu
    [ "$status" -eq 2 ]
    [[ "$output" == *"no chapter '10'; chapters: 00-cpu-reference"* ]]
}

# A first build: one short line a file (V=1: the commands); a compiler's error
# in full; and a compile cut short (Ctrl-C) leaves no temporary file behind.
@test "the build: one short line a file, V=1 the commands, errors in full, nothing left by an interrupt" {
    local clone="$BATS_TEST_TMPDIR/clone"
    fresh_copy "$clone"
    cd "$clone"
    run plain_make HIP_PLATFORM=cpu build/cpu/common/host/idx.o "build/cpu/common/executor/fiber_$(uname -m).o"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "  CC     build/cpu/common/host/idx.o" ]
    [ "${lines[1]}" = "  AS     build/cpu/common/executor/fiber_$(uname -m).o" ]
    [ "${#lines[@]}" -eq 2 ]
    [ -s build/cpu/common/host/idx.o.dep ]
    rm build/cpu/common/host/idx.o
    run plain_make HIP_PLATFORM=cpu V=1 build/cpu/common/host/idx.o
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == *" -MF build/cpu/common/host/idx.o.dep"*" -c common/host/idx.c -o build/cpu/common/host/idx.o"* ]]
    echo 'int broken = ;' >>common/host/idx.c
    touch -d '2 seconds ago' build/cpu/common/host/idx.o # one clock tick can hold the compile and the edit
    run plain_make HIP_PLATFORM=cpu build/cpu/common/host/idx.o
    echo "$output"
    [ "$status" -ne 0 ]
    [ "${lines[0]}" = "  CC     build/cpu/common/host/idx.o" ]
    [[ "$output" == *"common/host/idx.c:"*": error: "* ]]
    # Ctrl-C during a compile (SIGINT to make and the compiler, as a terminal
    # sends it), with a compiler that writes its dependency file first and then
    # takes its time (as nvcc does): no temporary file stays behind
    printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = -MF ] && echo "x: y" >"$2"; shift; done\nsleep 20\n' >slow_cc
    chmod +x slow_cc
    sed -i '$d' common/host/idx.c
    rm -f build/cpu/common/host/idx.o*
    run timeout -s INT 2 env -u MAKEFLAGS make --no-print-directory HIP_PLATFORM=cpu CC="$PWD/slow_cc" \
        build/cpu/common/host/idx.o
    [ "$status" -ne 0 ]
    [ ! -e build/cpu/common/host/idx.o ]
    run find build -name '*.tmp*'
    [ -z "$output" ]
}

# A GPU chapter's short run on the executor says so after its summary, and
# checks itself against its CPU reference; on a GPU the linear chapters say
# how to ask for the check (it takes the host seconds), chapter 09 runs it.
@test "make chapter-N: the short run named after the summary; --check where it costs little, else how" {
    unset ITERS EPOCHS ARGS
    run plain_make -n chapter-1 HIP_PLATFORM=cpu DATASET_DIR=dataset
    [[ "$output" == *$'\n''build/cpu/01-naive-gemm dataset 10 0.01 --check '$'\n''echo "short run: 10 of 100 iterations (ITERS=100 for the full run)"'* ]]
    run plain_make -n chapter-9 HIP_PLATFORM=cpu DATASET_DIR=dataset
    [[ "$output" == *$'\n''build/cpu/09-hidden-layer dataset 2  --check '$'\n''echo "short run: 2 of 10 epochs (EPOCHS=10 for the full run)"'* ]]
    # the count given: no note; --check given: not twice
    run plain_make -n chapter-1 HIP_PLATFORM=cpu DATASET_DIR=dataset ITERS=3 ARGS=--check
    [[ "$output" == *$'\n''build/cpu/01-naive-gemm dataset 3 0.01  --check' ]]
    run plain_make -n chapter-0 HIP_PLATFORM=cpu DATASET_DIR=dataset
    [[ "$output" != *"--check"* && "$output" != *"short run"* ]]
    run plain_make -n chapter-1 HIP_PLATFORM=nvidia NVCC=nvcc DATASET_DIR=dataset
    [[ "$output" == *$'\n''build/nvidia/01-naive-gemm dataset 100 0.01  '$'\n''echo "to check it against chapter 00 (its first 5 iterations again on the host: seconds): make chapter-1 ARGS=--check"' ]]
    run plain_make -n chapter-9 HIP_PLATFORM=nvidia NVCC=nvcc DATASET_DIR=dataset
    [[ "$output" == *$'\n''build/nvidia/09-hidden-layer dataset 10  --check ' ]]
}
