// Dynamic shared memory, sized by the launch: a block sum through
// `extern __shared__`, and a reversal through HIP_DYNAMIC_SHARED.
#include "check.h"

template <typename T> __global__ void block_sum(const T *in, T *sums) {
    extern __shared__ T partial[];
    unsigned t = threadIdx.x;
    partial[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads(); // barrier: the negative control deletes this line
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half) partial[t] += partial[t + half];
        __syncthreads();
    }
    if (t == 0) sums[blockIdx.x] = partial[0];
}

__global__ void reverse_block(int *v) {
    HIP_DYNAMIC_SHARED(int, staged)
    unsigned t = threadIdx.x;
    staged[t] = v[blockIdx.x * blockDim.x + t];
    __syncthreads();
    v[blockIdx.x * blockDim.x + t] = staged[blockDim.x - 1 - t];
}

int main(void) {
    const int threads = 256, blocks = 8, n = threads * blocks;
    int host[2048], sums[8];
    for (int i = 0; i < n; i++) host[i] = i % 7;
    int *d_values = nullptr, *d_sums = nullptr;
    HIP_CHECK(hipMalloc(&d_values, n * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_sums, blocks * sizeof(int)));
    HIP_CHECK(hipMemcpy(d_values, host, n * sizeof(int), hipMemcpyHostToDevice));
    block_sum<int><<<blocks, threads, threads * sizeof(int), hipStreamDefault>>>(d_values, d_sums);
    reverse_block<<<blocks, threads, threads * sizeof(int)>>>(d_values);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(sums, d_sums, sizeof sums, hipMemcpyDeviceToHost));
    int reversed[2048];
    HIP_CHECK(hipMemcpy(reversed, d_values, sizeof reversed, hipMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        int want = 0;
        for (int t = 0; t < threads; t++) {
            want += host[b * threads + t];
            if (reversed[b * threads + t] != host[b * threads + threads - 1 - t]) {
                fprintf(stderr, "dynamic_shared: block %d not reversed at %d\n", b, t);
                return 1;
            }
        }
        if (sums[b] != want) {
            fprintf(stderr, "dynamic_shared: block %d sums to %d, not %d\n", b, sums[b], want);
            return 1;
        }
    }
    /* More than a CU's LDS is refused at launch, as on a GPU. */
    reverse_block<<<1, 64, 65537>>>(d_values);
    if (hipGetLastError() != hipErrorInvalidValue) {
        fprintf(stderr, "dynamic_shared: a launch asking for 65537 bytes was not refused\n");
        return 1;
    }
    printf("dynamic_shared: %d block sums and reversals correct\n", blocks);
    HIP_CHECK(hipFree(d_values));
    HIP_CHECK(hipFree(d_sums));
    return 0;
}
