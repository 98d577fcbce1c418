// A learner's bug: the output buffer is freed in the clean-up, and the
// result copied back from it afterwards.
// expect: memcheck free_then_copy_back.hip:19 use after free
#include <hip/hip_runtime.h>

__global__ void fill(float *out)
{
    out[threadIdx.x] = float(threadIdx.x);
}

int main()
{
    float host[64], *out;
    if (hipMalloc(&out, sizeof host) != hipSuccess) return 1;
    hipLaunchKernelGGL(fill, dim3(1), dim3(64), 0, 0, out);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    if (hipFree(out) != hipSuccess) return 1;
    // the bug: the copy comes after the free
    return hipMemcpy(host, out, sizeof host, hipMemcpyDeviceToHost) != hipSuccess;
}
