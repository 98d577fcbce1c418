// PolyBench/GPU 1.0 (Grauer-Gray, Xu, Searles, Ayalasomayajula and Cavazos,
// "Auto-tuning a High-Level Language Targeted to GPU Codes", InPar 2012): the
// hand-written CUDA kernels of its CORR benchmark (the correlation matrix of
// M columns over N rows of data). Repository github.com/sgrauerg/polybenchGpu,
// commit 5584aaa7d0be (2013-09-05), files CUDA/CORR/correlation.cu and
// correlation.cuh. The repository has no licence file (its README: "Copyright
// (c) 2012, 2013 University of Delaware"); its successor, PolyBench/ACC
// (github.com/cavazos-lab/PolyBench-ACC), is under a 3-clause BSD licence.
// Nothing is copied here: the kernels were written again from the originals;
// kernel names, launch shapes and arithmetic are theirs.
//
// data is N rows of M floats (row stride M). Four kernels, launched once each
// in this order, accumulating straight into their global outputs inside the
// loops (no register accumulator, no restrict: the original's code shape):
//   mean_kernel    one thread per column j: mean[j] = sum_i data[i][j] / FLOAT_N
//                  (FLOAT_N = 3214212.01, the original's constant, not N);
//                  blocks of 256 x 1
//   std_kernel     one thread per column: std[j] = sqrt(sum_i (data - mean)^2 /
//                  FLOAT_N), 1 where that is <= EPS = 0.005; blocks of 256 x 1
//   reduce_kernel  one thread per element, blocks of 32 x 8 (x along j):
//                  data -= mean[j]; data /= sqrt(FLOAT_N) std[j]
//   corr_kernel    one thread per column j1 < M-1, blocks of 256 x 1:
//                  symmat[j1][j1] = 1; for every j2 > j1 the N-term dot product
//                  of columns j1 and j2 into symmat[j1][j2], then copied to
//                  symmat[j2][j1]. Thread j1 does M-1-j1 dot products, so the
//                  work falls off linearly across the threads.
// Grids are the originals' expressions, which truncate: (size_t)(ceil(M) /
// 256.0f) is floor(M/256), so the sizes must be multiples of the blocks
// (M of 256, N of 8). The symmat[M-1][M-1] the kernels leave unset (the
// original's host writes 1 there after the kernels) is left as hipMemset made
// it, and the check expects that.
//
// Sizes: the paper (Table 2) and the repository's default is M = N = 2048;
// here M = N = 512 (corr_kernel: 2 blocks), for the trace time (about 30 s).
// --small: M = 512, N = 88 (the smallest case with more than one block).
//
// Differences from the original: data from an integer hash in [0, 8) instead
// of the original's i*j/M (large enough that every std stays above EPS);
// symmat, mean and std start from hipMemset zero (the original copies
// uninitialised host arrays); the sizes are kernel arguments used as strides,
// where the original compiles them in as constants; no timing, no CPU run
// unless --check.
#include <hip/hip_runtime.h>

#include "polybench.h" // the C headers and HIP_CHECK, shared by the PolyBench programs

#define DIM_THREAD_BLOCK_KERNEL_1_X 256
#define DIM_THREAD_BLOCK_KERNEL_1_Y 1
#define DIM_THREAD_BLOCK_KERNEL_2_X 256
#define DIM_THREAD_BLOCK_KERNEL_2_Y 1
#define DIM_THREAD_BLOCK_KERNEL_3_X 32
#define DIM_THREAD_BLOCK_KERNEL_3_Y 8
#define DIM_THREAD_BLOCK_KERNEL_4_X 256
#define DIM_THREAD_BLOCK_KERNEL_4_Y 1

#define FLOAT_N 3214212.01f
#define EPS 0.005f

__global__ void mean_kernel(int m, int n, float *mean, float *data) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < m) {
        mean[col] = 0.0f;
        for (int row = 0; row < n; row++) mean[col] += data[row * m + col];
        mean[col] /= (float)FLOAT_N;
    }
}

__global__ void std_kernel(int m, int n, float *mean, float *std, float *data) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < m) {
        std[col] = 0.0f;
        for (int row = 0; row < n; row++)
            std[col] += (data[row * m + col] - mean[col]) * (data[row * m + col] - mean[col]);
        std[col] /= FLOAT_N;
        std[col] = sqrt(std[col]);
        if (std[col] <= EPS) std[col] = 1.0f; // a flat column
    }
}

__global__ void reduce_kernel(int m, int n, float *mean, float *std, float *data) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < m) {
        data[row * m + col] -= mean[col];
        data[row * m + col] /= (sqrt(FLOAT_N) * std[col]);
    }
}

__global__ void corr_kernel(int m, int n, float *symmat, float *data) {
    const int c1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (c1 < m - 1) {
        symmat[c1 * m + c1] = 1.0f;
        for (int c2 = c1 + 1; c2 < m; c2++) {
            symmat[c1 * m + c2] = 0.0f;
            for (int row = 0; row < n; row++) symmat[c1 * m + c2] += data[row * m + c1] * data[row * m + c2];
            symmat[c2 * m + c1] = symmat[c1 * m + c2]; // the mirror element
        }
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
    const int m = 512, n = small ? 88 : 512; // columns, rows
    const size_t cnt_data = (size_t)n * m, cnt_sym = (size_t)m * m;
    float *data = (float *)malloc(cnt_data * sizeof(float));
    float *got = (float *)malloc((cnt_sym > cnt_data ? cnt_sym : cnt_data) * sizeof(float));
    if (!data || !got) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    for (size_t p = 0; p < cnt_data; ++p) data[p] = 8.0f * hash_value(51, (uint32_t)p);

    float *d_data = nullptr, *d_sym = nullptr, *d_mean = nullptr, *d_std = nullptr;
    HIP_CHECK(hipMalloc(&d_data, cnt_data * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_sym, cnt_sym * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_mean, m * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_std, m * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_data, data, cnt_data * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_sym, 0, cnt_sym * sizeof(float)));
    HIP_CHECK(hipMemset(d_mean, 0, m * sizeof(float)));
    HIP_CHECK(hipMemset(d_std, 0, m * sizeof(float)));

    // The original's grids: floor(M/256), floor(M/256), floor(M/32) x floor(N/8), floor(M/256).
    const dim3 block1(DIM_THREAD_BLOCK_KERNEL_1_X, DIM_THREAD_BLOCK_KERNEL_1_Y), grid1(m / DIM_THREAD_BLOCK_KERNEL_1_X, 1);
    const dim3 block2(DIM_THREAD_BLOCK_KERNEL_2_X, DIM_THREAD_BLOCK_KERNEL_2_Y), grid2(m / DIM_THREAD_BLOCK_KERNEL_2_X, 1);
    const dim3 block3(DIM_THREAD_BLOCK_KERNEL_3_X, DIM_THREAD_BLOCK_KERNEL_3_Y),
        grid3(m / DIM_THREAD_BLOCK_KERNEL_3_X, n / DIM_THREAD_BLOCK_KERNEL_3_Y);
    const dim3 block4(DIM_THREAD_BLOCK_KERNEL_4_X, DIM_THREAD_BLOCK_KERNEL_4_Y), grid4(m / DIM_THREAD_BLOCK_KERNEL_4_X, 1);
    mean_kernel<<<grid1, block1>>>(m, n, d_mean, d_data);
    HIP_CHECK(hipGetLastError());
    std_kernel<<<grid2, block2>>>(m, n, d_mean, d_std, d_data);
    HIP_CHECK(hipGetLastError());
    reduce_kernel<<<grid3, block3>>>(m, n, d_mean, d_std, d_data);
    HIP_CHECK(hipGetLastError());
    corr_kernel<<<grid4, block4>>>(m, n, d_sym, d_data);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    int failures = 0;
    if (check) {
        double *mean = (double *)calloc(m, sizeof(double)), *sd = (double *)calloc(m, sizeof(double));
        double *z = (double *)malloc(cnt_data * sizeof(double)), *sym = (double *)calloc(cnt_sym, sizeof(double));
        if (!mean || !sd || !z || !sym) return 1;
        const double fn = (double)FLOAT_N;
        for (int j = 0; j < m; ++j) {
            for (int i = 0; i < n; ++i) mean[j] += data[(size_t)i * m + j];
            mean[j] /= fn;
            for (int i = 0; i < n; ++i) {
                const double dv = data[(size_t)i * m + j] - mean[j];
                sd[j] += dv * dv;
            }
            sd[j] = sqrt(sd[j] / fn);
            if (sd[j] <= (double)EPS) sd[j] = 1.0;
            for (int i = 0; i < n; ++i) z[(size_t)i * m + j] = (data[(size_t)i * m + j] - mean[j]) / (sqrt(fn) * sd[j]);
        }
        for (int j1 = 0; j1 < m - 1; ++j1) {
            sym[(size_t)j1 * m + j1] = 1.0;
            for (int j2 = j1 + 1; j2 < m; ++j2) {
                double s = 0.0;
                for (int i = 0; i < n; ++i) s += z[(size_t)i * m + j1] * z[(size_t)i * m + j2];
                sym[(size_t)j1 * m + j2] = sym[(size_t)j2 * m + j1] = s;
            }
        }
        HIP_CHECK(hipMemcpy(got, d_mean, m * sizeof(float), hipMemcpyDeviceToHost));
        failures += report("mean_kernel", got, mean, m, 1e-4);
        HIP_CHECK(hipMemcpy(got, d_std, m * sizeof(float), hipMemcpyDeviceToHost));
        failures += report("std_kernel", got, sd, m, 1e-4);
        HIP_CHECK(hipMemcpy(got, d_data, cnt_data * sizeof(float), hipMemcpyDeviceToHost));
        failures += report("reduce_kernel", got, z, cnt_data, 1e-4);
        HIP_CHECK(hipMemcpy(got, d_sym, cnt_sym * sizeof(float), hipMemcpyDeviceToHost));
        failures += report("corr_kernel", got, sym, cnt_sym, 1e-4);
        free(mean);
        free(sd);
        free(z);
        free(sym);
    }

    HIP_CHECK(hipFree(d_data));
    HIP_CHECK(hipFree(d_sym));
    HIP_CHECK(hipFree(d_mean));
    HIP_CHECK(hipFree(d_std));
    free(data);
    free(got);
    printf("polybench_corr: CORR at M = %d columns, N = %d rows\n", m, n);
    return failures ? 1 : 0;
}
