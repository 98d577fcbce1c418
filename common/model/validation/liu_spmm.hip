// Validation programs for the time model, project "liu": the two CSR SpMM
// kernels of Xiandong Liu's "How to optimize in GPU"
// (github.com/Liu-xiandong/How_to_optimize_in_GPU, Apache-2.0, read at commit
// 5d2def3e082c4e1364c3ade54451b7b9d1d6f044: spmm/spmm.cu). No time is
// published for them.
//
// Written here from that file (nothing copied): C = A B with A a sparse
// rows x cols CSR matrix (int offsets and columns, float values), B a dense
// row-major cols x rows matrix and C dense rows x rows. Blocks of
// THREAD_NUM_PER_BLOCK = 128 threads, a grid of rows / 128 x rows blocks: block
// (bx, by) computes row by of C, columns bx * 128 + tx, one per thread.
//   My_spmm_csr_vector_kernel_v0<128>: each thread walks row by's entries,
//     reading each column index and value from global memory (the same
//     address in every thread of the block) and B[col][its column].
//   My_spmm_csr_vector_kernel_v1<128, 512, 128> (BLOCK_SIZE_X, BLOCK_SIZE_K,
//     THREAD_NUM_PER_BLOCK; the file's comment calls it a useless optimisation):
//     per chunk of up to 512 entries of the row, each thread stages 4 adjacent
//     entries (column and value, -1 and 0 past the row's end) into shared
//     As_col[512] and As_value[512], one barrier, then every thread runs over
//     all 512 staged entries, skipping the -1 columns, reading B for the rest.
// The original's main() launches a kernel it names My_spmm_csr_vector_kernel
// with template arguments <128, 512, 128> and the argument list of v1 (that
// name is not defined in the file; v1 is the kernel that fits), and after it
// Sputnik's SpMM and cuSPARSE's (left out). The dimGrid/dimBlock comments above
// both kernels give the launch shape used here for both.
//
// The original reads A's pattern from a Sputnik .smtx file (its first line
// rows, cols, nnz, then the row offsets, then the column indices); here A is
// generated in the program, deterministically, in that CSR form: rows = 512,
// cols = 1024; row r has L(r) = hash % 201 entries (0 to 200, mean 100, about
// 90% sparse), in rising column order, one per run of g = cols / L(r) columns
// at a hashed offset, starting at a hashed column. Values and B are hashed
// multiples of 1/16 (the original: value[i] = i % 17, B[i] = i % 13).
// v1 as written handles rows of at most 512 entries: for a longer row its
// second chunk would start at row_start + 512 * 512, not + 512, and its
// second round of shared stores would race with the first round's reads (no
// barrier between them). Every row here has at most 200 entries, so each
// block stages one chunk, as on the row lengths the original was run on.
// --small: rows = 256, cols = 200 (2 x 256 blocks; rows of 0 to 200 entries).
// The kernels need rows a multiple of 128 (the grid's rows / 128).
//
// Wave size: any (no warp-level code).
//
// Differences: one launch each (the original 2000 of one of them).
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

// v0: one C element a thread, A's row read straight from global memory.
template <unsigned int THREAD_NUM_PER_BLOCK>
__global__ void My_spmm_csr_vector_kernel_v0(const int num_rows, const int *A_row_offset, const int *A_col_index,
                                             const float *A_value, const float *B, float *C, const int ldb,
                                             const int ldc) {
    const int c_row = blockIdx.y;
    const int c_col = blockIdx.x * THREAD_NUM_PER_BLOCK + threadIdx.x;
    if (c_row < num_rows && c_col < ldc) {
        const int first = A_row_offset[c_row];
        const int end = A_row_offset[c_row + 1];
        const int count = end - first;
        float acc = 0.0;
        for (int i = 0; i < count; i++) {
            const int e = first + i;
            const int k = A_col_index[e];
            const float a = A_value[e];
            const float b = B[k * ldb + c_col];
            acc += a * b;
        }
        C[c_row * ldc + c_col] = acc;
    }
}

// v1: the row's entries staged in shared memory, BLOCK_SIZE_K at a time.
template <const int BLOCK_SIZE_X, const int BLOCK_SIZE_K, const int THREAD_NUM_PER_BLOCK>
__global__ void My_spmm_csr_vector_kernel_v1(const int num_rows, const int *A_row_offset, const int *A_col_index,
                                             const float *A_value, const float *B, float *C, const int M,
                                             const int N, const int K) {
    const int c_row = blockIdx.y;
    const int c_col = blockIdx.x * THREAD_NUM_PER_BLOCK + threadIdx.x;
    const int tx = threadIdx.x;

    __shared__ int As_col[BLOCK_SIZE_K];
    __shared__ float As_value[BLOCK_SIZE_K];

    int per_thread = BLOCK_SIZE_K / THREAD_NUM_PER_BLOCK;

    if (c_row < num_rows && c_col < N) {
        const int first = A_row_offset[c_row];
        const int end = A_row_offset[c_row + 1];
        const int count = end - first;
        float acc = 0.0;
        for (int k = 0; k < count; k += BLOCK_SIZE_K) {
            // stage this thread's entries (as written: chunk k starts at first + k * BLOCK_SIZE_K)
            const int chunk = first + k * BLOCK_SIZE_K;
            const int mine = per_thread * tx;
            for (int i = 0; i < per_thread; i++) {
                if (chunk + mine + i < end) {
                    As_col[mine + i] = A_col_index[chunk + mine + i];
                    As_value[mine + i] = A_value[chunk + mine + i];
                } else {
                    As_col[mine + i] = -1;
                    As_value[mine + i] = 0.0;
                }
            }
            __syncthreads();
            // every staged entry, the padding skipped
            for (int i = 0; i < BLOCK_SIZE_K; i++) {
                const int col = As_col[i];
                const float a = As_value[i];
                if (col != -1) {
                    const float b = B[col * N + c_col];
                    acc += a * b;
                }
            }
        }
        C[c_row * N + c_col] = acc;
    }
    (void)M, (void)K; // unused, as in the original
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
    const int rows = small ? 256 : 512, cols = small ? 200 : 1024;
    const int MAX_LEN = 200;

    // A in CSR
    int *h_off = (int *)malloc((size_t)(rows + 1) * sizeof(int));
    if (!h_off) {
        fprintf(stderr, "%s:%d: malloc failed\n", __FILE__, __LINE__);
        return 1;
    }
    h_off[0] = 0;
    for (int r = 0; r < rows; r++) {
        int len = (int)(hash32((unsigned)r * 0x85ebca6bu + 17u) % (unsigned)(MAX_LEN + 1));
        if (len > cols) len = cols;
        h_off[r + 1] = h_off[r] + len;
    }
    const int nnz = h_off[rows];
    int *h_col = (int *)malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof(int));
    float *h_val = (float *)malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof(float));
    const size_t b_count = (size_t)cols * rows, c_count = (size_t)rows * rows;
    float *h_B = (float *)malloc(b_count * sizeof(float)), *h_C = (float *)malloc(c_count * sizeof(float));
    if (!h_col || !h_val || !h_B || !h_C) {
        fprintf(stderr, "%s:%d: malloc failed\n", __FILE__, __LINE__);
        return 1;
    }
    for (int r = 0; r < rows; r++) {
        const int first = h_off[r], len = h_off[r + 1] - first;
        if (len == 0) continue;
        const int g = cols / len;
        const int start = (int)(hash32((unsigned)r ^ 0x27d4eb2fu) % (unsigned)(cols - len * g + 1));
        for (int j = 0; j < len; j++) {
            const unsigned h = hash32((unsigned)(first + j) * 0xc2b2ae35u + 5u);
            h_col[first + j] = start + j * g + (int)(h % (unsigned)g);
            h_val[first + j] = (float)((int)((h >> 8) % 33u) - 16) / 16.0f;
        }
    }
    for (size_t i = 0; i < b_count; i++) h_B[i] = (float)((int)(hash32((unsigned)i ^ 0x165667b1u) % 33u) - 16) / 16.0f;

    int *d_off = nullptr, *d_col = nullptr;
    float *d_val = nullptr, *d_B = nullptr, *d_C = nullptr;
    HIP_CHECK(hipMalloc(&d_off, (size_t)(rows + 1) * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_col, (size_t)(nnz > 0 ? nnz : 1) * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_val, (size_t)(nnz > 0 ? nnz : 1) * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_B, b_count * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_C, c_count * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_off, h_off, (size_t)(rows + 1) * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_col, h_col, (size_t)nnz * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_val, h_val, (size_t)nnz * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_B, h_B, b_count * sizeof(float), hipMemcpyHostToDevice));

    constexpr unsigned int THREAD_NUM_PER_BLOCK = 128;
    const dim3 block(THREAD_NUM_PER_BLOCK), grid(rows / THREAD_NUM_PER_BLOCK, rows);
    int good = 1;
    for (int v = 0; v < 2; v++) {
        if (check) HIP_CHECK(hipMemset(d_C, 0xFF, c_count * sizeof(float)));
        const char *name;
        if (v == 0) {
            My_spmm_csr_vector_kernel_v0<THREAD_NUM_PER_BLOCK>
                <<<grid, block>>>(rows, d_off, d_col, d_val, d_B, d_C, rows, rows);
            name = "My_spmm_csr_vector_kernel_v0<128>";
        } else {
            My_spmm_csr_vector_kernel_v1<128, 512, THREAD_NUM_PER_BLOCK>
                <<<grid, block>>>(rows, d_off, d_col, d_val, d_B, d_C, rows, rows, cols);
            name = "My_spmm_csr_vector_kernel_v1<128, 512, 128>";
        }
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
        if (check) {
            HIP_CHECK(hipMemcpy(h_C, d_C, c_count * sizeof(float), hipMemcpyDeviceToHost));
            double worst = 0.0;
            for (int r = 0; r < rows; r++)
                for (int c = 0; c < rows; c++) {
                    double ref = 0.0, mag = 0.0;
                    for (int e = h_off[r]; e < h_off[r + 1]; e++) {
                        const double p = (double)h_val[e] * h_B[(size_t)h_col[e] * rows + c];
                        ref += p;
                        mag += fabs(p);
                    }
                    const double err = fabs((double)h_C[(size_t)r * rows + c] - ref) / fmax(mag, 1.0);
                    if (!(err <= worst)) worst = err;
                }
            const int ok = worst <= 1e-5;
            good &= ok;
            printf("check %s: max error %g (%s)\n", name, worst, ok ? "ok" : "FAILED");
        }
    }

    HIP_CHECK(hipFree(d_off));
    HIP_CHECK(hipFree(d_col));
    HIP_CHECK(hipFree(d_val));
    HIP_CHECK(hipFree(d_B));
    HIP_CHECK(hipFree(d_C));
    free(h_off);
    free(h_col);
    free(h_val);
    free(h_B);
    free(h_C);
    printf("liu_spmm: v0 and v1 launched once each, A %d x %d with %d entries, B %d x %d\n", rows, cols, nnz, cols,
           rows);
    return check && !good ? 1 : 0;
}
