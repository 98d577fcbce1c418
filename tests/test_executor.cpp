/* Tests of the CPU executor (common/cpu): barriers, shared memory, wave
 * operations, atomics, indices, launch validation, divergence detection,
 * events, allocation failure injection, the random schedule and the vector
 * types (float4 and friends).
 *
 * Build (the Makefile does this twice, at wave 64 and with
 * -DHIPCPU_WAVE_SIZE=32):
 *   g++ -std=c++17 -O2 -g -Icommon/cpu -Icommon tests/test_executor.cpp \
 *       common/cpu/hipcpu.cpp common/cpu/fiber_*.S -lcmocka -o build/tests/test_executor
 * Run with CMOCKA_MESSAGE_OUTPUT=TAP for TAP output. Tests never assume a
 * wave size: they use warpSize. Abort cases run in a forked child. */
#include <math.h>
#include <stdint.h>
#include <hip/hip_runtime.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
extern "C" { /* cmocka 1.1.5's header has no C++ guard */
#include <cmocka.h>
}

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "settings.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#include "executor_helpers.h"

/* ---- Helpers ------------------------------------------------------------ */

static void set_schedule(const char *mode, const char *seed) {
    if (mode) setenv("HIPCPU_SCHEDULE", mode, 1); else unsetenv("HIPCPU_SCHEDULE");
    if (seed) setenv("HIPCPU_SEED", seed, 1); else unsetenv("HIPCPU_SEED");
}

/* Runs fn in a child process and checks that it exits with status 1 after
 * writing a message that starts with "hipcpu: " and contains `expected`. */
static void (*aborting)(void);
static bool run_aborting(void) {
    aborting();
    return true; /* not reached if the executor caught the bug */
}
static void expect_abort(void (*fn)(void), const char *expected) {
    std::string text;
    aborting = fn;
    const int status = run_in_child(run_aborting, &text);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 1 || text.compare(0, 8, "hipcpu: ") != 0 ||
        text.find(expected) == std::string::npos)
        print_error("child status %d, stderr:\n%s\nexpected to contain:\n%s\n", status, text.c_str(),
                    expected);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);
    assert_int_equal(text.compare(0, 8, "hipcpu: "), 0);
    assert_true(text.find(expected) != std::string::npos);
}

/* ---- Barriers and shared memory ----------------------------------------- */

/* Reverses each block's slice `rounds` times through shared memory. */
__global__ void __launch_bounds__(1024) reverse_kernel(int *__restrict__ data, int rounds) {
    __shared__ int tile[1024];
    const unsigned t = threadIdx.x, n = blockDim.x;
    int *slice = data + blockIdx.x * n;
    int v = slice[t];
    for (int r = 0; r < rounds; r++) {
        tile[t] = v;
        __syncthreads();
        v = tile[n - 1 - t];
        __syncthreads();
    }
    slice[t] = v;
}

static void check_reverse(unsigned blocks, unsigned threads, int rounds) {
    std::vector<int> host(blocks * threads);
    for (size_t i = 0; i < host.size(); i++) host[i] = int(i * 7 + 3);
    int *data = upload(host);
    hipLaunchKernelGGL(reverse_kernel, blocks, threads, 0, 0, data, rounds);
    HIP_OK(hipGetLastError());
    std::vector<int> out = download(data, host.size());
    for (unsigned b = 0; b < blocks; b++)
        for (unsigned t = 0; t < threads; t++) {
            unsigned from = rounds % 2 ? threads - 1 - t : t;
            assert_int_equal(out[b * threads + t], host[b * threads + from]);
        }
    HIP_OK(hipFree(data));
}

static void test_barrier_reverse(void **) {
    check_reverse(5, 256, 51);
    check_reverse(3, 256, 50);
    check_reverse(4, 100, 33); /* partial last wave */
    check_reverse(2, 1024, 9); /* 1024 fibers suspended at once */
    check_reverse(2, 1024, 9); /* stacks reused */
    check_reverse(3, 1, 5);
    check_reverse(1, unsigned(warpSize) + 1, 7);
}

/* Each block fills shared memory with its id, syncs and checks. */
__global__ void isolation_kernel(int *errors) {
    __shared__ int ids[256];
    ids[threadIdx.x] = int(blockIdx.x);
    __syncthreads();
    int bad = 0;
    for (unsigned i = 0; i < blockDim.x; i++) bad += ids[i] != int(blockIdx.x);
    __syncthreads();
    ids[threadIdx.x] = -1;
    if (bad) atomicAdd(errors, bad);
}

static void test_shared_isolation(void **) {
    int *errors = device_alloc<int>(1);
    HIP_OK(hipMemset(errors, 0, sizeof(int)));
    hipLaunchKernelGGL(isolation_kernel, 64, 256, 0, 0, errors);
    set_schedule("random", "3");
    hipLaunchKernelGGL(isolation_kernel, 64, 256, 0, 0, errors);
    set_schedule(nullptr, nullptr);
    HIP_OK(hipGetLastError());
    assert_int_equal(download(errors, 1)[0], 0);
    HIP_OK(hipFree(errors));
}

/* A typical reduction: a __device__ helper with shuffles, a barrier inside
 * another helper, __forceinline__, __host__ __device__. */
__host__ __device__ __forceinline__ float square(float x) { return x * x; }

__device__ __forceinline__ float wave_sum(float v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
    return v;
}

__device__ float block_sum(float v) {
    __shared__ float partial[1024 / warpSize];
    const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
    const unsigned waves = (blockDim.x + warpSize - 1) / warpSize;
    v = wave_sum(v);
    if (lane == 0) partial[wave] = v;
    __syncthreads();
    v = threadIdx.x < waves ? partial[threadIdx.x] : 0.0f;
    if (wave == 0) v = wave_sum(v);
    return v;
}

__global__ void __launch_bounds__(256) sum_squares_kernel(float *__restrict__ out, const float *in, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? square(in[i]) : 0.0f;
    v = block_sum(v);
    if (threadIdx.x == 0) atomicAdd(out, v);
}

static void check_sum_squares(int n, unsigned threads) {
    std::vector<float> host(static_cast<size_t>(n));
    double expected = 0;
    for (int i = 0; i < n; i++) {
        host[size_t(i)] = float(i % 13) - 6.0f;
        expected += double(host[size_t(i)]) * host[size_t(i)];
    }
    float *in = upload(host), *out = device_alloc<float>(1);
    HIP_OK(hipMemset(out, 0, sizeof(float)));
    hipLaunchKernelGGL(sum_squares_kernel, (n + int(threads) - 1) / int(threads), threads, 0, 0, out, in, n);
    HIP_OK(hipGetLastError());
    assert_true(download(out, 1)[0] == float(expected)); /* small integers: exact */
    HIP_OK(hipFree(in));
    HIP_OK(hipFree(out));
}

static void test_reduction_helpers(void **) {
    check_sum_squares(10000, 256);
    check_sum_squares(777, 128);
    check_sum_squares(5000, 1024);
}

/* Many values live across barriers and shuffles: they sit in callee-saved
 * registers (x19-x28 and d8-d15 on AArch64) that every switch must keep. */
template <bool Device> static double mix(unsigned t) {
    double a0 = t + 0.5, a1 = t * 2.0 + 0.25, a2 = t * 0.125, a3 = 1.0 / (t + 1), a4 = t * 0.5;
    double a5 = 3.0 - t, a6 = t * 0.75, a7 = t + 7.0, a8 = t * 1e-3, a9 = -1.0 * t;
    long long i0 = t * 3 + 1, i1 = t * 5 + 2, i2 = t * 7 + 3, i3 = t * 11 + 4, i4 = t * 13 + 5;
    long long i5 = t ^ 0x55, i6 = t << 3, i7 = t * t, i8 = 1000 - t, i9 = t % 7;
    for (int r = 0; r < 4; r++) {
        int s;
        if constexpr (Device) {
            __syncthreads();
            s = __shfl_xor(int(t), 1 << r);
        } else {
            s = int(t ^ (1u << r));
        }
        a0 += s; a1 *= 1.0001; a2 -= s * 0.5; a3 += a0; a4 += a1;
        a5 -= a2; a6 += a3; a7 *= 0.999; a8 += a6; a9 -= a7;
        i0 += s; i1 ^= s; i2 += i0; i3 -= i1; i4 += i2;
        i5 ^= i3; i6 += i4; i7 -= i5; i8 += i6; i9 ^= i7;
    }
    return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 +
           double(i0 + i1 + i2 + i3 + i4 + i5 + i6 + i7 + i8 + i9);
}

__global__ void registers_kernel(double *out) { out[threadIdx.x] = mix<true>(threadIdx.x); }

static void test_registers_survive_switches(void **) {
    const int n = 4 * warpSize; /* xor masks up to 8 stay inside a wave */
    double *out = device_alloc<double>(size_t(n));
    hipLaunchKernelGGL(registers_kernel, 1, n, 0, 0, out);
    HIP_OK(hipGetLastError());
    std::vector<double> host = download(out, size_t(n));
    for (int t = 0; t < n; t++) {
        const double expected = mix<false>(unsigned(t));
        assert_true(fabs(host[size_t(t)] - expected) <= 1e-9 * fabs(expected));
    }
    HIP_OK(hipFree(out));
}

/* ---- Wave operations ---------------------------------------------------- */

/* The source lane HIP defines, restated independently. */
static int model_source(int kind, int lane, int arg, int width) {
    const int start = lane / width * width, pos = lane % width;
    switch (kind) {
    case HIPCPU_SHFL_IDX: return start + (arg % width);
    case HIPCPU_SHFL_UP: return pos >= arg ? lane - arg : lane;
    case HIPCPU_SHFL_DOWN: return pos + arg < width ? lane + arg : lane;
    case HIPCPU_SHFL_XOR: return (lane ^ arg) < start + width ? lane ^ arg : lane;
    }
    return -1;
}

/* Two full waves; lane l of __shfl reads from (5*l + arg) modulo width. */
__global__ void shuffle_kernel(int *oi, unsigned *ou, float *of, double *od, long long *ol, int kind,
                               int arg, int width) {
    const int t = int(threadIdx.x), lane = t % warpSize;
    const int vi = 1000 + t;
    const unsigned vu = 0xF0000000u + unsigned(t);
    const float vf = 0.5f + float(t);
    const double vd = 1e10 + t;
    const long long vl = (1LL << 40) + t;
    switch (kind) {
    case HIPCPU_SHFL_IDX: {
        const int src = 5 * lane + arg;
        oi[t] = __shfl(vi, src, width);
        ou[t] = __shfl(vu, src, width);
        of[t] = __shfl(vf, src, width);
        od[t] = __shfl(vd, src, width);
        ol[t] = __shfl(vl, src, width);
        break;
    }
    case HIPCPU_SHFL_UP:
        oi[t] = __shfl_up(vi, unsigned(arg), width);
        ou[t] = __shfl_up(vu, unsigned(arg), width);
        of[t] = __shfl_up(vf, unsigned(arg), width);
        od[t] = __shfl_up(vd, unsigned(arg), width);
        ol[t] = __shfl_up(vl, unsigned(arg), width);
        break;
    case HIPCPU_SHFL_DOWN:
        oi[t] = __shfl_down(vi, unsigned(arg), width);
        ou[t] = __shfl_down(vu, unsigned(arg), width);
        of[t] = __shfl_down(vf, unsigned(arg), width);
        od[t] = __shfl_down(vd, unsigned(arg), width);
        ol[t] = __shfl_down(vl, unsigned(arg), width);
        break;
    case HIPCPU_SHFL_XOR:
        oi[t] = __shfl_xor(vi, arg, width);
        ou[t] = __shfl_xor(vu, arg, width);
        of[t] = __shfl_xor(vf, arg, width);
        od[t] = __shfl_xor(vd, arg, width);
        ol[t] = __shfl_xor(vl, arg, width);
        break;
    }
}

static void check_shuffle(int kind, int arg, int width) {
    const int n = 2 * warpSize;
    int *oi = device_alloc<int>(size_t(n));
    unsigned *ou = device_alloc<unsigned>(size_t(n));
    float *of = device_alloc<float>(size_t(n));
    double *od = device_alloc<double>(size_t(n));
    long long *ol = device_alloc<long long>(size_t(n));
    hipLaunchKernelGGL(shuffle_kernel, 1, n, 0, 0, oi, ou, of, od, ol, kind, arg, width);
    HIP_OK(hipGetLastError());
    std::vector<int> hi = download(oi, size_t(n));
    std::vector<unsigned> hu = download(ou, size_t(n));
    std::vector<float> hf = download(of, size_t(n));
    std::vector<double> hd = download(od, size_t(n));
    std::vector<long long> hl = download(ol, size_t(n));
    for (int t = 0; t < n; t++) {
        const int lane = t % warpSize, base = t - lane;
        const int src = base + model_source(kind, lane, kind == HIPCPU_SHFL_IDX ? 5 * lane + arg : arg, width);
        if (hi[size_t(t)] != 1000 + src)
            print_error("kind %d arg %d width %d thread %d: got %d, expected %d\n", kind, arg, width, t,
                        hi[size_t(t)], 1000 + src);
        assert_int_equal(hi[size_t(t)], 1000 + src);
        assert_int_equal(hu[size_t(t)], 0xF0000000u + unsigned(src));
        assert_true(hf[size_t(t)] == 0.5f + float(src));
        assert_true(hd[size_t(t)] == 1e10 + src);
        assert_true(hl[size_t(t)] == (1LL << 40) + src);
    }
    HIP_OK(hipFree(oi));
    HIP_OK(hipFree(ou));
    HIP_OK(hipFree(of));
    HIP_OK(hipFree(od));
    HIP_OK(hipFree(ol));
}

static void check_all_kinds(int width) {
    const int deltas[] = {0, 1, 2, 3, width / 2, width - 1, width, width + 1};
    for (int d : deltas) {
        check_shuffle(HIPCPU_SHFL_UP, d, width);
        check_shuffle(HIPCPU_SHFL_DOWN, d, width);
    }
    const int masks[] = {0, 1, width / 2, width - 1, width, warpSize - 1};
    for (int m : masks) check_shuffle(HIPCPU_SHFL_XOR, m, width);
    const int offsets[] = {0, 3, 17, width};
    for (int o : offsets) check_shuffle(HIPCPU_SHFL_IDX, o, width);
}

static void test_shuffle_full_wave(void **) { check_all_kinds(warpSize); }

static void test_shuffle_widths(void **) {
    for (int width = warpSize / 2; width >= 1; width /= 2) check_all_kinds(width);
}

/* Butterfly all-reduce and broadcast with the default width. */
__global__ void butterfly_kernel(int *out) {
    int v = int(threadIdx.x);
    for (int mask = 1; mask < warpSize; mask *= 2) v += __shfl_xor(v, mask);
    const int first = __shfl(int(threadIdx.x), 0);
    out[threadIdx.x] = v * 10000 + first;
}

static void test_shuffle_default_width(void **) {
    const int n = 3 * warpSize;
    int *out = device_alloc<int>(size_t(n));
    hipLaunchKernelGGL(butterfly_kernel, 1, n, 0, 0, out);
    std::vector<int> host = download(out, size_t(n));
    for (int t = 0; t < n; t++) {
        const int base = t / warpSize * warpSize;
        const int sum = warpSize * base + warpSize * (warpSize - 1) / 2;
        assert_int_equal(host[size_t(t)], sum * 10000 + base);
    }
    HIP_OK(hipFree(out));
}

__global__ void vote_kernel(unsigned long long *ballots, int *votes) {
    const int lane = int(threadIdx.x) % warpSize;
    ballots[threadIdx.x] = __ballot(lane % 3 == 0);
    votes[3 * threadIdx.x] = __any(lane == 11);
    votes[3 * threadIdx.x + 1] = __all(lane < warpSize);
    votes[3 * threadIdx.x + 2] = __all(lane != 12);
}

static void test_ballot_any_all(void **) {
    const int n = warpSize + 10; /* a partial second wave of 10 lanes */
    unsigned long long *ballots = device_alloc<unsigned long long>(size_t(n));
    int *votes = device_alloc<int>(3 * size_t(n));
    hipLaunchKernelGGL(vote_kernel, 1, n, 0, 0, ballots, votes);
    HIP_OK(hipGetLastError());
    std::vector<unsigned long long> b = download(ballots, size_t(n));
    std::vector<int> v = download(votes, 3 * size_t(n));
    for (int t = 0; t < n; t++) {
        const int lanes = t < warpSize ? warpSize : 10;
        unsigned long long expected = 0;
        for (int l = 0; l < lanes; l++)
            if (l % 3 == 0) expected |= 1ull << l;
        assert_true(b[size_t(t)] == expected);
        assert_int_equal(v[3 * size_t(t)], t < warpSize); /* only wave 0 has a lane 11 */
        assert_int_equal(v[3 * size_t(t) + 1], 1);
        assert_int_equal(v[3 * size_t(t) + 2], t >= warpSize); /* only wave 0 has a lane 12 */
    }
    HIP_OK(hipFree(ballots));
    HIP_OK(hipFree(votes));
}

/* ---- Atomics -------------------------------------------------------------- */

struct AtomicTotals {
    int sum, sub, max, min, cas_count, exch;
    unsigned usum, umax, umin, inc, bits_or, bits_and;
    unsigned long long ullsum;
    float fsum;
    double dsum;
};

__global__ void atomics_kernel(AtomicTotals *a) {
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    atomicAdd(&a->sum, i % 7 - 3);
    atomicSub(&a->sub, 2);
    atomicMax(&a->max, (i * 37) % 1001);
    atomicMin(&a->min, 500 - (i * 53) % 997);
    atomicAdd(&a->usum, 1u);
    atomicMax(&a->umax, unsigned(i));
    atomicMin(&a->umin, unsigned(i) + 10u);
    atomicInc(&a->inc, 99u); /* counts modulo 100 */
    atomicOr(&a->bits_or, 1u << (i % 32));
    atomicAnd(&a->bits_and, ~(1u << (i % 16)));
    atomicAdd(&a->ullsum, 1ull << 33);
    atomicAdd(&a->fsum, 1.0f);
    atomicAdd(&a->dsum, 0.5);
    atomicExch(&a->exch, 42);
    int old = a->cas_count, seen;
    while ((seen = atomicCAS(&a->cas_count, old, old + 1)) != old) old = seen;
}

static void test_atomics(void **) {
    const int blocks = 200, threads = 256, n = blocks * threads;
    AtomicTotals init = {};
    init.min = 1 << 30;
    init.umin = ~0u;
    init.bits_and = ~0u;
    AtomicTotals *a = upload(std::vector<AtomicTotals>(1, init));
    hipLaunchKernelGGL(atomics_kernel, blocks, threads, 0, 0, a);
    HIP_OK(hipGetLastError());
    AtomicTotals r = download(a, 1)[0];
    int sum = 0, max = 0, min = 1 << 30;
    for (int i = 0; i < n; i++) {
        sum += i % 7 - 3;
        max = (i * 37) % 1001 > max ? (i * 37) % 1001 : max;
        min = 500 - (i * 53) % 997 < min ? 500 - (i * 53) % 997 : min;
    }
    assert_int_equal(r.sum, sum);
    assert_int_equal(r.sub, -2 * n);
    assert_int_equal(r.max, max);
    assert_int_equal(r.min, min);
    assert_int_equal(r.usum, unsigned(n));
    assert_int_equal(r.umax, unsigned(n - 1));
    assert_int_equal(r.umin, 10u);
    assert_int_equal(r.inc, unsigned(n % 100));
    assert_int_equal(r.bits_or, 0xFFFFFFFFu);
    assert_int_equal(r.bits_and, 0xFFFF0000u);
    assert_true(r.ullsum == (unsigned long long)n << 33);
    assert_true(r.fsum == float(n)); /* below 2^24: exact */
    assert_true(r.dsum == 0.5 * n);
    assert_int_equal(r.exch, 42);
    assert_int_equal(r.cas_count, n);
    HIP_OK(hipFree(a));
}

/* ---- Indices -------------------------------------------------------------- */

struct IndexRecord {
    unsigned t[3], b[3], bd[3], gd[3];
    int hits;
};

__global__ void index_kernel(IndexRecord *records) {
    const unsigned per_block = blockDim.x * blockDim.y * blockDim.z;
    const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const unsigned bid = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    IndexRecord &r = records[bid * per_block + tid];
    const unsigned values[12] = {threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z,
                                 blockDim.x,  blockDim.y,  blockDim.z,  gridDim.x,  gridDim.y,  gridDim.z};
    memcpy(r.t, values, sizeof values);
    r.hits++;
}

static void check_indices(dim3 grid, dim3 block) {
    const size_t per_block = size_t(block.x) * block.y * block.z;
    const size_t n = size_t(grid.x) * grid.y * grid.z * per_block;
    IndexRecord *records = device_alloc<IndexRecord>(n);
    HIP_OK(hipMemset(records, 0, n * sizeof(IndexRecord)));
    hipLaunchKernelGGL(index_kernel, grid, block, 0, 0, records);
    HIP_OK(hipGetLastError());
    std::vector<IndexRecord> r = download(records, n);
    size_t k = 0;
    for (unsigned bz = 0; bz < grid.z; bz++)
        for (unsigned by = 0; by < grid.y; by++)
            for (unsigned bx = 0; bx < grid.x; bx++)
                for (unsigned tz = 0; tz < block.z; tz++)
                    for (unsigned ty = 0; ty < block.y; ty++)
                        for (unsigned tx = 0; tx < block.x; tx++, k++) {
                            const unsigned expected[12] = {tx,      ty,      tz,      bx,     by,     bz,
                                                           block.x, block.y, block.z, grid.x, grid.y, grid.z};
                            assert_int_equal(r[k].hits, 1);
                            assert_memory_equal(r[k].t, expected, sizeof expected);
                        }
    HIP_OK(hipFree(records));
}

static void test_indices(void **) {
    check_indices(dim3(7), dim3(96));           /* 1-D */
    check_indices(dim3(3, 4), dim3(16, 8));     /* 2-D */
    check_indices(dim3(2, 3, 2), dim3(5, 3, 4)); /* 3-D, partial waves */
    check_indices(dim3(1, 1, 3), dim3(1, 1, 64));
    set_schedule("random", "11");
    check_indices(dim3(3, 2, 2), dim3(8, 4, 2));
    set_schedule(nullptr, nullptr);
}

/* ---- Launch validation ---------------------------------------------------- */

__global__ void flag_kernel(int *ran) { ran[0] = 1; }
__global__ void no_argument_kernel() {}

static void test_launch_validation(void **) {
    const struct {
        dim3 grid, block;
    } invalid[] = {
        {dim3(0), dim3(64)},           {dim3(1, 0), dim3(64)},       {dim3(1, 1, 0), dim3(64)},
        {dim3(1), dim3(0)},            {dim3(1), dim3(64, 0)},       {dim3(1), dim3(1, 1, 0)},
        {dim3(1), dim3(1025)},         {dim3(1), dim3(2048)},        {dim3(1), dim3(32, 33)},
        {dim3(1), dim3(1, 1, 65)},     {dim3(1), dim3(16, 16, 8)},   {dim3(1, 65536), dim3(1)},
        {dim3(1, 1, 65536), dim3(1)},  {dim3(0x80000000u), dim3(1)},
    };
    int *ran = device_alloc<int>(1);
    HIP_OK(hipMemset(ran, 0, sizeof(int)));
    hipGetLastError();
    for (const auto &c : invalid) {
        hipLaunchKernelGGL(flag_kernel, c.grid, c.block, 0, 0, ran);
        assert_int_equal(hipPeekAtLastError(), hipErrorInvalidConfiguration);
        assert_int_equal(hipGetLastError(), hipErrorInvalidConfiguration);
        assert_int_equal(hipGetLastError(), hipSuccess); /* reset */
        assert_int_equal(download(ran, 1)[0], 0);
    }
    /* More dynamic shared memory than a CU's 64 KiB LDS. */
    hipLaunchKernelGGL(flag_kernel, 1, 1, 65537, 0, ran);
    assert_int_equal(hipGetLastError(), hipErrorInvalidValue);
    assert_int_equal(download(ran, 1)[0], 0);
    /* The limits themselves are valid; plain ints work as dimensions. */
    hipLaunchKernelGGL(flag_kernel, dim3(1, 65535), dim3(1), 0, 0, ran);
    hipLaunchKernelGGL(flag_kernel, 1, dim3(1, 1, 64), 0, 0, ran);
    hipLaunchKernelGGL(flag_kernel, 1, 1024, 0, 0, ran);
    hipLaunchKernelGGL(flag_kernel, dim3(1, 1, 2), dim3(32, 32), 0, nullptr, ran);
    hipLaunchKernelGGL(no_argument_kernel, 2, 3, 0, 0);
    HIP_OK(hipGetLastError());
    assert_int_equal(download(ran, 1)[0], 1);
    HIP_OK(hipFree(ran));
}

/* ---- Divergence detection (each runs in a forked child) ------------------- */

__global__ void partial_barrier_kernel(int *data) {
    if (blockIdx.x == 3 && threadIdx.x >= 64) return;
    data[threadIdx.x] = 1;
    __syncthreads();
}

static void run_partial_barrier(void) {
    int *data = device_alloc<int>(256);
    hipLaunchKernelGGL(partial_barrier_kernel, 8, 256, 0, 0, data);
}

static void run_partial_barrier_random(void) {
    set_schedule("random", "5");
    run_partial_barrier();
}

static void test_barrier_divergence(void **) {
    const char *expected = "hipcpu: kernel 'partial_barrier_kernel' block (3,0,0): __syncthreads reached by "
                           "64 of 256 threads; thread (64,0,0) returned without reaching it";
    expect_abort(run_partial_barrier, expected);
    expect_abort(run_partial_barrier_random, expected);
}

__global__ void shuffle_returned_kernel(int *out) {
    const int lane = int(threadIdx.x) % warpSize;
    if (lane >= warpSize / 2) return;
    out[threadIdx.x] = __shfl_down(lane, 1);
}

__global__ void shuffle_vs_barrier_kernel(int *out) {
    const int lane = int(threadIdx.x) % warpSize;
    int v = lane;
    if (lane < warpSize / 4) v = __shfl_xor(v, 1);
    __syncthreads();
    out[threadIdx.x] = v;
}

__global__ void mixed_shuffles_kernel(int *out) {
    const int lane = int(threadIdx.x) % warpSize;
    out[threadIdx.x] = lane & 1 ? __shfl_up(lane, 1) : __shfl_down(lane, 1);
}

static void run_shuffle_returned(void) {
    int *out = device_alloc<int>(size_t(warpSize));
    hipLaunchKernelGGL(shuffle_returned_kernel, 1, warpSize, 0, 0, out);
}

static void run_shuffle_vs_barrier(void) {
    int *out = device_alloc<int>(2 * size_t(warpSize));
    hipLaunchKernelGGL(shuffle_vs_barrier_kernel, 1, 2 * warpSize, 0, 0, out);
}

static void run_mixed_shuffles(void) {
    int *out = device_alloc<int>(size_t(warpSize));
    hipLaunchKernelGGL(mixed_shuffles_kernel, 1, warpSize, 0, 0, out);
}

static void test_shuffle_divergence(void **) {
    char expected[256];
    snprintf(expected, sizeof expected,
             "hipcpu: kernel 'shuffle_returned_kernel' block (0,0,0): __shfl_down reached by %d of %d lanes "
             "of wave 0; thread (%d,0,0) returned without reaching it",
             warpSize / 2, warpSize, warpSize / 2);
    expect_abort(run_shuffle_returned, expected);
    snprintf(expected, sizeof expected,
             "kernel 'shuffle_vs_barrier_kernel' block (0,0,0): __shfl_xor reached by %d of %d lanes of wave 0; "
             "thread (%d,0,0) is waiting at __syncthreads instead",
             warpSize / 4, warpSize, warpSize / 4);
    expect_abort(run_shuffle_vs_barrier, expected);
    expect_abort(run_mixed_shuffles, "lanes of wave 0 reached different wave operations");
}

/* The block's last wave has 8 lanes; lane 0 of it reads lane 8. */
__global__ void missing_lane_kernel(int *out) { out[threadIdx.x] = __shfl_down(int(threadIdx.x), 8); }
__global__ void missing_lane_idx_kernel(int *out) { out[threadIdx.x] = __shfl(int(threadIdx.x), 9); }
__global__ void bad_width_kernel(int *out) { out[threadIdx.x] = __shfl(int(threadIdx.x), 0, 3); }

static void run_missing_lane(void) {
    int *out = device_alloc<int>(size_t(warpSize) + 8);
    hipLaunchKernelGGL(missing_lane_kernel, 1, warpSize + 8, 0, 0, out);
}

static void run_missing_lane_idx(void) {
    int *out = device_alloc<int>(size_t(warpSize) + 8);
    hipLaunchKernelGGL(missing_lane_idx_kernel, 1, warpSize + 8, 0, 0, out);
}

static void run_bad_width(void) {
    int *out = device_alloc<int>(size_t(warpSize));
    hipLaunchKernelGGL(bad_width_kernel, 1, warpSize, 0, 0, out);
}

static void test_missing_lane(void **) {
    char expected[256];
    snprintf(expected, sizeof expected,
             "kernel 'missing_lane_kernel' block (0,0,0): thread (%d,0,0) __shfl_down reads lane 8 of wave 1, "
             "which does not exist",
             warpSize);
    expect_abort(run_missing_lane, expected);
    snprintf(expected, sizeof expected, "thread (%d,0,0) __shfl reads lane 9 of wave 1", warpSize);
    expect_abort(run_missing_lane_idx, expected);
    expect_abort(run_bad_width, "called __shfl with width 3");
}

/* ---- Other aborts ----------------------------------------------------------- */

__global__ void nested_launch_kernel(int *ran) { hipLaunchKernelGGL(flag_kernel, 1, 1, 0, 0, ran); }

static void run_nested_launch(void) {
    int *ran = device_alloc<int>(1);
    hipLaunchKernelGGL(nested_launch_kernel, 1, 1, 0, 0, ran);
}

static void run_bad_schedule(void) {
    set_schedule("sideways", nullptr);
    run_nested_launch();
}

#if !UNDER_ASAN /* under ASan, ASan reports the overflow itself */
/* Recursion deep enough to overflow any fiber stack. */
__device__ int deep(int depth, volatile char *parent) {
    volatile char frame[512];
    frame[0] = char(parent[0] + 1);
    const int below = depth > 0 ? deep(depth - 1, frame) : 0;
    return below + frame[0];
}

__global__ void overflow_kernel(int *out) {
    volatile char start = 0;
    out[0] = deep(1 << 20, &start);
}

static void run_overflow(void) {
    int *out = device_alloc<int>(1);
    hipLaunchKernelGGL(overflow_kernel, 1, 2, 0, 0, out);
}

/* The executor's SIGSEGV handler is installed at the first launch of a
 * process; cmocka replaces it during each test. So this case runs in a
 * fresh process: main() with --overflow. */
static void run_overflow_fresh(void) {
    execl("/proc/self/exe", "test_executor", "--overflow", static_cast<char *>(nullptr));
    _exit(3);
}

#endif

/* hipcpu_wave_uniform: what chapter 08's readfirstlane claims, checked. A
 * value uniform per wave passes through; one that differs within a wave
 * aborts, naming lane 0's value and the first lane that disagrees. */
__global__ void wave_uniform_kernel(int *out, int per_lane) {
    const int t = int(threadIdx.x);
    out[t] = hipcpu_wave_uniform(per_lane ? t % 3 : t / warpSize);
}

static void run_wave_not_uniform(void) {
    int *out = device_alloc<int>(size_t(2 * warpSize));
    hipLaunchKernelGGL(wave_uniform_kernel, 1, 2 * warpSize, 0, 0, out, 1);
}

static void test_wave_uniform(void **) {
    const int threads = 2 * warpSize;
    int *out = device_alloc<int>(size_t(threads));
    hipLaunchKernelGGL(wave_uniform_kernel, 1, threads, 0, 0, out, 0);
    HIP_OK(hipGetLastError());
    std::vector<int> host = download(out, size_t(threads));
    for (int t = 0; t < threads; t++) assert_int_equal(host[size_t(t)], t / warpSize);
    HIP_OK(hipFree(out));
    expect_abort(run_wave_not_uniform, "wave 0: a value the kernel declares uniform (the same in every "
                                       "lane) is 0 in lane 0 but 1 in lane 1");
}

static void test_other_aborts(void **) {
    expect_abort(run_nested_launch, "kernel 'flag_kernel' launched from inside a kernel");
    expect_abort(run_bad_schedule, "HIPCPU_SCHEDULE must be 'inorder' or 'random', not 'sideways'");
#if !UNDER_ASAN
    expect_abort(run_overflow_fresh, "kernel 'overflow_kernel' block (0,0,0): thread (0,0,0) overflowed its");
#endif
}

/* ---- Settings (common/cpu/settings.h) ---------------------------------------- */

static std::string read_text(const std::string &path) {
    std::string text;
    if (FILE *f = fopen(path.c_str(), "r")) {
        char buffer[4096];
        size_t n;
        while ((n = fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
        fclose(f);
    }
    if (text.empty()) print_error("cannot read %s: run from the repository root\n", path.c_str());
    assert_false(text.empty());
    return text;
}

static size_t count_of(const std::string &text, const std::string &word) {
    size_t n = 0;
    for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) n++;
    return n;
}

static int bad_setting; /* the index run_bad_setting sets a bad value for */
static void run_bad_setting(void) {
    setenv(hipcpu_settings[bad_setting].name, "bogus", 1);
    hipcpu_setting_value(hipcpu_env(bad_setting));
}

/* The table is the one list: common/cpu/README.md's tables name exactly its
 * variables, nothing in the executor or its tracer reads the environment but
 * its reader, and every bad value is refused in the table's one form. */
static void test_settings_table(void **) {
    const std::string readme = read_text("common/cpu/README.md");
    std::vector<std::string> listed; /* the README's table rows "| `HIPCPU_NAME=...` |" */
    for (size_t at = readme.find("\n| `HIPCPU_"); at != std::string::npos; at = readme.find("\n| `HIPCPU_", at + 1))
        listed.push_back(readme.substr(at + 4, readme.find_first_of("=`", at + 4) - (at + 4)));
    for (const hipcpu_setting &s : hipcpu_settings) {
        if (std::find(listed.begin(), listed.end(), s.name) == listed.end())
            print_error("%s is not in common/cpu/README.md's tables\n", s.name);
        assert_true(std::find(listed.begin(), listed.end(), s.name) != listed.end());
    }
    for (const std::string &name : listed) {
        bool known = false;
        for (const hipcpu_setting &s : hipcpu_settings) known = known || name == s.name;
        if (!known) print_error("common/cpu/README.md lists %s, which settings.h does not\n", name.c_str());
        assert_true(known);
    }
    size_t getenvs = 0;
    for (const char *dir : {"common/cpu", "common/cpu/hip", "common/cpu/trace"})
        if (DIR *d = opendir(dir)) {
            while (const dirent *e = readdir(d)) {
                const std::string name = e->d_name, suffix = name.substr(name.find_last_of('.') + 1);
                if (name.find('.') != std::string::npos && (suffix == "h" || suffix == "cpp"))
                    getenvs += count_of(read_text(std::string(dir) + "/" + name), "getenv(");
            }
            closedir(d);
        }
    assert_int_equal(getenvs, 1); /* hipcpu_setting_text's */
    for (bad_setting = 0; bad_setting < int(sizeof hipcpu_settings / sizeof *hipcpu_settings); bad_setting++) {
        const hipcpu_setting &s = hipcpu_settings[bad_setting];
        if (s.kind == HIPCPU_TEXT) continue;
        expect_abort(run_bad_setting, (std::string(s.name) + " must be " + s.what + ", not 'bogus'").c_str());
    }
}

/* ---- Events ----------------------------------------------------------------- */

__global__ void busy_kernel(float *out, int n) {
    float s = 0;
    for (int i = 0; i < n; i++) s += sqrtf(float(i + threadIdx.x));
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

static void test_events(void **) {
    hipEvent_t start, stop, later;
    HIP_OK(hipEventCreate(&start));
    HIP_OK(hipEventCreate(&stop));
    HIP_OK(hipEventCreate(&later));
    float ms = -1;
    assert_int_equal(hipEventElapsedTime(&ms, start, stop), hipErrorInvalidHandle); /* not recorded */
    hipGetLastError();
    float *out = device_alloc<float>(4 * 256);
    HIP_OK(hipEventRecord(start, 0));
    hipLaunchKernelGGL(busy_kernel, 4, 256, 0, 0, out, 2000);
    HIP_OK(hipEventRecord(stop));
    HIP_OK(hipEventSynchronize(stop));
    HIP_OK(hipEventElapsedTime(&ms, start, stop));
    assert_true(ms >= 0.0f);
    hipLaunchKernelGGL(busy_kernel, 4, 256, 0, 0, out, 2000);
    HIP_OK(hipEventRecord(later, 0));
    float ms_later = -1;
    HIP_OK(hipEventElapsedTime(&ms_later, start, later));
    assert_true(ms_later >= ms);
    HIP_OK(hipEventElapsedTime(&ms, start, start));
    assert_true(ms == 0.0f);
    HIP_OK(hipDeviceSynchronize());
    HIP_OK(hipStreamSynchronize(0));
    HIP_OK(hipEventDestroy(start));
    HIP_OK(hipEventDestroy(stop));
    HIP_OK(hipEventDestroy(later));
    HIP_OK(hipFree(out));
}

/* ---- Memory and device API -------------------------------------------------- */

static void test_alloc_failure_injection(void **) {
    /* Read at every hipMalloc; the count restarts when the value changes. */
    setenv("HIPCPU_FAIL_ALLOC", "2", 1);
    float *a = nullptr, *b = nullptr, *c = nullptr;
    HIP_OK(hipMalloc(&a, 1000));
    b = reinterpret_cast<float *>(1);
    assert_int_equal(hipMalloc(&b, 1000), hipErrorOutOfMemory);
    assert_null(b);
    assert_int_equal(hipGetLastError(), hipErrorOutOfMemory);
    HIP_OK(hipMalloc(&c, 1000)); /* only the second fails */
    setenv("HIPCPU_FAIL_ALLOC", "1", 1);
    float *d = nullptr;
    assert_int_equal(hipMalloc(&d, 16), hipErrorOutOfMemory);
    unsetenv("HIPCPU_FAIL_ALLOC");
    HIP_OK(hipMalloc(&d, 16));
#if !UNDER_ASAN /* ASan's allocator aborts (or warns) instead of returning NULL */
    /* An allocation malloc cannot satisfy. */
    void *huge = nullptr;
    assert_int_equal(hipMalloc(&huge, SIZE_MAX / 2), hipErrorOutOfMemory);
    assert_null(huge);
    assert_int_equal(hipGetLastError(), hipErrorOutOfMemory);
#endif
    HIP_OK(hipFree(a));
    HIP_OK(hipFree(c));
    HIP_OK(hipFree(d));
}

static void test_memory_and_device_api(void **) {
    void *none = reinterpret_cast<void *>(1);
    HIP_OK(hipMalloc(&none, 0));
    assert_null(none);
    HIP_OK(hipFree(nullptr));
    std::vector<int> host(100);
    for (int i = 0; i < 100; i++) host[size_t(i)] = i * i;
    int *a = upload(host), *b = device_alloc<int>(100);
    HIP_OK(hipMemcpy(b, a, 100 * sizeof(int), hipMemcpyDeviceToDevice));
    HIP_OK(hipMemsetAsync(a, 0, 50 * sizeof(int), 0));
    HIP_OK(hipMemcpyAsync(a + 50, b, 10 * sizeof(int), hipMemcpyDefault, 0));
    std::vector<int> ha = download(a, 100), hb = download(b, 100);
    for (int i = 0; i < 100; i++) {
        assert_int_equal(hb[size_t(i)], i * i);
        assert_int_equal(ha[size_t(i)], i < 50 ? 0 : i < 60 ? (i - 50) * (i - 50) : i * i);
    }
    assert_int_equal(hipMemcpy(nullptr, b, 4, hipMemcpyHostToHost), hipErrorInvalidValue);
    hipGetLastError();
    HIP_OK(hipFree(a));
    HIP_OK(hipFree(b));

    int count = 0, device = -1;
    HIP_OK(hipGetDeviceCount(&count));
    assert_int_equal(count, 1);
    HIP_OK(hipSetDevice(0));
    HIP_OK(hipGetDevice(&device));
    assert_int_equal(device, 0);
    assert_int_equal(hipSetDevice(1), hipErrorInvalidDevice);
    hipDeviceProp_t prop;
    assert_int_equal(hipGetDeviceProperties(&prop, 1), hipErrorInvalidDevice);
    hipGetLastError();
    HIP_OK(hipGetDeviceProperties(&prop, 0));
    char name[64];
    snprintf(name, sizeof name, "HIP CPU executor (wave%d)", warpSize);
    assert_string_equal(prop.name, name);
    assert_string_equal(prop.gcnArchName, "cpu");
    assert_int_equal(prop.warpSize, warpSize);
    assert_int_equal(prop.maxThreadsPerBlock, 1024);
    assert_int_equal(prop.sharedMemPerBlock, 65536);
    /* gfx906's 60 CUs unless HIPCPU_COMPUTE_UNITS says otherwise, and one
     * block per CU: grids sized from the device get 60 blocks. */
    assert_int_equal(prop.multiProcessorCount, 60);
    setenv("HIPCPU_COMPUTE_UNITS", "132", 1);
    HIP_OK(hipGetDeviceProperties(&prop, 0));
    assert_int_equal(prop.multiProcessorCount, 132);
    unsetenv("HIPCPU_COMPUTE_UNITS");
    int per_cu = 0;
    HIP_OK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, wave_uniform_kernel, 640, 0));
    assert_int_equal(per_cu, 1);
    assert_int_equal(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, wave_uniform_kernel, 2048, 0),
                     hipErrorInvalidValue);
    hipGetLastError();
    assert_true(prop.totalGlobalMem > 0);
    assert_true(prop.clockRate > 0);

    assert_string_equal(hipGetErrorName(hipErrorInvalidConfiguration), "hipErrorInvalidConfiguration");
    assert_string_equal(hipGetErrorName(hipErrorMemoryAllocation), "hipErrorOutOfMemory");
    assert_string_equal(hipGetErrorString(hipSuccess), "no error");
    assert_string_equal(hipGetErrorString(hipErrorOutOfMemory), "out of memory");
    assert_string_equal(hipGetErrorName(hipErrorLaunchFailure), "hipErrorLaunchFailure");
}

/* ---- Schedules ------------------------------------------------------------ */

/* Records the order in which blocks start and threads first run. */
__global__ void order_kernel(int *block_order, int *thread_order, int *tickets) {
    const int first = atomicAdd(&tickets[1], 1);
    if (blockIdx.x == 0) thread_order[threadIdx.x] = first;
    __syncthreads();
    if (threadIdx.x == 0) block_order[atomicAdd(&tickets[0], 1)] = int(blockIdx.x);
}

static void record_order(std::vector<int> &blocks, std::vector<int> &threads) {
    const int nblocks = 64, nthreads = 256;
    int *b = device_alloc<int>(nblocks), *t = device_alloc<int>(nthreads), *tickets = device_alloc<int>(2);
    HIP_OK(hipMemset(tickets, 0, 2 * sizeof(int)));
    hipLaunchKernelGGL(order_kernel, nblocks, nthreads, 0, 0, b, t, tickets);
    HIP_OK(hipGetLastError());
    blocks = download(b, nblocks);
    threads = download(t, nthreads);
    for (int &v : threads) v %= nthreads; /* ticket within the block */
    HIP_OK(hipFree(b));
    HIP_OK(hipFree(t));
    HIP_OK(hipFree(tickets));
}

static bool is_identity(const std::vector<int> &v) {
    for (size_t i = 0; i < v.size(); i++)
        if (v[i] != int(i)) return false;
    return true;
}

static void test_random_schedule(void **) {
    std::vector<int> b0, t0, b1, t1, b2, t2, b3, t3;
    set_schedule(nullptr, nullptr);
    record_order(b0, t0);
    assert_true(is_identity(b0));
    assert_true(is_identity(t0));

    set_schedule("random", "5");
    record_order(b1, t1);
    assert_false(is_identity(b1));
    assert_false(is_identity(t1));
    set_schedule("random", "6");
    record_order(b2, t2);
    assert_true(b1 != b2);
    set_schedule("random", "5"); /* same seed: same order */
    record_order(b3, t3);
    assert_true(b1 == b3);
    assert_true(t1 == t3);

    /* Race-free kernels still give the right answers. */
    set_schedule("random", "1234");
    check_reverse(6, 256, 21);
    check_reverse(3, 100, 12);
    check_sum_squares(10000, 256);
    test_shuffle_default_width(nullptr);
    test_atomics(nullptr);
    check_shuffle(HIPCPU_SHFL_DOWN, 1, warpSize / 2);
    set_schedule(nullptr, nullptr);
}

__global__ void float_sum_kernel(float *out, const float *in) {
    atomicAdd(out, in[blockIdx.x * blockDim.x + threadIdx.x]);
}

static void test_determinism(void **) {
    const int n = 100 * 256;
    std::vector<float> host(n);
    for (int i = 0; i < n; i++) host[size_t(i)] = 0.1f * float(i % 10) + 1e-3f * float(i) + 1.0f / float(i + 1);
    float *in = upload(host), *out = device_alloc<float>(1);
    float result[2];
    for (int r = 0; r < 2; r++) {
        HIP_OK(hipMemset(out, 0, sizeof(float)));
        hipLaunchKernelGGL(float_sum_kernel, 100, 256, 0, 0, out, in);
        result[r] = download(out, 1)[0];
    }
    assert_memory_equal(&result[0], &result[1], sizeof(float));
    /* In order, the sum is the sequential one. */
    float sequential = 0;
    for (int i = 0; i < n; i++) sequential += host[size_t(i)];
    assert_memory_equal(&result[0], &sequential, sizeof(float));
    HIP_OK(hipFree(in));
    HIP_OK(hipFree(out));
}

/* ---- Vector types ------------------------------------------------------- */

/* The GPU's sizes and alignments, and plain aggregates, so that a cast from
 * a float pointer reads the same bytes as it would on a GPU. */
#define CHECK_VECTOR_TYPE(T, size, align)                                                   \
    static_assert(sizeof(T) == (size) && alignof(T) == (align), #T ": size or alignment");   \
    static_assert(std::is_trivially_copyable<T>::value && std::is_standard_layout<T>::value && \
                      std::is_aggregate<T>::value,                                          \
                  #T ": not a plain aggregate");
CHECK_VECTOR_TYPE(char4, 4, 4)
CHECK_VECTOR_TYPE(uchar4, 4, 4)
CHECK_VECTOR_TYPE(int2, 8, 8)
CHECK_VECTOR_TYPE(int3, 12, 4)
CHECK_VECTOR_TYPE(int4, 16, 16)
CHECK_VECTOR_TYPE(uint2, 8, 8)
CHECK_VECTOR_TYPE(uint3, 12, 4)
CHECK_VECTOR_TYPE(uint4, 16, 16)
CHECK_VECTOR_TYPE(float2, 8, 8)
CHECK_VECTOR_TYPE(float3, 12, 4)
CHECK_VECTOR_TYPE(float4, 16, 16)
CHECK_VECTOR_TYPE(double2, 16, 16)
#undef CHECK_VECTOR_TYPE
static_assert(offsetof(float4, w) == 12 && offsetof(uchar4, w) == 3 && offsetof(double2, y) == 8,
              "members in x y z w order, no padding");

/* out[i] = the sum of the i-th float4 of in; in holds 4 n floats. */
__global__ void float4_sum_kernel(float *out, const float *in, int n) {
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    const float4 v = reinterpret_cast<const float4 *>(in)[i];
    out[i] = v.x + v.y + v.z + v.w;
}

/* Each float4 also written back through a float4 pointer, scaled. */
__global__ void float4_scale_kernel(float *data, float s, int n) {
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    float4 *p = reinterpret_cast<float4 *>(data);
    const float4 v = p[i];
    p[i] = make_float4(v.x * s, v.y * s, v.z * s, v.w * s);
}

static void test_float4_load(void **) {
    const int n = 1000; /* not a multiple of the block: the tail is guarded */
    std::vector<float> host(4 * size_t(n));
    for (size_t k = 0; k < host.size(); k++) host[k] = float(k % 97) * 0.25f - 3.0f;
    float *in = upload(host), *out = device_alloc<float>(size_t(n));
    assert_int_equal(reinterpret_cast<uintptr_t>(in) % alignof(float4), 0);
    hipLaunchKernelGGL(float4_sum_kernel, (n + 255) / 256, 256, 0, 0, out, in, n);
    HIP_OK(hipGetLastError());
    std::vector<float> sums = download(out, size_t(n));
    for (size_t i = 0; i < size_t(n); i++) {
        const float expected = host[4 * i] + host[4 * i + 1] + host[4 * i + 2] + host[4 * i + 3];
        assert_memory_equal(&sums[i], &expected, sizeof(float));
    }
    hipLaunchKernelGGL(float4_scale_kernel, (n + 127) / 128, 128, 0, 0, in, 2.0f, n);
    HIP_OK(hipGetLastError());
    std::vector<float> scaled = download(in, host.size());
    for (size_t k = 0; k < host.size(); k++) assert_true(scaled[k] == 2.0f * host[k]);
    HIP_OK(hipFree(in));
    HIP_OK(hipFree(out));
}

/* Bytes -> int4 (widened, x first) -> uchar4, as an image kernel unpacks
 * and repacks RGBA pixels. */
__global__ void uchar4_widen_kernel(int4 *wide, const unsigned char *bytes, int n) {
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    const uchar4 p = reinterpret_cast<const uchar4 *>(bytes)[i];
    wide[i] = make_int4(p.x, p.y, p.z, p.w);
}

__global__ void uchar4_narrow_kernel(uchar4 *pixels, const int4 *wide, int n) {
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    const int4 v = wide[i];
    pixels[i] = make_uchar4((unsigned char)v.x, (unsigned char)v.y, (unsigned char)v.z,
                            (unsigned char)v.w);
}

static void test_uchar4_round_trip(void **) {
    const int n = 300;
    std::vector<unsigned char> host(4 * size_t(n));
    for (size_t k = 0; k < host.size(); k++) host[k] = (unsigned char)(k * 37 + 11);
    unsigned char *bytes = upload(host);
    int4 *wide = device_alloc<int4>(size_t(n));
    uchar4 *pixels = device_alloc<uchar4>(size_t(n));
    hipLaunchKernelGGL(uchar4_widen_kernel, (n + 63) / 64, 64, 0, 0, wide, bytes, n);
    hipLaunchKernelGGL(uchar4_narrow_kernel, (n + 63) / 64, 64, 0, 0, pixels, wide, n);
    HIP_OK(hipGetLastError());
    std::vector<int4> w = download(wide, size_t(n));
    for (size_t i = 0; i < size_t(n); i++) {
        assert_int_equal(w[i].x, host[4 * i]);
        assert_int_equal(w[i].y, host[4 * i + 1]);
        assert_int_equal(w[i].z, host[4 * i + 2]);
        assert_int_equal(w[i].w, host[4 * i + 3]);
    }
    std::vector<uchar4> back = download(pixels, size_t(n));
    assert_memory_equal(back.data(), host.data(), host.size());
    HIP_OK(hipFree(bytes));
    HIP_OK(hipFree(wide));
    HIP_OK(hipFree(pixels));
}

struct MadeVectors {
    float2 f2;
    float3 f3;
    float4 f4;
    int2 i2;
    int3 i3;
    int4 i4;
    uint2 u2;
    uint3 u3;
    uint4 u4;
    char4 c4;
    uchar4 uc4;
    double2 d2;
};

static MadeVectors make_all(int k) {
    MadeVectors m;
    m.f2 = make_float2(0.5f * k, -1.0f);
    m.f3 = make_float3(1.0f, 2.0f * k, 3.0f);
    m.f4 = make_float4(1.0f, 2.0f, 3.0f, 4.0f * k);
    m.i2 = make_int2(-k, 7);
    m.i3 = make_int3(1, -2, 3 * k);
    m.i4 = make_int4(k, -k, 2 * k, -2 * k);
    m.u2 = make_uint2(unsigned(k), 0xFFFFFFFFu);
    m.u3 = make_uint3(1u, 2u, unsigned(k));
    m.u4 = make_uint4(0u, 1u, 2u, unsigned(k));
    m.c4 = make_char4(-128, 127, (signed char)-k, 0);
    m.uc4 = make_uchar4(0, 255, (unsigned char)k, 128);
    m.d2 = make_double2(0.1 * k, -1e300);
    return m;
}

__global__ void make_vectors_kernel(MadeVectors *out) {
    const int k = int(threadIdx.x);
    out[k] = make_all(k);
}

static void check_made(const MadeVectors &m, int k) {
    assert_true(m.f2.x == 0.5f * k && m.f2.y == -1.0f);
    assert_true(m.f3.x == 1.0f && m.f3.y == 2.0f * k && m.f3.z == 3.0f);
    assert_true(m.f4.x == 1.0f && m.f4.y == 2.0f && m.f4.z == 3.0f && m.f4.w == 4.0f * k);
    assert_true(m.i2.x == -k && m.i2.y == 7);
    assert_true(m.i3.x == 1 && m.i3.y == -2 && m.i3.z == 3 * k);
    assert_true(m.i4.x == k && m.i4.y == -k && m.i4.z == 2 * k && m.i4.w == -2 * k);
    assert_true(m.u2.x == unsigned(k) && m.u2.y == 0xFFFFFFFFu);
    assert_true(m.u3.x == 1u && m.u3.y == 2u && m.u3.z == unsigned(k));
    assert_true(m.u4.x == 0u && m.u4.y == 1u && m.u4.z == 2u && m.u4.w == unsigned(k));
    assert_true(m.c4.x == -128 && m.c4.y == 127 && m.c4.z == -k && m.c4.w == 0);
    assert_true(m.uc4.x == 0 && m.uc4.y == 255 && m.uc4.z == k && m.uc4.w == 128);
    assert_true(m.d2.x == 0.1 * k && m.d2.y == -1e300);
}

static void test_make_vectors(void **) {
    const int threads = 100;
    check_made(make_all(5), 5); /* host code too, as with __host__ __device__ */
    float4 braced = {1.0f, 2.0f, 3.0f, 4.0f}, zero = {};
    assert_true(braced.w == 4.0f && zero.x == 0.0f && zero.w == 0.0f);
    MadeVectors *out = device_alloc<MadeVectors>(threads);
    hipLaunchKernelGGL(make_vectors_kernel, 1, threads, 0, 0, out);
    HIP_OK(hipGetLastError());
    std::vector<MadeVectors> made = download(out, threads);
    for (int k = 0; k < threads; k++) check_made(made[size_t(k)], k);
    HIP_OK(hipFree(out));
}

int main(int argc, char **argv) {
#if !UNDER_ASAN
    if (argc == 2 && strcmp(argv[1], "--overflow") == 0) {
        run_overflow();
        return 0;
    }
#else
    (void)argc;
    (void)argv;
#endif
    set_schedule(nullptr, nullptr);
    unsetenv("HIPCPU_FAIL_ALLOC");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_barrier_reverse),
        cmocka_unit_test(test_shared_isolation),
        cmocka_unit_test(test_reduction_helpers),
        cmocka_unit_test(test_registers_survive_switches),
        cmocka_unit_test(test_shuffle_full_wave),
        cmocka_unit_test(test_shuffle_widths),
        cmocka_unit_test(test_shuffle_default_width),
        cmocka_unit_test(test_ballot_any_all),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_indices),
        cmocka_unit_test(test_launch_validation),
        cmocka_unit_test(test_barrier_divergence),
        cmocka_unit_test(test_shuffle_divergence),
        cmocka_unit_test(test_missing_lane),
        cmocka_unit_test(test_other_aborts),
        cmocka_unit_test(test_settings_table),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_wave_uniform),
        cmocka_unit_test(test_alloc_failure_injection),
        cmocka_unit_test(test_memory_and_device_api),
        cmocka_unit_test(test_random_schedule),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_float4_load),
        cmocka_unit_test(test_uchar4_round_trip),
        cmocka_unit_test(test_make_vectors),
    };
    return cmocka_run_group_tests_name("executor (wave " STRINGIFY(HIPCPU_WAVE_SIZE) ")", tests, nullptr, nullptr);
}
