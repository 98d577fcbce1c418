// static __shared__ inside a __device__ function, as CUDA code often declares a
// block reduction's scratch: the front end drops the static (the executor's
// __shared__ is already static). Every thread gets the block's sum, 64.
#include <hip/hip_runtime.h>

#include <stdio.h>

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

__device__ float block_sum(float value) {
    static __shared__ float part[64];
    part[threadIdx.x] = value;
    __syncthreads();
    float sum = 0.0f;
    for (int i = 0; i < 64; i++) sum += part[i];
    __syncthreads();
    return sum;
}

__global__ void sums(float *out) { out[threadIdx.x] = block_sum(1.0f); }

int main() {
    float *d_out = nullptr, host[64];
    HIP_CHECK(hipMalloc(&d_out, sizeof host));
    sums<<<1, 64>>>(d_out);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(host, d_out, sizeof host, hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_out));
    for (int i = 0; i < 64; i++)
        if (host[i] != 64.0f) {
            printf("static_shared: thread %d got %g, not 64\n", i, host[i]);
            return 1;
        }
    printf("static_shared: every thread got 64\n");
    return 0;
}
