// Validation set "nvidia-babelstream" (NVIDIA Ampere, an A100-SXM4-40GB): the
// six kernels of BabelStream 5.0's CUDA implementation (University of Bristol,
// github.com/UoB-HPC/BabelStream, src/cuda/CUDAStream.cu), as the Argonne
// Leadership Computing Facility's beginners' guide runs and profiles it on a
// Polaris node (github.com/argonne-lcf/ALCFBeginnersGuide, polaris/02_profiling.md):
// arrays of 2^25 doubles (268.4 MB each, BabelStream's default), blocks of
// TBSIZE = 1024 threads, one element per thread for init, copy, mul, add and
// triad (a grid of 2^25 / 1024 blocks), and dot's 432 blocks of 1024 threads
// ("Reduction kernel config: 432 groups of (fixed) size 1024": 4 per SM of the
// A100's 108) striding over the arrays. The guide's Nsight Systems summary
// gives each kernel's average time over its 100 launches (init: one).
//
// Written here from BabelStream's description of its kernels: init writes the
// three arrays, copy c = a, mul b = scalar * c, add c = a + b, triad
// a = b + scalar * c (scalar 0.4), dot sums a[i] * b[i] per block in shared
// memory and writes one partial sum per block. Kernel names and template
// parameter are BabelStream's. Differences: each kernel is launched once; the
// arrays are not copied back or checked.
#include <hip/hip_runtime.h>

#include <stdio.h>

#define ARRAY_SIZE 33554432 // 2^25
#define TBSIZE 1024
#define DOT_NUM_BLOCKS 432 // the A100's 108 SMs x 4
#define START_SCALAR 0.4

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

template <typename T> __global__ void init_kernel(T *a, T *b, T *c, T initA, T initB, T initC) {
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    a[i] = initA;
    b[i] = initB;
    c[i] = initC;
}

template <typename T> __global__ void copy_kernel(const T *a, T *c) {
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    c[i] = a[i];
}

template <typename T> __global__ void mul_kernel(T *b, const T *c) {
    const T scalar = START_SCALAR;
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    b[i] = scalar * c[i];
}

template <typename T> __global__ void add_kernel(const T *a, const T *b, T *c) {
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    c[i] = a[i] + b[i];
}

template <typename T> __global__ void triad_kernel(T *a, const T *b, const T *c) {
    const T scalar = START_SCALAR;
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    a[i] = b[i] + scalar * c[i];
}

// Each thread sums a[i] * b[i] over a stride of the whole grid into its shared
// slot; a tree halves the slots (a barrier before each step); thread 0 writes
// the block's partial sum (the host adds the 432).
template <typename T> __global__ void dot_kernel(const T *a, const T *b, T *sum, int array_size) {
    __shared__ T tb_sum[TBSIZE];
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    const size_t local_i = threadIdx.x;
    tb_sum[local_i] = 0;
    for (; i < array_size; i += blockDim.x * gridDim.x) tb_sum[local_i] += a[i] * b[i];
    for (int offset = blockDim.x / 2; offset > 0; offset /= 2) {
        __syncthreads();
        if (local_i < (size_t)offset) tb_sum[local_i] += tb_sum[local_i + offset];
    }
    if (local_i == 0) sum[blockIdx.x] = tb_sum[local_i];
}

int main() {
    const size_t bytes = (size_t)ARRAY_SIZE * sizeof(double);
    double *a = nullptr, *b = nullptr, *c = nullptr, *sum = nullptr;
    HIP_CHECK(hipMalloc(&a, bytes));
    HIP_CHECK(hipMalloc(&b, bytes));
    HIP_CHECK(hipMalloc(&c, bytes));
    HIP_CHECK(hipMalloc(&sum, DOT_NUM_BLOCKS * sizeof(double)));
    const dim3 grid(ARRAY_SIZE / TBSIZE), block(TBSIZE);
    hipLaunchKernelGGL(init_kernel<double>, grid, block, 0, 0, a, b, c, 0.1, 0.2, 0.0);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(copy_kernel<double>, grid, block, 0, 0, a, c);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(mul_kernel<double>, grid, block, 0, 0, b, c);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(add_kernel<double>, grid, block, 0, 0, a, b, c);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(triad_kernel<double>, grid, block, 0, 0, a, b, c);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(dot_kernel<double>, dim3(DOT_NUM_BLOCKS), block, 0, 0, a, b, sum, ARRAY_SIZE);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(a));
    HIP_CHECK(hipFree(b));
    HIP_CHECK(hipFree(c));
    HIP_CHECK(hipFree(sum));
    printf("babelstream: 6 kernels launched once each on 3 arrays of %d doubles\n", ARRAY_SIZE);
    return 0;
}
