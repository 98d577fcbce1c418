// PolyBench/GPU 1.0 (Grauer-Gray, Xu, Searles, Ayalasomayajula and Cavazos,
// "Auto-tuning a High-Level Language Targeted to GPU Codes", InPar 2012): the
// hand-written CUDA kernels of its FDTD-2D benchmark (a 2-D finite-difference
// time-domain step on the fields ex, ey and hz). Repository
// github.com/sgrauerg/polybenchGpu, commit 5584aaa7d0be (2013-09-05), files
// CUDA/FDTD-2D/fdtd2d.cu and fdtd2d.cuh. The repository has no licence file
// (its README: "Copyright (c) 2012, 2013 University of Delaware"); its
// successor, PolyBench/ACC (github.com/cavazos-lab/PolyBench-ACC), is under a
// 3-clause BSD licence. Nothing is copied here: the kernels were written again
// from the originals; kernel names, launch shapes and arithmetic are theirs.
//
// Three kernels per time step t, one thread per grid point (i, j) of NX x NY
// floats, blocks of DIM_THREAD_BLOCK 32 x 8 (x along j), a grid of
// ceil(NY/32) x ceil(NX/8), launched in the original's order
// step1, step2, step3 for every t < TMAX:
//   fdtd_step1_kernel  row 0: ey = _fict_[t]; other rows:
//                      ey[i][j] -= 0.5 (hz[i][j] - hz[i-1][j])
//   fdtd_step2_kernel  j > 0: ex[i][j] -= 0.5 (hz[i][j] - hz[i][j-1])
//   fdtd_step3_kernel  i < NX-1, j < NY-1:
//                      hz[i][j] -= 0.7 (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j])
//
// Sizes: the paper's grid (Table 2) and the repository's default,
// NX = NY = 2048, but TMAX = 5 time steps instead of 500 (15 launches), for
// the trace time (about 30 s). --small: NX = 77, NY = 203, TMAX = 3 (not
// multiples of the block).
//
// Differences from the original: ex, ey and hz start from an integer hash in
// [0, 1) instead of the original's formulas (_fict_[t] = t, as there); the
// sizes are kernel arguments used as row strides, where the original compiles
// them in as constants; no timing, no CPU run unless --check.
#include <hip/hip_runtime.h>

#include "polybench.h" // the C headers and HIP_CHECK, shared by the PolyBench programs

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

__global__ void fdtd_step1_kernel(int nx, int ny, float *_fict_, float *ex, float *ey, float *hz, int t) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    (void)ex; // passed, unused, as in the original
    if (i < nx && j < ny) {
        const int at = i * ny + j;
        if (i == 0)
            ey[at] = _fict_[t]; // the source row
        else
            ey[at] = ey[at] - 0.5f * (hz[at] - hz[at - ny]);
    }
}

__global__ void fdtd_step2_kernel(int nx, int ny, float *ex, float *ey, float *hz, int t) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    (void)ey, (void)t; // passed, unused, as in the original
    if (i < nx && j < ny && j > 0) {
        const int at = i * ny + j;
        ex[at] = ex[at] - 0.5f * (hz[at] - hz[at - 1]);
    }
}

__global__ void fdtd_step3_kernel(int nx, int ny, float *ex, float *ey, float *hz, int t) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    (void)t; // passed, unused, as in the original
    if (i < nx - 1 && j < ny - 1) {
        const int at = i * ny + j;
        hz[at] = hz[at] - 0.7f * (ex[at + 1] - ex[at] + ey[at + ny] - ey[at]);
    }
}

// ---------------------------------------------------------------- host side
static uint32_t mix32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

// A value in [0, 1) with 16 bits, from a stream number and an index.
static float hash_value(uint32_t stream, uint32_t index) {
    return (float)(mix32(index * 0x9e3779b9U + stream * 0x85ebca6bU + 1U) & 0xffffU) / 65536.0f;
}

// Largest error relative to the reference (floor: 1e-2 of its largest
// magnitude). Prints the check line; returns 1 if above tol.
static int report(const char *kernel, const float *got, const double *want, size_t n, double tol) {
    double scale = 0.0, worst = 0.0;
    for (size_t p = 0; p < n; ++p) scale = fmax(scale, fabs(want[p]));
    for (size_t p = 0; p < n; ++p) {
        const double e = fabs((double)got[p] - want[p]) / fmax(fabs(want[p]), 1e-2 * scale);
        if (!(e <= worst)) worst = e; // NaN sticks and fails
    }
    const int ok = worst <= tol;
    printf("check %s: max error %.3g (%s)\n", kernel, worst, ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    bool small = false, check = false;
    for (int a = 1; a < argc; ++a) {
        if (strcmp(argv[a], "--small") == 0)
            small = true;
        else if (strcmp(argv[a], "--check") == 0)
            check = true;
        else {
            fprintf(stderr, "usage: %s [--small] [--check]\n", argv[0]);
            return 2;
        }
    }
    const int nx = small ? 77 : 2048, ny = small ? 203 : 2048, tmax = small ? 3 : 5;
    const size_t count = (size_t)nx * ny, bytes = count * sizeof(float);
    float *fict = (float *)malloc(tmax * sizeof(float));
    float *field[3]; // ex, ey, hz
    for (int f = 0; f < 3; ++f) {
        field[f] = (float *)malloc(bytes);
        if (!field[f]) {
            fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
            return 1;
        }
        for (size_t p = 0; p < count; ++p) field[f][p] = hash_value(41 + f, (uint32_t)p);
    }
    if (!fict) return 1;
    for (int t = 0; t < tmax; ++t) fict[t] = (float)t;

    float *d_fict = nullptr, *d_ex = nullptr, *d_ey = nullptr, *d_hz = nullptr;
    HIP_CHECK(hipMalloc(&d_fict, tmax * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_ex, bytes));
    HIP_CHECK(hipMalloc(&d_ey, bytes));
    HIP_CHECK(hipMalloc(&d_hz, bytes));
    HIP_CHECK(hipMemcpy(d_fict, fict, tmax * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_ex, field[0], bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_ey, field[1], bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_hz, field[2], bytes, hipMemcpyHostToDevice));

    const dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
    const dim3 grid((ny + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, (nx + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y);
    for (int t = 0; t < tmax; ++t) {
        fdtd_step1_kernel<<<grid, block>>>(nx, ny, d_fict, d_ex, d_ey, d_hz, t);
        HIP_CHECK(hipGetLastError());
        fdtd_step2_kernel<<<grid, block>>>(nx, ny, d_ex, d_ey, d_hz, t);
        HIP_CHECK(hipGetLastError());
        fdtd_step3_kernel<<<grid, block>>>(nx, ny, d_ex, d_ey, d_hz, t);
        HIP_CHECK(hipGetLastError());
    }
    HIP_CHECK(hipDeviceSynchronize());

    int failures = 0;
    if (check) {
        double *ref[3];
        float *got = (float *)malloc(bytes);
        for (int f = 0; f < 3; ++f) {
            ref[f] = (double *)malloc(count * sizeof(double));
            if (!ref[f]) return 1;
            for (size_t p = 0; p < count; ++p) ref[f][p] = field[f][p];
        }
        if (!got) return 1;
        double *ex = ref[0], *ey = ref[1], *hz = ref[2];
        for (int t = 0; t < tmax; ++t) {
            for (int j = 0; j < ny; ++j) ey[j] = fict[t];
            for (int i = 1; i < nx; ++i)
                for (int j = 0; j < ny; ++j)
                    ey[(size_t)i * ny + j] -= 0.5 * (hz[(size_t)i * ny + j] - hz[(size_t)(i - 1) * ny + j]);
            for (int i = 0; i < nx; ++i)
                for (int j = 1; j < ny; ++j)
                    ex[(size_t)i * ny + j] -= 0.5 * (hz[(size_t)i * ny + j] - hz[(size_t)i * ny + j - 1]);
            for (int i = 0; i < nx - 1; ++i)
                for (int j = 0; j < ny - 1; ++j) {
                    const size_t p = (size_t)i * ny + j;
                    hz[p] -= 0.7 * (ex[p + 1] - ex[p] + ey[p + ny] - ey[p]);
                }
        }
        // Each kernel's own field after the last step.
        HIP_CHECK(hipMemcpy(got, d_ey, bytes, hipMemcpyDeviceToHost));
        failures += report("fdtd_step1_kernel", got, ey, count, 1e-4);
        HIP_CHECK(hipMemcpy(got, d_ex, bytes, hipMemcpyDeviceToHost));
        failures += report("fdtd_step2_kernel", got, ex, count, 1e-4);
        HIP_CHECK(hipMemcpy(got, d_hz, bytes, hipMemcpyDeviceToHost));
        failures += report("fdtd_step3_kernel", got, hz, count, 1e-4);
        for (int f = 0; f < 3; ++f) free(ref[f]);
        free(got);
    }

    HIP_CHECK(hipFree(d_fict));
    HIP_CHECK(hipFree(d_ex));
    HIP_CHECK(hipFree(d_ey));
    HIP_CHECK(hipFree(d_hz));
    for (int f = 0; f < 3; ++f) free(field[f]);
    free(fict);
    printf("polybench_fdtd: FDTD-2D at %d x %d, %d time steps (%d launches)\n", nx, ny, tmax, 3 * tmax);
    return failures ? 1 : 0;
}
