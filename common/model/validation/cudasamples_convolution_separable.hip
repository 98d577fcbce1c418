// Project "cudasamples": the separable convolution of NVIDIA's CUDA Samples
// (github.com/NVIDIA/cuda-samples, commit c94ff366aed1, BSD-3-Clause;
// Samples/2_Concepts_and_Techniques/convolutionSeparable/convolutionSeparable.cu,
// convolutionSeparable_common.h, main.cpp), written here from reading those
// files (no text copied). Its two kernels, launched once each in the sample's
// order (rows into a buffer, then columns from it), with a filter of radius 8
// (17 taps) held in __constant__ memory:
//
// - convolutionRowsKernel: blocks of 16 x 4 threads, each row of a block
//   loading 8 result tiles of 16 pixels plus one 16-pixel halo tile on each
//   side (zero outside the image) into a shared 4 x 160 float array, one
//   barrier, then 8 outputs per thread, each a fully unrolled 17-tap sum.
//   Grid: (W / 128, H / 4).
// - convolutionColumnsKernel: blocks of 16 x 8 threads, the same along y: 8
//   tiles of 8 rows plus a halo tile above and below, in a shared 16 x 81
//   float array (one padding column), 8 outputs per thread. Grid: (W / 16, H / 64).
//
// Size: the sample's image, 3072 x 3072 floats, pitch = width. Differences: the
// filter taps and the pixels are small integers from a hash (the sample takes
// rand() % 16 for both), so every sum is exact in float; cooperative groups'
// block sync is __syncthreads(); the sample's 16 timed repetitions and warm-up
// are not run.
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

#define RADIUS 8
#define TAPS (2 * RADIUS + 1)

#define ROWS_BX 16
#define ROWS_BY 4
#define ROWS_STEPS 8
#define ROWS_HALO 1

#define COLS_BX 16
#define COLS_BY 8
#define COLS_STEPS 8
#define COLS_HALO 1

__constant__ float c_Kernel[TAPS];

__global__ void convolutionRowsKernel(float *dst, float *src, int width, int height, int pitch) {
    __shared__ float tile[ROWS_BY][(ROWS_STEPS + 2 * ROWS_HALO) * ROWS_BX];
    (void)height; // unused, as in the sample
    // x of this thread's first (left halo) pixel, and its row
    const int x0 = (blockIdx.x * ROWS_STEPS - ROWS_HALO) * ROWS_BX + threadIdx.x;
    const int y0 = blockIdx.y * ROWS_BY + threadIdx.y;
    src += y0 * pitch + x0;
    dst += y0 * pitch + x0;

#pragma unroll
    for (int s = ROWS_HALO; s < ROWS_HALO + ROWS_STEPS; s++) tile[threadIdx.y][threadIdx.x + s * ROWS_BX] = src[s * ROWS_BX];
#pragma unroll
    for (int s = 0; s < ROWS_HALO; s++)
        tile[threadIdx.y][threadIdx.x + s * ROWS_BX] = (x0 >= -s * ROWS_BX) ? src[s * ROWS_BX] : 0;
#pragma unroll
    for (int s = ROWS_HALO + ROWS_STEPS; s < ROWS_HALO + ROWS_STEPS + ROWS_HALO; s++)
        tile[threadIdx.y][threadIdx.x + s * ROWS_BX] = (width - x0 > s * ROWS_BX) ? src[s * ROWS_BX] : 0;
    __syncthreads();

#pragma unroll
    for (int s = ROWS_HALO; s < ROWS_HALO + ROWS_STEPS; s++) {
        float acc = 0;
#pragma unroll
        for (int k = -RADIUS; k <= RADIUS; k++) acc += c_Kernel[RADIUS - k] * tile[threadIdx.y][threadIdx.x + s * ROWS_BX + k];
        dst[s * ROWS_BX] = acc;
    }
}

__global__ void convolutionColumnsKernel(float *dst, float *src, int width, int height, int pitch) {
    __shared__ float tile[COLS_BX][(COLS_STEPS + 2 * COLS_HALO) * COLS_BY + 1];
    (void)width; // unused, as in the sample
    // this thread's column, and the y of its first (upper halo) pixel
    const int x0 = blockIdx.x * COLS_BX + threadIdx.x;
    const int y0 = (blockIdx.y * COLS_STEPS - COLS_HALO) * COLS_BY + threadIdx.y;
    src += y0 * pitch + x0;
    dst += y0 * pitch + x0;

#pragma unroll
    for (int s = COLS_HALO; s < COLS_HALO + COLS_STEPS; s++)
        tile[threadIdx.x][threadIdx.y + s * COLS_BY] = src[s * COLS_BY * pitch];
#pragma unroll
    for (int s = 0; s < COLS_HALO; s++)
        tile[threadIdx.x][threadIdx.y + s * COLS_BY] = (y0 >= -s * COLS_BY) ? src[s * COLS_BY * pitch] : 0;
#pragma unroll
    for (int s = COLS_HALO + COLS_STEPS; s < COLS_HALO + COLS_STEPS + COLS_HALO; s++)
        tile[threadIdx.x][threadIdx.y + s * COLS_BY] = (height - y0 > s * COLS_BY) ? src[s * COLS_BY * pitch] : 0;
    __syncthreads();

#pragma unroll
    for (int s = COLS_HALO; s < COLS_HALO + COLS_STEPS; s++) {
        float acc = 0;
#pragma unroll
        for (int k = -RADIUS; k <= RADIUS; k++) acc += c_Kernel[RADIUS - k] * tile[threadIdx.x][threadIdx.y + s * COLS_BY + k];
        dst[s * COLS_BY * pitch] = acc;
    }
}

// ---- host --------------------------------------------------------------------

static uint32_t hash32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

// dst(x, y) = sum over k of taps[R - k] * src(x + k, y) (dx = 1) or src(x, y + k)
// (dx = 0), zero outside the image
static void convolveHost(float *dst, const float *src, const float *taps, int w, int h, int alongRows) {
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double acc = 0;
            for (int k = -RADIUS; k <= RADIUS; k++) {
                const int xs = alongRows ? x + k : x, ys = alongRows ? y : y + k;
                if (xs >= 0 && xs < w && ys >= 0 && ys < h) acc += (double)taps[RADIUS - k] * src[(size_t)ys * w + xs];
            }
            dst[(size_t)y * w + x] = (float)acc;
        }
}

static double maxRelError(const float *got, const float *ref, size_t n) {
    double m = 0;
    for (size_t i = 0; i < n; i++) {
        const double e = fabs((double)got[i] - ref[i]) / (fabs((double)ref[i]) > 1.0 ? fabs((double)ref[i]) : 1.0);
        if (e > m) m = e;
    }
    return m;
}

static void report(const char *kernel, double err, int *failed) {
    const int ok = err <= 1e-6;
    printf("check %s: max error %g (%s)\n", kernel, err, ok ? "ok" : "FAILED");
    if (!ok) *failed = 1;
}

int main(int argc, char **argv) {
    int small = 0, check = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--small"))
            small = 1;
        else if (!strcmp(argv[i], "--check"))
            check = 1;
        else {
            fprintf(stderr, "usage: %s [--small] [--check]\n", argv[0]);
            return 2;
        }
    }
    // the kernels need W % 128 == 0 and H % 64 == 0: --small is 3 x 3 row tiles
    // and 24 x 3 column tiles
    const int W = small ? 3 * ROWS_STEPS * ROWS_BX : 3072;
    const int H = small ? 3 * COLS_STEPS * COLS_BY : 3072;
    const size_t pixels = (size_t)W * H, bytes = pixels * sizeof(float);

    float taps[TAPS];
    for (int k = 0; k < TAPS; k++) taps[k] = (float)(hash32(k + 200U) % 16U);
    float *h_in = (float *)malloc(bytes);
    if (!h_in) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    for (size_t i = 0; i < pixels; i++) h_in[i] = (float)(hash32((uint32_t)i * 2654435761U + 7U) % 16U);

    float *d_in = nullptr, *d_buf = nullptr, *d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, bytes));
    HIP_CHECK(hipMalloc(&d_buf, bytes));
    HIP_CHECK(hipMalloc(&d_out, bytes));
    HIP_CHECK(hipMemcpyToSymbol(c_Kernel, taps, sizeof(taps)));
    HIP_CHECK(hipMemcpy(d_in, h_in, bytes, hipMemcpyHostToDevice));

    const dim3 rowsGrid(W / (ROWS_STEPS * ROWS_BX), H / ROWS_BY), rowsBlock(ROWS_BX, ROWS_BY);
    const dim3 colsGrid(W / COLS_BX, H / (COLS_STEPS * COLS_BY)), colsBlock(COLS_BX, COLS_BY);
    convolutionRowsKernel<<<rowsGrid, rowsBlock>>>(d_buf, d_in, W, H, W);
    HIP_CHECK(hipGetLastError());
    convolutionColumnsKernel<<<colsGrid, colsBlock>>>(d_out, d_buf, W, H, W);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    int failed = 0;
    if (check) {
        float *ref = (float *)malloc(bytes), *ref2 = (float *)malloc(bytes), *got = (float *)malloc(bytes);
        if (!ref || !ref2 || !got) {
            fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
            return 1;
        }
        convolveHost(ref, h_in, taps, W, H, 1);
        HIP_CHECK(hipMemcpy(got, d_buf, bytes, hipMemcpyDeviceToHost));
        report("convolutionRowsKernel", maxRelError(got, ref, pixels), &failed);
        // the columns pass is checked on the device's own rows output
        convolveHost(ref2, got, taps, W, H, 0);
        HIP_CHECK(hipMemcpy(got, d_out, bytes, hipMemcpyDeviceToHost));
        report("convolutionColumnsKernel", maxRelError(got, ref2, pixels), &failed);
        free(ref);
        free(ref2);
        free(got);
    }

    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_buf));
    HIP_CHECK(hipFree(d_out));
    free(h_in);
    printf("cudasamples_convolution_separable: 2 kernels on a %d x %d image, radius %d\n", W, H, RADIUS);
    return failed ? 1 : 0;
}
