// Rodinia 3.1 (CUDA), application hotspot: calculate_temp, the chip-temperature
// stencil with "pyramid" ghost zones (Meng and Skadron, ICS 2009). Each 16 x 16
// block loads a 16 x 16 tile of temperature and power into shared memory,
// advances it `iteration` time steps in shared memory (the valid area shrinking
// by one cell per side per step) and writes back its inner (16 - 2 * iteration)^2
// cells; the host launches it ceil(sim_time / pyramid_height) times, ping-ponging
// two temperature buffers, as compute_tran_temp does.
//
// Source read: github.com/yuhc/gpu-rodinia (a mirror of Rodinia 3.1, University
// of Virginia; LICENSE: the suite's BSD-style licence), commit
// 9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4, files cuda/hotspot/hotspot.cu,
// cuda/hotspot/run. Written here from that reading; no code copied.
//
// Kept: BLOCK_SIZE 16 (the default; blocks of 16 x 16), three 16 x 16 float
// shared tiles, the grid of ceil(cols / (16 - 2 * pyramid_height)) blocks per
// side, the clamped N/S/E/W neighbours, the two barriers per step and the
// early break after the last, the stencil's arithmetic with its double
// constant 2.0 (so that part is evaluated in double, as nvcc does), and the
// host's chip constants (Cap, Rx, Ry, Rz and step computed as hotspot.cu does).
//
// Changed: the suite reads temp_N and power_N files; here both are generated
// from an integer hash (temperatures 320-340 K, powers 0-0.005), so a
// generated grid need not be the size of a data file.
//
// Sizes: the run script uses a 512 x 512 grid, pyramid height 2, 2 steps (one
// launch); the suite's OpenMP and OpenCL run scripts read 1024 x 1024 grids
// (temp_1024, power_1024). The validation size is 1024 x 1024, pyramid height
// 2 as the CUDA run script, 4 steps: two launches of 86 x 86 blocks, so the
// second reads what the first wrote, as in a real run. --small: 100 x 100, pyramid height 2,
// 5 steps (launches of 2, 2 and 1 steps; 100 is not a multiple of 12).
#include <hip/hip_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE 16

// chip constants of hotspot.cu
#define MAX_PD (3.0e6)
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
#define FACTOR_CHIP 0.5

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

#define WITHIN(v, lo, hi) ((v) >= (lo) && (v) <= (hi))

__global__ void calculate_temp(int iteration, float *power, float *temp_src, float *temp_dst,
                               int grid_cols, int grid_rows, int border_cols, int border_rows,
                               float Cap, float Rx, float Ry, float Rz, float step,
                               float time_elapsed) {
    __shared__ float t_tile[BLOCK_SIZE][BLOCK_SIZE];  // temperatures being advanced
    __shared__ float p_tile[BLOCK_SIZE][BLOCK_SIZE];  // power
    __shared__ float t_next[BLOCK_SIZE][BLOCK_SIZE];  // this step's results

    (void)time_elapsed; // passed but unused, as in the original
    const float ambient = 80.0;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const float dt_over_cap = step / Cap;
    const float gx = 1 / Rx, gy = 1 / Ry, gz = 1 / Rz;

    // the inner tile this block finally writes, and where the 16 x 16 tile starts
    const int inner = BLOCK_SIZE - iteration * 2;
    const int y0 = inner * blockIdx.y - border_rows;
    const int x0 = inner * blockIdx.x - border_cols;
    const int y1 = y0 + BLOCK_SIZE - 1;
    const int x1 = x0 + BLOCK_SIZE - 1;

    const int gy_idx = y0 + ty, gx_idx = x0 + tx;
    const int at = grid_cols * gy_idx + gx_idx;
    if (WITHIN(gy_idx, 0, grid_rows - 1) && WITHIN(gx_idx, 0, grid_cols - 1)) {
        t_tile[ty][tx] = temp_src[at];
        p_tile[ty][tx] = power[at];
    }
    __syncthreads();

    // the part of the tile inside the grid; neighbours are clamped to it
    const int lo_y = (y0 < 0) ? -y0 : 0;
    const int hi_y = (y1 > grid_rows - 1) ? BLOCK_SIZE - 1 - (y1 - grid_rows + 1) : BLOCK_SIZE - 1;
    const int lo_x = (x0 < 0) ? -x0 : 0;
    const int hi_x = (x1 > grid_cols - 1) ? BLOCK_SIZE - 1 - (x1 - grid_cols + 1) : BLOCK_SIZE - 1;
    const int up = (ty - 1 < lo_y) ? lo_y : ty - 1;
    const int down = (ty + 1 > hi_y) ? hi_y : ty + 1;
    const int left = (tx - 1 < lo_x) ? lo_x : tx - 1;
    const int right = (tx + 1 > hi_x) ? hi_x : tx + 1;

    bool wrote = false;
    for (int s = 0; s < iteration; s++) {
        wrote = false;
        if (WITHIN(tx, s + 1, BLOCK_SIZE - s - 2) && WITHIN(ty, s + 1, BLOCK_SIZE - s - 2) &&
            WITHIN(tx, lo_x, hi_x) && WITHIN(ty, lo_y, hi_y)) {
            wrote = true;
            t_next[ty][tx] =
                t_tile[ty][tx] +
                dt_over_cap * (p_tile[ty][tx] +
                               (t_tile[down][tx] + t_tile[up][tx] - 2.0 * t_tile[ty][tx]) * gy +
                               (t_tile[ty][right] + t_tile[ty][left] - 2.0 * t_tile[ty][tx]) * gx +
                               (ambient - t_tile[ty][tx]) * gz);
        }
        __syncthreads();
        if (s == iteration - 1) break;
        if (wrote) t_tile[ty][tx] = t_next[ty][tx];
        __syncthreads();
    }
    if (wrote) temp_dst[at] = t_next[ty][tx];
}

static unsigned mix32(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
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
    const int side = small ? 100 : 1024;
    const int pyramid_height = 2;
    const int total_iterations = small ? 5 : 4;
    const int rows = side, cols = side, size = rows * cols;

    const int border_cols = pyramid_height, border_rows = pyramid_height; // EXPAND_RATE 2 / 2
    const int inner = BLOCK_SIZE - pyramid_height * 2;
    const int block_cols = (cols + inner - 1) / inner, block_rows = (rows + inner - 1) / inner;

    float *h_temp = (float *)malloc(sizeof(float) * size);
    float *h_power = (float *)malloc(sizeof(float) * size);
    for (int i = 0; i < size; i++) {
        h_temp[i] = 320.0f + (float)(mix32(2u * i) % 20000u) * 0.001f;
        h_power[i] = (float)(mix32(2u * i + 1u) % 5000u) * 1.0e-6f;
    }

    // the chip's constants, as compute_tran_temp computes them
    const float t_chip = 0.0005f, chip_height = 0.016f, chip_width = 0.016f;
    const float grid_height = chip_height / rows, grid_width = chip_width / cols;
    const float Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * grid_width * grid_height;
    const float Rx = grid_width / (2.0 * K_SI * t_chip * grid_height);
    const float Ry = grid_height / (2.0 * K_SI * t_chip * grid_width);
    const float Rz = t_chip / (K_SI * grid_height * grid_width);
    const float max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
    const float step = PRECISION / max_slope;
    const float time_elapsed = 0.001f;

    float *MatrixTemp[2] = {nullptr, nullptr}, *MatrixPower = nullptr;
    HIP_CHECK(hipMalloc(&MatrixTemp[0], sizeof(float) * size));
    HIP_CHECK(hipMalloc(&MatrixTemp[1], sizeof(float) * size));
    HIP_CHECK(hipMalloc(&MatrixPower, sizeof(float) * size));
    HIP_CHECK(hipMemcpy(MatrixTemp[0], h_temp, sizeof(float) * size, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(MatrixPower, h_power, sizeof(float) * size, hipMemcpyHostToDevice));

    const dim3 block(BLOCK_SIZE, BLOCK_SIZE), grid(block_cols, block_rows);
    int src = 1, dst = 0, launches = 0;
    for (int t = 0; t < total_iterations; t += pyramid_height) {
        const int swap = src;
        src = dst;
        dst = swap;
        const int steps = pyramid_height < total_iterations - t ? pyramid_height : total_iterations - t;
        calculate_temp<<<grid, block>>>(steps, MatrixPower, MatrixTemp[src], MatrixTemp[dst], cols, rows,
                                        border_cols, border_rows, Cap, Rx, Ry, Rz, step, time_elapsed);
        HIP_CHECK(hipGetLastError());
        launches++;
    }
    float *got = (float *)malloc(sizeof(float) * size);
    HIP_CHECK(hipMemcpy(got, MatrixTemp[dst], sizeof(float) * size, hipMemcpyDeviceToHost));
    printf("rodinia_hotspot: %d x %d grid, pyramid height %d, %d steps: %d launches of %d x %d blocks of "
           "16 x 16\n",
           rows, cols, pyramid_height, total_iterations, launches, block_cols, block_rows);

    int failed = 0;
    if (check) {
        // Plain Jacobi steps over the whole grid, neighbours clamped at the edges
        // (what the pyramid computes), with the kernel's expression and types.
        float *a = (float *)malloc(sizeof(float) * size), *b = (float *)malloc(sizeof(float) * size);
        memcpy(a, h_temp, sizeof(float) * size);
        const float dt_over_cap = step / Cap, gx = 1 / Rx, gy = 1 / Ry, gz = 1 / Rz;
        const float ambient = 80.0;
        for (int s = 0; s < total_iterations; s++) {
            for (int r = 0; r < rows; r++)
                for (int c = 0; c < cols; c++) {
                    const float v = a[r * cols + c];
                    const float n = a[(r > 0 ? r - 1 : r) * cols + c];
                    const float so = a[(r < rows - 1 ? r + 1 : r) * cols + c];
                    const float w = a[r * cols + (c > 0 ? c - 1 : c)];
                    const float e = a[r * cols + (c < cols - 1 ? c + 1 : c)];
                    b[r * cols + c] = v + dt_over_cap * (h_power[r * cols + c] + (so + n - 2.0 * v) * gy +
                                                         (e + w - 2.0 * v) * gx + (ambient - v) * gz);
                }
            float *sw = a;
            a = b;
            b = sw;
        }
        double err = 0;
        for (int i = 0; i < size; i++) {
            const double d = fabs((double)got[i] - a[i]) / fabs((double)a[i]);
            if (!(d <= err)) err = d;
        }
        const bool ok = err <= 1e-5;
        printf("check calculate_temp: max error %.3g (%s)\n", err, ok ? "ok" : "FAILED");
        failed = !ok;
        free(a);
        free(b);
    }

    HIP_CHECK(hipFree(MatrixTemp[0]));
    HIP_CHECK(hipFree(MatrixTemp[1]));
    HIP_CHECK(hipFree(MatrixPower));
    free(h_temp);
    free(h_power);
    free(got);
    return failed ? 1 : 0;
}
