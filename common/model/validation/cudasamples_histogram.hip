// Project "cudasamples": the 64-bin and 256-bin byte histograms of NVIDIA's CUDA
// Samples (github.com/NVIDIA/cuda-samples, commit c94ff366aed1, BSD-3-Clause;
// Samples/2_Concepts_and_Techniques/histogram/histogram64.cu, histogram256.cu,
// histogram_common.h, main.cpp), written here from reading those files (no text
// copied). Four kernels, launched as the sample's histogram64() and
// histogram256() launch them, once each:
//
// - histogram64Kernel: blocks of 64 threads, one private histogram of 64 byte
//   counters per thread in a 64 x 64 byte shared array (a thread's column is its
//   index with bits [5:4] and [3:0] swapped, so a half-warp's counters sit in
//   16 banks); the data read as uint4, the top 6 bits of each byte counted; the
//   grid is ceil(bytes / (64 threads x 240 bytes)) so that no counter passes
//   255; the 64 first threads then add up a bin's 64 counters, each starting
//   at its own 4-byte column, and write one partial histogram per block.
// - mergeHistogram64Kernel: 64 blocks (one per bin) of 256 threads add that bin
//   over the partial histograms, then a shared-memory tree.
// - histogram256Kernel: 240 blocks of 192 threads (6 warps of 32), one shared
//   sub-histogram of 256 uint counters per warp of 32 (threadIdx.x >> 5), each
//   byte of each 32-bit word counted by a shared-memory atomicAdd; the block's
//   six sub-histograms summed into one partial histogram per block.
// - mergeHistogram256Kernel: 256 blocks (one per bin) of 256 threads, as above.
//
// Size: the sample's default, 64 MiB of bytes (byteCount = 64 * 1048576).
// Differences: the input bytes come from an integer hash (the sample fills them
// with rand() % 256); cooperative groups' block sync is __syncthreads(); the
// histogram256 tag argument, which the sample computes but never uses, is left
// out. The sub-histogram per 32 threads is kept at any wave size (the atomics
// make it correct whatever the wave is).
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
typedef unsigned char uchar;

#define BINS64 64
#define BINS256 256
#define LOG2_WARP 5U
#define BANKS 16
#define H64_THREADS (4 * BANKS)       // 64
#define WARPS_PER_BLOCK 6
#define H256_THREADS (WARPS_PER_BLOCK * (1U << LOG2_WARP)) // 192
#define H256_SHARED_WORDS (WARPS_PER_BLOCK * BINS256)     // 1536
#define MERGE_THREADS 256
#define H256_PARTIALS 240
#define H64_BYTES_PER_THREAD 240 // 255 rounded down to a multiple of sizeof(uint4)

// ---- 64 bins -----------------------------------------------------------------

// One byte's bin (its top 6 bits) counted in this thread's column.
__device__ inline void count64(uchar *column, uint bin) { column[bin * H64_THREADS]++; }

__device__ inline void count64Word(uchar *column, uint w) {
    count64(column, (w >> 2) & 0x3FU);
    count64(column, (w >> 10) & 0x3FU);
    count64(column, (w >> 18) & 0x3FU);
    count64(column, (w >> 26) & 0x3FU);
}

__global__ void histogram64Kernel(uint *partials, uint4 *words, uint wordCount) {
    // this thread's column: bits [5:4] and [3:0] of its index swapped
    const uint col = (threadIdx.x & ~(uint)(BANKS * 4 - 1)) | ((threadIdx.x & (BANKS - 1)) << 2) |
                     ((threadIdx.x & (BANKS * 3)) >> 4);
    __shared__ uchar hist[H64_THREADS * BINS64];
    uchar *mine = hist + col;

    // zero the 4 KiB as 32-bit words, 16 per thread
#pragma unroll
    for (uint r = 0; r < BINS64 / 4; r++) ((uint *)hist)[threadIdx.x + r * H64_THREADS] = 0;
    __syncthreads();

    for (uint p = blockIdx.x * blockDim.x + threadIdx.x; p < wordCount; p += blockDim.x * gridDim.x) {
        const uint4 v = words[p];
        count64Word(mine, v.x);
        count64Word(mine, v.y);
        count64Word(mine, v.z);
        count64Word(mine, v.w);
    }
    __syncthreads();

    if (threadIdx.x < BINS64) {
        const uchar *row = hist + threadIdx.x * H64_THREADS;
        uint total = 0;
        uint at = 4 * (threadIdx.x & (BANKS - 1)); // staggered start: no bank conflicts
#pragma unroll
        for (uint r = 0; r < H64_THREADS / 4; r++) {
            total += row[at + 0] + row[at + 1] + row[at + 2] + row[at + 3];
            at = (at + 4) & (H64_THREADS - 1);
        }
        partials[blockIdx.x * BINS64 + threadIdx.x] = total;
    }
}

// One block per bin: a strided sum over the partial histograms, then a tree.
__global__ void mergeHistogram64Kernel(uint *result, uint *partials, uint partialCount) {
    __shared__ uint acc[MERGE_THREADS];
    uint s = 0;
    for (uint h = threadIdx.x; h < partialCount; h += MERGE_THREADS) s += partials[blockIdx.x + h * BINS64];
    acc[threadIdx.x] = s;
    for (uint half = MERGE_THREADS / 2; half > 0; half >>= 1) {
        __syncthreads();
        if (threadIdx.x < half) acc[threadIdx.x] += acc[threadIdx.x + half];
    }
    if (threadIdx.x == 0) result[blockIdx.x] = acc[0];
}

// ---- 256 bins ----------------------------------------------------------------

__device__ inline void count256Word(uint *sub, uint w) {
    atomicAdd(sub + ((w >> 0) & 0xFFU), 1);
    atomicAdd(sub + ((w >> 8) & 0xFFU), 1);
    atomicAdd(sub + ((w >> 16) & 0xFFU), 1);
    atomicAdd(sub + ((w >> 24) & 0xFFU), 1);
}

__global__ void histogram256Kernel(uint *partials, uint *words, uint wordCount) {
    __shared__ uint hist[H256_SHARED_WORDS];
    uint *sub = hist + (threadIdx.x >> LOG2_WARP) * BINS256; // this warp's sub-histogram

#pragma unroll
    for (uint r = 0; r < H256_SHARED_WORDS / H256_THREADS; r++) hist[threadIdx.x + r * H256_THREADS] = 0;
    __syncthreads();

    for (uint p = blockIdx.x * blockDim.x + threadIdx.x; p < wordCount; p += blockDim.x * gridDim.x)
        count256Word(sub, words[p]);
    __syncthreads();

    for (uint bin = threadIdx.x; bin < BINS256; bin += H256_THREADS) {
        uint total = 0;
        for (uint w = 0; w < WARPS_PER_BLOCK; w++) total += hist[bin + w * BINS256] & 0xFFFFFFFFU;
        partials[blockIdx.x * BINS256 + bin] = total;
    }
}

__global__ void mergeHistogram256Kernel(uint *result, uint *partials, uint partialCount) {
    uint s = 0;
    for (uint h = threadIdx.x; h < partialCount; h += MERGE_THREADS) s += partials[blockIdx.x + h * BINS256];
    __shared__ uint acc[MERGE_THREADS];
    acc[threadIdx.x] = s;
    for (uint half = MERGE_THREADS / 2; half > 0; half >>= 1) {
        __syncthreads();
        if (threadIdx.x < half) acc[threadIdx.x] += acc[threadIdx.x + half];
    }
    if (threadIdx.x == 0) result[blockIdx.x] = acc[0];
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

static int report(const char *kernel, double err, int *failed) {
    const int ok = err == 0.0;
    printf("check %s: max error %g (%s)\n", kernel, err, ok ? "ok" : "FAILED");
    if (!ok) *failed = 1;
    return ok;
}

static double maxDiff(const uint *a, const uint *b, size_t n) {
    double m = 0;
    for (size_t i = 0; i < n; i++) {
        const double d = a[i] > b[i] ? (double)(a[i] - b[i]) : (double)(b[i] - a[i]);
        if (d > m) m = d;
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
    // --small: 12,345 uint4 words, not a multiple of a block's 64 x 15 words
    const uint byteCount = small ? 16U * 12345U : 64U * 1048576U;
    const uint words16 = byteCount / 16, words4 = byteCount / 4;
    const uint blockBytes64 = H64_THREADS * H64_BYTES_PER_THREAD;
    const uint partials64 = (byteCount + blockBytes64 - 1) / blockBytes64;

    uint *h_data = (uint *)malloc(byteCount);
    if (!h_data) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    for (uint i = 0; i < words4; i++) h_data[i] = hash32(i * 2654435761U + 12345U);

    uint *d_data = nullptr, *d_partials64 = nullptr, *d_partials256 = nullptr, *d_hist64 = nullptr,
         *d_hist256 = nullptr;
    HIP_CHECK(hipMalloc(&d_data, byteCount));
    HIP_CHECK(hipMalloc(&d_partials64, (size_t)partials64 * BINS64 * sizeof(uint)));
    HIP_CHECK(hipMalloc(&d_partials256, (size_t)H256_PARTIALS * BINS256 * sizeof(uint)));
    HIP_CHECK(hipMalloc(&d_hist64, BINS64 * sizeof(uint)));
    HIP_CHECK(hipMalloc(&d_hist256, BINS256 * sizeof(uint)));
    HIP_CHECK(hipMemcpy(d_data, h_data, byteCount, hipMemcpyHostToDevice));

    histogram64Kernel<<<partials64, H64_THREADS>>>(d_partials64, (uint4 *)d_data, words16);
    HIP_CHECK(hipGetLastError());
    mergeHistogram64Kernel<<<BINS64, MERGE_THREADS>>>(d_hist64, d_partials64, partials64);
    HIP_CHECK(hipGetLastError());
    histogram256Kernel<<<H256_PARTIALS, H256_THREADS>>>(d_partials256, d_data, words4);
    HIP_CHECK(hipGetLastError());
    mergeHistogram256Kernel<<<BINS256, MERGE_THREADS>>>(d_hist256, d_partials256, H256_PARTIALS);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    int failed = 0;
    if (check) {
        const size_t n64 = (size_t)partials64 * BINS64, n256 = (size_t)H256_PARTIALS * BINS256;
        uint *got = (uint *)malloc((n64 > n256 ? n64 : n256) * sizeof(uint));
        uint *ref64 = (uint *)calloc(n64, sizeof(uint)), *ref256 = (uint *)calloc(n256, sizeof(uint));
        uint tot64[BINS64] = {0}, tot256[BINS256] = {0};
        if (!got || !ref64 || !ref256) {
            fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
            return 1;
        }
        // the block that reads word p of a grid-strided loop: (p mod threads) / block
        const uint threads64 = partials64 * H64_THREADS, threads256 = H256_PARTIALS * H256_THREADS;
        for (uint w = 0; w < words4; w++) {
            const uint b64 = ((w / 4) % threads64) / H64_THREADS, b256 = (w % threads256) / H256_THREADS;
            for (int k = 0; k < 4; k++) {
                const uint byte = (h_data[w] >> (8 * k)) & 0xFFU;
                ref64[(size_t)b64 * BINS64 + (byte >> 2)]++;
                ref256[(size_t)b256 * BINS256 + byte]++;
                tot64[byte >> 2]++;
                tot256[byte]++;
            }
        }
        HIP_CHECK(hipMemcpy(got, d_partials64, n64 * sizeof(uint), hipMemcpyDeviceToHost));
        report("histogram64Kernel", maxDiff(got, ref64, n64), &failed);
        HIP_CHECK(hipMemcpy(got, d_hist64, BINS64 * sizeof(uint), hipMemcpyDeviceToHost));
        report("mergeHistogram64Kernel", maxDiff(got, tot64, BINS64), &failed);
        HIP_CHECK(hipMemcpy(got, d_partials256, n256 * sizeof(uint), hipMemcpyDeviceToHost));
        report("histogram256Kernel", maxDiff(got, ref256, n256), &failed);
        HIP_CHECK(hipMemcpy(got, d_hist256, BINS256 * sizeof(uint), hipMemcpyDeviceToHost));
        report("mergeHistogram256Kernel", maxDiff(got, tot256, BINS256), &failed);
        free(got);
        free(ref64);
        free(ref256);
    }

    HIP_CHECK(hipFree(d_data));
    HIP_CHECK(hipFree(d_partials64));
    HIP_CHECK(hipFree(d_partials256));
    HIP_CHECK(hipFree(d_hist64));
    HIP_CHECK(hipFree(d_hist256));
    free(h_data);
    printf("cudasamples_histogram: 4 kernels on %u bytes (%u partial 64-bin histograms, %d of 256 bins)\n",
           byteCount, partials64, H256_PARTIALS);
    return failed ? 1 : 0;
}
