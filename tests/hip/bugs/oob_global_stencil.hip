// A learner's bug: a three-point stencil reads its right neighbour without
// stopping at the last element, so the last thread reads one past the end.
// expect: memcheck oob_global_stencil.hip:11 out of bounds, global
#include <hip/hip_runtime.h>

__global__ void blur(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float left = i > 0 ? in[i - 1] : 0.0f;
    float right = in[i + 1]; // the bug: no check for i == n - 1
    out[i] = (left + in[i] + right) / 3.0f;
}

int main()
{
    const int n = 512;
    float *in, *out;
    if (hipMalloc(&in, n * sizeof(float)) != hipSuccess || hipMalloc(&out, n * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(in, 0, n * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(blur, dim3(n / 128), dim3(128), 0, 0, in, out, n);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
