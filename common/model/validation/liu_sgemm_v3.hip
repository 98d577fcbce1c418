// Validation programs for the time model, project "liu": the sgemm kernel of
// Xiandong Liu's "How to optimize in GPU"
// (github.com/Liu-xiandong/How_to_optimize_in_GPU, Apache-2.0, read at commit
// 5d2def3e082c4e1364c3ade54451b7b9d1d6f044: sgemm/sgemm_v3.cu; its figure is
// figure/sgemm.png, referred to in README.md, section "4. sgemm"), the final
// CUDA C version (sgemm_v1 is liu_sgemm_v1.hip: both files call their kernel
// Sgemm, with the same template arguments).
//
// Written here from that file (nothing copied): C = A B, all row-major floats,
// A M x K, B K x N. Sgemm<128, 8, 128, 8, 8, false>: a block of 16 x 16 threads
// computes a 128 x 128 tile of C over K in steps of 8, as sgemm_v1 does
// (double-buffered shared As[2][8][128], A's tile transposed, and Bs[2][8][128];
// one float4 of A and one of B per thread per step staged in registers; one
// barrier per step; fragments frag_a[2][8] and frag_b[2][8] double-buffered in
// registers), but each thread's 8 x 8 of C is four 4 x 4 pieces 64 rows and
// 64 columns apart, placed by the thread's warp and lane: with warp = tid / 32
// and lane = tid % 32, rows from (warp / 2) * 16 + (lane / 8) * 4 and columns
// from (warp % 2) * 32 + (lane % 8) * 4. Each k reads two float4s of As (at the
// row offset and 64 further) and two of Bs; C is written as four 4 x 4 pieces,
// a float4 a row. A grid of N / 128 x M / 128 blocks; ENABLE_DOUBLE_BUFFER is
// unused, as in the original.
// The validation size is M = N = K = 1024 (8 x 8 blocks), the smallest size in
// the project's figure of this kernel (V100); its main() takes M, K, N on its
// command line.
//
// Wave size: 32 (the thread-to-tile mapping is built from warps of 32,
// tid / 32 and tid % 32, for the shared-memory access pattern within a warp;
// the results do not depend on the wave size).
//
// Differences: launched once (the original 1000 times, then cuBLAS, left out).
// Inputs are hashed multiples of 1/16 in [-1, 1] (the original: A[i] = i / 13,
// B[i] = i % 13). --small: M = 256, N = 384, K = 200 (2 x 3 blocks, 25 steps);
// the kernel needs M and N multiples of 128 and K of 8, as in the original
// (its main() asserts multiples of 8 and launches N / 128 x M / 128 blocks).
#include <hip/hip_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

#define OFFSET(row, col, ld) ((row) * (ld) + (col))
#define AS_FLOAT4(lvalue) (reinterpret_cast<float4 *>(&(lvalue))[0])

template <const int BLOCK_SIZE_M, const int BLOCK_SIZE_K, const int BLOCK_SIZE_N, const int THREAD_SIZE_Y,
          const int THREAD_SIZE_X, const bool ENABLE_DOUBLE_BUFFER>
__global__ void Sgemm(float *__restrict__ A, float *__restrict__ B, float *__restrict__ C, const int M, const int N,
                      const int K) {
    (void)M; // unused, as in the original
    const int bx = blockIdx.x, by = blockIdx.y;
    const int tx = threadIdx.x, ty = threadIdx.y;

    const int THREADS_X = BLOCK_SIZE_N / THREAD_SIZE_X;
    const int THREADS_Y = BLOCK_SIZE_M / THREAD_SIZE_Y;
    const int THREADS = THREADS_X * THREADS_Y;
    const int tid = ty * THREADS_X + tx;

    __shared__ float As[2][BLOCK_SIZE_K][BLOCK_SIZE_M];
    __shared__ float Bs[2][BLOCK_SIZE_K][BLOCK_SIZE_N];
    float accum[THREAD_SIZE_Y][THREAD_SIZE_X];
#pragma unroll
    for (int y = 0; y < THREAD_SIZE_Y; y++)
#pragma unroll
        for (int x = 0; x < THREAD_SIZE_X; x++) accum[y][x] = 0.0;
    float frag_a[2][THREAD_SIZE_Y];
    float frag_b[2][THREAD_SIZE_X];
    // registers that carry the next step's tiles from global to shared memory
    const int a_loads = BLOCK_SIZE_M * BLOCK_SIZE_K / (THREADS * 4);
    const int b_loads = BLOCK_SIZE_K * BLOCK_SIZE_N / (THREADS * 4);
    float a_stage[4 * a_loads];
    float b_stage[4 * b_loads];

    // which float4 of each tile this thread moves
    const int A_PER_ROW = BLOCK_SIZE_K / 4, B_PER_ROW = BLOCK_SIZE_N / 4;
    const int a_row = tid / A_PER_ROW, b_row = tid / B_PER_ROW;
    const int a_col = tid % A_PER_ROW * 4, b_col = tid % B_PER_ROW * 4;
    const int a_row_step = THREADS / A_PER_ROW, b_row_step = THREADS / B_PER_ROW;

    A = &A[(BLOCK_SIZE_M * by) * K];
    B = &B[BLOCK_SIZE_N * bx];

    // where this thread's pieces of the tile lie, by warp and lane
    const int warp_id = tid / 32;
    const int lane_id = tid % 32;
    const int a_frag_at = warp_id / 2 * 16 + lane_id / 8 * 4;
    const int b_frag_at = warp_id % 2 * 32 + lane_id % 8 * 4;

    // the first step's tiles, straight to buffer 0 (A transposed through registers)
#pragma unroll
    for (int r = 0; r < BLOCK_SIZE_M; r += a_row_step) {
        const int s = r / a_row_step * 4;
        AS_FLOAT4(a_stage[s]) = AS_FLOAT4(A[OFFSET(a_row + r, a_col, K)]);
        As[0][a_col][a_row + r] = a_stage[s];
        As[0][a_col + 1][a_row + r] = a_stage[s + 1];
        As[0][a_col + 2][a_row + r] = a_stage[s + 2];
        As[0][a_col + 3][a_row + r] = a_stage[s + 3];
    }
#pragma unroll
    for (int r = 0; r < BLOCK_SIZE_K; r += b_row_step)
        AS_FLOAT4(Bs[0][b_row + r][b_col]) = AS_FLOAT4(B[OFFSET(b_row + r, b_col, N)]);
    __syncthreads();
    // k = 0 of the first step into fragment 0
    AS_FLOAT4(frag_a[0][0]) = AS_FLOAT4(As[0][0][a_frag_at]);
    AS_FLOAT4(frag_a[0][4]) = AS_FLOAT4(As[0][0][a_frag_at + 64]);
    AS_FLOAT4(frag_b[0][0]) = AS_FLOAT4(Bs[0][0][b_frag_at]);
    AS_FLOAT4(frag_b[0][4]) = AS_FLOAT4(Bs[0][0][b_frag_at + 64]);

    int write_stage = 1;
    int k0 = 0;
    do {
        k0 += BLOCK_SIZE_K;
        // the next step's tiles into registers
        if (k0 < K) {
#pragma unroll
            for (int r = 0; r < BLOCK_SIZE_M; r += a_row_step) {
                const int s = r / a_row_step * 4;
                AS_FLOAT4(a_stage[s]) = AS_FLOAT4(A[OFFSET(a_row + r, a_col + k0, K)]);
            }
#pragma unroll
            for (int r = 0; r < BLOCK_SIZE_K; r += b_row_step) {
                const int s = r / b_row_step * 4;
                AS_FLOAT4(b_stage[s]) = AS_FLOAT4(B[OFFSET(k0 + b_row + r, b_col, N)]);
            }
        }

        const int read_stage = write_stage ^ 1;

        // k = 0 .. BLOCK_SIZE_K - 2: fetch k + 1's fragments, multiply k's
#pragma unroll
        for (int k = 0; k < BLOCK_SIZE_K - 1; ++k) {
            AS_FLOAT4(frag_a[(k + 1) % 2][0]) = AS_FLOAT4(As[read_stage][k + 1][a_frag_at]);
            AS_FLOAT4(frag_a[(k + 1) % 2][4]) = AS_FLOAT4(As[read_stage][k + 1][a_frag_at + 64]);
            AS_FLOAT4(frag_b[(k + 1) % 2][0]) = AS_FLOAT4(Bs[read_stage][k + 1][b_frag_at]);
            AS_FLOAT4(frag_b[(k + 1) % 2][4]) = AS_FLOAT4(Bs[read_stage][k + 1][b_frag_at + 64]);
#pragma unroll
            for (int y = 0; y < THREAD_SIZE_Y; ++y)
#pragma unroll
                for (int x = 0; x < THREAD_SIZE_X; ++x) accum[y][x] += frag_a[k % 2][y] * frag_b[k % 2][x];
        }

        // the registers to the other buffer, then one barrier
        if (k0 < K) {
#pragma unroll
            for (int r = 0; r < BLOCK_SIZE_M; r += a_row_step) {
                const int s = r / a_row_step * 4;
                As[write_stage][a_col][a_row + r] = a_stage[s];
                As[write_stage][a_col + 1][a_row + r] = a_stage[s + 1];
                As[write_stage][a_col + 2][a_row + r] = a_stage[s + 2];
                As[write_stage][a_col + 3][a_row + r] = a_stage[s + 3];
            }
#pragma unroll
            for (int r = 0; r < BLOCK_SIZE_K; r += b_row_step) {
                const int s = r / b_row_step * 4;
                AS_FLOAT4(Bs[write_stage][b_row + r][b_col]) = AS_FLOAT4(b_stage[s]);
            }
            __syncthreads();
            write_stage ^= 1;
        }

        // k = 0 of the next step into fragment 0; the last k of this one multiplied
        AS_FLOAT4(frag_a[0][0]) = AS_FLOAT4(As[read_stage ^ 1][0][a_frag_at]);
        AS_FLOAT4(frag_a[0][4]) = AS_FLOAT4(As[read_stage ^ 1][0][a_frag_at + 64]);
        AS_FLOAT4(frag_b[0][0]) = AS_FLOAT4(Bs[read_stage ^ 1][0][b_frag_at]);
        AS_FLOAT4(frag_b[0][4]) = AS_FLOAT4(Bs[read_stage ^ 1][0][b_frag_at + 64]);
#pragma unroll
        for (int y = 0; y < THREAD_SIZE_Y; ++y)
#pragma unroll
            for (int x = 0; x < THREAD_SIZE_X; ++x) accum[y][x] += frag_a[1][y] * frag_b[1][x];
    } while (k0 < K);

    // four 4 x 4 pieces: (rows, columns) at (0, 0), (0, 64), (64, 0), (64, 64)
    const int c_row = a_frag_at, c_col = b_frag_at;
    for (int i = 0; i < 4; i++)
        AS_FLOAT4(C[OFFSET(BLOCK_SIZE_M * by + c_row + i, BLOCK_SIZE_N * bx + c_col, N)]) = AS_FLOAT4(accum[i][0]);
    for (int i = 0; i < 4; i++)
        AS_FLOAT4(C[OFFSET(BLOCK_SIZE_M * by + c_row + i, BLOCK_SIZE_N * bx + c_col + 64, N)]) =
            AS_FLOAT4(accum[i][4]);
    for (int i = 0; i < 4; i++)
        AS_FLOAT4(C[OFFSET(BLOCK_SIZE_M * by + c_row + 64 + i, BLOCK_SIZE_N * bx + c_col, N)]) =
            AS_FLOAT4(accum[i + 4][0]);
    for (int i = 0; i < 4; i++)
        AS_FLOAT4(C[OFFSET(BLOCK_SIZE_M * by + c_row + 64 + i, BLOCK_SIZE_N * bx + c_col + 64, N)]) =
            AS_FLOAT4(accum[i + 4][4]);
}

static unsigned hash32(unsigned v) {
    v ^= v >> 16;
    v *= 0x7feb352du;
    v ^= v >> 15;
    v *= 0x846ca68bu;
    v ^= v >> 16;
    return v;
}

int main(int argc, char **argv) {
    int small = 0, check = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--small")) small = 1;
        else if (!strcmp(argv[i], "--check")) check = 1;
        else {
            fprintf(stderr, "usage: %s [--small] [--check]\n", argv[0]);
            return 2;
        }
    }
    const int M = small ? 256 : 1024, N = small ? 384 : 1024, K = small ? 200 : 1024;
    const int BLOCK_SIZE_M = 128, BLOCK_SIZE_K = 8, BLOCK_SIZE_N = 128, THREAD_SIZE_X = 8, THREAD_SIZE_Y = 8;
    const bool ENABLE_DOUBLE_BUFFER = false;
    const size_t a_count = (size_t)M * K, b_count = (size_t)K * N, c_count = (size_t)M * N;

    float *h_A = (float *)malloc(a_count * sizeof(float)), *h_B = (float *)malloc(b_count * sizeof(float));
    float *h_C = (float *)malloc(c_count * sizeof(float));
    if (!h_A || !h_B || !h_C) {
        fprintf(stderr, "%s:%d: malloc failed\n", __FILE__, __LINE__);
        return 1;
    }
    for (size_t i = 0; i < a_count; i++) h_A[i] = (float)((int)(hash32((unsigned)i) % 33u) - 16) / 16.0f;
    for (size_t i = 0; i < b_count; i++) h_B[i] = (float)((int)(hash32((unsigned)i ^ 0xb5297a4du) % 33u) - 16) / 16.0f;

    float *d_A = nullptr, *d_B = nullptr, *d_C = nullptr;
    HIP_CHECK(hipMalloc(&d_A, a_count * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_B, b_count * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_C, c_count * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_A, h_A, a_count * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_B, h_B, b_count * sizeof(float), hipMemcpyHostToDevice));

    const dim3 block(BLOCK_SIZE_N / THREAD_SIZE_X, BLOCK_SIZE_M / THREAD_SIZE_Y);
    const dim3 grid(N / BLOCK_SIZE_N, M / BLOCK_SIZE_M);
    Sgemm<BLOCK_SIZE_M, BLOCK_SIZE_K, BLOCK_SIZE_N, THREAD_SIZE_Y, THREAD_SIZE_X, ENABLE_DOUBLE_BUFFER>
        <<<grid, block>>>(d_A, d_B, d_C, M, N, K);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    int good = 1;
    if (check) {
        HIP_CHECK(hipMemcpy(h_C, d_C, c_count * sizeof(float), hipMemcpyDeviceToHost));
        // error relative to sum |a b| over k, per element; a row of C at a time
        double worst = 0.0;
        double *ref = (double *)calloc((size_t)N, sizeof(double)), *mag = (double *)calloc((size_t)N, sizeof(double));
        if (!ref || !mag) {
            fprintf(stderr, "%s:%d: calloc failed\n", __FILE__, __LINE__);
            return 1;
        }
        for (int r = 0; r < M; r++) {
            for (int c = 0; c < N; c++) ref[c] = mag[c] = 0.0;
            for (int k = 0; k < K; k++) {
                const double a = h_A[(size_t)r * K + k];
                const float *b_row = &h_B[(size_t)k * N];
                for (int c = 0; c < N; c++) {
                    ref[c] += a * b_row[c];
                    mag[c] += fabs(a * b_row[c]);
                }
            }
            for (int c = 0; c < N; c++) {
                const double err = fabs((double)h_C[(size_t)r * N + c] - ref[c]) / fmax(mag[c], 1e-30);
                if (!(err <= worst)) worst = err;
            }
        }
        free(ref);
        free(mag);
        good = worst <= 1e-5;
        printf("check Sgemm<128, 8, 128, 8, 8, false>: max error %g (%s)\n", worst, good ? "ok" : "FAILED");
    }

    HIP_CHECK(hipFree(d_A));
    HIP_CHECK(hipFree(d_B));
    HIP_CHECK(hipFree(d_C));
    free(h_A);
    free(h_B);
    free(h_C);
    printf("liu_sgemm_v3: Sgemm (sgemm_v3) launched once, M = %d, N = %d, K = %d\n", M, N, K);
    return check && !good ? 1 : 0;
}
