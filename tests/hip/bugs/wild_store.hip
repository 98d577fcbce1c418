// A learner's bug: a row index used as a flat one, so thread 1 stores 400 MB
// past its 1 KiB buffer, where nothing is mapped (SIGSEGV). The executor names
// the kernel, the thread and the line (tests/own_hip.bats).
#include <hip/hip_runtime.h>

__global__ void fill_rows(float *rows, int row_length)
{
    int row = threadIdx.x;
    rows[(size_t)row * row_length * 1000000] = 1.0f; // the bug: an extra factor
}

int main()
{
    float *rows;
    if (hipMalloc(&rows, 256 * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(fill_rows, dim3(1), dim3(64), 0, 0, rows, 100);
    return hipDeviceSynchronize() != hipSuccess;
}
// expect: fault wild_store.hip:9 SIGSEGV
