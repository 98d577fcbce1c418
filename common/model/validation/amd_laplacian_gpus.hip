// Validation set "amd-laplacian-gpus", its 256 x 256 x 256 rows: kernel 5 of
// AMD's lab notes "Finite difference method - Laplacian part 3" as "part 4"
// (GPUOpen, 2023; github.com/amd/amd-lab-notes, finite-difference/) runs it on
// several GPUs, each with the block size, launch bounds and tiling factor m of
// part 4's table: MI50 256 x 1 x 1, launch bounds 256, m = 4; MI100 128 x 1 x 1,
// 128, m = 4; MI210, MI250 and MI250X 256 x 1 x 1, 256, m = 8. Part 4's figure 1
// gives the effective bandwidth of each GPU at ten grid sizes; this program is
// its smallest, 256 x 256 x 256 doubles (the 512 x 512 x 512 rows come from
// amd_laplacian.hip, which holds the same kernels and their comments). The
// kernels are written as in amd_laplacian.hip, from the posts' prose and
// listings (m a template parameter, the element type double); the input is
// filled by hipMemset, and there is no timing loop.
//
// Usage: amd_laplacian_gpus [--small] [--check]: --small runs 200 x 40 x 6
// points, --check compares each kernel's output with a host reference.
#include <hip/hip_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// g++, the plain executor's compiler, lacks clang's builtin: a plain store there.
#if !defined(__clang__) && !defined(__builtin_nontemporal_store)
#define __builtin_nontemporal_store(value, address) (*(address) = (value))
#endif

#define NX 256
#define NY 256
#define NZ 256
// --small: NX not a multiple of the blocks (the kernels return past nx - 1),
// NY a multiple of every m (the kernels read all m rows of a tile unchecked).
#define SMALL_NX 200
#define SMALL_NY 40
#define SMALL_NZ 6

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

// The body kernels 3-5 share ("Reordered loads", part 2): the same m points,
// their loads in ascending address order: every z - 1, the first point's
// y - 1 (inside the y boundary only), then per point x - 1, the centre (kept
// for the neighbours' y terms) and x + 1, the last point's y + 1 (inside the
// boundary only), every z + 1.
template <int m>
__device__ void laplacian_reordered(double *Lu, const double *u, size_t pos, int j, int nx, int ny, int slice,
                                    double invhx2, double invhy2, double invhz2, double invhxyz2) {
    double center;
    for (int n = 0; n < m; n++) Lu[n] += u[pos - slice + n * nx] * invhz2;
    Lu[0] += j > 0 ? u[pos - 1 * nx] * invhy2 : 0;
    for (int n = 0; n < m; n++) {
        Lu[n] += u[pos - 1 + n * nx] * invhx2;
        center = u[pos + n * nx];
        Lu[n] += center * invhxyz2;
        Lu[n] += u[pos + 1 + n * nx] * invhx2;
        if (n > 0) Lu[n - 1] += center * invhy2;
        if (n < m - 1) Lu[n + 1] += center * invhy2;
    }
    Lu[m - 1] += j < ny - m ? u[pos + m * nx] * invhy2 : 0;
    for (int n = 0; n < m; n++) Lu[n] += u[pos + slice + n * nx] * invhz2;
}

// Part 3, "Nontemporal store" (kernel 5): kernel 4 with its stores through
// __builtin_nontemporal_store. Part 4 runs it with launch bounds 256 on MI50
// (m = 4), MI210, MI250 and MI250X (m = 8).
template <int m>
__global__ void __launch_bounds__(256)
    laplacian_kernel5(double *f, const double *u, int nx, int ny, int nz, double invhx2, double invhy2,
                      double invhz2, double invhxyz2) {
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    const int j = m * (threadIdx.y + blockIdx.y * blockDim.y);
    const int k = threadIdx.z + blockIdx.z * blockDim.z;
    if (i == 0 || i >= nx - 1 || k == 0 || k >= nz - 1) return;
    const int slice = nx * ny;
    const size_t pos = i + (size_t)nx * j + (size_t)slice * k;
    double Lu[m] = {0};
    laplacian_reordered<m>(Lu, u, pos, j, nx, ny, slice, invhx2, invhy2, invhz2, invhxyz2);
    for (int n = 0; n < m; n++)
        if (n + j > 0 && n + j < ny - 1) __builtin_nontemporal_store(Lu[n], &f[pos + n * nx]);
}

// Part 4's build of kernel 5 for the MI100: blocks of 128 x 1 x 1 threads and
// __launch_bounds__(128), m = 4.
template <int m>
__global__ void __launch_bounds__(128)
    laplacian_kernel5_lb128(double *f, const double *u, int nx, int ny, int nz, double invhx2, double invhy2,
                            double invhz2, double invhxyz2) {
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    const int j = m * (threadIdx.y + blockIdx.y * blockDim.y);
    const int k = threadIdx.z + blockIdx.z * blockDim.z;
    if (i == 0 || i >= nx - 1 || k == 0 || k >= nz - 1) return;
    const int slice = nx * ny;
    const size_t pos = i + (size_t)nx * j + (size_t)slice * k;
    double Lu[m] = {0};
    laplacian_reordered<m>(Lu, u, pos, j, nx, ny, slice, invhx2, invhy2, invhz2, invhxyz2);
    for (int n = 0; n < m; n++)
        if (n + j > 0 && n + j < ny - 1) __builtin_nontemporal_store(Lu[n], &f[pos + n * nx]);
}

// --check's inputs: a small integer hash, as values in [-1, 1) that are
// multiples of 1/512, so that the stencil's sums are exact in double.
static unsigned hash32(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}
static double pattern(size_t i) { return ((int)(hash32((unsigned)i + 1U) & 1023U) - 512) / 512.0; }

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

// Part 1's launch: blocks of bx x 1 x 1, a grid of (nx - 1) / bx + 1 by
// (ny - 1) / m + 1 by nz blocks. With --check, the output is compared with
// the reference and cleared for the next kernel.
#define LAUNCH(kernel, m, bx)                                                                          \
    do {                                                                                               \
        hipLaunchKernelGGL(kernel, dim3((nx - 1) / (bx) + 1, (ny - 1) / (m) + 1, nz), dim3(bx, 1, 1), 0, 0, \
                           f, u, nx, ny, nz, invhx2, invhy2, invhz2, invhxyz2);                        \
        HIP_CHECK(hipGetLastError());                                                                  \
        if (check) {                                                                                   \
            HIP_CHECK(hipMemcpy(got, f, bytes, hipMemcpyDeviceToHost));                                \
            const double err = max_error(got, want, points);                                           \
            printf("check %s: max error %.3g (%s)\n", #kernel, err, err <= 1e-12 ? "ok" : "FAILED");   \
            if (!(err <= 1e-12)) failed = 1;                                                           \
            HIP_CHECK(hipMemset(f, 0, bytes));                                                         \
        }                                                                                              \
    } while (0)

int main(int argc, char **argv) {
    int small = 0, check = 0;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--small"))
            small = 1;
        else if (!strcmp(argv[a], "--check"))
            check = 1;
        else {
            fprintf(stderr, "usage: amd_laplacian_gpus [--small] [--check]\n");
            return 2;
        }
    }
    const int nx = small ? SMALL_NX : NX, ny = small ? SMALL_NY : NY, nz = small ? SMALL_NZ : NZ;
    const size_t points = (size_t)nx * ny * nz, bytes = points * sizeof(double);
    double *u = nullptr, *f = nullptr;
    HIP_CHECK(hipMalloc(&u, bytes));
    HIP_CHECK(hipMalloc(&f, bytes));
    HIP_CHECK(hipMemset(u, 0, bytes));
    HIP_CHECK(hipMemset(f, 0, bytes));
    const double invhx2 = (nx - 1.0) * (nx - 1.0), invhy2 = (ny - 1.0) * (ny - 1.0), invhz2 = (nz - 1.0) * (nz - 1.0);
    const double invhxyz2 = -2.0 * (invhx2 + invhy2 + invhz2);
    // --check: u from the hash, and the stencil on the interior points (zero elsewhere) as the reference.
    double *host_u = nullptr, *want = nullptr, *got = nullptr;
    int failed = 0;
    if (check) {
        host_u = (double *)malloc(bytes);
        want = (double *)calloc(points, sizeof(double));
        got = (double *)malloc(bytes);
        if (!host_u || !want || !got) {
            fprintf(stderr, "amd_laplacian_gpus: out of host memory\n");
            return 1;
        }
        for (size_t p = 0; p < points; p++) host_u[p] = pattern(p);
        const size_t slice = (size_t)nx * ny;
        for (int k = 1; k < nz - 1; k++)
            for (int j = 1; j < ny - 1; j++)
                for (int i = 1; i < nx - 1; i++) {
                    const size_t p = i + (size_t)nx * j + slice * k;
                    want[p] = host_u[p] * invhxyz2 + (host_u[p - 1] + host_u[p + 1]) * invhx2 +
                              (host_u[p - nx] + host_u[p + nx]) * invhy2 +
                              (host_u[p - slice] + host_u[p + slice]) * invhz2;
                }
        HIP_CHECK(hipMemcpy(u, host_u, bytes, hipMemcpyHostToDevice));
    }
    LAUNCH(laplacian_kernel5<4>, 4, 256);       // MI50
    LAUNCH(laplacian_kernel5_lb128<4>, 4, 128); // MI100
    LAUNCH(laplacian_kernel5<8>, 8, 256);       // MI210, MI250, MI250X
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(u));
    HIP_CHECK(hipFree(f));
    free(host_u);
    free(want);
    free(got);
    printf("amd_laplacian_gpus: 3 kernels launched once each on %d x %d x %d doubles\n", nx, ny, nz);
    return failed;
}
