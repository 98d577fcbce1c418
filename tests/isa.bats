#!/usr/bin/env bats
# make isa-N: a chapter's gfx906 assembly for reading, with kernel names
# demangled and each source line of train.hip as a comment before its
# instructions (common/scripts/isa.awk), and without hipcc's unused-linker-flag
# warnings; make isa-0 explains that chapter 00 has no GPU code.

load helpers

SOURCE=chapters/01-naive-gemm/train.hip

setup_file() {
    # One build of chapter 01's ISA for the tests that read it.
    export ISA_OUT="$BATS_FILE_TMPDIR/isa"
    make --no-print-directory isa-1 ISA_DIR="$ISA_OUT" >"$BATS_FILE_TMPDIR/make.log" 2>&1 ||
        echo "status $?" >>"$BATS_FILE_TMPDIR/make.log"
}

isa_file() { echo "$ISA_OUT/01-naive-gemm.gfx906.s"; }

@test "make isa-1 writes its .s file quietly: no unused-argument warnings, no left-over files" {
    cat "$BATS_FILE_TMPDIR/make.log"
    [ -s "$(isa_file)" ]
    run grep -q "^status " "$BATS_FILE_TMPDIR/make.log"
    [ "$status" -eq 1 ]
    run grep -q "input unused\|argument unused\|warning:" "$BATS_FILE_TMPDIR/make.log"
    [ "$status" -eq 1 ]
    grep -q "^wrote $(isa_file): " "$BATS_FILE_TMPDIR/make.log"
    # Only the .s file: the raw and intermediate files are removed.
    [ "$(ls "$ISA_OUT")" = "01-naive-gemm.gfx906.s" ]
}

@test "make isa-1: kernel names demangled, none left mangled" {
    grep -q '^forward_scores(float const\*, float const\*, float\*, int):' "$(isa_file)"
    grep -q '^residual_loss(' "$(isa_file)"
    run grep -n '_Z[0-9]' "$(isa_file)"
    echo "$output"
    [ "$status" -eq 1 ]
}

@test "make isa-1: the source lines are interleaved, each the real line of train.hip" {
    # The forward's inner loop, under its loop label.
    grep -q "^; train.hip:[0-9]*  sum += w\[c \* MODEL_FEATURES + k\]" "$(isa_file)"
    run awk -F'\t' 'FILENAME == ARGV[1] { line = $0; sub(/^[ \t]+/, "", line); sub(/[ \t]+$/, "", line); src[FNR] = line; next }
        /^; train\.hip:[0-9]+  / {
            n = $0; sub(/^; train\.hip:/, "", n); text = n; sub(/  .*/, "", n); sub(/^[0-9]+  /, "", text)
            checked++
            if (src[n + 0] != text) { print "line " n ": shown as [" text "], source has [" src[n + 0] "]"; bad = 1 }
        }
        END { print checked " source lines checked"; exit bad || checked < 20 }' "$SOURCE" "$(isa_file)"
    echo "$output"
    [ "$status" -eq 0 ]
    # No directive the line tables add is left.
    run grep -nE '^\s*\.(loc|file|cfi_)|^\s*\.section\s+\.debug_' "$(isa_file)"
    echo "$output"
    [ "$status" -eq 1 ]
}

@test "make isa-1: the same instructions as hipcc -S without line tables" {
    # The flags make used, from the file's first line.
    flags=$(sed -n '1s/^; make isa-1: .* (hipcc \(.*\)); each source line .*/\1/p' "$(isa_file)")
    echo "flags: $flags"
    [[ "$flags" == *"--offload-arch=gfx906"* ]]
    HIP_PLATFORM=amd hipcc $flags -Wno-unused-command-line-argument "${COMMON_INCLUDES[@]}" --cuda-device-only -S \
        "$SOURCE" -o "$BATS_TEST_TMPDIR/plain.s"
    instructions() { grep $'^\t[a-z]' "$1" | sed 's/[[:space:]]*;.*//'; }
    instructions "$BATS_TEST_TMPDIR/plain.s" | c++filt >"$BATS_TEST_TMPDIR/plain.txt"
    instructions "$(isa_file)" >"$BATS_TEST_TMPDIR/annotated.txt"
    [ "$(wc -l <"$BATS_TEST_TMPDIR/plain.txt")" -gt 200 ]
    grep -q "s_barrier" "$BATS_TEST_TMPDIR/annotated.txt" # sum_records' __syncthreads()
    diff "$BATS_TEST_TMPDIR/plain.txt" "$BATS_TEST_TMPDIR/annotated.txt"
}

@test "make isa-1 with a compile error: the error shown, status 2, no .s file" {
    # The warning flag must hide nothing else: a header with an error,
    # forced into the compile.
    printf 'this is not C++;\n' >"$BATS_TEST_TMPDIR/broken.h"
    run make --no-print-directory isa-1 ISA_DIR="$BATS_TEST_TMPDIR/isa" HIPCC="hipcc -include $BATS_TEST_TMPDIR/broken.h"
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == *"broken.h:1:1: error: expected unqualified-id"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/isa/01-naive-gemm.gfx906.s" ]
}

@test "make isa-0: chapter 00 has no GPU code; status 2, no compiler run" {
    run make --no-print-directory isa-0 ISA_DIR="$BATS_TEST_TMPDIR/isa0"
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == *"isa-0: chapter 00-cpu-reference has no GPU code: it is plain C on the host"* ]]
    [[ "$output" == *"make isa-1 shows the first GPU chapter's"* ]]
    [[ "$output" != *"hipcc"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/isa0" ]
}

@test "make isa-N with no such chapter: status 2, the chapters listed" {
    run make --no-print-directory isa-42 ISA_DIR="$BATS_TEST_TMPDIR/isa42"
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == *"no chapter '42'; chapters: 00-cpu-reference 01-naive-gemm"* ]]
}
