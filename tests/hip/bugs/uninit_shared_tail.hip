// A learner's bug: the last block has fewer elements than threads, so only
// some threads fill the tile, but every thread reads a neighbour's slot.
// expect: initcheck uninit_shared_tail.hip:14 uninitialised read
#include <hip/hip_runtime.h>

__global__ void neighbour_diff(const float *in, float *out, int n)
{
    __shared__ float tile[64];
    int i = blockIdx.x * 64 + threadIdx.x;
    if (i < n) tile[threadIdx.x] = in[i];
    __syncthreads();
    if (i < n) {
        unsigned next = threadIdx.x + 1 < 64 ? threadIdx.x + 1 : threadIdx.x;
        out[i] = tile[next] - tile[threadIdx.x]; // the bug: tile[next] may not have been filled
    }
}

int main()
{
    const int n = 100;
    float *in, *out;
    if (hipMalloc(&in, n * sizeof(float)) != hipSuccess || hipMalloc(&out, n * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(in, 0, n * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(neighbour_diff, dim3(2), dim3(64), 0, 0, in, out, n);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
