// An assert in a kernel: the threads past the data's end fail it, the
// launch stops, and the next synchronising call returns cudaErrorAssert,
// which this program expects (as NVIDIA's simpleAssert does).
#include "check.cuh"
#include <assert.h>
#include <string.h>

__global__ void in_range(const int *data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < n);
    (void)data[i];
}

int main(void) {
    const int n = 60;
    int *d_data;
    CUDA_CHECK(cudaMalloc(&d_data, 64 * sizeof(int)));
    CUDA_CHECK(cudaMemset(d_data, 0, 64 * sizeof(int)));
    in_range<<<2, 32>>>(d_data, n);
    cudaError_t status = cudaDeviceSynchronize();
    printf("device_assert: cudaDeviceSynchronize returned %s: %s\n", cudaGetErrorName(status), cudaGetErrorString(status));
    if (status != cudaErrorAssert || strcmp(cudaGetErrorName(status), "cudaErrorAssert") != 0) return 1;
    // The error is sticky, as on a GPU: a later call returns it too.
    int failed = cudaMemset(d_data, 0, sizeof(int)) != cudaErrorAssert;
    cudaFree(d_data);
    return failed;
}
