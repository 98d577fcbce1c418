// Validation programs for the time model, project "liu": the elementwise-add
// kernels of Xiandong Liu's "How to optimize in GPU"
// (github.com/Liu-xiandong/How_to_optimize_in_GPU, Apache-2.0, read at commit
// 5d2def3e082c4e1364c3ade54451b7b9d1d6f044: elementwise/elementwise_add.cu;
// figures in README.md, section "1. elementwise").
//
// Written here from that file (nothing copied): c = a + b over N floats, blocks
// of THREAD_PER_BLOCK = 256 threads and no bounds check, in three widths:
//   add       one float a thread, a grid of N / 256 blocks;
//   vec2_add  one float2 a thread (8-byte loads and store), N / 512 blocks;
//   vec4_add  one float4 a thread (16-byte loads and store), N / 1024 blocks.
// The validation size is the file's N = 32 * 1024 * 1024, the size its main()
// runs. The README's table gives a bandwidth per width on a V100 (measured
// with Nsight); it does not say the size, the code's is this one.
//
// Differences: the original's main() times vec4_add alone, 2000 launches; here
// each kernel is launched once. Inputs are hashed small values (the original:
// a = 1, b = i). --small runs N = 8192 (8 blocks of vec4_add); the kernels
// need N a multiple of 1024, as in the original.
// Wave size: any (no warp-level code).
#include <hip/hip_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREAD_PER_BLOCK 256

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

// One float a thread.
__global__ void add(float *a, float *b, float *c) {
    const int at = blockIdx.x * blockDim.x + threadIdx.x;
    c[at] = a[at] + b[at];
}

// Two floats a thread: one 8-byte load of each input, one 8-byte store.
__global__ void vec2_add(float *a, float *b, float *c) {
    const int at = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
    const float2 x = reinterpret_cast<float2 *>(&a[at])[0];
    const float2 y = reinterpret_cast<float2 *>(&b[at])[0];
    float2 z;
    z.x = x.x + y.x;
    z.y = x.y + y.y;
    reinterpret_cast<float2 *>(&c[at])[0] = z;
}

// Four floats a thread: 16-byte loads and store.
__global__ void vec4_add(float *a, float *b, float *c) {
    const int at = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    const float4 x = reinterpret_cast<float4 *>(&a[at])[0];
    const float4 y = reinterpret_cast<float4 *>(&b[at])[0];
    float4 z;
    z.x = x.x + y.x;
    z.y = x.y + y.y;
    z.z = x.z + y.z;
    z.w = x.w + y.w;
    reinterpret_cast<float4 *>(&c[at])[0] = z;
}

static unsigned hash32(unsigned v) {
    v ^= v >> 16;
    v *= 0x7feb352du;
    v ^= v >> 15;
    v *= 0x846ca68bu;
    v ^= v >> 16;
    return v;
}

// Compares out with a + b element by element; prints the check line.
static int report(const char *kernel, const float *out, const float *a, const float *b, size_t n) {
    double worst = 0.0;
    for (size_t i = 0; i < n; i++) worst = fmax(worst, fabs((double)out[i] - (double)(a[i] + b[i])));
    const int ok = worst == 0.0;
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
    const size_t n = small ? 8192 : (size_t)32 * 1024 * 1024;
    const size_t bytes = n * sizeof(float);

    float *h_a = (float *)malloc(bytes), *h_b = (float *)malloc(bytes), *h_c = (float *)malloc(bytes);
    if (!h_a || !h_b || !h_c) {
        fprintf(stderr, "%s:%d: malloc failed\n", __FILE__, __LINE__);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        h_a[i] = (float)(hash32((unsigned)i) % 1000) * 0.25f;
        h_b[i] = (float)(hash32((unsigned)i + 0x9e3779b9u) % 1000) * 0.5f - 100.0f;
    }

    float *d_a = nullptr, *d_b = nullptr, *d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_a, bytes));
    HIP_CHECK(hipMalloc(&d_b, bytes));
    HIP_CHECK(hipMalloc(&d_out, bytes));
    HIP_CHECK(hipMemcpy(d_a, h_a, bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_b, h_b, bytes, hipMemcpyHostToDevice));

    int good = 1;
    const dim3 block(THREAD_PER_BLOCK);

    add<<<dim3(n / THREAD_PER_BLOCK), block>>>(d_a, d_b, d_out);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    if (check) {
        HIP_CHECK(hipMemcpy(h_c, d_out, bytes, hipMemcpyDeviceToHost));
        good &= report("add", h_c, h_a, h_b, n);
        HIP_CHECK(hipMemset(d_out, 0, bytes));
    }

    vec2_add<<<dim3(n / THREAD_PER_BLOCK / 2), block>>>(d_a, d_b, d_out);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    if (check) {
        HIP_CHECK(hipMemcpy(h_c, d_out, bytes, hipMemcpyDeviceToHost));
        good &= report("vec2_add", h_c, h_a, h_b, n);
        HIP_CHECK(hipMemset(d_out, 0, bytes));
    }

    vec4_add<<<dim3(n / THREAD_PER_BLOCK / 4), block>>>(d_a, d_b, d_out);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    if (check) {
        HIP_CHECK(hipMemcpy(h_c, d_out, bytes, hipMemcpyDeviceToHost));
        good &= report("vec4_add", h_c, h_a, h_b, n);
    }

    HIP_CHECK(hipFree(d_a));
    HIP_CHECK(hipFree(d_b));
    HIP_CHECK(hipFree(d_out));
    free(h_a);
    free(h_b);
    free(h_c);
    printf("liu_elementwise: add, vec2_add, vec4_add launched once each on %zu floats\n", n);
    return check && !good ? 1 : 0;
}
