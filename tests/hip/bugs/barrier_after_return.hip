// A learner's bug: threads past the end of the data return early, then the
// rest wait at a barrier the returned threads never reach.
// expect: synccheck barrier_after_return.hip:12 reached by
#include <hip/hip_runtime.h>

__global__ void shift(const float *in, float *out, int n)
{
    __shared__ float tile[256];
    int i = blockIdx.x * 256 + threadIdx.x;
    if (i >= n) return; // the bug: the barrier below needs every thread
    tile[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = tile[threadIdx.x > 0 ? threadIdx.x - 1 : 0];
}

int main()
{
    const int n = 300;
    float *in, *out;
    if (hipMalloc(&in, n * sizeof(float)) != hipSuccess || hipMalloc(&out, n * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(in, 0, n * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(shift, dim3(2), dim3(256), 0, 0, in, out, n);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
