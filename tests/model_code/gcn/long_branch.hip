// A loop for the GCN reader's tests (code_gcn.c), compiled with -mllvm -amdgpu-s-branch-bits=4 so that
// LLVM writes its branches as long jumps (s_getpc_b64, s_add_u32, s_setpc_b64).
#include <hip/hip_runtime.h>
__global__ void sum_rows(const float *in, float *out, int n) {
    float acc = 0;
    for (int j = 0; j < n; j++) acc += in[j * 64 + threadIdx.x];
    out[threadIdx.x] = acc;
}
