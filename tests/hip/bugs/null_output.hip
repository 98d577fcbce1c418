// A learner's bug: the output pointer is passed before it was allocated, so
// the kernel stores through a null pointer.
// expect: fault null_output.hip:8 SIGSEGV
#include <hip/hip_runtime.h>

__global__ void fill(float *out)
{
    out[threadIdx.x] = 1.0f; // the bug: out is null
}

int main()
{
    float *out = nullptr;
    hipLaunchKernelGGL(fill, dim3(1), dim3(64), 0, 0, out); // the bug: hipMalloc(&out, ...) comes after
    if (hipMalloc(&out, 64 * sizeof(float)) != hipSuccess) return 1;
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(out) != hipSuccess;
}
