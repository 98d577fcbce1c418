// A learner's bug: a scratch buffer is freed inside the loop of launches,
// so the second launch writes to memory that is no longer the program's.
// expect: memcheck free_in_loop.hip:8 use after free
#include <hip/hip_runtime.h>

__global__ void step(float *scratch, int round)
{
    scratch[threadIdx.x] = float(round);
}

int main()
{
    float *scratch;
    if (hipMalloc(&scratch, 64 * sizeof(float)) != hipSuccess) return 1;
    for (int round = 0; round < 3; round++) {
        hipLaunchKernelGGL(step, dim3(1), dim3(64), 0, 0, scratch, round);
        if (hipDeviceSynchronize() != hipSuccess) return 1;
        if (hipFree(scratch) != hipSuccess) return 1; // the bug: belongs after the loop
    }
    return 0;
}
