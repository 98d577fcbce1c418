// A learner's bug: a vectorised copy skips a one-float header by starting
// at in + 1 and casting to float4, so each 16-byte load sits 4 bytes off a
// multiple of 16, which a GPU refuses (misaligned address).
// expect: memcheck misaligned_float4.hip:11 misaligned
#include <hip/hip_runtime.h>

__global__ void copy_body(const float *in, float *out)
{
    const float4 *body = reinterpret_cast<const float4 *>(in + 1); // the bug: in + 1 is not 16-byte aligned
    float4 *to = reinterpret_cast<float4 *>(out);
    to[threadIdx.x] = body[threadIdx.x];
}

int main()
{
    float *in, *out;
    if (hipMalloc(&in, (1 + 4 * 64) * sizeof(float)) != hipSuccess || hipMalloc(&out, 4 * 64 * sizeof(float)) != hipSuccess)
        return 1;
    if (hipMemset(in, 0, (1 + 4 * 64) * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(copy_body, dim3(1), dim3(64), 0, 0, in, out);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
