// Rodinia 3.1 (CUDA), application nw (Needleman-Wunsch global alignment): its
// two kernels, needle_cuda_shared_1 (the anti-diagonals of 16 x 16 tiles in the
// upper-left triangle of the score matrix) and needle_cuda_shared_2 (those of
// the lower-right triangle). A block of 16 threads scores one tile: it loads
// the tile's 16 x 16 reference scores and its north row and west column into
// shared memory, sweeps the tile's 31 inner anti-diagonals (a barrier after
// each), and writes the tile back. The host launches shared_1 for tile
// diagonals 1 .. W (grid of i blocks) and shared_2 for W-1 .. 1, as needle.cu
// does, W = N / 16.
//
// Source read: github.com/yuhc/gpu-rodinia (a mirror of Rodinia 3.1, University
// of Virginia; LICENSE: the suite's BSD-style licence), commit
// 9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4, files cuda/nw/needle.cu,
// cuda/nw/needle.h, cuda/nw/needle_kernel.cu, cuda/nw/run. Written here from
// that reading; no code copied.
//
// Kept: BLOCK_SIZE 16, int scores, the shared tiles temp[17][17] and
// ref[16][16], the load order and barriers of each kernel (shared_1 loads the
// north-west corner before the reference tile, shared_2 after it), the
// three-way maximum written as the original's two comparisons, the (N+1) x
// (N+1) matrix with its first row and column set to -i * penalty, the BLOSUM62
// substitution matrix (a public table) indexing the reference scores.
//
// Changed: the original draws the two sequences with rand() % 10 + 1 after
// srand(7); here each residue is an integer hash % 10 + 1.
//
// Sizes: the run script's, sequences of 2,048 and penalty 10: W = 128 tile
// diagonals, 128 launches of shared_1 (1 .. 128 blocks) and 127 of shared_2
// (127 .. 1 blocks), 16 threads each. --small: 160 (W = 10; the original only
// accepts multiples of 16).
#include <hip/hip_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE 16

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

// BLOSUM62, 24 x 24 (amino acids in the order A R N D C Q E G H I L K M F P S T W Y V B Z X *)
static const int blosum62[24][24] = {
    {4, -1, -2, -2, 0, -1, -1, 0, -2, -1, -1, -1, -1, -2, -1, 1, 0, -3, -2, 0, -2, -1, 0, -4},
    {-1, 5, 0, -2, -3, 1, 0, -2, 0, -3, -2, 2, -1, -3, -2, -1, -1, -3, -2, -3, -1, 0, -1, -4},
    {-2, 0, 6, 1, -3, 0, 0, 0, 1, -3, -3, 0, -2, -3, -2, 1, 0, -4, -2, -3, 3, 0, -1, -4},
    {-2, -2, 1, 6, -3, 0, 2, -1, -1, -3, -4, -1, -3, -3, -1, 0, -1, -4, -3, -3, 4, 1, -1, -4},
    {0, -3, -3, -3, 9, -3, -4, -3, -3, -1, -1, -3, -1, -2, -3, -1, -1, -2, -2, -1, -3, -3, -2, -4},
    {-1, 1, 0, 0, -3, 5, 2, -2, 0, -3, -2, 1, 0, -3, -1, 0, -1, -2, -1, -2, 0, 3, -1, -4},
    {-1, 0, 0, 2, -4, 2, 5, -2, 0, -3, -3, 1, -2, -3, -1, 0, -1, -3, -2, -2, 1, 4, -1, -4},
    {0, -2, 0, -1, -3, -2, -2, 6, -2, -4, -4, -2, -3, -3, -2, 0, -2, -2, -3, -3, -1, -2, -1, -4},
    {-2, 0, 1, -1, -3, 0, 0, -2, 8, -3, -3, -1, -2, -1, -2, -1, -2, -2, 2, -3, 0, 0, -1, -4},
    {-1, -3, -3, -3, -1, -3, -3, -4, -3, 4, 2, -3, 1, 0, -3, -2, -1, -3, -1, 3, -3, -3, -1, -4},
    {-1, -2, -3, -4, -1, -2, -3, -4, -3, 2, 4, -2, 2, 0, -3, -2, -1, -2, -1, 1, -4, -3, -1, -4},
    {-1, 2, 0, -1, -3, 1, 1, -2, -1, -3, -2, 5, -1, -3, -1, 0, -1, -3, -2, -2, 0, 1, -1, -4},
    {-1, -1, -2, -3, -1, 0, -2, -3, -2, 1, 2, -1, 5, 0, -2, -1, -1, -1, -1, 1, -3, -1, -1, -4},
    {-2, -3, -3, -3, -2, -3, -3, -3, -1, 0, 0, -3, 0, 6, -4, -2, -2, 1, 3, -1, -3, -3, -1, -4},
    {-1, -2, -2, -1, -3, -1, -1, -2, -2, -3, -3, -1, -2, -4, 7, -1, -1, -4, -3, -2, -2, -1, -2, -4},
    {1, -1, 1, 0, -1, 0, 0, 0, -1, -2, -2, 0, -1, -2, -1, 4, 1, -3, -2, -2, 0, 0, 0, -4},
    {0, -1, 0, -1, -1, -1, -1, -2, -2, -1, -1, -1, -1, -2, -1, 1, 5, -2, -2, 0, -1, -1, 0, -4},
    {-3, -3, -4, -4, -2, -2, -3, -2, -2, -3, -2, -3, -1, 1, -4, -3, -2, 11, 2, -3, -4, -3, -2, -4},
    {-2, -2, -2, -3, -2, -1, -2, -3, 2, -1, -1, -2, -1, 3, -3, -2, -2, 2, 7, -1, -3, -2, -1, -4},
    {0, -3, -3, -3, -1, -2, -2, -3, -3, 3, 1, -2, 1, -1, -2, -2, 0, -3, -1, 4, -3, -2, -1, -4},
    {-2, -1, 3, 4, -3, 0, 1, -1, 0, -3, -4, 0, -3, -3, -2, 0, -1, -4, -3, -3, 4, 1, -1, -4},
    {-1, 0, 0, 1, -3, 3, 4, -2, 0, -3, -3, 1, -1, -3, -1, 0, -1, -3, -2, -2, 1, 4, -1, -4},
    {0, -1, -1, -1, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -2, 0, 0, -2, -1, -1, -1, -1, -1, -4},
    {-4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, 1}};

// the larger of three, as two comparisons (ties keep the later argument)
__host__ __device__ int maximum(int a, int b, int c) {
    const int ab = (a <= b) ? b : a;
    return (ab <= c) ? c : ab;
}

__global__ void needle_cuda_shared_1(int *referrence, int *matrix_cuda, int cols, int penalty, int i,
                                     int block_width) {
    const int bx = blockIdx.x, tx = threadIdx.x;
    const int tile_x = bx, tile_y = i - 1 - bx; // tile on anti-diagonal i - 1
    const int corner = cols * BLOCK_SIZE * tile_y + BLOCK_SIZE * tile_x; // its north-west neighbour
    const int cell = corner + tx + cols + 1;   // column tx of the tile's first row
    const int north = corner + tx + 1;         // the row above the tile
    const int west = corner + cols;            // the column left of the tile

    __shared__ int score[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
    __shared__ int subst[BLOCK_SIZE][BLOCK_SIZE];

    if (tx == 0) score[0][0] = matrix_cuda[corner];
    for (int r = 0; r < BLOCK_SIZE; r++) subst[r][tx] = referrence[cell + cols * r];
    __syncthreads();
    score[tx + 1][0] = matrix_cuda[west + cols * tx];
    __syncthreads();
    score[0][tx + 1] = matrix_cuda[north];
    __syncthreads();

    // the upper-left half of the tile's anti-diagonals: thread tx takes column tx + 1
    for (int d = 0; d < BLOCK_SIZE; d++) {
        if (tx <= d) {
            const int x = tx + 1, y = d - tx + 1;
            score[y][x] = maximum(score[y - 1][x - 1] + subst[y - 1][x - 1], score[y][x - 1] - penalty,
                                  score[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    // the lower-right half: thread tx takes row 16 - tx
    for (int d = BLOCK_SIZE - 2; d >= 0; d--) {
        if (tx <= d) {
            const int x = tx + BLOCK_SIZE - d, y = BLOCK_SIZE - tx;
            score[y][x] = maximum(score[y - 1][x - 1] + subst[y - 1][x - 1], score[y][x - 1] - penalty,
                                  score[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    for (int r = 0; r < BLOCK_SIZE; r++) matrix_cuda[cell + r * cols] = score[r + 1][tx + 1];
    (void)block_width;
}

__global__ void needle_cuda_shared_2(int *referrence, int *matrix_cuda, int cols, int penalty, int i,
                                     int block_width) {
    const int bx = blockIdx.x, tx = threadIdx.x;
    const int tile_x = bx + block_width - i, tile_y = block_width - bx - 1;
    const int corner = cols * BLOCK_SIZE * tile_y + BLOCK_SIZE * tile_x;
    const int cell = corner + tx + cols + 1;
    const int north = corner + tx + 1;
    const int west = corner + cols;

    __shared__ int score[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
    __shared__ int subst[BLOCK_SIZE][BLOCK_SIZE];

    for (int r = 0; r < BLOCK_SIZE; r++) subst[r][tx] = referrence[cell + cols * r];
    __syncthreads();
    if (tx == 0) score[0][0] = matrix_cuda[corner];
    score[tx + 1][0] = matrix_cuda[west + cols * tx];
    __syncthreads();
    score[0][tx + 1] = matrix_cuda[north];
    __syncthreads();

    for (int d = 0; d < BLOCK_SIZE; d++) {
        if (tx <= d) {
            const int x = tx + 1, y = d - tx + 1;
            score[y][x] = maximum(score[y - 1][x - 1] + subst[y - 1][x - 1], score[y][x - 1] - penalty,
                                  score[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    for (int d = BLOCK_SIZE - 2; d >= 0; d--) {
        if (tx <= d) {
            const int x = tx + BLOCK_SIZE - d, y = BLOCK_SIZE - tx;
            score[y][x] = maximum(score[y - 1][x - 1] + subst[y - 1][x - 1], score[y][x - 1] - penalty,
                                  score[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    for (int r = 0; r < BLOCK_SIZE; r++) matrix_cuda[cell + r * cols] = score[r + 1][tx + 1];
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
    const int length = small ? 160 : 2048;
    const int penalty = 10;
    const int max_rows = length + 1, max_cols = length + 1;
    const int size = max_rows * max_cols;

    int *reference = (int *)calloc(size, sizeof(int));
    int *items = (int *)calloc(size, sizeof(int));
    // the two sequences (residues 1..10) sit in column 0 and row 0 at first
    for (int r = 1; r < max_rows; r++) items[r * max_cols] = (int)(mix32(2u * r) % 10u) + 1;
    for (int c = 1; c < max_cols; c++) items[c] = (int)(mix32(2u * c + 1u) % 10u) + 1;
    for (int r = 1; r < max_cols; r++)
        for (int c = 1; c < max_rows; c++)
            reference[r * max_cols + c] = blosum62[items[r * max_cols]][items[c]];
    // then the first row and column become the gap scores
    for (int r = 1; r < max_rows; r++) items[r * max_cols] = -r * penalty;
    for (int c = 1; c < max_cols; c++) items[c] = -c * penalty;

    int *referrence_cuda = nullptr, *matrix_cuda = nullptr;
    HIP_CHECK(hipMalloc(&referrence_cuda, sizeof(int) * size));
    HIP_CHECK(hipMalloc(&matrix_cuda, sizeof(int) * size));
    HIP_CHECK(hipMemcpy(referrence_cuda, reference, sizeof(int) * size, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(matrix_cuda, items, sizeof(int) * size, hipMemcpyHostToDevice));

    const int block_width = (max_cols - 1) / BLOCK_SIZE;
    const dim3 block(BLOCK_SIZE, 1);
    for (int i = 1; i <= block_width; i++) {
        needle_cuda_shared_1<<<dim3(i, 1), block>>>(referrence_cuda, matrix_cuda, max_cols, penalty, i,
                                                    block_width);
        HIP_CHECK(hipGetLastError());
    }
    for (int i = block_width - 1; i >= 1; i--) {
        needle_cuda_shared_2<<<dim3(i, 1), block>>>(referrence_cuda, matrix_cuda, max_cols, penalty, i,
                                                    block_width);
        HIP_CHECK(hipGetLastError());
    }
    int *got = (int *)malloc(sizeof(int) * size);
    HIP_CHECK(hipMemcpy(got, matrix_cuda, sizeof(int) * size, hipMemcpyDeviceToHost));
    printf("rodinia_nw: sequences of %d, penalty %d: %d launches of needle_cuda_shared_1, %d of "
           "needle_cuda_shared_2, blocks of %d\n",
           length, penalty, block_width, block_width - 1, BLOCK_SIZE);

    int failed = 0;
    if (check) {
        // the whole matrix cell by cell; shared_1 wrote the tiles above the main
        // tile anti-diagonal (tile_x + tile_y < W), shared_2 the rest
        int *ref = (int *)malloc(sizeof(int) * size);
        memcpy(ref, items, sizeof(int) * size);
        for (int r = 1; r < max_rows; r++)
            for (int c = 1; c < max_cols; c++)
                ref[r * max_cols + c] = maximum(ref[(r - 1) * max_cols + c - 1] + reference[r * max_cols + c],
                                                ref[r * max_cols + c - 1] - penalty,
                                                ref[(r - 1) * max_cols + c] - penalty);
        long long err1 = 0, err2 = 0;
        for (int r = 1; r < max_rows; r++)
            for (int c = 1; c < max_cols; c++) {
                const long long d = llabs((long long)got[r * max_cols + c] - ref[r * max_cols + c]);
                const bool first = (r - 1) / BLOCK_SIZE + (c - 1) / BLOCK_SIZE < block_width;
                long long &e = first ? err1 : err2;
                if (d > e) e = d;
            }
        printf("check needle_cuda_shared_1: max error %lld (%s)\n", err1, err1 ? "FAILED" : "ok");
        printf("check needle_cuda_shared_2: max error %lld (%s)\n", err2, err2 ? "FAILED" : "ok");
        failed = err1 != 0 || err2 != 0;
        free(ref);
    }

    HIP_CHECK(hipFree(referrence_cuda));
    HIP_CHECK(hipFree(matrix_cuda));
    free(reference);
    free(items);
    free(got);
    return failed ? 1 : 0;
}
