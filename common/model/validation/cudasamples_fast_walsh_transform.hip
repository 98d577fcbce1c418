// Project "cudasamples": the fast Walsh-Hadamard transform of NVIDIA's CUDA
// Samples (github.com/NVIDIA/cuda-samples, commit c94ff366aed1, BSD-3-Clause;
// Samples/5_Domain_Specific/fastWalshTransform/fastWalshTransform_kernel.cuh,
// fastWalshTransform.cu), written here from reading those files (no text
// copied). The sample's dyadic convolution, launched exactly as its main()
// does: transform the data, transform the (zero-padded) filter, multiply them
// point by point, transform the product. Each transform of 2^log2N floats is
//
// - fwtBatch2Kernel, while log2N > 11: one radix-4 butterfly pass of stride
//   N / 4 straight in global memory, one butterfly (4 loads, 4 stores) per
//   thread, blocks of 256 threads, a grid of (2^log2Data / 1024, 1) for every
//   pass (the sample sizes the grid once), then log2N -= 2;
// - fwtBatch1Kernel: each block transforms one 2^11 = 2048-float piece in
//   dynamic shared memory (8 KiB) with N / 4 = 512 threads: radix-4 stages of
//   strides 512, 128, 32, 8, 2 with a barrier before each, then one radix-2
//   stage (log2N is odd), then the store.
//
// and modulateKernel multiplies the two transforms (times 1 / N) with 128
// blocks of 256 threads striding over the array.
//
// Size: 2^21 floats (log2Data = 21; the sample's 2^23 takes minutes to trace
// on the development machine), a filter of 2^7 taps as in the sample: 15
// launches of fwtBatch2Kernel, 3 of fwtBatch1Kernel, 1 of modulateKernel.
// Differences: the data and the filter are small integers (-1, 0 or 1) from a
// hash (the sample uses rand() / RAND_MAX), so that the transforms are exact;
// cooperative groups' block sync is __syncthreads().
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

#define SHARED_LOG2 11 // ELEMENTARY_LOG2SIZE
#define PASS_THREADS 256
#define LOG2_FILTER 7

__global__ void fwtBatch1Kernel(float *out, float *in, int log2N) {
    const int n = 1 << log2N;
    const int first = blockIdx.x << log2N;
    extern __shared__ float piece[];
    float *src = in + first;
    float *dst = out + first;

    for (int i = threadIdx.x; i < n; i += blockDim.x) piece[i] = src[i];

    const int t = threadIdx.x;
    for (int stride = n >> 2; stride > 0; stride >>= 2) {
        const int low = t & (stride - 1);
        const int a = ((t - low) << 2) + low, b = a + stride, c = b + stride, d = c + stride;
        __syncthreads();
        float x0 = piece[a], x1 = piece[b], x2 = piece[c], x3 = piece[d];
        float keep = x0;
        x0 = x0 + x2;
        x2 = keep - x2;
        keep = x1;
        x1 = x1 + x3;
        x3 = keep - x3;
        keep = x0;
        piece[a] = x0 + x1;
        piece[b] = keep - x1;
        keep = x2;
        piece[c] = x2 + x3;
        piece[d] = keep - x3;
    }

    if (log2N & 1) { // one radix-2 stage left over
        __syncthreads();
        for (int i = threadIdx.x; i < n / 2; i += blockDim.x) {
            const int a = i << 1, b = a + 1;
            const float x0 = piece[a], x1 = piece[b];
            piece[a] = x0 + x1;
            piece[b] = x0 - x1;
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x) dst[i] = piece[i];
}

__global__ void fwtBatch2Kernel(float *out, float *in, int stride) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int n = blockDim.x * gridDim.x * 4;
    float *src = in + blockIdx.y * n;
    float *dst = out + blockIdx.y * n;

    const int low = t & (stride - 1);
    const int a = ((t - low) << 2) + low, b = a + stride, c = b + stride, d = c + stride;
    float x0 = src[a], x1 = src[b], x2 = src[c], x3 = src[d];
    float keep = x0;
    x0 = x0 + x2;
    x2 = keep - x2;
    keep = x1;
    x1 = x1 + x3;
    x3 = keep - x3;
    keep = x0;
    dst[a] = x0 + x1;
    dst[b] = keep - x1;
    keep = x2;
    dst[c] = x2 + x3;
    dst[d] = keep - x3;
}

__global__ void modulateKernel(float *a, float *b, int n) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int threads = blockDim.x * gridDim.x;
    const float inv = 1.0f / (float)n;
    for (int i = t; i < n; i += threads) a[i] *= b[i] * inv;
}

// ---- host: the same butterflies in the same order, so the results match bit for bit

static uint32_t hash32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

static void butterfly4(float *v, int a, int b, int c, int d) {
    float x0 = v[a], x1 = v[b], x2 = v[c], x3 = v[d];
    float keep = x0;
    x0 = x0 + x2;
    x2 = keep - x2;
    keep = x1;
    x1 = x1 + x3;
    x3 = keep - x3;
    keep = x0;
    v[a] = x0 + x1;
    v[b] = keep - x1;
    keep = x2;
    v[c] = x2 + x3;
    v[d] = keep - x3;
}

static void hostPass(float *v, int total, int stride) {
    for (int t = 0; t < total / 4; t++) {
        const int low = t & (stride - 1), a = ((t - low) << 2) + low;
        butterfly4(v, a, a + stride, a + 2 * stride, a + 3 * stride);
    }
}

static void hostPieces(float *v, int total, int log2N) {
    const int n = 1 << log2N;
    for (int first = 0; first < total; first += n) {
        float *p = v + first;
        for (int stride = n >> 2; stride > 0; stride >>= 2)
            for (int t = 0; t < n / 4; t++) {
                const int low = t & (stride - 1), a = ((t - low) << 2) + low;
                butterfly4(p, a, a + stride, a + 2 * stride, a + 3 * stride);
            }
        if (log2N & 1)
            for (int i = 0; i < n / 2; i++) {
                const float x0 = p[2 * i], x1 = p[2 * i + 1];
                p[2 * i] = x0 + x1;
                p[2 * i + 1] = x0 - x1;
            }
    }
}

static double maxDiff(const float *a, const float *b, size_t n) {
    double m = 0;
    for (size_t i = 0; i < n; i++) {
        const double e = fabs((double)a[i] - b[i]);
        if (e > m) m = e;
    }
    return m;
}

// run one transform as the sample's fwtBatchGPU does; with --check, mirror each
// launch on the host copy and keep the worst difference per kernel
static int transform(float *d_v, float *h_v, float *h_got, int log2Data, int check, double *errPass, double *errPiece) {
    const size_t total = (size_t)1 << log2Data;
    const dim3 grid((unsigned)(total / (4 * PASS_THREADS)), 1, 1);
    int log2N = log2Data, n = 1 << log2Data, pieces = 1;
    for (; log2N > SHARED_LOG2; log2N -= 2, n >>= 2, pieces <<= 2) {
        fwtBatch2Kernel<<<grid, PASS_THREADS>>>(d_v, d_v, n / 4);
        HIP_CHECK(hipGetLastError());
        if (check) {
            // one pass of stride n / 4 over each of the `pieces` pieces of n
            for (int p = 0; p < pieces; p++) hostPass(h_v + (size_t)p * n, n, n / 4);
            HIP_CHECK(hipMemcpy(h_got, d_v, total * sizeof(float), hipMemcpyDeviceToHost));
            const double e = maxDiff(h_got, h_v, total);
            if (e > *errPass) *errPass = e;
        }
    }
    fwtBatch1Kernel<<<pieces, n / 4, n * sizeof(float)>>>(d_v, d_v, log2N);
    HIP_CHECK(hipGetLastError());
    if (check) {
        hostPieces(h_v, (int)total, log2N);
        HIP_CHECK(hipMemcpy(h_got, d_v, total * sizeof(float), hipMemcpyDeviceToHost));
        const double e = maxDiff(h_got, h_v, total);
        if (e > *errPiece) *errPiece = e;
    }
    return 0;
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
    // --small: 2^15 floats, two global passes then 16 shared pieces
    const int log2Data = small ? 15 : 21;
    const int n = 1 << log2Data, taps = 1 << LOG2_FILTER;
    const size_t bytes = (size_t)n * sizeof(float);

    float *h_data = (float *)malloc(bytes), *h_filter = (float *)calloc(n, sizeof(float));
    if (!h_data || !h_filter) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    for (int i = 0; i < taps; i++) h_filter[i] = (float)((int)(hash32(i + 2007U) % 3U) - 1);
    for (int i = 0; i < n; i++) h_data[i] = (float)((int)(hash32((uint32_t)i + 99991U) % 3U) - 1);

    float *d_data = nullptr, *d_filter = nullptr;
    HIP_CHECK(hipMalloc(&d_filter, bytes));
    HIP_CHECK(hipMalloc(&d_data, bytes));
    HIP_CHECK(hipMemset(d_filter, 0, bytes));
    HIP_CHECK(hipMemcpy(d_filter, h_filter, taps * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_data, h_data, bytes, hipMemcpyHostToDevice));

    float *r_data = nullptr, *r_filter = nullptr, *got = nullptr;
    if (check) {
        r_data = (float *)malloc(bytes);
        r_filter = (float *)malloc(bytes);
        got = (float *)malloc(bytes);
        if (!r_data || !r_filter || !got) {
            fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
            return 1;
        }
        memcpy(r_data, h_data, bytes);
        memcpy(r_filter, h_filter, bytes);
    }
    double errPass = 0, errPiece = 0, errModulate = 0;

    if (transform(d_data, r_data, got, log2Data, check, &errPass, &errPiece)) return 1;
    if (transform(d_filter, r_filter, got, log2Data, check, &errPass, &errPiece)) return 1;
    modulateKernel<<<128, 256>>>(d_data, d_filter, n);
    HIP_CHECK(hipGetLastError());
    if (check) {
        const float inv = 1.0f / (float)n;
        for (int i = 0; i < n; i++) r_data[i] *= r_filter[i] * inv;
        HIP_CHECK(hipMemcpy(got, d_data, bytes, hipMemcpyDeviceToHost));
        errModulate = maxDiff(got, r_data, n);
    }
    if (transform(d_data, r_data, got, log2Data, check, &errPass, &errPiece)) return 1;
    HIP_CHECK(hipDeviceSynchronize());

    int failed = 0;
    if (check) {
        // the host transforms themselves: the result must be the dyadic
        // convolution sum over j of data[i xor j] * filter[j]
        double worst = 0;
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < taps; j++) s += (double)h_data[i ^ j] * h_filter[j];
            const double e = fabs(s - r_data[i]);
            if (e > worst) worst = e;
        }
        if (worst > 1e-3) {
            printf("check: the host's reference transform is not the dyadic convolution, error %g (FAILED)\n", worst);
            failed = 1;
        }
        const char *names[3] = {"fwtBatch2Kernel", "fwtBatch1Kernel", "modulateKernel"};
        const double errs[3] = {errPass, errPiece, errModulate};
        for (int k = 0; k < 3; k++) {
            const int ok = errs[k] == 0.0;
            printf("check %s: max error %g (%s)\n", names[k], errs[k], ok ? "ok" : "FAILED");
            if (!ok) failed = 1;
        }
        free(r_data);
        free(r_filter);
        free(got);
    }

    HIP_CHECK(hipFree(d_data));
    HIP_CHECK(hipFree(d_filter));
    free(h_data);
    free(h_filter);
    printf("cudasamples_fast_walsh_transform: dyadic convolution of 2^%d floats by 2^%d taps\n", log2Data, LOG2_FILTER);
    return failed ? 1 : 0;
}
