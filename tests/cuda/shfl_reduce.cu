// A block sum as CUDA code writes it: each warp of 32 sums its lanes with
// __shfl_down_sync, lane 0 of each warp leaves its sum in shared memory, and
// the first warp sums those. Warps of 32 are assumed, as CUDA code does.
#include "check.cuh"

constexpr int kWarp = 32; // CUDA's warp; the trace runs this file at warp 32
constexpr unsigned kFull = 0xffffffffu;

__device__ float warp_sum(float value) {
    for (int offset = kWarp / 2; offset > 0; offset /= 2) value += __shfl_down_sync(kFull, value, offset);
    return value;
}

__global__ void block_sums(const float *in, float *out, int n) {
    __shared__ float warp_totals[1024 / kWarp];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float value = warp_sum(i < n ? in[i] : 0.0f);
    int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
    if (lane == 0) warp_totals[warp] = value;
    __syncthreads(); // barrier: the negative control
    if (warp == 0) {
        value = lane < blockDim.x / kWarp ? warp_totals[lane] : 0.0f;
        value = warp_sum(value);
        if (lane == 0) out[blockIdx.x] = value;
    }
}

int main(void) {
    const int n = 10000, threads = 256, blocks = (n + threads - 1) / threads;
    float *host = (float *)malloc(n * sizeof(float)), sums[64];
    for (int i = 0; i < n; i++) host[i] = (float)(i % 7);
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, blocks * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_in, host, n * sizeof(float), cudaMemcpyHostToDevice));
    block_sums<<<blocks, threads>>>(d_in, d_out, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(sums, d_out, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    double total = 0, want = 0;
    for (int b = 0; b < blocks; b++) total += sums[b];
    for (int i = 0; i < n; i++) want += host[i];
    printf("shfl_reduce: %d blocks sum to %.0f (want %.0f)\n", blocks, total, want);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    free(host);
    return total == want ? 0 : 1;
}
