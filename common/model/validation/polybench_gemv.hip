// PolyBench/GPU 1.0 (Grauer-Gray, Xu, Searles, Ayalasomayajula and Cavazos,
// "Auto-tuning a High-Level Language Targeted to GPU Codes", InPar 2012): the
// hand-written CUDA kernels of its four matrix-vector benchmarks, ATAX, BICG,
// GESUMMV and MVT. Repository github.com/sgrauerg/polybenchGpu, commit
// 5584aaa7d0be (2013-09-05), files CUDA/ATAX/atax.cu(h), CUDA/BICG/bicg.cu(h),
// CUDA/GESUMMV/gesummv.cu(h), CUDA/MVT/mvt.cu(h). The repository has no licence
// file (its README: "Copyright (c) 2012, 2013 University of Delaware"); its
// successor, PolyBench/ACC (github.com/cavazos-lab/PolyBench-ACC), is under a
// 3-clause BSD licence. Nothing is copied here: the kernels were written again
// from the originals; kernel names, launch shapes and arithmetic are theirs.
//
// Every kernel gives one thread one output element and loops over a whole row
// or column of an N x N float matrix, accumulating straight into the output
// array in global memory (no register accumulator, no restrict: the original's
// code shape, so a compiler keeps a store per iteration).
//   atax_kernel1  tmp[i] = sum_j A[i][j] x[j]     (a row per thread)
//   atax_kernel2  y[j]   = sum_i A[i][j] tmp[i]   (a column per thread)
//   bicg_kernel1  s[j]   = sum_i r[i] A[i][j]     (a column per thread)
//   bicg_kernel2  q[i]   = sum_j A[i][j] p[j]     (a row per thread)
//   gesummv_kernel  tmp[i] += A[i][j] x[j], y[i] += B[i][j] x[j] over j, then
//                 y[i] = alpha tmp[i] + beta y[i] (alpha 43532, beta 12313)
//   mvt_kernel1   x1[i] += A[i][j] y1[j]          (a row per thread)
//   mvt_kernel2   x2[i] += A[j][i] y2[j]          (a column per thread)
// Launch shapes are the originals': ATAX and MVT use DIM_THREAD_BLOCK 32 x 8
// with a grid of ceil(N/32) x 1 blocks, and index rows by blockIdx.x *
// blockDim.x + threadIdx.x alone, so the eight rows of threads of a block
// (threadIdx.y = 0..7) all compute the same element: eight warps per 32
// elements, each doing the whole loop. BICG and GESUMMV use blocks of 256 x 1,
// a grid of ceil(N/256). (ATAX's and MVT's 32 x 8 date from the repository's
// commit a065811, 2013-08-28; its first commit, d699db9 of 2013-07-03, nearer
// the paper, had 256 x 1 for them too, and no zeroing in ATAX.)
//
// That eight-fold sharing is a data race in the original, kept here. ATAX's
// kernels zero their element before accumulating, so every thread that runs
// alone leaves the right sum. MVT's kernels accumulate onto the input vector,
// so the result depends on how the eight threads interleave: on a GPU it
// depends on the warps' timing (near x0 + S where they run in step); on the
// executor, where each thread runs to the end before the next starts, it is
// x0 + 8 S. The --check lines of mvt_kernel1/2 accept x0 + m S for the whole
// number m in 1..8 that fits each element best. make racecheck reports the
// race at atax_kernel1's first shared store (it stops at the first finding);
// with the blocks' y extent set to 1 the whole program checks clean.
//
// Sizes: the paper's (Table 2) and the repository's default is N = 4096; the
// validation size here is N = 2048, for the trace time (about 30 s in all).
// --small: N = 203 (not a multiple of 32 or 256).
//
// Differences from the original: inputs from an integer hash instead of the
// original's i*j/N formulas (all in [0, 1), so no sum cancels); GESUMMV's tmp
// and y and MVT's x1, x2 start from hipMemset zero / hashed values where the
// original copies uninitialised or formula-filled host arrays; the sizes are
// kernel arguments used as row strides, where the original compiles them in as
// constants; no timing, no CPU run unless --check.
#include <hip/hip_runtime.h>

#include "polybench.h" // the C headers and HIP_CHECK, shared by the PolyBench programs

// ATAX and MVT: 32 x 8 (threadIdx.y unused by the kernels); BICG and GESUMMV: 256 x 1.
#define ATAX_MVT_BLOCK_X 32
#define ATAX_MVT_BLOCK_Y 8
#define BICG_GESUMMV_BLOCK_X 256
#define BICG_GESUMMV_BLOCK_Y 1

#define GESUMMV_ALPHA 43532.0f
#define GESUMMV_BETA 12313.0f

// ---------------------------------------------------------------- ATAX
__global__ void atax_kernel1(int nx, int ny, float *A, float *x, float *tmp) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < nx) {
        tmp[row] = 0;
        for (int col = 0; col < ny; col++) tmp[row] += A[row * ny + col] * x[col];
    }
}

__global__ void atax_kernel2(int nx, int ny, float *A, float *y, float *tmp) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < ny) {
        y[col] = 0;
        for (int row = 0; row < nx; row++) y[col] += A[row * ny + col] * tmp[row];
    }
}

// ---------------------------------------------------------------- BICG
__global__ void bicg_kernel1(int nx, int ny, float *A, float *r, float *s) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < ny) {
        s[col] = 0.0f;
        for (int row = 0; row < nx; row++) s[col] += r[row] * A[row * ny + col];
    }
}

__global__ void bicg_kernel2(int nx, int ny, float *A, float *p, float *q) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < nx) {
        q[row] = 0.0f;
        for (int col = 0; col < ny; col++) q[row] += A[row * ny + col] * p[col];
    }
}

// ---------------------------------------------------------------- GESUMMV
__global__ void gesummv_kernel(int n, float alpha, float beta, float *A, float *B, float *tmp, float *x,
                               float *y) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n) {
        for (int col = 0; col < n; col++) {
            tmp[row] += A[row * n + col] * x[col];
            y[row] += B[row * n + col] * x[col];
        }
        y[row] = alpha * tmp[row] + beta * y[row];
    }
}

// ---------------------------------------------------------------- MVT
__global__ void mvt_kernel1(int n, float *a, float *x1, float *y_1) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n) {
        for (int col = 0; col < n; col++) x1[row] += a[row * n + col] * y_1[col];
    }
}

__global__ void mvt_kernel2(int n, float *a, float *x2, float *y_2) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < n) {
        for (int row = 0; row < n; row++) x2[col] += a[row * n + col] * y_2[row];
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
static int report(const char *kernel, const float *got, const double *want, int n, double tol) {
    double scale = 0.0, worst = 0.0;
    for (int p = 0; p < n; ++p) scale = fmax(scale, fabs(want[p]));
    for (int p = 0; p < n; ++p) {
        const double e = fabs((double)got[p] - want[p]) / fmax(fabs(want[p]), 1e-2 * scale);
        if (!(e <= worst)) worst = e; // NaN sticks and fails
    }
    const int ok = worst <= tol;
    printf("check %s: max error %.3g (%s)\n", kernel, worst, ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}

// MVT: the element is x0 + m * sum for a whole m in 1..8 (see the top); the m
// nearest each element is taken.
static int report_mvt(const char *kernel, const float *got, const float *x0, const double *sum, int n, double tol) {
    double *want = (double *)malloc(n * sizeof(double));
    if (!want) return 1;
    for (int p = 0; p < n; ++p) {
        int m = (int)lround(((double)got[p] - x0[p]) / sum[p]);
        m = m < 1 ? 1 : (m > 8 ? 8 : m);
        want[p] = x0[p] + m * sum[p];
    }
    const int bad = report(kernel, got, want, n, tol);
    free(want);
    return bad;
}

struct Host {
    float *A, *B, *v1, *v2, *v3, *v4, *out1, *out2;
};

static int alloc_host(Host &h, int n) {
    const size_t mat = (size_t)n * n * sizeof(float), vec = (size_t)n * sizeof(float);
    h.A = (float *)malloc(mat);
    h.B = (float *)malloc(mat);
    float **vecs[] = {&h.v1, &h.v2, &h.v3, &h.v4, &h.out1, &h.out2};
    for (float **v : vecs) *v = (float *)malloc(vec);
    for (float **v : vecs)
        if (!*v) return 1;
    return h.A && h.B ? 0 : 1;
}

static void free_host(Host &h) {
    float *all[] = {h.A, h.B, h.v1, h.v2, h.v3, h.v4, h.out1, h.out2};
    for (float *v : all) free(v);
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
    const int n = small ? 203 : 2048;
    const size_t mat = (size_t)n * n * sizeof(float), vec = (size_t)n * sizeof(float);
    Host h = {};
    if (alloc_host(h, n)) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    fill(h.A, (size_t)n * n, 11);
    fill(h.B, (size_t)n * n, 12);
    fill(h.v1, n, 13);
    fill(h.v2, n, 14);
    fill(h.v3, n, 15);
    fill(h.v4, n, 16);

    float *dA = nullptr, *dB = nullptr, *dv1 = nullptr, *dv2 = nullptr, *dv3 = nullptr, *dv4 = nullptr;
    float *dout1 = nullptr, *dout2 = nullptr;
    HIP_CHECK(hipMalloc(&dA, mat));
    HIP_CHECK(hipMalloc(&dB, mat));
    HIP_CHECK(hipMalloc(&dv1, vec));
    HIP_CHECK(hipMalloc(&dv2, vec));
    HIP_CHECK(hipMalloc(&dv3, vec));
    HIP_CHECK(hipMalloc(&dv4, vec));
    HIP_CHECK(hipMalloc(&dout1, vec));
    HIP_CHECK(hipMalloc(&dout2, vec));
    HIP_CHECK(hipMemcpy(dA, h.A, mat, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(dB, h.B, mat, hipMemcpyHostToDevice));

    const dim3 block_am(ATAX_MVT_BLOCK_X, ATAX_MVT_BLOCK_Y), grid_am((n + ATAX_MVT_BLOCK_X - 1) / ATAX_MVT_BLOCK_X, 1);
    const dim3 block_bg(BICG_GESUMMV_BLOCK_X, BICG_GESUMMV_BLOCK_Y),
        grid_bg((n + BICG_GESUMMV_BLOCK_X - 1) / BICG_GESUMMV_BLOCK_X, 1);
    int failures = 0;

    // ATAX: x = v1; tmp = out1, y = out2.
    HIP_CHECK(hipMemcpy(dv1, h.v1, vec, hipMemcpyHostToDevice));
    atax_kernel1<<<grid_am, block_am>>>(n, n, dA, dv1, dout1);
    HIP_CHECK(hipGetLastError());
    atax_kernel2<<<grid_am, block_am>>>(n, n, dA, dout2, dout1);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    if (check) {
        HIP_CHECK(hipMemcpy(h.out1, dout1, vec, hipMemcpyDeviceToHost));
        HIP_CHECK(hipMemcpy(h.out2, dout2, vec, hipMemcpyDeviceToHost));
        double *t = (double *)calloc(n, sizeof(double)), *y = (double *)calloc(n, sizeof(double));
        if (!t || !y) return 1;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) t[i] += (double)h.A[(size_t)i * n + j] * h.v1[j];
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) y[j] += (double)h.A[(size_t)i * n + j] * t[i];
        failures += report("atax_kernel1", h.out1, t, n, 1e-4);
        failures += report("atax_kernel2", h.out2, y, n, 1e-4);
        free(t);
        free(y);
    }

    // BICG: r = v2, p = v3; s = out1, q = out2.
    HIP_CHECK(hipMemcpy(dv2, h.v2, vec, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(dv3, h.v3, vec, hipMemcpyHostToDevice));
    bicg_kernel1<<<grid_bg, block_bg>>>(n, n, dA, dv2, dout1);
    HIP_CHECK(hipGetLastError());
    bicg_kernel2<<<grid_bg, block_bg>>>(n, n, dA, dv3, dout2);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    if (check) {
        HIP_CHECK(hipMemcpy(h.out1, dout1, vec, hipMemcpyDeviceToHost));
        HIP_CHECK(hipMemcpy(h.out2, dout2, vec, hipMemcpyDeviceToHost));
        double *s = (double *)calloc(n, sizeof(double)), *q = (double *)calloc(n, sizeof(double));
        if (!s || !q) return 1;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                s[j] += (double)h.v2[i] * h.A[(size_t)i * n + j];
                q[i] += (double)h.A[(size_t)i * n + j] * h.v3[j];
            }
        failures += report("bicg_kernel1", h.out1, s, n, 1e-4);
        failures += report("bicg_kernel2", h.out2, q, n, 1e-4);
        free(s);
        free(q);
    }

    // GESUMMV: x = v4; tmp = out1, y = out2, both zeroed first.
    HIP_CHECK(hipMemcpy(dv4, h.v4, vec, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(dout1, 0, vec));
    HIP_CHECK(hipMemset(dout2, 0, vec));
    gesummv_kernel<<<grid_bg, block_bg>>>(n, GESUMMV_ALPHA, GESUMMV_BETA, dA, dB, dout1, dv4, dout2);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    if (check) {
        HIP_CHECK(hipMemcpy(h.out2, dout2, vec, hipMemcpyDeviceToHost));
        double *y = (double *)calloc(n, sizeof(double));
        if (!y) return 1;
        for (int i = 0; i < n; ++i) {
            double ta = 0.0, tb = 0.0;
            for (int j = 0; j < n; ++j) {
                ta += (double)h.A[(size_t)i * n + j] * h.v4[j];
                tb += (double)h.B[(size_t)i * n + j] * h.v4[j];
            }
            y[i] = (double)GESUMMV_ALPHA * ta + (double)GESUMMV_BETA * tb;
        }
        failures += report("gesummv_kernel", h.out2, y, n, 1e-4);
        free(y);
    }

    // MVT: x1 = out1 starting at v1, x2 = out2 starting at v2; y_1 = v3, y_2 = v4.
    HIP_CHECK(hipMemcpy(dout1, h.v1, vec, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(dout2, h.v2, vec, hipMemcpyHostToDevice));
    mvt_kernel1<<<grid_am, block_am>>>(n, dA, dout1, dv3);
    HIP_CHECK(hipGetLastError());
    mvt_kernel2<<<grid_am, block_am>>>(n, dA, dout2, dv4);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    if (check) {
        HIP_CHECK(hipMemcpy(h.out1, dout1, vec, hipMemcpyDeviceToHost));
        HIP_CHECK(hipMemcpy(h.out2, dout2, vec, hipMemcpyDeviceToHost));
        double *s1 = (double *)calloc(n, sizeof(double)), *s2 = (double *)calloc(n, sizeof(double));
        if (!s1 || !s2) return 1;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                s1[i] += (double)h.A[(size_t)i * n + j] * h.v3[j];
                s2[j] += (double)h.A[(size_t)i * n + j] * h.v4[i];
            }
        failures += report_mvt("mvt_kernel1", h.out1, h.v1, s1, n, 1e-4);
        failures += report_mvt("mvt_kernel2", h.out2, h.v2, s2, n, 1e-4);
        free(s1);
        free(s2);
    }

    HIP_CHECK(hipFree(dA));
    HIP_CHECK(hipFree(dB));
    HIP_CHECK(hipFree(dv1));
    HIP_CHECK(hipFree(dv2));
    HIP_CHECK(hipFree(dv3));
    HIP_CHECK(hipFree(dv4));
    HIP_CHECK(hipFree(dout1));
    HIP_CHECK(hipFree(dout2));
    free_host(h);
    printf("polybench_gemv: ATAX, BICG, GESUMMV and MVT at N = %d\n", n);
    return failures ? 1 : 0;
}
