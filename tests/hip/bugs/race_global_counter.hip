// A learner's bug: every block adds its count to a global total with a plain
// +=, not atomicAdd, so blocks overwrite each other's sums.
// expect: racecheck race_global_counter.hip:13 race
#include <hip/hip_runtime.h>

__global__ void count_positive(const float *in, int *total)
{
    __shared__ int block_count;
    if (threadIdx.x == 0) block_count = 0;
    __syncthreads();
    if (in[blockIdx.x * blockDim.x + threadIdx.x] > 0.0f) atomicAdd(&block_count, 1);
    __syncthreads();
    if (threadIdx.x == 0) *total += block_count; // the bug: atomicAdd(total, block_count)
}

int main()
{
    float *in;
    int *total;
    if (hipMalloc(&in, 1024 * sizeof(float)) != hipSuccess || hipMalloc(&total, sizeof(int)) != hipSuccess) return 1;
    if (hipMemset(in, 0, 1024 * sizeof(float)) != hipSuccess || hipMemset(total, 0, sizeof(int)) != hipSuccess) return 1;
    hipLaunchKernelGGL(count_positive, dim3(4), dim3(256), 0, 0, in, total);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(total) != hipSuccess;
}
