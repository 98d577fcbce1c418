// A grid with uneven blocks, for sampling (tests/sampling.bats): a scaled
// transpose of a 1000 x 500 matrix in 16 x 16 tiles, so the last column and
// the last row of blocks are partial tiles (1000 = 62 x 16 + 8, 500 = 31 x
// 16 + 4). Each block reads one scale (a uniform load), stages its tile in
// LDS past a barrier, and adds each wave's sum, reduced by shuffles, to one
// total with an atomic.
#include "check.h"

#define TILE 16

__global__ void scaled_transpose(const float *in, float *out, const float *row_scale, float *total, int rows,
                                 int cols) {
    __shared__ float tile[TILE][TILE + 1];
    unsigned x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    float scale = row_scale[blockIdx.y];
    float v = x < unsigned(cols) && y < unsigned(rows) ? in[(size_t)y * cols + x] * scale : 0.0f;
    tile[threadIdx.y][threadIdx.x] = v;
    __syncthreads();
    unsigned tx = blockIdx.y * TILE + threadIdx.x, ty = blockIdx.x * TILE + threadIdx.y;
    if (tx < unsigned(rows) && ty < unsigned(cols)) out[(size_t)ty * rows + tx] = tile[threadIdx.x][threadIdx.y];
    for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
    if ((threadIdx.y * TILE + threadIdx.x) % warpSize == 0) atomicAdd(total, v);
}

int main(void) {
    const int rows = 1000, cols = 500, row_tiles = (rows + TILE - 1) / TILE;
    static float in[rows * cols], out[rows * cols];
    float scale[(rows + TILE - 1) / TILE], total = 0, want_total = 0;
    for (int t = 0; t < row_tiles; t++) scale[t] = 1.0f + t % 3;
    for (int i = 0; i < rows * cols; i++) in[i] = float(i % 5);
    float *d_in, *d_out, *d_scale, *d_total;
    HIP_CHECK(hipMalloc(&d_in, sizeof in));
    HIP_CHECK(hipMalloc(&d_out, sizeof out));
    HIP_CHECK(hipMalloc(&d_scale, sizeof scale));
    HIP_CHECK(hipMalloc(&d_total, sizeof total));
    HIP_CHECK(hipMemcpy(d_in, in, sizeof in, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_scale, scale, sizeof scale, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_total, &total, sizeof total, hipMemcpyHostToDevice));
    dim3 grid((cols + TILE - 1) / TILE, row_tiles), block(TILE, TILE);
    scaled_transpose<<<grid, block>>>(d_in, d_out, d_scale, d_total, rows, cols);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(out, d_out, sizeof out, hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(&total, d_total, sizeof total, hipMemcpyDeviceToHost));
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            const float want = in[r * cols + c] * scale[r / TILE];
            want_total += want;
            if (out[c * rows + r] != want) {
                fprintf(stderr, "tail_tiles: out[%d][%d] is %g, not %g\n", c, r, out[c * rows + r], want);
                return 1;
            }
        }
    if (total != want_total) {
        fprintf(stderr, "tail_tiles: total %g, not %g\n", total, want_total);
        return 1;
    }
    printf("tail_tiles: %d x %d transposed in %u blocks, total %g\n", rows, cols, grid.x * grid.y, total);
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    HIP_CHECK(hipFree(d_scale));
    HIP_CHECK(hipFree(d_total));
    return 0;
}
