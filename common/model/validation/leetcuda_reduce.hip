// LeetCUDA (github.com/xlite-dev/LeetCUDA, commit cb6a0497e829, GPL-3.0): its
// histogram and FP32 dot-product kernels, written here from the repository's
// kernels/histogram/histogram.cu and kernels/dot-product/dot_product.cu (each a
// PyTorch extension; nothing copied). Kernel names, template parameters,
// launch shapes, vector widths, the warp-shuffle tree (offsets 16 .. 1 within
// warps of 32), the per-warp shared partials and the one atomicAdd per block
// are the project's; each launch shape is the one its extension binding
// computes for the tensors its script passes:
//
//   histogram_i32_kernel: one atomicAdd(&y[a[i]], 1) per element, blocks of
//     256, ceil(N / 256) blocks; histogram_i32x4_kernel: one int4 and four
//     atomics per thread, blocks of 64, the same ceil(N / 256) blocks. The
//     input is histogram.py's own pattern, the values 0 .. 9 repeated
//     (range(10) * 1000 there, N = 10,000: 40 blocks, far below a launch's
//     overhead); here repeated 2^20 times, N = 10,485,760, into the same 10
//     bins, so every atomic contends for one of 10 words as in the script.
//     The script prints counts and publishes no time.
//   dot_prod_f32_f32_kernel<256>, dot_prod_f32x4_f32_kernel<256>: the sum of
//     a[i] * b[i] over the flat tensors of dot_product.py, S * K = 4096 * 4096
//     floats (its largest case); for a 1-D tensor the binding launches blocks
//     of 256 (NUM_THREADS = 256 for both kernels) and ((N + 255) / 256) / n
//     blocks: 65,536 for f32, 16,384 for f32x4 (four floats per thread).
//
// Differences: inputs come from an integer hash (torch.randn in the scripts)
// and the histogram's bin count (the binding's torch.max) is known on the
// host; each kernel is launched once (dot_product.py times 1000 calls); the
// outputs the bindings create with torch.zeros are zeroed with hipMemset.
// One change for wave 64, none at warps of 32: the project reduces the
// per-warp partials in warp 0 only ("if (warp == 0)"); here the condition is
// "the thread is in the first hardware wave" (threadIdx.x < warpSize), the
// same 32 threads on an NVIDIA GPU, the whole first wave at wave 64, where a
// shuffle needs every lane of the wave (the extra lanes reduce zeros and
// their result is unused).
//
// --small: the histograms on N = 1,020 (a partial last block; the int4 kernel
// needs N a multiple of 4), dot f32 on N = 5,000, dot f32x4 on N = 5,120 (the
// binding's grid covers N only when N is a multiple of 1024, and each thread
// reads its float4 before the bounds test). --check compares the bins exactly
// and each dot product with a double sum, relative to sum |a[i] b[i]|.
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
#define BINS 10

// ---- histogram -------------------------------------------------------------

__global__ void histogram_i32_kernel(int *a, int *y, int N) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) atomicAdd(&y[a[i]], 1);
}

// Four values per thread, read as one int4, then four atomics.
__global__ void histogram_i32x4_kernel(int *a, int *y, int N) {
    const int base = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (base < N) {
        const int4 v = reinterpret_cast<int4 *>(a + base)[0];
        atomicAdd(&y[v.x], 1);
        atomicAdd(&y[v.y], 1);
        atomicAdd(&y[v.z], 1);
        atomicAdd(&y[v.w], 1);
    }
}

// ---- dot product -----------------------------------------------------------

// Butterfly sum over lanes: offsets width/2 .. 1, every lane ends with the total.
template <int kWarpSize = WARP_SIZE> __device__ __forceinline__ float warp_reduce_sum_f32(float v) {
#pragma unroll
    for (int offset = kWarpSize >> 1; offset >= 1; offset >>= 1) v += __shfl_xor(v, offset);
    return v;
}

// One product per thread; each warp's sum to shared memory; warp 0 adds the
// warps' sums; thread 0 adds the block's total to *y.
template <int NUM_THREADS = 256> __global__ void dot_prod_f32_f32_kernel(float *a, float *b, float *y, int N) {
    constexpr int NUM_WARPS = (NUM_THREADS + WARP_SIZE - 1) / WARP_SIZE;
    __shared__ float warp_sums[NUM_WARPS];
    const int tid = threadIdx.x;
    const int i = blockIdx.x * NUM_THREADS + tid;
    const int warp = tid / WARP_SIZE, lane = tid % WARP_SIZE;
    float s = (i < N) ? a[i] * b[i] : 0.0f;
    s = warp_reduce_sum_f32<WARP_SIZE>(s);
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    s = (lane < NUM_WARPS) ? warp_sums[lane] : 0.0f;
    if (tid < warpSize) s = warp_reduce_sum_f32<NUM_WARPS>(s); // warp 0 (see the header)
    if (tid == 0) atomicAdd(y, s);
}

// The same with four products per thread from one float4 of a and of b (read
// before the bounds test, as the project does).
template <int NUM_THREADS = 256 / 4> __global__ void dot_prod_f32x4_f32_kernel(float *a, float *b, float *y, int N) {
    constexpr int NUM_WARPS = (NUM_THREADS + WARP_SIZE - 1) / WARP_SIZE;
    __shared__ float warp_sums[NUM_WARPS];
    const int tid = threadIdx.x;
    const int base = (blockIdx.x * NUM_THREADS + tid) * 4;
    const int warp = tid / WARP_SIZE, lane = tid % WARP_SIZE;
    const float4 va = reinterpret_cast<float4 *>(a + base)[0];
    const float4 vb = reinterpret_cast<float4 *>(b + base)[0];
    float s = (base < N) ? (va.x * vb.x + va.y * vb.y + va.z * vb.z + va.w * vb.w) : 0.0f;
    s = warp_reduce_sum_f32<WARP_SIZE>(s);
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    s = (lane < NUM_WARPS) ? warp_sums[lane] : 0.0f;
    if (tid < warpSize) s = warp_reduce_sum_f32<NUM_WARPS>(s); // warp 0 (see the header)
    if (tid == 0) atomicAdd(y, s);
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

static int report(const char *name, double err, double tol) {
    const int ok = err <= tol;
    printf("check %s: max error %.3g (%s)\n", name, err, ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}

// |gpu - sum a[i] b[i]| / sum |a[i] b[i]| over the first n elements.
static double dot_error(const float *a, const float *b, int n, float gpu) {
    double ref = 0, mag = 0;
    for (int i = 0; i < n; i++) {
        ref += (double)a[i] * b[i];
        mag += fabs((double)a[i] * b[i]);
    }
    return fabs(gpu - ref) / (mag > 0 ? mag : 1);
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
    const int NH = small ? 1020 : BINS << 20;                  // histogram input
    const int ND = small ? 5000 : 4096 * 4096;                 // dot f32
    const int ND4 = small ? 5120 : ND;                         // dot f32x4
    const int NA = ND4 > ND ? ND4 : ND;                        // dot arrays

    int *ha = (int *)malloc((size_t)NH * sizeof(int));
    float *hx = (float *)malloc((size_t)NA * sizeof(float)), *hy = (float *)malloc((size_t)NA * sizeof(float));
    if (!ha || !hx || !hy) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    for (int i = 0; i < NH; i++) ha[i] = i % BINS;
    for (int i = 0; i < NA; i++) {
        hx[i] = hashed_value(i, 5);
        hy[i] = hashed_value(i, 17);
    }

    int *a, *bins;
    float *x, *y, *prod;
    HIP_CHECK(hipMalloc(&a, (size_t)NH * sizeof(int)));
    HIP_CHECK(hipMalloc(&bins, BINS * sizeof(int)));
    HIP_CHECK(hipMalloc(&x, (size_t)NA * sizeof(float)));
    HIP_CHECK(hipMalloc(&y, (size_t)NA * sizeof(float)));
    HIP_CHECK(hipMalloc(&prod, sizeof(float)));
    HIP_CHECK(hipMemcpy(a, ha, (size_t)NH * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(x, hx, (size_t)NA * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(y, hy, (size_t)NA * sizeof(float), hipMemcpyHostToDevice));

    int failed = 0;
    int counts[BINS];
    float result;

    // The histogram binding: 256 / n threads per block, ceil(N / 256) blocks.
    HIP_CHECK(hipMemset(bins, 0, BINS * sizeof(int)));
    histogram_i32_kernel<<<(NH + 255) / 256, 256>>>(a, bins, NH);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(counts, bins, sizeof counts, hipMemcpyDeviceToHost));
        double err = 0;
        for (int k = 0; k < BINS; k++) err = fmax(err, fabs(counts[k] - (NH / BINS + (k < NH % BINS))));
        failed |= report("histogram_i32_kernel", err, 0.0);
    }

    HIP_CHECK(hipMemset(bins, 0, BINS * sizeof(int)));
    histogram_i32x4_kernel<<<(NH + 255) / 256, 256 / 4>>>(a, bins, NH);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(counts, bins, sizeof counts, hipMemcpyDeviceToHost));
        double err = 0;
        for (int k = 0; k < BINS; k++) err = fmax(err, fabs(counts[k] - (NH / BINS + (k < NH % BINS))));
        failed |= report("histogram_i32x4_kernel", err, 0.0);
    }

    // The dot binding for a 1-D tensor: blocks of 256, ((N + 255) / 256) / n blocks.
    HIP_CHECK(hipMemset(prod, 0, sizeof(float)));
    dot_prod_f32_f32_kernel<256><<<(ND + 255) / 256, 256>>>(x, y, prod, ND);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(&result, prod, sizeof(float), hipMemcpyDeviceToHost));
        failed |= report("dot_prod_f32_f32_kernel<256>", dot_error(hx, hy, ND, result), 1e-5);
    }

    HIP_CHECK(hipMemset(prod, 0, sizeof(float)));
    dot_prod_f32x4_f32_kernel<256><<<((ND4 + 255) / 256) / 4, 256>>>(x, y, prod, ND4);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(&result, prod, sizeof(float), hipMemcpyDeviceToHost));
        failed |= report("dot_prod_f32x4_f32_kernel<256>", dot_error(hx, hy, ND4, result), 1e-5);
    }

    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(a));
    HIP_CHECK(hipFree(bins));
    HIP_CHECK(hipFree(x));
    HIP_CHECK(hipFree(y));
    HIP_CHECK(hipFree(prod));
    free(ha);
    free(hx);
    free(hy);
    if (failed) return 1;
    printf("leetcuda_reduce: 4 kernels, histogram of %d values in %d bins, dot products of %d floats\n", NH, BINS,
           ND);
    return 0;
}
