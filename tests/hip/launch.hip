// <<<>>> launches: a template kernel, the configuration given with 2, 3 and
// 4 arguments, a launch split over lines, and printf from a kernel.
#include "check.h"

template <typename T, int SCALE> __global__ void scale_add(T *out, const T *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] += SCALE * in[i];
}

__global__ void say_hello(int tag) {
    if (threadIdx.x == 0 && blockIdx.x == 0) printf("hello from block 0, tag %d\n", tag);
}

int main(void) {
    const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
    float host[1000];
    for (int i = 0; i < n; i++) host[i] = (float)i;
    float *d_in = nullptr, *d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_in, host, n * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_out, 0, n * sizeof(float)));
    scale_add<float, 2><<<blocks, threads>>>(d_out, d_in, n);
    scale_add<float, 3><<<dim3(blocks), dim3(threads), 0>>>(d_out, d_in, n);
    scale_add<float, 2>
        <<<dim3(blocks, 1, 1),
           dim3(threads), 0, hipStreamDefault>>>(d_out,
                                                 d_in, n);
    HIP_CHECK(hipGetLastError());
    say_hello<<<1, 64>>>(7);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(host, d_out, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (host[i] != 7.0f * (float)i) {
            fprintf(stderr, "launch: element %d is %g, not %g\n", i, host[i], 7.0 * i);
            return 1;
        }
    printf("launch: 3 launches of 2 instantiations correct\n");
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    return 0;
}
