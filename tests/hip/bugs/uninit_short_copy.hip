// A learner's bug: the copy to the device gives a count of elements where
// hipMemcpy wants bytes, so only the first quarter of the input is copied and
// the rest of the kernel's reads see nothing written.
// expect: initcheck uninit_short_copy.hip:10 uninitialised read of global memory
#include <hip/hip_runtime.h>

__global__ void square(const float *in, float *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * in[i];
}

int main()
{
    const int n = 256;
    float host[n], *in, *out;
    for (int i = 0; i < n; i++) host[i] = float(i);
    if (hipMalloc(&in, n * sizeof(float)) != hipSuccess || hipMalloc(&out, n * sizeof(float)) != hipSuccess) return 1;
    if (hipMemcpy(in, host, n /* the bug: n * sizeof(float) */, hipMemcpyHostToDevice) != hipSuccess) return 1;
    hipLaunchKernelGGL(square, dim3(n / 64), dim3(64), 0, 0, in, out);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
