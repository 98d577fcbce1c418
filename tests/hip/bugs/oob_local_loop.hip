// A learner's bug: a thread keeps four partial sums in a local array, but
// its loop runs to k <= 4, one past the array's end.
// expect: memcheck oob_local_loop.hip:12 out of bounds, local
#include <hip/hip_runtime.h>

__global__ void four_sums(const float *in, float *out)
{
    float partial[4];
    unsigned t = threadIdx.x;
    for (int k = 0; k < 4; k++) partial[k] = 0.0f;
    for (int k = 0; k <= 4; k++) // the bug: k == 4 is past partial's end
        partial[k] += in[t * 8 + k];
    out[t] = partial[0] + partial[1] + partial[2] + partial[3];
}

int main()
{
    float *in, *out;
    if (hipMalloc(&in, 512 * sizeof(float)) != hipSuccess || hipMalloc(&out, 64 * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(in, 0, 512 * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(four_sums, dim3(1), dim3(64), 0, 0, in, out);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
