// Validation programs for the time model, project "liu": the CSR SpMV kernel
// of Xiandong Liu's "How to optimize in GPU"
// (github.com/Liu-xiandong/How_to_optimize_in_GPU, Apache-2.0, read at commit
// 5d2def3e082c4e1364c3ade54451b7b9d1d6f044: spmv/spmv.cu). No time is
// published for it.
//
// Written here from that file (nothing copied): y = A x for a CSR matrix
// (int row offsets and column indices, float values), a "vector" of
// THREADS_PER_VECTOR lanes per row: lane j of a row's vector takes the row's
// entries j, j + THREADS_PER_VECTOR, ..., gathering x by column index, and a
// shuffle sum over the vector leaves the row's sum in its first lane, which
// stores y[row]. Blocks of 256 threads, VECTORS_PER_BLOCK = 256 / TPV rows a
// block, ceil(rows / VECTORS_PER_BLOCK) blocks. As in the original's main(),
// the vector width follows the mean entries per row, ceil(nnz / rows):
//   <= 2: My_spmv_csr_kernel<int, float, 128, 2>     3-4: <int, float, 64, 4>
//   5-8:  My_spmv_csr_kernel<int, float, 32, 8>     9-16: <int, float, 16, 16>
//   > 16: My_spmv_csr_kernel<int, float, 8, 32>
// The program builds five matrices, one for each width, and launches the
// width the original would choose for each, once.
//
// The original reads a Matrix Market file (.mtx) and turns it into CSR; here
// each matrix is generated in the program, deterministically, in that CSR
// form (rows in order, each row's entries in rising column order): square,
// n x n; row r has L(r) entries, L drawn by a hash from a range around the
// target mean; the entries lie in a window of L(r) * 16 columns centred on
// the diagonal (clamped to the matrix), one in each run of 16 columns at a
// hashed offset. So the gathers of x are local but irregular, and row lengths
// vary (the width-2 matrix has empty rows). Values and x are hashed multiples
// of 1/64 (the original: value = row % 13 for a pattern-only file, x = 1).
//   width 2:  n = 2^21, L = 0-3 (mean 1.5)    width 4:  n = 2^20, L = 1-6
//   width 8:  n = 2^19, L = 2-11              width 16: n = 2^18, L = 4-22
//   width 32: n = 2^17, L = 8-64 (mean 36)
// Each launch has 2^22 threads; 3.1 to 4.7 million entries a matrix. --small: n = 1056 for all five (the widths 2
// and 4 end in a part-filled block).
//
// Wave size: 32 (the row's lanes are taken from threadIdx.x and shuffled
// within a warp of 32, offsets from 16 down for the width-32 vectors). Rows
// are a multiple of 32 in every case: a warp (or the executor's wave of 64)
// is never part-filled, since the executor requires every lane of a wave to
// reach a shuffle (the original's shuffles sit inside `if (row_id < rows)`).
//
// Differences: __shfl_down_sync(0xffffffff, v, d) is HIP's __shfl_down(v, d);
// one launch each (the original 2000, then cuSPARSE's, left out).
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

// The sum over a group of `WarpSize` lanes by shuffles (offsets WarpSize/2 .. 1).
template <unsigned int WarpSize> __device__ __forceinline__ float warpReduceSum(float v) {
    if (WarpSize >= 32) v += __shfl_down(v, 16);
    if (WarpSize >= 16) v += __shfl_down(v, 8);
    if (WarpSize >= 8) v += __shfl_down(v, 4);
    if (WarpSize >= 4) v += __shfl_down(v, 2);
    if (WarpSize >= 2) v += __shfl_down(v, 1);
    return v;
}

// A vector of THREADS_PER_VECTOR lanes per row.
template <typename IndexType, typename ValueType, unsigned int VECTORS_PER_BLOCK, unsigned int THREADS_PER_VECTOR>
__global__ void My_spmv_csr_kernel(const IndexType row_num, const IndexType *A_row_offset,
                                   const IndexType *A_col_index, const ValueType *A_value, const ValueType *x,
                                   ValueType *y) {
    const IndexType threads_per_block = VECTORS_PER_BLOCK * THREADS_PER_VECTOR;
    const IndexType gid = threads_per_block * blockIdx.x + threadIdx.x;
    const IndexType lane = threadIdx.x & (THREADS_PER_VECTOR - 1);
    const IndexType row = gid / THREADS_PER_VECTOR;
    if (row < row_num) {
        const IndexType first = A_row_offset[row];
        const IndexType end = A_row_offset[row + 1];
        ValueType acc = 0;
        for (IndexType e = first + lane; e < end; e += THREADS_PER_VECTOR) acc += A_value[e] * x[A_col_index[e]];
        acc = warpReduceSum<THREADS_PER_VECTOR>(acc);
        if (lane == 0) y[row] = acc;
    }
}

static unsigned hash32(unsigned v) {
    v ^= v >> 16;
    v *= 0x7feb352du;
    v ^= v >> 15;
    v *= 0x846ca68bu;
    v ^= v >> 16;
    return v;
}

struct Csr {
    int rows, nnz;
    int *offsets, *cols;
    float *vals;
};

// Row r: L(r) = lo + hash % (hi - lo + 1) entries, one per run of 16 columns
// in a window of 16 L(r) columns around the diagonal.
static int make_matrix(Csr *m, int n, int lo, int hi, unsigned seed) {
    const int gap = 16;
    m->rows = n;
    m->offsets = (int *)malloc((size_t)(n + 1) * sizeof(int));
    if (!m->offsets) return 0;
    m->offsets[0] = 0;
    for (int r = 0; r < n; r++) {
        int len = lo + (int)(hash32((unsigned)r * 2654435761u ^ seed) % (unsigned)(hi - lo + 1));
        if (len * gap > n) len = n / gap;
        m->offsets[r + 1] = m->offsets[r] + len;
    }
    m->nnz = m->offsets[n];
    m->cols = (int *)malloc((size_t)m->nnz * sizeof(int));
    m->vals = (float *)malloc((size_t)m->nnz * sizeof(float));
    if (!m->cols || !m->vals) return 0;
    for (int r = 0; r < n; r++) {
        const int first = m->offsets[r], len = m->offsets[r + 1] - first, span = len * gap;
        int start = r - span / 2;
        if (start < 0) start = 0;
        if (start > n - span) start = n - span;
        for (int j = 0; j < len; j++) {
            const unsigned h = hash32((unsigned)(first + j) ^ (seed * 0x9e3779b9u));
            m->cols[first + j] = start + j * gap + (int)(h % gap);
            m->vals[first + j] = (float)((int)((h >> 8) % 257u) - 128) / 64.0f;
        }
    }
    return 1;
}

static void free_matrix(Csr *m) {
    free(m->offsets);
    free(m->cols);
    free(m->vals);
}

// The original main()'s choice of vector width from the mean row length.
static const char *launch_spmv(int mean, int rows, const int *off, const int *col, const float *val, const float *x,
                               float *y) {
    if (mean <= 2) {
        const unsigned int VPB = 128;
        My_spmv_csr_kernel<int, float, VPB, 2><<<(rows + (VPB - 1)) / VPB, 256>>>(rows, off, col, val, x, y);
        return "My_spmv_csr_kernel<int, float, 128, 2>";
    } else if (mean <= 4) {
        const unsigned int VPB = 64;
        My_spmv_csr_kernel<int, float, VPB, 4><<<(rows + (VPB - 1)) / VPB, 256>>>(rows, off, col, val, x, y);
        return "My_spmv_csr_kernel<int, float, 64, 4>";
    } else if (mean <= 8) {
        const unsigned int VPB = 32;
        My_spmv_csr_kernel<int, float, VPB, 8><<<(rows + (VPB - 1)) / VPB, 256>>>(rows, off, col, val, x, y);
        return "My_spmv_csr_kernel<int, float, 32, 8>";
    } else if (mean <= 16) {
        const unsigned int VPB = 16;
        My_spmv_csr_kernel<int, float, VPB, 16><<<(rows + (VPB - 1)) / VPB, 256>>>(rows, off, col, val, x, y);
        return "My_spmv_csr_kernel<int, float, 16, 16>";
    }
    const unsigned int VPB = 8;
    My_spmv_csr_kernel<int, float, VPB, 32><<<(rows + (VPB - 1)) / VPB, 256>>>(rows, off, col, val, x, y);
    return "My_spmv_csr_kernel<int, float, 8, 32>";
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
    // one matrix per vector width: rows, row length range
    const int rows_full[5] = {1 << 21, 1 << 20, 1 << 19, 1 << 18, 1 << 17};
    const int lo[5] = {0, 1, 2, 4, 8}, hi[5] = {3, 6, 11, 22, 64};

    int good = 1;
    for (int w = 0; w < 5; w++) {
        Csr m;
        const int n = small ? 1056 : rows_full[w];
        if (!make_matrix(&m, n, lo[w], hi[w], 0x1234567u + 77u * (unsigned)w)) {
            fprintf(stderr, "%s:%d: malloc failed\n", __FILE__, __LINE__);
            return 1;
        }
        float *h_x = (float *)malloc((size_t)n * sizeof(float)), *h_y = (float *)malloc((size_t)n * sizeof(float));
        if (!h_x || !h_y) {
            fprintf(stderr, "%s:%d: malloc failed\n", __FILE__, __LINE__);
            return 1;
        }
        for (int i = 0; i < n; i++) h_x[i] = (float)((int)(hash32((unsigned)i ^ 0xabcdefu) % 129u) - 64) / 64.0f;

        int *d_off = nullptr, *d_col = nullptr;
        float *d_val = nullptr, *d_x = nullptr, *d_y = nullptr;
        HIP_CHECK(hipMalloc(&d_off, (size_t)(n + 1) * sizeof(int)));
        HIP_CHECK(hipMalloc(&d_col, (size_t)m.nnz * sizeof(int)));
        HIP_CHECK(hipMalloc(&d_val, (size_t)m.nnz * sizeof(float)));
        HIP_CHECK(hipMalloc(&d_x, (size_t)n * sizeof(float)));
        HIP_CHECK(hipMalloc(&d_y, (size_t)n * sizeof(float)));
        HIP_CHECK(hipMemcpy(d_off, m.offsets, (size_t)(n + 1) * sizeof(int), hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(d_col, m.cols, (size_t)m.nnz * sizeof(int), hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(d_val, m.vals, (size_t)m.nnz * sizeof(float), hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(d_x, h_x, (size_t)n * sizeof(float), hipMemcpyHostToDevice));
        if (check) HIP_CHECK(hipMemset(d_y, 0xFF, (size_t)n * sizeof(float)));

        const int mean = (m.nnz + (n - 1)) / n;
        const char *name = launch_spmv(mean, n, d_off, d_col, d_val, d_x, d_y);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
        printf("matrix %d: %d rows, %d entries, mean %d a row: %s\n", w, n, m.nnz, mean, name);

        if (check) {
            HIP_CHECK(hipMemcpy(h_y, d_y, (size_t)n * sizeof(float), hipMemcpyDeviceToHost));
            double worst = 0.0;
            for (int r = 0; r < n; r++) {
                double ref = 0.0, mag = 0.0;
                for (int e = m.offsets[r]; e < m.offsets[r + 1]; e++) {
                    const double p = (double)m.vals[e] * h_x[m.cols[e]];
                    ref += p;
                    mag += fabs(p);
                }
                const double err = fabs((double)h_y[r] - ref) / fmax(mag, 1.0);
                if (!(err <= worst)) worst = err;
            }
            const int ok = worst <= 1e-5;
            good &= ok;
            printf("check %s: max error %g (%s)\n", name, worst, ok ? "ok" : "FAILED");
        }

        HIP_CHECK(hipFree(d_off));
        HIP_CHECK(hipFree(d_col));
        HIP_CHECK(hipFree(d_val));
        HIP_CHECK(hipFree(d_x));
        HIP_CHECK(hipFree(d_y));
        free(h_x);
        free(h_y);
        free_matrix(&m);
    }
    printf("liu_spmv: five CSR matrices, one launch each\n");
    return check && !good ? 1 : 0;
}
