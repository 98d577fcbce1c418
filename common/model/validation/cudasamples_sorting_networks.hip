// Project "cudasamples": the bitonic sort of NVIDIA's CUDA Samples
// (github.com/NVIDIA/cuda-samples, commit c94ff366aed1, BSD-3-Clause;
// Samples/2_Concepts_and_Techniques/sortingNetworks/bitonicSort.cu,
// sortingNetworks_common.cuh, sortingNetworks_common.h, main.cpp), written here
// from reading those files (no text copied). Key-value pairs of uints, sorted
// in the sample's direction DIR = 0; each comparator swaps a pair when
// (keyA > keyB) == dir. Shared tiles of SHARED_SIZE_LIMIT = 1024 pairs, blocks
// of 512 threads (one comparator each), a barrier before every step:
//
// - bitonicSortShared: the short-array kernel, each block sorting its 1024
//   pairs as arrays of arrayLength (launched once, at arrayLength = 1024, the
//   longest the sample gives it).
// - bitonicSortShared1: the large sort's first kernel: each 1024-pair tile
//   sorted, even tiles one way and odd tiles the other.
// - bitonicMergeGlobal: one merge step of stride >= 1024, straight from global
//   memory, blocks of 256 threads, one comparator (two pairs) per thread.
// - bitonicMergeShared: the merge steps of strides 512 down to 1 of one size,
//   in a shared tile; its comparator index uses __umul24 as in the sample.
//
// The large sort is launched exactly as the sample's bitonicSort() does for an
// array of length N: bitonicSortShared1 once, then for each size 2048, 4096,
// ..., N the global steps while stride >= 1024 and one bitonicMergeShared.
//
// Size: N = 262,144 pairs (the sample sorts 1,048,576; at that size the large
// sort is 66 launches and tracing takes several minutes on the development
// machine, so N is a quarter of it: 45 launches, 36 of them bitonicMergeGlobal,
// 8 bitonicMergeShared). Differences: the keys are an integer hash modulo
// 65,536 (the sample's rand() % 65536), the values their indices, as in the
// sample; cooperative groups' block sync is __syncthreads().
#include <hip/hip_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

typedef unsigned int uint;

#define TILE_PAIRS 1024U // SHARED_SIZE_LIMIT
#define TILE_THREADS (TILE_PAIRS / 2)
#define SORT_DIR 0U
#define KEY_RANGE 65536U

__device__ inline void Comparator(uint &ka, uint &va, uint &kb, uint &vb, uint dir) {
    if ((ka > kb) == dir) {
        uint t = ka;
        ka = kb;
        kb = t;
        t = va;
        va = vb;
        vb = t;
    }
}

// A block's 1024 pairs into shared memory (two per thread, half a tile apart), and back.
#define LOAD_TILE(sk, sv, gk, gv)                                                                  \
    do {                                                                                           \
        sk[threadIdx.x] = gk[0];                                                                   \
        sv[threadIdx.x] = gv[0];                                                                   \
        sk[threadIdx.x + TILE_PAIRS / 2] = gk[TILE_PAIRS / 2];                                     \
        sv[threadIdx.x + TILE_PAIRS / 2] = gv[TILE_PAIRS / 2];                                     \
    } while (0)
#define STORE_TILE(gk, gv, sk, sv)                                                                 \
    do {                                                                                           \
        gk[0] = sk[threadIdx.x];                                                                   \
        gv[0] = sv[threadIdx.x];                                                                   \
        gk[TILE_PAIRS / 2] = sk[threadIdx.x + TILE_PAIRS / 2];                                     \
        gv[TILE_PAIRS / 2] = sv[threadIdx.x + TILE_PAIRS / 2];                                     \
    } while (0)

__global__ void bitonicSortShared(uint *dstKey, uint *dstVal, uint *srcKey, uint *srcVal, uint arrayLength, uint dir) {
    __shared__ uint sk[TILE_PAIRS];
    __shared__ uint sv[TILE_PAIRS];
    const uint base = blockIdx.x * TILE_PAIRS + threadIdx.x;
    srcKey += base;
    srcVal += base;
    dstKey += base;
    dstVal += base;
    LOAD_TILE(sk, sv, srcKey, srcVal);

    for (uint size = 2; size < arrayLength; size <<= 1) {
        const uint d = dir ^ ((threadIdx.x & (size / 2)) != 0);
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            const uint p = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
            Comparator(sk[p], sv[p], sk[p + stride], sv[p + stride], d);
        }
    }
    // the last merge runs in the requested direction
    for (uint stride = arrayLength / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        const uint p = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
        Comparator(sk[p], sv[p], sk[p + stride], sv[p + stride], dir);
    }
    __syncthreads();
    STORE_TILE(dstKey, dstVal, sk, sv);
}

__global__ void bitonicSortShared1(uint *dstKey, uint *dstVal, uint *srcKey, uint *srcVal) {
    __shared__ uint sk[TILE_PAIRS];
    __shared__ uint sv[TILE_PAIRS];
    const uint base = blockIdx.x * TILE_PAIRS + threadIdx.x;
    srcKey += base;
    srcVal += base;
    dstKey += base;
    dstVal += base;
    LOAD_TILE(sk, sv, srcKey, srcVal);

    for (uint size = 2; size < TILE_PAIRS; size <<= 1) {
        const uint d = (threadIdx.x & (size / 2)) != 0;
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            const uint p = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
            Comparator(sk[p], sv[p], sk[p + stride], sv[p + stride], d);
        }
    }
    // neighbouring tiles end up sorted in opposite directions
    const uint d = blockIdx.x & 1;
    for (uint stride = TILE_PAIRS / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        const uint p = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
        Comparator(sk[p], sv[p], sk[p + stride], sv[p + stride], d);
    }
    __syncthreads();
    STORE_TILE(dstKey, dstVal, sk, sv);
}

__global__ void bitonicMergeGlobal(uint *dstKey, uint *dstVal, uint *srcKey, uint *srcVal, uint arrayLength,
                                   uint size, uint stride, uint dir) {
    const uint c = blockIdx.x * blockDim.x + threadIdx.x;
    const uint inArray = c & (arrayLength / 2 - 1);
    const uint d = dir ^ ((inArray & (size / 2)) != 0);
    const uint p = 2 * c - (c & (stride - 1));

    uint ka = srcKey[p], va = srcVal[p];
    uint kb = srcKey[p + stride], vb = srcVal[p + stride];
    Comparator(ka, va, kb, vb, d);
    dstKey[p] = ka;
    dstVal[p] = va;
    dstKey[p + stride] = kb;
    dstVal[p + stride] = vb;
}

__global__ void bitonicMergeShared(uint *dstKey, uint *dstVal, uint *srcKey, uint *srcVal, uint arrayLength, uint size,
                                   uint dir) {
    __shared__ uint sk[TILE_PAIRS];
    __shared__ uint sv[TILE_PAIRS];
    const uint base = blockIdx.x * TILE_PAIRS + threadIdx.x;
    srcKey += base;
    srcVal += base;
    dstKey += base;
    dstVal += base;
    LOAD_TILE(sk, sv, srcKey, srcVal);

    const uint inArray = (__umul24(blockIdx.x, blockDim.x) + threadIdx.x) & (arrayLength / 2 - 1);
    const uint d = dir ^ ((inArray & (size / 2)) != 0);
    for (uint stride = TILE_PAIRS / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        const uint p = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
        Comparator(sk[p], sv[p], sk[p + stride], sv[p + stride], d);
    }
    __syncthreads();
    STORE_TILE(dstKey, dstVal, sk, sv);
}

// ---- host --------------------------------------------------------------------

static uint32_t hash32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

static void hostCompare(uint *k, uint *v, uint a, uint b, uint dir) {
    if ((k[a] > k[b]) == dir) {
        uint t = k[a];
        k[a] = k[b];
        k[b] = t;
        t = v[a];
        v[a] = v[b];
        v[b] = t;
    }
}

// One step of the network over all n/2 comparators: comparator c works on
// 2c - (c & (stride - 1)) and stride further; its direction is given by dirOf.
enum DirRule { DIR_MERGE, DIR_SHARED1_SORT, DIR_SHARED1_LAST, DIR_FIXED };
static void hostStep(uint *k, uint *v, uint n, uint arrayLength, uint size, uint stride, uint dir, DirRule rule) {
    for (uint c = 0; c < n / 2; c++) {
        uint d = dir;
        const uint local = c % TILE_THREADS; // a block's thread index
        if (rule == DIR_MERGE) d = dir ^ (((c & (arrayLength / 2 - 1)) & (size / 2)) != 0);
        if (rule == DIR_SHARED1_SORT) d = (local & (size / 2)) != 0;
        if (rule == DIR_SHARED1_LAST) d = (c / TILE_THREADS) & 1;
        if (rule == DIR_FIXED) d = dir ^ ((local & (size / 2)) != 0);
        const uint p = 2 * c - (c & (stride - 1));
        hostCompare(k, v, p, p + stride, d);
    }
}

static double diffPairs(const uint *gk, const uint *gv, const uint *k, const uint *v, uint n) {
    double m = 0;
    for (uint i = 0; i < n; i++) {
        const double a = gk[i] > k[i] ? gk[i] - k[i] : k[i] - gk[i];
        const double b = gv[i] > v[i] ? gv[i] - v[i] : v[i] - gv[i];
        if (a > m) m = a;
        if (b > m) m = b;
    }
    return m;
}

int main(int argc, char **argv) {
    int small = 0, check = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--small"))
            small = 1;
        else if (!strcmp(argv[i], "--check"))
            check = 1;
        else {
            fprintf(stderr, "usage: %s [--small] [--check]\n", argv[0]);
            return 2;
        }
    }
    // power-of-two lengths only; --small: 8 tiles, so 3 sizes of global and shared merges
    const uint N = small ? 8U * TILE_PAIRS : 262144U;
    const size_t bytes = (size_t)N * sizeof(uint);

    uint *h_key = (uint *)malloc(bytes), *h_val = (uint *)malloc(bytes);
    if (!h_key || !h_val) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    for (uint i = 0; i < N; i++) {
        h_key[i] = hash32(i + 2001U) % KEY_RANGE;
        h_val[i] = i;
    }

    uint *d_inKey = nullptr, *d_inVal = nullptr, *d_outKey = nullptr, *d_outVal = nullptr;
    HIP_CHECK(hipMalloc(&d_inKey, bytes));
    HIP_CHECK(hipMalloc(&d_inVal, bytes));
    HIP_CHECK(hipMalloc(&d_outKey, bytes));
    HIP_CHECK(hipMalloc(&d_outVal, bytes));
    HIP_CHECK(hipMemcpy(d_inKey, h_key, bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_inVal, h_val, bytes, hipMemcpyHostToDevice));

    // --check: the host runs each launch's steps on its own copy and compares
    // the device's pairs after every launch, the worst difference per kernel
    uint *rk = nullptr, *rv = nullptr, *gk = nullptr, *gv = nullptr;
    double err[4] = {0, 0, 0, 0}; // bitonicSortShared, bitonicSortShared1, bitonicMergeGlobal, bitonicMergeShared
    if (check) {
        rk = (uint *)malloc(bytes);
        rv = (uint *)malloc(bytes);
        gk = (uint *)malloc(bytes);
        gv = (uint *)malloc(bytes);
        if (!rk || !rv || !gk || !gv) {
            fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
            return 1;
        }
    }
#define COMPARE_AFTER(slot)                                                                        \
    do {                                                                                           \
        if (check) {                                                                               \
            HIP_CHECK(hipMemcpy(gk, d_outKey, bytes, hipMemcpyDeviceToHost));                       \
            HIP_CHECK(hipMemcpy(gv, d_outVal, bytes, hipMemcpyDeviceToHost));                       \
            const double e_ = diffPairs(gk, gv, rk, rv, N);                                        \
            if (e_ > err[slot]) err[slot] = e_;                                                    \
        }                                                                                          \
    } while (0)

    const uint tiles = N / TILE_PAIRS;

    // the short-array kernel: N / 1024 arrays of 1024
    bitonicSortShared<<<tiles, TILE_THREADS>>>(d_outKey, d_outVal, d_inKey, d_inVal, TILE_PAIRS, SORT_DIR);
    HIP_CHECK(hipGetLastError());
    if (check) {
        memcpy(rk, h_key, bytes);
        memcpy(rv, h_val, bytes);
        for (uint size = 2; size < TILE_PAIRS; size <<= 1)
            for (uint stride = size / 2; stride > 0; stride >>= 1)
                hostStep(rk, rv, N, TILE_PAIRS, size, stride, SORT_DIR, DIR_FIXED);
        for (uint stride = TILE_PAIRS / 2; stride > 0; stride >>= 1)
            hostStep(rk, rv, N, TILE_PAIRS, 0, stride, SORT_DIR, DIR_FIXED);
    }
    COMPARE_AFTER(0);

    // the large sort of one array of N, as bitonicSort() launches it
    bitonicSortShared1<<<tiles, TILE_THREADS>>>(d_outKey, d_outVal, d_inKey, d_inVal);
    HIP_CHECK(hipGetLastError());
    if (check) {
        memcpy(rk, h_key, bytes);
        memcpy(rv, h_val, bytes);
        for (uint size = 2; size < TILE_PAIRS; size <<= 1)
            for (uint stride = size / 2; stride > 0; stride >>= 1)
                hostStep(rk, rv, N, N, size, stride, SORT_DIR, DIR_SHARED1_SORT);
        for (uint stride = TILE_PAIRS / 2; stride > 0; stride >>= 1)
            hostStep(rk, rv, N, N, 0, stride, SORT_DIR, DIR_SHARED1_LAST);
    }
    COMPARE_AFTER(1);
    int launches = 2;
    for (uint size = 2 * TILE_PAIRS; size <= N; size <<= 1)
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            if (stride >= TILE_PAIRS) {
                bitonicMergeGlobal<<<N / 512, 256>>>(d_outKey, d_outVal, d_outKey, d_outVal, N, size, stride, SORT_DIR);
                HIP_CHECK(hipGetLastError());
                launches++;
                if (check) hostStep(rk, rv, N, N, size, stride, SORT_DIR, DIR_MERGE);
                COMPARE_AFTER(2);
            } else {
                bitonicMergeShared<<<tiles, TILE_THREADS>>>(d_outKey, d_outVal, d_outKey, d_outVal, N, size, SORT_DIR);
                HIP_CHECK(hipGetLastError());
                launches++;
                if (check)
                    for (uint s = TILE_PAIRS / 2; s > 0; s >>= 1) hostStep(rk, rv, N, N, size, s, SORT_DIR, DIR_MERGE);
                COMPARE_AFTER(3);
                break;
            }
        }
    HIP_CHECK(hipDeviceSynchronize());

    int failed = 0;
    if (check) {
        // the host network itself must have sorted: descending keys (DIR = 0),
        // each value the index of its own key
        int sorted = 1;
        for (uint i = 0; i < N; i++) {
            if (i + 1 < N && rk[i] < rk[i + 1]) sorted = 0;
            if (rv[i] >= N || h_key[rv[i]] != rk[i]) sorted = 0;
        }
        if (!sorted) {
            printf("check: the host's reference network did not sort (FAILED)\n");
            failed = 1;
        }
        const char *names[4] = {"bitonicSortShared", "bitonicSortShared1", "bitonicMergeGlobal", "bitonicMergeShared"};
        for (int s = 0; s < 4; s++) {
            const int ok = err[s] == 0.0;
            printf("check %s: max error %g (%s)\n", names[s], err[s], ok ? "ok" : "FAILED");
            if (!ok) failed = 1;
        }
        free(rk);
        free(rv);
        free(gk);
        free(gv);
    }

    HIP_CHECK(hipFree(d_inKey));
    HIP_CHECK(hipFree(d_inVal));
    HIP_CHECK(hipFree(d_outKey));
    HIP_CHECK(hipFree(d_outVal));
    free(h_key);
    free(h_val);
    printf("cudasamples_sorting_networks: %u pairs, 1 short-array launch and %d launches of the large sort\n", N,
           launches - 1);
    return failed ? 1 : 0;
}
