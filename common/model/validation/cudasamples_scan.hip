// Project "cudasamples": the exclusive prefix sum (scan) of NVIDIA's CUDA
// Samples (github.com/NVIDIA/cuda-samples, commit c94ff366aed1, BSD-3-Clause;
// Samples/2_Concepts_and_Techniques/scan/scan.cu, scan_common.h, main.cpp),
// written here from reading those files (no text copied). The three kernels of
// the sample's scanExclusiveLarge(), launched once each, in its order:
//
// - scanExclusiveShared: blocks of 256 threads, each thread one uint4 (so a
//   block scans 1024 uints): a serial scan of the thread's four values, then a
//   Hillis-Steele inclusive scan of the 256 per-thread totals in a volatile
//   shared array of 2 x 256 uints whose lower half of each segment is zeros
//   (two barriers per step, the steps 1, 2, 4, ... below the segment size),
//   turned exclusive, added back to the four values.
// - scanExclusiveShared2: one thread per 1024-element tile (blocks of 256, the
//   last one partly idle): reads the last element of the tile's input and of
//   its exclusive scan, scans those totals the same way in segments of
//   arrayLength / 1024, writes one offset per tile.
// - uniformUpdate: one block per tile, thread 0 puts the tile's offset in
//   shared memory, every thread adds it to its uint4.
//
// Size: the sample's N = 13 * 1048576 / 2 = 6,815,744 uints, at the largest
// array length its large-array loop runs and reports (MAX_LARGE_ARRAY_SIZE =
// 4 * 256 * 256 = 262,144 elements, so 26 arrays): grids of 6,656, 26 and
// 6,656 blocks. Differences: the input is an integer hash (the sample uses
// rand()); cooperative groups' block sync is __syncthreads(); the sample's
// loops over array lengths and 100 timed repetitions are not run.
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

#define BLOCK 256
#define TILE (4 * BLOCK) // uints scanned by one block of scanExclusiveShared

// Inclusive scan of one value per thread over segments of `width` threads
// (a power of two): each thread's slot is preceded by `width` zeros, so the
// step needs no bounds test.
__device__ inline uint scanInclusive1(uint v, volatile uint *buf, uint width) {
    uint slot = 2 * threadIdx.x - (threadIdx.x & (width - 1));
    buf[slot] = 0;
    slot += width;
    buf[slot] = v;
    for (uint d = 1; d < width; d <<= 1) {
        __syncthreads();
        const uint sum = buf[slot] + buf[slot - d];
        __syncthreads();
        buf[slot] = sum;
    }
    return buf[slot];
}

__device__ inline uint scanExclusive1(uint v, volatile uint *buf, uint width) {
    return scanInclusive1(v, buf, width) - v;
}

// Four values per thread: serial inclusive scan in registers, then the
// threads' totals scanned across segments of width / 4 threads.
__device__ inline uint4 scanInclusive4(uint4 q, volatile uint *buf, uint width) {
    q.y += q.x;
    q.z += q.y;
    q.w += q.z;
    const uint before = scanExclusive1(q.w, buf, width / 4);
    q.x += before;
    q.y += before;
    q.z += before;
    q.w += before;
    return q;
}

__device__ inline uint4 scanExclusive4(uint4 q, volatile uint *buf, uint width) {
    uint4 r = scanInclusive4(q, buf, width);
    r.x -= q.x;
    r.y -= q.y;
    r.z -= q.z;
    r.w -= q.w;
    return r;
}

__global__ void scanExclusiveShared(uint4 *out, uint4 *in, uint width) {
    __shared__ uint buf[2 * BLOCK];
    const uint i = blockIdx.x * blockDim.x + threadIdx.x;
    const uint4 q = in[i];
    out[i] = scanExclusive4(q, buf, width);
}

// The tiles' totals (last exclusive sum plus last input) scanned per array of
// `tilesPerArray` tiles; threads past the last tile scan a zero and store nothing.
__global__ void scanExclusiveShared2(uint *offsets, uint *scanned, uint *in, uint tileCount, uint tilesPerArray) {
    __shared__ uint buf[2 * BLOCK];
    const uint t = blockIdx.x * blockDim.x + threadIdx.x;
    uint total = 0;
    if (t < tileCount) total = scanned[(TILE - 1) + TILE * t] + in[(TILE - 1) + TILE * t];
    const uint before = scanExclusive1(total, buf, tilesPerArray);
    if (t < tileCount) offsets[t] = before;
}

__global__ void uniformUpdate(uint4 *data, uint *offsets) {
    __shared__ uint add;
    const uint i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) add = offsets[blockIdx.x];
    __syncthreads();
    uint4 q = data[i];
    q.x += add;
    q.y += add;
    q.z += add;
    q.w += add;
    data[i] = q;
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

static double maxDiff(const uint *a, const uint *b, size_t n) {
    double m = 0;
    for (size_t i = 0; i < n; i++) {
        const double d = a[i] > b[i] ? (double)(a[i] - b[i]) : (double)(b[i] - a[i]);
        if (d > m) m = d;
    }
    return m;
}

static void report(const char *kernel, double err, int *failed) {
    const int ok = err == 0.0;
    printf("check %s: max error %g (%s)\n", kernel, err, ok ? "ok" : "FAILED");
    if (!ok) *failed = 1;
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
    // --small: 3 arrays of 8,192 (8 tiles each): 24 tiles, one partly idle block
    // in scanExclusiveShared2 (the kernels take only whole tiles of 1024)
    const uint arrayLength = small ? 8192U : 4U * BLOCK * BLOCK;
    const uint n = small ? 3U * 8192U : 13U * 1048576U / 2U;
    const uint arrays = n / arrayLength;
    const uint total = arrays * arrayLength; // the elements scanned (the sample's batchSize * arrayLength)
    const uint tiles = total / TILE;
    const uint blocks2 = (tiles + BLOCK - 1) / BLOCK;

    uint *h_in = (uint *)malloc((size_t)n * sizeof(uint));
    if (!h_in) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    for (uint i = 0; i < n; i++) h_in[i] = hash32(i + 2009U);

    uint *d_in = nullptr, *d_out = nullptr, *d_offsets = nullptr;
    HIP_CHECK(hipMalloc(&d_in, (size_t)n * sizeof(uint)));
    HIP_CHECK(hipMalloc(&d_out, (size_t)n * sizeof(uint)));
    HIP_CHECK(hipMalloc(&d_offsets, (size_t)tiles * sizeof(uint)));
    HIP_CHECK(hipMemcpy(d_in, h_in, (size_t)n * sizeof(uint), hipMemcpyHostToDevice));

    uint *after1 = nullptr; // scanExclusiveShared's output, kept for --check
    scanExclusiveShared<<<tiles, BLOCK>>>((uint4 *)d_out, (uint4 *)d_in, TILE);
    HIP_CHECK(hipGetLastError());
    if (check) {
        after1 = (uint *)malloc((size_t)total * sizeof(uint));
        if (!after1) {
            fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
            return 1;
        }
        HIP_CHECK(hipMemcpy(after1, d_out, (size_t)total * sizeof(uint), hipMemcpyDeviceToHost));
    }
    scanExclusiveShared2<<<blocks2, BLOCK>>>(d_offsets, d_out, d_in, tiles, arrayLength / TILE);
    HIP_CHECK(hipGetLastError());
    uniformUpdate<<<tiles, BLOCK>>>((uint4 *)d_out, d_offsets);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    int failed = 0;
    if (check) {
        uint *ref = (uint *)malloc((size_t)total * sizeof(uint));
        uint *refOff = (uint *)malloc((size_t)tiles * sizeof(uint));
        uint *got = (uint *)malloc((size_t)total * sizeof(uint));
        if (!ref || !refOff || !got) {
            fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
            return 1;
        }
        // per tile
        for (uint t = 0; t < tiles; t++) {
            uint s = 0;
            for (uint k = 0; k < TILE; k++) {
                ref[t * TILE + k] = s;
                s += h_in[t * TILE + k];
            }
        }
        report("scanExclusiveShared", maxDiff(after1, ref, total), &failed);
        // per array: the tiles' offsets, then the whole exclusive scan
        const uint tilesPerArray = arrayLength / TILE;
        for (uint t = 0; t < tiles; t++) {
            const uint prev = t % tilesPerArray == 0 ? 0 : refOff[t - 1] + ref[t * TILE - 1] + h_in[t * TILE - 1];
            refOff[t] = prev;
        }
        HIP_CHECK(hipMemcpy(got, d_offsets, (size_t)tiles * sizeof(uint), hipMemcpyDeviceToHost));
        report("scanExclusiveShared2", maxDiff(got, refOff, tiles), &failed);
        for (uint a = 0; a < arrays; a++) {
            uint s = 0;
            for (uint k = 0; k < arrayLength; k++) {
                ref[a * arrayLength + k] = s;
                s += h_in[a * arrayLength + k];
            }
        }
        HIP_CHECK(hipMemcpy(got, d_out, (size_t)total * sizeof(uint), hipMemcpyDeviceToHost));
        report("uniformUpdate", maxDiff(got, ref, total), &failed);
        free(ref);
        free(refOff);
        free(got);
        free(after1);
    }

    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    HIP_CHECK(hipFree(d_offsets));
    free(h_in);
    printf("cudasamples_scan: 3 kernels, %u arrays of %u uints (%u tiles of %d)\n", arrays, arrayLength, tiles,
           TILE);
    return failed ? 1 : 0;
}
