// Project "nvblog": the 3D finite-difference derivative kernels of the NVIDIA
// developer blog's CUDA C/C++ series (Greg Ruetsch and Mark Harris, "Finite
// Difference Methods in CUDA C/C++", Parts 1 and 2, 2013; code at
// github.com/NVIDIA-developer-blog/code-samples, commit 72d62ec46444,
// BSD-3-Clause, series/cuda-cpp/finite-difference/finite-difference.cu),
// written here from reading that file (no text copied). An eighth-order
// central first derivative with periodic boundaries (a line of m points has
// period m - 1: its point m - 1 repeats point 0) on a 64 x 64 x 64 float grid,
// the coefficients in __constant__ memory, each kernel launched once with the
// file's launch shapes (sPencils = 4, lPencils = 32):
//
// - derivative_x: blocks of 64 x 4, a shared tile of 4 x-pencils of 64 + 8
//   floats, one point per thread; grid (64 / 4, 64).
// - derivative_x_lPencils: the same 64 x 4 threads over a tile of 32 pencils,
//   8 points per thread; grid (64 / 32, 64).
// - derivative_y: blocks of 4 x 64, a shared tile of (64 + 8) x 4, one point
//   per thread; grid (64 / 4, 64).
// - derivative_y_lPencils: blocks of 32 x 8 over a (64 + 8) x 32 tile, 8 points
//   per thread; grid (64 / 32, 64).
// - derivative_z, derivative_z_lPencils: as the y kernels along z; grids
//   (64 / 4, 64) and (64 / 32, 64).
//
// Each kernel loads its pencils into shared memory, fills the 4-point halos on
// both sides from the periodic images after a barrier, and after a second one
// writes df = a (f[+1] - f[-1]) + b (f[+2] - f[-2]) + c (f[+3] - f[-3]) +
// d (f[+4] - f[-4]). Size: the posts' 64^3 grid (the grid is a compile-time
// constant of the kernels, so --small runs the same size). Differences: f is
// a hash in [-1, 1) rather than the posts' cosines; each kernel runs once, not
// after a warm-up and 20 timed repetitions.
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

const int mx = 64, my = 64, mz = 64;
const int sPencils = 4;
const int lPencils = 32;

__constant__ float c_ax, c_bx, c_cx, c_dx;
__constant__ float c_ay, c_by, c_cy, c_dy;
__constant__ float c_az, c_bz, c_cz, c_dz;

// ---- x ---------------------------------------------------------------------

__global__ void derivative_x(float *f, float *df) {
    __shared__ float tile[sPencils][mx + 8]; // 4 halo points each side
    const int x = threadIdx.x;
    const int y = blockIdx.x * blockDim.y + threadIdx.y;
    const int z = blockIdx.y;
    const int tx = x + 4, ty = threadIdx.y;
    const int at = z * mx * my + y * mx + x;

    tile[ty][tx] = f[at];
    __syncthreads();
    if (x < 4) { // periodic images
        tile[ty][tx - 4] = tile[ty][tx + mx - 5];
        tile[ty][tx + mx] = tile[ty][tx + 1];
    }
    __syncthreads();
    df[at] = (c_ax * (tile[ty][tx + 1] - tile[ty][tx - 1]) + c_bx * (tile[ty][tx + 2] - tile[ty][tx - 2]) +
              c_cx * (tile[ty][tx + 3] - tile[ty][tx - 3]) + c_dx * (tile[ty][tx + 4] - tile[ty][tx - 4]));
}

// 32 pencils per block, still 64 x 4 threads: each thread row handles every 4th pencil
__global__ void derivative_x_lPencils(float *f, float *df) {
    __shared__ float tile[lPencils][mx + 8];
    const int x = threadIdx.x;
    const int y0 = blockIdx.x * lPencils;
    const int z = blockIdx.y;
    const int tx = x + 4;

    for (int ty = threadIdx.y; ty < lPencils; ty += blockDim.y) tile[ty][tx] = f[z * mx * my + (y0 + ty) * mx + x];
    __syncthreads();
    if (x < 4) {
        for (int ty = threadIdx.y; ty < lPencils; ty += blockDim.y) {
            tile[ty][tx - 4] = tile[ty][tx + mx - 5];
            tile[ty][tx + mx] = tile[ty][tx + 1];
        }
    }
    __syncthreads();
    for (int ty = threadIdx.y; ty < lPencils; ty += blockDim.y)
        df[z * mx * my + (y0 + ty) * mx + x] =
            (c_ax * (tile[ty][tx + 1] - tile[ty][tx - 1]) + c_bx * (tile[ty][tx + 2] - tile[ty][tx - 2]) +
             c_cx * (tile[ty][tx + 3] - tile[ty][tx - 3]) + c_dx * (tile[ty][tx + 4] - tile[ty][tx - 4]));
}

// ---- y ---------------------------------------------------------------------

__global__ void derivative_y(float *f, float *df) {
    __shared__ float tile[my + 8][sPencils];
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = threadIdx.y;
    const int z = blockIdx.y;
    const int tx = threadIdx.x, ty = y + 4;
    const int at = z * mx * my + y * mx + x;

    tile[ty][tx] = f[at];
    __syncthreads();
    if (y < 4) {
        tile[ty - 4][tx] = tile[ty + my - 5][tx];
        tile[ty + my][tx] = tile[ty + 1][tx];
    }
    __syncthreads();
    df[at] = (c_ay * (tile[ty + 1][tx] - tile[ty - 1][tx]) + c_by * (tile[ty + 2][tx] - tile[ty - 2][tx]) +
              c_cy * (tile[ty + 3][tx] - tile[ty - 3][tx]) + c_dy * (tile[ty + 4][tx] - tile[ty - 4][tx]));
}

// a 32-wide tile, blocks of 32 x 8: each thread row handles every 8th y
__global__ void derivative_y_lPencils(float *f, float *df) {
    __shared__ float tile[my + 8][lPencils];
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int z = blockIdx.y;
    const int tx = threadIdx.x;

    for (int y = threadIdx.y; y < my; y += blockDim.y) tile[y + 4][tx] = f[z * mx * my + y * mx + x];
    __syncthreads();
    const int th = threadIdx.y + 4;
    if (th < 8) {
        tile[th - 4][tx] = tile[th + my - 5][tx];
        tile[th + my][tx] = tile[th + 1][tx];
    }
    __syncthreads();
    for (int y = threadIdx.y; y < my; y += blockDim.y) {
        const int ty = y + 4;
        df[z * mx * my + y * mx + x] =
            (c_ay * (tile[ty + 1][tx] - tile[ty - 1][tx]) + c_by * (tile[ty + 2][tx] - tile[ty - 2][tx]) +
             c_cy * (tile[ty + 3][tx] - tile[ty - 3][tx]) + c_dy * (tile[ty + 4][tx] - tile[ty - 4][tx]));
    }
}

// ---- z ---------------------------------------------------------------------

__global__ void derivative_z(float *f, float *df) {
    __shared__ float tile[mz + 8][sPencils];
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y;
    const int z = threadIdx.y;
    const int tx = threadIdx.x, tz = z + 4;
    const int at = z * mx * my + y * mx + x;

    tile[tz][tx] = f[at];
    __syncthreads();
    if (z < 4) {
        tile[tz - 4][tx] = tile[tz + mz - 5][tx];
        tile[tz + mz][tx] = tile[tz + 1][tx];
    }
    __syncthreads();
    df[at] = (c_az * (tile[tz + 1][tx] - tile[tz - 1][tx]) + c_bz * (tile[tz + 2][tx] - tile[tz - 2][tx]) +
              c_cz * (tile[tz + 3][tx] - tile[tz - 3][tx]) + c_dz * (tile[tz + 4][tx] - tile[tz - 4][tx]));
}

__global__ void derivative_z_lPencils(float *f, float *df) {
    __shared__ float tile[mz + 8][lPencils];
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y;
    const int tx = threadIdx.x;

    for (int z = threadIdx.y; z < mz; z += blockDim.y) tile[z + 4][tx] = f[z * mx * my + y * mx + x];
    __syncthreads();
    const int th = threadIdx.y + 4;
    if (th < 8) {
        tile[th - 4][tx] = tile[th + mz - 5][tx];
        tile[th + mz][tx] = tile[th + 1][tx];
    }
    __syncthreads();
    for (int z = threadIdx.y; z < mz; z += blockDim.y) {
        const int tz = z + 4;
        df[z * mx * my + y * mx + x] =
            (c_az * (tile[tz + 1][tx] - tile[tz - 1][tx]) + c_bz * (tile[tz + 2][tx] - tile[tz - 2][tx]) +
             c_cz * (tile[tz + 3][tx] - tile[tz - 3][tx]) + c_dz * (tile[tz + 4][tx] - tile[tz - 4][tx]));
    }
}

// ---- host ------------------------------------------------------------------

static uint32_t hash32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

// the point a periodic line of m points maps index i to (period m - 1)
static int wrap(int i, int m) { return i < 0 ? i + m - 1 : (i >= m ? i - m + 1 : i); }

// the derivative along `dim` (0 x, 1 y, 2 z) in double, the kernels' formula
static void hostDerivative(double *out, const float *f, const float w[4], int dim) {
    for (int z = 0; z < mz; z++)
        for (int y = 0; y < my; y++)
            for (int x = 0; x < mx; x++) {
                double s = 0;
                for (int o = 1; o <= 4; o++) {
                    int xp = x, yp = y, zp = z, xm = x, ym = y, zm = z;
                    if (dim == 0) xp = wrap(x + o, mx), xm = wrap(x - o, mx);
                    if (dim == 1) yp = wrap(y + o, my), ym = wrap(y - o, my);
                    if (dim == 2) zp = wrap(z + o, mz), zm = wrap(z - o, mz);
                    s += (double)w[o - 1] * ((double)f[zp * mx * my + yp * mx + xp] - f[zm * mx * my + ym * mx + xm]);
                }
                out[z * mx * my + y * mx + x] = s;
            }
}

int main(int argc, char **argv) {
    int check = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--small"))
            ; // the grid is fixed by the kernels: same size
        else if (!strcmp(argv[i], "--check"))
            check = 1;
        else {
            fprintf(stderr, "usage: %s [--small] [--check]\n", argv[0]);
            return 2;
        }
    }
    const int points = mx * my * mz;
    const size_t bytes = (size_t)points * sizeof(float);

    // coefficients as the file sets them (unit-length domain, spacing 1 / (m - 1))
    float w[3][4];
    const int m[3] = {mx, my, mz};
    for (int d = 0; d < 3; d++) {
        const float inv = m[d] - 1.f;
        w[d][0] = 4.f / 5.f * inv;
        w[d][1] = -1.f / 5.f * inv;
        w[d][2] = 4.f / 105.f * inv;
        w[d][3] = -1.f / 280.f * inv;
    }
    HIP_CHECK(hipMemcpyToSymbol(c_ax, &w[0][0], sizeof(float)));
    HIP_CHECK(hipMemcpyToSymbol(c_bx, &w[0][1], sizeof(float)));
    HIP_CHECK(hipMemcpyToSymbol(c_cx, &w[0][2], sizeof(float)));
    HIP_CHECK(hipMemcpyToSymbol(c_dx, &w[0][3], sizeof(float)));
    HIP_CHECK(hipMemcpyToSymbol(c_ay, &w[1][0], sizeof(float)));
    HIP_CHECK(hipMemcpyToSymbol(c_by, &w[1][1], sizeof(float)));
    HIP_CHECK(hipMemcpyToSymbol(c_cy, &w[1][2], sizeof(float)));
    HIP_CHECK(hipMemcpyToSymbol(c_dy, &w[1][3], sizeof(float)));
    HIP_CHECK(hipMemcpyToSymbol(c_az, &w[2][0], sizeof(float)));
    HIP_CHECK(hipMemcpyToSymbol(c_bz, &w[2][1], sizeof(float)));
    HIP_CHECK(hipMemcpyToSymbol(c_cz, &w[2][2], sizeof(float)));
    HIP_CHECK(hipMemcpyToSymbol(c_dz, &w[2][3], sizeof(float)));

    float *h_f = (float *)malloc(bytes);
    if (!h_f) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    for (int i = 0; i < points; i++) h_f[i] = (float)(hash32((uint32_t)i + 4242U) % 2048U) / 1024.f - 1.f;

    float *d_f = nullptr, *d_df[6] = {nullptr};
    HIP_CHECK(hipMalloc(&d_f, bytes));
    for (int k = 0; k < 6; k++) HIP_CHECK(hipMalloc(&d_df[k], bytes));
    HIP_CHECK(hipMemcpy(d_f, h_f, bytes, hipMemcpyHostToDevice));

    derivative_x<<<dim3(my / sPencils, mz), dim3(mx, sPencils)>>>(d_f, d_df[0]);
    HIP_CHECK(hipGetLastError());
    derivative_x_lPencils<<<dim3(my / lPencils, mz), dim3(mx, sPencils)>>>(d_f, d_df[1]);
    HIP_CHECK(hipGetLastError());
    derivative_y<<<dim3(mx / sPencils, mz), dim3(sPencils, my)>>>(d_f, d_df[2]);
    HIP_CHECK(hipGetLastError());
    derivative_y_lPencils<<<dim3(mx / lPencils, mz), dim3(lPencils, my * sPencils / lPencils)>>>(d_f, d_df[3]);
    HIP_CHECK(hipGetLastError());
    derivative_z<<<dim3(mx / sPencils, my), dim3(sPencils, mz)>>>(d_f, d_df[4]);
    HIP_CHECK(hipGetLastError());
    derivative_z_lPencils<<<dim3(mx / lPencils, my), dim3(lPencils, mz * sPencils / lPencils)>>>(d_f, d_df[5]);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    int failed = 0;
    if (check) {
        double *ref = (double *)malloc((size_t)points * sizeof(double));
        float *got = (float *)malloc(bytes);
        if (!ref || !got) {
            fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
            return 1;
        }
        const char *names[6] = {"derivative_x", "derivative_x_lPencils", "derivative_y",
                                "derivative_y_lPencils", "derivative_z", "derivative_z_lPencils"};
        for (int k = 0; k < 6; k++) {
            const int dim = k / 2;
            if (k % 2 == 0) hostDerivative(ref, h_f, w[dim], dim);
            HIP_CHECK(hipMemcpy(got, d_df[k], bytes, hipMemcpyDeviceToHost));
            // error relative to the largest derivative (values of order 100)
            double worst = 0, scale = 0;
            for (int i = 0; i < points; i++) scale = fmax(scale, fabs(ref[i]));
            for (int i = 0; i < points; i++) worst = fmax(worst, fabs(got[i] - ref[i]) / scale);
            const int ok = worst < 1e-5;
            printf("check %s: max error %g (%s)\n", names[k], worst, ok ? "ok" : "FAILED");
            if (!ok) failed = 1;
        }
        free(ref);
        free(got);
    }

    HIP_CHECK(hipFree(d_f));
    for (int k = 0; k < 6; k++) HIP_CHECK(hipFree(d_df[k]));
    free(h_f);
    printf("nvblog_finite_difference: 6 derivative kernels on a %d x %d x %d grid\n", mx, my, mz);
    return failed ? 1 : 0;
}
