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
#include <hip/hip_runtime.h>

#include <stdio.h>

#define NX 256
#define NY 256
#define NZ 256

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

// Part 1's launch: blocks of bx x 1 x 1, a grid of (nx - 1) / bx + 1 by
// (ny - 1) / m + 1 by nz blocks.
#define LAUNCH(kernel, m, bx)                                                                          \
    do {                                                                                               \
        hipLaunchKernelGGL(kernel, dim3((NX - 1) / (bx) + 1, (NY - 1) / (m) + 1, NZ), dim3(bx, 1, 1), 0, 0, \
                           f, u, NX, NY, NZ, invhx2, invhy2, invhz2, invhxyz2);                        \
        HIP_CHECK(hipGetLastError());                                                                  \
    } while (0)

int main() {
    const size_t bytes = (size_t)NX * NY * NZ * sizeof(double);
    double *u = nullptr, *f = nullptr;
    HIP_CHECK(hipMalloc(&u, bytes));
    HIP_CHECK(hipMalloc(&f, bytes));
    HIP_CHECK(hipMemset(u, 0, bytes));
    HIP_CHECK(hipMemset(f, 0, bytes));
    const double invhx2 = (NX - 1.0) * (NX - 1.0), invhy2 = (NY - 1.0) * (NY - 1.0), invhz2 = (NZ - 1.0) * (NZ - 1.0);
    const double invhxyz2 = -2.0 * (invhx2 + invhy2 + invhz2);
    LAUNCH(laplacian_kernel5<4>, 4, 256);       // MI50
    LAUNCH(laplacian_kernel5_lb128<4>, 4, 128); // MI100
    LAUNCH(laplacian_kernel5<8>, 8, 256);       // MI210, MI250, MI250X
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(u));
    HIP_CHECK(hipFree(f));
    printf("amd_laplacian_gpus: 3 kernels launched once each on %d x %d x %d doubles\n", NX, NY, NZ);
    return 0;
}
