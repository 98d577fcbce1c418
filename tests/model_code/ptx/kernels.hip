// Small kernels for the PTX reader's tests (code_ptx.c).
__global__ void block_sum(const float *x, float *out, int n) {
    __shared__ float partial[32];
    float sum = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += x[i];
    sum += __shfl_down_sync(0xffffffffu, sum, 16);
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(out, partial[0] + partial[1]);
}

__global__ void scale(float *y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] *= a;
}
