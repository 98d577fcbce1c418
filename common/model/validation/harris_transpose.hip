// Validation set B: the five kernels of Mark Harris, "An Efficient Matrix
// Transpose in CUDA C/C++", NVIDIA Developer Blog, 2013
// (https://developer.nvidia.com/blog/efficient-matrix-transpose-cuda-cc/),
// rewritten here from the post's prose: a 1024 x 1024 float matrix, tiles of
// TILE_DIM x TILE_DIM = 32 x 32 elements, blocks of 32 x 8 threads
// (TILE_DIM x BLOCK_ROWS), so each thread moves TILE_DIM / BLOCK_ROWS = 4
// elements, a grid of 32 x 32 blocks. The post times each kernel over repeated
// launches and reports effective bandwidth 2 x 4 MiB / time; this program
// launches each kernel once (the trace counts one launch).
//
// Kernel names are the post's. Differences from the post: none in what a
// thread reads and writes; the matrix is filled by hipMemset (the post fills it
// on the host), and there is no timing loop.
//
// Usage: harris_transpose [--small] [--check]: --small runs a 96 x 96 matrix,
// --check compares each kernel's output with a host reference.
#include <hip/hip_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8
#define N 1024
#define SMALL_N 96 // 3 x 3 tiles: the kernels need whole tiles of a square matrix

#define CHECK(call)                                                                                \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

// "copy": the post's bandwidth reference. Each thread copies 4 elements of its
// tile column, BLOCK_ROWS rows apart, same index in and out (coalesced both).
__global__ void copy(float *out, const float *in) {
    const int x = blockIdx.x * TILE_DIM + threadIdx.x;
    const int y = blockIdx.y * TILE_DIM + threadIdx.y;
    const int width = gridDim.x * TILE_DIM;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) out[(y + j) * width + x] = in[(y + j) * width + x];
}

// "copySharedMem": the copy staged through a 32 x 32 shared tile, with a
// barrier between the tile's writes and reads (the same element per thread).
__global__ void copySharedMem(float *out, const float *in) {
    __shared__ float tile[TILE_DIM * TILE_DIM];
    const int x = blockIdx.x * TILE_DIM + threadIdx.x;
    const int y = blockIdx.y * TILE_DIM + threadIdx.y;
    const int width = gridDim.x * TILE_DIM;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[(threadIdx.y + j) * TILE_DIM + threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        out[(y + j) * width + x] = tile[(threadIdx.y + j) * TILE_DIM + threadIdx.x];
}

// "transposeNaive": reads a row of the tile (coalesced), writes it as a column
// of the output (stride width: every lane its own segment).
__global__ void transposeNaive(float *out, const float *in) {
    const int x = blockIdx.x * TILE_DIM + threadIdx.x;
    const int y = blockIdx.y * TILE_DIM + threadIdx.y;
    const int width = gridDim.x * TILE_DIM;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) out[x * width + (y + j)] = in[(y + j) * width + x];
}

// "transposeCoalesced": the tile is read by rows into shared memory, then the
// block writes the transposed tile by rows of the output: global reads and
// writes coalesced, shared reads down a column of a 32-wide tile (32-way bank
// conflicts on 32 banks).
__global__ void transposeCoalesced(float *out, const float *in) {
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    const int width = gridDim.x * TILE_DIM;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x; // the transposed block's origin
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) out[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

// "transposeNoBankConflicts": transposeCoalesced with the tile padded to 33
// columns, so a column of it falls in 32 different banks.
__global__ void transposeNoBankConflicts(float *out, const float *in) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    const int width = gridDim.x * TILE_DIM;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) out[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

// --check's input: a small integer hash, as floats in [-1, 1) that are multiples of 1/512.
static unsigned hash32(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

// Launch KERNEL on the post's grid; with --check, compare the output with the
// input (transposed if TRANSPOSED) and clear it for the next kernel.
#define LAUNCH(KERNEL, TRANSPOSED)                                                                 \
    do {                                                                                           \
        hipLaunchKernelGGL(KERNEL, grid, block, 0, 0, out, in);                                    \
        CHECK(hipGetLastError());                                                                  \
        if (check) {                                                                               \
            CHECK(hipMemcpy(got, out, bytes, hipMemcpyDeviceToHost));                              \
            double err = 0.0;                                                                      \
            for (int r = 0; r < n; r++)                                                            \
                for (int c = 0; c < n; c++) {                                                      \
                    const float want = (TRANSPOSED) ? host[c * n + r] : host[r * n + c];           \
                    double d = (double)got[r * n + c] - want;                                      \
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
            fprintf(stderr, "usage: harris_transpose [--small] [--check]\n");
            return 2;
        }
    }
    const int n = small ? SMALL_N : N;
    const size_t bytes = (size_t)n * n * sizeof(float);
    float *in = nullptr, *out = nullptr;
    CHECK(hipMalloc(&in, bytes));
    CHECK(hipMalloc(&out, bytes));
    CHECK(hipMemset(in, 0, bytes));
    CHECK(hipMemset(out, 0, bytes));
    // --check: the matrix from the hash; a copy or a transpose must reproduce it exactly.
    float *host = nullptr, *got = nullptr;
    int failed = 0;
    if (check) {
        host = (float *)malloc(bytes);
        got = (float *)malloc(bytes);
        if (!host || !got) {
            fprintf(stderr, "harris_transpose: out of host memory\n");
            return 1;
        }
        for (int i = 0; i < n * n; i++) host[i] = ((int)(hash32(i + 1U) & 1023U) - 512) / 512.0f;
        CHECK(hipMemcpy(in, host, bytes, hipMemcpyHostToDevice));
    }
    const dim3 grid(n / TILE_DIM, n / TILE_DIM), block(TILE_DIM, BLOCK_ROWS);
    LAUNCH(copy, 0);
    LAUNCH(copySharedMem, 0);
    LAUNCH(transposeNaive, 1);
    LAUNCH(transposeCoalesced, 1);
    LAUNCH(transposeNoBankConflicts, 1);
    CHECK(hipDeviceSynchronize());
    CHECK(hipFree(in));
    CHECK(hipFree(out));
    free(host);
    free(got);
    printf("harris_transpose: 5 kernels launched once each on %d x %d floats\n", n, n);
    return failed;
}
