// A learner's bug: the histogram's counts are never zeroed, so the kernel's
// atomicAdd adds to whatever the allocation held.
// expect: initcheck uninit_histogram.hip:10 uninitialised read of global memory
#include <hip/hip_runtime.h>

__global__ void count(const int *values, int *counts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&counts[values[i] % 16], 1);
}

int main()
{
    const int n = 1024;
    int host[n], *values, *counts;
    for (int i = 0; i < n; i++) host[i] = i * 7;
    if (hipMalloc(&values, sizeof host) != hipSuccess || hipMalloc(&counts, 16 * sizeof(int)) != hipSuccess) return 1;
    if (hipMemcpy(values, host, sizeof host, hipMemcpyHostToDevice) != hipSuccess) return 1;
    // the bug: no hipMemset(counts, 0, 16 * sizeof(int))
    hipLaunchKernelGGL(count, dim3(n / 256), dim3(256), 0, 0, values, counts, n);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(values) != hipSuccess || hipFree(counts) != hipSuccess;
}
