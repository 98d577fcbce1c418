// LeetCUDA (github.com/xlite-dev/LeetCUDA, commit cb6a0497e829, GPL-3.0): its
// FP32 matrix-vector products and two of its matrix transposes, written here
// from the repository's kernels/sgemv/sgemv.cu and
// kernels/mat-transpose/mat_transpose.cu (PyTorch extensions; nothing
// copied). Kernel names, template parameters, launch shapes, vector widths,
// the warp shuffles (offsets 16 .. 1 within warps of 32, or 8 .. 1 within
// half-warps), the shared tile with its padding column and every index
// mapping are the project's; each launch shape is the one its extension
// binding computes for the tensors its script passes:
//
//   sgemv_k32_f32_kernel: y = A x, one warp per row of A (M x K, K a
//     multiple of 32), lane l summing columns l, l + 32, ...; blocks of
//     32 x 4 threads (4 rows), ceil(M / 4) blocks. sgemv.py: M = 1024,
//     K = 128: 256 blocks.
//   sgemv_k128_f32x4_kernel: the same with one float4 of A and of x per lane
//     per step (K a multiple of 128); M = 1024, K = 128: 256 blocks of 32 x 4.
//   sgemv_k16_f32_kernel<2>: K = 16, two rows per warp (half a warp each,
//     one product per lane, a 16-lane shuffle sum); blocks of 32 x 4 (8 rows),
//     ceil(M / 8) blocks. sgemv.py: M = 1024, K = 16: 128 blocks.
//   mat_transpose_f32_col2row_kernel: the naive transpose, one element per
//     thread, reading x (M x N) row by row and writing y (N x M) with a
//     stride of M; flat blocks of 256, M N / 256 blocks. mat_transpose.py:
//     M = N = 4096 (one of its 16 shapes, 1024 .. 8192 each way): 65,536 blocks.
//   mat_transpose_f32x4_shared_bcf_row2col2d_kernel: each 16 x 16 block moves
//     a 64 x 16 tile of x through shared memory (float tile[64][16 + 1], the
//     padding against bank conflicts): each thread reads four rows of one
//     column of x, and after the barrier writes four elements of one row of
//     y from a column of the tile. Grid (N / 16, M / 64) = (256, 64) at
//     4096 x 4096.
//
// The sgemv sizes are the script's (its only ones); on a current GPU they are
// a few microseconds, kernels of launch-overhead size.
//
// Differences: inputs come from an integer hash (torch.randn, and
// torch.arange for the transposes, in the scripts); each kernel is launched
// once (the scripts time 200 calls for sgemv, 1000 for the transposes).
//
// --small: sgemv_k32 and k128 on M = 30 (a partial last block), k16 on
// M = 44 (M must be even: a row pair shares a warp's shuffles); the naive
// transpose on 77 x 45 (a partial last block); the shared-memory transpose on
// 128 x 48, whole tiles (its barrier sits inside the bounds test, so it
// needs them). --check compares the transposes exactly and each y[m] with a
// double sum, relative to sum |A[m][k] x[k]|.
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

#define WARP_SIZE 32  // the sgemv kernels' warp, as written
#define TILE 16       // mat_transpose.cu's WARP_SIZE_S: the 2-D blocks' side
#define PAD 1         // the shared tile's extra column

// ---- SGEMV ---------------------------------------------------------------------

template <int kWarpSize = WARP_SIZE> __device__ __forceinline__ float warp_reduce_sum_f32(float v) {
#pragma unroll
    for (int offset = kWarpSize >> 1; offset >= 1; offset >>= 1) v += __shfl_xor(v, offset);
    return v;
}

// Row m = 4 * block + threadIdx.y; lane l takes columns l, l + 32, ...
__global__ void sgemv_k32_f32_kernel(float *a, float *x, float *y, int M, int K) {
    const int lane = threadIdx.x % WARP_SIZE;
    const int m = blockIdx.x * blockDim.y + threadIdx.y;
    if (m < M) {
        float s = 0.0f;
        const int steps = (K + WARP_SIZE - 1) / WARP_SIZE;
#pragma unroll
        for (int w = 0; w < steps; ++w) {
            const int k = w * WARP_SIZE + lane;
            s += a[m * K + k] * x[k];
        }
        s = warp_reduce_sum_f32<WARP_SIZE>(s);
        if (lane == 0) y[m] = s;
    }
}

// As above, lane l taking the float4 at column 4 (32 w + l) at step w.
__global__ void sgemv_k128_f32x4_kernel(float *a, float *x, float *y, int M, int K) {
    const int lane = threadIdx.x % WARP_SIZE;
    const int m = blockDim.y * blockIdx.x + threadIdx.y;
    if (m < M) {
        float s = 0.0f;
        const int steps = (((K + WARP_SIZE - 1) / WARP_SIZE) + 4 - 1) / 4;
#pragma unroll
        for (int w = 0; w < steps; ++w) {
            const int k = (w * WARP_SIZE + lane) * 4;
            const float4 vx = reinterpret_cast<float4 *>(x + k)[0];
            const float4 va = reinterpret_cast<float4 *>(a + m * K + k)[0];
            s += va.x * vx.x + va.y * vx.y + va.z * vx.z + va.w * vx.w;
        }
        s = warp_reduce_sum_f32<WARP_SIZE>(s);
        if (lane == 0) y[m] = s;
    }
}

// K = 16: a warp holds ROW_PER_WARP rows, 32 / ROW_PER_WARP lanes each, one
// product per lane; the lane with k == 0 writes the row's sum.
template <int ROW_PER_WARP = 2> __global__ void sgemv_k16_f32_kernel(float *A, float *x, float *y, int M, int K) {
    constexpr int K_WARP_SIZE = (WARP_SIZE + ROW_PER_WARP - 1) / ROW_PER_WARP;
    const int lane = threadIdx.x % WARP_SIZE;
    const int k = lane % K_WARP_SIZE;
    const int m = (blockDim.y * blockIdx.x + threadIdx.y) * ROW_PER_WARP + lane / K_WARP_SIZE;
    if (m < M) {
        float s = A[m * K + k] * x[k];
        s = warp_reduce_sum_f32<K_WARP_SIZE>(s);
        if (k == 0) y[m] = s;
    }
}

// ---- transposes ----------------------------------------------------------------

// x is row x col; thread i reads x[i] and writes it to y[col index][row index].
__global__ void mat_transpose_f32_col2row_kernel(float *x, float *y, const int row, const int col) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = i / col;
    const int c = i % col;
    if (i < row * col) y[c * row + r] = x[i];
}

// Thread (tx, ty) of block (bx, by) loads x rows 4 gy .. 4 gy + 3 (gy the
// global y) at column gx into tile rows 4 ty .. 4 ty + 3, column tx; after the
// barrier it reads tile row 4 tx + ty / 4, columns 4 (ty % 4) .. + 3, and
// stores them down a column of y.
__global__ void mat_transpose_f32x4_shared_bcf_row2col2d_kernel(float *x, float *y, const int row, const int col) {
    const int gx = blockIdx.x * blockDim.x + threadIdx.x;
    const int gy = blockIdx.y * blockDim.y + threadIdx.y;
    const int tx = threadIdx.x, ty = threadIdx.y;
    __shared__ float tile[TILE * 4][TILE + PAD];
    if (gy * 4 < row && gx < col) {
        float4 v;
        v.x = x[(gy * 4) * col + gx];
        v.y = x[(gy * 4 + 1) * col + gx];
        v.z = x[(gy * 4 + 2) * col + gx];
        v.w = x[(gy * 4 + 3) * col + gx];
        tile[ty * 4][tx] = v.x;
        tile[ty * 4 + 1][tx] = v.y;
        tile[ty * 4 + 2][tx] = v.z;
        tile[ty * 4 + 3][tx] = v.w;
        __syncthreads();
        constexpr int STRIDE = TILE / 4;
        float4 t;
        t.x = tile[tx * 4 + ty / STRIDE][(ty % STRIDE) * 4];
        t.y = tile[tx * 4 + ty / STRIDE][(ty % STRIDE) * 4 + 1];
        t.z = tile[tx * 4 + ty / STRIDE][(ty % STRIDE) * 4 + 2];
        t.w = tile[tx * 4 + ty / STRIDE][(ty % STRIDE) * 4 + 3];
        const int block_x = blockIdx.x * blockDim.x;
        const int block_y = blockIdx.y * blockDim.y;
        const int out_row = block_x + (ty % STRIDE) * 4;           // a column of x
        const int out_col = block_y * 4 + tx * 4 + (ty / STRIDE);  // a row of x
        y[out_row * row + out_col] = t.x;
        y[(out_row + 1) * row + out_col] = t.y;
        y[(out_row + 2) * row + out_col] = t.z;
        y[(out_row + 3) * row + out_col] = t.w;
    }
}

// ---- host ------------------------------------------------------------------

static uint32_t hash32(uint32_t v) {
    v ^= v >> 16;
    v *= 0x7feb352dU;
    v ^= v >> 15;
    v *= 0x846ca68bU;
    v ^= v >> 16;
    return v;
}

// A value in [-2, 2) on a 1/8192 grid.
static float hashed_value(uint32_t i, uint32_t salt) {
    return (float)((int)(hash32(i * 2654435761U + salt) & 0x7fff) - 16384) / 8192.0f;
}

// Largest |y[m] - sum_k A[m][k] x[k]| / sum_k |A[m][k] x[k]|.
static double gemv_error(const float *A, const float *x, const float *y, int M, int K) {
    double worst = 0;
    for (int m = 0; m < M; m++) {
        double s = 0, mag = 0;
        for (int k = 0; k < K; k++) {
            s += (double)A[(size_t)m * K + k] * x[k];
            mag += fabs((double)A[(size_t)m * K + k] * x[k]);
        }
        worst = fmax(worst, fabs(y[m] - s) / (mag > 0 ? mag : 1));
    }
    return worst;
}

// Largest |y[c][r] - x[r][c]| for x of rows x cols.
static double transpose_error(const float *x, const float *y, int rows, int cols) {
    double worst = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) worst = fmax(worst, fabs(y[(size_t)c * rows + r] - x[(size_t)r * cols + c]));
    return worst;
}

static int report(const char *name, double err, double tol) {
    const int ok = err <= tol;
    printf("check %s: max error %.3g (%s)\n", name, err, ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    int small = 0, check = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--small") == 0)
            small = 1;
        else if (strcmp(argv[i], "--check") == 0)
            check = 1;
        else {
            fprintf(stderr, "usage: %s [--small] [--check]\n", argv[0]);
            return 2;
        }
    }
    const int MV = small ? 30 : 1024, KV = 128;          // sgemv_k32, sgemv_k128
    const int M16 = small ? 44 : 1024, K16 = 16;         // sgemv_k16
    const int TR = small ? 77 : 4096, TC = small ? 45 : 4096;  // naive transpose: x is TR x TC
    const int SR = small ? 128 : 4096, SC = small ? 48 : 4096; // shared transpose: x is SR x SC
    const size_t a_elems = (size_t)MV * KV > (size_t)M16 * K16 ? (size_t)MV * KV : (size_t)M16 * K16;
    const size_t t_elems = (size_t)TR * TC > (size_t)SR * SC ? (size_t)TR * TC : (size_t)SR * SC;
    const int y_elems = MV > M16 ? MV : M16;

    float *hA = (float *)malloc(a_elems * sizeof(float)), *hv = (float *)malloc(KV * sizeof(float));
    float *hy = (float *)malloc(y_elems * sizeof(float));
    float *hx = (float *)malloc(t_elems * sizeof(float)), *ht = (float *)malloc(t_elems * sizeof(float));
    if (!hA || !hv || !hy || !hx || !ht) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    for (size_t i = 0; i < a_elems; i++) hA[i] = hashed_value((uint32_t)i, 13);
    for (int k = 0; k < KV; k++) hv[k] = hashed_value(k, 29);
    for (size_t i = 0; i < t_elems; i++) hx[i] = hashed_value((uint32_t)i, 41);

    float *A, *v, *y, *x, *t;
    HIP_CHECK(hipMalloc(&A, a_elems * sizeof(float)));
    HIP_CHECK(hipMalloc(&v, KV * sizeof(float)));
    HIP_CHECK(hipMalloc(&y, y_elems * sizeof(float)));
    HIP_CHECK(hipMalloc(&x, t_elems * sizeof(float)));
    HIP_CHECK(hipMalloc(&t, t_elems * sizeof(float)));
    HIP_CHECK(hipMemcpy(A, hA, a_elems * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(v, hv, KV * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(x, hx, t_elems * sizeof(float), hipMemcpyHostToDevice));

    int failed = 0;
    const double tol = 1e-5;

    // The sgemv bindings: blocks of (32, 4); ceil(M / 4) blocks, or ceil(M / 8) for k16.
    sgemv_k32_f32_kernel<<<(MV + 4 - 1) / 4, dim3(32, 4)>>>(A, v, y, MV, KV);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(hy, y, MV * sizeof(float), hipMemcpyDeviceToHost));
        failed |= report("sgemv_k32_f32_kernel", gemv_error(hA, hv, hy, MV, KV), tol);
        HIP_CHECK(hipMemset(y, 0, y_elems * sizeof(float)));
    }

    sgemv_k128_f32x4_kernel<<<(MV + 4 - 1) / 4, dim3(32, 4)>>>(A, v, y, MV, KV);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(hy, y, MV * sizeof(float), hipMemcpyDeviceToHost));
        failed |= report("sgemv_k128_f32x4_kernel", gemv_error(hA, hv, hy, MV, KV), tol);
        HIP_CHECK(hipMemset(y, 0, y_elems * sizeof(float)));
    }

    sgemv_k16_f32_kernel<2><<<(M16 + 8 - 1) / 8, dim3(32, 4)>>>(A, v, y, M16, K16);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(hy, y, M16 * sizeof(float), hipMemcpyDeviceToHost));
        failed |= report("sgemv_k16_f32_kernel<2>", gemv_error(hA, hv, hy, M16, K16), tol);
    }

    // The 1-D transpose binding: blocks of 256, (M N + 255) / 256 blocks.
    mat_transpose_f32_col2row_kernel<<<(TR * TC + 256 - 1) / 256, 256>>>(x, t, TR, TC);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(ht, t, (size_t)TR * TC * sizeof(float), hipMemcpyDeviceToHost));
        failed |= report("mat_transpose_f32_col2row_kernel", transpose_error(hx, ht, TR, TC), 0.0);
        HIP_CHECK(hipMemset(t, 0, t_elems * sizeof(float)));
    }

    // The 2-D binding for a 4-row-per-thread kernel: blocks of 16 x 16,
    // grid ((N + 15) / 16, (M + 15) / 64).
    const dim3 grid2d((SC + TILE - 1) / TILE, (SR + TILE - 1) / (TILE * 4));
    mat_transpose_f32x4_shared_bcf_row2col2d_kernel<<<grid2d, dim3(TILE, TILE)>>>(x, t, SR, SC);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(ht, t, (size_t)SR * SC * sizeof(float), hipMemcpyDeviceToHost));
        failed |= report("mat_transpose_f32x4_shared_bcf_row2col2d_kernel", transpose_error(hx, ht, SR, SC), 0.0);
    }

    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(A));
    HIP_CHECK(hipFree(v));
    HIP_CHECK(hipFree(y));
    HIP_CHECK(hipFree(x));
    HIP_CHECK(hipFree(t));
    free(hA);
    free(hv);
    free(hy);
    free(hx);
    free(ht);
    if (failed) return 1;
    printf("leetcuda_matrix: 5 kernels, sgemv %d x %d and %d x %d, transposes of %d x %d\n", MV, KV, M16, K16, TR,
           TC);
    return 0;
}
