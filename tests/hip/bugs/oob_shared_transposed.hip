// A learner's bug: a 16 x 8 tile is indexed [x][y] where it was declared
// [y][x], so threads with x >= 8 index past a row of the __shared__ array.
// expect: memcheck oob_shared_transposed.hip:11 out of bounds, shared
#include <hip/hip_runtime.h>

__global__ void copy_tile(const float *in, float *out)
{
    __shared__ float tile[8][16]; // [y][x]: 8 rows of 16
    unsigned x = threadIdx.x, y = threadIdx.y;
    unsigned i = y * 16 + x;
    tile[x][y] = in[i]; // the bug: tile[y][x]
    __syncthreads();
    out[i] = tile[y][x];
}

int main()
{
    float *in, *out;
    if (hipMalloc(&in, 128 * sizeof(float)) != hipSuccess || hipMalloc(&out, 128 * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(in, 0, 128 * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(copy_tile, dim3(1), dim3(16, 8), 0, 0, in, out);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
