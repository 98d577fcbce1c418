// Validation programs for the time model, project "liu": the reduction kernels
// reduce5-7 of Xiandong Liu's "How to optimize in GPU"
// (github.com/Liu-xiandong/How_to_optimize_in_GPU, Apache-2.0, read at commit
// 5d2def3e082c4e1364c3ade54451b7b9d1d6f044:
// reduce/reduce_v5_completely_unroll.cu, reduce/reduce_v6_multi_add.cu,
// reduce/reduce_v7_shuffle.cu; times in reduce/README.md's tables, bandwidths
// in figure/reduce.png, both on a V100).
//
// Written here from those files (nothing copied). The project's reductions are
// the first pass of a sum of N = 32 * 1024 * 1024 floats (every file's N, and
// the size the README's times are for): each block writes one partial sum.
// Blocks of THREAD_PER_BLOCK = 256 threads. The eight versions are split over
// five programs so that each traces in about 30 s on the executor:
// liu_reduce_v0, liu_reduce_v1, liu_reduce_v2, liu_reduce_v3_v4, liu_reduce_v5_v7.
//
//   reduce5<256>       reduce4 with the tree unrolled on the template block
//            size (steps for 256, 128, 64, then the warp); N / 512 blocks
//   reduce6<256, 128>  1024 blocks, each thread adding NUM_PER_THREAD = 128
//            elements 256 apart straight into its shared slot, then reduce5's
//            tree; the unused parameter n is N
//   reduce7<256, 128>  1024 blocks, 128 elements a thread into a register,
//            a __shfl_down sum within each warp of 32 (offsets 16 to 1), one
//            shared slot per warp (warpLevelSums[32]), a barrier, then warp 0
//            folds the 8 warp sums with three more shuffles (offsets 4, 2, 1)
// reduce/README.md's reduce6 and reduce7 listings are another form (a
// grid-stride loop over pairs of elements; it says 2048 blocks did better than
// 512, 1024 and 4096); this program follows the .cu files (1024 blocks of 128
// elements a thread). Which form the README's times and the figure measured
// is not said.
//
// Wave size: 32. reduce5 and reduce6 fold the last warp warp-synchronously
// (volatile shared memory, no barrier: lanes 0-31 in lockstep); reduce7
// shuffles from offset 16 in warps of 32 (WARP_SIZE 32, laneId = tid % 32);
// kept as written.
//
// Differences, and why:
// - Each kernel is launched once, as each original main() does (reduce7's
//   main() 2000 times).
// - Inputs are hashed multiples of 1/1024 in [-1, 1] (the originals: all ones
//   for reduce5, i % 456 for reduce6-7).
// - --small: N = 2^18 (reduce5: 512 blocks; reduce6: 8 blocks of the same 128
//   elements a thread; reduce7: 8 blocks of the same 128 elements a thread).
//   The kernels need N a multiple of the elements a block takes, as in the
//   originals.
// - The executor runs a wave's lanes one after another between sync points, so
//   a warp-synchronous step (every lane reads, then every lane writes) would
//   read values other lanes have already overwritten. In the executor's wave-32
//   build only, each volatile step of warpReduce is split into its reads and
//   its write with a wave-wide no-op between them (LANES_IN_STEP: the
//   executor's hipcpu_wave_uniform, not counted as a shuffle): the same loads
//   and stores, in lockstep order. GPU builds get the original statements'
//   accesses with nothing between them. At the executor's wave 64 the steps are
//   left unsynchronised (a wave operation inside tid < 32 would be reached by
//   half a wave, which the executor refuses): reduce5's and reduce6's sums are
//   then wrong there, as on any wave that is not 32 lanes in lockstep.
// - __shfl_down_sync(0xffffffff, v, d) is HIP's __shfl_down(v, d);
//   warpLevelSums is `__shared__`, not `static __shared__` (the same for a
//   variable in a kernel; the executor's __shared__ already says static).
// - reduce7's final fold is inside `if (warpId == 0)`; the executor aborts
//   when half a wave reaches a shuffle, so at its wave 64 only the fold runs
//   on the whole first wave (warps 0 and 1 of 32, warp 1's lanes holding 0;
//   FOLDING_WARP). GPU builds and the executor's wave 32 run the original branch.
#include <hip/hip_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREAD_PER_BLOCK 256
#define WARP_SIZE 32
#define NUM_PER_THREAD_V67 128 // (32M / 1024 blocks) / 256 threads
#define BLOCKS_V67 1024

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

// The executor at wave 32: all lanes of the warp meet here (see the header).
#if defined(HIPCPU_WAVE_SIZE) && HIPCPU_WAVE_SIZE == 32
#define LANES_IN_STEP() ((void)hipcpu_wave_uniform(0))
#else
#define LANES_IN_STEP() ((void)0)
#endif
// reduce7's final fold: warp 0, or at the executor's wave 64 the first wave.
#if defined(HIPCPU_WAVE_SIZE) && HIPCPU_WAVE_SIZE == 64
#define FOLDING_WARP(w) ((w) < 2)
#else
#define FOLDING_WARP(w) ((w) == 0)
#endif


// One warp-synchronous step, cache[t] += cache[t + d]: both reads, then the write.
__device__ __forceinline__ void lockstep_add(volatile float *cache, unsigned int t, unsigned int d) {
    const float far = cache[t + d];
    const float sum = cache[t] + far;
    LANES_IN_STEP();
    cache[t] = sum;
    LANES_IN_STEP();
}

// The last warp for reduce5 and reduce6: the steps the block size needs.
template <unsigned int blockSize> __device__ void warpReduce(volatile float *cache, unsigned int t) {
    if (blockSize >= 64) lockstep_add(cache, t, 32);
    if (blockSize >= 32) lockstep_add(cache, t, 16);
    if (blockSize >= 16) lockstep_add(cache, t, 8);
    if (blockSize >= 8) lockstep_add(cache, t, 4);
    if (blockSize >= 4) lockstep_add(cache, t, 2);
    if (blockSize >= 2) lockstep_add(cache, t, 1);
}

// reduce5: reduce4 with the tree written out per block size.
template <unsigned int blockSize> __global__ void reduce5(float *d_in, float *d_out) {
    __shared__ float sdata[THREAD_PER_BLOCK];
    const unsigned int t = threadIdx.x;
    const unsigned int g = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    sdata[t] = d_in[g] + d_in[g + blockDim.x];
    __syncthreads();
    if (blockSize >= 512) {
        if (t < 256) sdata[t] += sdata[t + 256];
        __syncthreads();
    }
    if (blockSize >= 256) {
        if (t < 128) sdata[t] += sdata[t + 128];
        __syncthreads();
    }
    if (blockSize >= 128) {
        if (t < 64) sdata[t] += sdata[t + 64];
        __syncthreads();
    }
    if (t < 32) warpReduce<blockSize>(sdata, t);
    if (t == 0) d_out[blockIdx.x] = sdata[0];
}

// reduce6: NUM_PER_THREAD elements a thread, blockSize apart, summed into its
// shared slot; then reduce5's tree.
template <unsigned int blockSize, int NUM_PER_THREAD>
__global__ void reduce6(float *d_in, float *d_out, unsigned int n) {
    __shared__ float sdata[blockSize];
    const unsigned int t = threadIdx.x;
    const unsigned int g = blockIdx.x * (blockSize * NUM_PER_THREAD) + threadIdx.x;
    sdata[t] = 0;
#pragma unroll
    for (int k = 0; k < NUM_PER_THREAD; k++) sdata[t] += d_in[g + k * blockSize];
    __syncthreads();
    if (blockSize >= 512) {
        if (t < 256) sdata[t] += sdata[t + 256];
        __syncthreads();
    }
    if (blockSize >= 256) {
        if (t < 128) sdata[t] += sdata[t + 128];
        __syncthreads();
    }
    if (blockSize >= 128) {
        if (t < 64) sdata[t] += sdata[t + 64];
        __syncthreads();
    }
    if (t < 32) warpReduce<blockSize>(sdata, t);
    if (t == 0) d_out[blockIdx.x] = sdata[0];
    (void)n; // unused, as in the original
}

// A warp's sum by shuffles, the offsets a group of `width` lanes needs.
template <unsigned int width> __device__ __forceinline__ float warpReduceSum(float v) {
    if (width >= 32) v += __shfl_down(v, 16);
    if (width >= 16) v += __shfl_down(v, 8);
    if (width >= 8) v += __shfl_down(v, 4);
    if (width >= 4) v += __shfl_down(v, 2);
    if (width >= 2) v += __shfl_down(v, 1);
    return v;
}

// reduce7: NUM_PER_THREAD elements a thread in a register, a shuffle sum per
// warp, one shared slot per warp, and warp 0 folds the warps' sums.
template <unsigned int blockSize, int NUM_PER_THREAD>
__global__ void reduce7(float *d_in, float *d_out, unsigned int n) {
    float sum = 0;
    const unsigned int t = threadIdx.x;
    const unsigned int g = blockIdx.x * (blockSize * NUM_PER_THREAD) + threadIdx.x;
#pragma unroll
    for (int k = 0; k < NUM_PER_THREAD; k++) sum += d_in[g + k * blockSize];

    __shared__ float warpLevelSums[WARP_SIZE];
    const int laneId = threadIdx.x % WARP_SIZE;
    const int warpId = threadIdx.x / WARP_SIZE;
    sum = warpReduceSum<blockSize>(sum);
    if (laneId == 0) warpLevelSums[warpId] = sum;
    __syncthreads();
    sum = (threadIdx.x < blockDim.x / WARP_SIZE) ? warpLevelSums[laneId] : 0;
    if (FOLDING_WARP(warpId)) sum = warpReduceSum<blockSize / WARP_SIZE>(sum);
    if (t == 0) d_out[blockIdx.x] = sum;
    (void)n; // unused, as in the original
}

static unsigned hash32(unsigned v) {
    v ^= v >> 16;
    v *= 0x7feb352du;
    v ^= v >> 15;
    v *= 0x846ca68bu;
    v ^= v >> 16;
    return v;
}

// Compares `blocks` partial sums, each of `chunk` consecutive inputs, with a
// host sum in double; the error is relative to the chunk's sum of |x| (at least 1).
static int report(const char *kernel, const float *out, const float *in, size_t blocks, size_t chunk) {
    double worst = 0.0;
    for (size_t b = 0; b < blocks; b++) {
        double ref = 0.0, mag = 0.0;
        for (size_t i = b * chunk; i < (b + 1) * chunk; i++) {
            ref += in[i];
            mag += fabs(in[i]);
        }
        const double err = fabs((double)out[b] - ref) / fmax(mag, 1.0);
        if (!(err <= worst)) worst = err; // NaN counts as the worst
    }
    const int ok = worst <= 1e-5;
    printf("check %s: max error %g (%s)\n", kernel, worst, ok ? "ok" : "FAILED");
    return ok;
}

int main(int argc, char **argv) {
    int small = 0, check = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--small")) small = 1;
        else if (!strcmp(argv[i], "--check")) check = 1;
        else {
            fprintf(stderr, "usage: %s [--small] [--check]\n", argv[0]);
            return 2;
        }
    }
    const size_t n = small ? (size_t)1 << 18 : (size_t)32 * 1024 * 1024;
    const size_t per_block_v67 = (size_t)THREAD_PER_BLOCK * NUM_PER_THREAD_V67;
    const unsigned blocks_v67 = small ? (unsigned)(n / per_block_v67) : BLOCKS_V67;
    const size_t out_count = n / (2 * THREAD_PER_BLOCK);

    float *h_in = (float *)malloc(n * sizeof(float)), *h_out = (float *)malloc(out_count * sizeof(float));
    if (!h_in || !h_out) {
        fprintf(stderr, "%s:%d: malloc failed\n", __FILE__, __LINE__);
        return 1;
    }
    for (size_t i = 0; i < n; i++) h_in[i] = (float)((int)(hash32((unsigned)i) % 2049u) - 1024) / 1024.0f;

    float *d_in = nullptr, *d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_out, out_count * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_in, h_in, n * sizeof(float), hipMemcpyHostToDevice));

    const dim3 block(THREAD_PER_BLOCK);
    const unsigned grid2 = (unsigned)(n / (2 * THREAD_PER_BLOCK));
    int good = 1;
    for (int v = 5; v <= 7; v++) {
        if (check) HIP_CHECK(hipMemset(d_out, 0xFF, out_count * sizeof(float)));
        unsigned blocks = 0;
        const char *name = "";
        switch (v) {
        case 5:
            reduce5<THREAD_PER_BLOCK><<<grid2, block>>>(d_in, d_out);
            blocks = grid2, name = "reduce5<256>";
            break;
        case 6:
            reduce6<THREAD_PER_BLOCK, NUM_PER_THREAD_V67><<<blocks_v67, block>>>(d_in, d_out, (unsigned)n);
            blocks = blocks_v67, name = "reduce6<256, 128>";
            break;
        default:
            reduce7<THREAD_PER_BLOCK, NUM_PER_THREAD_V67><<<blocks_v67, block>>>(d_in, d_out, (unsigned)n);
            blocks = blocks_v67, name = "reduce7<256, 128>";
            break;
        }
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
        if (check) {
            HIP_CHECK(hipMemcpy(h_out, d_out, blocks * sizeof(float), hipMemcpyDeviceToHost));
            good &= report(name, h_out, h_in, blocks, n / blocks);
        }
    }

    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    free(h_in);
    free(h_out);
    printf("liu_reduce_v5_v7: reduce5-7 launched once each on %zu floats\n", n);
    return check && !good ? 1 : 0;
}
