// A learner's bug: block 0 spins until block 1 raises a flag, as if every block
// of a grid ran at once. Nothing promises that: the executor runs one block
// at a time, and a GPU may too when the grid is larger than what fits, so
// block 0 waits forever. The executor's watchdog stops the launch and names
// the loop's line (tests/own_hip.bats runs it with HIPCPU_WATCHDOG_S=2; the
// default is 60 s).
#include <hip/hip_runtime.h>

__global__ void hand_over(volatile int *ready, float *values)
{
    if (blockIdx.x == 0) {
        while (ready[0] == 0) { } // the bug: block 1 has not run, and will not while this waits
        values[threadIdx.x] = 1.0f;
    } else {
        values[blockDim.x + threadIdx.x] = 2.0f;
        ready[0] = 1;
    }
}

int main()
{
    int *ready;
    float *values;
    if (hipMalloc(&ready, sizeof(int)) != hipSuccess || hipMalloc(&values, 128 * sizeof(float)) != hipSuccess)
        return 1;
    if (hipMemset(ready, 0, sizeof(int)) != hipSuccess) return 1;
    hipLaunchKernelGGL(hand_over, dim3(2), dim3(64), 0, 0, ready, values);
    return hipDeviceSynchronize() != hipSuccess;
}
// expect: watchdog never_ends.hip:12
