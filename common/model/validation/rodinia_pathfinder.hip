// Rodinia 3.1 (CUDA), application pathfinder: dynproc_kernel, the dynamic-
// programming row sweep (the cheapest path from the top row of a grid of
// weights to each cell of the bottom row, one step down, down-left or
// down-right at a time), with the same pyramid ghost zones as hotspot: each
// block of 256 threads loads 256 columns of the current row, advances
// `iteration` rows in shared memory, the valid span shrinking by one column per
// side per row, and writes its inner 256 - 2 * iteration results. The host
// launches it once per pyramid_height rows, ping-ponging two result rows, with
// the original's cudaDeviceSynchronize after each launch.
//
// Source read: github.com/yuhc/gpu-rodinia (a mirror of Rodinia 3.1, University
// of Virginia; LICENSE: the suite's BSD-style licence), commit
// 9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4, files cuda/pathfinder/pathfinder.cu,
// cuda/pathfinder/run. Written here from that reading; no code copied.
//
// Kept: BLOCK_SIZE 256, HALO 1, int data, the two 256-int shared rows, the
// grid of ceil(cols / (256 - 2 * pyramid_height)) blocks, the clamped W/E
// neighbours, the weights read from global memory row by row inside the loop,
// the two barriers per row and the early break after the last.
//
// Changed: the original fills the grid with rand() % 10 after srand(9); here
// each weight is an integer hash of its index, % 10.
//
// Sizes: the run script's, 100,000 columns x 100 rows, pyramid height 20: 5
// launches (20, 20, 20, 20 and 19 rows) of 463 blocks of 256 threads. --small:
// 1,000 columns x 37 rows, pyramid height 8 (launches of 8, 8, 8, 8 and 4
// rows; 1,000 is not a multiple of 240).
#include <hip/hip_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE 256
#define HALO 1

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

#define WITHIN(v, lo, hi) ((v) >= (lo) && (v) <= (hi))
#define SMALLER(a, b) ((a) <= (b) ? (a) : (b))

__global__ void dynproc_kernel(int iteration, int *gpuWall, int *gpuSrc, int *gpuResults, int cols,
                               int rows, int startStep, int border) {
    __shared__ int cur[BLOCK_SIZE];  // the row being advanced
    __shared__ int next[BLOCK_SIZE]; // this row's results

    const int tx = threadIdx.x;
    const int inner = BLOCK_SIZE - iteration * HALO * 2;
    const int x0 = inner * blockIdx.x - border; // first column of the block's span
    const int x1 = x0 + BLOCK_SIZE - 1;
    const int col = x0 + tx;

    // the part of the span inside the grid; neighbours are clamped to it
    const int lo = (x0 < 0) ? -x0 : 0;
    const int hi = (x1 > cols - 1) ? BLOCK_SIZE - 1 - (x1 - cols + 1) : BLOCK_SIZE - 1;
    const int west = (tx - 1 < lo) ? lo : tx - 1;
    const int east = (tx + 1 > hi) ? hi : tx + 1;
    const bool inside = WITHIN(tx, lo, hi);

    if (WITHIN(col, 0, cols - 1)) cur[tx] = gpuSrc[col];
    __syncthreads();

    bool wrote = false;
    for (int r = 0; r < iteration; r++) {
        wrote = false;
        if (WITHIN(tx, r + 1, BLOCK_SIZE - r - 2) && inside) {
            wrote = true;
            const int a = cur[west];
            const int b = cur[tx];
            const int c = cur[east];
            int best = SMALLER(a, b);
            best = SMALLER(best, c);
            next[tx] = best + gpuWall[cols * (startStep + r) + col];
        }
        __syncthreads();
        if (r == iteration - 1) break;
        if (wrote) cur[tx] = next[tx];
        __syncthreads();
    }
    if (wrote) gpuResults[col] = next[tx];
    (void)rows;
}

static unsigned mix32(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

int main(int argc, char **argv) {
    bool small = false, check = false;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--small"))
            small = true;
        else if (!strcmp(argv[a], "--check"))
            check = true;
        else {
            fprintf(stderr, "usage: %s [--small] [--check]\n", argv[0]);
            return 2;
        }
    }
    const int cols = small ? 1000 : 100000;
    const int rows = small ? 37 : 100;
    const int pyramid_height = small ? 8 : 20;
    const int size = rows * cols;

    int *data = (int *)malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < size; i++) data[i] = (int)(mix32((unsigned)i) % 10u);

    const int border = pyramid_height * HALO;
    const int inner = BLOCK_SIZE - pyramid_height * HALO * 2;
    const int block_cols = (cols + inner - 1) / inner;

    int *gpuWall = nullptr, *gpuResult[2] = {nullptr, nullptr};
    HIP_CHECK(hipMalloc(&gpuResult[0], sizeof(int) * cols));
    HIP_CHECK(hipMalloc(&gpuResult[1], sizeof(int) * cols));
    HIP_CHECK(hipMemcpy(gpuResult[0], data, sizeof(int) * cols, hipMemcpyHostToDevice));
    HIP_CHECK(hipMalloc(&gpuWall, sizeof(int) * (size_t)(size - cols)));
    HIP_CHECK(hipMemcpy(gpuWall, data + cols, sizeof(int) * (size_t)(size - cols), hipMemcpyHostToDevice));

    int src = 1, dst = 0, launches = 0;
    for (int t = 0; t < rows - 1; t += pyramid_height) {
        const int swap = src;
        src = dst;
        dst = swap;
        const int steps = SMALLER(pyramid_height, rows - t - 1);
        dynproc_kernel<<<dim3(block_cols), dim3(BLOCK_SIZE)>>>(steps, gpuWall, gpuResult[src], gpuResult[dst],
                                                               cols, rows, t, border);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
        launches++;
    }
    int *got = (int *)malloc(sizeof(int) * cols);
    HIP_CHECK(hipMemcpy(got, gpuResult[dst], sizeof(int) * cols, hipMemcpyDeviceToHost));
    printf("rodinia_pathfinder: %d columns x %d rows, pyramid height %d: %d launches of %d blocks of %d\n",
           cols, rows, pyramid_height, launches, block_cols, BLOCK_SIZE);

    int failed = 0;
    if (check) {
        // row-by-row dynamic programming over the whole width
        int *a = (int *)malloc(sizeof(int) * cols), *b = (int *)malloc(sizeof(int) * cols);
        memcpy(a, data, sizeof(int) * cols);
        for (int r = 1; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                int best = a[c];
                if (c > 0 && a[c - 1] < best) best = a[c - 1];
                if (c < cols - 1 && a[c + 1] < best) best = a[c + 1];
                b[c] = best + data[r * cols + c];
            }
            int *sw = a;
            a = b;
            b = sw;
        }
        long long err = 0;
        for (int c = 0; c < cols; c++) {
            const long long d = llabs((long long)got[c] - a[c]);
            if (d > err) err = d;
        }
        printf("check dynproc_kernel: max error %lld (%s)\n", err, err ? "FAILED" : "ok");
        failed = err != 0;
        free(a);
        free(b);
    }

    HIP_CHECK(hipFree(gpuWall));
    HIP_CHECK(hipFree(gpuResult[0]));
    HIP_CHECK(hipFree(gpuResult[1]));
    free(data);
    free(got);
    return failed ? 1 : 0;
}
