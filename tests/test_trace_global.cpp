/* Tests of the CPU executor's trace build (common/tracer/trace*.cpp) on
 * global memory: the counters of HIPCPU_PROFILE (requests, bytes, 64-byte
 * segments, 32-byte sectors, 16-byte accesses, unique bytes, distinct
 * segments per block and barrier phase, uniform loads, the loads that reach
 * DRAM, the re-reads beyond a distance and the same block's re-reads within
 * one) against answers worked out by hand.
 *
 * Build: make HIP_PLATFORM=cpu TRACE=1 build/trace/tests/test_trace_global (and
 * WAVE=32 for build/trace-wave32/tests/test_trace_global): the Makefile's trace
 * build flags (INSTRUMENT), the ones the chapters get. Run from the
 * repository root with CMOCKA_MESSAGE_OUTPUT=TAP for TAP output.
 *
 * The expected counts are formulas of warpSize, so both wave sizes pass.
 * Every kernel that runs in this process must be race-free and read only
 * shared memory its block wrote: the race check is on for the whole run
 * (main sets it before the first launch). */
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

/* ---- Global memory: requests, bytes, segments, sectors -------------------- */

/* Every kernel stores what it loads, so that the load is not optimised away.
 * The loads are the point; stores are checked where stated. */

__global__ void consecutive_kernel(float *out, const float *in) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 2.0f;
}

__global__ void stride2_kernel(float *out, const float *in) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[2 * i];
}

__global__ void stride785_kernel(float *out, const float *in) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[785 * i];
}

__global__ void same_address_kernel(float *out, const float *in) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[0] + float(i);
}

__global__ void bytes_kernel(uint8_t *out, const uint8_t *in) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = uint8_t(in[i] + 1);
}

static void test_consecutive_floats(void **) {
    hipcpu_trace_reset();
    const unsigned waves = 2, n = waves * W;
    std::vector<float> host(n);
    for (unsigned i = 0; i < n; i++) host[i] = float(i);
    float *in = upload(host), *out = device_alloc<float>(n);
    hipLaunchKernelGGL(consecutive_kernel, waves, W, 0, 0, out, in);
    HIP_OK(hipGetLastError());
    const std::vector<float> result = download(out, n);
    for (unsigned i = 0; i < n; i++) assert_true(result[i] == 2.0f * float(i));

    const hipcpu_kernel_counters c = counters_of("consecutive_kernel");
    /* One load instruction per wave: 2 waves, 2 requests. */
    assert_int_equal(c.global_load_requests, waves);
    /* warpSize lanes x 4 bytes per wave. */
    assert_int_equal(c.global_load_bytes, waves * W * 4);
    /* A wave reads warpSize*4 contiguous bytes (128 or 256) from a 256-byte
     * aligned buffer, wave w at offset w*warpSize*4 (a multiple of 64):
     * warpSize*4/64 segments and warpSize*4/32 sectors per wave. */
    assert_int_equal(c.global_load_segments, waves * (W * 4 / 64));
    assert_int_equal(c.global_load_sectors, waves * (W * 4 / 32));
    /* The stores out[i] have the same shape. */
    assert_int_equal(c.global_store_requests, waves);
    assert_int_equal(c.global_store_bytes, waves * W * 4);
    assert_int_equal(c.global_store_segments, waves * (W * 4 / 64));
    assert_int_equal(c.global_store_sectors, waves * (W * 4 / 32));
    /* Unique bytes: the whole of in (n*4) and of out (n*4). */
    assert_int_equal(c.unique_bytes, 2 * n * 4);
    assert_int_equal(c.lds_read_requests + c.lds_write_requests, 0);
    HIP_OK(hipFree(in));
    HIP_OK(hipFree(out));
}

static void test_stride_two(void **) {
    hipcpu_trace_reset();
    std::vector<float> host(2 * W);
    for (unsigned i = 0; i < 2 * W; i++) host[i] = float(i);
    float *in = upload(host), *out = device_alloc<float>(W);
    hipLaunchKernelGGL(stride2_kernel, 1, W, 0, 0, out, in);
    HIP_OK(hipGetLastError());
    const std::vector<float> result = download(out, W);
    for (unsigned i = 0; i < W; i++) assert_true(result[i] == float(2 * i));

    const hipcpu_kernel_counters c = counters_of("stride2_kernel");
    /* One wave, one load: 1 request of warpSize*4 bytes. */
    assert_int_equal(c.global_load_requests, 1);
    assert_int_equal(c.global_load_bytes, W * 4);
    /* Lane i reads bytes 8i..8i+3: the wave spans warpSize*8 bytes from the
     * aligned base, touching every 64-byte segment and 32-byte sector of
     * them: warpSize*8/64 segments, warpSize*8/32 sectors. */
    assert_int_equal(c.global_load_segments, W * 8 / 64);
    assert_int_equal(c.global_load_sectors, W * 8 / 32);
    HIP_OK(hipFree(in));
    HIP_OK(hipFree(out));
}

static void test_stride_785(void **) {
    hipcpu_trace_reset();
    const size_t count = 785 * size_t(W - 1) + 1;
    std::vector<float> host(count);
    for (size_t i = 0; i < count; i++) host[i] = float(i % 1000);
    float *in = upload(host), *out = device_alloc<float>(W);
    hipLaunchKernelGGL(stride785_kernel, 1, W, 0, 0, out, in);
    HIP_OK(hipGetLastError());
    const std::vector<float> result = download(out, W);
    for (unsigned i = 0; i < W; i++) assert_true(result[i] == float((785 * i) % 1000));

    const hipcpu_kernel_counters c = counters_of("stride785_kernel");
    assert_int_equal(c.global_load_requests, 1);
    assert_int_equal(c.global_load_bytes, W * 4);
    /* Lanes are 785*4 = 3140 bytes apart (more than 64), and a 4-byte
     * aligned float never straddles a segment: one segment and one sector
     * per lane, warpSize of each. */
    assert_int_equal(c.global_load_segments, W);
    assert_int_equal(c.global_load_sectors, W);
    HIP_OK(hipFree(in));
    HIP_OK(hipFree(out));
}

static void test_same_address(void **) {
    hipcpu_trace_reset();
    float *in = upload(std::vector<float>(1, 5.0f)), *out = device_alloc<float>(W);
    hipLaunchKernelGGL(same_address_kernel, 1, W, 0, 0, out, in);
    HIP_OK(hipGetLastError());
    const std::vector<float> result = download(out, W);
    for (unsigned i = 0; i < W; i++) assert_true(result[i] == 5.0f + float(i));

    const hipcpu_kernel_counters c = counters_of("same_address_kernel");
    /* Every lane reads in[0]: 1 request, warpSize*4 bytes asked for, all in
     * one segment and one sector. */
    assert_int_equal(c.global_load_requests, 1);
    assert_int_equal(c.global_load_bytes, W * 4);
    assert_int_equal(c.global_load_segments, 1);
    assert_int_equal(c.global_load_sectors, 1);
    /* Unique bytes: in's 4 bytes and out's warpSize*4. */
    assert_int_equal(c.unique_bytes, 4 + W * 4);
    HIP_OK(hipFree(in));
    HIP_OK(hipFree(out));
}

static void test_consecutive_bytes(void **) {
    hipcpu_trace_reset();
    std::vector<uint8_t> host(W);
    for (unsigned i = 0; i < W; i++) host[i] = uint8_t(i);
    uint8_t *in = upload(host), *out = device_alloc<uint8_t>(W);
    hipLaunchKernelGGL(bytes_kernel, 1, W, 0, 0, out, in);
    HIP_OK(hipGetLastError());
    const std::vector<uint8_t> result = download(out, W);
    for (unsigned i = 0; i < W; i++) assert_int_equal(result[i], uint8_t(i + 1));

    const hipcpu_kernel_counters c = counters_of("bytes_kernel");
    /* Lane i reads byte i: 1 request of warpSize bytes, which fit in one
     * 64-byte segment (ceil(warpSize/64) = 1 at wave 32 and 64) and in
     * warpSize/32 sectors (1 at wave 32, 2 at wave 64). */
    assert_int_equal(c.global_load_requests, 1);
    assert_int_equal(c.global_load_bytes, W);
    assert_int_equal(c.global_load_segments, (W + 63) / 64);
    assert_int_equal(c.global_load_sectors, W / 32);
    /* The byte stores: the same shape. */
    assert_int_equal(c.global_store_requests, 1);
    assert_int_equal(c.global_store_bytes, W);
    assert_int_equal(c.global_store_segments, (W + 63) / 64);
    assert_int_equal(c.global_store_sectors, W / 32);
    HIP_OK(hipFree(in));
    HIP_OK(hipFree(out));
}

/* ---- 16-byte accesses ------------------------------------------------------ */

struct alignas(16) Quad {
    uint32_t a, b, c, d;
};

__global__ void quad_load_kernel(uint32_t *out, const Quad *in) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    const Quad v = in[i];
    out[i] = v.a + v.b + v.c + v.d;
}

__global__ void quad_store_kernel(Quad *out) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    Quad v;
    v.a = i;
    v.b = i + 1;
    v.c = i + 2;
    v.d = i + 3;
    out[i] = v;
}

static void test_sixteen_byte_accesses(void **) {
    hipcpu_trace_reset();
    std::vector<Quad> host(W);
    for (unsigned i = 0; i < W; i++) host[i] = Quad{i, 10 * i, 100 * i, 1000 * i};
    Quad *in = upload(host);
    uint32_t *sums = device_alloc<uint32_t>(W);
    hipLaunchKernelGGL(quad_load_kernel, 1, W, 0, 0, sums, in);
    HIP_OK(hipGetLastError());
    const std::vector<uint32_t> result = download(sums, W);
    for (unsigned i = 0; i < W; i++) assert_int_equal(result[i], 1111 * i);

    hipcpu_kernel_counters c = counters_of("quad_load_kernel");
    /* Each lane copies one 16-byte element: its adjacent pieces, from one
     * source line, merge into one 16-byte access, so the wave makes 1 load
     * request of 16*warpSize bytes, contiguous and aligned: 16*warpSize/64
     * segments, 16*warpSize/32 sectors. */
    assert_int_equal(c.global_load_requests, 1);
    assert_int_equal(c.global_load_bytes, 16 * W);
    assert_int_equal(c.global_load_segments, 16 * W / 64);
    assert_int_equal(c.global_load_sectors, 16 * W / 32);
    /* The 4-byte sums: 1 store request of 4*warpSize bytes. */
    assert_int_equal(c.global_store_requests, 1);
    assert_int_equal(c.global_store_bytes, 4 * W);

    Quad *out = device_alloc<Quad>(W);
    hipLaunchKernelGGL(quad_store_kernel, 1, W, 0, 0, out);
    HIP_OK(hipGetLastError());
    const std::vector<Quad> stored = download(out, W);
    for (unsigned i = 0; i < W; i++) {
        assert_int_equal(stored[i].a, i);
        assert_int_equal(stored[i].d, i + 3);
    }
    c = counters_of("quad_store_kernel");
    /* Stores are counted as stores: 1 request of 16*warpSize bytes, no loads. */
    assert_int_equal(c.global_load_requests, 0);
    assert_int_equal(c.global_store_requests, 1);
    assert_int_equal(c.global_store_bytes, 16 * W);
    assert_int_equal(c.global_store_segments, 16 * W / 64);
    assert_int_equal(c.global_store_sectors, 16 * W / 32);
    HIP_OK(hipFree(in));
    HIP_OK(hipFree(sums));
    HIP_OK(hipFree(out));
}

/* ---- Unique bytes ----------------------------------------------------------- */

/* Every lane reads the first 256 floats (1 KiB) of `in` `rounds` times, each
 * lane starting at its own element and stepping 17 elements (odd, so every
 * element once per round; never to the next element, so that no two of a
 * lane's reads merge into a wider access). The result is stored only if
 * negative, which it never is (the inputs are positive): out stays untouched. */
__global__ void reread_kernel(float *out, const float *in, int rounds) {
    float acc = 0.0f;
    for (int r = 0; r < rounds; r++)
        for (unsigned k = 0; k < 256; k++) acc += in[(17 * k + threadIdx.x) % 256];
    if (acc < 0.0f) out[0] = acc;
}

static void test_unique_bytes(void **) {
    hipcpu_trace_reset();
    float *in = upload(std::vector<float>(1024, 1.0f)); /* 4 KiB, of which 1 KiB is read */
    float *out = device_alloc<float>(1);
    const unsigned blocks = 2, threads = 2 * W; /* 4 waves */
    hipLaunchKernelGGL(reread_kernel, blocks, threads, 0, 0, out, in, 3);
    HIP_OK(hipGetLastError());
    hipcpu_kernel_counters c = counters_of("reread_kernel");
    /* 4 waves x 3 rounds x 256 reads = 3072 requests per launch, but only
     * 256 floats = 1024 distinct bytes of device memory are touched. */
    assert_int_equal(c.global_load_requests, blocks * (threads / W) * 3 * 256);
    assert_int_equal(c.unique_bytes, 1024);
    assert_int_equal(c.global_store_requests, 0);

    /* Unique bytes are per launch, summed over launches: 2 x 1024. */
    hipLaunchKernelGGL(reread_kernel, blocks, threads, 0, 0, out, in, 1);
    HIP_OK(hipGetLastError());
    c = counters_of("reread_kernel");
    assert_int_equal(c.launches, 2);
    assert_int_equal(c.unique_bytes, 2 * 1024);
    HIP_OK(hipFree(in));
    HIP_OK(hipFree(out));
}

/* ---- What reaches L2: distinct segments per block and barrier phase --------- */

/* The wave reads its W floats twice (each lane another one the second time,
 * so that the compiler cannot merge the loads), then, after a barrier, twice
 * again, and once the float every lane reads (in[0]: a scalar load's shape). */
__global__ void phase_kernel(float *out, const float *in) {
    const unsigned t = threadIdx.x, w = warpSize;
    float acc = in[t];
    acc += in[(t + 1) % w] * 2.0f;
    __syncthreads();
    acc += in[(t + 2) % w] * 3.0f;
    acc += in[(t + 3) % w] * 4.0f + in[0];
    if (acc < 0.0f) out[0] = acc;
}

static void test_phase_segments_and_uniform_loads(void **) {
    hipcpu_trace_reset();
    float *in = upload(std::vector<float>(W, 1.0f)); /* one wave's floats: W / 16 segments */
    float *out = device_alloc<float>(1);
    const unsigned blocks = 2;
    hipLaunchKernelGGL(phase_kernel, blocks, W, 0, 0, out, in);
    HIP_OK(hipGetLastError());
    const hipcpu_kernel_counters c = counters_of("phase_kernel");
    /* 5 requests per wave; 4 of them touch W / 16 segments, in[0] one. */
    assert_int_equal(c.global_load_requests, blocks * 5);
    assert_int_equal(c.global_load_segments, blocks * (4 * (W / 16) + 1));
    /* Between two barriers a block's re-reads stay in L1: each phase loads
     * its W / 16 segments once (in[0] is one of them), 2 phases per block. */
    assert_int_equal(c.global_load_phase_segments, blocks * 2 * (W / 16));
    assert_int_equal(c.global_load_phase_sectors, blocks * 2 * (W / 8));
    /* in[0] read by every lane: one uniform request per wave. */
    assert_int_equal(c.uniform_load_requests, blocks * 1);
    /* Its scalar working set: 1 segment per block, the same one in the launch. */
    assert_int_equal(c.uniform_blocks, blocks);
    assert_int_equal(c.uniform_block_segments, blocks * 1);
    assert_int_equal(c.uniform_launch_segments, 1);
    /* DRAM: block 0's first load brings its segments in; block 1 runs at the
     * same time (one round of 60 CUs) and makes the same request at the same
     * point, so it waits on the same trip (a convoy). Every other load is a
     * re-read, later in the wave or after the barrier: in L2. */
    assert_int_equal(c.global_load_dram_requests, blocks * 1);
    HIP_OK(hipFree(in));
    HIP_OK(hipFree(out));
}

/* One wave streams `count` floats, a wave's row at a time, then reads its
 * first row again: that re-read comes after count * 4 bytes of other data. */
__global__ void stream_then_reread(float *out, const float *big, unsigned count) {
    const unsigned t = threadIdx.x;
    float acc = 0.0f;
    for (unsigned j = t; j < count; j += warpSize) acc += big[j];
    acc += big[t];
    out[t] = acc;
}

static void test_rereads_beyond_a_distance(void **) {
    hipcpu_trace_reset();
    const unsigned count = 3u << 18; /* 3 MiB of floats */
    float *big = upload(std::vector<float>(count, 1.0f));
    float *out = device_alloc<float>(W);
    hipLaunchKernelGGL(stream_then_reread, 1, W, 0, 0, out, big, count);
    HIP_OK(hipGetLastError());
    const hipcpu_kernel_counters c = counters_of("stream_then_reread");
    /* Every row's first load reaches DRAM; the first row's re-read comes
     * after 3 MiB less one row of other data: beyond 256 KiB and 1 MiB, not
     * 4 MiB. Its W / 16 segments. */
    assert_int_equal(c.global_load_dram_requests, count / W);
    assert_int_equal(c.load_segments_beyond_256k, W / 16);
    assert_int_equal(c.load_segments_beyond_1m, W / 16);
    assert_int_equal(c.load_segments_beyond_4m, 0);
    HIP_OK(hipFree(big));
    HIP_OK(hipFree(out));
}

/* ---- What L1 would keep: the same block's re-reads ------------------------- */

/* Each block reads in[0..count) `passes` times, the block's threads over
 * consecutive floats (the pass number as a factor, so that the passes are
 * loads of their own). */
__global__ void block_reread_kernel(float *out, const float *in, unsigned count, unsigned passes) {
    const unsigned t = threadIdx.x;
    float acc = 0.0f;
    for (unsigned p = 0; p < passes; p++)
        for (unsigned j = t; j < count; j += blockDim.x) acc += in[j] * float(p + 1);
    out[blockIdx.x * blockDim.x + t] = acc;
}

/* The counters of block_reread_kernel over `blocks` blocks of `threads`
 * reading `bytes` of floats twice. */
static hipcpu_kernel_counters block_reread(unsigned bytes, unsigned blocks, unsigned threads) {
    hipcpu_trace_reset();
    const unsigned count = bytes / 4;
    float *in = upload(std::vector<float>(count, 1.0f));
    float *out = device_alloc<float>(blocks * threads);
    hipLaunchKernelGGL(block_reread_kernel, blocks, threads, 0, 0, out, in, count, 2);
    HIP_OK(hipGetLastError());
    const std::vector<float> result = download(out, blocks * threads);
    for (unsigned i = 0; i < blocks * threads; i++) assert_true(result[i] == 3.0f * float(count / threads));
    HIP_OK(hipFree(in));
    HIP_OK(hipFree(out));
    const hipcpu_kernel_counters c = counters_of("block_reread_kernel");
    /* Two passes of count / W requests per block, W / 16 segments each. */
    assert_int_equal(c.global_load_requests, blocks * 2 * (count / W));
    assert_int_equal(c.global_load_segments, blocks * 2 * (bytes / 64));
    return c;
}

/* One wave per block: its second pass re-reads each segment after the rest
 * of the first pass and the second's requests before it, `bytes` less the
 * W * 4 bytes of the request itself. Each block's first pass is a first
 * touch by that block, although the block before loaded the same segments. */
static void test_block_rereads_one_wave(void **) {
    const unsigned blocks = 2;
    struct {
        unsigned bytes;
        unsigned within; /* the buckets the distance bytes - W * 4 is in: 2k, 8k, 32k, 128k from the last */
    } cases[] = {{1u << 10, 4}, {4u << 10, 3}, {16u << 10, 2}, {64u << 10, 1}, {256u << 10, 0}};
    for (const auto &k : cases) {
        const hipcpu_kernel_counters c = block_reread(k.bytes, blocks, W);
        const uint64_t reread = blocks * (k.bytes / 64); /* the second pass's segments */
        const uint64_t counted[4] = {c.load_segments_block_within_2k, c.load_segments_block_within_8k,
                                     c.load_segments_block_within_32k, c.load_segments_block_within_128k};
        for (unsigned b = 0; b < 4; b++) {
            if (counted[b] != (b >= 4 - k.within ? reread : 0))
                print_error("%u bytes read twice: within bucket %u counted %lu\n", k.bytes, b, (unsigned long)counted[b]);
            assert_int_equal(counted[b], b >= 4 - k.within ? reread : 0);
        }
    }
}

/* 1 KiB read twice by a block of 256 threads (4 waves at wave 64, 8 at 32):
 * in whatever order its waves go, the block loads 2 KiB in all, so every
 * segment of its second pass comes back within 2 KiB (16 a block), and none
 * of its first. */
static void test_block_rereads_many_waves(void **) {
    const unsigned blocks = 3;
    const hipcpu_kernel_counters c = block_reread(1024, blocks, 256);
    assert_int_equal(c.load_segments_block_within_2k, blocks * 16);
    assert_int_equal(c.load_segments_block_within_8k, blocks * 16);
    assert_int_equal(c.load_segments_block_within_32k, blocks * 16);
    assert_int_equal(c.load_segments_block_within_128k, blocks * 16);
}

int main(void) {
    trace_every_launch();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_consecutive_floats),
        cmocka_unit_test(test_stride_two),
        cmocka_unit_test(test_stride_785),
        cmocka_unit_test(test_same_address),
        cmocka_unit_test(test_consecutive_bytes),
        cmocka_unit_test(test_sixteen_byte_accesses),
        cmocka_unit_test(test_unique_bytes),
        cmocka_unit_test(test_phase_segments_and_uniform_loads),
        cmocka_unit_test(test_rereads_beyond_a_distance),
        cmocka_unit_test(test_block_rereads_one_wave),
        cmocka_unit_test(test_block_rereads_many_waves),
    };
    return cmocka_run_group_tests_name("trace global memory (wave " STRINGIFY(HIPCPU_WAVE_SIZE) ")", tests, nullptr, nullptr);
}
