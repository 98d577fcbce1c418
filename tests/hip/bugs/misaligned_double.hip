// A learner's bug: records of an int and a double are packed by hand into a
// byte buffer, 12 bytes apart, so every second double sits 4 bytes off an
// 8-byte boundary.
// expect: memcheck misaligned_double.hip:11 misaligned
#include <hip/hip_runtime.h>

__global__ void read_weights(const unsigned char *records, double *weights)
{
    unsigned t = threadIdx.x;
    const unsigned char *record = records + t * 12; // int id, then double weight: 12 bytes
    weights[t] = *reinterpret_cast<const double *>(record + 4); // the bug: record + 4 is 8-aligned for even t only
}

int main()
{
    unsigned char *records;
    double *weights;
    if (hipMalloc(&records, 64 * 12) != hipSuccess || hipMalloc(&weights, 64 * sizeof(double)) != hipSuccess) return 1;
    if (hipMemset(records, 0, 64 * 12) != hipSuccess) return 1;
    hipLaunchKernelGGL(read_weights, dim3(1), dim3(64), 0, 0, records, weights);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(records) != hipSuccess || hipFree(weights) != hipSuccess;
}
