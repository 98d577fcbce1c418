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
//
// Usage: amd_transpose [--small] [--check]: --small runs a 333 x 333 matrix,
// --check compares each kernel's output with a host reference.
#include <hip/hip_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TILE_SIZE 16
#define ROWS 8192
#define COLS 8192
// --small: not a multiple of the tile (the kernels check bounds); square, as
// the README's one grid serves the three kernels.
#define SMALL_SIZE 333

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

// --check's input: a small integer hash, as values in [-1, 1) that are multiples of 1/512.
static unsigned hash32(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

// Launch KERNEL on the README's grid; with --check, compare the output with
// the input's transpose and clear it for the next kernel.
#define LAUNCH(KERNEL)                                                                             \
    do {                                                                                           \
        hipLaunchKernelGGL(KERNEL, grid, block, 0, 0, in, out, rows, cols);                        \
        CHECK(hipGetLastError());                                                                  \
        if (check) {                                                                               \
            CHECK(hipMemcpy(got, out, bytes, hipMemcpyDeviceToHost));                              \
            double err = 0.0;                                                                      \
            for (int r = 0; r < rows; r++)                                                         \
                for (int c = 0; c < cols; c++) {                                                   \
                    double d = got[(size_t)c * rows + r] - host[(size_t)r * cols + c];             \
                    d = d != d ? 1e300 : d < 0 ? -d : d;                                           \
                    if (d > err) err = d;                                                          \
                }                                                                                  \
            printf("check %s: max error %.3g (%s)\n", #KERNEL, err, err == 0.0 ? "ok" : "FAILED"); \
            if (err != 0.0) failed = 1;                                                            \
            CHECK(hipMemset(out, 0, bytes));                                                       \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv) {
    int small = 0, check = 0;
    for (int arg = 1; arg < argc; arg++) {
        if (!strcmp(argv[arg], "--small"))
            small = 1;
        else if (!strcmp(argv[arg], "--check"))
            check = 1;
        else {
            fprintf(stderr, "usage: amd_transpose [--small] [--check]\n");
            return 2;
        }
    }
    const int rows = small ? SMALL_SIZE : ROWS, cols = small ? SMALL_SIZE : COLS;
    const size_t bytes = (size_t)rows * cols * sizeof(double);
    double *in = nullptr, *out = nullptr;
    CHECK(hipMalloc(&in, bytes));
    CHECK(hipMalloc(&out, bytes));
    CHECK(hipMemset(in, 0, bytes));
    CHECK(hipMemset(out, 0, bytes));
    // --check: the matrix from the hash; a transpose must reproduce it exactly.
    double *host = nullptr, *got = nullptr;
    int failed = 0;
    if (check) {
        host = (double *)malloc(bytes);
        got = (double *)malloc(bytes);
        if (!host || !got) {
            fprintf(stderr, "amd_transpose: out of host memory\n");
            return 1;
        }
        for (size_t i = 0; i < (size_t)rows * cols; i++)
            host[i] = ((int)(hash32((unsigned)i + 1U) & 1023U) - 512) / 512.0;
        CHECK(hipMemcpy(in, host, bytes, hipMemcpyHostToDevice));
    }
    const dim3 block(TILE_SIZE, TILE_SIZE);
    const dim3 grid((cols + TILE_SIZE - 1) / TILE_SIZE, (rows + TILE_SIZE - 1) / TILE_SIZE);
    LAUNCH(transpose_kernel_read_contiguous);
    LAUNCH(transpose_kernel_write_contiguous);
    LAUNCH(transpose_kernel_tiled);
    CHECK(hipDeviceSynchronize());
    CHECK(hipFree(in));
    CHECK(hipFree(out));
    free(host);
    free(got);
    printf("amd_transpose: 3 kernels launched once each on %d x %d doubles\n", rows, cols);
    return failed;
}
