// A learner's bug: a hand-made grid-wide barrier. Each block counts itself
// in, then spins until every block has: a GPU runs only as many blocks at
// once as fit (the executor one), so the first block waits for blocks that
// cannot start until it ends.
// expect: watchdog never_ends_grid_sync.hip:13
#include <hip/hip_runtime.h>

__global__ void two_phases(int *arrived, float *data)
{
    data[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
    if (threadIdx.x == 0) atomicAdd(arrived, 1);
    if (threadIdx.x == 0)
        while (atomicAdd(arrived, 0) < int(gridDim.x)) { } // the bug: the other blocks have not started
    data[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
}

int main()
{
    int *arrived;
    float *data;
    if (hipMalloc(&arrived, sizeof(int)) != hipSuccess || hipMalloc(&data, 4 * 64 * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(arrived, 0, sizeof(int)) != hipSuccess) return 1;
    hipLaunchKernelGGL(two_phases, dim3(4), dim3(64), 0, 0, arrived, data);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(arrived) != hipSuccess || hipFree(data) != hipSuccess;
}
