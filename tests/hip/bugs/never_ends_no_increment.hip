// A learner's bug: a strided loop whose index is never advanced (the
// i += stride was left out), so each thread adds to the same element forever.
// expect: watchdog never_ends_no_increment.hip:12
#include <hip/hip_runtime.h>

__global__ void add_all(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = gridDim.x * blockDim.x;
    (void)stride;
    while (i < n) {
        out[i] += in[i]; // the bug: no i += stride
    }
}

int main()
{
    const int n = 4096;
    float *in, *out;
    if (hipMalloc(&in, n * sizeof(float)) != hipSuccess || hipMalloc(&out, n * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(in, 0, n * sizeof(float)) != hipSuccess || hipMemset(out, 0, n * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(add_all, dim3(4), dim3(256), 0, 0, in, out, n);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
