// Project "amdtrain": six of the yAx kernels (the scalar y^T A x, doubles) of
// AMD's HPC Training Examples, rocprof-compute exercises 1-5
// (github.com/amd/HPCTrainingExamples, commit aaaa72d4dca9, MIT licence;
// rocprof-compute/1-LaunchParameters ... 5-AlgorithmicOptimizations, problem.cpp
// and solution*/solution.cpp, with each exercise's README.md), written here from
// reading those files (no text copied). Every original kernel is called yax; a
// program needs distinct names, so each carries its exercise and directory:
//
// - yax_ex1_problem (1-LaunchParameters/problem.cpp): a grid-stride loop over
//   rows, one row a thread, temp = sum_j A[i*m + j] * x[j] (row-major A, so a
//   wave's lanes read rows m doubles apart), res += y[i] * temp, then every
//   thread adds its res to result[0] with a double atomic. Launched as the
//   problem launches it: 4 blocks of 64 threads.
// - yax_ex1_solution (1-LaunchParameters/solution): the same kernel on
//   2048 blocks of 64 threads (also exercise 2's solution-no-lds and
//   exercise 4's problem, the latter with __launch_bounds__(256)).
// - yax_ex2_solution (2-LDSOccupancyLimit/solution): the first 256 doubles of
//   x (64 KiB / 8 / 32) copied to a static shared array by the block, a
//   barrier, then the loop reads x[j] from shared memory for j < 256.
// - yax_ex3_solution (3-RegisterOccupancyLimit/solution, __launch_bounds__(256)):
//   each thread first copies x[0..95] into a private array of 96 doubles
//   (registers on a GPU), then the row loop in two parts, j < 96 from that
//   array and j >= 96 from x.
// - yax_ex4_solution (4-StridedAccess/solution, also 5's problem,
//   __launch_bounds__(256)): A read as A[j*n + i], so a wave's lanes read
//   consecutive doubles.
// - yax_ex5_solution (5-AlgorithmicOptimizations/solution,
//   __launch_bounds__(256)): one block per row (grid-stride over rows by
//   block), the block's threads stride over the row's columns, each adds its
//   partial sum to a shared double with an atomic, thread 0 multiplies it by
//   y[i]; after the rows thread 0 adds it to result[0].
// All on 2048 blocks of 64 threads but the first, as the exercises launch them.
//
// Size: the exercises use n = m = 2 << 14 = 32768 (an 8 GiB matrix), far too
// much to trace; here n = 16384 rows (256 of the 2048 blocks have rows, one
// row a thread; 512 do at the exercises' size) and m = 256 columns (a 32 MiB
// matrix). At this size every thread's atomic on result[0] (131072 of them)
// weighs far more than at the exercises' size, and exercise 2's solution
// finds all of x in its shared copy. The READMEs' rocprof-compute times on
// an MI210 and an MI300A are for n = m = 32768.
//
// Differences: unsafeAtomicAdd is atomicAdd (the executor and the CUDA mapping
// have no unsafeAtomicAdd);
// exercises 2 and 3 index the matrix as A[i*n + j], which is A[i*m + j] at
// their n = m: with n != m here they read A[i*m + j]; the inputs come from an
// integer hash (the exercises set every element to 1); each kernel adds into
// its own result element, zeroed first (the exercises launch twice, a warm-up
// and a timed launch, resetting result[0] between); exercise 5's solution gets
// three __syncthreads() (after res = 0, after the atomics of a row, after the
// multiply): the original relies on its 64-thread block being one wavefront,
// whose lanes go in lockstep, and races at warps of 32 and on the executor.
// What it computes in lockstep, per block, res = (res + the row's sum) * y[i]
// over the block's rows (y^T A x only when y is all ones, as in the exercise),
// the barriers keep at any wave size.
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

#define LDS_PART 256      // exercise 2's solution: 64 KiB / sizeof(double) / 32
#define REG_ARRAY 96      // exercise 3's register array
#define NUM_KERNELS 6

// ---- Exercise 1: launch parameters ---------------------------------------------

__global__ void yax_ex1_problem(double *y, double *A, double *x, int n, int m, double *result) {
    double acc = 0.0;
    for (int row = blockDim.x * blockIdx.x + threadIdx.x; row < n; row += gridDim.x * blockDim.x) {
        double dot = 0.0;
        for (int col = 0; col < m; col++) dot += A[row * m + col] * x[col];
        acc += y[row] * dot;
    }
    atomicAdd(&result[0], acc);
}

__global__ void yax_ex1_solution(double *y, double *A, double *x, int n, int m, double *result) {
    double acc = 0.0;
    for (int row = blockDim.x * blockIdx.x + threadIdx.x; row < n; row += gridDim.x * blockDim.x) {
        double dot = 0.0;
        for (int col = 0; col < m; col++) dot += A[row * m + col] * x[col];
        acc += y[row] * dot;
    }
    atomicAdd(&result[0], acc);
}

// ---- Exercise 2: a smaller shared-memory copy of x ------------------------------

__global__ void yax_ex2_solution(double *y, double *A, double *x, int n, int m, double *result) {
    __shared__ double xs[LDS_PART];
    for (int k = threadIdx.x; k < LDS_PART; k += blockDim.x) xs[k] = x[k];
    __syncthreads();
    double acc = 0.0;
    for (int row = blockDim.x * blockIdx.x + threadIdx.x; row < n; row += gridDim.x * blockDim.x) {
        double dot = 0.0;
        for (int col = 0; col < m; col++) dot += A[row * m + col] * (col < LDS_PART ? xs[col] : x[col]);
        acc += y[row] * dot;
    }
    atomicAdd(&result[0], acc);
}

// ---- Exercise 3: x's head in a per-thread array --------------------------------

__global__ __launch_bounds__(256) void yax_ex3_solution(double *y, double *A, double *x, int n, int m,
                                                        double *result) {
    double xr[REG_ARRAY];
    for (int k = 0; k < REG_ARRAY; k += 1) xr[k] = x[k];
    double acc = 0.0;
    for (int row = blockDim.x * blockIdx.x + threadIdx.x; row < n; row += gridDim.x * blockDim.x) {
        double dot = 0.0;
        for (int col = 0; col < REG_ARRAY; col++) dot += A[row * m + col] * xr[col];
        for (int col = REG_ARRAY; col < m; col++) dot += A[row * m + col] * x[col];
        acc += y[row] * dot;
    }
    atomicAdd(&result[0], acc);
}

// ---- Exercise 4: the matrix stored by columns -----------------------------------

__global__ __launch_bounds__(256) void yax_ex4_solution(double *y, double *A, double *x, int n, int m,
                                                        double *result) {
    double acc = 0.0;
    for (int row = blockDim.x * blockIdx.x + threadIdx.x; row < n; row += gridDim.x * blockDim.x) {
        double dot = 0.0;
        for (int col = 0; col < m; col++) dot += A[col * n + row] * x[col];
        acc += y[row] * dot;
    }
    atomicAdd(&result[0], acc);
}

// ---- Exercise 5: a block per row ------------------------------------------------

__global__ __launch_bounds__(256) void yax_ex5_solution(double *y, double *A, double *x, int n, int m,
                                                        double *result) {
    __shared__ double blockAcc;
    if (threadIdx.x == 0) blockAcc = 0;
    __syncthreads(); // added: see the header
    for (int row = blockIdx.x; row < n; row += gridDim.x) {
        double part = 0.0;
        for (int col = threadIdx.x; col < m; col += blockDim.x) part += A[row * m + col] * x[col];
        atomicAdd(&blockAcc, part);
        __syncthreads(); // added
        if (threadIdx.x == 0) blockAcc *= y[row];
        __syncthreads(); // added
    }
    if (threadIdx.x == 0) atomicAdd(&result[0], blockAcc);
}

// ---- Host -----------------------------------------------------------------------

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
    const int xlen = m > LDS_PART ? m : LDS_PART; // exercise 2 copies x[0..255] whatever m is

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

    const dim3 block(64);
    yax_ex1_problem<<<dim3(4), block>>>(d_y, d_A, d_x, n, m, d_result + 0);
    HIP_CHECK(hipGetLastError());
    yax_ex1_solution<<<dim3(2048), block>>>(d_y, d_A, d_x, n, m, d_result + 1);
    HIP_CHECK(hipGetLastError());
    yax_ex2_solution<<<dim3(2048), block>>>(d_y, d_A, d_x, n, m, d_result + 2);
    HIP_CHECK(hipGetLastError());
    yax_ex3_solution<<<dim3(2048), block>>>(d_y, d_A, d_x, n, m, d_result + 3);
    HIP_CHECK(hipGetLastError());
    yax_ex4_solution<<<dim3(2048), block>>>(d_y, d_A, d_x, n, m, d_result + 4);
    HIP_CHECK(hipGetLastError());
    yax_ex5_solution<<<dim3(2048), block>>>(d_y, d_A, d_x, n, m, d_result + 5);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    int failed = 0;
    if (check) {
        double got[NUM_KERNELS];
        HIP_CHECK(hipMemcpy(got, d_result, sizeof(got), hipMemcpyDeviceToHost));
        // y^T A x with A by rows (exercises 1-3) and by columns (exercise 4).
        double by_rows = 0.0, by_cols = 0.0;
        for (int i = 0; i < n; i++) {
            double r = 0.0, c = 0.0;
            for (int j = 0; j < m; j++) {
                r += hA[(size_t)i * m + j] * hx[j];
                c += hA[(size_t)j * n + i] * hx[j];
            }
            by_rows += hy[i] * r;
            by_cols += hy[i] * c;
        }
        // Exercise 5: per block, acc = (acc + row sum) * y[row] over the block's rows.
        double ex5 = 0.0;
        for (int b = 0; b < 2048; b++) {
            double acc = 0.0;
            for (int i = b; i < n; i += 2048) {
                double r = 0.0;
                for (int j = 0; j < m; j++) r += hA[(size_t)i * m + j] * hx[j];
                acc = (acc + r) * hy[i];
            }
            ex5 += acc;
        }
        failed += !report("yax_ex1_problem", got[0], by_rows);
        failed += !report("yax_ex1_solution", got[1], by_rows);
        failed += !report("yax_ex2_solution", got[2], by_rows);
        failed += !report("yax_ex3_solution", got[3], by_rows);
        failed += !report("yax_ex4_solution", got[4], by_cols);
        failed += !report("yax_ex5_solution", got[5], ex5);
    }

    HIP_CHECK(hipFree(d_A));
    HIP_CHECK(hipFree(d_x));
    HIP_CHECK(hipFree(d_y));
    HIP_CHECK(hipFree(d_result));
    free(hA);
    free(hx);
    free(hy);
    if (failed) return 1;
    printf("amdtrain_yax: 6 yAx kernels, n = %d rows, m = %d columns\n", n, m);
    return 0;
}
