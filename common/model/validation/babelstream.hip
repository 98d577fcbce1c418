// Validation set "nvidia-babelstream" (NVIDIA Ampere, an A100-SXM4-40GB): the
// six kernels of BabelStream 5.0's CUDA implementation (University of Bristol,
// github.com/UoB-HPC/BabelStream, src/cuda/CUDAStream.cu), as the Argonne
// Leadership Computing Facility's beginners' guide runs and profiles it on a
// Polaris node (github.com/argonne-lcf/ALCFBeginnersGuide, polaris/02_profiling.md):
// arrays of 2^25 doubles (268.4 MB each, BabelStream's default), blocks of
// TBSIZE = 1024 threads, one element per thread for init, copy, mul, add and
// triad (a grid of 2^25 / 1024 blocks), and dot's 432 blocks of 1024 threads
// ("Reduction kernel config: 432 groups of (fixed) size 1024": 4 per SM of the
// A100's 108) striding over the arrays. The guide's Nsight Systems summary
// gives each kernel's average time over its 100 launches (init: one).
//
// Written here from BabelStream's description of its kernels: init writes the
// three arrays, copy c = a, mul b = scalar * c, add c = a + b, triad
// a = b + scalar * c (scalar 0.4), dot sums a[i] * b[i] per block in shared
// memory and writes one partial sum per block. Kernel names and template
// parameter are BabelStream's. Differences: each kernel is launched once; the
// arrays are not copied back or checked.
//
// Usage: babelstream [--small] [--check]: --small runs arrays of 450 x 1024
// doubles, --check compares each kernel's output with a host reference.
#include <hip/hip_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE 33554432 // 2^25
// --small: a multiple of TBSIZE (init ... triad have no bounds check), more
// than dot's 432 x 1024 threads, so some of them make two trips.
#define SMALL_ARRAY_SIZE (450 * TBSIZE)
#define TBSIZE 1024
#define DOT_NUM_BLOCKS 432 // the A100's 108 SMs x 4
#define START_SCALAR 0.4

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

template <typename T> __global__ void init_kernel(T *a, T *b, T *c, T initA, T initB, T initC) {
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    a[i] = initA;
    b[i] = initB;
    c[i] = initC;
}

template <typename T> __global__ void copy_kernel(const T *a, T *c) {
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    c[i] = a[i];
}

template <typename T> __global__ void mul_kernel(T *b, const T *c) {
    const T scalar = START_SCALAR;
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    b[i] = scalar * c[i];
}

template <typename T> __global__ void add_kernel(const T *a, const T *b, T *c) {
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    c[i] = a[i] + b[i];
}

template <typename T> __global__ void triad_kernel(T *a, const T *b, const T *c) {
    const T scalar = START_SCALAR;
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    a[i] = b[i] + scalar * c[i];
}

// Each thread sums a[i] * b[i] over a stride of the whole grid into its shared
// slot; a tree halves the slots (a barrier before each step); thread 0 writes
// the block's partial sum (the host adds the 432).
template <typename T> __global__ void dot_kernel(const T *a, const T *b, T *sum, int array_size) {
    __shared__ T tb_sum[TBSIZE];
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    const size_t local_i = threadIdx.x;
    tb_sum[local_i] = 0;
    for (; i < array_size; i += blockDim.x * gridDim.x) tb_sum[local_i] += a[i] * b[i];
    for (int offset = blockDim.x / 2; offset > 0; offset /= 2) {
        __syncthreads();
        if (local_i < (size_t)offset) tb_sum[local_i] += tb_sum[local_i + offset];
    }
    if (local_i == 0) sum[blockIdx.x] = tb_sum[local_i];
}

// --check's inputs: a small integer hash, as values in [-1, 1) that are multiples of 1/512.
static unsigned hash32(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}
static double pattern(size_t i, unsigned seed) {
    return ((int)(hash32((unsigned)i * 4U + seed) & 1023U) - 512) / 512.0;
}

// The largest |got - want| over n values, relative to the largest |want| (at least 1); NaN counts as infinite.
static double max_error(const double *got, const double *want, size_t n) {
    double err = 0.0, scale = 1.0;
    for (size_t i = 0; i < n; i++) {
        double d = got[i] - want[i];
        d = d != d ? 1e300 : d < 0 ? -d : d;
        if (d > err) err = d;
        if (want[i] > scale) scale = want[i];
        if (-want[i] > scale) scale = -want[i];
    }
    return err / scale;
}

// One "check" line; returns 1 if the error is over the tolerance.
static int report(const char *kernel, double err) {
    const int bad = !(err <= 1e-12);
    printf("check %s: max error %.3g (%s)\n", kernel, err, bad ? "FAILED" : "ok");
    return bad;
}

// --check: the host's copy of the three arrays, each from the hash.
static void fill(double *a, double *b, double *c, int n) {
    for (int i = 0; i < n; i++) {
        a[i] = pattern(i, 1U);
        b[i] = pattern(i, 2U);
        c[i] = pattern(i, 3U);
    }
}

int main(int argc, char **argv) {
    int small = 0, check = 0;
    for (int arg = 1; arg < argc; arg++) {
        if (!strcmp(argv[arg], "--small"))
            small = 1;
        else if (!strcmp(argv[arg], "--check"))
            check = 1;
        else {
            fprintf(stderr, "usage: babelstream [--small] [--check]\n");
            return 2;
        }
    }
    const int n = small ? SMALL_ARRAY_SIZE : ARRAY_SIZE;
    const size_t bytes = (size_t)n * sizeof(double);
    double *a = nullptr, *b = nullptr, *c = nullptr, *sum = nullptr;
    HIP_CHECK(hipMalloc(&a, bytes));
    HIP_CHECK(hipMalloc(&b, bytes));
    HIP_CHECK(hipMalloc(&c, bytes));
    HIP_CHECK(hipMalloc(&sum, DOT_NUM_BLOCKS * sizeof(double)));
    // --check: the arrays hold the hash before each kernel's reference is
    // computed; the host follows the kernels from there.
    double *ha = nullptr, *hb = nullptr, *hc = nullptr, *hsum = nullptr, *got = nullptr;
    int failed = 0;
    if (check) {
        ha = (double *)malloc(bytes);
        hb = (double *)malloc(bytes);
        hc = (double *)malloc(bytes);
        hsum = (double *)calloc(DOT_NUM_BLOCKS, sizeof(double));
        got = (double *)malloc(bytes);
        if (!ha || !hb || !hc || !hsum || !got) {
            fprintf(stderr, "babelstream: out of host memory\n");
            return 1;
        }
        fill(ha, hb, hc, n); // so that a point init misses shows
        HIP_CHECK(hipMemcpy(a, ha, bytes, hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(b, hb, bytes, hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(c, hc, bytes, hipMemcpyHostToDevice));
    }
    const dim3 grid(n / TBSIZE), block(TBSIZE);
    hipLaunchKernelGGL(init_kernel<double>, grid, block, 0, 0, a, b, c, 0.1, 0.2, 0.0);
    HIP_CHECK(hipGetLastError());
    if (check) {
        double err = 0.0;
        const double *const arrays[3] = {a, b, c};
        const double inits[3] = {0.1, 0.2, 0.0};
        for (int k = 0; k < 3; k++) {
            for (int i = 0; i < n; i++) hc[i] = inits[k];
            HIP_CHECK(hipMemcpy(got, arrays[k], bytes, hipMemcpyDeviceToHost));
            const double e = max_error(got, hc, n);
            if (e > err) err = e;
        }
        failed |= report("init_kernel<double>", err);
        fill(ha, hb, hc, n);
        HIP_CHECK(hipMemcpy(a, ha, bytes, hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(b, hb, bytes, hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(c, hc, bytes, hipMemcpyHostToDevice));
    }
    hipLaunchKernelGGL(copy_kernel<double>, grid, block, 0, 0, a, c);
    HIP_CHECK(hipGetLastError());
    if (check) {
        for (int i = 0; i < n; i++) hc[i] = ha[i];
        HIP_CHECK(hipMemcpy(got, c, bytes, hipMemcpyDeviceToHost));
        failed |= report("copy_kernel<double>", max_error(got, hc, n));
    }
    hipLaunchKernelGGL(mul_kernel<double>, grid, block, 0, 0, b, c);
    HIP_CHECK(hipGetLastError());
    if (check) {
        for (int i = 0; i < n; i++) hb[i] = START_SCALAR * hc[i];
        HIP_CHECK(hipMemcpy(got, b, bytes, hipMemcpyDeviceToHost));
        failed |= report("mul_kernel<double>", max_error(got, hb, n));
    }
    hipLaunchKernelGGL(add_kernel<double>, grid, block, 0, 0, a, b, c);
    HIP_CHECK(hipGetLastError());
    if (check) {
        for (int i = 0; i < n; i++) hc[i] = ha[i] + hb[i];
        HIP_CHECK(hipMemcpy(got, c, bytes, hipMemcpyDeviceToHost));
        failed |= report("add_kernel<double>", max_error(got, hc, n));
    }
    hipLaunchKernelGGL(triad_kernel<double>, grid, block, 0, 0, a, b, c);
    HIP_CHECK(hipGetLastError());
    if (check) {
        for (int i = 0; i < n; i++) ha[i] = hb[i] + START_SCALAR * hc[i];
        HIP_CHECK(hipMemcpy(got, a, bytes, hipMemcpyDeviceToHost));
        failed |= report("triad_kernel<double>", max_error(got, ha, n));
    }
    hipLaunchKernelGGL(dot_kernel<double>, dim3(DOT_NUM_BLOCKS), block, 0, 0, a, b, sum, n);
    HIP_CHECK(hipGetLastError());
    if (check) {
        // Block k's partial sum: the products at every index whose place in the grid's stride falls in k.
        for (int i = 0; i < n; i++) hsum[i % (TBSIZE * DOT_NUM_BLOCKS) / TBSIZE] += ha[i] * hb[i];
        HIP_CHECK(hipMemcpy(got, sum, DOT_NUM_BLOCKS * sizeof(double), hipMemcpyDeviceToHost));
        failed |= report("dot_kernel<double>", max_error(got, hsum, DOT_NUM_BLOCKS));
    }
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(a));
    HIP_CHECK(hipFree(b));
    HIP_CHECK(hipFree(c));
    HIP_CHECK(hipFree(sum));
    free(ha);
    free(hb);
    free(hc);
    free(hsum);
    free(got);
    printf("babelstream: 6 kernels launched once each on 3 arrays of %d doubles\n", n);
    return failed;
}
