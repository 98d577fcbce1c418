# Small IDX datasets cut from MNIST, for tests that break them or that run
# many short trainings (loading all of MNIST under ASan costs a quarter of a
# second a run). Loaded by bad_inputs.bats and reliability.bats.

# be32 N: N as four big-endian bytes.
be32() {
    local n=$1
    printf "\\$(printf %03o $(((n >> 24) & 255)))\\$(printf %03o $(((n >> 16) & 255)))"
    printf "\\$(printf %03o $(((n >> 8) & 255)))\\$(printf %03o $((n & 255)))"
}

# images_file PATH COUNT [ROWS [COLS [TYPE]]]: an IDX images file whose pixels
# come from MNIST's training images (the type code is in octal, 010 = 0x08).
images_file() {
    local path=$1 count=$2 rows=${3:-28} cols=${4:-28} type=${5:-010}
    {
        printf "\\000\\000\\$type\\003"
        be32 "$count"
        be32 "$rows"
        be32 "$cols"
        tail -c +17 "$DATASET_DIR/train-images-idx3-ubyte" | head -c $((count * rows * cols))
    } >"$path"
}

# labels_file PATH COUNT: an IDX labels file with MNIST's first COUNT labels.
labels_file() {
    {
        printf '\000\000\010\001'
        be32 "$2"
        tail -c +9 "$DATASET_DIR/train-labels-idx1-ubyte" | head -c "$2"
    } >"$1"
}

# small_dataset FOLDER [TRAIN [TEST]]: the four files, with the first TRAIN
# (default 100) training images and labels and the first TEST (default 50) as
# the test set (also from MNIST's training files: only the sizes matter).
small_dataset() {
    local folder=$1 train=${2:-100} test=${3:-50}
    mkdir -p "$folder"
    images_file "$folder/train-images-idx3-ubyte" "$train"
    labels_file "$folder/train-labels-idx1-ubyte" "$train"
    images_file "$folder/t10k-images-idx3-ubyte" "$test"
    labels_file "$folder/t10k-labels-idx1-ubyte" "$test"
}
