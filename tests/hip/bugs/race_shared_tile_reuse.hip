// A learner's bug: a tiled loop reloads the tile for the next step without
// a barrier after the last reads of the current one.
// expect: racecheck race_shared_tile_reuse.hip:12 race on __shared__
#include <hip/hip_runtime.h>

__global__ void running_sums(const float *in, float *out, int steps)
{
    __shared__ float tile[64];
    unsigned t = threadIdx.x;
    float sum = 0.0f;
    for (int s = 0; s < steps; s++) {
        tile[t] = in[s * 64 + t]; // the bug: other threads may still read the last step's tile
        __syncthreads();
        sum += tile[63 - t];
    }
    out[t] = sum;
}

int main()
{
    float *in, *out;
    if (hipMalloc(&in, 4 * 64 * sizeof(float)) != hipSuccess || hipMalloc(&out, 64 * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(in, 0, 4 * 64 * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(running_sums, dim3(1), dim3(64), 0, 0, in, out, 4);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
