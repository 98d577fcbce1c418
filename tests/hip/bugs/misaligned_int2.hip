// A learner's bug: pairs of ints are stored as int2 starting at an odd
// index of an int buffer, so each 8-byte store is 4 bytes off.
// expect: memcheck misaligned_int2.hip:10 misaligned
#include <hip/hip_runtime.h>

__global__ void write_pairs(int *out)
{
    unsigned t = threadIdx.x;
    int2 *pairs = reinterpret_cast<int2 *>(out + 1); // the bug: out + 1 is not 8-byte aligned
    pairs[t] = make_int2(int(t), -int(t));
}

int main()
{
    int *out;
    if (hipMalloc(&out, (1 + 2 * 64) * sizeof(int)) != hipSuccess) return 1;
    hipLaunchKernelGGL(write_pairs, dim3(1), dim3(64), 0, 0, out);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(out) != hipSuccess;
}
