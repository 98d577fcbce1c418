// A learner's bug: the kernel accumulates into out[i] += ..., but out was
// only allocated, never set, so the first sum starts from garbage.
// expect: initcheck uninit_accumulate.hip:9 uninitialised read of global memory
#include <hip/hip_runtime.h>

__global__ void add_row(const float *row, float *out)
{
    unsigned i = threadIdx.x;
    out[i] += row[i]; // the bug: out was never set
}

int main()
{
    float host[128] = {0}, *row, *out;
    if (hipMalloc(&row, sizeof host) != hipSuccess || hipMalloc(&out, sizeof host) != hipSuccess) return 1;
    if (hipMemcpy(row, host, sizeof host, hipMemcpyHostToDevice) != hipSuccess) return 1;
    hipLaunchKernelGGL(add_row, dim3(1), dim3(128), 0, 0, row, out);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(row) != hipSuccess || hipFree(out) != hipSuccess;
}
