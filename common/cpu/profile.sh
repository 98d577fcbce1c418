#!/usr/bin/env bash
# make profile-N: runs a chapter's trace build for one iteration (chapter 09:
# one epoch) with the executor's counters on, then prints what it saw and a
# modelled floor per kernel (common/cpu/profile.awk). Writes, in OUTDIR:
#   NN-name.tsv        one row per kernel: the counters, fill and floors
#   NN-name.sites.tsv  one row per call site (file:line) and memory space
#   NN-name.log        the trainer's own output
# Usage: profile.sh TRACE_BINARY OUTDIR DATASET_DIR [TRAINER OPTIONS...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
binary=$1 outdir=$2 dataset=$3
shift 3
chapter=$(basename "$binary")
mkdir -p "$outdir"
raw="$outdir/$chapter.raw.tsv" sites="$outdir/$chapter.sites.tsv" log="$outdir/$chapter.log"
rm -f "$raw" "$sites"
start=$(date +%s)
if ! HIPCPU_PROFILE="$raw" HIPCPU_PROFILE_SITES="$sites" "$binary" "$dataset" 1 --quiet "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "profile: $binary failed; its output is above and in $log" >&2
    exit 1
fi
seconds=$(($(date +%s) - start))
[ -s "$raw" ] || { echo "profile: $binary wrote no counters to $raw" >&2; exit 1; }
# The images it trained on, from its header line.
images=$(sed -n 's/^dataset .*: \([0-9]*\) training images\( (using the first \([0-9]*\))\)\{0,1\},.*/\1 \3/p' "$log" |
    awk '{ print ($2 != "" ? $2 : $1) }')
[ -n "$images" ] || { echo "profile: no image count in $log" >&2; exit 1; }
wave=64
case "$binary" in *wave32*) wave=32 ;; esac
awk -F'\t' -v chapter="$chapter" -v images="$images" -v wave="$wave" -v out="$outdir/$chapter.tsv" \
    -v sites="$sites" -v seconds="$seconds" \
    -f "$here/profile.awk" "$here/floor_devices.tsv" "$here/../../plots/resources.tsv" "$raw"
rm -f "$raw"
