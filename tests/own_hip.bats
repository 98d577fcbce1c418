#!/usr/bin/env bats
# A learner's own HIP program (make profile FILE=, make racecheck FILE=): the
# small programs of tests/hip/, one per construct the front end and the
# executor support (<<<>>> launches, dynamic shared memory, streams and
# events, __device__ globals, the occupancy API, cooperative groups), each
# profiled with a modelled time for every kernel, race-checked, and built and
# run by the plain executor build; the negative controls: a deleted barrier
# found by the race check, unsupported constructs named in one line. `make
# test` builds the trace executor and the front end first.

load helpers

# own NAME: make profile and make racecheck FILE=tests/hip/NAME.hip succeed,
# the program's own output is on the screen, every kernel it launched has a
# gfx906 time, and the plain executor build runs it too. Where nvcc is, the
# H100 and H200 rows come from a wave-32 trace and nvcc's own code.
own() {
    local file=tests/hip/$1.hip
    run make --no-print-directory -s profile FILE="$file"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"$1's own output:"* ]]
    [[ "$output" == *"$1: "* ]]
    [[ "$output" != *"error"* ]]
    if [ -x "${NVCC:-}" ]; then
        [[ "$output" != *"modelled on gfx906's code"* ]]
        [ -s "build/profile/standalone/tests/hip/$1.w32.tsv" ]
        [ -s "build/profile/standalone/tests/hip/$1.sm_90.ptxas" ]
    fi
    local counters=build/profile/standalone/tests/hip/$1.tsv model=build/profile/standalone/tests/hip/$1.model.tsv kernel
    [ "$(tail -n +2 "$counters" | wc -l)" -ge 1 ]
    while IFS= read -r kernel; do
        echo "modelled: $kernel"
        awk -F'\t' -v k="$kernel" '$1 == k && $2 == "gfx906" && $3 > 0 { found = 1 } END { exit !found }' "$model"
    done < <(tail -n +2 "$counters" | cut -f 1)
    run make --no-print-directory -s racecheck FILE="$file"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"racecheck: $file is clean at wave 64"* ]]
    run make --no-print-directory -s HIP_PLATFORM=cpu SANITIZE="${SANITIZE:-}" "$CPU_BUILD/standalone/own/$1" STANDALONE_SOURCE="$file"
    [ "$status" -eq 0 ]
    run "$CPU_BUILD/standalone/own/$1"
    echo "$output"
    [ "$status" -eq 0 ]
}

@test "own HIP: <<<>>> launches of template kernels, 2 to 4 arguments, split over lines; printf in a kernel" {
    own launch
    run cut -f 1 build/profile/standalone/tests/hip/launch.tsv
    [[ "$output" == *"scale_add<float, 2>"* ]]
    [[ "$output" == *"scale_add<float, 3>"* ]]
    [ "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 == "scale_add<float, 2>" { print $c["launches"] }' \
        build/profile/standalone/tests/hip/launch.tsv)" -eq 2 ]
    run make --no-print-directory -s profile FILE=tests/hip/launch.hip
    [[ "$output" == *"hello from block 0, tag 7"* ]]
}

@test "own HIP: extern __shared__ and HIP_DYNAMIC_SHARED, sized by the launch, counted as LDS" {
    own dynamic_shared
    grep -Eq $'^block_sum<int>\t.*\t\\(dynamic\\)\tshared\t' build/profile/standalone/tests/hip/dynamic_shared.sites.tsv ||
        grep -q '(dynamic)' build/profile/standalone/tests/hip/dynamic_shared.sites.tsv
    [ "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 == "block_sum<int>" { print $c["lds_requests"] }' \
        build/profile/standalone/tests/hip/dynamic_shared.tsv)" -gt 0 ]
}

@test "own HIP: streams, asynchronous copies, pinned memory and events (run in order)" {
    own streams
}

@test "own HIP: __device__ globals through HIP_SYMBOL are buffers named after the variable" {
    own device_globals
    grep -q $'\ttable\t' build/profile/standalone/tests/hip/device_globals.sites.tsv
    grep -q $'\td_out\t' build/profile/standalone/tests/hip/device_globals.sites.tsv
}

@test "own HIP: the occupancy API answers from gfx906's limits" {
    own occupancy
    [[ "$output" == *"block 512 grid 300, 256 threads: 10 blocks per CU, 20000 LDS bytes: 3, CUs 60, wave 64, threads per CU 2560, cooperative 1"* ]]
}

@test "own HIP: cooperative groups' block and tiles, launched with hipLaunchCooperativeKernel" {
    own cooperative_groups
}

@test "own HIP: static __shared__ in a device function, as CUDA code declares a block's scratch" {
    own static_shared
}

@test "own HIP: the race check finds the barrier deleted from the dynamic shared memory sum" {
    racecheck_without_barrier tests/hip/dynamic_shared.hip tests/hip/check.h
    [[ "$output" == *"kernel 'block_sum<int>'"*"__shared__ (dynamic)"*"$BATS_TEST_TMPDIR/nobarrier/dynamic_shared.hip:10"* ]]
}

# fault NAME KERNEL THREAD MESSAGE LINE: tests/hip/bugs/NAME.hip stops, under make racecheck and
# in the plain executor build, with one message naming the kernel, the block, the thread, the
# fault and its source line, and a non-zero status. (A SANITIZE build leaves faults to ASan, whose
# report the suite counts as a failure: the plain build is checked in the plain run only.)
fault() {
    local file=tests/hip/bugs/$1.hip expected="hipcpu: kernel '$2' block (0,0,0): thread $3 stopped on $4 at $1.hip:$5"
    run make --no-print-directory -s racecheck FILE="$file"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"$expected"* ]]
    [ -z "${SANITIZE:-}" ] || return 0
    make --no-print-directory -s HIP_PLATFORM=cpu "$CPU_BUILD/standalone/bugs/$1" STANDALONE_SOURCE="$file"
    run "$CPU_BUILD/standalone/bugs/$1"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"$expected"* ]]
}

@test "own HIP: a fault in a kernel names the kernel, thread and line: a division by zero, a store where nothing is mapped" {
    fault divide_by_zero share_out '(0,0,0)' 'an integer division by zero (SIGFPE)' 9
    fault wild_store fill_rows '(1,0,0)' 'a load or store at an address no allocation holds (SIGSEGV)' 9
}

# host_bug NAME MESSAGE: tests/hip/bugs/NAME.hip stops, under make racecheck and in the plain
# executor build, with MESSAGE and status 1, not with glibc's abort or a hang.
host_bug() {
    local file=tests/hip/bugs/$1.hip
    run make --no-print-directory -s racecheck FILE="$file"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"$2"* ]]
    [[ "$output" != *"malloc"* && "$output" != *"Aborted"* ]]
    make --no-print-directory -s HIP_PLATFORM=cpu SANITIZE="${SANITIZE:-}" "$CPU_BUILD/standalone/bugs/$1" STANDALONE_SOURCE="$file"
    run "$CPU_BUILD/standalone/bugs/$1"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"$2"* ]]
}

@test "own HIP: a copy past a hipMalloc allocation's end, and a double free, stop with one message naming the call" {
    host_bug copy_past_end "hipcpu: hipMemcpy at copy_past_end.hip:12: its destination, 8000 bytes from offset 0 of a 4000-byte hipMalloc allocation"
    host_bug double_free "at double_free.hip:13: not a pointer hipMalloc returned, or one freed already (a double free)"
}

@test "own HIP: a kernel that never ends is stopped by the watchdog, its loop's line named" {
    local start=$SECONDS
    HIPCPU_WATCHDOG_S=2 host_bug never_ends "hipcpu: kernel 'hand_over' block (0,0,0): no thread reached a barrier, a wave operation or its end in 2 s (HIPCPU_WATCHDOG_S); thread (0,0,0) was running at never_ends.hip:12"
    [ $((SECONDS - start)) -lt 60 ] # two runs of 2 s, and the builds
}

@test "own HIP: a long launch shows its blocks done and the time left (HIPCPU_PROGRESS=on: from 1 s); not in a pipe unless asked" {
    # 1,000 blocks of 2 ms each (a sleep: the executor runs kernels on the host): 2 s whatever the build
    cat >"$BATS_TEST_TMPDIR/slow.hip" <<'HIP'
#include <hip/hip_runtime.h>
#include <unistd.h>
__global__ void slow(int *out) { if (threadIdx.x == 0) { usleep(2000); out[blockIdx.x] = 1; } }
int main() {
    int *out;
    if (hipMalloc(&out, 1000 * sizeof(int)) != hipSuccess) return 1;
    hipLaunchKernelGGL(slow, dim3(1000), dim3(64), 0, 0, out);
    return hipDeviceSynchronize() != hipSuccess || hipFree(out) != hipSuccess;
}
HIP
    make --no-print-directory -s HIP_PLATFORM=cpu "$CPU_BUILD/standalone/own/slow" STANDALONE_SOURCE="$BATS_TEST_TMPDIR/slow.hip"
    run env HIPCPU_PROGRESS=on "$CPU_BUILD/standalone/own/slow"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" =~ $'\r'"hipcpu: kernel 'slow': "[0-9]+" of 1000 blocks ("[0-9.]+"%), about "[0-9]+" s left" ]]
    run "$CPU_BUILD/standalone/own/slow" # auto: stderr is not a terminal here
    [ "$status" -eq 0 ]
    [ -z "$output" ]
}

@test "own HIP: a barrier only half the block reaches names its line and a thread that returned" {
    host_bug partial_barrier "hipcpu: kernel 'reverse_half' block (0,0,0): __syncthreads at partial_barrier.hip:12 reached by 128 of 256 threads; thread (128,0,0) returned without reaching it"
}

@test "own HIP: an unsupported construct is named in one line, not by a compiler cascade" {
    local dir=$BATS_TEST_TMPDIR/unsupported
    mkdir -p "$dir"
    printf '%s\n' '#include <hip/hip_runtime.h>' '#include <hip/hip_cooperative_groups.h>' \
        '__global__ void k(int *v) {' '    cooperative_groups::this_grid().sync();' '    v[0] = 1;' '}' \
        'int main(void) { return 0; }' >"$dir/grid.hip"
    run make --no-print-directory -s profile FILE="$dir/grid.hip"
    echo "$output"
    [ "$status" -ne 0 ]
    [ "$(grep -c "$dir/grid.hip" <<<"$output")" -eq 1 ]
    [[ "$output" == *"$dir/grid.hip:4: cooperative_groups::this_grid() (grid-wide sync) is not supported by the CPU executor"* ]]
    [[ "$output" != *"error:"* ]]
    printf '%s\n' '#include <hip/hip_runtime.h>' '__global__ void k(int *v) { v[0] = 1; }' \
        'int main(void) { int *v = nullptr; k<<<1>>>(v); return 0; }' >"$dir/short.hip"
    run make --no-print-directory -s racecheck FILE="$dir/short.hip"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"$dir/short.hip:3: a <<<...>>> launch needs 2 to 4 arguments"* ]]
}

@test "own HIP: two files of one name build apart, so each profile runs its own code" {
    local a=$BATS_TEST_TMPDIR/a b=$BATS_TEST_TMPDIR/b
    mkdir -p "$a" "$b"
    local program='#include <hip/hip_runtime.h>
__global__ void k(int *v) { v[threadIdx.x] = WHO; }
int main(void) { int *v = nullptr; if (hipMalloc(&v, 256) != hipSuccess) return 1; k<<<1, 64>>>(v); printf("program WHO\n"); return 0; }'
    sed 's/WHO/1/g' <<<"$program" >"$b/main.hip"
    sed 's/WHO/2/g' <<<"$program" >"$a/main.hip"
    touch -d '1 hour ago' "$b/main.hip" # older than a's binary: once reused it
    run make --no-print-directory -s profile FILE="$a/main.hip"
    [[ "$output" == *"program 2"* ]]
    run make --no-print-directory -s profile FILE="$b/main.hip"
    echo "$output"
    [[ "$output" == *"program 1"* ]]
}
