#!/usr/bin/env bash
# make resources: each GPU chapter's kernels compiled for gfx906 (the tuning
# target; no GPU needed) with -Rpass-analysis=kernel-resource-usage, one row a
# kernel (common/scripts/resources.awk): registers, LDS, scratch, spills, occupancy.
#   common/scripts/resources.sh TSV CHAPTER...    (HIPCC: the compiler, default hipcc)
# TSV is written through TSV.tmp, so a failed run leaves the old table whole.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=common/scripts/lib.sh
. common/scripts/lib.sh
tsv=$1
shift
mkdir -p build/resources "$(dirname "$tsv")"
printf 'chapter\tkernel\tvgprs\tsgprs\tlds_bytes\tscratch_bytes\tvgpr_spills\tsgpr_spills\twaves_per_simd\n' >"$tsv.tmp"
mapfile -t includes < <(sed 's/^/-I/' common/include_dirs) # common/'s folders
for chapter in "$@"; do
    log=build/resources/$chapter.log
    # shellcheck disable=SC2086 # HIPCC may carry options
    HIP_PLATFORM=amd ${HIPCC:-hipcc} -O3 -std=c++17 --offload-arch=gfx906 -DHIP_WAVE_SIZE=64 "${includes[@]}" \
        --cuda-device-only -c -Rpass-analysis=kernel-resource-usage "chapters/$chapter/train.hip" \
        -o "build/resources/$chapter.o" >"$log" 2>&1 || { cat "$log" >&2; rm -f "$tsv.tmp"; exit 1; }
    c++filt <"$log" | awk -v chapter="$chapter" -f common/scripts/kernel_name.awk -f common/scripts/resources.awk >>"$tsv.tmp"
done
mv "$tsv.tmp" "$tsv"
echo "gfx906 resources per kernel (from -Rpass-analysis=kernel-resource-usage; written to $tsv):"
print_table "$tsv"
