/* Tests of the CPU executor (common/executor) on kernels that run to their end:
 * barriers and shared memory, callee-saved registers across switches, wave
 * operations (shuffles of every kind and width, ballot, any, all), atomics,
 * thread and block indices, and the schedules (the random one, and the
 * in-order one's determinism).
 *
 * Built by the Makefile at wave 64 and with -DHIPCPU_WAVE_SIZE=32 (WAVE=32),
 * like every tests/test_executor_*.cpp: make HIP_PLATFORM=cpu
 * build/cpu/tests/test_executor_kernels. Run from the repository root with
 * CMOCKA_MESSAGE_OUTPUT=TAP for TAP output. Tests never assume a wave size:
 * they use warpSize. */
#include <math.h>
#include <stdint.h>
#include <hip/hip_runtime.h>

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

int main(void) {
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
        cmocka_unit_test(test_random_schedule),
        cmocka_unit_test(test_determinism),
    };
    return cmocka_run_group_tests_name("executor kernels (wave " STRINGIFY(HIPCPU_WAVE_SIZE) ")", tests, nullptr, nullptr);
}
