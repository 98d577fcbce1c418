// Streams and events: pinned host memory, asynchronous copies and a kernel
// on each of two streams, events recorded on them, then synchronised.
#include "check.h"

__global__ void add_one(int *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += 1;
}

int main(void) {
    const int n = 4096, half = n / 2;
    int *h_values = nullptr, *d_values = nullptr;
    HIP_CHECK(hipHostMalloc(&h_values, n * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_values, n * sizeof(int)));
    for (int i = 0; i < n; i++) h_values[i] = i;
    hipStream_t streams[2];
    hipEvent_t start, stop;
    for (int s = 0; s < 2; s++) HIP_CHECK(hipStreamCreate(&streams[s]));
    HIP_CHECK(hipEventCreate(&start));
    HIP_CHECK(hipEventCreate(&stop));
    HIP_CHECK(hipEventRecord(start, streams[0]));
    for (int s = 0; s < 2; s++) {
        int *part = d_values + s * half;
        HIP_CHECK(hipMemcpyAsync(part, h_values + s * half, half * sizeof(int), hipMemcpyHostToDevice, streams[s]));
        add_one<<<half / 256, 256, 0, streams[s]>>>(part, half);
        HIP_CHECK(hipMemcpyAsync(h_values + s * half, part, half * sizeof(int), hipMemcpyDeviceToHost, streams[s]));
    }
    HIP_CHECK(hipEventRecord(stop, streams[1]));
    for (int s = 0; s < 2; s++) HIP_CHECK(hipStreamSynchronize(streams[s]));
    HIP_CHECK(hipEventSynchronize(stop));
    float ms = -1;
    HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
    for (int i = 0; i < n; i++)
        if (h_values[i] != i + 1) {
            fprintf(stderr, "streams: element %d is %d, not %d\n", i, h_values[i], i + 1);
            return 1;
        }
    printf("streams: 2 streams correct, events %s\n", ms >= 0 ? "timed" : "not timed");
    for (int s = 0; s < 2; s++) HIP_CHECK(hipStreamDestroy(streams[s]));
    HIP_CHECK(hipEventDestroy(start));
    HIP_CHECK(hipEventDestroy(stop));
    HIP_CHECK(hipHostFree(h_values));
    HIP_CHECK(hipFree(d_values));
    return 0;
}
