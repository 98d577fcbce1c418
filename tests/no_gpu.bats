#!/usr/bin/env bats
# Asking for a GPU platform on a machine without that GPU (HIP_PLATFORM=amd or
# nvidia make chapter-1): the trainer says that no GPU of that kind is
# visible and how to use the CPU executor, with status 1, instead of the
# runtime's "hipErrorInvalidDevice" or "CUDA driver version is insufficient
# for CUDA runtime version". Both harnesses (chapter 01's and chapter 09's)
# open the device through common/gpu_runtime.h. Skipped where the compiler is
# missing or the GPU is there. From a clean build/, the two builds took 12 s
# (AMD) and a few seconds (NVIDIA) on the 2-core development machine.

load helpers
load small_dataset

setup_file() {
    export NO_GPU_DATA="$BATS_FILE_TMPDIR/data"
    small_dataset "$NO_GPU_DATA" 100 50
}

# expect_no_gpu BINARY CHAPTER_NUMBER KIND RUNTIME CALL
expect_no_gpu() {
    local binary=$1 number=$2 kind=$3 runtime=$4 call=$5 name
    name=$(basename "$binary")
    run "$binary" "$NO_GPU_DATA" 2
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "${lines[0]}" == "$name: no $kind GPU is visible to the $runtime runtime ($call: "?*")" ]]
    [[ "${lines[1]}" == "$name: without a GPU, train chapter $(printf %02d "$number") on the CPU executor: make chapter-$number HIP_PLATFORM=cpu" ]]
    [ "${#lines[@]}" -eq 2 ] # nothing else: no header, no runtime error after it
}

@test "HIP_PLATFORM=amd without an AMD GPU: chapters 01 and 09 say so and point to the CPU executor" {
    command -v hipcc >/dev/null || skip "hipcc is not installed"
    [ ! -e /dev/kfd ] || skip "/dev/kfd exists: this machine may have an AMD GPU"
    # SANITIZE= : hipcc links without the sanitizer runtimes
    run make --no-print-directory HIP_PLATFORM=amd SANITIZE= build/amd-gfx906/01-naive-gemm \
        build/amd-gfx906/09-hidden-layer
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    expect_no_gpu build/amd-gfx906/01-naive-gemm 1 AMD HIP hipGetDeviceCount
    expect_no_gpu build/amd-gfx906/09-hidden-layer 9 AMD HIP hipGetDeviceCount
}

@test "HIP_PLATFORM=nvidia without an NVIDIA GPU: chapters 01 and 09 say so and point to the CPU executor" {
    # as the Makefile finds it (make test passes its NVCC)
    local nvcc=${NVCC:-$(command -v nvcc || true)}
    if [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ]; then nvcc=/usr/local/cuda/bin/nvcc; fi
    [ -n "$nvcc" ] || skip "nvcc is not installed"
    if ls /dev/nvidia[0-9]* >/dev/null 2>&1 || nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
        skip "an NVIDIA GPU is visible here"
    fi
    run make --no-print-directory HIP_PLATFORM=nvidia SANITIZE= NVCC="$nvcc" build/nvidia/01-naive-gemm \
        build/nvidia/09-hidden-layer
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    expect_no_gpu build/nvidia/01-naive-gemm 1 NVIDIA CUDA cudaGetDeviceCount
    expect_no_gpu build/nvidia/09-hidden-layer 9 NVIDIA CUDA cudaGetDeviceCount
}
