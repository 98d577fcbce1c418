// LeetCUDA (github.com/xlite-dev/LeetCUDA, commit cb6a0497e829, GPL-3.0): four
// of its FP32 per-token softmax kernels, written here from the repository's
// kernels/softmax/softmax.cu (a PyTorch extension; nothing copied). Kernel
// names, template parameters (NUM_THREADS, the block size), launch shapes,
// vector widths, the warp shuffles (offsets 16 .. 1 within warps of 32), the
// per-warp shared partials and the online (max, sum) pair are the project's.
// Each kernel normalises one row (token) of an S x H matrix per block, one
// element (or one float4) per thread; the binding launches S blocks of H (or
// H / 4) threads, with NUM_THREADS = the block size. Sizes are softmax.py's:
//
//   softmax_f32_per_token_kernel<1024>: exp(x) / block sum of exp(x), no max
//     subtracted; S x H = 4096 x 1024, 4096 blocks of 1024.
//   online_safe_softmax_f32_per_token_kernel<1024>: one pass of (max, sum)
//     pairs merged by warp shuffles, then warp 0 merges the 32 warps' pairs;
//     4096 x 1024, 4096 blocks of 1024.
//   safe_softmax_f32x4_per_token_kernel<1024>: block max, then block sum of
//     exp(x - max), each thread on one float4; S x H = 4096 x 4096 (the
//     script runs the f32x4 kernels up to H = 4096), 4096 blocks of 1024.
//   online_safe_softmax_f32x4_pack_per_token_kernel<1024>: the online pair
//     over one float4 per thread; 4096 x 4096, 4096 blocks of 1024.
//
// Differences: inputs come from an integer hash (torch.randn in the script);
// each kernel is launched once (the script times 100 calls). One change for
// wave 64, none at warps of 32: the online kernels merge the warps' pairs in
// warp 0 only ("if (tid < 32)", lane t reading pair t); here the condition is
// "the thread is in the first hardware wave" (tid < warpSize), the same 32
// threads on an NVIDIA GPU and the whole first wave at wave 64, where a
// shuffle needs every lane, and a lane past 31 takes the empty pair
// (-FLT_MAX, 0) instead of reading shared memory (at warps of 32 the test is
// always true). The online kernels are run only where the block has 32 warps
// (1024 threads): with fewer, the project's warp 0 reads pairs past the end
// of its shared array, which this program does not reproduce.
//
// The project declares the block reductions' arrays "static __shared__";
// here plain "__shared__", which is static in a device function anyway (the
// executor's __shared__ already says static and cannot take a second one).
//
// --small: S = 7 rows of the same H (the block size is H, so H stays).
// --check compares every output with a double-precision softmax, relative to
// the value.
#include <hip/hip_runtime.h>

#include <float.h>
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

// A running maximum m and the sum d of exp(x - m) over the values seen.
struct __align__(8) MD {
    float m;
    float d;
};

// Merges the pairs of kWarpSize lanes by a butterfly: the larger maximum wins
// and the other sum is rescaled to it.
template <int kWarpSize = WARP_SIZE> __device__ __forceinline__ MD warp_reduce_md_op(MD v) {
#pragma unroll
    for (int offset = kWarpSize >> 1; offset >= 1; offset >>= 1) {
        MD o;
        o.m = __shfl_xor(v.m, offset);
        o.d = __shfl_xor(v.d, offset);
        const bool mine = v.m > o.m;
        const MD hi = mine ? v : o;
        const MD lo = mine ? o : v;
        v.d = hi.d + lo.d * __expf(lo.m - hi.m);
        v.m = hi.m;
    }
    return v;
}

template <int kWarpSize = WARP_SIZE> __device__ __forceinline__ float warp_reduce_sum_f32(float v) {
#pragma unroll
    for (int offset = kWarpSize >> 1; offset >= 1; offset >>= 1) v += __shfl_xor(v, offset);
    return v;
}

template <int kWarpSize = WARP_SIZE> __device__ __forceinline__ float warp_reduce_max_f32(float v) {
#pragma unroll
    for (int offset = kWarpSize >> 1; offset >= 1; offset >>= 1) v = fmaxf(v, __shfl_xor(v, offset));
    return v;
}

// Block sum: each warp's total to shared memory, every warp then reduces the
// warps' totals and takes lane 0's (width 32) so that all threads hold it.
template <int NUM_THREADS = 256> __device__ float block_reduce_sum_f32(float v) {
    constexpr int NUM_WARPS = (NUM_THREADS + WARP_SIZE - 1) / WARP_SIZE;
    __shared__ float totals[NUM_WARPS];
    const int warp = threadIdx.x / WARP_SIZE, lane = threadIdx.x % WARP_SIZE;
    v = warp_reduce_sum_f32<WARP_SIZE>(v);
    if (lane == 0) totals[warp] = v;
    __syncthreads();
    v = (lane < NUM_WARPS) ? totals[lane] : 0.0f;
    v = warp_reduce_sum_f32<NUM_WARPS>(v);
    return __shfl(v, 0, 32);
}

// Block maximum, the same way.
template <int NUM_THREADS = 256> __device__ float block_reduce_max_f32(float v) {
    constexpr int NUM_WARPS = (NUM_THREADS + WARP_SIZE - 1) / WARP_SIZE;
    __shared__ float totals[NUM_WARPS];
    const int warp = threadIdx.x / WARP_SIZE, lane = threadIdx.x % WARP_SIZE;
    v = warp_reduce_max_f32<WARP_SIZE>(v);
    if (lane == 0) totals[warp] = v;
    __syncthreads();
    v = (lane < NUM_WARPS) ? totals[lane] : -FLT_MAX;
    v = warp_reduce_max_f32<NUM_WARPS>(v);
    return __shfl(v, 0, 32);
}

// ---- the kernels -------------------------------------------------------------

template <int NUM_THREADS = 256> __global__ void softmax_f32_per_token_kernel(float *x, float *y, int N) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float e = (i < N) ? expf(x[i]) : 0.0f;
    const float total = block_reduce_sum_f32<NUM_THREADS>(e);
    if (i < N) y[i] = e / total;
}

template <int NUM_THREADS = 256 / 4> __global__ void safe_softmax_f32x4_per_token_kernel(float *x, float *y, int N) {
    const int base = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    float4 v = reinterpret_cast<float4 *>(x + base)[0];
    v.x = (base + 0 < N) ? v.x : -FLT_MAX;
    v.y = (base + 1 < N) ? v.y : -FLT_MAX;
    v.z = (base + 2 < N) ? v.z : -FLT_MAX;
    v.w = (base + 3 < N) ? v.w : -FLT_MAX;
    float mine = v.x;
    mine = fmaxf(mine, v.y);
    mine = fmaxf(mine, v.z);
    mine = fmaxf(mine, v.w);
    const float row_max = block_reduce_max_f32<NUM_THREADS>(mine);

    float4 e;
    e.x = (base + 0 < N) ? expf(v.x - row_max) : 0.0f;
    e.y = (base + 1 < N) ? expf(v.y - row_max) : 0.0f;
    e.z = (base + 2 < N) ? expf(v.z - row_max) : 0.0f;
    e.w = (base + 3 < N) ? expf(v.w - row_max) : 0.0f;
    const float total = block_reduce_sum_f32<NUM_THREADS>(e.x + e.y + e.z + e.w);
    if (base + 3 < N) {
        float4 out;
        out.x = e.x / total;
        out.y = e.y / total;
        out.z = e.z / total;
        out.w = e.w / total;
        reinterpret_cast<float4 *>(y + base)[0] = out;
    }
}

template <int NUM_THREADS = 256>
__global__ void online_safe_softmax_f32_per_token_kernel(const float *x, float *y, int N) {
    constexpr int WAPR_NUM = NUM_THREADS / WARP_SIZE; // the project's spelling
    __shared__ MD pairs[WAPR_NUM];
    const int tid = threadIdx.x;
    const int i = blockIdx.x * NUM_THREADS + tid;
    const int warp = tid / WARP_SIZE, lane = tid % WARP_SIZE;
    MD p;
    p.m = (i < N) ? x[i] : -FLT_MAX;
    p.d = (i < N) ? 1.0f : 0.0f;
    const MD warp_pair = warp_reduce_md_op<WARP_SIZE>(p);
    if (lane == 0) pairs[warp] = warp_pair;
    __syncthreads();
    if (tid < warpSize) { // warp 0 (see the header)
        MD r = {-FLT_MAX, 0.0f};
        if (tid < WARP_SIZE) r = pairs[tid];
        r = warp_reduce_md_op<WAPR_NUM>(r);
        if (tid == 0) pairs[0] = r;
    }
    __syncthreads();
    const MD row = pairs[0];
    const float inv_d = __fdividef(1.0f, row.d);
    if (i < N) y[i] = __expf(x[i] - row.m) * inv_d;
}

template <int NUM_THREADS = 256 / 4>
__global__ void online_safe_softmax_f32x4_pack_per_token_kernel(float *x, float *y, int N) {
    constexpr int WAPR_NUM = NUM_THREADS / WARP_SIZE;
    __shared__ MD pairs[WAPR_NUM];
    const int tid = threadIdx.x;
    const int base = (blockIdx.x * NUM_THREADS + tid) * 4;
    const int warp = tid / WARP_SIZE, lane = tid % WARP_SIZE;
    const float4 v = reinterpret_cast<float4 *>(x + base)[0];
    const float m = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
    const float d = __expf(v.x - m) + __expf(v.y - m) + __expf(v.z - m) + __expf(v.w - m);
    const MD mine = {m, d};
    const MD warp_pair = warp_reduce_md_op<WARP_SIZE>(mine);
    if (lane == 0) pairs[warp] = warp_pair;
    __syncthreads();
    if (tid < warpSize) { // warp 0 (see the header)
        MD r = {-FLT_MAX, 0.0f};
        if (tid < WARP_SIZE) r = pairs[tid];
        r = warp_reduce_md_op<WAPR_NUM>(r);
        if (tid == 0) pairs[0] = r;
    }
    __syncthreads();
    const MD row = pairs[0];
    const float inv_d = __fdividef(1.0f, row.d);
    if (base < N) {
        float4 out;
        out.x = __expf(v.x - row.m) * inv_d;
        out.y = __expf(v.y - row.m) * inv_d;
        out.z = __expf(v.z - row.m) * inv_d;
        out.w = __expf(v.w - row.m) * inv_d;
        reinterpret_cast<float4 *>(y + base)[0] = out;
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

// A value in [-4, 4) on a 1/4096 grid.
static float hashed_value(uint32_t i, uint32_t salt) {
    return (float)((int)(hash32(i * 2654435761U + salt) & 0x7fff) - 16384) / 4096.0f;
}

// Largest |gpu - softmax| / softmax over rows x cols of x.
static double softmax_error(const float *x, const float *gpu, int rows, int cols) {
    double worst = 0;
    for (int r = 0; r < rows; r++) {
        const float *row = x + (size_t)r * cols;
        double m = row[0], s = 0;
        for (int j = 1; j < cols; j++) m = fmax(m, row[j]);
        for (int j = 0; j < cols; j++) s += exp(row[j] - m);
        for (int j = 0; j < cols; j++) {
            const double want = exp(row[j] - m) / s;
            worst = fmax(worst, fabs(gpu[(size_t)r * cols + j] - want) / want);
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
    const int S = small ? 7 : 4096;
    const int H1 = 1024, H4 = 4096;       // the f32 kernels' rows, the f32x4 kernels' rows
    const int N1 = S * H1, N4 = S * H4;
    const size_t bytes = (size_t)N4 * sizeof(float);

    float *hx = (float *)malloc(bytes), *hy = (float *)malloc(bytes);
    if (!hx || !hy) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    for (int i = 0; i < N4; i++) hx[i] = hashed_value(i, 3);

    float *x, *y;
    HIP_CHECK(hipMalloc(&x, bytes));
    HIP_CHECK(hipMalloc(&y, bytes));
    HIP_CHECK(hipMemcpy(x, hx, bytes, hipMemcpyHostToDevice));

    int failed = 0;
    const double tol = 1e-5;

    // S x 1024: S blocks of H = 1024 threads.
    softmax_f32_per_token_kernel<1024><<<S, H1>>>(x, y, N1);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(hy, y, (size_t)N1 * sizeof(float), hipMemcpyDeviceToHost));
        failed |= report("softmax_f32_per_token_kernel<1024>", softmax_error(hx, hy, S, H1), tol);
        HIP_CHECK(hipMemset(y, 0, bytes));
    }

    online_safe_softmax_f32_per_token_kernel<1024><<<S, H1>>>(x, y, N1);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(hy, y, (size_t)N1 * sizeof(float), hipMemcpyDeviceToHost));
        failed |= report("online_safe_softmax_f32_per_token_kernel<1024>", softmax_error(hx, hy, S, H1), tol);
        HIP_CHECK(hipMemset(y, 0, bytes));
    }

    // S x 4096: S blocks of H / 4 = 1024 threads.
    safe_softmax_f32x4_per_token_kernel<H4 / 4><<<S, H4 / 4>>>(x, y, N4);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(hy, y, bytes, hipMemcpyDeviceToHost));
        failed |= report("safe_softmax_f32x4_per_token_kernel<1024>", softmax_error(hx, hy, S, H4), tol);
        HIP_CHECK(hipMemset(y, 0, bytes));
    }

    online_safe_softmax_f32x4_pack_per_token_kernel<H4 / 4><<<S, H4 / 4>>>(x, y, N4);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(hy, y, bytes, hipMemcpyDeviceToHost));
        failed |= report("online_safe_softmax_f32x4_pack_per_token_kernel<1024>", softmax_error(hx, hy, S, H4), tol);
    }

    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(x));
    HIP_CHECK(hipFree(y));
    free(hx);
    free(hy);
    if (failed) return 1;
    printf("leetcuda_softmax: 4 kernels, %d rows of %d and of %d floats\n", S, H1, H4);
    return 0;
}
