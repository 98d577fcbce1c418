/* make profile's worked example (common/model/README.md): a 2048 x 2048
 * float transpose three ways, one launch each, to read the counters and the
 * time model of a kernel of your own.
 *   make profile FILE=common/model/examples/transpose.hip
 * Each block moves one 32 x 32 tile with 32 x 8 threads, 4 elements a thread.
 *   transpose_naive     reads rows, writes columns: every lane of a store
 *                       lands in its own segment
 *   transpose_tile32    stages the tile in LDS to read and write rows; the
 *                       column read of tile[32][32] puts all 32 lanes of a
 *                       pass in one bank
 *   transpose_tile33    the same with a row of 33 floats: a column walks
 *                       through all 32 banks */
/* the executor's on the CPU platform, the NVIDIA mapping under nvcc, ROCm's under hipcc */
#include <hip/hip_runtime.h>
#include <stdio.h>

#define SIDE 2048
#define TILE 32
#define ROWS 8 /* threads per tile column: each thread moves TILE / ROWS elements */

#define CHECK(call)                                                                   \
    do {                                                                              \
        hipError_t status_ = (call);                                                  \
        if (status_ != hipSuccess) {                                                  \
            fprintf(stderr, "%s: %s\n", #call, hipGetErrorString(status_));          \
            return 1;                                                                 \
        }                                                                             \
    } while (0)

__global__ void transpose_naive(const float *in, float *out)
{
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[x * SIDE + y + j] = in[(y + j) * SIDE + x];
}

__global__ void transpose_tile32(const float *in, float *out)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * SIDE + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * SIDE + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_tile33(const float *in, float *out)
{
    __shared__ float tile[TILE][TILE + 1]; /* the padding column */
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
    dim3 grid(SIDE / TILE, SIDE / TILE), block(TILE, ROWS);
    hipLaunchKernelGGL(transpose_naive, grid, block, 0, 0, in, out);
    CHECK(hipGetLastError());
    hipLaunchKernelGGL(transpose_tile32, grid, block, 0, 0, in, out);
    CHECK(hipGetLastError());
    hipLaunchKernelGGL(transpose_tile33, grid, block, 0, 0, in, out);
    CHECK(hipGetLastError());
    CHECK(hipDeviceSynchronize());
    CHECK(hipFree(in));
    CHECK(hipFree(out));
    printf("transposed %d x %d floats three ways\n", SIDE, SIDE);
    return 0;
}
