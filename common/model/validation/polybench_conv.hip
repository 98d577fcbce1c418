// PolyBench/GPU 1.0 (Grauer-Gray, Xu, Searles, Ayalasomayajula and Cavazos,
// "Auto-tuning a High-Level Language Targeted to GPU Codes", InPar 2012): the
// hand-written CUDA kernels of its two convolution benchmarks, 2DCONV and 3DCONV.
// Repository github.com/sgrauerg/polybenchGpu, commit 5584aaa7d0be (2013-09-05),
// files CUDA/2DCONV/2DConvolution.cu and .cuh, CUDA/3DCONV/3DConvolution.cu
// and .cuh. The repository has no licence file (its README: "Copyright (c)
// 2012, 2013 University of Delaware"); its successor, PolyBench/ACC
// (github.com/cavazos-lab/PolyBench-ACC), is under a 3-clause BSD licence.
// Nothing is copied here: the kernels were written again from the originals'
// description; kernel names, launch shapes and arithmetic are PolyBench/GPU's.
//
// convolution2D_kernel: one thread per output point of an NI x NJ float image,
// blocks of DIM_THREAD_BLOCK 32 x 8, a grid of ceil(NI/32) x ceil(NJ/8) (the
// original sizes x by NI and y by NJ, though x runs along NJ: the sizes here
// are square, as the original's are). Each interior thread reads the 3 x 3
// neighbourhood (nine loads) and writes one weighted sum, in the original's
// order of terms and with its weights.
//
// convolution3D_kernel: one launch per interior plane i = 1 .. NI-2 (the
// original's host loop, NI-2 launches), each a grid of ceil(NK/32) x
// ceil(NJ/8) blocks of 32 x 8 threads, one thread per (j, k) of the plane.
// Each interior thread writes the original's fifteen-term sum; as in the
// original, six of the terms read the same two points again (so a compiler
// loads ten distinct points), and the weights are the original's.
//
// Sizes: the validation size is the paper's (Table 2, and the repository's
// default): 2DCONV 4096 x 4096, 3DCONV 256 x 256 x 256. --small: 2DCONV
// 203 x 203, 3DCONV 37 x 37 x 37 (not multiples of the block).
//
// Differences from the original: inputs come from an integer hash, not rand()
// (2DCONV) or the original's modular formula (3DCONV); B is zeroed with
// hipMemset before the kernels (the original copies an uninitialised host
// array); the sizes are kernel arguments used as row strides, where the
// original compiles them in as constants; no timing, no CPU run unless --check.
#include <hip/hip_runtime.h>

#include "polybench.h" // the C headers and HIP_CHECK, shared by the PolyBench programs

// PolyBench/GPU's thread block (both benchmarks).
#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

// ---------------------------------------------------------------- 2DCONV
__global__ void convolution2D_kernel(int ni, int nj, float *A, float *B) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x; // along a row (j)
    const int row = blockIdx.y * blockDim.y + threadIdx.y; // row index (i)
    // The original's nine weights; wRC multiplies row offset R, column offset C.
    const float wMM = +0.2f, wM0 = +0.5f, wMP = -0.8f;
    const float w0M = -0.3f, w00 = +0.6f, w0P = -0.9f;
    const float wPM = +0.4f, wP0 = +0.7f, wPP = +0.10f;
    if (row > 0 && col > 0 && row < ni - 1 && col < nj - 1) {
        const int up = (row - 1) * nj, mid = row * nj, down = (row + 1) * nj;
        B[mid + col] = wMM * A[up + col - 1] + wM0 * A[up + col] + wMP * A[up + col + 1] +
                       w0M * A[mid + col - 1] + w00 * A[mid + col] + w0P * A[mid + col + 1] +
                       wPM * A[down + col - 1] + wP0 * A[down + col] + wPP * A[down + col + 1];
    }
}

// ---------------------------------------------------------------- 3DCONV
__global__ void convolution3D_kernel(int ni, int nj, int nk, float *A, float *B, int i) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x; // fastest dimension
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    const float c11 = +2, c21 = +5, c31 = -8;
    const float c12 = -3, c22 = +6, c32 = -9;
    const float c13 = +4, c23 = +7, c33 = +10;
    if (i > 0 && j > 0 && k > 0 && i < ni - 1 && j < nj - 1 && k < nk - 1) {
        const int plane = nj * nk;
        const int prev = (i - 1) * plane, here = i * plane, next = (i + 1) * plane;
        const int jm = (j - 1) * nk, j0 = j * nk, jp = (j + 1) * nk;
        // Fifteen terms in the original's order; the first six read only two
        // distinct points, (i-1, j-1, k-1) and (i+1, j-1, k-1).
        B[here + j0 + k] = c11 * A[prev + jm + (k - 1)] + c13 * A[next + jm + (k - 1)] +
                           c21 * A[prev + jm + (k - 1)] + c23 * A[next + jm + (k - 1)] +
                           c31 * A[prev + jm + (k - 1)] + c33 * A[next + jm + (k - 1)] +
                           c12 * A[here + jm + k] + c22 * A[here + j0 + k] + c32 * A[here + jp + k] +
                           c11 * A[prev + jm + (k + 1)] + c13 * A[next + jm + (k + 1)] +
                           c21 * A[prev + j0 + (k + 1)] + c23 * A[next + j0 + (k + 1)] +
                           c31 * A[prev + jp + (k + 1)] + c33 * A[next + jp + (k + 1)];
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

// Largest error relative to the reference, with a floor of 1e-2 of the largest
// reference magnitude for points near zero. Prints the check line; returns 1 if
// the error is above tol.
static int report(const char *kernel, const float *got, const double *want, size_t n,
                  const unsigned char *mask, double tol) {
    double scale = 0.0, worst = 0.0;
    for (size_t p = 0; p < n; ++p)
        if (!mask || mask[p]) scale = fmax(scale, fabs(want[p]));
    const double floor_mag = 1e-2 * scale;
    for (size_t p = 0; p < n; ++p) {
        if (mask && !mask[p]) continue;
        const double e = fabs((double)got[p] - want[p]) / fmax(fabs(want[p]), floor_mag);
        if (!(e <= worst)) worst = e; // a NaN makes worst NaN, and fails below
    }
    const int ok = worst <= tol;
    printf("check %s: max error %.3g (%s)\n", kernel, worst, ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}

static int run_conv2d(int n, bool check, int *failures) {
    const int ni = n, nj = n;
    const size_t count = (size_t)ni * nj, bytes = count * sizeof(float);
    float *hA = (float *)malloc(bytes), *hB = (float *)malloc(bytes);
    if (!hA || !hB) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    for (size_t p = 0; p < count; ++p) hA[p] = hash_value(1, (uint32_t)p);
    float *dA = nullptr, *dB = nullptr;
    HIP_CHECK(hipMalloc(&dA, bytes));
    HIP_CHECK(hipMalloc(&dB, bytes));
    HIP_CHECK(hipMemcpy(dA, hA, bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(dB, 0, bytes));
    const dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
    const dim3 grid((ni + block.x - 1) / block.x, (nj + block.y - 1) / block.y);
    convolution2D_kernel<<<grid, block>>>(ni, nj, dA, dB);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    if (check) {
        HIP_CHECK(hipMemcpy(hB, dB, bytes, hipMemcpyDeviceToHost));
        double *ref = (double *)calloc(count, sizeof(double));
        unsigned char *inside = (unsigned char *)calloc(count, 1);
        if (!ref || !inside) {
            fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
            return 1;
        }
        const double w[3][3] = {{0.2f, 0.5f, -0.8f}, {-0.3f, 0.6f, -0.9f}, {0.4f, 0.7f, 0.10f}};
        for (int i = 1; i < ni - 1; ++i)
            for (int j = 1; j < nj - 1; ++j) {
                double s = 0.0;
                for (int di = -1; di <= 1; ++di)
                    for (int dj = -1; dj <= 1; ++dj)
                        s += w[di + 1][dj + 1] * hA[(size_t)(i + di) * nj + (j + dj)];
                ref[(size_t)i * nj + j] = s;
                inside[(size_t)i * nj + j] = 1;
            }
        *failures += report("convolution2D_kernel", hB, ref, count, inside, 1e-4);
        free(ref);
        free(inside);
    }
    HIP_CHECK(hipFree(dA));
    HIP_CHECK(hipFree(dB));
    free(hA);
    free(hB);
    return 0;
}

static int run_conv3d(int n, bool check, int *failures) {
    const int ni = n, nj = n, nk = n;
    const size_t count = (size_t)ni * nj * nk, bytes = count * sizeof(float);
    float *hA = (float *)malloc(bytes), *hB = (float *)malloc(bytes);
    if (!hA || !hB) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    for (size_t p = 0; p < count; ++p) hA[p] = hash_value(2, (uint32_t)p);
    float *dA = nullptr, *dB = nullptr;
    HIP_CHECK(hipMalloc(&dA, bytes));
    HIP_CHECK(hipMalloc(&dB, bytes));
    HIP_CHECK(hipMemcpy(dA, hA, bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(dB, 0, bytes));
    const dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
    const dim3 grid((nk + block.x - 1) / block.x, (nj + block.y - 1) / block.y);
    for (int i = 1; i < ni - 1; ++i) { // the original's host loop: one launch per plane
        convolution3D_kernel<<<grid, block>>>(ni, nj, nk, dA, dB, i);
        HIP_CHECK(hipGetLastError());
    }
    HIP_CHECK(hipDeviceSynchronize());
    if (check) {
        HIP_CHECK(hipMemcpy(hB, dB, bytes, hipMemcpyDeviceToHost));
        double *ref = (double *)calloc(count, sizeof(double));
        unsigned char *inside = (unsigned char *)calloc(count, 1);
        if (!ref || !inside) {
            fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
            return 1;
        }
        // The same fifteen (weight, di, dj, dk) terms as the kernel.
        static const int terms[15][4] = {{2, -1, -1, -1}, {4, 1, -1, -1}, {5, -1, -1, -1}, {7, 1, -1, -1},
                                         {-8, -1, -1, -1}, {10, 1, -1, -1}, {-3, 0, -1, 0}, {6, 0, 0, 0},
                                         {-9, 0, 1, 0},    {2, -1, -1, 1},  {4, 1, -1, 1},  {5, -1, 0, 1},
                                         {7, 1, 0, 1},     {-8, -1, 1, 1},  {10, 1, 1, 1}};
        for (int i = 1; i < ni - 1; ++i)
            for (int j = 1; j < nj - 1; ++j)
                for (int k = 1; k < nk - 1; ++k) {
                    double s = 0.0;
                    for (int t = 0; t < 15; ++t)
                        s += terms[t][0] *
                             (double)hA[((size_t)(i + terms[t][1]) * nj + (j + terms[t][2])) * nk + (k + terms[t][3])];
                    const size_t p = ((size_t)i * nj + j) * nk + k;
                    ref[p] = s;
                    inside[p] = 1;
                }
        *failures += report("convolution3D_kernel", hB, ref, count, inside, 1e-5);
        free(ref);
        free(inside);
    }
    HIP_CHECK(hipFree(dA));
    HIP_CHECK(hipFree(dB));
    free(hA);
    free(hB);
    return 0;
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
    const int n2d = small ? 203 : 4096; // 2DCONV: the paper's 4096 x 4096
    const int n3d = small ? 37 : 256;   // 3DCONV: the paper's 256^3, 254 launches
    int failures = 0;
    if (run_conv2d(n2d, check, &failures)) return 1;
    if (run_conv3d(n3d, check, &failures)) return 1;
    printf("polybench_conv: 2DCONV %d x %d, 3DCONV %d^3 (%d launches)\n", n2d, n2d, n3d, n3d - 2);
    return failures ? 1 : 0;
}
