// The occupancy API and the device's properties and attributes, printed
// for the test to compare with the modelled device's limits.
#include "check.h"

__global__ void triple(float *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= 3.0f;
}

int main(void) {
    int grid = 0, block = 0, per_cu = 0, per_cu_lds = 0, cus = 0, wave = 0, coop = 0;
    HIP_CHECK(hipOccupancyMaxPotentialBlockSize(&grid, &block, triple, 0, 0));
    HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, triple, 256, 0));
    HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu_lds, triple, 64, 20000));
    HIP_CHECK(hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, 0));
    HIP_CHECK(hipDeviceGetAttribute(&wave, hipDeviceAttributeWarpSize, 0));
    HIP_CHECK(hipDeviceGetAttribute(&coop, hipDeviceAttributeCooperativeLaunch, 0));
    hipDeviceProp_t props;
    HIP_CHECK(hipGetDeviceProperties(&props, 0));
    printf("occupancy: block %d grid %d, 256 threads: %d blocks per CU, 20000 LDS bytes: %d, CUs %d, wave %d, "
           "threads per CU %d, cooperative %d\n",
           block, grid, per_cu, per_cu_lds, cus, wave, props.maxThreadsPerMultiProcessor, coop);
    const int n = 100000;
    float *d_v = nullptr;
    HIP_CHECK(hipMalloc(&d_v, n * sizeof(float)));
    HIP_CHECK(hipMemset(d_v, 0, n * sizeof(float)));
    triple<<<(n + block - 1) / block, block>>>(d_v, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_v));
    return 0;
}
