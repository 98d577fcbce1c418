// A learner's bug: the input buffer is freed as soon as it is copied in,
// before the kernel that reads it has been launched.
// expect: memcheck free_then_launch.hip:8 use after free
#include <hip/hip_runtime.h>

__global__ void twice(const float *in, float *out)
{
    out[threadIdx.x] = 2.0f * in[threadIdx.x];
}

int main()
{
    float host[64] = {0}, *in, *out;
    if (hipMalloc(&in, sizeof host) != hipSuccess || hipMalloc(&out, sizeof host) != hipSuccess) return 1;
    if (hipMemcpy(in, host, sizeof host, hipMemcpyHostToDevice) != hipSuccess) return 1;
    if (hipFree(in) != hipSuccess) return 1; // the bug: twice still reads in
    hipLaunchKernelGGL(twice, dim3(1), dim3(64), 0, 0, in, out);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(out) != hipSuccess;
}
