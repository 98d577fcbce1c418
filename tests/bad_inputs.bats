#!/usr/bin/env bats
# Hostile and broken inputs through the trainers, each with its exact message
# and exit status: 1 for a bad dataset, 2 for a bad command line. Every case
# runs chapter 00 and chapter 01 (the GPU harness on the CPU executor): both
# load the data through common/session/session.c before any work starts.
#
# The datasets here are small copies made in a temporary folder (100 training
# and 50 test images cut from dataset/), then broken one way each. The loader
# itself is tested in tests/test_idx.c and tests/test_mnist.c; the rows of tests/cli.bats are not
# repeated (tests/README.md lists both).

load helpers
load small_dataset

# The folder the trainers read: a fresh copy of the small dataset per test.
setup_file() {
    small_dataset "$BATS_FILE_TMPDIR/small" 100 50
}

setup() {
    DATA="$BATS_TEST_TMPDIR/data"
    cp -r "$BATS_FILE_TMPDIR/small" "$DATA"
    TRAINERS=("$REFERENCE" "$(chapter_binary 01)")
}

# expect_error STATUS MESSAGE ARGS...: every trainer exits with STATUS and
# prints exactly "PROGRAM: MESSAGE" and nothing else (the header is printed
# only once the data has loaded), wrapped at 80 columns where the temporary
# folder's long path leaves room (unwrap joins it again).
expect_error() {
    local want_status=$1 message=$2 trainer
    shift 2
    for trainer in "${TRAINERS[@]}"; do
        run "$trainer" "$@"
        echo "\$ $trainer $*"
        echo "$output"
        [ "$status" -eq "$want_status" ]
        [ "$(unwrap "$output")" = "$(basename "$trainer"): $message" ]
    done
}

# A byte at OFFSET (from 0) of FILE replaced by the octal value OCTAL.
poke() {
    printf "\\$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# ---- Running as nobody, where root would ignore permissions -------------------

# as_nobody COMMAND...: runs COMMAND as the user nobody when we are root (for
# whom permissions do not apply), as ourselves otherwise.
as_nobody() {
    if [ "$(id -u)" -ne 0 ]; then
        "$@"
    elif command -v setpriv >/dev/null; then
        setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- "$@"
    else
        runuser -u nobody -- "$@"
    fi
}

# Lets nobody reach $DATA (bats makes its temporary folders 0700), or skips.
open_to_nobody() {
    [ "$(id -u)" -ne 0 ] && return 0
    id nobody >/dev/null 2>&1 || skip "no user nobody to drop root's permissions to"
    command -v setpriv >/dev/null || command -v runuser >/dev/null ||
        skip "neither setpriv nor runuser is installed to run as nobody"
    local dir=$BATS_TEST_TMPDIR
    while [[ $dir == "$BATS_RUN_TMPDIR"* ]]; do
        chmod a+rx "$dir"
        dir=$(dirname "$dir")
    done
    chmod -R a+rX "$DATA"
    as_nobody test -r "$DATA/train-images-idx3-ubyte" ||
        skip "nobody cannot reach $BATS_TEST_TMPDIR (a folder above it is closed)"
    as_nobody test -x "$REFERENCE" || skip "nobody cannot run $REFERENCE"
}

# expect_error_as_nobody STATUS MESSAGE ARGS...: expect_error, run as nobody.
expect_error_as_nobody() {
    local want_status=$1 message=$2 trainer
    shift 2
    for trainer in "${TRAINERS[@]}"; do
        run as_nobody "$trainer" "$@"
        echo "\$ $trainer $* (as nobody)"
        echo "$output"
        [ "$status" -eq "$want_status" ]
        [ "$(unwrap "$output")" = "$(basename "$trainer"): $message" ]
    done
}

# ---- The control: the small dataset itself is good -------------------------

@test "the small dataset these tests break trains cleanly" {
    for trainer in "${TRAINERS[@]}"; do
        run "$trainer" "$DATA" 2 --quiet
        echo "$output"
        [ "$status" -eq 0 ]
        [[ "$output" == *"100 training images, 50 test images, 28x28 pixels"* ]]
    done
}

# ---- The dataset folder ----------------------------------------------------

@test "dataset folder is a file, not a folder" {
    expect_error 1 "$DATA/train-images-idx3-ubyte: not a folder; expected the folder that holds the four MNIST files" \
        "$DATA/train-images-idx3-ubyte" 1
}

@test "dataset folder unreadable (as nobody)" {
    open_to_nobody
    chmod 000 "$DATA"
    expect_error_as_nobody 1 "$DATA/train-images-idx3-ubyte: Permission denied" "$DATA" 1
}

@test "a file missing, for each of the four" {
    for name in train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte; do
        mv "$DATA/$name" "$DATA/$name.away"
        expect_error 1 "$DATA/$name: No such file or directory; run \`make dataset\` to download it" "$DATA" 1
        mv "$DATA/$name.away" "$DATA/$name"
    done
}

@test "a file unreadable (as nobody)" {
    open_to_nobody
    chmod 000 "$DATA/train-labels-idx1-ubyte"
    expect_error_as_nobody 1 "$DATA/train-labels-idx1-ubyte: Permission denied" "$DATA" 1
}

@test "a file that is a folder" {
    rm "$DATA/t10k-images-idx3-ubyte"
    mkdir "$DATA/t10k-images-idx3-ubyte"
    expect_error 1 "$DATA/t10k-images-idx3-ubyte: is a directory, not an IDX file" "$DATA" 1
}

@test "a named pipe where a file should be: refused at once, no hang" {
    rm "$DATA/train-labels-idx1-ubyte"
    mkfifo "$DATA/train-labels-idx1-ubyte"
    # timeout: a loader that opened it blocking would wait for a writer forever
    for trainer in "${TRAINERS[@]}"; do
        run timeout 20 "$trainer" "$DATA" 1
        echo "$output"
        [ "$status" -eq 1 ]
        [ "$(unwrap "$output")" = "$(basename "$trainer"): $DATA/train-labels-idx1-ubyte: not a regular file" ]
    done
}

# ---- Each loader failure, through the trainer ---------------------------------

@test "empty file" {
    : >"$DATA/t10k-labels-idx1-ubyte"
    expect_error 1 "$DATA/t10k-labels-idx1-ubyte: empty file (0 bytes), not an IDX file" "$DATA" 1
}

@test "truncated header" {
    head -c 10 "$BATS_FILE_TMPDIR/small/train-images-idx3-ubyte" >"$DATA/train-images-idx3-ubyte"
    expect_error 1 "$DATA/train-images-idx3-ubyte: truncated header: 3 dimensions need a 16-byte header, file has 10 bytes" "$DATA" 1
}

@test "truncated data (an interrupted copy)" {
    truncate -s 78000 "$DATA/train-images-idx3-ubyte" # 16 + 100 x 784 = 78416
    expect_error 1 "$DATA/train-images-idx3-ubyte: truncated: header promises 78416 bytes of pixels, file has 78000" "$DATA" 1
}

@test "wrong magic number" {
    poke "$DATA/train-images-idx3-ubyte" 0 022 # 0x12
    poke "$DATA/train-images-idx3-ubyte" 1 064 # 0x34
    expect_error 1 "$DATA/train-images-idx3-ubyte: not an IDX file: starts with 0x12 0x34, expected 0x00 0x00" "$DATA" 1
}

@test "a gzip file where the IDX file should be (not decompressed)" {
    gzip -c "$BATS_FILE_TMPDIR/small/t10k-images-idx3-ubyte" >"$DATA/t10k-images-idx3-ubyte"
    expect_error 1 "$DATA/t10k-images-idx3-ubyte: not an IDX file: starts with 0x1F 0x8B, which is gzip; decompress it first (gunzip)" "$DATA" 1
}

@test "wrong type code: float pixels, and a code IDX does not define" {
    images_file "$DATA/train-images-idx3-ubyte" 100 28 28 015 # 0x0D
    expect_error 1 "$DATA/train-images-idx3-ubyte: type code 0x0D (32-bit float); only 0x08 (unsigned byte) is supported" "$DATA" 1
    poke "$DATA/train-labels-idx1-ubyte" 2 007
    images_file "$DATA/train-images-idx3-ubyte" 100
    expect_error 1 "$DATA/train-labels-idx1-ubyte: type code 0x07 (not a type IDX defines); only 0x08 (unsigned byte) is supported" "$DATA" 1
}

@test "wrong number of dimensions: the labels file in the images' place" {
    cp "$DATA/train-labels-idx1-ubyte" "$DATA/train-images-idx3-ubyte"
    expect_error 1 "$DATA/train-images-idx3-ubyte: 1 dimension, expected 3 (images)" "$DATA" 1
}

@test "dimensions whose product overflows" {
    { printf '\000\000\010\003'; be32 4294967295; be32 65536; be32 65536; } >"$DATA/train-images-idx3-ubyte"
    expect_error 1 "$DATA/train-images-idx3-ubyte: dimensions 4294967295x65536x65536 are too large: more than 17179869184 bytes of pixels" "$DATA" 1
}

@test "trailing bytes after the data" {
    printf 'abc' >>"$DATA/train-labels-idx1-ubyte" # 8 + 100 = 108 bytes expected
    expect_error 1 "$DATA/train-labels-idx1-ubyte: 3 bytes after the end of the data (the header promises 108 bytes of labels, file has 111)" "$DATA" 1
}

@test "image and label counts that differ" {
    labels_file "$DATA/train-labels-idx1-ubyte" 99
    expect_error 1 "$DATA/train-images-idx3-ubyte: 100 images but $DATA/train-labels-idx1-ubyte has 99 labels" "$DATA" 1
}

@test "a label out of range: 10 and 255" {
    poke "$DATA/train-labels-idx1-ubyte" $((8 + 7)) 012 # label 7 := 10
    expect_error 1 "$DATA/train-labels-idx1-ubyte: label 10 at index 7; labels must be 0..9" "$DATA" 1
    cp "$BATS_FILE_TMPDIR/small/t10k-labels-idx1-ubyte" "$DATA/t10k-labels-idx1-ubyte"
    poke "$DATA/t10k-labels-idx1-ubyte" $((8 + 49)) 377 # the last label := 255
    labels_file "$DATA/train-labels-idx1-ubyte" 100
    expect_error 1 "$DATA/t10k-labels-idx1-ubyte: label 255 at index 49; labels must be 0..9" "$DATA" 1
}

@test "zero images" {
    images_file "$DATA/t10k-images-idx3-ubyte" 0
    labels_file "$DATA/t10k-labels-idx1-ubyte" 0
    expect_error 1 "$DATA/t10k-images-idx3-ubyte: 0 images; need at least one" "$DATA" 1
}

@test "train and test images of different sizes" {
    images_file "$DATA/t10k-images-idx3-ubyte" 50 20 20
    expect_error 1 "$DATA/t10k-images-idx3-ubyte: train images are 28x28 but test images are 20x20" "$DATA" 1
}

@test "images of a size the model does not take (20x20 both)" {
    images_file "$DATA/train-images-idx3-ubyte" 100 20 20
    images_file "$DATA/t10k-images-idx3-ubyte" 50 20 20
    expect_error 1 "$DATA: images are 20x20, but the model expects 784 pixels (28x28)" "$DATA" 1
}

# ---- Output files: refused before training, not after it ---------------------

@test "output files in a read-only folder (/sys, read-only even for root)" {
    [ -d /sys/kernel ] || skip "no /sys"
    ! touch /sys/kernel/probe 2>/dev/null || { rm -f /sys/kernel/probe; skip "/sys/kernel is writable here"; }
    for option in --csv --weights-out --bench-out --predictions-out; do
        expect_error 2 "$option /sys/kernel/out: folder '/sys/kernel' is not writable (Permission denied)" \
            "$DATA" 1 "$option" /sys/kernel/out
    done
}

# (Each output folder is beside the data, not in it: an output inside the dataset folder is refused
# first, tests/cli.bats.)
@test "output files in a folder nobody may write (as nobody)" {
    open_to_nobody
    mkdir "$BATS_TEST_TMPDIR/closed"
    chmod 555 "$BATS_TEST_TMPDIR/closed"
    for option in --csv --weights-out --bench-out --predictions-out; do
        expect_error_as_nobody 2 "$option $BATS_TEST_TMPDIR/closed/out: folder '$BATS_TEST_TMPDIR/closed' is not writable (Permission denied)" \
            "$DATA" 1 "$option" "$BATS_TEST_TMPDIR/closed/out"
    done
    [ -z "$(ls -A "$BATS_TEST_TMPDIR/closed")" ] # not even the probe file was left
}

@test "--bench-out onto a file nobody may read: its rows would be lost" {
    open_to_nobody
    mkdir "$BATS_TEST_TMPDIR/out"
    chmod 777 "$BATS_TEST_TMPDIR/out"
    printf 'old rows\n' >"$BATS_TEST_TMPDIR/out/bench.tsv"
    chmod 200 "$BATS_TEST_TMPDIR/out/bench.tsv"
    expect_error_as_nobody 2 "--bench-out $BATS_TEST_TMPDIR/out/bench.tsv: cannot read the rows already there (Permission denied)" \
        "$DATA" 1 --bench-out "$BATS_TEST_TMPDIR/out/bench.tsv"
    [ "$(cat "$BATS_TEST_TMPDIR/out/bench.tsv")" = "old rows" ]
}

@test "the writability probe leaves nothing behind in a writable folder" {
    mkdir "$BATS_TEST_TMPDIR/out"
    run "$REFERENCE" "$DATA" 1 --quiet --csv "$BATS_TEST_TMPDIR/out/loss.csv" --weights-out "$BATS_TEST_TMPDIR/out/w.bin"
    [ "$status" -eq 0 ]
    [ "$(ls "$BATS_TEST_TMPDIR/out" | sort | tr '\n' ' ')" = "loss.csv w.bin " ]
}

# ---- A learning rate that makes the loss overflow ----------------------------

@test "every linear GPU chapter on the executor stops at the same diverged iteration as chapter 00" {
    # Chapter 00's own case is in tests/chapter00.bats. The chapters that
    # train chapter 00's model are those built on common/linear/gpu_trainer.h.
    # 12 iterations: enough to diverge (at 9), few enough for the slower
    # chapters under ASan.
    run "$REFERENCE" "$DATASET_DIR" 12 5 --train-limit 200 --quiet
    [ "$status" -eq 1 ]
    iteration=$(sed -n 's/.*the loss diverged at iteration \([0-9]*\) .*/\1/p' <<<"$output")
    [ -n "$iteration" ]
    for dir in chapters/[0-9][0-9]-*/; do
        chapter=$(basename "$dir")
        [ "${chapter%%-*}" != 00 ] || continue
        grep -q '#include "gpu_trainer.h"' "$dir/train.hip" || continue
        run "$(chapter_binary "${chapter%%-*}")" "$DATASET_DIR" 12 5 --train-limit 200 --quiet
        echo "$output"
        [ "$status" -eq 1 ]
        [[ "$(unwrap "$output")" == *"$chapter: the loss diverged at iteration $iteration (loss = inf) with learning rate 5; try a smaller learning rate"* ]]
        [[ "$output" != *"accuracy"* ]]
    done
}

@test "a folder setting that would read as code (DATASET_DIR, PLOTS_WORK, COMPARE_DIR) is refused before anything runs" {
    local name var
    for var in DATASET_DIR PLOTS_WORK COMPARE_DIR; do
        for name in 'x;touch pwned' 'a b' '$(shell touch made)' '`touch made`' "q'uote" '-x'; do
            run make --no-print-directory -n chapter-0 "$var=$name"
            echo "$var=$name: $output"
            [ "$status" -eq 2 ]
            [[ "$output" == *"$var=$name: a path of letters, digits and . _ / + , @ = ~ - (a - not first)"* ]]
        done
    done
    [ ! -e pwned ]
    [ ! -e made ]
}
