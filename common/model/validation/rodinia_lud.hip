// Rodinia 3.1 (CUDA), application lud: blocked right-looking LU decomposition
// (no pivoting, in place, L unit-lower) in 16 x 16 tiles, its three kernels:
// lud_diagonal (one block of 16 threads factors the diagonal tile in shared
// memory), lud_perimeter (one block of 32 threads per tile of the current
// block row and column: threads 0-15 solve the row tile with L of the
// diagonal, threads 16-31 the column tile with U) and lud_internal (one 16 x 16
// block per trailing tile: the tile minus the product of its row and column
// perimeter tiles, from shared memory). The host loop of lud_kernel.cu:
// diagonal, perimeter, internal for each tile step but the last, then a last
// diagonal.
//
// Source read: github.com/yuhc/gpu-rodinia (a mirror of Rodinia 3.1, University
// of Virginia; LICENSE: the suite's BSD-style licence), commit
// 9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4, files cuda/lud/cuda/lud.cu,
// cuda/lud/cuda/lud_kernel.cu, cuda/lud/common/common.c, cuda/lud/run.
// Written here from that reading; no code copied.
//
// Kept: BLOCK_SIZE 16; lud_diagonal's shadow[16][16] with two barriers per
// step and its write-back of rows 1-15 only; lud_perimeter's dia, peri_row and
// peri_col tiles, the split of the diagonal tile's load between the two
// thread halves (rows 0-7 and 8-15), its per-thread serial triangular solves
// and two barriers; lud_internal's two shared tiles and 16-term dot product
// per thread; the grids ((N-i)/16 - 1 blocks, and its square for internal);
// and the matrix the suite builds for "-s N": m[i][j] = 10 exp(-0.001 |i - j|)
// (create_matrix in common.c; no random numbers).
//
// Sizes: the run script uses -s 256 (the OpenMP one names a 512.dat). The
// validation size is N = 1024: 63 steps of diagonal, perimeter (63
// .. 1 blocks of 32) and internal (63^2 .. 1 blocks of 16 x 16), then a last
// diagonal, 64 launches of lud_diagonal in all, the largest power of two
// that keeps the trace near 30 s. --small: N = 80 (the original needs
// multiples of 16; 4 tile steps, then the last diagonal).
#include <hip/hip_runtime.h>

#include <math.h>
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

__global__ void lud_diagonal(float *m, int matrix_dim, int offset) {
    __shared__ float tile[BLOCK_SIZE][BLOCK_SIZE];
    const int c = threadIdx.x;

    int at = offset * matrix_dim + offset;
    for (int r = 0; r < BLOCK_SIZE; r++) {
        tile[r][c] = m[at + c];
        at += matrix_dim;
    }
    __syncthreads();
    for (int k = 0; k < BLOCK_SIZE - 1; k++) {
        if (c > k) { // L: column k, row c
            for (int j = 0; j < k; j++) tile[c][k] -= tile[c][j] * tile[j][k];
            tile[c][k] /= tile[k][k];
        }
        __syncthreads();
        if (c > k) { // U: row k + 1, column c
            for (int j = 0; j < k + 1; j++) tile[k + 1][c] -= tile[k + 1][j] * tile[j][c];
        }
        __syncthreads();
    }
    // row 0 is unchanged: rows 1-15 go back
    at = (offset + 1) * matrix_dim + offset;
    for (int r = 1; r < BLOCK_SIZE; r++) {
        m[at + c] = tile[r][c];
        at += matrix_dim;
    }
}

__global__ void lud_perimeter(float *m, int matrix_dim, int offset) {
    __shared__ float dia[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float peri_row[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float peri_col[BLOCK_SIZE][BLOCK_SIZE];

    int at, c;
    const int tile_off = (blockIdx.x + 1) * BLOCK_SIZE; // this block's tile, past the diagonal

    if (threadIdx.x < BLOCK_SIZE) { // first half: diagonal rows 0-7 and the row tile
        c = threadIdx.x;
        at = offset * matrix_dim + offset;
        for (int r = 0; r < BLOCK_SIZE / 2; r++) {
            dia[r][c] = m[at + c];
            at += matrix_dim;
        }
        at = offset * matrix_dim + offset;
        for (int r = 0; r < BLOCK_SIZE; r++) {
            peri_row[r][c] = m[at + tile_off + c];
            at += matrix_dim;
        }
    } else { // second half: diagonal rows 8-15 and the column tile
        c = threadIdx.x - BLOCK_SIZE;
        at = (offset + BLOCK_SIZE / 2) * matrix_dim + offset;
        for (int r = BLOCK_SIZE / 2; r < BLOCK_SIZE; r++) {
            dia[r][c] = m[at + c];
            at += matrix_dim;
        }
        at = (offset + tile_off) * matrix_dim + offset;
        for (int r = 0; r < BLOCK_SIZE; r++) {
            peri_col[r][c] = m[at + c];
            at += matrix_dim;
        }
    }
    __syncthreads();

    if (threadIdx.x < BLOCK_SIZE) { // column c of the row tile: forward substitution with unit L
        c = threadIdx.x;
        for (int r = 1; r < BLOCK_SIZE; r++)
            for (int j = 0; j < r; j++) peri_row[r][c] -= dia[r][j] * peri_row[j][c];
    } else { // row c of the column tile: solve against U
        c = threadIdx.x - BLOCK_SIZE;
        for (int k = 0; k < BLOCK_SIZE; k++) {
            for (int j = 0; j < k; j++) peri_col[c][k] -= peri_col[c][j] * dia[j][k];
            peri_col[c][k] /= dia[k][k];
        }
    }
    __syncthreads();

    if (threadIdx.x < BLOCK_SIZE) {
        c = threadIdx.x;
        at = (offset + 1) * matrix_dim + offset;
        for (int r = 1; r < BLOCK_SIZE; r++) {
            m[at + tile_off + c] = peri_row[r][c];
            at += matrix_dim;
        }
    } else {
        c = threadIdx.x - BLOCK_SIZE;
        at = (offset + tile_off) * matrix_dim + offset;
        for (int r = 0; r < BLOCK_SIZE; r++) {
            m[at + c] = peri_col[r][c];
            at += matrix_dim;
        }
    }
}

__global__ void lud_internal(float *m, int matrix_dim, int offset) {
    __shared__ float peri_row[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float peri_col[BLOCK_SIZE][BLOCK_SIZE];

    const int row0 = offset + (blockIdx.y + 1) * BLOCK_SIZE;
    const int col0 = offset + (blockIdx.x + 1) * BLOCK_SIZE;
    const int tx = threadIdx.x, ty = threadIdx.y;

    peri_row[ty][tx] = m[(offset + ty) * matrix_dim + col0 + tx];
    peri_col[ty][tx] = m[(row0 + ty) * matrix_dim + offset + tx];
    __syncthreads();

    float acc = 0;
    for (int k = 0; k < BLOCK_SIZE; k++) acc += peri_col[ty][k] * peri_row[k][tx];
    m[(row0 + ty) * matrix_dim + col0 + tx] -= acc;
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
    const int n = small ? 80 : 1024;
    const size_t nn = (size_t)n * n;

    // the suite's "-s" matrix: symmetric Toeplitz, 10 exp(-0.001 |i - j|)
    float *h = (float *)malloc(sizeof(float) * nn);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) h[(size_t)i * n + j] = (float)(10 * exp(-0.001f * abs(i - j)));

    float *d_m = nullptr;
    HIP_CHECK(hipMalloc(&d_m, sizeof(float) * nn));
    HIP_CHECK(hipMemcpy(d_m, h, sizeof(float) * nn, hipMemcpyHostToDevice));

    float *got = (float *)malloc(sizeof(float) * nn);
    const dim3 block(BLOCK_SIZE, BLOCK_SIZE);
    int i = 0, steps = 0;
    for (i = 0; i < n - BLOCK_SIZE; i += BLOCK_SIZE) {
        lud_diagonal<<<1, BLOCK_SIZE>>>(d_m, n, i);
        HIP_CHECK(hipGetLastError());
        lud_perimeter<<<(n - i) / BLOCK_SIZE - 1, BLOCK_SIZE * 2>>>(d_m, n, i);
        HIP_CHECK(hipGetLastError());
        const dim3 grid((n - i) / BLOCK_SIZE - 1, (n - i) / BLOCK_SIZE - 1);
        lud_internal<<<grid, block>>>(d_m, n, i);
        HIP_CHECK(hipGetLastError());
        steps++;
    }
    lud_diagonal<<<1, BLOCK_SIZE>>>(d_m, n, i);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(got, d_m, sizeof(float) * nn, hipMemcpyDeviceToHost));
    printf("rodinia_lud: %d x %d: %d steps of lud_diagonal, lud_perimeter, lud_internal, then lud_diagonal\n",
           n, n, steps);

    int failed = 0;
    if (check) {
        // Doolittle LU (no pivoting) in double; the blocked algorithm gives the
        // same factors. Each element's final value was written by one kernel:
        // the first row of tile row k (k >= 1), from the diagonal tile rightward,
        // by the lud_internal of step k - 1 (neither lud_diagonal nor
        // lud_perimeter writes a tile's row 0); the rest of the diagonal tiles
        // by lud_diagonal; the rest of the other tiles by lud_perimeter.
        double *r = (double *)malloc(sizeof(double) * nn);
        for (size_t k = 0; k < nn; k++) r[k] = h[k];
        for (int k = 0; k < n; k++) {
            for (int a = k + 1; a < n; a++) r[(size_t)a * n + k] /= r[(size_t)k * n + k];
            for (int a = k + 1; a < n; a++) {
                const double l = r[(size_t)a * n + k];
                for (int b = k + 1; b < n; b++) r[(size_t)a * n + b] -= l * r[(size_t)k * n + b];
            }
        }
        double scale = 0;
        for (size_t k = 0; k < nn; k++) scale = fmax(scale, fabs(r[k]));
        double err[3] = {0, 0, 0}; // diagonal, perimeter, internal
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) {
                const int ta = a / BLOCK_SIZE, tb = b / BLOCK_SIZE;
                int kind = (ta == tb) ? 0 : 1;
                if (a % BLOCK_SIZE == 0 && b >= a) {
                    if (a == 0) continue; // row 0 of the matrix: never written
                    kind = 2;
                }
                const double d = fabs(got[(size_t)a * n + b] - r[(size_t)a * n + b]) / scale;
                if (!(d <= err[kind])) err[kind] = d;
            }
        free(r);
        const double tol = 1e-4;
        printf("check lud_diagonal: max error %.3g (%s)\n", err[0], err[0] <= tol ? "ok" : "FAILED");
        printf("check lud_perimeter: max error %.3g (%s)\n", err[1], err[1] <= tol ? "ok" : "FAILED");
        printf("check lud_internal: max error %.3g (%s)\n", err[2], err[2] <= tol ? "ok" : "FAILED");
        failed = !(err[0] <= tol) || !(err[1] <= tol) || !(err[2] <= tol);
    }

    HIP_CHECK(hipFree(d_m));
    free(h);
    free(got);
    return failed ? 1 : 0;
}
