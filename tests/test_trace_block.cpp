/* Tests of the CPU executor's trace build (common/tracer/trace*.cpp)
 * within a block and a launch: LDS requests and bank cycles, atomics,
 * barriers, shuffles and the launch's shape counted by HIPCPU_PROFILE
 * against answers worked out by hand, and the names launches are counted
 * under (a template kernel with its arguments, a kernel reached through a
 * pointer, overloads apart), in the executor's messages too.
 *
 * Build: make HIP_PLATFORM=cpu TRACE=1 build/trace/tests/test_trace_block (and
 * WAVE=32 for build/trace-wave32/tests/test_trace_block): the Makefile's trace
 * build flags (INSTRUMENT), the ones the chapters get. Run from the
 * repository root with CMOCKA_MESSAGE_OUTPUT=TAP for TAP output.
 *
 * The expected counts are formulas of warpSize, so both wave sizes pass.
 * Every kernel that runs in this process must be race-free and read only
 * shared memory its block wrote: the race check is on for the whole run
 * (main sets it before the first launch). The abort case runs in a forked
 * child. */
#include <math.h>
#include <stdint.h>
#include <hip/hip_runtime.h>

#include "tracer/trace.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
extern "C" { /* cmocka 1.1.5's header has no C++ guard */
#include <cmocka.h>
}

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include "executor_helpers.h"

/* The shuffles of a wave's tree reduction: log2 of the wave size. */
static unsigned log2_of(unsigned n) {
    unsigned k = 0;
    while ((1u << k) < n) k++;
    return k;
}

/* ---- LDS bank cycles ------------------------------------------------------ */

/* 64*33 floats: lane i of a wave64 at stride 33 reads word 33i < 64*33. */
#define LDS_WORDS (64 * 33)

/* One wave fills lds_tile, each lane its own words (j = lane, lane +
 * warpSize, ...), then lane i reads word (i*stride) % LDS_WORDS. */
__global__ void lds_stride_kernel(float *out, unsigned stride) {
    __shared__ float lds_tile[LDS_WORDS];
    const unsigned t = threadIdx.x;
    for (unsigned j = t; j < LDS_WORDS; j += blockDim.x) lds_tile[j] = float(j);
    __syncthreads();
    out[t] = lds_tile[(t * stride) % LDS_WORDS];
}

/* The read request's bank cycles at `stride`: the kernel's total minus its
 * write phase, which is the same at every stride. */
static uint64_t lds_read_cycles(unsigned stride) {
    hipcpu_trace_reset();
    float *out = device_alloc<float>(W);
    hipLaunchKernelGGL(lds_stride_kernel, 1, W, 0, 0, out, stride);
    HIP_OK(hipGetLastError());
    const std::vector<float> result = download(out, W);
    for (unsigned i = 0; i < W; i++) assert_true(result[i] == float((i * stride) % LDS_WORDS));
    HIP_OK(hipFree(out));

    const hipcpu_kernel_counters c = counters_of("lds_stride_kernel");
    /* Writes: each lane writes LDS_WORDS/warpSize words (2112 = 33*64 =
     * 66*32), one request per loop trip: LDS_WORDS/warpSize requests. */
    assert_int_equal(c.lds_write_requests, LDS_WORDS / W);
    /* Reads: one request. */
    assert_int_equal(c.lds_read_requests, 1);
    /* Bytes: every word written once, plus warpSize 4-byte reads. */
    assert_int_equal(c.lds_bytes, LDS_WORDS * 4 + W * 4);
    /* Each write request is warpSize consecutive words: warpSize/32 passes
     * of 32 lanes, one word per bank, 1 cycle each: warpSize/32 cycles per
     * request, LDS_WORDS/warpSize * warpSize/32 = LDS_WORDS/32 = 66 in all. */
    const uint64_t write_cycles = LDS_WORDS / 32;
    assert_true(c.lds_bank_cycles > write_cycles);
    return c.lds_bank_cycles - write_cycles;
}

static void test_lds_bank_cycles(void **) {
    const unsigned passes = W / 32; /* 4-byte reads: passes of 32 lanes */
    /* Stride 1: a pass's 32 lanes read 32 consecutive words, one per bank:
     * 1 cycle per pass (wave64: 2, wave32: 1). */
    assert_int_equal(lds_read_cycles(1), passes * 1);
    /* Stride 2: a pass's lanes read words 0, 2, ..., 62 (+64 in the second
     * pass): only the even banks, two distinct words each: 2 cycles per pass
     * (wave64: 4, wave32: 2). */
    assert_int_equal(lds_read_cycles(2), passes * 2);
    /* Stride 32: every lane of a pass reads a distinct word of bank 0:
     * 32 cycles per pass (wave64: 64, wave32: 32). */
    assert_int_equal(lds_read_cycles(32), passes * 32);
    /* Stride 33: word 33i is in bank (33i) % 32 = i % 32, a different bank
     * for each of a pass's 32 lanes: 1 cycle per pass (wave64: 2, wave32: 1). */
    assert_int_equal(lds_read_cycles(33), passes * 1);
    /* Stride 0, a broadcast: every lane reads word 0, one word: 1 cycle per
     * pass, as the lanes are still served in passes (wave64: 2, wave32: 1). */
    assert_int_equal(lds_read_cycles(0), passes * 1);
    /* Stride 132 (2112 / 16): lanes i and i + 16 read one word, and words
     * 132i and 132(i + 8) share a bank: two distinct words in each of 8
     * banks, each read twice, apart: 2 cycles per pass (wave64: 4, wave32: 2). */
    assert_int_equal(lds_read_cycles(132), passes * 2);
}

/* ---- Atomics -------------------------------------------------------------- */

__global__ void atomic_one_kernel(float *sum) { atomicAdd(sum, 1.0f); }

__global__ void atomic_own_kernel(float *sums) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&sums[i], 1.0f);
}

static void test_atomics(void **) {
    hipcpu_trace_reset();
    const unsigned blocks = 4, threads = 256, n = blocks * threads;
    float *sum = named_alloc<float>(1, "atomic_sum");
    HIP_OK(hipMemset(sum, 0, sizeof(float)));
    /* Several blocks updating one address atomically: no race reported. */
    hipLaunchKernelGGL(atomic_one_kernel, blocks, threads, 0, 0, sum);
    HIP_OK(hipGetLastError());
    assert_true(download(sum, 1)[0] == float(n));
    hipcpu_kernel_counters c = counters_of("atomic_one_kernel");
    /* 4 blocks x 256 threads, one atomic each, all on one address. */
    assert_int_equal(c.atomics, n);
    assert_int_equal(c.atomics_max_one_address, n);
    /* An atomic is neither a plain load nor a plain store. */
    assert_int_equal(c.global_load_requests + c.global_store_requests, 0);

    float *sums = named_alloc<float>(n, "atomic_sums");
    HIP_OK(hipMemset(sums, 0, n * sizeof(float)));
    hipLaunchKernelGGL(atomic_own_kernel, blocks, threads, 0, 0, sums);
    HIP_OK(hipGetLastError());
    const std::vector<float> result = download(sums, n);
    for (unsigned i = 0; i < n; i++) assert_true(result[i] == 1.0f);
    c = counters_of("atomic_own_kernel");
    /* 1024 atomics, each on its own address: at most 1 on one address. */
    assert_int_equal(c.atomics, n);
    assert_int_equal(c.atomics_max_one_address, 1);
    HIP_OK(hipFree(sum));
    HIP_OK(hipFree(sums));
}

/* ---- Barriers, shuffles, launch geometry ------------------------------------ */

__global__ void two_barrier_kernel(float *out) {
    __shared__ float barrier_tile[256];
    const unsigned t = threadIdx.x;
    barrier_tile[t] = float(t);
    __syncthreads();
    const float v = barrier_tile[blockDim.x - 1 - t];
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = v;
}

__global__ void wave_sum_kernel(float *out, const float *in) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
    if (threadIdx.x % warpSize == 0) out[i / warpSize] = v;
}

__global__ void geometry_kernel(int *out) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = int(i);
}

static void test_barriers_and_shuffles(void **) {
    hipcpu_trace_reset();
    const unsigned blocks = 3, threads = 256;
    float *out = device_alloc<float>(blocks * threads);
    hipLaunchKernelGGL(two_barrier_kernel, blocks, threads, 0, 0, out);
    HIP_OK(hipGetLastError());
    const std::vector<float> reversed = download(out, blocks * threads);
    for (unsigned i = 0; i < blocks * threads; i++) assert_true(reversed[i] == float(threads - 1 - i % threads));
    hipcpu_kernel_counters c = counters_of("two_barrier_kernel");
    /* 2 __syncthreads per block, 3 blocks. */
    assert_int_equal(c.barriers, 2 * blocks);
    assert_int_equal(c.shuffles, 0);
    HIP_OK(hipFree(out));

    const unsigned waves = 3, n = waves * W;
    std::vector<float> host(n);
    for (unsigned i = 0; i < n; i++) host[i] = float(i % 7);
    float *in = upload(host), *sums = device_alloc<float>(waves);
    hipLaunchKernelGGL(wave_sum_kernel, 1, n, 0, 0, sums, in);
    HIP_OK(hipGetLastError());
    const std::vector<float> result = download(sums, waves);
    for (unsigned w = 0; w < waves; w++) {
        float expected = 0.0f;
        for (unsigned i = w * W; i < (w + 1) * W; i++) expected += host[i];
        assert_true(result[w] == expected);
    }
    c = counters_of("wave_sum_kernel");
    /* Offsets warpSize/2, ..., 2, 1: log2(warpSize) __shfl_down per wave,
     * counted once per wave (not per lane); no barrier. */
    assert_int_equal(c.shuffles, waves * log2_of(W));
    assert_int_equal(c.barriers, 0);
    HIP_OK(hipFree(in));
    HIP_OK(hipFree(sums));
}

static void test_launch_geometry(void **) {
    hipcpu_trace_reset();
    int *out = device_alloc<int>(300);
    hipLaunchKernelGGL(geometry_kernel, 3, 100, 0, 0, out);
    HIP_OK(hipGetLastError());
    const std::vector<int> result = download(out, 300);
    for (int i = 0; i < 300; i++) assert_int_equal(result[size_t(i)], i);
    hipcpu_kernel_counters c = counters_of("geometry_kernel");
    assert_int_equal(c.launches, 1);
    assert_int_equal(c.blocks, 3);
    assert_int_equal(c.threads, 300);
    /* 100 threads make ceil(100/warpSize) waves (wave64: 2, wave32: 4), the
     * last one partial; 3 blocks of them. */
    assert_int_equal(c.waves, 3 * ((100 + W - 1) / W));
    /* Requests per wave, partial or not: one store each. */
    assert_int_equal(c.global_store_requests, 3 * ((100 + W - 1) / W));
    assert_int_equal(c.global_store_bytes, 300 * 4);

    /* The counters sum over launches; a reset forgets them. */
    hipLaunchKernelGGL(geometry_kernel, 3, 100, 0, 0, out);
    c = counters_of("geometry_kernel");
    assert_int_equal(c.launches, 2);
    assert_int_equal(c.blocks, 6);
    hipcpu_trace_reset();
    assert_false(hipcpu_trace_counters("geometry_kernel", &c));
    HIP_OK(hipFree(out));
}

/* ---- Kernel names: the function a launch runs, not its text ---------------------- */

/* A launch is counted under the name the compiler gives the kernel it runs
 * (the time model finds hipcc's code by it): a template instantiation with
 * its arguments, however the launch spelled them; a kernel called through a
 * pointer under its own name; overloads apart, with their parameter lists. */
template <int SCALE, int OFFSET> __global__ void scaled_kernel(int *out) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = SCALE * int(i) + OFFSET;
}
__global__ void pointed_kernel(int *out) { out[threadIdx.x] = 1; }
__global__ void overloaded_kernel(int *out) { out[threadIdx.x] = 2; }
__global__ void overloaded_kernel(float *out) { out[threadIdx.x] = 3.0f; }

static void test_kernel_names(void **) {
    hipcpu_trace_reset();
    int *out = device_alloc<int>(2 * W);
    float *out_f = device_alloc<float>(W);
    constexpr int kScale = 3, kOffset = 2;
    hipLaunchKernelGGL((scaled_kernel<kScale, kOffset>), 1, W, 0, 0, out);
    assert_int_equal(download(out, W)[5], 17);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(scaled_kernel<4, 1>), 2, W, 0, 0, out);
    void (*volatile chosen)(int *) = pointed_kernel; /* volatile: a call through the pointer */
    hipLaunchKernelGGL(chosen, 1, W, 0, 0, out);
    hipLaunchKernelGGL(overloaded_kernel, 1, W, 0, 0, out);
    hipLaunchKernelGGL(overloaded_kernel, 1, W, 0, 0, out_f);
    hipLaunchKernelGGL(overloaded_kernel, 1, W, 0, 0, out_f);

    assert_int_equal(counters_of("scaled_kernel<3, 2>").launches, 1);
    assert_int_equal(counters_of("scaled_kernel<4, 1>").blocks, 2);
    assert_int_equal(counters_of("pointed_kernel").global_store_requests, 1);
    assert_int_equal(counters_of("overloaded_kernel(int*)").launches, 1);
    assert_int_equal(counters_of("overloaded_kernel(float*)").launches, 2);
    hipcpu_kernel_counters c;
    for (const char *text : {"(scaled_kernel<kScale, kOffset>)", "HIP_KERNEL_NAME(scaled_kernel<4, 1>)", "chosen", "overloaded_kernel"})
        assert_false(hipcpu_trace_counters(text, &c));
    HIP_OK(hipFree(out));
    HIP_OK(hipFree(out_f));
}

/* The executor's messages name a template kernel as its rows do. */
template <int WRITERS> __global__ void template_race_kernel(int *flag) {
    if (threadIdx.x < WRITERS) flag[0] = int(threadIdx.x);
}

static bool run_template_race() {
    hipLaunchKernelGGL((template_race_kernel<2>), 1, W, 0, 0, named_alloc<int>(1, "race_flag"));
    return true;
}

static void test_kernel_names_in_messages(void **) {
    expect_abort(run_template_race, {"kernel 'template_race_kernel<2>' block (0,0,0)", "race on device buffer 'race_flag'"});
}

int main(void) {
    trace_every_launch();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lds_bank_cycles),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_barriers_and_shuffles),
        cmocka_unit_test(test_launch_geometry),
        cmocka_unit_test(test_kernel_names),
        cmocka_unit_test(test_kernel_names_in_messages),
    };
    return cmocka_run_group_tests_name("trace block (wave " STRINGIFY(HIPCPU_WAVE_SIZE) ")", tests, nullptr, nullptr);
}
