// A learner's bug: thread 0 is meant to store the block's scale into shared
// memory for the others, but the guard tests threadIdx.x == blockDim.x,
// which no thread has, so nothing stores it.
// expect: initcheck uninit_shared_guard.hip:13 uninitialised read
#include <hip/hip_runtime.h>

__global__ void scale_by_first(const float *in, float *out)
{
    __shared__ float scale;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == blockDim.x) scale = in[blockIdx.x * blockDim.x]; // the bug: == 0
    __syncthreads();
    out[i] = in[i] * scale;
}

int main()
{
    float *in, *out;
    if (hipMalloc(&in, 256 * sizeof(float)) != hipSuccess || hipMalloc(&out, 256 * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(in, 0, 256 * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(scale_by_first, dim3(4), dim3(64), 0, 0, in, out);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
