// Project "nvblog": the two kernels of the NVIDIA developer blog's "Using Shared
// Memory in CUDA C/C++" (Mark Harris, 2013; code at
// github.com/NVIDIA-developer-blog/code-samples, commit 72d62ec46444,
// BSD-3-Clause, series/cuda-cpp/shared-memory/shared-memory.cu), written here
// from reading that file (no text copied). Both reverse an array of n = 64
// ints in place with one block of n threads: each thread copies its element
// into shared memory, waits at a barrier, and writes back element n - t - 1.
//
// - staticReverse: a static __shared__ int[64];
// - dynamicReverse: extern __shared__ memory, n * sizeof(int) bytes at launch.
//
// Size: the file's n = 64, one block (a launch of 64 threads: on any GPU its
// time is launch overhead). --small uses n = 50, which the kernels handle (any
// n up to 64). Differences: each kernel reverses the file's 0, 1, ..., n - 1
// as there, checked against the reversed order with --check; the file prints
// mismatches instead.
#include <hip/hip_runtime.h>

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

#define MAX_N 64

__global__ void staticReverse(int *d, int n) {
    __shared__ int buf[MAX_N];
    const int t = threadIdx.x;
    const int mirror = n - t - 1;
    buf[t] = d[t];
    __syncthreads();
    d[t] = buf[mirror];
}

__global__ void dynamicReverse(int *d, int n) {
    extern __shared__ int buf[];
    const int t = threadIdx.x;
    const int mirror = n - t - 1;
    buf[t] = d[t];
    __syncthreads();
    d[t] = buf[mirror];
}

static int reversedError(const int *got, int n) {
    int worst = 0;
    for (int i = 0; i < n; i++) {
        const int e = abs(got[i] - (n - i - 1));
        if (e > worst) worst = e;
    }
    return worst;
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
    const int n = small ? 50 : MAX_N;
    int a[MAX_N], got[MAX_N];
    for (int i = 0; i < n; i++) a[i] = i;

    int *d_d = nullptr;
    HIP_CHECK(hipMalloc(&d_d, n * sizeof(int)));
    int failed = 0;

    HIP_CHECK(hipMemcpy(d_d, a, n * sizeof(int), hipMemcpyHostToDevice));
    staticReverse<<<1, n>>>(d_d, n);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(got, d_d, n * sizeof(int), hipMemcpyDeviceToHost));
        const int e = reversedError(got, n);
        printf("check staticReverse: max error %d (%s)\n", e, e == 0 ? "ok" : "FAILED");
        if (e) failed = 1;
    }

    HIP_CHECK(hipMemcpy(d_d, a, n * sizeof(int), hipMemcpyHostToDevice));
    dynamicReverse<<<1, n, n * sizeof(int)>>>(d_d, n);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(got, d_d, n * sizeof(int), hipMemcpyDeviceToHost));
        const int e = reversedError(got, n);
        printf("check dynamicReverse: max error %d (%s)\n", e, e == 0 ? "ok" : "FAILED");
        if (e) failed = 1;
    }
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(d_d));
    printf("nvblog_shared_memory: 2 kernels reversing %d ints in one block\n", n);
    return failed ? 1 : 0;
}
