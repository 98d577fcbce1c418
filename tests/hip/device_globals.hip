// __device__ globals: set through HIP_SYMBOL and the symbol API, read and
// written by a kernel, read back.
#include "check.h"

__device__ int offset_value;
__device__ int table[32];
__device__ int hits;

__global__ void use_globals(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = table[i % 32] + offset_value;
    if (i == 0) hits = n;
}

int main(void) {
    const int n = 256;
    int host_table[32], out[256], seen = 0;
    for (int i = 0; i < 32; i++) host_table[i] = 10 * i;
    HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(table), host_table, sizeof host_table));
    void *address = nullptr;
    size_t size = 0;
    HIP_CHECK(hipGetSymbolAddress(&address, HIP_SYMBOL(offset_value)));
    HIP_CHECK(hipGetSymbolSize(&size, HIP_SYMBOL(offset_value)));
    const int five = 5;
    if (size != sizeof(int)) {
        fprintf(stderr, "device_globals: offset_value has size %zu, not %zu\n", size, sizeof(int));
        return 1;
    }
    HIP_CHECK(hipMemcpy(address, &five, size, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(hits), &seen, sizeof seen));
    int *d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(int)));
    use_globals<<<n / 64, 64>>>(d_out, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(out, d_out, sizeof out, hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpyFromSymbol(&seen, HIP_SYMBOL(hits), sizeof seen));
    for (int i = 0; i < n; i++)
        if (out[i] != 10 * (i % 32) + 5) {
            fprintf(stderr, "device_globals: element %d is %d\n", i, out[i]);
            return 1;
        }
    if (seen != n) {
        fprintf(stderr, "device_globals: hits is %d, not %d\n", seen, n);
        return 1;
    }
    printf("device_globals: globals read and written\n");
    HIP_CHECK(hipFree(d_out));
    return 0;
}
