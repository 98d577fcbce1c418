// A learner's bug: a shift by one stores into tile[threadIdx.x + 1], so the
// block's last thread writes past the end of the __shared__ array.
// expect: memcheck oob_shared_shifted.hip:10 out of bounds, shared
#include <hip/hip_runtime.h>

__global__ void shift_right(const float *in, float *out)
{
    __shared__ float tile[128];
    if (threadIdx.x == 0) tile[0] = 0.0f;
    tile[threadIdx.x + 1] = in[blockIdx.x * 128 + threadIdx.x]; // the bug: tile[128] for the last thread
    __syncthreads();
    out[blockIdx.x * 128 + threadIdx.x] = tile[threadIdx.x];
}

int main()
{
    float *in, *out;
    if (hipMalloc(&in, 512 * sizeof(float)) != hipSuccess || hipMalloc(&out, 512 * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(in, 0, 512 * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(shift_right, dim3(4), dim3(128), 0, 0, in, out);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
