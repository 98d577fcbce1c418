// A learner's bug: the barrier sits inside a branch that only half the block
// takes, so the other half never reaches it (on a GPU: a hang, or worse). The
// executor names the barrier's line and a thread that returned without it
// (tests/own_hip.bats).
#include <hip/hip_runtime.h>

__global__ void reverse_half(const float *in, float *out)
{
    __shared__ float tile[256];
    tile[threadIdx.x] = in[threadIdx.x];
    if (threadIdx.x < 128) {
        __syncthreads(); // the bug: threads 128-255 never come here
        out[threadIdx.x] = tile[255 - threadIdx.x];
    }
}

int main()
{
    float *in, *out;
    if (hipMalloc(&in, 256 * sizeof(float)) != hipSuccess || hipMalloc(&out, 256 * sizeof(float)) != hipSuccess)
        return 1;
    if (hipMemset(in, 0, 256 * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(reverse_half, dim3(1), dim3(256), 0, 0, in, out);
    return hipDeviceSynchronize() != hipSuccess;
}
// expect: synccheck partial_barrier.hip:12 reached by 128 of 256 threads
