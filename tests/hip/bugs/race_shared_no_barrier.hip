// A learner's bug: a block reverses its tile through shared memory, but the
// barrier between the stores and the loads is missing.
// expect: racecheck race_shared_no_barrier.hip:11 race on __shared__
#include <hip/hip_runtime.h>

__global__ void reverse(const float *in, float *out)
{
    __shared__ float tile[256];
    unsigned t = threadIdx.x;
    tile[t] = in[t];
    out[t] = tile[255 - t]; // the bug: no __syncthreads() before this read
}

int main()
{
    float *in, *out;
    if (hipMalloc(&in, 256 * sizeof(float)) != hipSuccess || hipMalloc(&out, 256 * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(in, 0, 256 * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(reverse, dim3(1), dim3(256), 0, 0, in, out);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
