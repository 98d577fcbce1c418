// Validation set "amd-jacobi" (AMD CDNA2, one GCD of an Instinct MI250): the
// four kernels of the HIP Jacobi solver in AMD's lab notes "Jacobi Solver with
// HIP and OpenMP offloading" (GPUOpen, 2022; github.com/amd/amd-lab-notes,
// jacobi/README.md and jacobi/codes/), written here from the post's prose and
// listings: a 4096 x 4096 grid of doubles (the codes' DEFAULT_DOMAIN_SIZE and
// dfloat), blocks of BLOCK_SIZE = 256 threads, one thread per grid point for
// LaplacianKernel and UpdateKernel (a grid of Nx * Ny / 256 blocks), one per
// boundary point for BoundaryConditionsKernel (ceil((2 Nx + 2 Ny - 2) / 256)
// blocks), and NormKernel's 256 blocks of 512 threads striding over the grid.
// The post gives rocprof's average time per iteration of each kernel over a
// 1000-iteration solve.
//
// Kernel names are the post's. Differences: the global thread index is
// threadIdx.x + blockIdx.x * blockDim.x (the post's GET_GLOBAL_ID_0 macros read
// the same registers through AMD builtins); NormKernel's partial sums go to
// device memory (the post maps 256 doubles of pinned host memory); the arrays
// are filled by hipMemset; each kernel is launched once, in the solver's order.
//
// Usage: amd_jacobi [--small] [--check]: --small runs a 397 x 353 grid, --check
// compares each kernel's output with a host reference (exit 1 on a mismatch).
#include <hip/hip_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// g++, the plain executor's compiler, lacks clang's builtin: a plain store there.
#if !defined(__clang__) && !defined(__builtin_nontemporal_store)
#define __builtin_nontemporal_store(value, address) (*(address) = (value))
#endif

#define NX 4096
#define NY 4096
// --small: sizes no block size divides, and more points than NormKernel's
// 256 x 512 threads, so some of them make two trips.
#define SMALL_NX 397
#define SMALL_NY 353
#define BLOCK_SIZE 256
#define NORM_BLOCK_SIZE 512
#define NORM_NUM_BLOCKS 256

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

// The 5-point Laplacian A u on the points between the first and the last
// interior one (in row-major order); the store is non-temporal.
__global__ __launch_bounds__(BLOCK_SIZE) void LaplacianKernel(const int localNx, const int localNy, const int stride,
                                                              const double fac_dx2, const double fac_dy2,
                                                              const double *U, double *AU) {
    const int tid = threadIdx.x + blockIdx.x * blockDim.x;
    if (tid > localNx + localNy * stride || tid < stride + 1) return;
    const int left = tid - 1, right = tid + 1, down = tid - stride, up = tid + stride;
    __builtin_nontemporal_store((-U[left] + 2 * U[tid] - U[right]) * fac_dx2 +
                                    (-U[down] + 2 * U[tid] - U[up]) * fac_dy2,
                                &AU[tid]);
}

// The same operator on the 2 Nx + 2 Ny - 2 boundary points: ids below Nx are
// the bottom row, then the top row, the left column, the right column; a
// neighbour outside the grid counts as zero.
__global__ __launch_bounds__(BLOCK_SIZE) void BoundaryConditionsKernel(const int Nx, const int Ny, const int stride,
                                                                       const double fac_dx2, const double fac_dy2,
                                                                       const double *U, double *AU) {
    const int id = threadIdx.x + blockIdx.x * blockDim.x;
    if (id < 2 * Nx + 2 * Ny - 2) {
        int i = Nx - 1, j = id - 2 * Nx - Ny + 2; // right column unless one of the below
        if (id < Nx) {
            i = id;
            j = 0;
        } else if (id < 2 * Nx) {
            i = id - Nx;
            j = Ny - 1;
        } else if (id < 2 * Nx + Ny - 1) {
            i = 0;
            j = id - 2 * Nx + 1;
        }
        const int iid = i + j * stride;
        const double down = j == 0 ? 0.0 : U[iid - stride];
        const double up = j == Ny - 1 ? 0.0 : U[iid + stride];
        const double left = i == 0 ? 0.0 : U[iid - 1];
        const double right = i == Nx - 1 ? 0.0 : U[iid + 1];
        __builtin_nontemporal_store((-left + 2 * U[iid] - right) * fac_dx2 + (-down + 2 * U[iid] - up) * fac_dy2,
                                    &AU[iid]);
    }
}

// The Jacobi step: the residual RES = RHS - AU, and U += RES * factor, in a
// grid-stride loop (one trip per thread at this grid).
__global__ __launch_bounds__(BLOCK_SIZE) void UpdateKernel(const int N, const double factor,
                                                           const double *__restrict__ RHS,
                                                           const double *__restrict__ AU, double *__restrict__ RES,
                                                           double *__restrict__ U) {
    const int tid = threadIdx.x + blockIdx.x * blockDim.x;
    for (int i = tid; i < N; i += gridDim.x * blockDim.x) {
        const double r = RHS[i] - AU[i];
        RES[i] = r;
        U[i] += r * factor;
    }
}

// Each block's sum of squares: every thread accumulates a[i]^2 over a stride of
// all the grid's threads into its shared slot, then a tree halves the slots
// with a barrier before each step; thread 0 writes the block's sum.
__global__ __launch_bounds__(NORM_BLOCK_SIZE) void NormKernel(const double *a, double *sum, int N) {
    __shared__ double smem[NORM_BLOCK_SIZE];
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    const int si = threadIdx.x;
    smem[si] = 0.0;
    for (; i < N; i += NORM_BLOCK_SIZE * NORM_NUM_BLOCKS) smem[si] += a[i] * a[i];
    for (int offset = NORM_BLOCK_SIZE >> 1; offset > 0; offset >>= 1) {
        __syncthreads();
        if (si < offset) smem[si] += smem[si + offset];
    }
    if (si == 0) sum[blockIdx.x] = smem[si];
}

// --check's inputs: a small integer hash, as values in [-1, 1) that are multiples of 1/512.
static unsigned hash32(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}
static double pattern(size_t i, unsigned seed) {
    return ((int)(hash32((unsigned)i * 2U + seed) & 1023U) - 512) / 512.0;
}

// The largest |got - want| over n values, relative to the largest |want| (at least 1); NaN counts as infinite.
static double max_error(const double *got, const double *want, size_t n) {
    double err = 0.0, scale = 1.0;
    for (size_t i = 0; i < n; i++) {
        double d = got[i] - want[i];
        d = d != d ? 1e300 : d < 0 ? -d : d;
        if (d > err) err = d;
        if (want[i] > scale) scale = want[i];
        if (-want[i] > scale) scale = -want[i];
    }
    return err / scale;
}

// One "check" line; returns 1 if the error is over the tolerance.
static int report(const char *kernel, double err) {
    const int bad = !(err <= 1e-12);
    printf("check %s: max error %.3g (%s)\n", kernel, err, bad ? "FAILED" : "ok");
    return bad;
}

int main(int argc, char **argv) {
    int small = 0, check = 0;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--small"))
            small = 1;
        else if (!strcmp(argv[a], "--check"))
            check = 1;
        else {
            fprintf(stderr, "usage: amd_jacobi [--small] [--check]\n");
            return 2;
        }
    }
    const int nx = small ? SMALL_NX : NX, ny = small ? SMALL_NY : NY;
    const int N = nx * ny;
    const size_t bytes = (size_t)N * sizeof(double);
    double *U = nullptr, *AU = nullptr, *RHS = nullptr, *RES = nullptr, *norm_sum = nullptr;
    HIP_CHECK(hipMalloc(&U, bytes));
    HIP_CHECK(hipMalloc(&AU, bytes));
    HIP_CHECK(hipMalloc(&RHS, bytes));
    HIP_CHECK(hipMalloc(&RES, bytes));
    HIP_CHECK(hipMalloc(&norm_sum, NORM_NUM_BLOCKS * sizeof(double)));
    HIP_CHECK(hipMemset(U, 0, bytes));
    HIP_CHECK(hipMemset(AU, 0, bytes));
    HIP_CHECK(hipMemset(RHS, 0, bytes));
    HIP_CHECK(hipMemset(RES, 0, bytes));
    // The codes' domain [-0.5, 0.5]^2: dx = dy = 1 / (N - 1); the values do not matter here.
    const double dx = 1.0 / (nx - 1), dy = 1.0 / (ny - 1);
    const double fac_dx2 = 1.0 / (dx * dx), fac_dy2 = 1.0 / (dy * dy);
    const double factor = 1.0 / (2.0 / (dx * dx) + 2.0 / (dy * dy));
    const int grid = (N + BLOCK_SIZE - 1) / BLOCK_SIZE;
    const int grid2 = (2 * nx + 2 * ny - 2 + BLOCK_SIZE - 1) / BLOCK_SIZE;
    // --check: U and RHS from the hash; the host follows the four kernels, each
    // from the reference state the previous one left.
    double *host_u = nullptr, *rhs = nullptr, *au = nullptr, *res = nullptr, *u_new = nullptr, *sums = nullptr,
           *got = nullptr;
    int failed = 0;
    if (check) {
        host_u = (double *)malloc(bytes);
        rhs = (double *)malloc(bytes);
        au = (double *)calloc(N, sizeof(double));
        res = (double *)malloc(bytes);
        u_new = (double *)malloc(bytes);
        sums = (double *)calloc(NORM_NUM_BLOCKS, sizeof(double));
        got = (double *)malloc(bytes);
        if (!host_u || !rhs || !au || !res || !u_new || !sums || !got) {
            fprintf(stderr, "amd_jacobi: out of host memory\n");
            return 1;
        }
        for (int i = 0; i < N; i++) {
            host_u[i] = pattern(i, 1U);
            rhs[i] = pattern(i, 2U);
        }
        HIP_CHECK(hipMemcpy(U, host_u, bytes, hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(RHS, rhs, bytes, hipMemcpyHostToDevice));
    }
    hipLaunchKernelGGL(LaplacianKernel, dim3(grid), dim3(BLOCK_SIZE), 0, 0, nx - 2, ny - 2, nx, fac_dx2, fac_dy2, U,
                       AU);
    HIP_CHECK(hipGetLastError());
    if (check) {
        // Every point from the first interior one to the last, in row-major order.
        for (int t = nx + 1; t <= nx - 2 + (ny - 2) * nx; t++)
            au[t] = (-host_u[t - 1] + 2 * host_u[t] - host_u[t + 1]) * fac_dx2 +
                    (-host_u[t - nx] + 2 * host_u[t] - host_u[t + nx]) * fac_dy2;
        HIP_CHECK(hipMemcpy(got, AU, bytes, hipMemcpyDeviceToHost));
        failed |= report("LaplacianKernel", max_error(got, au, N));
    }
    hipLaunchKernelGGL(BoundaryConditionsKernel, dim3(grid2), dim3(BLOCK_SIZE), 0, 0, nx, ny, nx, fac_dx2, fac_dy2,
                       U, AU);
    HIP_CHECK(hipGetLastError());
    if (check) {
        // The boundary points, a neighbour outside the grid taken as zero.
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1) continue;
                const int p = i + j * nx;
                const double left = i > 0 ? host_u[p - 1] : 0.0, right = i < nx - 1 ? host_u[p + 1] : 0.0;
                const double down = j > 0 ? host_u[p - nx] : 0.0, up = j < ny - 1 ? host_u[p + nx] : 0.0;
                au[p] = (-left + 2 * host_u[p] - right) * fac_dx2 + (-down + 2 * host_u[p] - up) * fac_dy2;
            }
        HIP_CHECK(hipMemcpy(got, AU, bytes, hipMemcpyDeviceToHost));
        failed |= report("BoundaryConditionsKernel", max_error(got, au, N));
    }
    hipLaunchKernelGGL(UpdateKernel, dim3(grid), dim3(BLOCK_SIZE), 0, 0, N, factor, RHS, AU, RES, U);
    HIP_CHECK(hipGetLastError());
    if (check) {
        for (int i = 0; i < N; i++) {
            res[i] = rhs[i] - au[i];
            u_new[i] = host_u[i] + res[i] * factor;
        }
        HIP_CHECK(hipMemcpy(got, RES, bytes, hipMemcpyDeviceToHost));
        double err = max_error(got, res, N);
        HIP_CHECK(hipMemcpy(got, U, bytes, hipMemcpyDeviceToHost));
        const double err_u = max_error(got, u_new, N);
        failed |= report("UpdateKernel", err_u > err ? err_u : err);
    }
    hipLaunchKernelGGL(NormKernel, dim3(NORM_NUM_BLOCKS), dim3(NORM_BLOCK_SIZE), 0, 0, RES, norm_sum, N);
    HIP_CHECK(hipGetLastError());
    if (check) {
        // Block b's sum: the squares at every index whose place in the grid's stride falls in b.
        for (int i = 0; i < N; i++) sums[i % (NORM_BLOCK_SIZE * NORM_NUM_BLOCKS) / NORM_BLOCK_SIZE] += res[i] * res[i];
        HIP_CHECK(hipMemcpy(got, norm_sum, NORM_NUM_BLOCKS * sizeof(double), hipMemcpyDeviceToHost));
        failed |= report("NormKernel", max_error(got, sums, NORM_NUM_BLOCKS));
    }
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(U));
    HIP_CHECK(hipFree(AU));
    HIP_CHECK(hipFree(RHS));
    HIP_CHECK(hipFree(RES));
    HIP_CHECK(hipFree(norm_sum));
    free(host_u);
    free(rhs);
    free(au);
    free(res);
    free(u_new);
    free(sums);
    free(got);
    printf("amd_jacobi: 4 kernels launched once each on a %d x %d grid of doubles\n", nx, ny);
    return failed;
}
