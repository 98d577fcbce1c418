// LeetCUDA (github.com/xlite-dev/LeetCUDA, commit cb6a0497e829, GPL-3.0): its
// FP32 LayerNorm and RMSNorm kernels, written here from the repository's
// kernels/layer-norm/layer_norm.cu and kernels/rms-norm/rms_norm.cu (PyTorch
// extensions; nothing copied). Kernel names, template parameters
// (NUM_THREADS, the block size), launch shapes, vector widths, the warp
// shuffles (offsets 16 .. 1 within warps of 32), the per-warp shared partials
// and the shared mean and scale are the project's. Each kernel normalises
// one row of an N x K matrix per block, one float (or one float4) per
// thread, and scales by the scalars g (and shifts by b); the bindings launch
// N blocks of K (or K / 4) threads, NUM_THREADS = the block size. Size: N x K
// = 4096 x 1024 (layer_norm.py and rms_norm.py run every kernel here at 4096
// x 512 and 4096 x 1024, the f32x4 ones beyond), g = 1, b = 0 as the scripts
// pass them:
//
//   layer_norm_f32_kernel<1024>: block sum for the mean, block sum of squared
//     deviations for the variance; 4096 blocks of 1024.
//   layer_norm_f32x4_kernel<256>: the same on one float4 per thread; 4096
//     blocks of 256.
//   rms_norm_f32_kernel<1024>: one block sum of squares; 4096 blocks of 1024.
//   rms_norm_f32x4_kernel<256>: the same on one float4 per thread; 4096
//     blocks of 256.
//
// Differences: inputs come from an integer hash (torch.randn in the scripts);
// each kernel is launched once (the scripts time 1000 calls). The project
// declares the block reduction's array "static __shared__"; here plain
// "__shared__", which is static in a device function anyway (the executor's
// __shared__ already says static and cannot take a second one).
//
// --small: N = 7 rows of the same K (the block size is K, so K stays).
// --check compares every output with a double-precision reference.
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

#define WARP_SIZE 32 // the project's warp, as written

template <int kWarpSize = WARP_SIZE> __device__ __forceinline__ float warp_reduce_sum_f32(float v) {
#pragma unroll
    for (int offset = kWarpSize >> 1; offset >= 1; offset >>= 1) v += __shfl_xor(v, offset);
    return v;
}

// Block sum: each warp's total to shared memory, then every warp reduces the
// warps' totals; thread 0's result is the block's (no broadcast: only thread
// 0 uses it).
template <int NUM_THREADS = 256> __device__ __forceinline__ float block_reduce_sum_f32(float v) {
    constexpr int NUM_WARPS = (NUM_THREADS + WARP_SIZE - 1) / WARP_SIZE;
    __shared__ float totals[NUM_WARPS];
    const int warp = threadIdx.x / WARP_SIZE, lane = threadIdx.x % WARP_SIZE;
    v = warp_reduce_sum_f32<WARP_SIZE>(v);
    if (lane == 0) totals[warp] = v;
    __syncthreads();
    v = (lane < NUM_WARPS) ? totals[lane] : 0.0f;
    return warp_reduce_sum_f32<NUM_WARPS>(v);
}

// ---- LayerNorm ---------------------------------------------------------------

template <int NUM_THREADS = 256>
__global__ void layer_norm_f32_kernel(float *x, float *y, float g, float b, int N, int K) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float eps = 1e-5f;
    __shared__ float s_mean;
    __shared__ float s_variance; // holds 1 / sqrt(variance + eps)
    const float v = (i < N * K) ? x[i] : 0.0f;
    const float sum = block_reduce_sum_f32<NUM_THREADS>(v);
    if (threadIdx.x == 0) s_mean = sum / (float)K;
    __syncthreads();
    float sq = (v - s_mean) * (v - s_mean);
    sq = block_reduce_sum_f32<NUM_THREADS>(sq);
    if (threadIdx.x == 0) s_variance = rsqrtf(sq / (float)K + eps);
    __syncthreads();
    if (i < N * K) y[i] = ((v - s_mean) * s_variance) * g + b;
}

// One float4 per thread; the load comes before the bounds test, as in the project.
template <int NUM_THREADS = 256 / 4>
__global__ void layer_norm_f32x4_kernel(float *x, float *y, float g, float b, int N, int K) {
    const int base = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    const float eps = 1e-5f;
    __shared__ float s_mean;
    __shared__ float s_variance;
    const float4 v = reinterpret_cast<float4 *>(x + base)[0];
    const float part = (base < N * K) ? (v.x + v.y + v.z + v.w) : 0.0f;
    const float sum = block_reduce_sum_f32<NUM_THREADS>(part);
    if (threadIdx.x == 0) s_mean = sum / (float)K;
    __syncthreads();
    float4 d;
    d.x = v.x - s_mean;
    d.y = v.y - s_mean;
    d.z = v.z - s_mean;
    d.w = v.w - s_mean;
    float sq = d.x * d.x + d.y * d.y + d.z * d.z + d.w * d.w;
    sq = block_reduce_sum_f32<NUM_THREADS>(sq);
    if (threadIdx.x == 0) s_variance = rsqrtf(sq / (float)K + eps);
    __syncthreads();
    float4 out;
    out.x = d.x * s_variance * g + b;
    out.y = d.y * s_variance * g + b;
    out.z = d.z * s_variance * g + b;
    out.w = d.w * s_variance * g + b;
    if (base < N * K) reinterpret_cast<float4 *>(y + base)[0] = out;
}

// ---- RMSNorm -----------------------------------------------------------------

template <int NUM_THREADS = 256> __global__ void rms_norm_f32_kernel(float *x, float *y, float g, int N, int K) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float eps = 1e-5f;
    __shared__ float s_variance; // holds 1 / rms
    const float v = (i < N * K) ? x[i] : 0.0f;
    const float sq = block_reduce_sum_f32<NUM_THREADS>(v * v);
    if (threadIdx.x == 0) s_variance = rsqrtf(sq / (float)K + eps);
    __syncthreads();
    if (i < N * K) y[i] = (v * s_variance) * g;
}

template <int NUM_THREADS = 256 / 4> __global__ void rms_norm_f32x4_kernel(float *x, float *y, float g, int N, int K) {
    const int base = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    const float eps = 1e-5f;
    __shared__ float s_variance;
    const float4 v = reinterpret_cast<float4 *>(x + base)[0];
    float sq = (base < N * K) ? (v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w) : 0.0f;
    sq = block_reduce_sum_f32<NUM_THREADS>(sq);
    if (threadIdx.x == 0) s_variance = rsqrtf(sq / (float)K + eps);
    __syncthreads();
    float4 out;
    out.x = v.x * s_variance * g;
    out.y = v.y * s_variance * g;
    out.z = v.z * s_variance * g;
    out.w = v.w * s_variance * g;
    if (base < N * K) reinterpret_cast<float4 *>(y + base)[0] = out;
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

// Largest |gpu - reference| over the matrix; rms = 1 for RMSNorm, 0 for LayerNorm.
static double norm_error(const float *x, const float *gpu, int rows, int cols, float g, float b, int rms) {
    double worst = 0;
    for (int r = 0; r < rows; r++) {
        const float *row = x + (size_t)r * cols;
        double mean = 0, sq = 0;
        if (!rms) {
            for (int j = 0; j < cols; j++) mean += row[j];
            mean /= cols;
        }
        for (int j = 0; j < cols; j++) sq += (row[j] - mean) * (row[j] - mean);
        const double scale = 1.0 / sqrt(sq / cols + 1e-5);
        for (int j = 0; j < cols; j++) {
            const double want = rms ? row[j] * scale * g : (row[j] - mean) * scale * g + b;
            worst = fmax(worst, fabs(gpu[(size_t)r * cols + j] - want));
        }
    }
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
    const int N = small ? 7 : 4096;
    constexpr int K = 1024;
    const float g = 1.0f, b = 0.0f;
    const size_t bytes = (size_t)N * K * sizeof(float);

    float *hx = (float *)malloc(bytes), *hy = (float *)malloc(bytes);
    if (!hx || !hy) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    for (int i = 0; i < N * K; i++) hx[i] = hashed_value(i, 7);

    float *x, *y;
    HIP_CHECK(hipMalloc(&x, bytes));
    HIP_CHECK(hipMalloc(&y, bytes));
    HIP_CHECK(hipMemcpy(x, hx, bytes, hipMemcpyHostToDevice));

    int failed = 0;
    const double tol = 1e-4; // outputs of order 1, float sums of 1024 terms

    layer_norm_f32_kernel<K><<<N, K>>>(x, y, g, b, N, K);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(hy, y, bytes, hipMemcpyDeviceToHost));
        failed |= report("layer_norm_f32_kernel<1024>", norm_error(hx, hy, N, K, g, b, 0), tol);
        HIP_CHECK(hipMemset(y, 0, bytes));
    }

    layer_norm_f32x4_kernel<K / 4><<<N, K / 4>>>(x, y, g, b, N, K);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(hy, y, bytes, hipMemcpyDeviceToHost));
        failed |= report("layer_norm_f32x4_kernel<256>", norm_error(hx, hy, N, K, g, b, 0), tol);
        HIP_CHECK(hipMemset(y, 0, bytes));
    }

    rms_norm_f32_kernel<K><<<N, K>>>(x, y, g, N, K);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(hy, y, bytes, hipMemcpyDeviceToHost));
        failed |= report("rms_norm_f32_kernel<1024>", norm_error(hx, hy, N, K, g, b, 1), tol);
        HIP_CHECK(hipMemset(y, 0, bytes));
    }

    rms_norm_f32x4_kernel<K / 4><<<N, K / 4>>>(x, y, g, N, K);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(hy, y, bytes, hipMemcpyDeviceToHost));
        failed |= report("rms_norm_f32x4_kernel<256>", norm_error(hx, hy, N, K, g, b, 1), tol);
    }

    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(x));
    HIP_CHECK(hipFree(y));
    free(hx);
    free(hy);
    if (failed) return 1;
    printf("leetcuda_norm: 4 kernels, %d rows of %d floats\n", N, K);
    return 0;
}
