#!/usr/bin/env bats
# The executor's checks (make sanitize-N and racecheck-N; common/executor/README.md):
# every GPU chapter, 2 iterations on 1,037 images, must finish with no finding:
# at wave 64 the checked build under make sanitize's four checks (memcheck,
# initcheck, racecheck, synccheck), at wave 32 the trace build's race check.
# At 1,037 images the persistent grids of chapters 07 and 08 (one block per
# CU: 60 at wave 64, 132 at wave 32) leave blocks idle, and no block of
# chapter 08 (tiles of WAVE_SIZE images) gets a second tile, so the barrier
# between one tile and the next never runs. Chapters 03-08 are checked again
# on 3,907 images (prime: every chapter's last tile is partial), 1 iteration
# at wave 64: 62 tiles for chapter 08's 60 blocks, 489 for chapter 07's,
# and more image tiles in each gradient of 03-06, for about 9 s in all
# (make racecheck-N runs at 1,037 and at 10,007 images: 9-26 s a chapter).
# Chapter 08 with the barrier before its loss sum deleted must be caught.
# `make test` builds the trace binaries (TRACE=1, at WAVE=64 and WAVE=32).

load helpers
load small_dataset

# The trace and checked builds ignore SANITIZE: the sanitized suite would only repeat these runs.
setup() {
    [ -z "${SANITIZE:-}" ] || skip "the trace and checked builds ignore SANITIZE: the plain run covers them"
}

TRACE64=build/trace
TRACE32=build/trace-wave32
CHECKED64=build/trace/checked

# racecheck BINARY [DATASET [IMAGES [ITERATIONS]]]: the checked run (1,037
# images, 2 iterations unless given), which must be clean: HIPCPU_SANITIZE for
# the checked build, HIPCPU_RACECHECK for the trace build.
racecheck() {
    local check=HIPCPU_RACECHECK
    [[ "$1" != "$CHECKED64"/* ]] || check=HIPCPU_SANITIZE
    run env "$check=1" "$1" "${2:-$DATASET_DIR}" "${4:-2}" --train-limit "${3:-1037}" --quiet
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" != *hipcpu:* ]]
}


# caught_missing_barrier BUILD: chapter 08 with the barrier before its loss
# sum deleted must abort, naming the kernel, wave_loss and the call site.
caught_missing_barrier() {
    run env HIPCPU_RACECHECK=1 "$1/08-missing-barrier" "$DATASET_DIR" 2 --train-limit 1037 --quiet
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"hipcpu: kernel 'train_step' block ("* ]]
    [[ "$output" == *"wave_loss"* ]]
    [[ "$output" == *"chapters/08-missing-barrier/train.hip:"* ]]
}

@test "sanitize: chapter 01 is clean at wave 64" {
    racecheck "$(chapter_binary 01 $CHECKED64)"
}

@test "racecheck: chapter 01 is clean at wave 32" {
    racecheck "$(chapter_binary 01 $TRACE32)"
}

@test "sanitize: chapter 02 is clean at wave 64" {
    racecheck "$(chapter_binary 02 $CHECKED64)"
}

@test "racecheck: chapter 02 is clean at wave 32" {
    racecheck "$(chapter_binary 02 $TRACE32)"
}

@test "sanitize: chapter 03 is clean at wave 64" {
    racecheck "$(chapter_binary 03 $CHECKED64)"
}

@test "racecheck: chapter 03 is clean at wave 32" {
    racecheck "$(chapter_binary 03 $TRACE32)"
}

@test "sanitize: chapter 04 is clean at wave 64" {
    racecheck "$(chapter_binary 04 $CHECKED64)"
}

@test "racecheck: chapter 04 is clean at wave 32" {
    racecheck "$(chapter_binary 04 $TRACE32)"
}

@test "sanitize: chapter 05 is clean at wave 64" {
    racecheck "$(chapter_binary 05 $CHECKED64)"
}

@test "racecheck: chapter 05 is clean at wave 32" {
    racecheck "$(chapter_binary 05 $TRACE32)"
}

@test "sanitize: chapter 06 is clean at wave 64" {
    racecheck "$(chapter_binary 06 $CHECKED64)"
}

@test "racecheck: chapter 06 is clean at wave 32" {
    racecheck "$(chapter_binary 06 $TRACE32)"
}

@test "sanitize: chapter 07 is clean at wave 64" {
    racecheck "$(chapter_binary 07 $CHECKED64)"
}

@test "racecheck: chapter 07 is clean at wave 32" {
    racecheck "$(chapter_binary 07 $TRACE32)"
}

@test "sanitize: chapter 08 is clean at wave 64" {
    racecheck "$(chapter_binary 08 $CHECKED64)"
}

@test "racecheck: chapter 08 is clean at wave 32" {
    racecheck "$(chapter_binary 08 $TRACE32)"
}

@test "racecheck: chapter 03 with several tiles a block (3,907 images, 1 iteration, wave 64) is clean" {
    racecheck "$(chapter_binary 03 $TRACE64)" "$DATASET_DIR" 3907 1
}

@test "racecheck: chapter 04 with several tiles a block (3,907 images, 1 iteration, wave 64) is clean" {
    racecheck "$(chapter_binary 04 $TRACE64)" "$DATASET_DIR" 3907 1
}

@test "racecheck: chapter 05 with several tiles a block (3,907 images, 1 iteration, wave 64) is clean" {
    racecheck "$(chapter_binary 05 $TRACE64)" "$DATASET_DIR" 3907 1
}

@test "racecheck: chapter 06 with several tiles a block (3,907 images, 1 iteration, wave 64) is clean" {
    racecheck "$(chapter_binary 06 $TRACE64)" "$DATASET_DIR" 3907 1
}

@test "racecheck: chapter 07 with several tiles a block (3,907 images, 1 iteration, wave 64) is clean" {
    racecheck "$(chapter_binary 07 $TRACE64)" "$DATASET_DIR" 3907 1
}

@test "racecheck: chapter 08 with several tiles a block (3,907 images, 1 iteration, wave 64) is clean" {
    racecheck "$(chapter_binary 08 $TRACE64)" "$DATASET_DIR" 3907 1
}

# Chapter 09 evaluates the test set on the device each epoch: a small one.
@test "sanitize: chapter 09 is clean at wave 64, and racecheck at wave 32" {
    small_dataset "$BATS_TEST_TMPDIR/data" 1037 64
    racecheck "$(chapter_binary 09 "$CHECKED64")" "$BATS_TEST_TMPDIR/data"
    racecheck "$(chapter_binary 09 "$TRACE32")" "$BATS_TEST_TMPDIR/data"
}

@test "racecheck: catches chapter 08 without the barrier before its loss sum, at wave 64" {
    caught_missing_barrier "$TRACE64"
}

@test "racecheck: catches chapter 08 without the barrier before its loss sum, at wave 32" {
    caught_missing_barrier "$TRACE32"
}

@test "racecheck: the same chapter without the check diverges: shared memory starts as garbage, not zeros" {
    run "$TRACE64/08-missing-barrier" "$DATASET_DIR" 2 --train-limit 1037 --quiet
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"diverged"* ]]
}

@test "racecheck: make racecheck-8 passes on the chapter as it is, on 1,037 and on 10,007 images" {
    run make --no-print-directory racecheck-8 RACECHECK_ITERS=1
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"racecheck: 08-tuned-gfx906 is clean at wave 64: no race and no uninitialised shared-memory read in 1 iterations on 1037 and 10007 images"* ]]
}

# By default make racecheck-N runs twice: on 1,037 images, where blocks of
# chapters 07 and 08 get no tile, and on 10,007, where every block of 08 gets
# two or more; one run when the images or ARGS are given, and chapter 09 (its
# epochs evaluate 10,000 test images as well) at 1,037 alone.
@test "racecheck: make racecheck-N's runs: 1,037 and 10,007 images unless told (make -n)" {
    runs() {
        run make --no-print-directory -n "$@" DATASET_DIR=dataset
        grep -o -- '--train-limit [0-9]*' <<<"$output" | tr '\n' ' '
    }
    [ "$(runs racecheck-8)" = "--train-limit 1037 --train-limit 10007 " ]
    [ "$(runs racecheck-3)" = "--train-limit 1037 --train-limit 10007 " ]
    [ "$(runs racecheck-8 RACECHECK_IMAGES=3907)" = "--train-limit 3907 " ]
    [ "$(runs racecheck-8 ARGS=--quiet)" = "--train-limit 10007 " ]
    [ "$(runs racecheck-9)" = "--train-limit 1037 " ]
}

# The chapters above are written out (bats registers only the @test lines it
# reads); this test derives them from chapters/: every chapter with a
# train.hip is checked at wave 64 (sanitize) and at wave 32 (racecheck), and
# no test names a chapter that is gone.
@test "racecheck.bats checks every GPU chapter in chapters/ at both wave sizes, and no other" {
    local dir nn expected="" listed
    for dir in chapters/[0-9][0-9]-*/; do
        [ -f "$dir/train.hip" ] || continue
        nn=$(basename "$dir")
        expected+="${nn%%-*}"$'\n'
    done
    [ -n "$expected" ]
    # a chapter counts when its tests name wave 64 and wave 32
    listed=$(grep -E '^@test "(sanitize|racecheck): chapter [0-9][0-9] is clean at wave' "$BATS_TEST_FILENAME" | awk '
        { nn = $4; if ($0 ~ /wave 64/) w64[nn] = 1; if ($0 ~ /wave 32/) w32[nn] = 1 }
        END { for (nn in w64) if (nn in w32) print nn }' | sort)
    diff <(printf '%s' "$expected") <(echo "$listed")
    # and every chapter from 03 on, whose kernels loop over tiles, with several a block
    listed=$(sed -n 's/^@test "racecheck: chapter \([0-9][0-9]\) with several tiles a block .*/\1/p' "$BATS_TEST_FILENAME")
    diff <(printf '%s' "$expected" | awk '$1 >= 3 && $1 <= 8') <(echo "$listed")
}
