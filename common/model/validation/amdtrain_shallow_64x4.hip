// Project "amdtrain": the five kernels of the 2D shallow-water solver of AMD's
// HPC Training Examples, "Profiling by example", novice track, stage 4
// (github.com/amd/HPCTrainingExamples, commit aaaa72d4dca9, MIT licence;
// Profiling-by-example/shallow-water/novice/4_block_64x4/shallow.hip and
// README.md), written here from reading those files (no text copied). The
// kernels are stage 0's (amdtrain_shallow.hip, whose code this file repeats);
// stages 1-4 change the size and the launch. Single precision, a 2048 x 2048
// interior with a one-cell ghost ring (row pitch 2050), the stage's launches:
// 64 x 4 thread blocks over the interior (a 32 x 512 grid) for init_gaussian,
// compute_rhs, update_stage and final_update, and 8 blocks of 256 threads
// (ceil(max(NX, NY) / 256)) for apply_reflect_bc.
//
// - init_gaussian: still water with a Gaussian bump, h = h0 + amp * exp(...),
//   hu = hv = 0, one interior cell a thread.
// - apply_reflect_bc: thread t copies the ghost cells of row t + 1 (left and
//   right, hu negated) and of column t + 1 (bottom and top, hv negated);
//   thread 0 also the four corners.
// - compute_rhs: per interior cell, h, hu, hv at the cell and its four
//   neighbours; the central differences of the x and y fluxes
//   (hu, hu^2/h + g h^2 / 2, hu hv / h and hv, hu hv / h, hv^2/h + g h^2 / 2,
//   with h floored at 1e-6), plus a Laplacian viscosity nu = 0.02 (sqrt(g h) +
//   |u| + |v|), whose five-point sums read the four neighbours again.
// - update_stage: tmp = state + a dt k, three fields.
// - final_update: state += dt (k1 + 2 k2 + 2 k3 + k4) / 6, three fields.
//
// Published: the stage's README gives compute_rhs's total time in the kernel
// trace of the 500-step run (2000 launches) on an MI300A (SPX mode), at this
// size and launch.
//
// --small runs 256 x 256, a multiple of the blocks: apply_reflect_bc is
// race-free only when NX = NY and the BC grid's threads (a multiple of 256)
// are no more than NY (at other sizes its spare threads copy ghost cells that
// thread 0 writes), and the solver's sizes are such multiples.
//
// Differences: NX and NY are kernel arguments (nx, ny), not compile-time
// constants, so that --small can run another size; the state and the k2-k4
// arrays come from an integer hash (the solver starts from init_gaussian and
// runs 500 RK4 steps); each kernel runs once, in the solver's order within a
// step: init_gaussian (into the stage arrays, which update_stage then
// overwrites), apply_reflect_bc, compute_rhs (k1), update_stage, final_update;
// compute_rhs's primitive velocities at the four neighbours, which the
// original computes and never uses, are left out (dead code); its flux
// helpers are functions rather than lambdas.
#include <hip/hip_runtime.h>

#include <math.h>
#include <stdint.h>
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

#define VALIDATION_N 2048 // interior cells per side (stage 4's NX = NY)
#define SMALL_N 256      // --small (a multiple of 256: see apply_reflect_bc)
#define BLOCK_X 64
#define BLOCK_Y 4
#define BC_THREADS 256

#define CELL_DX 1.0f
#define CELL_DY 1.0f
#define GRAVITY 9.81f
#define COURANT 0.25f
#define VISCOSITY 0.02f

__host__ __device__ inline int cell(int i, int j, int pitch) { return j * pitch + i; }

// ---- Kernels --------------------------------------------------------------------

__global__ void init_gaussian(float *__restrict__ h, float *__restrict__ hu, float *__restrict__ hv, int pitch,
                              float h0, float amp, float x0, float y0, float sx, float sy, int nx, int ny) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    const int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i > nx || j > ny) return;
    const float px = (i - 1) * CELL_DX, py = (j - 1) * CELL_DY;
    const float rx = (px - x0) / sx, ry = (py - y0) / sy;
    const float bump = amp * expf(-0.5f * (rx * rx + ry * ry));
    const int c = cell(i, j, pitch);
    h[c] = h0 + bump;
    hu[c] = 0.0f;
    hv[c] = 0.0f;
}

// Thread t: row t + 1's left and right ghosts, column t + 1's bottom and top
// ghosts; thread 0 also the corners. Race-free when nx = ny and the threads
// number no more than nx (a multiple of 256, as the solver's sizes are).
__global__ void apply_reflect_bc(float *__restrict__ h, float *__restrict__ hu, float *__restrict__ hv, int pitch,
                                 int nx, int ny) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t <= ny) {
        const int j = t + 1;
        h[cell(0, j, pitch)] = h[cell(1, j, pitch)];
        hu[cell(0, j, pitch)] = -hu[cell(1, j, pitch)];
        hv[cell(0, j, pitch)] = hv[cell(1, j, pitch)];
        h[cell(nx + 1, j, pitch)] = h[cell(nx, j, pitch)];
        hu[cell(nx + 1, j, pitch)] = -hu[cell(nx, j, pitch)];
        hv[cell(nx + 1, j, pitch)] = hv[cell(nx, j, pitch)];
    }
    if (t <= nx) {
        const int i = t + 1;
        h[cell(i, 0, pitch)] = h[cell(i, 1, pitch)];
        hu[cell(i, 0, pitch)] = hu[cell(i, 1, pitch)];
        hv[cell(i, 0, pitch)] = -hv[cell(i, 1, pitch)];
        h[cell(i, ny + 1, pitch)] = h[cell(i, ny, pitch)];
        hu[cell(i, ny + 1, pitch)] = hu[cell(i, ny, pitch)];
        hv[cell(i, ny + 1, pitch)] = -hv[cell(i, ny, pitch)];
    }
    if (t == 0) {
        h[cell(0, 0, pitch)] = h[cell(1, 1, pitch)];
        hu[cell(0, 0, pitch)] = -hu[cell(1, 1, pitch)];
        hv[cell(0, 0, pitch)] = -hv[cell(1, 1, pitch)];
        h[cell(nx + 1, 0, pitch)] = h[cell(nx, 1, pitch)];
        hu[cell(nx + 1, 0, pitch)] = -hu[cell(nx, 1, pitch)];
        hv[cell(nx + 1, 0, pitch)] = -hv[cell(nx, 1, pitch)];
        h[cell(0, ny + 1, pitch)] = h[cell(1, ny, pitch)];
        hu[cell(0, ny + 1, pitch)] = -hu[cell(1, ny, pitch)];
        hv[cell(0, ny + 1, pitch)] = -hv[cell(1, ny, pitch)];
        h[cell(nx + 1, ny + 1, pitch)] = h[cell(nx, ny, pitch)];
        hu[cell(nx + 1, ny + 1, pitch)] = -hu[cell(nx, ny, pitch)];
        hv[cell(nx + 1, ny + 1, pitch)] = -hv[cell(nx, ny, pitch)];
    }
}

#define DEPTH_FLOOR 1e-6f

// The flux components (x: F, y: G) from a cell's conserved values.
__host__ __device__ inline float flux_x_mom(float d, float mx) {
    const float u = mx / fmaxf(d, DEPTH_FLOOR);
    return mx * u + 0.5f * GRAVITY * d * d;
}
// (The original also forms mx / d here and does not use it.)
__host__ __device__ inline float flux_cross(float d, float mx, float my) {
    const float v = my / fmaxf(d, DEPTH_FLOOR);
    return mx * v;
}
__host__ __device__ inline float flux_y_mom(float d, float my) {
    const float v = my / fmaxf(d, DEPTH_FLOOR);
    return my * v + 0.5f * GRAVITY * d * d;
}

// One cell's right-hand side; the same code serves the host check.
__host__ __device__ inline void rhs_cell(const float *__restrict__ h, const float *__restrict__ hu,
                                         const float *__restrict__ hv, int i, int j, int pitch, float *out_h,
                                         float *out_hu, float *out_hv) {
    const int c = cell(i, j, pitch);
    const int e = cell(i + 1, j, pitch), w = cell(i - 1, j, pitch);
    const int nn = cell(i, j + 1, pitch), s = cell(i, j - 1, pitch);

    const float hc = h[c], huc = hu[c], hvc = hv[c];
    const float uc = huc / fmaxf(hc, DEPTH_FLOOR);
    const float vc = hvc / fmaxf(hc, DEPTH_FLOOR);

    const float he = h[e], hue = hu[e], hve = hv[e];
    const float hw = h[w], huw = hu[w], hvw = hv[w];
    const float hn = h[nn], hun = hu[nn], hvn = hv[nn];
    const float hs = h[s], hus = hu[s], hvs = hv[s];

    const float half_dx = 0.5f / CELL_DX, half_dy = 0.5f / CELL_DY;
    const float dF1 = (hue - huw) * half_dx;
    const float dF2 = (flux_x_mom(he, hue) - flux_x_mom(hw, huw)) * half_dx;
    const float dF3 = (flux_cross(he, hue, hve) - flux_cross(hw, huw, hvw)) * half_dx;
    const float dG1 = (hvn - hvs) * half_dy;
    const float dG2 = (flux_cross(hn, hun, hvn) - flux_cross(hs, hus, hvs)) * half_dy;
    const float dG3 = (flux_y_mom(hn, hvn) - flux_y_mom(hs, hvs)) * half_dy;

    float rh = -(dF1 + dG1);
    float rhu = -(dF2 + dG2);
    float rhv = -(dF3 + dG3);

    const float speed = sqrtf(GRAVITY * fmaxf(hc, DEPTH_FLOOR)) + fabsf(uc) + fabsf(vc);
    const float nu = VISCOSITY * speed * fmaxf(CELL_DX, CELL_DY);

    // The five-point sums read the neighbours again, as the original does.
    const float lh = (h[e] - 2.f * hc + h[w]) / (CELL_DX * CELL_DX) + (h[nn] - 2.f * hc + h[s]) / (CELL_DY * CELL_DY);
    const float lhu =
        (hu[e] - 2.f * huc + hu[w]) / (CELL_DX * CELL_DX) + (hu[nn] - 2.f * huc + hu[s]) / (CELL_DY * CELL_DY);
    const float lhv =
        (hv[e] - 2.f * hvc + hv[w]) / (CELL_DX * CELL_DX) + (hv[nn] - 2.f * hvc + hv[s]) / (CELL_DY * CELL_DY);

    *out_h = rh + nu * lh;
    *out_hu = rhu + nu * lhu;
    *out_hv = rhv + nu * lhv;
}

__global__ void compute_rhs(const float *__restrict__ h, const float *__restrict__ hu, const float *__restrict__ hv,
                            float *__restrict__ dhdt, float *__restrict__ dhudt, float *__restrict__ dhvdt, int pitch,
                            int nx, int ny) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    const int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i > nx || j > ny) return;
    float a, b, c;
    rhs_cell(h, hu, hv, i, j, pitch, &a, &b, &c);
    const int k = cell(i, j, pitch);
    dhdt[k] = a;
    dhudt[k] = b;
    dhvdt[k] = c;
}

__global__ void update_stage(float *__restrict__ h_tmp, float *__restrict__ hu_tmp, float *__restrict__ hv_tmp,
                             const float *__restrict__ h, const float *__restrict__ hu, const float *__restrict__ hv,
                             const float *__restrict__ k_h, const float *__restrict__ k_hu,
                             const float *__restrict__ k_hv, float a_dt, int pitch, int nx, int ny) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    const int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i > nx || j > ny) return;
    const int c = cell(i, j, pitch);
    h_tmp[c] = h[c] + a_dt * k_h[c];
    hu_tmp[c] = hu[c] + a_dt * k_hu[c];
    hv_tmp[c] = hv[c] + a_dt * k_hv[c];
}

__global__ void final_update(float *__restrict__ h, float *__restrict__ hu, float *__restrict__ hv,
                             const float *__restrict__ k1_h, const float *__restrict__ k1_hu,
                             const float *__restrict__ k1_hv, const float *__restrict__ k2_h,
                             const float *__restrict__ k2_hu, const float *__restrict__ k2_hv,
                             const float *__restrict__ k3_h, const float *__restrict__ k3_hu,
                             const float *__restrict__ k3_hv, const float *__restrict__ k4_h,
                             const float *__restrict__ k4_hu, const float *__restrict__ k4_hv, float dt, int pitch,
                             int nx, int ny) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    const int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i > nx || j > ny) return;
    const int c = cell(i, j, pitch);
    const float sh = (k1_h[c] + 2.f * k2_h[c] + 2.f * k3_h[c] + k4_h[c]) * (dt / 6.f);
    const float shu = (k1_hu[c] + 2.f * k2_hu[c] + 2.f * k3_hu[c] + k4_hu[c]) * (dt / 6.f);
    const float shv = (k1_hv[c] + 2.f * k2_hv[c] + 2.f * k3_hv[c] + k4_hv[c]) * (dt / 6.f);
    h[c] += sh;
    hu[c] += shu;
    hv[c] += shv;
}

// ---- Host -----------------------------------------------------------------------

static uint32_t hash32(uint32_t v) {
    v ^= v >> 16;
    v *= 0x7feb352dU;
    v ^= v >> 15;
    v *= 0x846ca68bU;
    v ^= v >> 16;
    return v;
}

// A value in [0, 1) from an index and a salt.
static float unit_value(uint32_t idx, uint32_t salt) {
    return (float)(hash32(idx * 2654435761U + salt) >> 8) / 16777216.0f;
}

// Largest |got - want| / (1 + |want|) over the cells the kernel writes.
static double field_error(const float *got, const float *want, const unsigned char *mask, size_t count) {
    double worst = 0.0;
    for (size_t k = 0; k < count; k++) {
        if (!mask[k]) continue;
        const double e = fabs((double)got[k] - (double)want[k]) / (1.0 + fabs((double)want[k]));
        if (e > worst) worst = e;
    }
    return worst;
}

static int report(const char *name, double err, double tol) {
    const int ok = err <= tol;
    printf("check %s: max error %.3g (%s)\n", name, err, ok ? "ok" : "FAILED");
    return ok;
}

enum { F_H, F_HU, F_HV, F_TH, F_THU, F_THV, F_K1H, F_K1HU, F_K1HV, F_K2H, F_K2HU, F_K2HV,
       F_K3H, F_K3HU, F_K3HV, F_K4H, F_K4HU, F_K4HV, NUM_FIELDS };

int main(int argc, char **argv) {
    int small = 0, check = 0;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--small") == 0) small = 1;
        else if (strcmp(argv[a], "--check") == 0) check = 1;
        else {
            fprintf(stderr, "usage: %s [--small] [--check]\n", argv[0]);
            return 2;
        }
    }
    const int nx = small ? SMALL_N : VALIDATION_N, ny = nx;
    const int pitch = nx + 2;
    const size_t cells = (size_t)(nx + 2) * (ny + 2);
    const size_t bytes = cells * sizeof(float);

    // Host fields: the state near rest depth 1 with small momenta, k2-k4 small.
    float *host[NUM_FIELDS];
    for (int f = 0; f < NUM_FIELDS; f++) {
        host[f] = (float *)malloc(bytes);
        if (!host[f]) {
            fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
            return 1;
        }
        for (size_t k = 0; k < cells; k++) {
            const float u = unit_value((uint32_t)k, 17u * f + 1u);
            host[f][k] = f == F_H ? 0.9f + 0.2f * u : 0.2f * (u - 0.5f);
        }
    }

    float *dev[NUM_FIELDS];
    for (int f = 0; f < NUM_FIELDS; f++) {
        HIP_CHECK(hipMalloc(&dev[f], bytes));
        HIP_CHECK(hipMemcpy(dev[f], host[f], bytes, hipMemcpyHostToDevice));
    }

    const dim3 block(BLOCK_X, BLOCK_Y);
    const dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
    const dim3 grid_bc(((nx > ny ? nx : ny) + BC_THREADS - 1) / BC_THREADS);

    const float h0 = 1.0f, amp = 0.2f;
    const float x0 = 0.5f * (nx - 1) * CELL_DX, y0 = 0.5f * (ny - 1) * CELL_DY;
    const float sx = 20.0f, sy = 20.0f;
    const float dt = COURANT * fminf(CELL_DX, CELL_DY) / (sqrtf(GRAVITY * (h0 + amp)) + 1e-6f);

    // What each kernel should leave, computed only under --check.
    float *out = check ? (float *)malloc(3 * bytes) : nullptr;
    float *want = check ? (float *)malloc(3 * bytes) : nullptr;
    unsigned char *interior = check ? (unsigned char *)calloc(cells, 1) : nullptr;
    unsigned char *ghosts = check ? (unsigned char *)calloc(cells, 1) : nullptr;
    if (check && (!out || !want || !interior || !ghosts)) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    if (check)
        for (int j = 0; j <= ny + 1; j++)
            for (int i = 0; i <= nx + 1; i++) {
                const int in = i >= 1 && i <= nx && j >= 1 && j <= ny;
                interior[cell(i, j, pitch)] = in;
                ghosts[cell(i, j, pitch)] = !in;
            }
    int failed = 0;

    // 1. init_gaussian, into the stage arrays.
    init_gaussian<<<grid, block>>>(dev[F_TH], dev[F_THU], dev[F_THV], pitch, h0, amp, x0, y0, sx, sy, nx, ny);
    HIP_CHECK(hipGetLastError());
    if (check) {
        for (int f = 0; f < 3; f++)
            HIP_CHECK(hipMemcpy(out + f * cells, dev[F_TH + f], bytes, hipMemcpyDeviceToHost));
        for (int j = 1; j <= ny; j++)
            for (int i = 1; i <= nx; i++) {
                const float rx = ((i - 1) * CELL_DX - x0) / sx, ry = ((j - 1) * CELL_DY - y0) / sy;
                const int c = cell(i, j, pitch);
                want[c] = h0 + amp * expf(-0.5f * (rx * rx + ry * ry));
                want[cells + c] = 0.0f;
                want[2 * cells + c] = 0.0f;
            }
        double e = 0.0;
        for (int f = 0; f < 3; f++) e = fmax(e, field_error(out + f * cells, want + f * cells, interior, cells));
        failed += !report("init_gaussian", e, 1e-5);
    }

    // 2. apply_reflect_bc on the state.
    apply_reflect_bc<<<grid_bc, BC_THREADS>>>(dev[F_H], dev[F_HU], dev[F_HV], pitch, nx, ny);
    HIP_CHECK(hipGetLastError());
    if (check) {
        for (int f = 0; f < 3; f++) {
            HIP_CHECK(hipMemcpy(out + f * cells, dev[F_H + f], bytes, hipMemcpyDeviceToHost));
            memcpy(want + f * cells, host[F_H + f], bytes);
        }
        float *wh = want, *whu = want + cells, *whv = want + 2 * cells;
        for (int j = 1; j <= ny; j++) {
            wh[cell(0, j, pitch)] = wh[cell(1, j, pitch)];
            whu[cell(0, j, pitch)] = -whu[cell(1, j, pitch)];
            whv[cell(0, j, pitch)] = whv[cell(1, j, pitch)];
            wh[cell(nx + 1, j, pitch)] = wh[cell(nx, j, pitch)];
            whu[cell(nx + 1, j, pitch)] = -whu[cell(nx, j, pitch)];
            whv[cell(nx + 1, j, pitch)] = whv[cell(nx, j, pitch)];
        }
        for (int i = 1; i <= nx; i++) {
            wh[cell(i, 0, pitch)] = wh[cell(i, 1, pitch)];
            whu[cell(i, 0, pitch)] = whu[cell(i, 1, pitch)];
            whv[cell(i, 0, pitch)] = -whv[cell(i, 1, pitch)];
            wh[cell(i, ny + 1, pitch)] = wh[cell(i, ny, pitch)];
            whu[cell(i, ny + 1, pitch)] = whu[cell(i, ny, pitch)];
            whv[cell(i, ny + 1, pitch)] = -whv[cell(i, ny, pitch)];
        }
        const int ci[4] = {0, nx + 1, 0, nx + 1}, cj[4] = {0, 0, ny + 1, ny + 1};
        const int si[4] = {1, nx, 1, nx}, sj[4] = {1, 1, ny, ny};
        for (int q = 0; q < 4; q++) {
            const int d = cell(ci[q], cj[q], pitch), s = cell(si[q], sj[q], pitch);
            wh[d] = wh[s];
            whu[d] = -whu[s];
            whv[d] = -whv[s];
        }
        double e = 0.0;
        for (int f = 0; f < 3; f++) e = fmax(e, field_error(out + f * cells, want + f * cells, ghosts, cells));
        failed += !report("apply_reflect_bc", e, 0.0);
        // The host state now has its ghosts, for the next references.
        for (int f = 0; f < 3; f++) memcpy(host[F_H + f], want + f * cells, bytes);
    }

    // 3. compute_rhs: k1 from the state.
    compute_rhs<<<grid, block>>>(dev[F_H], dev[F_HU], dev[F_HV], dev[F_K1H], dev[F_K1HU], dev[F_K1HV], pitch, nx, ny);
    HIP_CHECK(hipGetLastError());
    if (check) {
        for (int f = 0; f < 3; f++)
            HIP_CHECK(hipMemcpy(out + f * cells, dev[F_K1H + f], bytes, hipMemcpyDeviceToHost));
        for (int j = 1; j <= ny; j++)
            for (int i = 1; i <= nx; i++) {
                const int c = cell(i, j, pitch);
                rhs_cell(host[F_H], host[F_HU], host[F_HV], i, j, pitch, &want[c], &want[cells + c],
                         &want[2 * cells + c]);
            }
        double e = 0.0;
        for (int f = 0; f < 3; f++) e = fmax(e, field_error(out + f * cells, want + f * cells, interior, cells));
        failed += !report("compute_rhs", e, 1e-4);
        // k1 as the device computed it feeds the next kernels' references.
        for (int f = 0; f < 3; f++) memcpy(host[F_K1H + f], out + f * cells, bytes);
    }

    // 4. update_stage: the stage state for k2.
    update_stage<<<grid, block>>>(dev[F_TH], dev[F_THU], dev[F_THV], dev[F_H], dev[F_HU], dev[F_HV], dev[F_K1H],
                                  dev[F_K1HU], dev[F_K1HV], 0.5f * dt, pitch, nx, ny);
    HIP_CHECK(hipGetLastError());
    if (check) {
        for (int f = 0; f < 3; f++)
            HIP_CHECK(hipMemcpy(out + f * cells, dev[F_TH + f], bytes, hipMemcpyDeviceToHost));
        for (int f = 0; f < 3; f++)
            for (size_t k = 0; k < cells; k++)
                want[f * cells + k] = host[F_H + f][k] + 0.5f * dt * host[F_K1H + f][k];
        double e = 0.0;
        for (int f = 0; f < 3; f++) e = fmax(e, field_error(out + f * cells, want + f * cells, interior, cells));
        failed += !report("update_stage", e, 1e-6);
    }

    // 5. final_update of the state.
    final_update<<<grid, block>>>(dev[F_H], dev[F_HU], dev[F_HV], dev[F_K1H], dev[F_K1HU], dev[F_K1HV], dev[F_K2H],
                                  dev[F_K2HU], dev[F_K2HV], dev[F_K3H], dev[F_K3HU], dev[F_K3HV], dev[F_K4H],
                                  dev[F_K4HU], dev[F_K4HV], dt, pitch, nx, ny);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    if (check) {
        for (int f = 0; f < 3; f++)
            HIP_CHECK(hipMemcpy(out + f * cells, dev[F_H + f], bytes, hipMemcpyDeviceToHost));
        for (int f = 0; f < 3; f++)
            for (size_t k = 0; k < cells; k++)
                want[f * cells + k] = host[F_H + f][k] + (host[F_K1H + f][k] + 2.f * host[F_K2H + f][k] +
                                                          2.f * host[F_K3H + f][k] + host[F_K4H + f][k]) *
                                                             (dt / 6.f);
        double e = 0.0;
        for (int f = 0; f < 3; f++) e = fmax(e, field_error(out + f * cells, want + f * cells, interior, cells));
        failed += !report("final_update", e, 1e-6);
    }

    for (int f = 0; f < NUM_FIELDS; f++) {
        HIP_CHECK(hipFree(dev[f]));
        free(host[f]);
    }
    free(out);
    free(want);
    free(interior);
    free(ghosts);
    if (failed) return 1;
    printf("amdtrain_shallow_64x4: 5 kernels on a %d x %d grid (blocks of %d x %d)\n", nx, ny, BLOCK_X, BLOCK_Y);
    return 0;
}
