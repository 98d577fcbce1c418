// Validation programs for the time model, project "liu": the three sgemv
// kernels of Xiandong Liu's "How to optimize in GPU"
// (github.com/Liu-xiandong/How_to_optimize_in_GPU, Apache-2.0, read at commit
// 5d2def3e082c4e1364c3ade54451b7b9d1d6f044: sgemv/Sgemv_v0.cu, Sgemv_v1.cu,
// Sgemv_v2.cu; times in README.md, section "3. sgemv").
//
// Written here from those files (nothing copied): y = A x for a row-major
// M x N float matrix A, one warp of 32 lanes per row (v0, v1) or per two rows
// (v2), a shuffle sum per warp, lane 0 of the row's lanes storing y[row].
// Blocks of 32 x 4 threads (four warps).
//   Sgemv_v0     N = 32 (the file's case): each lane reads N / 32 floats of its
//                row, lane-strided, and x alike; M / 4 blocks
//   Sgemv_v1     N = 128 (N >= 128): each lane reads N / 128 float4s of its row
//                and of x; M / 4 blocks
//   Sgemv_v2<2>  N = 16 (N <= 16): ROW_PER_WARP = 2 rows a warp, 16 lanes a row,
//                one float each, a 16-lane shuffle sum; M / 8 blocks
// The validation size is the README's: M = 16384 with N = 32, 128 and 16, the
// row each version's time is published for (V100, Nsight).
//
// Wave size: 32 (laneId = tx % 32, the row's lanes are a warp of 32, shuffles
// from offset 16); kept as written.
//
// Differences: __shfl_down_sync(0xffffffff, v, d) is HIP's __shfl_down(v, d);
// each kernel is launched once (the originals 1000 times, then cuBLAS, which is
// left out). Inputs are hashed multiples of 1/256 (the originals: A[i] = i / N,
// x = 1); one buffer of M x 128 floats holds A for all three, each kernel
// reading its first M x N. --small: M = 2056; the launches' M / 4 and M / 8
// blocks need M a multiple of 8 here, as in the originals.
#include <hip/hip_runtime.h>

#include <math.h>
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

// The sum over a group of `width` lanes by shuffles (offsets width/2 .. 1).
template <unsigned int WarpSize> __device__ __forceinline__ float warpReduceSum(float v) {
    if (WarpSize >= 32) v += __shfl_down(v, 16);
    if (WarpSize >= 16) v += __shfl_down(v, 8);
    if (WarpSize >= 8) v += __shfl_down(v, 4);
    if (WarpSize >= 4) v += __shfl_down(v, 2);
    if (WarpSize >= 2) v += __shfl_down(v, 1);
    return v;
}

// N == 32: a warp per row, one float per lane per 32 columns.
__global__ void Sgemv_v0(float *__restrict__ A, float *__restrict__ x, float *__restrict__ y, const int M,
                         const int N) {
    const int warp_size = 32;
    const int lane = threadIdx.x % warp_size;
    const int row = blockDim.y * blockIdx.x + threadIdx.y;
    if (row < M) {
        float acc = 0;
        int steps = N / warp_size;
        if (steps == 0) steps = 1;
#pragma unroll
        for (int k = 0; k < steps; k++) {
            const int col = k * warp_size + lane;
            acc += A[row * N + col] * x[col];
        }
        acc = warpReduceSum<warp_size>(acc);
        if (lane == 0) y[row] = acc;
    }
}

// N >= 128: a warp per row, one float4 per lane per 128 columns.
__global__ void Sgemv_v1(float *__restrict__ A, float *__restrict__ x, float *__restrict__ y, const int M,
                         const int N) {
    const int warp_size = 32;
    const int lane = threadIdx.x % warp_size;
    const int row = blockDim.y * blockIdx.x + threadIdx.y;
    if (row < M) {
        float acc = 0;
        int steps = (N / warp_size) / 4;
        if (steps == 0) steps = 1;
        A = &A[row * N];
#pragma unroll
        for (int k = 0; k < steps; k++) {
            const int quad = k * warp_size + lane;
            const float4 a4 = reinterpret_cast<float4 *>(A)[quad];
            const float4 x4 = reinterpret_cast<float4 *>(x)[quad];
            acc += a4.x * x4.x;
            acc += a4.y * x4.y;
            acc += a4.z * x4.z;
            acc += a4.w * x4.w;
        }
        acc = warpReduceSum<warp_size>(acc);
        if (lane == 0) y[row] = acc;
    }
}

// N <= 16: ROW_PER_WARP rows per warp, 32 / ROW_PER_WARP lanes per row, one
// element per lane.
template <const int ROW_PER_WARP>
__global__ void Sgemv_v2(float *__restrict__ A, float *__restrict__ x, float *__restrict__ y, const int M,
                         const int N) {
    const int warp_size = 32;
    const int lane = threadIdx.x % warp_size;
    const int first_row = (blockDim.y * blockIdx.x + threadIdx.y) * ROW_PER_WARP;
    const int row_lanes = warp_size / ROW_PER_WARP;
    const int lane_in_row = lane % row_lanes;
    const int row = first_row + lane / row_lanes;
    if (row < M) {
        float acc = 0;
        const int col = lane_in_row;
        acc += A[row * N + col] * x[col];
        acc = warpReduceSum<row_lanes>(acc);
        if (lane_in_row == 0) y[row] = acc;
    }
}

static unsigned hash32(unsigned v) {
    v ^= v >> 16;
    v *= 0x7feb352du;
    v ^= v >> 15;
    v *= 0x846ca68bu;
    v ^= v >> 16;
    return v;
}

// y against a host A x in double; the error is relative to sum |A||x| per row.
static int report(const char *kernel, const float *y, const float *A, const float *x, int M, int N) {
    double worst = 0.0;
    for (int r = 0; r < M; r++) {
        double ref = 0.0, mag = 0.0;
        for (int c = 0; c < N; c++) {
            ref += (double)A[(size_t)r * N + c] * x[c];
            mag += fabs((double)A[(size_t)r * N + c] * x[c]);
        }
        const double err = fabs((double)y[r] - ref) / fmax(mag, 1e-30);
        if (!(err <= worst)) worst = err;
    }
    const int ok = worst <= 1e-5;
    printf("check %s: max error %g (%s)\n", kernel, worst, ok ? "ok" : "FAILED");
    return ok;
}

int main(int argc, char **argv) {
    int small = 0, check = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--small")) small = 1;
        else if (!strcmp(argv[i], "--check")) check = 1;
        else {
            fprintf(stderr, "usage: %s [--small] [--check]\n", argv[0]);
            return 2;
        }
    }
    const int M = small ? 2056 : 16384;
    const int N_MAX = 128;
    const size_t a_count = (size_t)M * N_MAX;

    float *h_A = (float *)malloc(a_count * sizeof(float)), *h_x = (float *)malloc(N_MAX * sizeof(float));
    float *h_y = (float *)malloc(M * sizeof(float));
    if (!h_A || !h_x || !h_y) {
        fprintf(stderr, "%s:%d: malloc failed\n", __FILE__, __LINE__);
        return 1;
    }
    for (size_t i = 0; i < a_count; i++) h_A[i] = (float)((int)(hash32((unsigned)i) % 513u) - 256) / 256.0f;
    for (int i = 0; i < N_MAX; i++) h_x[i] = (float)((int)(hash32((unsigned)i + 0x51ed27u) % 513u) - 256) / 256.0f;

    float *d_A = nullptr, *d_x = nullptr, *d_y = nullptr;
    HIP_CHECK(hipMalloc(&d_A, a_count * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_x, N_MAX * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_y, M * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_A, h_A, a_count * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_x, h_x, N_MAX * sizeof(float), hipMemcpyHostToDevice));

    int good = 1;
    const dim3 block(32, 4);

    // v0: N = 32, M / 4 blocks
    if (check) HIP_CHECK(hipMemset(d_y, 0xFF, M * sizeof(float)));
    Sgemv_v0<<<dim3(M / 4), block>>>(d_A, d_x, d_y, M, 32);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    if (check) {
        HIP_CHECK(hipMemcpy(h_y, d_y, M * sizeof(float), hipMemcpyDeviceToHost));
        good &= report("Sgemv_v0", h_y, h_A, h_x, M, 32);
        HIP_CHECK(hipMemset(d_y, 0xFF, M * sizeof(float)));
    }

    // v1: N = 128, M / 4 blocks
    Sgemv_v1<<<dim3(M / 4), block>>>(d_A, d_x, d_y, M, 128);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    if (check) {
        HIP_CHECK(hipMemcpy(h_y, d_y, M * sizeof(float), hipMemcpyDeviceToHost));
        good &= report("Sgemv_v1", h_y, h_A, h_x, M, 128);
        HIP_CHECK(hipMemset(d_y, 0xFF, M * sizeof(float)));
    }

    // v2: N = 16, two rows a warp, (128 / 32) * 2 = 8 rows a block
    const int ROW_PER_WARP = 2, ROW_PER_BLOCK = (128 / 32) * ROW_PER_WARP;
    Sgemv_v2<ROW_PER_WARP><<<dim3(M / ROW_PER_BLOCK), block>>>(d_A, d_x, d_y, M, 16);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    if (check) {
        HIP_CHECK(hipMemcpy(h_y, d_y, M * sizeof(float), hipMemcpyDeviceToHost));
        good &= report("Sgemv_v2<2>", h_y, h_A, h_x, M, 16);
    }

    HIP_CHECK(hipFree(d_A));
    HIP_CHECK(hipFree(d_x));
    HIP_CHECK(hipFree(d_y));
    free(h_A);
    free(h_x);
    free(h_y);
    printf("liu_sgemv: Sgemv_v0 (N = 32), Sgemv_v1 (N = 128), Sgemv_v2<2> (N = 16) launched once each, M = %d\n", M);
    return check && !good ? 1 : 0;
}
