// Validation set "leimao" (six programs, leimao_gemm_*.hip): the FP32 GEMM
// kernels V00-V06 of Lei Mao's "CUDA GEMM Optimization",
// github.com/leimao/CUDA-GEMM-Optimization (MIT licence), read at commit
// 747e49b418bca18557581969c78333443055fd43 (2024-07-18). Written here from the
// repository's kernels, no code copied: the kernel names and the template
// arguments its FP32 launch functions choose, the launch shapes, tiles, loop
// structure and unrolling, vector widths, shared-memory layout, barriers,
// guards for sizes that are not tile multiples, and the alpha/beta epilogue.
//
// This program, leimao_gemm_thread_tiled_2d.hip: V04 and V04 vectorized
// (src/04_2d_block_tiling_2d_thread_tiling.cu and its
// _vectorized_memory_access.cu, the staging helper of
// include/cuda_gemm_utils.cuh, launched as launch_gemm_kernel_v04 and
// v04_vectorized<float> launch them): 128 x 128 x 16 tiles, 256 threads a
// block (1-D), each computing an 8 x 8 patch of C, grid ceil(n/128) x
// ceil(m/128). Each K step stages A's 128 x 16 tile (row-major) and B's 16 x
// 128 tile one float per thread per pass (8 passes each, in both kernels);
// per k a thread copies 8 A values (a strided column of the A tile) and 8 B
// values to registers and accumulates their outer product. V04 vectorized
// reads the B values as two float4 and updates C a float4 at a time. No
// warp-level code: any warp size.
//
// The problem as the repository's FP32 profiler sets it up
// (src/profile_cuda_gemm_fp32.cu, include/profile_utils.cuh): C = alpha A B +
// beta C in row-major floats, A m x k, B k x n, C m x n, each leading
// dimension rounded up to 16 floats. The repository publishes TFLOPS at
// M = N = K = 4096 on a GeForce RTX 3090 (README.md), a size far too slow to
// trace; this program's size is M = N = 1024, K = 256 (no argument). --small:
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
//
// 16-byte vectors: the repository moves them as int4 and reads and writes
// their lanes through a float pointer. Here they are float4, the same 16-byte
// loads and stores: the int4 punning breaks C++'s aliasing rules, and the
// executor's g++ -O2 build warned of it and got wrong sums.
//
// V04 vectorized reads C's 16-byte vector before testing row < m and
// col < n (only the store is guarded), so when m or n is not a multiple of
// 128 it reads past the m x ldc floats the repository allocates. Here C's
// allocation reaches as far as those reads (c_elements); at the validation
// size it is exactly m x ldc.
//
// The repository's staging helpers also take skew (row padding) template
// parameters, which every FP32 kernel leaves at 0; they are left out.

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

static const char *const PROGRAM = "leimao_gemm_thread_tiled_2d";
static const int NUM_KERNELS = 2;
static const size_t VAL_M = 1024, VAL_N = 1024, VAL_K = 256;
static const size_t SMALL_M = 147, SMALL_N = 133, SMALL_K = 45;
// C's allocation: m x ldc floats as the repository allocates it, or more: as
// far as the unguarded 16-byte C reads of the vectorized kernel reach when m
// or n is not a multiple of 128 (rows up to m rounded up to 128, columns up
// to n rounded up to 128).
static size_t c_elements(size_t m, size_t n, size_t ldc) {
    const size_t rows = (m + 127U) / 128U * 128U, cols = (n + 127U) / 128U * 128U;
    const size_t reach = (rows - 1U) * ldc + cols;
    return reach > m * ldc ? reach : m * ldc;
}

// One K step's tiles from global to shared memory, one float per thread per
// pass: A's TILE_Y x TILE_K tile row-major, B's TILE_K x TILE_X tile. Elements
// outside A or B are stored as 0. The passes divide evenly (asserted), so the
// shared stores are unguarded.
template <typename T, size_t TILE_X, size_t TILE_Y, size_t TILE_K, size_t NT>
__device__ void fill_tiles(T const *A, size_t lda, T const *B, size_t ldb, T a_s[TILE_Y][TILE_K],
                           T b_s[TILE_K][TILE_X], size_t kt, size_t tid, size_t m, size_t n,
                           size_t k) {
#pragma unroll
    for (size_t pass = 0U; pass < (TILE_Y * TILE_K + NT - 1U) / NT; ++pass) {
        size_t const e = tid + pass * NT;
        size_t const r = e / TILE_K, c = e % TILE_K;
        size_t const gr = blockIdx.y * TILE_Y + r, gc = kt * TILE_K + c;
        T v = static_cast<T>(0);
        if (gr < m && gc < k) v = A[gr * lda + gc];
        static_assert(TILE_Y * TILE_K % NT == 0U, "A tile splits evenly");
        a_s[r][c] = v;
    }
#pragma unroll
    for (size_t pass = 0U; pass < (TILE_K * TILE_X + NT - 1U) / NT; ++pass) {
        size_t const e = tid + pass * NT;
        size_t const r = e / TILE_X, c = e % TILE_X;
        size_t const gr = kt * TILE_K + r, gc = blockIdx.x * TILE_X + c;
        T v = static_cast<T>(0);
        if (gr < k && gc < n) v = B[gr * ldb + gc];
        static_assert(TILE_K * TILE_X % NT == 0U, "B tile splits evenly");
        b_s[r][c] = v;
    }
}

// V04: a 1-D block of 256 threads, each owning a THR_Y x THR_X patch of the
// block's 128 x 128 C tile (patch row t / 16, patch column t % 16). Per k the
// thread copies THR_Y A values (a column of the row-major A tile, strided in
// shared memory) and THR_X B values into registers, then does their outer
// product.
template <typename T, size_t TILE_X, size_t TILE_Y, size_t TILE_K, size_t THR_X, size_t THR_Y>
__global__ void gemm_v04(size_t m, size_t n, size_t k, T alpha, T const *A, size_t lda, T const *B,
                         size_t ldb, T beta, T *C, size_t ldc) {
    constexpr size_t NT = TILE_X * TILE_Y / (THR_X * THR_Y);
    constexpr size_t PATCH_COLS = TILE_X / THR_X; // patches across the C tile
    size_t const tid = threadIdx.y * blockDim.x + threadIdx.x;
    __shared__ T a_s[TILE_Y][TILE_K];
    __shared__ T b_s[TILE_K][TILE_X];
    size_t const ktiles = (k + TILE_K - 1) / TILE_K;
    T acc[THR_Y][THR_X] = {}; // all zero
    T a_r[THR_Y] = {static_cast<T>(0)};
    T b_r[THR_X] = {static_cast<T>(0)};
    for (size_t kt = 0U; kt < ktiles; ++kt) {
        fill_tiles<T, TILE_X, TILE_Y, TILE_K, NT>(A, lda, B, ldb, a_s, b_s, kt, tid, m, n, k);
        __syncthreads();
#pragma unroll
        for (size_t p = 0U; p < TILE_K; ++p) {
            size_t const r0 = tid / PATCH_COLS * THR_Y;
#pragma unroll
            for (size_t y = 0U; y < THR_Y; ++y) a_r[y] = a_s[r0 + y][p];
            size_t const c0 = tid % PATCH_COLS * THR_X;
#pragma unroll
            for (size_t x = 0U; x < THR_X; ++x) b_r[x] = b_s[p][c0 + x];
            for (size_t y = 0U; y < THR_Y; ++y)
                for (size_t x = 0U; x < THR_X; ++x) acc[y][x] += a_r[y] * b_r[x];
        }
        __syncthreads();
    }
    for (size_t y = 0U; y < THR_Y; ++y)
        for (size_t x = 0U; x < THR_X; ++x) {
            size_t const row = blockIdx.y * TILE_Y + threadIdx.x / PATCH_COLS * THR_Y + y;
            size_t const col = blockIdx.x * TILE_X + threadIdx.x % PATCH_COLS * THR_X + x;
            if (row < m && col < n)
                C[row * ldc + col] = alpha * acc[y][x] + beta * C[row * ldc + col];
        }
}

// V04 vectorized: V04 (tiles still staged one float per thread per pass) with
// the B registers filled by 16-byte shared-memory reads and C updated 4 floats
// at a time. The read of C's vector is not guarded (only the store is), so
// patches past the matrix edge read past it (see the header comment).
template <typename T, size_t TILE_X, size_t TILE_Y, size_t TILE_K, size_t THR_X, size_t THR_Y>
__global__ void gemm_v04_vectorized(size_t m, size_t n, size_t k, T alpha, T const *A, size_t lda,
                                    T const *B, size_t ldb, T beta, T *C, size_t ldc) {
    constexpr size_t NT = TILE_X * TILE_Y / (THR_X * THR_Y);
    constexpr size_t PATCH_COLS = TILE_X / THR_X;
    size_t const tid = threadIdx.y * blockDim.x + threadIdx.x;
    __shared__ T a_s[TILE_Y][TILE_K];
    __shared__ T b_s[TILE_K][TILE_X];
    size_t const ktiles = (k + TILE_K - 1) / TILE_K;
    T acc[THR_Y][THR_X] = {}; // all zero
    T a_r[THR_Y] = {static_cast<T>(0)};
    T b_r[THR_X] = {static_cast<T>(0)};
    constexpr size_t W = sizeof(float4) / sizeof(T);
    static_assert(THR_X % W == 0U, "a patch row is whole vectors");
    constexpr size_t XV = THR_X / W;
    for (size_t kt = 0U; kt < ktiles; ++kt) {
        fill_tiles<T, TILE_X, TILE_Y, TILE_K, NT>(A, lda, B, ldb, a_s, b_s, kt, tid, m, n, k);
        __syncthreads();
#pragma unroll
        for (size_t p = 0U; p < TILE_K; ++p) {
            size_t const r0 = tid / PATCH_COLS * THR_Y;
#pragma unroll
            for (size_t y = 0U; y < THR_Y; ++y) a_r[y] = a_s[r0 + y][p];
            size_t const c0 = tid % PATCH_COLS * THR_X;
#pragma unroll
            for (size_t v = 0U; v < XV; ++v)
                *reinterpret_cast<float4 *>(&b_r[v * W]) =
                    *reinterpret_cast<float4 const *>(&b_s[p][c0 + v * W]);
            for (size_t y = 0U; y < THR_Y; ++y)
                for (size_t x = 0U; x < THR_X; ++x) acc[y][x] += a_r[y] * b_r[x];
        }
        __syncthreads();
    }
    for (size_t y = 0U; y < THR_Y; ++y)
        for (size_t v = 0U; v < XV; ++v) {
            size_t const row = blockIdx.y * TILE_Y + tid / PATCH_COLS * THR_Y + y;
            size_t const col = blockIdx.x * TILE_X + tid % PATCH_COLS * THR_X + v * W;
            float4 c4 = *reinterpret_cast<float4 const *>(&C[row * ldc + col]);
            float4 const r4 = *reinterpret_cast<float4 const *>(&acc[y][v * W]);
            for (size_t i = 0U; i < W; ++i)
                reinterpret_cast<T *>(&c4)[i] = alpha * reinterpret_cast<T const *>(&r4)[i] +
                                                beta * reinterpret_cast<T const *>(&c4)[i];
            if (row < m && col < n) *reinterpret_cast<float4 *>(&C[row * ldc + col]) = c4;
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

// The launches of launch_gemm_kernel_v04 and v04_vectorized<float>: 128 x 128
// x 16 tiles, 8 x 8 elements a thread, 256 threads, grid ceil(n / 128) x
// ceil(m / 128).
static int launch_all(Gemm &g) {
    const size_t m = g.m, n = g.n, k = g.k;
    const dim3 block(128U * 128U / (8U * 8U), 1U, 1U);
    const dim3 grid(((unsigned)n + 127U) / 128U, ((unsigned)m + 127U) / 128U, 1U);

    if (reset_c(g)) return 1;
    gemm_v04<float, 128, 128, 16, 8, 8>
        <<<grid, block, 0U, 0>>>(m, n, k, g.alpha, g.dA, g.lda, g.dB, g.ldb, g.beta, g.dC, g.ldc);
    HIP_CHECK(hipGetLastError());
    if (report(g, "gemm_v04<float, 128ul, 128ul, 16ul, 8ul, 8ul>")) return 1;

    if (reset_c(g)) return 1;
    gemm_v04_vectorized<float, 128, 128, 16, 8, 8>
        <<<grid, block, 0U, 0>>>(m, n, k, g.alpha, g.dA, g.lda, g.dB, g.ldb, g.beta, g.dC, g.ldc);
    HIP_CHECK(hipGetLastError());
    if (report(g, "gemm_v04_vectorized<float, 128ul, 128ul, 16ul, 8ul, 8ul>")) return 1;
    return 0;
}
