// Validation programs for the time model, project "liu": the reduction kernels
// reduce3-4 of Xiandong Liu's "How to optimize in GPU"
// (github.com/Liu-xiandong/How_to_optimize_in_GPU, Apache-2.0, read at commit
// 5d2def3e082c4e1364c3ade54451b7b9d1d6f044:
// reduce/reduce_v3_add_during_load.cu, reduce/reduce_v4_unroll_last_warp.cu;
// times in reduce/README.md's tables, bandwidths in figure/reduce.png, both on
// a V100).
//
// Written here from those files (nothing copied). The project's reductions are
// the first pass of a sum of N = 32 * 1024 * 1024 floats (every file's N, and
// the size the README's times are for): each block writes one partial sum.
// Blocks of THREAD_PER_BLOCK = 256 threads. The eight versions are split over
// five programs so that each traces in about 30 s on the executor:
// liu_reduce_v0, liu_reduce_v1, liu_reduce_v2, liu_reduce_v3_v4, liu_reduce_v5_v7.
//
//   reduce3  reduce2 with two elements added per thread on the load (the
//            second a block further on); N / 512 blocks
//   reduce4  reduce3 with the tree stopped above stride 32 and the last 64
//            partial sums folded by warp 0 (tid < 32) without barriers, six
//            steps through volatile shared memory (warpReduce); N / 512 blocks
//
// Wave size: 32. reduce4 folds the last warp warp-synchronously (volatile
// shared memory, no barrier: lanes 0-31 in lockstep); kept as written.
//
// Differences, and why:
// - Each kernel is launched once, as each original main() does (at this size).
// - Inputs are hashed multiples of 1/1024 in [-1, 1] (the originals: all ones).
// - --small: N = 2^18 (reduce3: 512 blocks; reduce4: 512 blocks). The kernels
//   need N a multiple of the elements a block takes, as in the originals.
// - The executor runs a wave's lanes one after another between sync points, so
//   a warp-synchronous step (every lane reads, then every lane writes) would
//   read values other lanes have already overwritten. In the executor's wave-32
//   build only, each volatile step of warpReduce is split into its reads and
//   its write with a wave-wide no-op between them (LANES_IN_STEP: the
//   executor's hipcpu_wave_uniform, not counted as a shuffle): the same loads
//   and stores, in lockstep order. GPU builds get the original statements'
//   accesses with nothing between them. At the executor's wave 64 the steps are
//   left unsynchronised (a wave operation inside tid < 32 would be reached by
//   half a wave, which the executor refuses): reduce4's sums are then wrong
//   there, as on any wave that is not 32 lanes in lockstep.
#include <hip/hip_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREAD_PER_BLOCK 256

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

// One warp-synchronous step, cache[t] += cache[t + d]: both reads, then the write.
__device__ __forceinline__ void lockstep_add(volatile float *cache, unsigned int t, unsigned int d) {
    const float far = cache[t + d];
    const float sum = cache[t] + far;
    LANES_IN_STEP();
    cache[t] = sum;
    LANES_IN_STEP();
}

// reduce3: each thread adds two elements a block apart as it loads.
__global__ void reduce3(float *d_in, float *d_out) {
    __shared__ float sdata[THREAD_PER_BLOCK];
    const unsigned int t = threadIdx.x;
    const unsigned int g = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    sdata[t] = d_in[g] + d_in[g + blockDim.x];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) sdata[t] += sdata[t + s];
        __syncthreads();
    }
    if (t == 0) d_out[blockIdx.x] = sdata[0];
}

// reduce4's last warp: six steps, strides 32 to 1, no barrier.
__device__ void warpReduce(volatile float *cache, unsigned int t) {
    lockstep_add(cache, t, 32);
    lockstep_add(cache, t, 16);
    lockstep_add(cache, t, 8);
    lockstep_add(cache, t, 4);
    lockstep_add(cache, t, 2);
    lockstep_add(cache, t, 1);
}

// reduce4: reduce3 with the tree stopped above stride 32 and the rest in warp 0.
__global__ void reduce4(float *d_in, float *d_out) {
    __shared__ float sdata[THREAD_PER_BLOCK];
    const unsigned int t = threadIdx.x;
    const unsigned int g = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    sdata[t] = d_in[g] + d_in[g + blockDim.x];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (t < s) sdata[t] += sdata[t + s];
        __syncthreads();
    }
    if (t < 32) warpReduce(sdata, t);
    if (t == 0) d_out[blockIdx.x] = sdata[0];
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
    for (int v = 3; v <= 4; v++) {
        if (check) HIP_CHECK(hipMemset(d_out, 0xFF, out_count * sizeof(float)));
        unsigned blocks = 0;
        const char *name = "";
        switch (v) {
        case 3:
            reduce3<<<grid2, block>>>(d_in, d_out);
            blocks = grid2, name = "reduce3";
            break;
        default:
            reduce4<<<grid2, block>>>(d_in, d_out);
            blocks = grid2, name = "reduce4";
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
    printf("liu_reduce_v3_v4: reduce3-4 launched once each on %zu floats\n", n);
    return check && !good ? 1 : 0;
}
