// A learner's bug: the kernel keeps one float per thread in dynamic shared
// memory, but the launch asks for one byte per thread, so most threads store
// past the end of what the launch gave.
// expect: memcheck oob_shared_dynamic.hip:11 out of bounds, shared
#include <hip/hip_runtime.h>

__global__ void stage(const float *in, float *out)
{
    extern __shared__ float staged[];
    unsigned t = threadIdx.x;
    staged[t] = in[t]; // the bug: the launch gave blockDim.x bytes, not floats
    __syncthreads();
    out[t] = staged[blockDim.x - 1 - t];
}

int main()
{
    const int n = 256;
    float *in, *out;
    if (hipMalloc(&in, n * sizeof(float)) != hipSuccess || hipMalloc(&out, n * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(in, 0, n * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(stage, dim3(1), dim3(n), n /* the bug: n * sizeof(float) */, 0, in, out);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
