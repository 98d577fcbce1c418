#!/usr/bin/env bats
# A learner's own CUDA program (make profile, racecheck and sanitize FILE=prog.cu): the small
# programs of tests/cuda/, each in CUDA's spelling (cuda_runtime.h, cuda* calls, warp-32
# intrinsics), profiled at warp 32 with a modelled H100 and H200 time for every kernel from nvcc's
# own code and sanitized clean; two also race-checked and run by the plain executor build; the negative
# controls: a deleted barrier caught, a failed assert reported as CUDA reports it, constructs
# the executor does not run named in one line. `make test` builds the trace executors first.

load helpers

tables=build/profile/standalone/tests/cuda

# own_cuda NAME: make profile and make sanitize (the four checks, the race check among them)
# FILE=tests/cuda/NAME.cu succeed at warp 32, the program's own output is on the screen, and every
# kernel it launched has an H100 and an H200 time (nvcc's code, where nvcc is installed).
own_cuda() {
    local file=tests/cuda/$1.cu kernel device
    run make --no-print-directory -s profile FILE="$file"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"$1's own output:"* ]]
    [[ "$output" == *"$1: what the CPU executor saw in one run (wave 32;"* ]]
    [[ "$output" != *"error"* ]]
    [ "$(tail -n +2 "$tables/$1.tsv" | wc -l)" -ge 1 ]
    if [ -x "${NVCC:-}" ]; then
        [ -s "$tables/$1.sm_90.ptxas" ]
        while IFS= read -r kernel; do
            for device in h100 h200; do
                echo "modelled: $kernel on $device"
                awk -F'\t' -v k="$kernel" -v d="$device" '$1 == k && $2 == d && $3 > 0 { found = 1 } END { exit !found }' \
                    "$tables/$1.model.tsv"
            done
        done < <(tail -n +2 "$tables/$1.tsv" | cut -f 1)
        # the NVIDIA devices lead the model's table
        [ "$(awk -F'\t' 'NR == 2 { print $2 }' "$tables/$1.model.tsv")" = h100 ]
    fi
    run make --no-print-directory -s sanitize FILE="$file"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"sanitize: $file is clean at wave 32"* ]]
}

# plain_cuda NAME: make racecheck clean at wave 32, and the plain executor build at wave 32 runs it
# (under SANITIZE, with ASan and UBSan).
plain_cuda() {
    local file=tests/cuda/$1.cu plain=build/cpu-wave32${SANITIZE:+-san}/standalone/own/$1
    run make --no-print-directory -s racecheck FILE="$file"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"racecheck: $file is clean at wave 32"* ]]
    run make --no-print-directory -s HIP_PLATFORM=cpu WAVE=32 SANITIZE="${SANITIZE:-}" "$plain" STANDALONE_SOURCE="$file"
    [ "$status" -eq 0 ]
    run "$plain"
    echo "$output"
    [ "$status" -eq 0 ]
}

# counter NAME KERNEL COLUMN: a column of the kernel's row in the profile's counters
counter() {
    awk -F'\t' -v k="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } $1 == k { print $col[c] }' \
        "$tables/$1.tsv"
}

@test "own CUDA: a block sum with __shfl_down_sync over warps of 32, its shuffles counted per warp" {
    own_cuda shfl_reduce
    [ "$(counter shfl_reduce block_sums shuffles)" -gt 0 ]
    # written for 32 lanes: at wave 64 its shuffles are reached by half a wave, and gfx906 says so
    # (the model's note, where nvcc gives the model)
    [ -x "${NVCC:-}" ] || return 0
    run make --no-print-directory -s profile FILE=tests/cuda/shfl_reduce.cu
    [[ "$output" == *"gfx906: not modelled: its run at wave 64 failed (a program written for warps of 32 may not run at 64)"* ]]
}

@test "own CUDA: cooperative groups' thread_block_tile<32>, meta_group_rank and cg::reduce" {
    own_cuda cg_reduce
}

@test "own CUDA: float4 loads and stores, 512 bytes a warp: 16 sectors per request" {
    own_cuda float4_loads
    [ "$(counter float4_loads scale4 global_load_sectors)" -eq "$((16 * $(counter float4_loads scale4 global_load_requests)))" ]
}

@test "own CUDA: warp votes: __ballot_sync, __any_sync, __all_sync, __activemask over 32 lanes" {
    own_cuda warp_vote
}

@test "own CUDA: a failed assert in a kernel prints CUDA's message and makes the next sync return cudaErrorAssert" {
    own_cuda device_assert
    plain_cuda device_assert
    run make --no-print-directory -s racecheck FILE=tests/cuda/device_assert.cu
    [[ "$output" == *"device_assert.cu:10: void in_range(const int *, int): block: [1,0,0], thread: [28,0,0] Assertion \`i < n\` failed."* ]]
    [[ "$output" == *"cudaDeviceSynchronize returned cudaErrorAssert: device-side assert triggered"* ]]
}

@test "own CUDA: the newcomer's file (a shared-memory histogram and a tiled transpose) profiles and checks unchanged" {
    own_cuda newcomer
    plain_cuda newcomer
    [ "$(counter newcomer 'histogram' atomics)" -gt 0 ]
    [ "$(counter newcomer 'transpose' lds_requests)" -gt 0 ]
}

@test "own CUDA: the race check finds the barrier deleted from the block sum" {
    racecheck_without_barrier tests/cuda/shfl_reduce.cu tests/cuda/check.cuh
    [[ "$output" == *"kernel 'block_sums'"*"__shared__ warp_totals"*"$BATS_TEST_TMPDIR/nobarrier/shfl_reduce.cu:21"* ]]
}

@test "own CUDA: what the executor does not run is named in one line: a library, a texture, an unmapped call, the driver API" {
    local dir=$BATS_TEST_TMPDIR/unsupported
    mkdir -p "$dir"
    printf '%s\n' '#include <cublas_v2.h>' 'int main() { return 0; }' >"$dir/blas.cu"
    printf '%s\n' '__global__ void k(float *o, cudaTextureObject_t t) { o[0] = tex1Dfetch<float>(t, 0); }' \
        'int main() { return 0; }' >"$dir/texture.cu"
    printf '%s\n' 'int main() {' '    float *p; size_t pitch;' '    cudaMallocPitch(&p, &pitch, 10, 10);' '    return 0;' '}' \
        >"$dir/pitch.cu"
    printf '%s\n' '#include <cuda.h>' 'int main() { return cuInit(0); }' >"$dir/driver.cu"
    local name expected
    for name in blas texture pitch driver; do
        case $name in
        blas) expected="$dir/blas.cu:1: #include <cublas_v2.h>: cuBLAS (a library) is not supported by the CPU executor" ;;
        texture) expected="$dir/texture.cu:1: texture objects (cudaTextureObject_t) are not supported by the CPU executor" ;;
        pitch) expected="$dir/pitch.cu:3: cudaMallocPitch is not supported by the CPU executor" ;;
        driver) expected="$dir/driver.cu:2: cuInit: the CUDA driver API (cu* calls) is not supported by the CPU executor" ;;
        esac
        run make --no-print-directory -s profile FILE="$dir/$name.cu"
        echo "$output"
        [ "$status" -ne 0 ]
        [[ "$output" == *"$expected"* ]]
        [ "$(grep -c "$dir/$name.cu" <<<"$output")" -eq 1 ]
        [[ "$output" != *"error:"* ]]
    done
}

@test "own CUDA: a .hip file that includes cuda_runtime.h is CUDA too (own_hip.bats: a HIP file stays at wave 64)" {
    local dir=$BATS_TEST_TMPDIR/spelling
    mkdir -p "$dir"
    cp tests/cuda/check.cuh "$dir/"
    { echo '#include <cuda_runtime.h>'; cat tests/cuda/warp_vote.cu; } >"$dir/votes.hip"
    run make --no-print-directory -s racecheck FILE="$dir/votes.hip"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"is clean at wave 32"* ]]
}
