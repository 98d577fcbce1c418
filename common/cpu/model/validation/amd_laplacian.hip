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
// Usage: amd_laplacian [NZ]. NZ (default 512, the posts' size) only for the
// validation's slices: every count grows by the same amount per z-plane, so
// validate.sh traces two thin slabs and extends their counts to NZ = 512.
#include <hip/hip_runtime.h>

#include <stdio.h>
#include <stdlib.h>

#define NX 512
#define NY 512

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

// The posts' launch: blocks of bx x 1 x 1, a grid of (nx - 1) / bx + 1 by
// (ny - 1) / m + 1 by nz blocks.
#define LAUNCH(kernel, m, bx)                                                                          \
    do {                                                                                               \
        hipLaunchKernelGGL(kernel, dim3((NX - 1) / (bx) + 1, (NY - 1) / (m) + 1, nz), dim3(bx, 1, 1), 0, 0, \
                           f, u, NX, NY, nz, invhx2, invhy2, invhz2, invhxyz2);                        \
        HIP_CHECK(hipGetLastError());                                                                  \
    } while (0)

int main(int argc, char **argv) {
    const int nz = argc > 1 ? atoi(argv[1]) : 512;
    if (nz < 3) {
        fprintf(stderr, "usage: amd_laplacian [NZ >= 3]\n");
        return 2;
    }
    const size_t bytes = (size_t)NX * NY * nz * sizeof(double);
    double *u = nullptr, *f = nullptr;
    HIP_CHECK(hipMalloc(&u, bytes));
    HIP_CHECK(hipMalloc(&f, bytes));
    HIP_CHECK(hipMemset(u, 0, bytes));
    HIP_CHECK(hipMemset(f, 0, bytes));
    // The posts' coefficients: 1 / h^2 per direction, h = 1 / (n - 1); their value does not matter here.
    const double invhx2 = (NX - 1.0) * (NX - 1.0), invhy2 = (NY - 1.0) * (NY - 1.0), invhz2 = (nz - 1.0) * (nz - 1.0);
    const double invhxyz2 = -2.0 * (invhx2 + invhy2 + invhz2);
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
    printf("amd_laplacian: 20 kernels launched once each on %d x %d x %d doubles\n", NX, NY, nz);
    return 0;
}
