// A learner's bug: a tree reduction over a 256-slot tile starts at stride
// 256, not 128, so thread 0 adds a slot past the half that was filled.
// expect: initcheck uninit_shared_reduce.hip:13 uninitialised read
#include <hip/hip_runtime.h>

__global__ void block_sum(const float *in, float *out)
{
    __shared__ float partial[512];
    unsigned t = threadIdx.x;
    partial[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned stride = 256; stride > 0; stride /= 2) { // the bug: blockDim.x / 2 = 128
        if (t < stride) partial[t] += partial[t + stride];
        __syncthreads();
    }
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
