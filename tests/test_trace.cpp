/* Tests of the CPU executor's trace build (common/cpu/trace/trace*.cpp): the
 * counters of HIPCPU_PROFILE (global requests, bytes, 64-byte segments,
 * 32-byte sectors, distinct segments per block and barrier phase, uniform
 * loads, unique bytes, LDS requests and bank cycles, barriers,
 * shuffles, atomics, launch geometry) against answers worked out by hand,
 * and the checks of HIPCPU_RACECHECK=1 (races within a block, races between
 * blocks, plain accesses against atomics in both, uninitialised __shared__
 * reads) with their positive controls, and the names launches are counted
 * under (a template kernel with its arguments, overloads apart).
 *
 * Build: make HIP_PLATFORM=cpu TRACE=1 build/trace/tests/test_trace (and
 * WAVE=32 for build/trace-wave32/tests/test_trace): the Makefile's trace
 * build flags (INSTRUMENT), the ones the chapters get.
 * Run from the repository root with CMOCKA_MESSAGE_OUTPUT=TAP for TAP output.
 *
 * The expected counts are formulas of warpSize, so both wave sizes pass.
 * Every kernel that runs in this process must be race-free and read only
 * shared memory its block wrote: the race check is on for the whole run
 * (main sets it before the first launch). Abort cases and the positive
 * controls of the checks run in a forked child. */
#include <math.h>
#include <stdint.h>
#include <hip/hip_runtime.h>

#include "trace/trace.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
extern "C" { /* cmocka 1.1.5's header has no C++ guard */
#include <cmocka.h>
}

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "executor_helpers.h"

/* The wave size as an unsigned number, for the formulas below. */
static const unsigned W = unsigned(warpSize);

/* ---- Helpers ------------------------------------------------------------ */

/* A device buffer with a name for the race check's messages. */
template <typename T> static T *named_alloc(size_t count, const char *name) {
    T *p = device_alloc<T>(count);
    hipcpu_name_allocation(p, name);
    return p;
}

/* The counters of `kernel` since the last hipcpu_trace_reset. */
static hipcpu_kernel_counters counters_of(const char *kernel) {
    hipcpu_kernel_counters c;
    memset(&c, 0, sizeof c);
    if (!hipcpu_trace_counters(kernel, &c)) print_error("no counters for kernel '%s'\n", kernel);
    assert_true(hipcpu_trace_counters(kernel, &c));
    return c;
}

static unsigned log2_of(unsigned n) {
    unsigned k = 0;
    while ((1u << k) < n) k++;
    return k;
}

/* A call site as the race check names it: "tests/test_trace.cpp:LINE" when
 * run from the repository root, with the directory in front otherwise (the
 * '*' of a pattern, below). */
static std::string site(int line) { return "*tests/test_trace.cpp:" + std::to_string(line); }

/* Whether text contains pattern, in which '*' stands for any run of
 * characters other than spaces and newlines (a path's directory). */
static bool contains(const std::string &text, const std::string &pattern) {
    std::vector<std::string> pieces(1);
    for (char ch : pattern) {
        if (ch == '*')
            pieces.emplace_back();
        else
            pieces.back() += ch;
    }
    for (size_t start = text.find(pieces[0]); start != std::string::npos; start = text.find(pieces[0], start + 1)) {
        size_t at = start + pieces[0].size();
        bool matched = true;
        for (size_t i = 1; i < pieces.size() && matched; i++) {
            const size_t next = text.find(pieces[i], at);
            matched = next != std::string::npos && text.find_first_of(" \n", at) >= next;
            if (matched) at = next + pieces[i].size();
        }
        if (matched) return true;
    }
    return false;
}

/* fn must abort with exit status 1 and a message that starts with "hipcpu: "
 * and contains every pattern of `expected` (see contains). */
static void expect_abort(bool (*fn)(void), const std::vector<std::string> &expected) {
    std::string text;
    const int status = run_in_child(fn, &text);
    bool found = true;
    for (const std::string &e : expected) found = found && contains(text, e);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 1 || text.compare(0, 8, "hipcpu: ") != 0 || !found) {
        print_error("child status %d, stderr:\n%s\nexpected to contain:\n", status, text.c_str());
        for (const std::string &e : expected) print_error("  %s\n", e.c_str());
    }
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);
    assert_int_equal(text.compare(0, 8, "hipcpu: "), 0);
    assert_true(found);
}

/* fn must run to its end, with the right answer and nothing on stderr. */
static void expect_clean(bool (*fn)(void)) {
    std::string text;
    const int status = run_in_child(fn, &text);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !text.empty())
        print_error("child status %d, stderr:\n%s\n", status, text.c_str());
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_true(text.empty());
}

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

/* ---- Race check: within a block ------------------------------------------------ */

/* Every thread fills its slot, then, in one barrier phase, thread 0 reads
 * thread 1's slot (other = 1) while thread 1 writes it. The index is a
 * parameter so that clang cannot prove the read in bounds: with a constant
 * index it loads the slot in every thread, before the write, and keeps only
 * thread 0's value (the load then has no source line). Keep the two line
 * constants below in step with the lines of the read and the write. */
__global__ void shared_race_kernel(int *out, unsigned other) {
    __shared__ int race_slots[64];
    const unsigned t = threadIdx.x;
    race_slots[t] = int(t);
    __syncthreads();
    int v = 0;
    if (t == 0) v = race_slots[other];
    if (t == 1) race_slots[other] = 7;
    out[t] = v;
}
static const int kSharedRaceRead = __LINE__ - 4, kSharedRaceWrite = __LINE__ - 3;

static bool run_shared_race() {
    int *out = named_alloc<int>(W, "race_out");
    hipLaunchKernelGGL(shared_race_kernel, 1, W, 0, 0, out, 1u);
    return true;
}

/* Two threads of a block store to one global int. */
__global__ void global_race_kernel(int *flag) {
    if (threadIdx.x < 2) flag[0] = int(threadIdx.x);
}
static const int kGlobalRaceStore = __LINE__ - 2;

static bool run_global_race() {
    int *flag = named_alloc<int>(1, "race_flag");
    hipLaunchKernelGGL(global_race_kernel, 1, W, 0, 0, flag);
    return true;
}

static void test_race_within_block(void **) {
    /* Thread 0 ran first (lanes run in order) and read race_slots[1], bytes
     * 4..7; thread 1's store to it is the race. */
    expect_abort(run_shared_race, {"kernel 'shared_race_kernel' block (0,0,0)", "race on __shared__ race_slots",
                                   "byte 4", "thread (0,0,0) read it at " + site(kSharedRaceRead),
                                   "thread (1,0,0) wrote it at " + site(kSharedRaceWrite),
                                   "with no __syncthreads between"});
    expect_abort(run_global_race, {"kernel 'global_race_kernel' block (0,0,0)",
                                   "race on device buffer 'race_flag' (byte 0 of 4)",
                                   "thread (0,0,0) wrote it at " + site(kGlobalRaceStore),
                                   "thread (1,0,0) wrote it at " + site(kGlobalRaceStore)});
}

/* ---- Race check: plain accesses against atomics within a block ------------------ */

/* One barrier phase: thread 0 adds to counter[0] atomically and thread 1
 * reads it; with `sync`, a __syncthreads between orders them: no race. Keep
 * the line constants below each kernel in step with its lines. */
__global__ void atomic_read_kernel(int *counter, int *out, int sync) {
    const unsigned t = threadIdx.x;
    if (t == 0) atomicAdd(counter, 1);
    if (sync) __syncthreads();
    if (t == 1) out[0] = counter[0];
}
static const int kAtomicReadAtomic = __LINE__ - 4, kAtomicReadRead = __LINE__ - 2;

/* The other way round: thread 0 reads counter[0], thread 1 adds to it. */
__global__ void read_atomic_kernel(int *counter, int *out) {
    const unsigned t = threadIdx.x;
    if (t == 0) out[0] = counter[0];
    if (t == 1) atomicAdd(counter, 1);
}
static const int kReadAtomicRead = __LINE__ - 3, kReadAtomicAtomic = __LINE__ - 2;

/* Thread 0 adds to counter[0] atomically, thread 1 stores it. */
__global__ void atomic_store_kernel(int *counter) {
    const unsigned t = threadIdx.x;
    if (t == 0) atomicAdd(counter, 1);
    if (t == 1) counter[0] = 5;
}
static const int kAtomicStoreAtomic = __LINE__ - 3, kAtomicStoreStore = __LINE__ - 2;

static int *zeroed_counter(const char *name) {
    int *counter = named_alloc<int>(1, name);
    HIP_OK(hipMemset(counter, 0, sizeof(int)));
    return counter;
}

static bool run_atomic_read(int sync) {
    int *counter = zeroed_counter("mix_counter"), *out = named_alloc<int>(1, "mix_out");
    hipLaunchKernelGGL(atomic_read_kernel, 1, W, 0, 0, counter, out, sync);
    return hipGetLastError() == hipSuccess && download(out, 1)[0] == 1;
}
static bool run_atomic_then_read() { return run_atomic_read(0); }
static bool run_atomic_barrier_read() { return run_atomic_read(1); }

static bool run_read_then_atomic() {
    int *counter = zeroed_counter("mix_counter"), *out = named_alloc<int>(1, "mix_out");
    hipLaunchKernelGGL(read_atomic_kernel, 1, W, 0, 0, counter, out);
    return true;
}

static bool run_atomic_then_store() {
    hipLaunchKernelGGL(atomic_store_kernel, 1, W, 0, 0, zeroed_counter("mix_counter"));
    return true;
}

static void test_atomic_race_within_block(void **) {
    /* Lanes run in order: thread 0's access is first, thread 1's the race. */
    expect_abort(run_atomic_then_read,
                 {"kernel 'atomic_read_kernel' block (0,0,0)", "race on device buffer 'mix_counter' (byte 0 of 4)",
                  "thread (0,0,0) updated it atomically at " + site(kAtomicReadAtomic),
                  "thread (1,0,0) read it at " + site(kAtomicReadRead), "with no __syncthreads between"});
    expect_abort(run_read_then_atomic,
                 {"kernel 'read_atomic_kernel' block (0,0,0)", "race on device buffer 'mix_counter' (byte 0 of 4)",
                  "thread (0,0,0) read it at " + site(kReadAtomicRead),
                  "thread (1,0,0) updated it atomically at " + site(kReadAtomicAtomic)});
    /* Caught before too, but the atomic was named a read. */
    expect_abort(run_atomic_then_store,
                 {"kernel 'atomic_store_kernel' block (0,0,0)", "race on device buffer 'mix_counter' (byte 0 of 4)",
                  "thread (0,0,0) updated it atomically at " + site(kAtomicStoreAtomic),
                  "thread (1,0,0) wrote it at " + site(kAtomicStoreStore)});
    expect_clean(run_atomic_barrier_read);
}

/* ---- Race check: between blocks ---------------------------------------------- */

/* Block 0 stores cell[0]; block 1 then reads it (mode 0) or stores it
 * (mode 1). Blocks of one launch are not ordered, so either is a race. */
__global__ void block_race_kernel(int *cell, int *out, int mode) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        cell[0] = 1;
    } else if (mode == 0) {
        out[blockIdx.x] = cell[0];
    } else {
        cell[0] = 2;
    }
}
static const int kBlockRaceStore0 = __LINE__ - 7, kBlockRaceRead = __LINE__ - 5, kBlockRaceStore1 = __LINE__ - 3;

static bool run_block_race(int mode) {
    int *cell = named_alloc<int>(1, "block_cell");
    int *out = named_alloc<int>(2, "block_out");
    hipLaunchKernelGGL(block_race_kernel, 2, W, 0, 0, cell, out, mode);
    return true;
}
static bool run_block_race_read() { return run_block_race(0); }
static bool run_block_race_store() { return run_block_race(1); }

/* The positive control: 8 blocks add to one address atomically, and each
 * stores its own element of a second buffer. */
__global__ void block_atomic_kernel(int *total, int *own) {
    atomicAdd(total, 1);
    if (threadIdx.x == 0) own[blockIdx.x] = int(blockIdx.x);
}

static bool run_block_atomics() {
    int *total = named_alloc<int>(1, "atomic_total");
    int *own = named_alloc<int>(8, "own");
    HIP_OK(hipMemset(total, 0, sizeof(int)));
    hipLaunchKernelGGL(block_atomic_kernel, 8, W, 0, 0, total, own);
    return hipGetLastError() == hipSuccess && download(total, 1)[0] == int(8 * W) && download(own, 8)[7] == 7;
}

/* Block 0 zeroes counter[0] (mode 0) or reads it (mode 1) while every
 * other block adds to it atomically, all in one launch. Keep the line
 * constants below in step with the kernel's lines. */
__global__ void block_atomic_mix_kernel(int *counter, int *out, int mode) {
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0 && mode == 0) counter[0] = 0;
        if (threadIdx.x == 0 && mode == 1) out[0] = counter[0];
    } else {
        atomicAdd(counter, 1);
    }
}
static const int kBlockMixStore = __LINE__ - 6, kBlockMixRead = __LINE__ - 5, kBlockMixAtomic = __LINE__ - 3;

static bool run_block_atomic_mix(int mode) {
    int *counter = named_alloc<int>(1, "block_counter");
    int *out = named_alloc<int>(1, "block_mix_out");
    HIP_OK(hipMemset(counter, 0, sizeof(int)));
    hipLaunchKernelGGL(block_atomic_mix_kernel, 4, W, 0, 0, counter, out, mode);
    return true;
}
static bool run_block_store_against_atomics() { return run_block_atomic_mix(0); }
static bool run_block_read_against_atomics() { return run_block_atomic_mix(1); }

/* Atomics against atomics, the patterns the chapters use: in one phase every
 * thread of every block updates one global word (add, max, CAS) and one
 * shared word, which thread 0 zeroed before a barrier; after a barrier,
 * thread 0 reads the shared word and adds it to a global total. */
__global__ void atomics_only_kernel(int *word, int *total) {
    __shared__ int block_count;
    const unsigned t = threadIdx.x;
    if (t == 0) block_count = 0;
    __syncthreads();
    atomicAdd(word, 1);
    atomicMax(word + 1, int(blockIdx.x * blockDim.x + t));
    atomicCAS(word + 2, 0, 1);
    atomicAdd(&block_count, 1);
    __syncthreads();
    if (t == 0) atomicAdd(total, block_count);
}

static bool run_atomics_only() {
    const unsigned blocks = 8;
    int *word = named_alloc<int>(3, "atomic_words");
    int *total = named_alloc<int>(1, "atomic_block_total");
    HIP_OK(hipMemset(word, 0, 3 * sizeof(int)));
    HIP_OK(hipMemset(total, 0, sizeof(int)));
    hipLaunchKernelGGL(atomics_only_kernel, blocks, W, 0, 0, word, total);
    if (hipGetLastError() != hipSuccess) return false;
    const std::vector<int> w = download(word, 3);
    return w[0] == int(blocks * W) && w[1] == int(blocks * W - 1) && w[2] == 1 &&
           download(total, 1)[0] == int(blocks * W);
}

static void test_atomic_race_between_blocks(void **) {
    /* Block 0 runs first; block 1's first atomic is the race. */
    expect_abort(run_block_store_against_atomics,
                 {"kernel 'block_atomic_mix_kernel' block (1,0,0)",
                  "race between blocks on device buffer 'block_counter' (byte 0 of 4)",
                  "block (0,0,0) thread (0,0,0) wrote it at " + site(kBlockMixStore),
                  "thread (0,0,0) of this block updated it atomically at " + site(kBlockMixAtomic)});
    expect_abort(run_block_read_against_atomics,
                 {"kernel 'block_atomic_mix_kernel' block (1,0,0)",
                  "race between blocks on device buffer 'block_counter' (byte 0 of 4)",
                  "block (0,0,0) thread (0,0,0) read it at " + site(kBlockMixRead),
                  "thread (0,0,0) of this block updated it atomically at " + site(kBlockMixAtomic)});
    expect_clean(run_atomics_only);
}

static void test_race_between_blocks(void **) {
    expect_abort(run_block_race_read,
                 {"kernel 'block_race_kernel' block (1,0,0)", "race between blocks on device buffer 'block_cell'",
                  "(byte 0 of 4)", "block (0,0,0) thread (0,0,0) wrote it at " + site(kBlockRaceStore0),
                  "thread (0,0,0) of this block read it at " + site(kBlockRaceRead)});
    expect_abort(run_block_race_store,
                 {"kernel 'block_race_kernel' block (1,0,0)", "race between blocks on device buffer 'block_cell'",
                  "block (0,0,0) thread (0,0,0) wrote it at " + site(kBlockRaceStore0),
                  "thread (0,0,0) of this block wrote it at " + site(kBlockRaceStore1)});
    expect_clean(run_block_atomics);
}

/* ---- Uninitialised shared-memory reads -------------------------------------------- */

/* Thread t reads element t+1 of uninit_tile; only with write_first does
 * every thread write its own element (and wait at a barrier) first. */
__global__ void uninit_kernel(float *out, int write_first) {
    __shared__ float uninit_tile[256];
    const unsigned t = threadIdx.x;
    if (write_first) {
        uninit_tile[t] = float(t);
        __syncthreads();
    }
    out[t] = uninit_tile[(t + 1) % blockDim.x];
}
static const int kUninitRead = __LINE__ - 2;

static bool run_uninit(int write_first) {
    float *out = named_alloc<float>(W, "uninit_out");
    hipLaunchKernelGGL(uninit_kernel, 1, W, 0, 0, out, write_first);
    if (hipGetLastError() != hipSuccess) return false;
    const std::vector<float> result = download(out, W);
    for (unsigned t = 0; t < W; t++)
        if (result[t] != float((t + 1) % W)) return false;
    return true;
}
static bool run_uninit_read() { return run_uninit(0); }
static bool run_uninit_written() { return run_uninit(1); }

/* Block 0 fills the tile; every block then reads it. Shared memory is per
 * block: what block 0 wrote is garbage to block 1. */
__global__ void other_block_kernel(float *out) {
    __shared__ float other_tile[256];
    const unsigned t = threadIdx.x;
    if (blockIdx.x == 0) other_tile[t] = float(t);
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = other_tile[t];
}

static bool run_other_block() {
    float *out = named_alloc<float>(2 * W, "other_out");
    hipLaunchKernelGGL(other_block_kernel, 2, W, 0, 0, out);
    return true;
}

static void test_uninitialised_read(void **) {
    /* Thread 0 runs first and reads element 1 (bytes 4..7): nobody wrote it. */
    expect_abort(run_uninit_read, {"kernel 'uninit_kernel' block (0,0,0)", "uninitialised read of __shared__ uninit_tile",
                                   "byte 4", "thread (0,0,0) read it at " + site(kUninitRead),
                                   "no thread of this block has written it"});
    expect_clean(run_uninit_written);
    /* Block 0 is clean; block 1 reads element 0 written only by block 0. */
    expect_abort(run_other_block, {"kernel 'other_block_kernel' block (1,0,0)",
                                   "uninitialised read of __shared__ other_tile", "byte 0", "thread (0,0,0) read it"});
}

/* ---- Race check: parts of a word, and the blocks behind a stamp ------------------ */

/* The check keeps a record per 4-byte word until an access covers only part
 * of one, which splits it into a record per byte. In one phase, threads 0-7
 * store their own byte of `bytes` (8 bytes, two words: no race), then:
 * mode 1, thread 9 loads word 0 (it races with thread 0's byte 0); mode 2,
 * thread 9 loads 4 bytes from byte 2 (words 0 and 1 in part: thread 2's byte
 * 2). Mode 3: thread 0 loads word 1 whole, before any store, then thread 4
 * stores its byte, 4, which splits the word: each byte's record starts as a
 * copy of the word's, so the race is on byte 4, with thread 0's read. After
 * a barrier thread 0 reads both words: no race. */
__global__ void byte_race_kernel(uint8_t *bytes, unsigned *out, int mode) {
    const unsigned t = threadIdx.x;
    unsigned v = 0;
    if (mode == 3 && t == 0) v = reinterpret_cast<const unsigned *>(bytes)[1];
    if (t < 8) bytes[t] = uint8_t(t);
    if (mode == 1 && t == 9) v = reinterpret_cast<const unsigned *>(bytes)[0];
    if (mode == 2 && t == 9) __builtin_memcpy(&v, bytes + 2, 4);
    __syncthreads();
    if (t == 0) v += reinterpret_cast<const unsigned *>(bytes)[0] + reinterpret_cast<const unsigned *>(bytes)[1];
    out[t] = v;
}
static const int kByteWholeRead = __LINE__ - 8, kByteStore = __LINE__ - 7, kByteWordRead = __LINE__ - 6,
                 kBytePartRead = __LINE__ - 6;

static bool run_byte_race(int mode) {
    uint8_t *bytes = named_alloc<uint8_t>(8, "byte_cells");
    unsigned *out = named_alloc<unsigned>(W, "byte_out");
    hipLaunchKernelGGL(byte_race_kernel, 1, W, 0, 0, bytes, out, mode);
    if (hipGetLastError() != hipSuccess) return false;
    return download(out, 1)[0] == 0x03020100u + 0x07060504u;
}
static bool run_bytes_clean() { return run_byte_race(0); }
static bool run_byte_then_word() { return run_byte_race(1); }
static bool run_byte_then_straddle() { return run_byte_race(2); }
static bool run_word_then_byte() { return run_byte_race(3); }

/* Blocks b = 0..3 each store byte b of one word: different bytes, no race;
 * with `clash`, block 2 stores byte 1 too, which block 1 stored. */
__global__ void block_bytes_kernel(uint8_t *bytes, int clash) {
    if (threadIdx.x != 0) return;
    bytes[blockIdx.x] = uint8_t(blockIdx.x);
    if (clash && blockIdx.x == 2) bytes[1] = 0;
}
static const int kBlockByteStore = __LINE__ - 3, kBlockByteClash = __LINE__ - 2;

static bool run_block_bytes(int clash) {
    uint8_t *bytes = named_alloc<uint8_t>(4, "block_bytes");
    hipLaunchKernelGGL(block_bytes_kernel, 4, W, 0, 0, bytes, clash);
    return hipGetLastError() == hipSuccess && download(bytes, 4)[3] == 3;
}
static bool run_block_bytes_clean() { return run_block_bytes(0); }
static bool run_block_bytes_clash() { return run_block_bytes(1); }

/* A shared word whose first three bytes thread t < 3 stores, read whole
 * after a barrier: byte 3 was never written. */
__global__ void byte_tile_kernel(unsigned *out) {
    __shared__ unsigned byte_tile[1];
    const unsigned t = threadIdx.x;
    if (t < 3) reinterpret_cast<uint8_t *>(byte_tile)[t] = uint8_t(t);
    __syncthreads();
    out[t] = byte_tile[0];
}

static bool run_byte_tile() {
    hipLaunchKernelGGL(byte_tile_kernel, 1, W, 0, 0, named_alloc<unsigned>(W, "byte_tile_out"));
    return true;
}

/* Blocks of a 2x2 grid pass barriers, so that stamps move on; block (1,0)
 * reads cell[0] and, later, block (1,1) stores it (mode 0): the race must
 * name block (1,0,0). Mode 1: only the store, and a second launch's read,
 * which a launch boundary orders: no race. */
__global__ void late_block_kernel(int *cell, int *out, int mode) {
    const bool first = threadIdx.x == 0;
    __syncthreads();
    __syncthreads();
    if (first && mode != 1 && blockIdx.x == 1 && blockIdx.y == 0) out[0] = cell[0];
    __syncthreads();
    if (first && mode != 2 && blockIdx.x == 1 && blockIdx.y == 1) cell[0] = 3;
}
static const int kLateRead = __LINE__ - 4, kLateStore = __LINE__ - 2;

static bool run_late_block(int mode) {
    int *cell = named_alloc<int>(1, "late_cell"), *out = named_alloc<int>(1, "late_out");
    HIP_OK(hipMemset(cell, 0, sizeof(int)));
    hipLaunchKernelGGL(late_block_kernel, dim3(2, 2), W, 0, 0, cell, out, mode);
    if (mode == 1) hipLaunchKernelGGL(late_block_kernel, dim3(2, 2), W, 0, 0, cell, out, 2);
    return hipGetLastError() == hipSuccess && (mode == 0 || download(out, 1)[0] == 3);
}
static bool run_late_block_race() { return run_late_block(0); }
static bool run_late_block_launches() { return run_late_block(1); }

static void test_race_on_part_of_a_word(void **) {
    expect_clean(run_bytes_clean);
    expect_abort(run_byte_then_word, {"kernel 'byte_race_kernel' block (0,0,0)",
                                      "race on device buffer 'byte_cells' (byte 0 of 8)",
                                      "thread (0,0,0) wrote it at " + site(kByteStore),
                                      "thread (9,0,0) read it at " + site(kByteWordRead)});
    expect_abort(run_byte_then_straddle, {"race on device buffer 'byte_cells' (byte 2 of 8)",
                                          "thread (2,0,0) wrote it at " + site(kByteStore),
                                          "thread (9,0,0) read it at " + site(kBytePartRead)});
    expect_abort(run_word_then_byte, {"race on device buffer 'byte_cells' (byte 4 of 8)",
                                      "thread (0,0,0) read it at " + site(kByteWholeRead),
                                      "thread (4,0,0) wrote it at " + site(kByteStore)});
    expect_clean(run_block_bytes_clean);
    expect_abort(run_block_bytes_clash, {"kernel 'block_bytes_kernel' block (2,0,0)",
                                         "race between blocks on device buffer 'block_bytes' (byte 1 of 4)",
                                         "block (1,0,0) thread (0,0,0) wrote it at " + site(kBlockByteStore),
                                         "thread (0,0,0) of this block wrote it at " + site(kBlockByteClash)});
    expect_abort(run_byte_tile, {"kernel 'byte_tile_kernel' block (0,0,0)",
                                 "uninitialised read of __shared__ byte_tile", "byte 3", "thread (0,0,0) read it"});
}

static void test_race_names_the_earlier_block(void **) {
    expect_abort(run_late_block_race, {"kernel 'late_block_kernel' block (1,1,0)",
                                       "race between blocks on device buffer 'late_cell' (byte 0 of 4)",
                                       "block (1,0,0) thread (0,0,0) read it at " + site(kLateRead),
                                       "thread (0,0,0) of this block wrote it at " + site(kLateStore)});
    expect_clean(run_late_block_launches);
}

/* ---- The classic block reduction ------------------------------------------------- */

/* Tree reduction in shared memory, a barrier after every level; with
 * `broken`, the barriers inside the loop are left out (the classic bug). */
__global__ void tree_sum_kernel(float *out, const float *in, int broken) {
    __shared__ float tree_partial[256];
    const unsigned t = threadIdx.x;
    tree_partial[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s) tree_partial[t] += tree_partial[t + s];
        if (!broken) __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = tree_partial[0];
}

static bool run_tree_sum(int broken) {
    const unsigned blocks = 4, threads = 256;
    std::vector<float> host(blocks * threads);
    for (size_t i = 0; i < host.size(); i++) host[i] = float(i % 13);
    float *in = upload(host), *out = named_alloc<float>(blocks, "tree_out");
    hipLaunchKernelGGL(tree_sum_kernel, blocks, threads, 0, 0, out, in, broken);
    if (hipGetLastError() != hipSuccess) return false;
    const std::vector<float> result = download(out, blocks);
    for (unsigned b = 0; b < blocks; b++) {
        float expected = 0.0f;
        for (unsigned i = b * threads; i < (b + 1) * threads; i++) expected += host[i];
        if (result[b] != expected) return false;
    }
    return true;
}
static bool run_tree_sum_correct() { return run_tree_sum(0); }
static bool run_tree_sum_broken() { return run_tree_sum(1); }

static void test_block_reduction(void **) {
    expect_clean(run_tree_sum_correct);
    /* Without the loop's barriers, thread 0 reads tree_partial[64] at the
     * second level, which thread 64 writes at the first, in one phase. */
    expect_abort(run_tree_sum_broken, {"kernel 'tree_sum_kernel' block (0,0,0)", "race on __shared__ tree_partial"});
}

int main(void) {
    /* Read at the first launch: every launch of this program is counted and
     * checked. */
    setenv("HIPCPU_PROFILE", "/dev/null", 1);
    setenv("HIPCPU_RACECHECK", "1", 1);
    unsetenv("HIPCPU_PROFILE_SITES");
    unsetenv("HIPCPU_SCHEDULE");
    unsetenv("HIPCPU_SEED");
    unsetenv("HIPCPU_FAIL_ALLOC");
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
        cmocka_unit_test(test_lds_bank_cycles),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_barriers_and_shuffles),
        cmocka_unit_test(test_launch_geometry),
        cmocka_unit_test(test_kernel_names),
        cmocka_unit_test(test_kernel_names_in_messages),
        cmocka_unit_test(test_race_within_block),
        cmocka_unit_test(test_race_between_blocks),
        cmocka_unit_test(test_atomic_race_within_block),
        cmocka_unit_test(test_atomic_race_between_blocks),
        cmocka_unit_test(test_uninitialised_read),
        cmocka_unit_test(test_race_on_part_of_a_word),
        cmocka_unit_test(test_race_names_the_earlier_block),
        cmocka_unit_test(test_block_reduction),
    };
    return cmocka_run_group_tests_name("trace (wave " STRINGIFY(HIPCPU_WAVE_SIZE) ")", tests, nullptr, nullptr);
}
