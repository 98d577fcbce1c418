#!/usr/bin/env bash
# make profile-N: runs a chapter's trace build for one iteration (chapter 09:
# one epoch) with the executor's counters on, then the time model over them
# (common/cpu/model/), and prints what it saw and what it would cost, per
# kernel (common/cpu/trace/profile.awk). Writes, in OUTDIR:
#   NN-name.tsv         one row per kernel: the counters, the model's terms and times
#   NN-name.sites.tsv   one row per call site (file:line) and memory space
#   NN-name.lines.tsv   how often a wave ran each source line, per kernel
#   NN-name.model.tsv   the model, one row per kernel and device
#   NN-name.mix.tsv, NN-name.waits.tsv  its compiled-code facts (isa_facts.awk)
#   NN-name.source.tsv  the source view: each line's share of its kernel's binding term
#   NN-name.log         the trainer's own output
# The model needs hipcc (the gfx906 assembly says what the waves issue);
# without it the counters come alone, with a note.
# Usage: profile.sh TRACE_BINARY OUTDIR DATASET_DIR [TRAINER OPTIONS...]
# PROFILE_SLICES="N1 N2": trace N1 and N2 images and extend every count to the
# whole training set (make compare: seconds instead of minutes a chapter).
# PROFILE_SOURCE: the kernels' source (default: the chapter's train.hip);
# PROFILE_STANDALONE=1: the binary is a program of its own (make profile
# FILE=...), run with the options alone, no dataset;
# MODEL_DEVICES: the device table (default common/cpu/model/devices.tsv);
# TIMEMODEL: the model's program (default: build/tools/timemodel).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
# shellcheck source=common/scripts/lib.sh
. "$root/common/scripts/lib.sh"
SCRIPT_NAME=profile
binary=$1 outdir=$2 dataset=$3
shift 3
chapter=$(basename "$binary")
mkdir -p "$outdir"
# Everything is made under a work folder and moved into place at the end: a
# failed profile leaves the last good one whole.
work=$(mktemp -d "$outdir/.profile-$chapter.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
wave=64
case "$binary" in *wave32*) wave=32 ;; esac
source=${PROFILE_SOURCE:-}
if [ -z "$source" ]; then
    for candidate in "$root/chapters/$chapter/train.hip" "$root/build/generated/chapters/$chapter/train.hip"; do
        [ -f "$candidate" ] && { source=$candidate; break; }
    done
fi
timemodel=${TIMEMODEL:-$root/build/tools/timemodel}
note=
if [ "$wave" != 64 ]; then
    note="no model at wave 32: the model reads gfx906's wave64 code against wave64 counts (make profile-N WAVE=64)"
elif [ -z "$source" ]; then
    note="no model: no source found for $chapter (set PROFILE_SOURCE)"
elif ! command -v "${HIPCC:-hipcc}" >/dev/null; then
    note="no model: it reads the gfx906 assembly, and ${HIPCC:-hipcc} is not installed (make resources installs it as root)"
elif [ ! -x "$timemodel" ]; then
    note="no model: $timemodel is not built (make $timemodel)"
fi

# trace DIR [TRAINER OPTIONS...]: one traced iteration, its counters, sites,
# lines and log in DIR; then, with the model on, the compiled-code facts.
# Sets images (trained on) and total (in the training set).
trace() {
    local dir=$1
    shift
    mkdir -p "$dir"
    local command=("$binary" "$dataset" 1 --quiet "$@")
    [ -n "${PROFILE_STANDALONE:-}" ] && command=("$binary" "$@")
    if ! HIPCPU_PROFILE="$dir/raw.tsv" HIPCPU_PROFILE_SITES="$dir/sites.tsv" HIPCPU_PROFILE_LINES="$dir/lines.tsv" \
        "${command[@]}" >"$dir/log" 2>&1; then
        cat "$dir/log" >&2
        die "$binary failed; its output is above"
    fi
    [ -s "$dir/raw.tsv" ] || die "$binary wrote no counters"
    # The images, from the trainer's header: "dataset DIR: N training images, ...",
    # then "  using the first M training images (--train-limit)" when M < N.
    total=0 images=0
    [ -n "${PROFILE_STANDALONE:-}" ] || read -r total images < <(awk '
        /^dataset .*: [0-9]+ training images, / && total == "" {
            total = $0; sub(/ training images, .*/, "", total); sub(/.* /, "", total) }
        /^  using the first [0-9]+ training images/ && used == "" { used = $4 }
        END { if (total != "") print total, (used != "" ? used : total) }' "$dir/log")
    [ -n "${PROFILE_STANDALONE:-}" ] || [ "${images:-0}" -gt 0 ] || die "no image count in $dir/log"
    if [ -z "$note" ]; then
        (cd "$root" && bash common/cpu/model/isa_facts.sh "$source" "$dir/sites.tsv" "$dir/lines.tsv" "$dir/raw.tsv" "$dir/isa") >&2 ||
            note="no model: hipcc could not compile $source for gfx906 (its messages are above); the counts come alone"
    fi
}

start=$(date +%s)
# PROFILE_SLICES="N1 N2": two short runs, every count extended in a straight
# line to the whole training set (or to --train-limit's images if given).
if [ -n "${PROFILE_SLICES:-}" ]; then
    read -r n1 n2 <<<"$PROFILE_SLICES"
    trace "$work/a" "$@" --train-limit "$n1"
    trace "$work/b" "$@" --train-limit "$n2"
    target=$total
    for ((i = 1; i <= $#; i++)); do
        [ "${!i}" = --train-limit ] && { j=$((i + 1)); target=${!j}; }
    done
    [ "$target" -le "$total" ] || target=$total
    mkdir -p "$work/run"
    for table in raw.tsv isa.mix.tsv isa.waits.tsv isa.lines.tsv sites.tsv lines.tsv; do
        [ -f "$work/a/$table" ] || continue
        awk -F'\t' -v n1="$n1" -v n2="$n2" -v n="$target" -f "$here/../model/extrapolate.awk" \
            "$work/a/$table" "$work/b/$table" >"$work/run/$table"
    done
    { echo "counts extended in a straight line from traced runs on $n1 and $n2 images to $target:"; cat "$work/b/log"; } \
        >"$work/run/log"
    images=$target
    scaled=" (extended from $n1 and $n2 images)"
else
    trace "$work/run" "$@"
    scaled=
fi
seconds=$(($(date +%s) - start))
run=$work/run
if [ -z "$note" ]; then
    "$timemodel" "${MODEL_DEVICES:-$root/common/cpu/model/devices.tsv}" "$run/raw.tsv" "$run/isa.mix.tsv" "$run/isa.waits.tsv" \
        "$run/isa.lines.tsv" "$run/sites.tsv" "$run/shares.tsv" >"$run/model.tsv"
else
    printf 'kernel\tdevice\n' >"$run/model.tsv" # a header alone: profile.awk reads its two files in order
fi
awk -F'\t' -v chapter="$chapter" -v images="$images" -v wave="$wave" -v out="$run/table.tsv" \
    -v sites="$run/sites.tsv" -v seconds="$seconds" -v note="$note" -v shown="$outdir/$chapter" -v scaled="$scaled" \
    -f "$here/profile.awk" "$run/model.tsv" "$run/raw.tsv"
if [ -s "$run/shares.tsv" ] && [ -z "${PROFILE_NO_SOURCE_VIEW:-}" ]; then
    awk -F'\t' -v root="$root" -v source="$source" -f "$here/source_view.awk" "$run/shares.tsv" "$run/lines.tsv"
fi
# The set replaces the last one whole: each file this run made is moved into place, and one it did not
# make (the model's inputs and source view, without hipcc or at wave 32) is removed, not left from an
# older run beside the new table. The model's other inputs are there to rerun it (timemodel DEVICES
# NN.tsv NN.mix.tsv NN.waits.tsv).
mv "$run/isa.mix.tsv" "$run/mix.tsv" 2>/dev/null || true
mv "$run/isa.waits.tsv" "$run/waits.tsv" 2>/dev/null || true
mv "$run/shares.tsv" "$run/source.tsv" 2>/dev/null || true
mv "$run/log" "$run/log.tsv"
for part in sites lines model mix waits source log table; do
    name=$outdir/$chapter.$part.tsv
    case $part in table) name=$outdir/$chapter.tsv ;; log) name=$outdir/$chapter.log ;; esac
    if [ -f "$run/$part.tsv" ]; then
        mv -f "$run/$part.tsv" "$name"
    else
        rm -f "$name"
    fi
done
