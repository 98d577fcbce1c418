// A learner's bug: the tree reduction's barrier sits outside the loop, so
// one step's reads race with the next step's writes.
// expect: racecheck race_shared_reduce_step.hip:13 race on __shared__
#include <hip/hip_runtime.h>

__global__ void block_sum(const float *in, float *out)
{
    __shared__ float partial[256];
    unsigned t = threadIdx.x;
    partial[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned stride = 128; stride > 0; stride /= 2)
        if (t < stride) partial[t] += partial[t + stride]; // the bug: no __syncthreads() in the loop
    __syncthreads();
    if (t == 0) out[blockIdx.x] = partial[0];
}

int main()
{
    float *in, *out;
    if (hipMalloc(&in, 1024 * sizeof(float)) != hipSuccess || hipMalloc(&out, 4 * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(in, 0, 1024 * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(block_sum, dim3(4), dim3(256), 0, 0, in, out);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
