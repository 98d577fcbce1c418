// PolyBench/GPU 1.0 (Grauer-Gray, Xu, Searles, Ayalasomayajula and Cavazos,
// "Auto-tuning a High-Level Language Targeted to GPU Codes", InPar 2012): the
// hand-written CUDA kernels of its SYRK and SYR2K benchmarks. Repository
// github.com/sgrauerg/polybenchGpu, commit 5584aaa7d0be (2013-09-05), files
// CUDA/SYRK/syrk.cu(h) and CUDA/SYR2K/syr2k.cu(h). The repository has no
// licence file (its README: "Copyright (c) 2012, 2013 University of Delaware"); its
// successor, PolyBench/ACC (github.com/cavazos-lab/PolyBench-ACC), is under a
// 3-clause BSD licence. Nothing is copied here: the kernels were written again
// from the originals; kernel names, launch shapes and arithmetic are theirs.
//
// Both are the naive one-thread-per-output form: blocks of DIM_THREAD_BLOCK
// 32 x 8, x along the output row (j), y down the rows (i), no shared memory,
// and each thread accumulates straight into its output element in global
// memory inside the k loop (no register accumulator, no restrict: the
// original's code shape, so a compiler keeps a store per iteration). Every
// output element of the NI x NI matrix is computed (both triangles).
//   syrk_kernel   c[i][j] *= beta; c[i][j] += alpha a[i][k] a[j][k]   (k < NJ)
//   syr2k_kernel  c[i][j] *= beta;
//                 c[i][j] += alpha a[i][k] b[j][k] + alpha b[i][k] a[j][k]
// alpha 32412 and beta 2123 (the originals' values). Grid: ceil(NI/32) x
// ceil(NI/8) for both.
//
// Sizes: the paper (Table 2) ran SYRK at 1024 and SYR2K at 2048 (the
// repository's defaults: 1024 for both); here NI = NJ = 384 for both, for
// the trace time (about 30 s for the program). --small: NI = 75, NJ = 61 (not
// multiples of 32 or 8).
//
// Differences from the original: inputs from an integer hash in [0, 1)
// instead of the originals' i*j/N formulas; the sizes are kernel arguments
// used as row strides and bounds, where the original compiles them in as
// constants (SYR2K's bounds are compile-time NI and NJ). nvcc's PTX for both
// kernels has the original's loads, stores and arithmetic per k; the one
// difference is syr2k_kernel's k loop, unrolled by 4 plus a remainder here
// where the original's compile-time trip count lets nvcc unroll by 8. No
// timing, no CPU run unless --check.
#include <hip/hip_runtime.h>

#include "polybench.h" // the C headers and HIP_CHECK, shared by the PolyBench programs

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8
#define ALPHA 32412.0f
#define BETA 2123.0f

// ---------------------------------------------------------------- SYRK
__global__ void syrk_kernel(int ni, int nj, float alpha, float beta, float *a, float *c) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < ni && col < ni) {
        float *out = c + row * ni + col;
        *out *= beta;
        for (int k = 0; k < nj; k++) *out += alpha * a[row * nj + k] * a[col * nj + k];
    }
}

// ---------------------------------------------------------------- SYR2K
__global__ void syr2k_kernel(int ni, int nj, float alpha, float beta, float *a, float *b, float *c) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < ni && col < ni) {
        float *out = c + row * ni + col;
        *out *= beta;
        for (int k = 0; k < nj; k++)
            *out += alpha * a[row * nj + k] * b[col * nj + k] + alpha * b[row * nj + k] * a[col * nj + k];
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
    const int ni = small ? 75 : 384, nj = small ? 61 : 384; // C is ni x ni, A and B ni x nj
    const size_t cnt_ab = (size_t)ni * nj, cnt_c = (size_t)ni * ni;
    const size_t bytes_ab = cnt_ab * sizeof(float), bytes_c = cnt_c * sizeof(float);
    float *hA = host_matrix(ni, nj, 31), *hB = host_matrix(ni, nj, 32), *hC = host_matrix(ni, ni, 33);
    float *got = (float *)malloc(bytes_c);
    double *ref = check ? (double *)malloc(cnt_c * sizeof(double)) : nullptr;
    if (!hA || !hB || !hC || !got || (check && !ref)) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    float *dA = nullptr, *dB = nullptr, *dC = nullptr;
    HIP_CHECK(hipMalloc(&dA, bytes_ab));
    HIP_CHECK(hipMalloc(&dB, bytes_ab));
    HIP_CHECK(hipMalloc(&dC, bytes_c));
    HIP_CHECK(hipMemcpy(dA, hA, bytes_ab, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(dB, hB, bytes_ab, hipMemcpyHostToDevice));
    const dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
    const dim3 grid((ni + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, (ni + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y);
    const float alpha = ALPHA, beta = BETA;
    int failures = 0;

    // SYRK: C = beta C + alpha A A^T.
    HIP_CHECK(hipMemcpy(dC, hC, bytes_c, hipMemcpyHostToDevice));
    syrk_kernel<<<grid, block>>>(ni, nj, alpha, beta, dA, dC);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    if (check) {
        HIP_CHECK(hipMemcpy(got, dC, bytes_c, hipMemcpyDeviceToHost));
        for (int i = 0; i < ni; ++i)
            for (int j = 0; j < ni; ++j) {
                double s = 0.0;
                for (int k = 0; k < nj; ++k) s += (double)hA[(size_t)i * nj + k] * hA[(size_t)j * nj + k];
                ref[(size_t)i * ni + j] = (double)beta * hC[(size_t)i * ni + j] + (double)alpha * s;
            }
        failures += report("syrk_kernel", got, ref, cnt_c, 1e-4);
    }

    // SYR2K: C = beta C + alpha A B^T + alpha B A^T, from the same starting C.
    HIP_CHECK(hipMemcpy(dC, hC, bytes_c, hipMemcpyHostToDevice));
    syr2k_kernel<<<grid, block>>>(ni, nj, alpha, beta, dA, dB, dC);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    if (check) {
        HIP_CHECK(hipMemcpy(got, dC, bytes_c, hipMemcpyDeviceToHost));
        for (int i = 0; i < ni; ++i)
            for (int j = 0; j < ni; ++j) {
                double s = 0.0;
                for (int k = 0; k < nj; ++k)
                    s += (double)hA[(size_t)i * nj + k] * hB[(size_t)j * nj + k] +
                         (double)hB[(size_t)i * nj + k] * hA[(size_t)j * nj + k];
                ref[(size_t)i * ni + j] = (double)beta * hC[(size_t)i * ni + j] + (double)alpha * s;
            }
        failures += report("syr2k_kernel", got, ref, cnt_c, 1e-4);
    }

    HIP_CHECK(hipFree(dA));
    HIP_CHECK(hipFree(dB));
    HIP_CHECK(hipFree(dC));
    free(hA);
    free(hB);
    free(hC);
    free(got);
    free(ref);
    printf("polybench_syrk: SYRK and SYR2K at NI = %d, NJ = %d\n", ni, nj);
    return failures ? 1 : 0;
}
