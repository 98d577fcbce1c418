#!/usr/bin/env bash
# `make gpu-bundle`: what a session on a lent GPU machine has to carry. The
# machine gets the tracked tree as it is; it has no network, so the four
# MNIST files (ignored by git) go with it, and nothing else large: the
# build runs there. Prints the files, their sizes and whether they verify
# against dataset/SHA256SUMS, then the list to give the device tool's carry.
#   common/scripts/gpu_bundle.sh [DATASET_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
dataset=${1:-dataset}
files=(train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte)
missing=0
echo "gpu-bundle: a GPU session carries the tracked tree ($(git ls-files | wc -l) files, $(git ls-files -z | du -ch --files0-from=- 2>/dev/null | tail -n 1 | cut -f 1)) and these:"
for file in "${files[@]}"; do
    path=$dataset/$file
    if [ -f "$path" ]; then
        sum=$(awk -v f="$file" '$2 == f || $2 == "*" f { print $1 }' "$dataset/SHA256SUMS" 2>/dev/null || true)
        state="no SHA256SUMS line"
        [ -z "$sum" ] || { [ "$(sha256sum "$path" | cut -d ' ' -f 1)" = "$sum" ] && state=verified || state="FAILS its SHA256SUMS line"; }
        printf '  %-40s %8s  %s\n' "$path" "$(du -h "$path" | cut -f 1)" "$state"
    else
        printf '  %-40s missing: make dataset DATASET_DIR=%s\n' "$path" "$dataset"
        missing=1
    fi
done
printf 'carry: ["%s"]\n' "$(printf '%s", "' "${files[@]/#/$dataset/}" | sed 's/", "$//')"
echo "then, on the GPU machine: make gpu-report (a 9-minute budget; GPU_REPORT_DIR=$(printf '%s' build/gpu-report)), and here: make gpu-import DIR=<its folder>"
exit $missing
