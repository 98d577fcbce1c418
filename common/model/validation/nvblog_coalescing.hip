// Project "nvblog": the two kernels of the NVIDIA developer blog's "How to Access
// Global Memory Efficiently in CUDA C/C++ Kernels" (Mark Harris, 2013; code at
// github.com/NVIDIA-developer-blog/code-samples, commit 72d62ec46444,
// BSD-3-Clause, series/cuda-cpp/coalescing-global/coalescing.cu), written here
// from reading that file (no text copied). Both add 1 to one element per
// thread, in place, blocks of 256 threads over n = 4 MiB / sizeof(T) threads
// (the file's nMB = 4, a grid of n / 256):
//
// - offset<T>: element blockDim.x * blockIdx.x + threadIdx.x + s (a warp's
//   accesses shifted by s elements off the 128-byte lines when s is not a
//   multiple of 32 floats);
// - stride<T>: element (blockDim.x * blockIdx.x + threadIdx.x) * s (a warp's
//   accesses spread over s times as many bytes).
//
// The file sweeps s (offsets 0 to 32, strides 1 to 32), one launch per value,
// for float, or for double with its fp64 option. Here each of the four
// instantiations is launched once, at one point of its sweep: offset s = 1
// (misaligned) and stride s = 2, for float and then double, each after a
// hipMemset of the array as in the file. Differences: the memset covers the
// whole span the launch touches (the file clears n elements, so its stride
// launches read memory it never wrote); the allocation is the file's 33 n
// elements.
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

#define BLOCK 256
#define OFFSET_S 1
#define STRIDE_S 2

template <typename T> __global__ void offset(T *a, int s) {
    const int i = blockDim.x * blockIdx.x + threadIdx.x + s;
    a[i] = a[i] + 1;
}

template <typename T> __global__ void stride(T *a, int s) {
    const int i = (blockDim.x * blockIdx.x + threadIdx.x) * s;
    a[i] = a[i] + 1;
}

// a[k] must be 1 where the launch wrote (k = first + j * step, j < n) and 0 elsewhere in [0, span)
template <typename T> static double errorOf(const T *a, size_t span, size_t first, size_t step, size_t n) {
    double worst = 0;
    for (size_t k = 0; k < span; k++) {
        const int hit = k >= first && (k - first) % step == 0 && (k - first) / step < n;
        const double e = (double)a[k] - (hit ? 1.0 : 0.0);
        const double m = e < 0 ? -e : e;
        if (m > worst) worst = m;
    }
    return worst;
}

// one type's two launches; returns 0, or 1 on a runtime error
template <typename T> static int runType(const char *tname, int nMB, int small, int check, int *failed) {
    const size_t n = small ? 4 * BLOCK : (size_t)nMB * 1024 * 1024 / sizeof(T);
    const size_t bytes = n * 33 * sizeof(T);
    T *d_a = nullptr;
    HIP_CHECK(hipMalloc(&d_a, bytes));
    T *h_a = check ? (T *)malloc(bytes) : nullptr;
    if (check && !h_a) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }

    const size_t spanOffset = n + OFFSET_S, spanStride = (n - 1) * STRIDE_S + 1;
    HIP_CHECK(hipMemset(d_a, 0, spanOffset * sizeof(T)));
    offset<T><<<(unsigned)(n / BLOCK), BLOCK>>>(d_a, OFFSET_S);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(h_a, d_a, spanOffset * sizeof(T), hipMemcpyDeviceToHost));
        const double e = errorOf(h_a, spanOffset, OFFSET_S, 1, n);
        printf("check offset<%s>: max error %g (%s)\n", tname, e, e == 0 ? "ok" : "FAILED");
        if (e != 0) *failed = 1;
    }

    HIP_CHECK(hipMemset(d_a, 0, spanStride * sizeof(T)));
    stride<T><<<(unsigned)(n / BLOCK), BLOCK>>>(d_a, STRIDE_S);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(h_a, d_a, spanStride * sizeof(T), hipMemcpyDeviceToHost));
        const double e = errorOf(h_a, spanStride, 0, STRIDE_S, n);
        printf("check stride<%s>: max error %g (%s)\n", tname, e, e == 0 ? "ok" : "FAILED");
        if (e != 0) *failed = 1;
    }
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(d_a));
    free(h_a);
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
    // --small: 4 blocks (the kernels have no bounds test: whole blocks only)
    const int nMB = 4;
    int failed = 0;
    if (runType<float>("float", nMB, small, check, &failed)) return 1;
    if (runType<double>("double", nMB, small, check, &failed)) return 1;
    if (small)
        printf("nvblog_coalescing: offset %d and stride %d, %d threads, float and double\n", OFFSET_S, STRIDE_S,
               4 * BLOCK);
    else
        printf("nvblog_coalescing: offset %d and stride %d, n = %d MiB / sizeof(T) threads, float and double\n",
               OFFSET_S, STRIDE_S, nMB);
    return failed ? 1 : 0;
}
