// Validation programs for the time model, project "liu": the reduction kernel
// reduce2 of Xiandong Liu's "How to optimize in GPU"
// (github.com/Liu-xiandong/How_to_optimize_in_GPU, Apache-2.0, read at commit
// 5d2def3e082c4e1364c3ade54451b7b9d1d6f044:
// reduce/reduce_v2_no_bank_conflict.cu; times in reduce/README.md's tables,
// bandwidths in figure/reduce.png, both on a V100).
//
// Written here from that file (nothing copied). The project's reductions are
// the first pass of a sum of N = 32 * 1024 * 1024 floats (every file's N, and
// the size the README's times are for): each block writes one partial sum.
// Blocks of THREAD_PER_BLOCK = 256 threads. The eight versions are split over
// five programs so that each traces in about 30 s on the executor:
// liu_reduce_v0, liu_reduce_v1, liu_reduce_v2, liu_reduce_v3_v4, liu_reduce_v5_v7.
//
//   reduce2  sequential addressing: stride s = blockDim / 2 down to 1, the
//            threads tid < s adding sdata[tid + s]; N / 256 blocks
//
// Wave size: any (no warp-level code).
//
// Differences, and why:
// - The kernel is launched once, as the original main() does.
// - Inputs are hashed multiples of 1/1024 in [-1, 1] (the original: all ones).
// - --small: N = 2^18 (reduce2: 1024 blocks). The kernel needs N a multiple of
//   the elements a block takes, as in the original.
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

// reduce2: sequential addressing, stride halving from blockDim / 2.
__global__ void reduce2(float *d_in, float *d_out) {
    __shared__ float sdata[THREAD_PER_BLOCK];
    const unsigned int t = threadIdx.x;
    const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[t] = d_in[g];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) sdata[t] += sdata[t + s];
        __syncthreads();
    }
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
    const size_t out_count = n / THREAD_PER_BLOCK;

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
    const unsigned grid1 = (unsigned)(n / THREAD_PER_BLOCK);
    int good = 1;
    if (check) HIP_CHECK(hipMemset(d_out, 0xFF, out_count * sizeof(float)));
    reduce2<<<grid1, block>>>(d_in, d_out);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    if (check) {
        HIP_CHECK(hipMemcpy(h_out, d_out, grid1 * sizeof(float), hipMemcpyDeviceToHost));
        good &= report("reduce2", h_out, h_in, grid1, n / grid1);
    }

    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    free(h_in);
    free(h_out);
    printf("liu_reduce_v2: reduce2 launched once on %zu floats\n", n);
    return check && !good ? 1 : 0;
}
