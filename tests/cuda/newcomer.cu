// A newcomer's first CUDA file, as written on 2026-11-28: a histogram of
// bytes through shared-memory bins, and a matrix transpose through a padded
// shared tile. Plain CUDA: cuda_runtime.h, cuda* calls, <<<>>> launches.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        cudaError_t err = (call);                                                    \
        if (err != cudaSuccess) {                                                    \
            printf("CUDA error %s at %s:%d\n", cudaGetErrorString(err), __FILE__, __LINE__); \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

#define BINS 256
#define TILE 32

__global__ void histogram(const unsigned char *data, int n, unsigned int *bins) {
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

__global__ void transpose(const float *in, float *out, int rows, int cols) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
    const int n = 100000, rows = 300, cols = 200;
    unsigned char *h_data = (unsigned char *)malloc(n);
    for (int i = 0; i < n; i++) h_data[i] = (unsigned char)((i * 7) % 251);
    unsigned char *d_data;
    unsigned int *d_bins, h_bins[BINS];
    CHECK(cudaMalloc(&d_data, n));
    CHECK(cudaMalloc(&d_bins, BINS * sizeof(unsigned int)));
    CHECK(cudaMemcpy(d_data, h_data, n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_bins, 0, BINS * sizeof(unsigned int)));
    histogram<<<64, 256>>>(d_data, n, d_bins);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_bins, d_bins, sizeof h_bins, cudaMemcpyDeviceToHost));
    long total = 0;
    for (int b = 0; b < BINS; b++) total += h_bins[b];
    printf("histogram: %ld values in %d bins\n", total, BINS);

    float *h_in = (float *)malloc(rows * cols * sizeof(float)), *h_out = (float *)malloc(rows * cols * sizeof(float));
    for (int i = 0; i < rows * cols; i++) h_in[i] = (float)i;
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, rows * cols * sizeof(float)));
    CHECK(cudaMalloc(&d_out, rows * cols * sizeof(float)));
    CHECK(cudaMemcpy(d_in, h_in, rows * cols * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(TILE, 8), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose<<<grid, block>>>(d_in, d_out, rows, cols);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, rows * cols * sizeof(float), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) wrong += h_out[c * rows + r] != h_in[r * cols + c];
    printf("transpose: %dx%d, %d wrong\n", rows, cols, wrong);
    cudaFree(d_data);
    cudaFree(d_bins);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_data);
    free(h_in);
    free(h_out);
    return total == n && wrong == 0 ? 0 : 1;
}
