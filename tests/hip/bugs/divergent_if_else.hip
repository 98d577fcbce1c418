// A learner's bug: each half of the block has a barrier of its own, in the
// two branches of an if. Every thread reaches a barrier, but not the same one.
// expect: synccheck divergent_if_else.hip:12 divergent barrier
#include <hip/hip_runtime.h>

__global__ void halves(const float *in, float *out)
{
    __shared__ float tile[128];
    unsigned t = threadIdx.x;
    tile[t] = in[t];
    if (t < 64) {
        __syncthreads(); // the bug: one barrier here...
        out[t] = tile[t + 64];
    } else {
        __syncthreads(); // ...and another here
        out[t] = tile[t - 64];
    }
}

int main()
{
    float *in, *out;
    if (hipMalloc(&in, 128 * sizeof(float)) != hipSuccess || hipMalloc(&out, 128 * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(in, 0, 128 * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(halves, dim3(1), dim3(128), 0, 0, in, out);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
