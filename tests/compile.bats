#!/usr/bin/env bats
# Every GPU chapter compiles for the tuning target (gfx906, with zero register
# spills) and for NVIDIA (sm_90 with nvcc, when nvcc is installed), so that
# breakage shows on machines without either GPU.

load helpers

@test "every GPU chapter compiles for gfx906 with zero VGPR/SGPR spills and no scratch" {
    tsv="$BATS_FILE_TMPDIR/resources.tsv"
    run make --no-print-directory resources RESOURCE_TSV="$tsv"
    echo "$output"
    [ "$status" -eq 0 ]
    for dir in chapters/*/train.hip; do
        chapter=$(basename "$(dirname "$dir")")
        grep -q "^$chapter	" "$tsv" || { echo "no kernels reported for $chapter"; false; }
    done
    run awk -F'\t' 'NR > 1 && ($6 != 0 || $7 != 0 || $8 != 0) {
        print $1 " " $2 ": scratch " $6 " bytes, " $7 " VGPR and " $8 " SGPR spills"; bad = 1 }
        END { exit bad }' "$tsv"
    echo "$output"
    [ "$status" -eq 0 ]
}

@test "every GPU chapter compiles for sm_90 with nvcc" {
    [ -n "${NVCC:-}" ] || skip "nvcc not installed"
    for source in chapters/*/train.hip; do
        "$NVCC" -std=c++17 -arch=sm_90 -x cu -Icommon/nvidia -Icommon -c "$source" \
            -o "$BATS_TEST_TMPDIR/chapter.o"
    done
    "$NVCC" -std=c++17 -arch=sm_90 -x cu -Icommon/nvidia -Icommon -c common/gpu_trainer.hip \
        -o "$BATS_TEST_TMPDIR/trainer.o"
}
