// Validation set "leimao" (six programs, leimao_gemm_*.hip): the FP32 GEMM
// kernels V00-V06 of Lei Mao's "CUDA GEMM Optimization",
// github.com/leimao/CUDA-GEMM-Optimization (MIT licence), read at commit
// 747e49b418bca18557581969c78333443055fd43 (2024-07-18). Written here from the
// repository's kernels, no code copied: the kernel names and the template
// arguments its FP32 launch functions choose, the launch shapes, tiles, loop
// structure and unrolling, vector widths, shared-memory layout, barriers,
// guards for sizes that are not tile multiples, and the alpha/beta epilogue.
//
// This program, leimao_gemm_naive.hip: V00 and V01
// (src/00_non_coalesced_global_memory_access.cu,
// src/01_coalesced_global_memory_access.cu, launched as their
// launch_gemm_kernel_v00 and v01<float> launch them). One thread per element of
// C, 32 x 32 threads a block, each running the whole k loop from global memory
// under the guard row < m, col < n:
//   gemm_v00: threadIdx.x walks the rows of C (grid ceil(m/32) x ceil(n/32)), so
//             a warp's loads of A and accesses to C are ld floats apart;
//   gemm_v01: threadIdx.x walks the columns (grid ceil(n/32) x ceil(m/32)): a
//             warp reads one A value and 32 neighbouring B and C values.
// No warp-level code: any warp size.
//
// The problem as the repository's FP32 profiler sets it up
// (src/profile_cuda_gemm_fp32.cu, include/profile_utils.cuh): C = alpha A B +
// beta C in row-major floats, A m x k, B k x n, C m x n, each leading
// dimension rounded up to 16 floats. The repository publishes TFLOPS at
// M = N = K = 4096 on a GeForce RTX 3090 (README.md), a size far too slow to
// trace; this program's size is M = N = K = 512 (no argument). --small:
// M = 147, N = 133, K = 45, a multiple of no tile size and of no vector width.
// --check compares every kernel's C with a host reference.
//
// Differences from the repository's profiler: the inputs are integers in
// [-2, 2] from a hash (its: 0..5 from std::default_random_engine), so every
// sum is exact; padding columns hold 7 (its: whatever the allocation held);
// alpha = 1.5 and beta = -0.5 (its: 1 and 0; the kernels run the same
// instructions) so that the check sees the beta C term; C is reset before each
// kernel; each kernel is launched once (it launches each once to check against
// cuBLAS, once to warm up and once timed).

#include <hip/hip_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_));  \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

// One GEMM problem and its buffers (host side below).
struct Gemm {
    size_t m, n, k, lda, ldb, ldc, c_elems;
    float alpha, beta;
    float *dA, *dB, *dC;
    const float *hC0;  // C before each kernel
    float *hC;         // C read back (--check)
    const double *ref; // alpha A B + beta C0, m x n (--check)
    bool check;
    int failed;
};

static const char *const PROGRAM = "leimao_gemm_naive";
static const int NUM_KERNELS = 2;
static const size_t VAL_M = 512, VAL_N = 512, VAL_K = 512;
static const size_t SMALL_M = 147, SMALL_N = 133, SMALL_K = 45;
// C's allocation: m x ldc floats, as the repository allocates it.
static size_t c_elements(size_t m, size_t n, size_t ldc) { return (void)n, m * ldc; }

// V00: x indexes rows of C, y columns.
template <typename T>
__global__ void gemm_v00(size_t m, size_t n, size_t k, T alpha, T const *A, size_t lda, T const *B,
                         size_t ldb, T beta, T *C, size_t ldc) {
    size_t const row = blockIdx.x * blockDim.x + threadIdx.x;
    size_t const col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        T acc = static_cast<T>(0);
        for (size_t p = 0U; p < k; ++p) acc += A[row * lda + p] * B[p * ldb + col];
        C[row * ldc + col] = alpha * acc + beta * C[row * ldc + col];
    }
}

// V01: x indexes columns of C, y rows.
template <typename T>
__global__ void gemm_v01(size_t m, size_t n, size_t k, T alpha, T const *A, size_t lda, T const *B,
                         size_t ldb, T beta, T *C, size_t ldc) {
    size_t const col = blockIdx.x * blockDim.x + threadIdx.x;
    size_t const row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        T acc = static_cast<T>(0);
        for (size_t p = 0U; p < k; ++p) acc += A[row * lda + p] * B[p * ldb + col];
        C[row * ldc + col] = alpha * acc + beta * C[row * ldc + col];
    }
}

// ---- host side (the same in every leimao_gemm_*.hip) ----

// A small integer in [-2, 2] from a hash of (row, col, salt).
static float cell(size_t r, size_t c, unsigned salt) {
    unsigned h =
        (unsigned)r * 0x9E3779B1u ^ ((unsigned)c + 0x7F4A7C15u) * 0x85EBCA77u ^ salt * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return (float)((int)(h % 5u) - 2);
}

// rows x cols values in an array of leading dimension ld; padding columns hold 7.
static void fill(float *x, size_t rows, size_t cols, size_t ld, unsigned salt) {
    for (size_t r = 0; r < rows; ++r)
        for (size_t c = 0; c < ld; ++c) x[r * ld + c] = c < cols ? cell(r, c, salt) : 7.0f;
}

// The launch functions below run the program's kernels through these two.
// C back to its initial values before a kernel.
static int reset_c(const Gemm &g) {
    HIP_CHECK(hipMemcpy(g.dC, g.hC0, g.c_elems * sizeof(float), hipMemcpyHostToDevice));
    return 0;
}

// After a kernel: with --check, its largest error relative to max(1, |reference|).
static int report(Gemm &g, const char *name) {
    HIP_CHECK(hipDeviceSynchronize());
    if (!g.check) return 0;
    HIP_CHECK(hipMemcpy(g.hC, g.dC, g.c_elems * sizeof(float), hipMemcpyDeviceToHost));
    double worst = 0.0;
    for (size_t i = 0; i < g.m; ++i)
        for (size_t j = 0; j < g.n; ++j) {
            const double want = g.ref[i * g.n + j];
            double e = fabs((double)g.hC[i * g.ldc + j] - want) / fmax(1.0, fabs(want));
            if (!(e <= 1e30)) e = INFINITY; // NaN counts as a failure
            if (e > worst) worst = e;
        }
    const bool ok = worst <= 1e-4;
    printf("check %s: max error %.3g (%s)\n", name, worst, ok ? "ok" : "FAILED");
    if (!ok) g.failed = 1;
    return 0;
}

static int launch_all(Gemm &g);

int main(int argc, char **argv) {
    bool small = false, check = false;
    for (int a = 1; a < argc; ++a) {
        if (strcmp(argv[a], "--small") == 0)
            small = true;
        else if (strcmp(argv[a], "--check") == 0)
            check = true;
        else {
            fprintf(stderr, "usage: %s [--small] [--check]\n", argv[0]);
            return 2;
        }
    }
    Gemm g;
    g.m = small ? SMALL_M : VAL_M;
    g.n = small ? SMALL_N : VAL_N;
    g.k = small ? SMALL_K : VAL_K;
    g.lda = (g.k + 15U) / 16U * 16U; // as the repository's profiler pads them
    g.ldb = (g.n + 15U) / 16U * 16U;
    g.ldc = (g.n + 15U) / 16U * 16U;
    g.c_elems = c_elements(g.m, g.n, g.ldc);
    g.alpha = 1.5f;
    g.beta = -0.5f;
    g.check = check;
    g.failed = 0;
    const size_t m = g.m, n = g.n, k = g.k;

    float *hA = (float *)malloc(m * g.lda * sizeof(float));
    float *hB = (float *)malloc(k * g.ldb * sizeof(float));
    float *hC0 = (float *)malloc(g.c_elems * sizeof(float));
    float *hC = (float *)malloc(g.c_elems * sizeof(float));
    double *ref = check ? (double *)malloc(m * n * sizeof(double)) : nullptr;
    if (!hA || !hB || !hC0 || !hC || (check && !ref)) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    fill(hA, m, k, g.lda, 1u);
    fill(hB, k, n, g.ldb, 2u);
    for (size_t i = 0; i < g.c_elems; ++i) hC0[i] = 7.0f; // slack rows, if any
    fill(hC0, m, n, g.ldc, 3u);
    if (check)
        for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < n; ++j) {
                double s = 0.0;
                for (size_t p = 0; p < k; ++p) s += (double)hA[i * g.lda + p] * hB[p * g.ldb + j];
                ref[i * n + j] = g.alpha * s + g.beta * (double)hC0[i * g.ldc + j];
            }
    g.hC0 = hC0;
    g.hC = hC;
    g.ref = ref;

    HIP_CHECK(hipMalloc(&g.dA, m * g.lda * sizeof(float)));
    HIP_CHECK(hipMalloc(&g.dB, k * g.ldb * sizeof(float)));
    HIP_CHECK(hipMalloc(&g.dC, g.c_elems * sizeof(float)));
    HIP_CHECK(hipMemcpy(g.dA, hA, m * g.lda * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(g.dB, hB, k * g.ldb * sizeof(float), hipMemcpyHostToDevice));

    if (launch_all(g)) return 1;

    HIP_CHECK(hipFree(g.dA));
    HIP_CHECK(hipFree(g.dB));
    HIP_CHECK(hipFree(g.dC));
    free(hA);
    free(hB);
    free(hC0);
    free(hC);
    free(ref);
    if (g.failed) return 1;
    printf("%s: %d kernels, M = %zu, N = %zu, K = %zu\n", PROGRAM, NUM_KERNELS, m, n, k);
    return 0;
}

// The launches of launch_gemm_kernel_v00 and v01<float>: 32 x 32 threads, grid
// ceil(m / 32) x ceil(n / 32) for V00 (x over rows) and ceil(n / 32) x
// ceil(m / 32) for V01.
static int launch_all(Gemm &g) {
    const size_t m = g.m, n = g.n, k = g.k;
    const dim3 block(32U, 32U, 1U);

    if (reset_c(g)) return 1;
    const dim3 grid00(((unsigned)m + 31U) / 32U, ((unsigned)n + 31U) / 32U, 1U);
    gemm_v00<float>
        <<<grid00, block, 0U, 0>>>(m, n, k, g.alpha, g.dA, g.lda, g.dB, g.ldb, g.beta, g.dC, g.ldc);
    HIP_CHECK(hipGetLastError());
    if (report(g, "gemm_v00<float>")) return 1;

    if (reset_c(g)) return 1;
    const dim3 grid01(((unsigned)n + 31U) / 32U, ((unsigned)m + 31U) / 32U, 1U);
    gemm_v01<float>
        <<<grid01, block, 0U, 0>>>(m, n, k, g.alpha, g.dA, g.lda, g.dB, g.ldb, g.beta, g.dC, g.ldc);
    HIP_CHECK(hipGetLastError());
    if (report(g, "gemm_v01<float>")) return 1;
    return 0;
}
