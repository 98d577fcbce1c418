// A learner's bug: the guard is `i <= n`, so the thread with i == n scales
// one element past the end of the buffer.
// expect: memcheck oob_global_last_thread.hip:10 out of bounds, global
#include <hip/hip_runtime.h>

__global__ void scale(float *values, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) // the bug: i == n is one past the end
        values[i] = 2.0f * values[i];
}

int main()
{
    const int n = 1000;
    float *values;
    if (hipMalloc(&values, n * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(values, 0, n * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(scale, dim3((n + 255) / 256), dim3(256), 0, 0, values, n);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(values) != hipSuccess;
}
