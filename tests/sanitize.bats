#!/usr/bin/env bats
# make sanitize (common/executor/README.md, "make sanitize"): compute-sanitizer's
# four checks on the executor. tests/hip/bugs/ holds learner bugs, one a
# program, each with the finding it must draw on a line of its own:
#   // expect: CHECK FILE:LINE [TEXT]
# CHECK is memcheck, initcheck, racecheck or synccheck (the message begins
# "hipcpu: CHECK: "), fault (a kernel stopped on a signal), watchdog (a kernel
# that never ends) or host (a runtime call's own check); FILE:LINE and TEXT
# must be in it. `make test` builds them all in the checked build
# (build/trace/checked/bugs/). The checked and trace builds ignore SANITIZE,
# so the sanitized suite skips what it would only repeat.

load helpers

CHECKED=build/trace/checked

# expect_of FILE: its expect line's fields, "CHECK AT TEXT"
expect_of() {
    sed -n 's|^// expect: ||p' "$1"
}

# finding NAME: runs the bug and checks its one expected finding.
finding() {
    local file=tests/hip/bugs/$1.hip check at text start
    read -r check at text <<<"$(expect_of "$file")"
    start=$SECONDS
    run env HIPCPU_SANITIZE=1 HIPCPU_WATCHDOG_S=2 "$CHECKED/bugs/$1"
    echo "$1: $output"
    [ "$status" -ne 0 ]
    case $check in
    memcheck | initcheck | racecheck | synccheck) [[ "$output" == *"hipcpu: $check: "*"$at"* ]] ;;
    fault) [[ "$output" == *"hipcpu: kernel '"*"stopped on "*"$at"* ]] ;;
    watchdog) [[ "$output" == *"no thread reached a barrier"*"$at"* ]] ;;
    host) [[ "$output" == *"hipcpu: "*"$at"* ]] ;;
    *) echo "$1: unknown check '$check'" && return 1 ;;
    esac
    [[ "$output" == *"$text"* ]]
    [[ "$output" != *"Segmentation fault"* && "$output" != *"Aborted"* ]]
    [ $((SECONDS - start)) -lt 60 ]
}

@test "sanitize: every learner bug of tests/hip/bugs/ is named with its check and line, in under 60 s" {
    [ -z "${SANITIZE:-}" ] || skip "the checked build ignores SANITIZE: the plain run covers it"
    local file count=0
    for file in tests/hip/bugs/*.hip; do
        finding "$(basename "$file" .hip)"
        count=$((count + 1))
    done
    [ "$count" -ge 20 ]
}

@test "sanitize: tests/hip/bugs/ holds at least 3 bugs of each class the issue names" {
    local class n
    # by file name: global, shared and local out of bounds, misaligned, use after free, shared and
    # global races, kernels that never end; by expected finding: the rest
    for class in oob_global oob_shared oob_local misaligned free_ race_shared race_global never_ends; do
        n=$(find tests/hip/bugs -name "$class*.hip" | wc -l)
        echo "$class: $n"
        [ "$n" -ge 3 ]
    done
    [ "$(grep -l '^// expect: synccheck' tests/hip/bugs/*.hip | wc -l)" -ge 3 ]
    [ "$(grep -l '^// expect: fault' tests/hip/bugs/*.hip | wc -l)" -ge 3 ]
    [ "$(grep -l '^// expect: initcheck .*global memory' tests/hip/bugs/*.hip | wc -l)" -ge 3 ]
    [ "$(grep -l '^// expect: initcheck uninit_shared' tests/hip/bugs/*.hip | wc -l)" -ge 3 ]
}

@test "make sanitize FILE=: a bug ends with its finding, a count and status 2; a correct program is clean, status 0" {
    [ -z "${SANITIZE:-}" ] || skip "the checked build ignores SANITIZE: the plain run covers it"
    run make --no-print-directory -s sanitize FILE=tests/hip/bugs/uninit_histogram.hip
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == *"hipcpu: initcheck: kernel 'count' block (0,0,0): uninitialised read of global memory: thread (0,0,0) updated atomically 4 bytes at tests/hip/bugs/uninit_histogram.hip:10, byte 0 of device buffer 'counts'"* ]]
    [[ "$output" == *"hipcpu: sanitize: 16 findings (initcheck 16); the first of each class is shown above"* ]]
    run make --no-print-directory -s sanitize FILE=tests/hip/launch.hip
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"sanitize: tests/hip/launch.hip is clean at wave 64: no memcheck, initcheck, racecheck or synccheck finding"* ]]
    [[ "$output" != *"hipcpu:"* ]]
}

@test "sanitize: two classes in one run: the first of each in full, the rest counted, and a leak warned of" {
    [ -z "${SANITIZE:-}" ] || skip "the checked build ignores SANITIZE: the plain run covers it"
    cat >"$BATS_TEST_TMPDIR/two.hip" <<'HIP'
#include <hip/hip_runtime.h>
__global__ void last_one_past(float *v, int n) { int i = threadIdx.x; if (i <= n) v[i] = 1.0f; }
// sum_unset reads out, never written (initcheck), and one float past its end (memcheck)
__global__ void sum_unset(const float *v, float *out) { out[threadIdx.x] = v[threadIdx.x] + v[threadIdx.x + 1]; }
int main() {
    float *v, *out, *kept;
    if (hipMalloc(&v, 64 * sizeof(float)) != hipSuccess || hipMalloc(&out, 32 * sizeof(float)) != hipSuccess) return 1;
    if (hipMalloc(&kept, 4 * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(last_one_past, dim3(1), dim3(128), 0, 0, v, 64);
    hipLaunchKernelGGL(sum_unset, dim3(1), dim3(32), 0, 0, out, v);
    return hipDeviceSynchronize() != hipSuccess || hipFree(v) != hipSuccess || hipFree(out) != hipSuccess;
}
HIP
    make --no-print-directory -s HIP_PLATFORM=cpu TRACE=1 "$CHECKED/standalone/own/two" STANDALONE_SOURCE="$BATS_TEST_TMPDIR/two.hip"
    run env HIPCPU_SANITIZE=1 "$CHECKED/standalone/own/two"
    echo "$output"
    [ "$status" -eq 1 ]
    [ "$(grep -c '^hipcpu: memcheck: ' <<<"$output")" -eq 1 ]
    [ "$(grep -c '^hipcpu: initcheck: ' <<<"$output")" -eq 1 ]
    [[ "$output" == *"out of bounds, global: thread (64,0,0) wrote 4 bytes at $BATS_TEST_TMPDIR/two.hip:2, 0 bytes past the end of device buffer 'v' (256 bytes, from hipMalloc)"* ]]
    [[ "$output" == *"uninitialised read of global memory: thread (0,0,0) read 4 bytes at $BATS_TEST_TMPDIR/two.hip:4, byte 0 of device buffer 'out'"* ]]
    [[ "$output" == *"hipcpu: sanitize: warning: 1 hipMalloc allocation was never freed (a leak): 'kept' (16 bytes)"* ]]
    [[ "$output" == *"hipcpu: sanitize: 65 findings (memcheck 2, initcheck 63); the first of each class is shown above"* ]]
}

@test "sanitize: make racecheck FILE= still stops at its first finding, with no class in front" {
    [ -z "${SANITIZE:-}" ] || skip "the trace build ignores SANITIZE: the plain run covers it"
    run make --no-print-directory -s racecheck FILE=tests/hip/bugs/race_shared_tile_reuse.hip
    echo "$output"
    [ "$status" -ne 0 ]
    [ "$(grep -c '^hipcpu: ' <<<"$output")" -eq 1 ]
    [[ "$output" == *"hipcpu: kernel 'running_sums' block (0,0,0): race on __shared__ tile"* ]]
}
