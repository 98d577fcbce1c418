// A learner's bug: a per-thread histogram of ten digits counts into
// bins[value / 10] for values up to 100 inclusive: 100 lands in bins[10].
// expect: memcheck oob_local_histogram.hip:13 out of bounds, local
#include <hip/hip_runtime.h>

__global__ void digit_counts(const int *values, int *counts)
{
    int bins[10];
    for (int b = 0; b < 10; b++) bins[b] = 0;
    unsigned t = threadIdx.x;
    for (int k = 0; k < 4; k++) {
        int v = values[t * 4 + k];
        bins[v / 10] += 1; // the bug: v == 100 gives bins[10]
    }
    for (int b = 0; b < 10; b++) atomicAdd(&counts[b], bins[b]);
}

int main()
{
    int host[256], *values, *counts;
    for (int i = 0; i < 256; i++) host[i] = (i * 37) % 101; // 0..100
    if (hipMalloc(&values, sizeof host) != hipSuccess || hipMalloc(&counts, 10 * sizeof(int)) != hipSuccess) return 1;
    if (hipMemcpy(values, host, sizeof host, hipMemcpyHostToDevice) != hipSuccess) return 1;
    if (hipMemset(counts, 0, 10 * sizeof(int)) != hipSuccess) return 1;
    hipLaunchKernelGGL(digit_counts, dim3(1), dim3(64), 0, 0, values, counts);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(values) != hipSuccess || hipFree(counts) != hipSuccess;
}
