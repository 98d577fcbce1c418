// PolyBench/GPU 1.0 (Grauer-Gray, Xu, Searles, Ayalasomayajula and Cavazos,
// "Auto-tuning a High-Level Language Targeted to GPU Codes", InPar 2012): the
// hand-written CUDA kernels of its GEMM and 2MM benchmarks. Repository
// github.com/sgrauerg/polybenchGpu, commit 5584aaa7d0be (2013-09-05), files
// CUDA/GEMM/gemm.cu(h) and CUDA/2MM/2mm.cu(h). The repository has no
// licence file (its README: "Copyright (c) 2012, 2013 University of Delaware"); its
// successor, PolyBench/ACC (github.com/cavazos-lab/PolyBench-ACC), is under a
// 3-clause BSD licence. Nothing is copied here: the kernels were written again
// from the originals; kernel names, launch shapes and arithmetic are theirs.
//
// All three are the naive one-thread-per-output form: blocks of
// DIM_THREAD_BLOCK 32 x 8, x along the output row (j), y down the rows (i), no
// shared memory, and each thread accumulates straight into its output element
// in global memory inside the k loop (no register accumulator, no restrict:
// the original's code shape, so a compiler keeps a store per iteration).
//   gemm_kernel   c[i][j] *= beta; c[i][j] += alpha a[i][k] b[k][j]   (k < NK)
//   mm2_kernel1   tmp[i][j] = 0;   tmp[i][j] += alpha A[i][k] B[k][j] (k < NK)
//   mm2_kernel2   D[i][j] *= beta; D[i][j] += tmp[i][k] C[k][j]       (k < NJ)
// alpha 32412 and beta 2123 (the originals' values). Grids are the
// originals': ceil(NI/32) x ceil(NJ/8) for GEMM (x sized by NI though it runs
// along NJ: square sizes here, as the originals' are), ceil(NJ/32) x
// ceil(NI/8) and ceil(NL/32) x ceil(NI/8) for 2MM's two kernels, launched one
// after the other.
//
// Sizes: GEMM at the paper's size (Table 2) and the repository's default,
// NI = NJ = NK = 512. 2MM ran at 2048 in the paper (1024 is the repository's
// default); here NI = NJ = NK = NL = 256, for the trace time (about 30 s for
// the program). --small: GEMM 75, 2MM 43 (not multiples of 32 or 8).
//
// Differences from the original: inputs from an integer hash in [0, 1)
// instead of the originals' i*j/N formulas; 2MM's tmp is zeroed by hipMemset
// first (the original copies an uninitialised host array; mm2_kernel1 zeroes
// it again); the sizes are kernel arguments used as row strides, where the
// original compiles them in as constants (nvcc's PTX of the three kernels has
// the original's loads, stores and arithmetic all the same); no timing, no
// CPU run unless --check.
#include <hip/hip_runtime.h>

#include "polybench.h" // the C headers and HIP_CHECK, shared by the PolyBench programs

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8
#define ALPHA 32412.0f
#define BETA 2123.0f

// ---------------------------------------------------------------- GEMM
__global__ void gemm_kernel(int ni, int nj, int nk, float alpha, float beta, float *a, float *b, float *c) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < ni && col < nj) {
        float *out = c + row * nj + col;
        *out *= beta;
        for (int k = 0; k < nk; k++) *out += alpha * a[row * nk + k] * b[k * nj + col];
    }
}

// ---------------------------------------------------------------- 2MM
__global__ void mm2_kernel1(int ni, int nj, int nk, int nl, float alpha, float beta, float *tmp, float *A,
                            float *B) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    (void)nl, (void)beta; // passed, unused, as in the original
    if (row < ni && col < nj) {
        float *out = tmp + row * nj + col;
        *out = 0;
        for (int k = 0; k < nk; k++) *out += alpha * A[row * nk + k] * B[k * nj + col];
    }
}

__global__ void mm2_kernel2(int ni, int nj, int nk, int nl, float alpha, float beta, float *tmp, float *C,
                            float *D) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    (void)nk, (void)alpha; // passed, unused, as in the original
    if (row < ni && col < nl) {
        float *out = D + row * nl + col;
        *out *= beta;
        for (int k = 0; k < nj; k++) *out += tmp[row * nj + k] * C[k * nl + col];
    }
}

// ---------------------------------------------------------------- host side
static uint32_t mix32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

// A value in [0, 1) with 16 bits, from a stream number and an index.
static float hash_value(uint32_t stream, uint32_t index) {
    return (float)(mix32(index * 0x9e3779b9U + stream * 0x85ebca6bU + 1U) & 0xffffU) / 65536.0f;
}

static void fill(float *v, size_t n, uint32_t stream) {
    for (size_t p = 0; p < n; ++p) v[p] = hash_value(stream, (uint32_t)p);
}

// Largest error relative to the reference (floor: 1e-2 of its largest
// magnitude). Prints the check line; returns 1 if above tol.
static int report(const char *kernel, const float *got, const double *want, size_t n, double tol) {
    double scale = 0.0, worst = 0.0;
    for (size_t p = 0; p < n; ++p) scale = fmax(scale, fabs(want[p]));
    for (size_t p = 0; p < n; ++p) {
        const double e = fabs((double)got[p] - want[p]) / fmax(fabs(want[p]), 1e-2 * scale);
        if (!(e <= worst)) worst = e; // NaN sticks and fails
    }
    const int ok = worst <= tol;
    printf("check %s: max error %.3g (%s)\n", kernel, worst, ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}

// An n x m hashed host matrix, or null.
static float *host_matrix(int n, int m, uint32_t stream) {
    float *v = (float *)malloc((size_t)n * m * sizeof(float));
    if (v) fill(v, (size_t)n * m, stream);
    return v;
}

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
    const int ng = small ? 75 : 512; // GEMM: NI = NJ = NK
    const int n2 = small ? 43 : 256; // 2MM: NI = NJ = NK = NL
    const dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
    const float alpha = ALPHA, beta = BETA;
    int failures = 0;

    // GEMM: C = beta C + alpha A B, all ng x ng.
    {
        const size_t count = (size_t)ng * ng, bytes = count * sizeof(float);
        float *hA = host_matrix(ng, ng, 21), *hB = host_matrix(ng, ng, 22), *hC = host_matrix(ng, ng, 23);
        float *got = (float *)malloc(bytes);
        if (!hA || !hB || !hC || !got) {
            fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
            return 1;
        }
        float *dA = nullptr, *dB = nullptr, *dC = nullptr;
        HIP_CHECK(hipMalloc(&dA, bytes));
        HIP_CHECK(hipMalloc(&dB, bytes));
        HIP_CHECK(hipMalloc(&dC, bytes));
        HIP_CHECK(hipMemcpy(dA, hA, bytes, hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(dB, hB, bytes, hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(dC, hC, bytes, hipMemcpyHostToDevice));
        const dim3 grid((ng + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, (ng + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y);
        gemm_kernel<<<grid, block>>>(ng, ng, ng, alpha, beta, dA, dB, dC);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
        if (check) {
            HIP_CHECK(hipMemcpy(got, dC, bytes, hipMemcpyDeviceToHost));
            double *ref = (double *)malloc(count * sizeof(double));
            if (!ref) return 1;
            for (int i = 0; i < ng; ++i)
                for (int j = 0; j < ng; ++j) {
                    double s = 0.0;
                    for (int k = 0; k < ng; ++k) s += (double)hA[(size_t)i * ng + k] * hB[(size_t)k * ng + j];
                    ref[(size_t)i * ng + j] = (double)beta * hC[(size_t)i * ng + j] + (double)alpha * s;
                }
            failures += report("gemm_kernel", got, ref, count, 1e-4);
            free(ref);
        }
        HIP_CHECK(hipFree(dA));
        HIP_CHECK(hipFree(dB));
        HIP_CHECK(hipFree(dC));
        free(hA);
        free(hB);
        free(hC);
        free(got);
    }

    // 2MM: tmp = alpha A B; D = beta D + tmp C, all n2 x n2.
    {
        const size_t count = (size_t)n2 * n2, bytes = count * sizeof(float);
        float *hA = host_matrix(n2, n2, 24), *hB = host_matrix(n2, n2, 25), *hC = host_matrix(n2, n2, 26);
        float *hD = host_matrix(n2, n2, 27), *gotT = (float *)malloc(bytes), *gotD = (float *)malloc(bytes);
        if (!hA || !hB || !hC || !hD || !gotT || !gotD) {
            fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
            return 1;
        }
        float *dA = nullptr, *dB = nullptr, *dC = nullptr, *dD = nullptr, *dT = nullptr;
        HIP_CHECK(hipMalloc(&dA, bytes));
        HIP_CHECK(hipMalloc(&dB, bytes));
        HIP_CHECK(hipMalloc(&dC, bytes));
        HIP_CHECK(hipMalloc(&dD, bytes));
        HIP_CHECK(hipMalloc(&dT, bytes));
        HIP_CHECK(hipMemcpy(dA, hA, bytes, hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(dB, hB, bytes, hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(dC, hC, bytes, hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(dD, hD, bytes, hipMemcpyHostToDevice));
        HIP_CHECK(hipMemset(dT, 0, bytes));
        const int ni = n2, nj = n2, nk = n2, nl = n2;
        const dim3 grid1((nj + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, (ni + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y);
        const dim3 grid2((nl + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, (ni + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y);
        mm2_kernel1<<<grid1, block>>>(ni, nj, nk, nl, alpha, beta, dT, dA, dB);
        HIP_CHECK(hipGetLastError());
        mm2_kernel2<<<grid2, block>>>(ni, nj, nk, nl, alpha, beta, dT, dC, dD);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
        if (check) {
            HIP_CHECK(hipMemcpy(gotT, dT, bytes, hipMemcpyDeviceToHost));
            HIP_CHECK(hipMemcpy(gotD, dD, bytes, hipMemcpyDeviceToHost));
            double *refT = (double *)malloc(count * sizeof(double)), *refD = (double *)malloc(count * sizeof(double));
            if (!refT || !refD) return 1;
            for (int i = 0; i < ni; ++i)
                for (int j = 0; j < nj; ++j) {
                    double s = 0.0;
                    for (int k = 0; k < nk; ++k) s += (double)hA[(size_t)i * nk + k] * hB[(size_t)k * nj + j];
                    refT[(size_t)i * nj + j] = (double)alpha * s;
                }
            for (int i = 0; i < ni; ++i)
                for (int j = 0; j < nl; ++j) {
                    double s = 0.0;
                    for (int k = 0; k < nj; ++k) s += refT[(size_t)i * nj + k] * hC[(size_t)k * nl + j];
                    refD[(size_t)i * nl + j] = (double)beta * hD[(size_t)i * nl + j] + s;
                }
            failures += report("mm2_kernel1", gotT, refT, count, 1e-4);
            failures += report("mm2_kernel2", gotD, refD, count, 1e-4);
            free(refT);
            free(refD);
        }
        HIP_CHECK(hipFree(dA));
        HIP_CHECK(hipFree(dB));
        HIP_CHECK(hipFree(dC));
        HIP_CHECK(hipFree(dD));
        HIP_CHECK(hipFree(dT));
        free(hA);
        free(hB);
        free(hC);
        free(hD);
        free(gotT);
        free(gotD);
    }
    printf("polybench_gemm: GEMM at %d, 2MM at %d\n", ng, n2);
    return failures ? 1 : 0;
}
