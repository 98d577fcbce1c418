/* make profile's second worked example (common/model/README.md): one
 * template kernel, two tile shapes, each launch modelled under the name the
 * compiler gives it.
 *   make profile FILE=common/model/examples/tile_sizes.hip
 * tile_kernel<TILE, ROWS> transposes a 2048 x 2048 float matrix through a
 * padded TILE x (TILE + 1) tile in LDS, with TILE x ROWS threads a block
 * (TILE / ROWS elements a thread):
 *   tile_kernel<32, 8>    launched with the numbers written in
 *   tile_kernel<64, 4>    launched with them named by constexpr variables:
 *                         four times the LDS a block, a quarter of the blocks
 * The launch's text says tile_kernel<kTile, kRows>; the trace and the model
 * name the kernel as the compiler does, tile_kernel<64, 4>. */
/* the executor's on the CPU platform, the NVIDIA mapping under nvcc, ROCm's under hipcc */
#include <hip/hip_runtime.h>
#include <stdio.h>

#define SIDE 2048

#define CHECK(call)                                                                   \
    do {                                                                              \
        hipError_t status_ = (call);                                                  \
        if (status_ != hipSuccess) {                                                  \
            fprintf(stderr, "%s: %s\n", #call, hipGetErrorString(status_));          \
            return 1;                                                                 \
        }                                                                             \
    } while (0)

template <int TILE, int ROWS> __global__ void tile_kernel(const float *in, float *out)
{
    __shared__ float tile[TILE][TILE + 1]; /* the padding column: a column read walks all banks */
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * SIDE + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * SIDE + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(void)
{
    const size_t bytes = (size_t)SIDE * SIDE * sizeof(float);
    float *in, *out;
    CHECK(hipMalloc(&in, bytes));
    CHECK(hipMalloc(&out, bytes));
    CHECK(hipMemset(in, 0, bytes));

    hipLaunchKernelGGL((tile_kernel<32, 8>), dim3(SIDE / 32, SIDE / 32), dim3(32, 8), 0, 0, in, out);
    CHECK(hipGetLastError());

    constexpr int kTile = 64, kRows = 4;
    hipLaunchKernelGGL((tile_kernel<kTile, kRows>), dim3(SIDE / kTile, SIDE / kTile), dim3(kTile, kRows), 0, 0,
                       in, out);
    CHECK(hipGetLastError());

    CHECK(hipDeviceSynchronize());
    CHECK(hipFree(in));
    CHECK(hipFree(out));
    printf("transposed %d x %d floats with two tile shapes\n", SIDE, SIDE);
    return 0;
}
