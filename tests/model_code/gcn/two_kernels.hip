// Two kernels and a device function hipcc does not inline, for the GCN reader's tests (code_gcn.c).
#include <hip/hip_runtime.h>

__device__ __attribute__((noinline)) float twice(float x) { return x + x; }

__global__ void scale(float *v, float s) { v[threadIdx.x] *= s; }

__global__ void twice_all(float *v) { v[threadIdx.x] = twice(v[threadIdx.x]); }
