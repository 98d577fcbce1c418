#!/usr/bin/env bats
# test-lane: shared-build
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
        "$NVCC" -std=c++17 -arch=sm_90 -x cu -Icommon/gpu/nvidia "${COMMON_INCLUDES[@]}" -c "$source" \
            -o "$BATS_TEST_TMPDIR/chapter.o"
    done
    for source in common/harness/harness.hip common/linear/gpu_trainer.hip; do
        "$NVCC" -std=c++17 -arch=sm_90 -x cu -Icommon/gpu/nvidia "${COMMON_INCLUDES[@]}" -c "$source" \
            -o "$BATS_TEST_TMPDIR/harness.o"
    done
    "$NVCC" -std=c++17 -arch=sm_90 -x cu -Icommon/gpu/nvidia "${COMMON_INCLUDES[@]}" -c common/gpu/gpu_runtime.hip \
        -o "$BATS_TEST_TMPDIR/runtime.o"
}

# hipcc compiles a .hip file twice, a host pass and a device pass; only the
# device pass knows the target's wave size. The block size the host launches
# (chapter 07's FUSED_THREADS, 10 waves) must be the one the device code was
# built for (its __launch_bounds__, in the code object's metadata), for a
# wave64 target and a wave32 one. The flags are make's own (make -n).
amd_flags() { # GPU_ARCH: the hipcc command make would run, up to its -c, less its dependency file's flags
    local command
    command=$(make --no-print-directory -n -B HIP_PLATFORM=amd GPU_ARCH="$1" \
        "build/amd-$1/chapters/07-kernel-fusion/train.o" | grep 'hipcc' | tail -n 1)
    echo "${command%% -c *}" | sed 's/^HIP_PLATFORM=amd //; s/ -MMD -MP -MF [^ ]* -MT [^ ]*//'
}
@test "AMD gfx906 and gfx1030 (wave32): the host launches the block size the device code was built for" {
    make --no-print-directory hip-tools >/dev/null
    printf '#include "%s/chapters/07-kernel-fusion/train.hip"\nint host_block_threads = FUSED_THREADS;\n' \
        "$PWD" >"$BATS_TEST_TMPDIR/probe.hip"
    for target in gfx906:640 gfx1030:320; do
        arch=${target%%:*} expected=${target##*:}
        flags=$(amd_flags "$arch")
        echo "$arch: $flags"
        [[ "$flags" == *"--offload-arch=$arch"* ]]
        host=$(HIP_PLATFORM=amd $flags --cuda-host-only -E "$BATS_TEST_TMPDIR/probe.hip" |
            sed -n 's/^int host_block_threads = \(.*\);$/\1/p')
        HIP_PLATFORM=amd $flags --cuda-device-only -S chapters/07-kernel-fusion/train.hip \
            -o "$BATS_TEST_TMPDIR/$arch.s"
        device=$(awk '/\.max_flat_workgroup_size:/ { size = $2 } /\.name: *_Z10train_step/ { print size; exit }' \
            "$BATS_TEST_TMPDIR/$arch.s")
        echo "  host launches $host = $((host)) threads; device built for $device"
        [ "$((host))" -eq "$expected" ]
        [ "$device" -eq "$expected" ]
    done
}
@test "AMD: a wave size that contradicts GPU_ARCH stops the build with a message" {
    make --no-print-directory hip-tools >/dev/null
    # SANITIZE= : a hipcc build is never sanitized (the Makefile refuses one)
    run make --no-print-directory -B HIP_PLATFORM=amd GPU_ARCH=gfx1030 AMD_WAVE=64 SANITIZE= \
        build/amd-gfx1030/chapters/07-kernel-fusion/train.o
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"HIP_WAVE_SIZE differs from the target's wave size"* ]]
}
@test "HIP_PLATFORM=amd make build GPU_ARCH=gfx1030 builds every chapter" {
    make --no-print-directory hip-tools >/dev/null
    # SANITIZE= : hipcc links the trainers, without the sanitizer runtimes
    # (the sanitized run of make test covers the host code and the CPU builds).
    run make --no-print-directory -j2 HIP_PLATFORM=amd GPU_ARCH=gfx1030 SANITIZE= build
    echo "$output" | tail -n 20
    [ "$status" -eq 0 ]
    for dir in chapters/*/; do [ -x "build/amd-gfx1030/$(basename "$dir")" ]; done
}
