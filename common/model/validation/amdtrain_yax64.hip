// Project "amdtrain": the two yAx kernels (the scalar y^T A x, doubles) of AMD's
// HPC Training Examples rocprof-compute exercises that cannot share
// amdtrain_yax.hip (github.com/amd/HPCTrainingExamples, commit aaaa72d4dca9, MIT
// licence; rocprof-compute/2-LDSOccupancyLimit/problem.cpp and
// 4-StridedAccess/mi300a_problem/mi300a_problem.cpp, with their README.md),
// written here from reading those files (no text copied). Both originals are
// called yax; here each carries its exercise and directory:
//
// - yax_ex2_problem: each block of 64 threads first copies the first 8192
//   doubles of x (64 KiB / 8: a whole CU's LDS on the MI210) into shared
//   memory, a barrier, then a grid-stride loop over rows, one row a thread:
//   temp = sum_j A[i*m + j] * (j < 8192 ? shared[j] : x[j]), res += y[i] *
//   temp, and every thread adds res to result[0] with a double atomic. It needs
//   all 64 KiB of the executor's shared memory, so no other kernel of this
//   program may declare static shared memory (amdtrain_yax.hip has two that do).
// - yax_ex4_mi300a_problem (__launch_bounds__(256)): the row-major loop with
//   64-bit unsigned indices, then the 64 lanes' res summed by __shfl_down at
//   offsets 32, 16, 8, 4, 2, 1, and thread 0 alone adds it to result[0].
//   This assumes waves of 64 and blocks of one wave: at warps of 32 the
//   offset-32 step adds a lane's own value and thread 0 holds only the first
//   warp's sum, so its result is wrong. This program is marked wave 64.
// Both on 2048 blocks of 64 threads, as the exercises launch them.
//
// Size: the exercises use n = m = 2 << 14 = 32768 (an 8 GiB matrix), far too
// much to trace; here n = 16384 rows and m = 256 columns (32 MiB), as in
// amdtrain_yax.hip. At this size yax_ex2_problem's copy of x (64 KiB read by
// each of the 2048 blocks, 128 MiB in all) outweighs its reads of A. The
// READMEs' times on an MI210 and an MI300A are for n = m = 32768.
//
// Differences: the shared array is dynamic (extern __shared__, 65536 bytes at
// the launch) rather than a static array, since nvcc refuses more than 48 KiB
// of static shared memory; under nvcc the kernel is given that much with
// cudaFuncSetAttribute (the CUDA mapping has no hipFuncSetAttribute).
// unsafeAtomicAdd is atomicAdd (neither the executor nor the CUDA mapping has
// it). Exercise 2 indexes the matrix as A[i*n + j], which is A[i*m + j] at its
// n = m: with n != m here it reads A[i*m + j]. x has at least 8192 elements
// whatever m is, as exercise 2's copy reads them. Inputs from an integer hash
// (the exercises set every element to 1); each kernel adds into its own
// result element, zeroed first; one launch each (the exercises launch a
// warm-up and a timed launch).
#include <hip/hip_runtime.h>

#include <math.h>
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

#define LDS_FULL 8192 // 64 KiB of doubles
#define NUM_KERNELS 2

__global__ void yax_ex2_problem(double *y, double *A, double *x, int n, int m, double *result) {
    extern __shared__ double xs[];
    for (int k = threadIdx.x; k < LDS_FULL; k += blockDim.x) xs[k] = x[k];
    __syncthreads();
    double acc = 0.0;
    for (int row = blockDim.x * blockIdx.x + threadIdx.x; row < n; row += gridDim.x * blockDim.x) {
        double dot = 0.0;
        for (int col = 0; col < m; col++) dot += A[row * m + col] * (col < LDS_FULL ? xs[col] : x[col]);
        acc += y[row] * dot;
    }
    atomicAdd(&result[0], acc);
}

__global__ __launch_bounds__(256) void yax_ex4_mi300a_problem(double *y, double *A, double *x,
                                                              unsigned long long n, unsigned long long m,
                                                              double *result) {
    double acc = 0.0;
    for (unsigned long long row = blockDim.x * blockIdx.x + threadIdx.x; row < n; row += gridDim.x * blockDim.x) {
        double dot = 0.0;
        for (unsigned long long col = 0; col < m; col++) dot += A[row * m + col] * x[col];
        acc += y[row] * dot;
    }
    // The wave's 64 lanes folded into lane 0 (offsets as written for wave 64).
    acc += __shfl_down(acc, 32);
    acc += __shfl_down(acc, 16);
    acc += __shfl_down(acc, 8);
    acc += __shfl_down(acc, 4);
    acc += __shfl_down(acc, 2);
    acc += __shfl_down(acc, 1);
    if (threadIdx.x == 0) atomicAdd(&result[0], acc);
}

static uint32_t hash32(uint32_t v) {
    v ^= v >> 16;
    v *= 0x7feb352dU;
    v ^= v >> 15;
    v *= 0x846ca68bU;
    v ^= v >> 16;
    return v;
}

// A value in [0.5, 1.5) from an index and a salt.
static double input_value(uint32_t idx, uint32_t salt) {
    return 0.5 + (double)(hash32(idx * 2654435761U + salt) >> 8) / 16777216.0;
}

static int report(const char *name, double got, double want) {
    const double err = fabs(got - want) / fabs(want);
    const int ok = err <= 1e-9;
    printf("check %s: max error %.3g (%s)\n", name, err, ok ? "ok" : "FAILED");
    return ok;
}

int main(int argc, char **argv) {
    int small = 0, check = 0;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--small") == 0) small = 1;
        else if (strcmp(argv[a], "--check") == 0) check = 1;
        else {
            fprintf(stderr, "usage: %s [--small] [--check]\n", argv[0]);
            return 2;
        }
    }
    const int n = small ? 3001 : 16384;
    const int m = small ? 300 : 256;
    const int xlen = m > LDS_FULL ? m : LDS_FULL;

    const size_t asize = (size_t)n * m;
    double *hA = (double *)malloc(asize * sizeof(double));
    double *hx = (double *)malloc(xlen * sizeof(double));
    double *hy = (double *)malloc(n * sizeof(double));
    if (!hA || !hx || !hy) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    for (size_t k = 0; k < asize; k++) hA[k] = input_value((uint32_t)k, 1);
    for (int k = 0; k < xlen; k++) hx[k] = input_value((uint32_t)k, 2);
    for (int k = 0; k < n; k++) hy[k] = input_value((uint32_t)k, 3);

    double *d_A = nullptr, *d_x = nullptr, *d_y = nullptr, *d_result = nullptr;
    HIP_CHECK(hipMalloc(&d_A, asize * sizeof(double)));
    HIP_CHECK(hipMalloc(&d_x, xlen * sizeof(double)));
    HIP_CHECK(hipMalloc(&d_y, n * sizeof(double)));
    HIP_CHECK(hipMalloc(&d_result, NUM_KERNELS * sizeof(double)));
    HIP_CHECK(hipMemcpy(d_A, hA, asize * sizeof(double), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_x, hx, xlen * sizeof(double), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_y, hy, n * sizeof(double), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_result, 0, NUM_KERNELS * sizeof(double)));

    const size_t lds_bytes = LDS_FULL * sizeof(double);
#ifdef __NVCC__
    HIP_CHECK(cudaFuncSetAttribute(yax_ex2_problem, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)lds_bytes));
#endif
    const dim3 grid(2048), block(64);
    yax_ex2_problem<<<grid, block, lds_bytes>>>(d_y, d_A, d_x, n, m, d_result + 0);
    HIP_CHECK(hipGetLastError());
    yax_ex4_mi300a_problem<<<grid, block>>>(d_y, d_A, d_x, (unsigned long long)n, (unsigned long long)m,
                                            d_result + 1);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    int failed = 0;
    if (check) {
        double got[NUM_KERNELS];
        HIP_CHECK(hipMemcpy(got, d_result, sizeof(got), hipMemcpyDeviceToHost));
        double want = 0.0;
        for (int i = 0; i < n; i++) {
            double r = 0.0;
            for (int j = 0; j < m; j++) r += hA[(size_t)i * m + j] * hx[j];
            want += hy[i] * r;
        }
        failed += !report("yax_ex2_problem", got[0], want);
        failed += !report("yax_ex4_mi300a_problem", got[1], want);
    }

    HIP_CHECK(hipFree(d_A));
    HIP_CHECK(hipFree(d_x));
    HIP_CHECK(hipFree(d_y));
    HIP_CHECK(hipFree(d_result));
    free(hA);
    free(hx);
    free(hy);
    if (failed) return 1;
    printf("amdtrain_yax64: 2 yAx kernels, n = %d rows, m = %d columns\n", n, m);
    return 0;
}
