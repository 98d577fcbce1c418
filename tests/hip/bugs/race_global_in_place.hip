// A learner's bug: a transpose done in place, each block swapping its tile
// with the mirror one, reads elements another thread is writing.
// expect: racecheck race_global_in_place.hip:12 race
#include <hip/hip_runtime.h>

__global__ void transpose_in_place(float *m, int n)
{
    int col = blockIdx.x * 16 + threadIdx.x, row = blockIdx.y * 16 + threadIdx.y;
    if (row < n && col < n) {
        float mine = m[row * n + col];
        // the bug: the block at (y, x) reads m[col * n + row] too, while this one writes it
        m[col * n + row] = mine;
    }
}

int main()
{
    const int n = 32;
    float *m;
    if (hipMalloc(&m, n * n * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(m, 0, n * n * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(transpose_in_place, dim3(2, 2), dim3(16, 16), 0, 0, m, n);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(m) != hipSuccess;
}
