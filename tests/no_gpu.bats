#!/usr/bin/env bats
# Asking for a GPU platform on a machine without that GPU (HIP_PLATFORM=amd or
# nvidia make chapter-1): the trainer says that no GPU of that kind is
# visible and how to use the CPU executor, with status 1, instead of the
# runtime's "hipErrorInvalidDevice" or "CUDA driver version is insufficient
# for CUDA runtime version". The harness (chapter 01's and chapter 09's,
# with each model's harness file) opens the device through
# common/gpu/gpu_runtime.h. Skipped where the compiler is
# missing or the GPU is there. From a clean build/, the two builds took 12 s
# (AMD) and a few seconds (NVIDIA) on the 2-core development machine.
# make chapter-N itself stops before building where the platform's compiler,
# driver or GPU is missing, and names which.

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

# make chapter-N checks a GPU platform before it builds anything: the
# compiler, the driver and a GPU of that kind, each one missing named (not
# nvcc's build and then "CUDA driver version is insufficient"), and the CPU
# executor offered. HIP_PLATFORM in the environment, on a fresh clone.
@test "HIP_PLATFORM=nvidia make chapter-1 (in the environment), fresh clone, no driver: says what is missing, builds nothing" {
    if [ -e /proc/driver/nvidia/version ] || ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
        skip "an NVIDIA driver is installed here"
    fi
    local clone="$BATS_TEST_TMPDIR/clone"
    fresh_copy "$clone"
    cd "$clone"
    HIP_PLATFORM=nvidia run plain_make chapter-1 NVCC=/bin/true DATASET_DIR="$NO_GPU_DATA"
    echo "$output"
    [ "$status" -eq 2 ]
    [ "${lines[0]}" = "HIP_PLATFORM=nvidia, but this machine cannot run it; nothing was built:" ]
    [[ "$output" == *$'\n'"  no NVIDIA driver: no /proc/driver/nvidia/version, no libcuda.so.1"$'\n'* ]]
    [[ "$output" == *$'\n'"To train on the CPU executor instead: make chapter-1 HIP_PLATFORM=cpu"$'\n'* ]]
    [[ "$output" != *"no nvcc"* ]]
    [ ! -e build ]
    # and no compiler: named too
    HIP_PLATFORM=nvidia run plain_make chapter-1 NVCC= DATASET_DIR="$NO_GPU_DATA"
    [ "$status" -eq 2 ]
    [[ "$output" == *$'\n'"  no nvcc: install the CUDA toolkit, or name it with NVCC="$'\n'* ]]
    [ ! -e build ]
}

@test "HIP_PLATFORM=amd make chapter-1 without /dev/kfd: says what is missing, builds nothing" {
    [ ! -e /dev/kfd ] || skip "/dev/kfd exists: this machine has the ROCm driver"
    local clone="$BATS_TEST_TMPDIR/clone"
    fresh_copy "$clone"
    cd "$clone"
    run plain_make chapter-1 HIP_PLATFORM=amd HIPCC=/bin/true DATASET_DIR="$NO_GPU_DATA"
    echo "$output"
    [ "$status" -eq 2 ]
    [ "${lines[0]}" = "HIP_PLATFORM=amd, but this machine cannot run it; nothing was built:" ]
    [[ "$output" == *$'\n'"  no ROCm driver: no /dev/kfd (the amdgpu kernel driver's compute device)"$'\n'* ]]
    [[ "$output" != *"no hipcc"* ]]
    [[ "$output" == *"make chapter-1 HIP_PLATFORM=cpu"* ]]
    run plain_make chapter-1 HIP_PLATFORM=amd HIPCC=no-such-hipcc DATASET_DIR="$NO_GPU_DATA"
    [[ "$output" == *$'\n'"  no hipcc: install ROCm's HIP compiler, or name it with HIPCC="$'\n'* ]]
    [ ! -e build ]
}

# The other way round: HIP_PLATFORM=cpu in the environment where an NVIDIA GPU
# is detected (a stub nvidia-smi and nvcc), and nvidia in the environment for
# the targets that build through a sub-make; make -n: nothing is compiled.
@test "HIP_PLATFORM in the environment reaches every sub-make (make -n, fresh clone)" {
    local clone="$BATS_TEST_TMPDIR/clone" stubs="$BATS_TEST_TMPDIR/stubs"
    fresh_copy "$clone"
    mkdir -p "$stubs"
    printf '#!/bin/sh\necho "GPU 0: a stub"\n' >"$stubs/nvidia-smi"
    printf '#!/bin/sh\nexit 0\n' >"$stubs/nvcc"
    chmod +x "$stubs"/*
    cd "$clone"
    PATH="$stubs:$PATH" run common/scripts/detect_platform.sh
    [ "$output" = nvidia ]
    PATH="$stubs:$PATH" HIP_PLATFORM=cpu run plain_make -n chapter-1 DATASET_DIR="$NO_GPU_DATA"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *$'\n'"build/cpu/01-naive-gemm $NO_GPU_DATA 10 0.01"* ]]
    local target
    for target in chapter-1 compare build; do
        PATH="$stubs:$PATH" HIP_PLATFORM=nvidia run plain_make -n "$target" DATASET_DIR="$NO_GPU_DATA" NVCC=nvcc
        echo "$output"
        [ "$status" -eq 0 ]
        [[ "$output" == *"-o build/nvidia/01-naive-gemm"* ]]
        [[ "$output" != *"build/cpu"* ]]
    done
}
