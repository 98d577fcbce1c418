// Rodinia 3.1 (CUDA), application gaussian: forward elimination of a dense
// system A x = b without pivoting, its two kernels: Fan1 (column t's
// multipliers m[i][t] = a[i][t] / a[t][t], one thread per row below t) and
// Fan2 (the rank-1 update of the rows below t, one thread per element, and of
// b by the threads of column 0). The host launches Fan1 then Fan2 for each t
// = 0 .. Size-2, synchronizing after each, as ForwardSub in gaussian.cu does;
// the back substitution stays on the host there and is left out here.
//
// Source read: github.com/yuhc/gpu-rodinia (a mirror of Rodinia 3.1, University
// of Virginia; LICENSE: the suite's BSD-style licence), commit
// 9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4, files cuda/gaussian/gaussian.cu,
// cuda/gaussian/run. Written here from that reading; no code copied.
//
// Kept: Fan1 in blocks of MAXBLOCKSIZE = 512 threads over ceil(Size / 512)
// blocks; Fan2 in blocks of BLOCK_SIZE_XY x BLOCK_SIZE_XY = 4 x 4 over a
// square grid of ceil(Size / 4) blocks per side (computed with the original's
// expression), Fan2's x index running over rows and y over columns, both
// kernels' early returns, and the matrix the suite builds for "-s Size":
// a[i][j] = 10 exp(-0.01 |i - j|), b = 1 (create_matrix in gaussian.cu; no
// random numbers), the multiplier matrix m starting at zero.
//
// Sizes: the run script uses -s 16 and a 4 x 4 file (the OpenCL Makefile
// names a matrix1024.txt). The validation size is
// Size = 256: 255 launches of each kernel (Fan1: 1 block of 512; Fan2: 64 x
// 64 blocks of 16), the largest power of two that keeps the trace well under
// 30 s (Fan2's threads grow as Size^3 over the loop). Each launch is small on
// an H200 at any size the executor can trace. --small: Size = 37 (not a
// multiple of 4 or 512; Fan2's grid 10 x 10, its last blocks partly idle).
#include <hip/hip_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXBLOCKSIZE 512
#define BLOCK_SIZE_XY 4

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

// multipliers of column t: row t + 1 + (global thread index)
__global__ void Fan1(float *m_cuda, float *a_cuda, int Size, int t) {
    if (threadIdx.x + blockIdx.x * blockDim.x >= (unsigned)(Size - 1 - t)) return;
    const int row = blockDim.x * blockIdx.x + threadIdx.x + t + 1;
    *(m_cuda + Size * row + t) = *(a_cuda + Size * row + t) / *(a_cuda + Size * t + t);
}

// a[t+1+x][t+y] -= m[t+1+x][t] * a[t][t+y]; the threads with y == 0 also update b
__global__ void Fan2(float *m_cuda, float *a_cuda, float *b_cuda, int Size, int j1, int t) {
    if (threadIdx.x + blockIdx.x * blockDim.x >= (unsigned)(Size - 1 - t)) return;
    if (threadIdx.y + blockIdx.y * blockDim.y >= (unsigned)(Size - t)) return;
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    a_cuda[Size * (x + 1 + t) + (y + t)] -= m_cuda[Size * (x + 1 + t) + t] * a_cuda[Size * t + (y + t)];
    if (y == 0) b_cuda[x + 1 + t] -= m_cuda[Size * (x + 1 + t) + (y + t)] * b_cuda[t];
    (void)j1;
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
    const int Size = small ? 37 : 256;
    const size_t nn = (size_t)Size * Size;

    // the suite's "-s" matrix: symmetric Toeplitz, 10 exp(-0.01 |i - j|); b = 1
    float *a = (float *)malloc(sizeof(float) * nn), *b = (float *)malloc(sizeof(float) * Size);
    float *m = (float *)calloc(nn, sizeof(float));
    for (int i = 0; i < Size; i++) {
        for (int j = 0; j < Size; j++) a[(size_t)i * Size + j] = (float)(10 * exp(-0.01f * abs(i - j)));
        b[i] = 1.0f;
    }

    float *m_cuda = nullptr, *a_cuda = nullptr, *b_cuda = nullptr;
    HIP_CHECK(hipMalloc(&m_cuda, sizeof(float) * nn));
    HIP_CHECK(hipMalloc(&a_cuda, sizeof(float) * nn));
    HIP_CHECK(hipMalloc(&b_cuda, sizeof(float) * Size));
    HIP_CHECK(hipMemcpy(m_cuda, m, sizeof(float) * nn, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(a_cuda, a, sizeof(float) * nn, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(b_cuda, b, sizeof(float) * Size, hipMemcpyHostToDevice));

    const int grid1 = Size / MAXBLOCKSIZE + (!(Size % MAXBLOCKSIZE) ? 0 : 1);
    const int grid2 = Size / BLOCK_SIZE_XY + (!(Size % BLOCK_SIZE_XY ? 0 : 1)); // as written in gaussian.cu
    const dim3 block1(MAXBLOCKSIZE), g1(grid1);
    const dim3 block2(BLOCK_SIZE_XY, BLOCK_SIZE_XY), g2(grid2, grid2);
    for (int t = 0; t < Size - 1; t++) {
        Fan1<<<g1, block1>>>(m_cuda, a_cuda, Size, t);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
        Fan2<<<g2, block2>>>(m_cuda, a_cuda, b_cuda, Size, Size - t, t);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
    }
    float *m_got = (float *)malloc(sizeof(float) * nn), *a_got = (float *)malloc(sizeof(float) * nn);
    float *b_got = (float *)malloc(sizeof(float) * Size);
    HIP_CHECK(hipMemcpy(m_got, m_cuda, sizeof(float) * nn, hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(a_got, a_cuda, sizeof(float) * nn, hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(b_got, b_cuda, sizeof(float) * Size, hipMemcpyDeviceToHost));
    printf("rodinia_gaussian: Size %d: %d launches each of Fan1 (%d block of %d) and Fan2 (%d x %d blocks of "
           "4 x 4)\n",
           Size, Size - 1, grid1, MAXBLOCKSIZE, grid2, grid2);

    int failed = 0;
    if (check) {
        // the same elimination on the host, in float and in the kernels' order
        // of operations; errors relative to each array's largest entry
        float *ra = (float *)malloc(sizeof(float) * nn), *rm = (float *)calloc(nn, sizeof(float));
        float *rb = (float *)malloc(sizeof(float) * Size);
        memcpy(ra, a, sizeof(float) * nn);
        memcpy(rb, b, sizeof(float) * Size);
        for (int t = 0; t < Size - 1; t++) {
            for (int i = t + 1; i < Size; i++)
                rm[(size_t)i * Size + t] = ra[(size_t)i * Size + t] / ra[(size_t)t * Size + t];
            for (int i = t + 1; i < Size; i++) {
                for (int j = t; j < Size; j++) {
                    const float prod = rm[(size_t)i * Size + t] * ra[(size_t)t * Size + j];
                    ra[(size_t)i * Size + j] -= prod;
                }
                const float prod = rm[(size_t)i * Size + t] * rb[t];
                rb[i] -= prod;
            }
        }
        double mm = 0, ma = 0, mb = 0, e1 = 0, e2 = 0;
        for (size_t k = 0; k < nn; k++) {
            mm = fmax(mm, fabs(rm[k]));
            ma = fmax(ma, fabs(ra[k]));
        }
        for (int i = 0; i < Size; i++) mb = fmax(mb, fabs(rb[i]));
        for (size_t k = 0; k < nn; k++) {
            const double d1 = fabs(m_got[k] - rm[k]) / mm, d2 = fabs(a_got[k] - ra[k]) / ma;
            if (!(d1 <= e1)) e1 = d1;
            if (!(d2 <= e2)) e2 = d2;
        }
        for (int i = 0; i < Size; i++) {
            const double d = fabs(b_got[i] - rb[i]) / mb;
            if (!(d <= e2)) e2 = d;
        }
        const bool ok1 = e1 <= 1e-5, ok2 = e2 <= 1e-5;
        printf("check Fan1: max error %.3g (%s)\n", e1, ok1 ? "ok" : "FAILED");
        printf("check Fan2: max error %.3g (%s)\n", e2, ok2 ? "ok" : "FAILED");
        failed = !ok1 || !ok2;
        free(ra);
        free(rm);
        free(rb);
    }

    HIP_CHECK(hipFree(m_cuda));
    HIP_CHECK(hipFree(a_cuda));
    HIP_CHECK(hipFree(b_cuda));
    free(a);
    free(b);
    free(m);
    free(m_got);
    free(a_got);
    free(b_got);
    return failed ? 1 : 0;
}
