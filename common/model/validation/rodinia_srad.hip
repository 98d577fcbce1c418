// Rodinia 3.1 (CUDA), application srad (version 2): speckle-reducing
// anisotropic diffusion of an image, its two kernels: srad_cuda_1 (per pixel:
// the four directional derivatives and the saturated diffusion coefficient)
// and srad_cuda_2 (per pixel: the divergence and the image update). Both work
// on 16 x 16 tiles staged in shared memory, with the neighbouring tiles' edge
// rows and columns loaded beside them. The host runs the suite's iteration
// loop: each iteration computes the region-of-interest statistic q0sqr on the
// host from the image, copies the image to the device, launches srad_cuda_1
// then srad_cuda_2 and copies the image back, as srad.cu does.
//
// Source read: github.com/yuhc/gpu-rodinia (a mirror of Rodinia 3.1, University
// of Virginia; LICENSE: the suite's BSD-style licence), commit
// 9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4, files cuda/srad/srad_v2/srad.cu,
// cuda/srad/srad_v2/srad.h, cuda/srad/srad_v2/srad_kernel.cu,
// cuda/srad/srad_v2/run. Written here from that reading; no code copied.
//
// Kept: BLOCK_SIZE 16, blocks of 16 x 16 over a grid of cols/16 x rows/16, the
// six (kernel 1) and five (kernel 2) 16 x 16 float shared tiles, the loads
// and barriers in the original's order (each thread loads a north, south,
// west and east halo value, and the edge blocks load again from their own
// edge), the nine-way corner / edge / interior case split, the arithmetic with
// its double constants (0.5, 1.0/16.0, .25, 1.0, 0.25: those parts evaluated
// in double, as nvcc does), and the five output arrays of kernel 1.
//
// Changed: (1) the image is exp(hash-derived value in [0, 1)) instead of
// exp(rand() / RAND_MAX) after srand(7). (2) The original's halo loads read
// outside the image for the edge blocks before reloading from the image's
// own edge (block row 0 loads the row above row 0, the last block row the row
// below the last, block (0, 0) one float before the image): the values are
// overwritten unused; srad_cuda_2 does the same with C_cuda's row below the
// last. Here J_cuda points one image row (cols floats) into an allocation
// with a row of slack before and after, and C_cuda has a row of slack after,
// so those loads read memory of the program's own; nothing else differs.
//
// Sizes: the run script's, a 2,048 x 2,048 image, region of interest rows and
// columns 0-127, lambda 0.5, 2 iterations: 4 launches of 128 x 128 blocks of
// 16 x 16. --small: 80 x 48 (the original only accepts multiples of 16; a
// 5 x 3 grid of blocks, so every edge case occurs), region 0-31, 2 iterations.
#include <hip/hip_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE 16

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

__global__ void srad_cuda_1(float *E_C, float *W_C, float *N_C, float *S_C, float *J_cuda, float *C_cuda,
                            int cols, int rows, float q0sqr) {
    const int bx = blockIdx.x, by = blockIdx.y;
    const int tx = threadIdx.x, ty = threadIdx.y;

    const int tile = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx; // the tile's first pixel
    const int me = tile + cols * ty + tx;
    const int above = tile + tx - cols;                 // row above the tile
    const int below = tile + cols * BLOCK_SIZE + tx;    // row below the tile
    const int left = tile + cols * ty - 1;              // column left of the tile
    const int right = tile + cols * ty + BLOCK_SIZE;    // column right of the tile

    float dn, dw, de, ds, jc, g2, l, num, den, qsqr, c;

    __shared__ float img[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float coef[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float halo_n[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float halo_s[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float halo_e[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float halo_w[BLOCK_SIZE][BLOCK_SIZE];

    halo_n[ty][tx] = J_cuda[above];
    halo_s[ty][tx] = J_cuda[below];
    if (by == 0)
        halo_n[ty][tx] = J_cuda[BLOCK_SIZE * bx + tx]; // the image's own top row
    else if (by == (int)gridDim.y - 1)
        halo_s[ty][tx] =
            J_cuda[cols * BLOCK_SIZE * (gridDim.y - 1) + BLOCK_SIZE * bx + cols * (BLOCK_SIZE - 1) + tx];
    __syncthreads();

    halo_w[ty][tx] = J_cuda[left];
    halo_e[ty][tx] = J_cuda[right];
    if (bx == 0)
        halo_w[ty][tx] = J_cuda[cols * BLOCK_SIZE * by + cols * ty];
    else if (bx == (int)gridDim.x - 1)
        halo_e[ty][tx] =
            J_cuda[cols * BLOCK_SIZE * by + BLOCK_SIZE * (gridDim.x - 1) + cols * ty + BLOCK_SIZE - 1];
    __syncthreads();

    img[ty][tx] = J_cuda[me];
    __syncthreads();

    jc = img[ty][tx];
    if (ty == 0 && tx == 0) { // north-west corner
        dn = halo_n[ty][tx] - jc;
        ds = img[ty + 1][tx] - jc;
        dw = halo_w[ty][tx] - jc;
        de = img[ty][tx + 1] - jc;
    } else if (ty == 0 && tx == BLOCK_SIZE - 1) { // north-east
        dn = halo_n[ty][tx] - jc;
        ds = img[ty + 1][tx] - jc;
        dw = img[ty][tx - 1] - jc;
        de = halo_e[ty][tx] - jc;
    } else if (ty == BLOCK_SIZE - 1 && tx == BLOCK_SIZE - 1) { // south-east
        dn = img[ty - 1][tx] - jc;
        ds = halo_s[ty][tx] - jc;
        dw = img[ty][tx - 1] - jc;
        de = halo_e[ty][tx] - jc;
    } else if (ty == BLOCK_SIZE - 1 && tx == 0) { // south-west
        dn = img[ty - 1][tx] - jc;
        ds = halo_s[ty][tx] - jc;
        dw = halo_w[ty][tx] - jc;
        de = img[ty][tx + 1] - jc;
    } else if (ty == 0) { // north edge
        dn = halo_n[ty][tx] - jc;
        ds = img[ty + 1][tx] - jc;
        dw = img[ty][tx - 1] - jc;
        de = img[ty][tx + 1] - jc;
    } else if (tx == BLOCK_SIZE - 1) { // east edge
        dn = img[ty - 1][tx] - jc;
        ds = img[ty + 1][tx] - jc;
        dw = img[ty][tx - 1] - jc;
        de = halo_e[ty][tx] - jc;
    } else if (ty == BLOCK_SIZE - 1) { // south edge
        dn = img[ty - 1][tx] - jc;
        ds = halo_s[ty][tx] - jc;
        dw = img[ty][tx - 1] - jc;
        de = img[ty][tx + 1] - jc;
    } else if (tx == 0) { // west edge
        dn = img[ty - 1][tx] - jc;
        ds = img[ty + 1][tx] - jc;
        dw = halo_w[ty][tx] - jc;
        de = img[ty][tx + 1] - jc;
    } else { // inside the tile
        dn = img[ty - 1][tx] - jc;
        ds = img[ty + 1][tx] - jc;
        dw = img[ty][tx - 1] - jc;
        de = img[ty][tx + 1] - jc;
    }

    g2 = (dn * dn + ds * ds + dw * dw + de * de) / (jc * jc);
    l = (dn + ds + dw + de) / jc;
    num = (0.5 * g2) - ((1.0 / 16.0) * (l * l));
    den = 1 + (.25 * l);
    qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr)); // diffusion coefficient
    c = 1.0 / (1.0 + den);
    if (c < 0)
        coef[ty][tx] = 0;
    else if (c > 1)
        coef[ty][tx] = 1;
    else
        coef[ty][tx] = c;
    __syncthreads();

    C_cuda[me] = coef[ty][tx];
    E_C[me] = de;
    W_C[me] = dw;
    S_C[me] = ds;
    N_C[me] = dn;
    (void)rows;
}

__global__ void srad_cuda_2(float *E_C, float *W_C, float *N_C, float *S_C, float *J_cuda, float *C_cuda,
                            int cols, int rows, float lambda, float q0sqr) {
    const int bx = blockIdx.x, by = blockIdx.y;
    const int tx = threadIdx.x, ty = threadIdx.y;

    const int tile = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    const int me = tile + cols * ty + tx;
    const int below = tile + cols * BLOCK_SIZE + tx;
    const int right = tile + cols * ty + BLOCK_SIZE;
    float cc, cn, cs, ce, cw, d_sum;

    __shared__ float c_s[BLOCK_SIZE][BLOCK_SIZE];  // coefficients of the row below
    __shared__ float c_e[BLOCK_SIZE][BLOCK_SIZE];  // and of the column right
    __shared__ float c_tile[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float out[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float img[BLOCK_SIZE][BLOCK_SIZE];

    img[ty][tx] = J_cuda[me];
    __syncthreads();

    c_s[ty][tx] = C_cuda[below];
    if (by == (int)gridDim.y - 1)
        c_s[ty][tx] =
            C_cuda[cols * BLOCK_SIZE * (gridDim.y - 1) + BLOCK_SIZE * bx + cols * (BLOCK_SIZE - 1) + tx];
    __syncthreads();

    c_e[ty][tx] = C_cuda[right];
    if (bx == (int)gridDim.x - 1)
        c_e[ty][tx] = C_cuda[cols * BLOCK_SIZE * by + BLOCK_SIZE * (gridDim.x - 1) + cols * ty + BLOCK_SIZE - 1];
    __syncthreads();

    c_tile[ty][tx] = C_cuda[me];
    __syncthreads();

    cc = c_tile[ty][tx];
    if (ty == BLOCK_SIZE - 1 && tx == BLOCK_SIZE - 1) { // south-east corner
        cn = cc;
        cs = c_s[ty][tx];
        cw = cc;
        ce = c_e[ty][tx];
    } else if (tx == BLOCK_SIZE - 1) { // east edge
        cn = cc;
        cs = c_tile[ty + 1][tx];
        cw = cc;
        ce = c_e[ty][tx];
    } else if (ty == BLOCK_SIZE - 1) { // south edge
        cn = cc;
        cs = c_s[ty][tx];
        cw = cc;
        ce = c_tile[ty][tx + 1];
    } else {
        cn = cc;
        cs = c_tile[ty + 1][tx];
        cw = cc;
        ce = c_tile[ty][tx + 1];
    }

    d_sum = cn * N_C[me] + cs * S_C[me] + cw * W_C[me] + ce * E_C[me]; // divergence
    out[ty][tx] = img[ty][tx] + 0.25 * lambda * d_sum;                 // image update
    __syncthreads();

    J_cuda[me] = out[ty][tx];
    (void)rows;
    (void)q0sqr;
}

static unsigned mix32(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// q0sqr of the region of interest, as srad.cu computes it on the host
static float roi_q0sqr(const float *J, int cols, int r1, int r2, int c1, int c2) {
    float sum = 0, sum2 = 0;
    for (int i = r1; i <= r2; i++)
        for (int j = c1; j <= c2; j++) {
            const float v = J[i * cols + j];
            sum += v;
            sum2 += v * v;
        }
    const int n = (r2 - r1 + 1) * (c2 - c1 + 1);
    const float mean = sum / n;
    const float var = (sum2 / n) - mean * mean;
    return var / (mean * mean);
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
    const int rows = small ? 48 : 2048, cols = small ? 80 : 2048;
    const int r1 = 0, r2 = small ? 31 : 127, c1 = 0, c2 = small ? 31 : 127;
    const float lambda = 0.5f;
    const int niter = 2;
    const int size_I = rows * cols;

    float *J = (float *)malloc(sizeof(float) * size_I);
    for (int k = 0; k < size_I; k++) J[k] = (float)exp((double)(mix32((unsigned)k) >> 8) / 16777216.0);
    float *J0 = nullptr, *C_ref = nullptr, *E_ref = nullptr;
    if (check) {
        J0 = (float *)malloc(sizeof(float) * size_I);
        memcpy(J0, J, sizeof(float) * size_I);
    }

    float *J_alloc = nullptr, *C_cuda = nullptr, *E_C = nullptr, *W_C = nullptr, *S_C = nullptr,
          *N_C = nullptr;
    // one row of slack on each side of the image (see the header comment)
    HIP_CHECK(hipMalloc(&J_alloc, sizeof(float) * (size_t)(size_I + 2 * cols)));
    HIP_CHECK(hipMemset(J_alloc, 0, sizeof(float) * (size_t)(size_I + 2 * cols)));
    float *J_cuda = J_alloc + cols;
    // a row of slack after the image, for srad_cuda_2's row below the last (the header comment)
    HIP_CHECK(hipMalloc(&C_cuda, sizeof(float) * (size_t)(size_I + cols)));
    HIP_CHECK(hipMemset(C_cuda, 0, sizeof(float) * (size_t)(size_I + cols)));
    HIP_CHECK(hipMalloc(&E_C, sizeof(float) * size_I));
    HIP_CHECK(hipMalloc(&W_C, sizeof(float) * size_I));
    HIP_CHECK(hipMalloc(&S_C, sizeof(float) * size_I));
    HIP_CHECK(hipMalloc(&N_C, sizeof(float) * size_I));

    const dim3 block(BLOCK_SIZE, BLOCK_SIZE), grid(cols / BLOCK_SIZE, rows / BLOCK_SIZE);
    float *C_got = nullptr, *E_got = nullptr;
    for (int iter = 0; iter < niter; iter++) {
        const float q0sqr = roi_q0sqr(J, cols, r1, r2, c1, c2);
        HIP_CHECK(hipMemcpy(J_cuda, J, sizeof(float) * size_I, hipMemcpyHostToDevice));
        srad_cuda_1<<<grid, block>>>(E_C, W_C, N_C, S_C, J_cuda, C_cuda, cols, rows, q0sqr);
        HIP_CHECK(hipGetLastError());
        if (check && iter == niter - 1) { // keep the last kernel-1 outputs for the check
            C_got = (float *)malloc(sizeof(float) * size_I);
            E_got = (float *)malloc(sizeof(float) * size_I);
            HIP_CHECK(hipMemcpy(C_got, C_cuda, sizeof(float) * size_I, hipMemcpyDeviceToHost));
            HIP_CHECK(hipMemcpy(E_got, E_C, sizeof(float) * size_I, hipMemcpyDeviceToHost));
        }
        srad_cuda_2<<<grid, block>>>(E_C, W_C, N_C, S_C, J_cuda, C_cuda, cols, rows, lambda, q0sqr);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipMemcpy(J, J_cuda, sizeof(float) * size_I, hipMemcpyDeviceToHost));
    }
    printf("rodinia_srad: %d x %d image, %d iterations: srad_cuda_1 and srad_cuda_2 each on %d x %d "
           "blocks of 16 x 16\n",
           rows, cols, niter, grid.x, grid.y);

    int failed = 0;
    if (check) {
        // the suite's own CPU path of srad.cu (clamped neighbours over the whole
        // image), in double: coefficient and east derivative of the last
        // iteration, and the image after all of them
        double *Jr = (double *)malloc(sizeof(double) * size_I), *c = (double *)malloc(sizeof(double) * size_I);
        double *dN = (double *)malloc(sizeof(double) * size_I), *dS = (double *)malloc(sizeof(double) * size_I);
        double *dW = (double *)malloc(sizeof(double) * size_I), *dE = (double *)malloc(sizeof(double) * size_I);
        float *Jf = (float *)malloc(sizeof(float) * size_I);
        for (int k = 0; k < size_I; k++) Jr[k] = J0[k];
        for (int iter = 0; iter < niter; iter++) {
            for (int k = 0; k < size_I; k++) Jf[k] = (float)Jr[k];
            const double q0 = roi_q0sqr(Jf, cols, r1, r2, c1, c2);
            for (int i = 0; i < rows; i++)
                for (int j = 0; j < cols; j++) {
                    const int k = i * cols + j;
                    const double v = Jr[k];
                    dN[k] = Jr[(i > 0 ? i - 1 : 0) * cols + j] - v;
                    dS[k] = Jr[(i < rows - 1 ? i + 1 : rows - 1) * cols + j] - v;
                    dW[k] = Jr[i * cols + (j > 0 ? j - 1 : 0)] - v;
                    dE[k] = Jr[i * cols + (j < cols - 1 ? j + 1 : cols - 1)] - v;
                    const double G2 = (dN[k] * dN[k] + dS[k] * dS[k] + dW[k] * dW[k] + dE[k] * dE[k]) / (v * v);
                    const double L = (dN[k] + dS[k] + dW[k] + dE[k]) / v;
                    const double nm = 0.5 * G2 - (1.0 / 16.0) * (L * L);
                    const double dd = 1 + .25 * L;
                    const double qs = nm / (dd * dd);
                    const double d2 = (qs - q0) / (q0 * (1 + q0));
                    double cv = 1.0 / (1.0 + d2);
                    c[k] = cv < 0 ? 0 : (cv > 1 ? 1 : cv);
                }
            if (iter == niter - 1) {
                C_ref = (float *)malloc(sizeof(float) * size_I);
                E_ref = (float *)malloc(sizeof(float) * size_I);
                for (int k = 0; k < size_I; k++) {
                    C_ref[k] = (float)c[k];
                    E_ref[k] = (float)dE[k];
                }
            }
            for (int i = 0; i < rows; i++)
                for (int j = 0; j < cols; j++) {
                    const int k = i * cols + j;
                    const double cS = c[(i < rows - 1 ? i + 1 : rows - 1) * cols + j];
                    const double cE = c[i * cols + (j < cols - 1 ? j + 1 : cols - 1)];
                    const double D = c[k] * dN[k] + cS * dS[k] + c[k] * dW[k] + cE * dE[k];
                    Jr[k] = Jr[k] + 0.25 * lambda * D;
                }
        }
        // errors relative to each array's largest magnitude (the derivatives
        // and coefficients are differences of nearby pixels)
        double e1 = 0, e2 = 0, mc = 0, me = 0, mj = 0;
        for (int k = 0; k < size_I; k++) {
            mc = fmax(mc, fabs((double)C_ref[k]));
            me = fmax(me, fabs((double)E_ref[k]));
            mj = fmax(mj, fabs(Jr[k]));
        }
        for (int k = 0; k < size_I; k++) {
            const double a = fabs((double)C_got[k] - C_ref[k]) / mc, b = fabs((double)E_got[k] - E_ref[k]) / me;
            const double d = fabs((double)J[k] - Jr[k]) / mj;
            if (!(a <= e1)) e1 = a;
            if (!(b <= e1)) e1 = b;
            if (!(d <= e2)) e2 = d;
        }
        const bool ok1 = e1 <= 1e-4, ok2 = e2 <= 1e-4;
        printf("check srad_cuda_1: max error %.3g (%s)\n", e1, ok1 ? "ok" : "FAILED");
        printf("check srad_cuda_2: max error %.3g (%s)\n", e2, ok2 ? "ok" : "FAILED");
        failed = !ok1 || !ok2;
        free(Jr);
        free(c);
        free(dN);
        free(dS);
        free(dW);
        free(dE);
        free(Jf);
        free(J0);
        free(C_ref);
        free(E_ref);
        free(C_got);
        free(E_got);
    }

    HIP_CHECK(hipFree(J_alloc));
    HIP_CHECK(hipFree(C_cuda));
    HIP_CHECK(hipFree(E_C));
    HIP_CHECK(hipFree(W_C));
    HIP_CHECK(hipFree(S_C));
    HIP_CHECK(hipFree(N_C));
    free(J);
    return failed ? 1 : 0;
}
