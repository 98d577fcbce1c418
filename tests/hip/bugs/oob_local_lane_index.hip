// A learner's bug: a thread picks one of its four registers by its lane
// number modulo eight, not four, so half the threads read past the array.
// expect: memcheck oob_local_lane_index.hip:11 out of bounds, local
#include <hip/hip_runtime.h>

__global__ void pick(const float *in, float *out)
{
    float r[4];
    unsigned t = threadIdx.x;
    for (int k = 0; k < 4; k++) r[k] = in[t * 4 + k];
    out[t] = r[t % 8]; // the bug: t % 4
}

int main()
{
    float *in, *out;
    if (hipMalloc(&in, 256 * sizeof(float)) != hipSuccess || hipMalloc(&out, 64 * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(in, 0, 256 * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(pick, dim3(1), dim3(64), 0, 0, in, out);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
