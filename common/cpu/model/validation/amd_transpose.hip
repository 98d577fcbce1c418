// Validation set C (AMD CDNA2): the three hand-written transposes of AMD's
// HPC Training Examples, HIP/transpose/README.md (github.com/amd/HPCTrainingExamples,
// "Transpose Examples", tested on an MI210 with ROCm 6.4.1), rewritten here from
// the README's description: an 8192 x 8192 matrix of doubles, blocks of
// TILE_SIZE x TILE_SIZE = 16 x 16 threads (transpose_kernels.h), a grid of
// 512 x 512 blocks, one element per thread. The README times each kernel as the
// mean of 5 back-to-back launches (host clock around them) after a warm-up.
//
// Kernel names are the README's. Differences: the input is filled by hipMemset
// (the README copies a host pattern in), no timing loop, no verification.
#include <hip/hip_runtime.h>

#include <stdio.h>

#define TILE_SIZE 16
#define ROWS 8192
#define COLS 8192

#define CHECK(call)                                                                                \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

// "Transpose Read Contiguous": thread (x, y) of the source reads input[y][x]
// (consecutive lanes, consecutive doubles) and writes output[x][y] (lanes a
// whole output row apart).
__global__ void transpose_kernel_read_contiguous(const double *__restrict__ input, double *__restrict__ output,
                                                 int rows, int cols) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (y < rows && x < cols) output[(size_t)x * rows + y] = input[(size_t)y * cols + x];
}

// "Transpose Write Contiguous": the thread grid covers the destination; thread
// (x, y) writes output[y][x] (contiguous) and reads input[x][y] (strided).
__global__ void transpose_kernel_write_contiguous(const double *__restrict__ input, double *__restrict__ output,
                                                  int rows, int cols) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x; // destination column
    const int y = blockIdx.y * blockDim.y + threadIdx.y; // destination row
    if (y < cols && x < rows) output[(size_t)y * rows + x] = input[(size_t)x * cols + y];
}

// "Tiled Matrix Transpose": a 16 x (16 + 1) tile of doubles in LDS (one column
// of padding), filled by rows from the source (contiguous reads), a barrier,
// then written by rows of the destination from the tile's columns.
__global__ void transpose_kernel_tiled(const double *__restrict__ input, double *__restrict__ output, int rows,
                                       int cols) {
    __shared__ double tile[TILE_SIZE][TILE_SIZE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int sx = blockIdx.x * TILE_SIZE + tx;
    const int sy = blockIdx.y * TILE_SIZE + ty;
    tile[ty][tx] = (sy < rows && sx < cols) ? input[(size_t)sy * cols + sx] : 0.0;
    __syncthreads();
    const int dy = blockIdx.x * TILE_SIZE + ty; // swapped block coordinates
    const int dx = blockIdx.y * TILE_SIZE + tx;
    if (dy < cols && dx < rows) output[(size_t)dy * rows + dx] = tile[tx][ty];
}

int main() {
    const size_t bytes = (size_t)ROWS * COLS * sizeof(double);
    double *in = nullptr, *out = nullptr;
    CHECK(hipMalloc(&in, bytes));
    CHECK(hipMalloc(&out, bytes));
    CHECK(hipMemset(in, 0, bytes));
    CHECK(hipMemset(out, 0, bytes));
    const dim3 block(TILE_SIZE, TILE_SIZE);
    const dim3 grid((COLS + TILE_SIZE - 1) / TILE_SIZE, (ROWS + TILE_SIZE - 1) / TILE_SIZE);
    hipLaunchKernelGGL(transpose_kernel_read_contiguous, grid, block, 0, 0, in, out, ROWS, COLS);
    CHECK(hipGetLastError());
    hipLaunchKernelGGL(transpose_kernel_write_contiguous, grid, block, 0, 0, in, out, ROWS, COLS);
    CHECK(hipGetLastError());
    hipLaunchKernelGGL(transpose_kernel_tiled, grid, block, 0, 0, in, out, ROWS, COLS);
    CHECK(hipGetLastError());
    CHECK(hipDeviceSynchronize());
    CHECK(hipFree(in));
    CHECK(hipFree(out));
    printf("amd_transpose: 3 kernels launched once each on %d x %d doubles\n", ROWS, COLS);
    return 0;
}
