// Validation sets "amd-laplacian" and "amd-laplacian-gpus" (AMD GCN and CDNA):
// the finite-difference Laplacian kernels of AMD's lab notes "Finite difference
// method - Laplacian part 1" ... "part 4" (GPUOpen, 2022-23, later ROCm blogs;
// posts and examples in github.com/amd/amd-lab-notes, finite-difference/),
// written here from the posts' prose and listings: a 512 x 512 x 512 grid of
// doubles, x the fastest index, the 7-point stencil
//   f = u * c + (u[x-1] + u[x+1]) * ax + (u[y-1] + u[y+1]) * ay + (u[z-1] + u[z+1]) * az
// on the interior points, blocks of 256 x 1 x 1 threads. Parts 1-3 time every
// kernel on one GCD of an MI250X, each as the mean of 1000 launches between two
// hipEvents after one untimed launch; part 4 runs kernel 5 on other GPUs with
// the block size, launch bounds and tiling factor its table gives each GPU.
//
// The posts name every kernel laplacian_kernel and build one kernel and one
// tiling factor per program (a -include of kernelN.hpp, a #define of m). Here
// they share one program, so each kernel carries the number of the post's
// kernel (laplacian_kernel1 ... laplacian_kernel5), and the tiling factor m is
// the template parameter of kernels 2-5. The posts' element type T, a template
// parameter they always build as double (-DDOUBLE), stays a template parameter
// of kernel 1 and is double in kernels 2-5: a kernel of two template
// parameters reaches hipLaunchKernelGGL only in parentheses, and a kernel
// named in parentheses is not matched to its compiled code by the model's
// tools today. What a thread reads and writes, and in which order, is the
// posts'. The input is filled by hipMemset (the posts fill a test function),
// and there is no timing loop.
//
// Usage: amd_laplacian [--small] [--check] [NZ]. NZ (default 512, the posts'
// size) only for the validation's slices: every count grows by the same amount
// per z-plane, so validate.sh traces two thin slabs and extends their counts to
// NZ = 512. --small runs 300 x 48 x 7 points, --check compares each kernel's
// output with a host reference (exit 1 on a mismatch).
#include <hip/hip_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// g++, the plain executor's compiler, lacks clang's builtin: a plain store there.
#if !defined(__clang__) && !defined(__builtin_nontemporal_store)
#define __builtin_nontemporal_store(value, address) (*(address) = (value))
#endif

#define NX 512
#define NY 512
// --small: NX not a multiple of the blocks (the kernels return past nx - 1),
// NY a multiple of every m (kernels 2-5 read all m rows of a tile unchecked).
#define SMALL_NX 300
#define SMALL_NY 48
#define SMALL_NZ 7

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

// Part 1, the baseline: one thread per grid point (x, y and z from a 3-D grid
// of blocks); threads on the boundary return at once; 7 loads and a store.
template <typename T>
__global__ void laplacian_kernel1(T *f, const T *u, int nx, int ny, int nz, T invhx2, T invhy2, T invhz2,
                                  T invhxyz2) {
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    const int j = threadIdx.y + blockIdx.y * blockDim.y;
    const int k = threadIdx.z + blockIdx.z * blockDim.z;
    if (i == 0 || i >= nx - 1 || j == 0 || j >= ny - 1 || k == 0 || k >= nz - 1) return;
    const int slice = nx * ny;
    const size_t pos = i + (size_t)nx * j + (size_t)slice * k;
    f[pos] = u[pos] * invhxyz2 + (u[pos - 1] + u[pos + 1]) * invhx2 + (u[pos - nx] + u[pos + nx]) * invhy2 +
             (u[pos - slice] + u[pos + slice]) * invhz2;
}

// Part 3, "Kernel 1 - Nontemporal store": the baseline with its one store
// through clang's __builtin_nontemporal_store.
template <typename T>
__global__ void laplacian_kernel1_nontemporal(T *f, const T *u, int nx, int ny, int nz, T invhx2, T invhy2,
                                              T invhz2, T invhxyz2) {
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    const int j = threadIdx.y + blockIdx.y * blockDim.y;
    const int k = threadIdx.z + blockIdx.z * blockDim.z;
    if (i == 0 || i >= nx - 1 || j == 0 || j >= ny - 1 || k == 0 || k >= nz - 1) return;
    const int slice = nx * ny;
    const size_t pos = i + (size_t)nx * j + (size_t)slice * k;
    __builtin_nontemporal_store(u[pos] * invhxyz2 + (u[pos - 1] + u[pos + 1]) * invhx2 +
                                    (u[pos - nx] + u[pos + nx]) * invhy2 + (u[pos - slice] + u[pos + slice]) * invhz2,
                                &f[pos]);
}

// Part 2, "Loop tiling" (kernel 2): each thread computes m points of one y
// column (rows j ... j + m - 1). Per point, in the baseline's order: the
// centre, x - 1 and x + 1, then y (y - 1 loaded only for the first point,
// y + 1 only for the last; each centre also feeds its neighbours' y terms),
// then z - 1 and z + 1. The points accumulate in Lu[m]; a second loop stores
// those inside the y boundary.
template <int m>
__global__ void laplacian_kernel2(double *f, const double *u, int nx, int ny, int nz, double invhx2, double invhy2,
                                  double invhz2, double invhxyz2) {
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    const int j = m * (threadIdx.y + blockIdx.y * blockDim.y);
    const int k = threadIdx.z + blockIdx.z * blockDim.z;
    if (i == 0 || i >= nx - 1 || k == 0 || k >= nz - 1) return;
    const int slice = nx * ny;
    const size_t pos = i + (size_t)nx * j + (size_t)slice * k;
    double Lu[m] = {0};
    double center;
    for (int n = 0; n < m; n++) {
        center = u[pos + n * nx];
        Lu[n] += center * invhxyz2 + (u[pos - 1 + n * nx] + u[pos + 1 + n * nx]) * invhx2;
        if (n == 0) Lu[n] += u[pos - nx + n * nx] * invhy2;
        if (n > 0) Lu[n - 1] += center * invhy2;
        if (n < m - 1) Lu[n + 1] += center * invhy2;
        if (n == m - 1) Lu[n] += u[pos + nx + n * nx] * invhy2;
        Lu[n] += (u[pos - slice + n * nx] + u[pos + slice + n * nx]) * invhz2;
    }
    for (int n = 0; n < m; n++)
        if (j + n > 0 && j + n < ny - 1) f[pos + n * nx] = Lu[n];
}

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

// Part 2, "Reordered loads" (kernel 3).
template <int m>
__global__ void laplacian_kernel3(double *f, const double *u, int nx, int ny, int nz, double invhx2, double invhy2,
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
        if (n + j > 0 && n + j < ny - 1) f[pos + n * nx] = Lu[n];
}

// Part 3, "Launch bounds" (kernel 4): kernel 3 with __launch_bounds__(256),
// the block size, so the compiler may give each thread more registers.
template <int m>
__global__ void __launch_bounds__(256)
    laplacian_kernel4(double *f, const double *u, int nx, int ny, int nz, double invhx2, double invhy2,
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
        if (n + j > 0 && n + j < ny - 1) f[pos + n * nx] = Lu[n];
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

// The posts' launch: blocks of bx x 1 x 1, a grid of (nx - 1) / bx + 1 by
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
            printf("check %s: max error %.3g (%s)\n", #kernel, err, err <= 1e-12 ? "ok" : "FAILED");  \
            if (!(err <= 1e-12)) failed = 1;                                                           \
            HIP_CHECK(hipMemset(f, 0, bytes));                                                         \
        }                                                                                              \
    } while (0)

int main(int argc, char **argv) {
    int small = 0, check = 0, nz = 0;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--small"))
            small = 1;
        else if (!strcmp(argv[a], "--check"))
            check = 1;
        else if (!nz && argv[a][strspn(argv[a], "0123456789")] == '\0' && (nz = atoi(argv[a])) >= 3)
            continue;
        else {
            fprintf(stderr, "usage: amd_laplacian [--small] [--check] [NZ >= 3]\n");
            return 2;
        }
    }
    const int nx = small ? SMALL_NX : NX, ny = small ? SMALL_NY : NY;
    if (!nz) nz = small ? SMALL_NZ : 512;
    const size_t points = (size_t)nx * ny * nz, bytes = points * sizeof(double);
    double *u = nullptr, *f = nullptr;
    HIP_CHECK(hipMalloc(&u, bytes));
    HIP_CHECK(hipMalloc(&f, bytes));
    HIP_CHECK(hipMemset(u, 0, bytes));
    HIP_CHECK(hipMemset(f, 0, bytes));
    // The posts' coefficients: 1 / h^2 per direction, h = 1 / (n - 1); their value does not matter here.
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
            fprintf(stderr, "amd_laplacian: out of host memory\n");
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
    LAUNCH(laplacian_kernel1<double>, 1, 256);
    LAUNCH(laplacian_kernel1_nontemporal<double>, 1, 256);
    LAUNCH(laplacian_kernel2<1>, 1, 256);
    LAUNCH(laplacian_kernel2<2>, 2, 256);
    LAUNCH(laplacian_kernel2<4>, 4, 256);
    LAUNCH(laplacian_kernel2<8>, 8, 256);
    LAUNCH(laplacian_kernel2<16>, 16, 256);
    LAUNCH(laplacian_kernel3<1>, 1, 256);
    LAUNCH(laplacian_kernel3<2>, 2, 256);
    LAUNCH(laplacian_kernel3<4>, 4, 256);
    LAUNCH(laplacian_kernel3<8>, 8, 256);
    LAUNCH(laplacian_kernel3<16>, 16, 256);
    LAUNCH(laplacian_kernel4<1>, 1, 256);
    LAUNCH(laplacian_kernel4<2>, 2, 256);
    LAUNCH(laplacian_kernel4<4>, 4, 256);
    LAUNCH(laplacian_kernel4<8>, 8, 256);
    LAUNCH(laplacian_kernel4<16>, 16, 256);
    LAUNCH(laplacian_kernel5<8>, 8, 256);
    LAUNCH(laplacian_kernel5<4>, 4, 256);
    LAUNCH(laplacian_kernel5_lb128<4>, 4, 128);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(u));
    HIP_CHECK(hipFree(f));
    free(host_u);
    free(want);
    free(got);
    printf("amd_laplacian: 20 kernels launched once each on %d x %d x %d doubles\n", nx, ny, nz);
    return failed;
}
