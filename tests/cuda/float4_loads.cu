// Vector loads as CUDA code writes them: each thread reads and writes one
// float4 (16 bytes), so a warp's request is 512 bytes, 16 sectors of 32.
#include "check.cuh"

__global__ void scale4(const float4 *__restrict__ in, float4 *__restrict__ out, float factor, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = __ldg(&in[i]);
        v.x *= factor, v.y *= factor, v.z *= factor, v.w *= factor;
        out[i] = v;
    }
}

int main(void) {
    const int n = 1 << 16, n4 = n / 4, threads = 128;
    float *host = (float *)malloc(n * sizeof(float)), *back = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) host[i] = (float)i;
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_in, host, n * sizeof(float), cudaMemcpyHostToDevice));
    scale4<<<(n4 + threads - 1) / threads, threads>>>(reinterpret_cast<const float4 *>(d_in),
                                                      reinterpret_cast<float4 *>(d_out), 2.0f, n4);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(back, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (back[i] != 2.0f * host[i]) {
            fprintf(stderr, "float4_loads: element %d is %g, not %g\n", i, back[i], 2.0f * host[i]);
            return 1;
        }
    printf("float4_loads: %d float4 scaled\n", n4);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    free(host);
    free(back);
    return 0;
}
