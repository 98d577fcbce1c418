/* Chapter 08: tuned for gfx906.
 *
 * Chapter 07's fused iteration, with the data and the thread mapping cut to
 * fit a Radeon Pro VII / MI50 (gfx906: wave64, 60 CUs of 4 SIMDs, 64 KB of
 * LDS per CU, 13.1 FP32 TFLOPS against 1 TB/s): the version to copy. Two
 * kernels per iteration:
 *   train_step   a persistent grid of 8-wave blocks, one per CU (the LDS
 *                holds one), taking tiles of TILE_IMAGES = 64 images in turn:
 *                - the tile arrives as bytes (the raw pixels: 4x fewer than
 *                  floats) in 16-byte loads, issued during the tile before;
 *                - forward: lane i of wave p takes image i and eighth p of
 *                  the pixels. W is the same in every lane of a wave, so on
 *                  gfx906 it comes through scalar loads and SGPRs, and each
 *                  pixel, loaded and converted once, serves 10 FMAs;
 *                - epilogue: one thread per image adds the eighths, scales
 *                  by 1/255, adds the bias, and gives the prediction, the
 *                  loss and the residual;
 *                - gradient: thread u of each half of the block owns 10
 *                  classes x 3 pixels (u, u + 256, u + 512) and one of the
 *                  170 (class, feature) pairs left over: 31 sums in
 *                  registers; each pixel serves 10 FMAs. The halves take the
 *                  even and the odd images.
 *                One partial gradient per block, stored at the end.
 *   update       one thread per weight: W -= learning_rate * (sum of the
 *                partials)
 * Everything else (data, timing, reports) is the harness in common/. The
 * tunable sizes are #ifndef macros: `make tune` times sets of them. */
#include <hip/hip_runtime.h>

#include "gpu_trainer.h"
#include "wave_reduce.h" /* chapter 06's wave_sum and wave_count */

#define BLOCK_SIZE 256 /* threads per block: a multiple of the wave size on every platform */

/* ---- Tunable (make tune: chapters/08-tuned-gfx906/tune.sh) ---------------- */
/* Images per tile: one per lane of a wave, so that every wave of the forward
 * works on the whole tile and W is uniform across it. 64 images of bytes
 * are 50 KB of LDS on gfx906 (one block per CU); at wave 32 (NVIDIA, whose
 * static shared memory stops at 48 KB) 32 images. A multiple of the wave
 * size is fast; any divisor of FUSED_THREADS / 2 is correct. */
#ifndef TILE_IMAGES
#define TILE_IMAGES WAVE_SIZE
#endif
/* Blocks per CU; 0: as many as the device says fit at once (occupancy:
 * one on gfx906, where the LDS tile allows no second). make tune tries 1
 * and 2: a second round of blocks queued behind the first. */
#ifndef BLOCKS_PER_CU
#define BLOCKS_PER_CU 0
#endif
/* Unrolling of the forward's loop over the pixels, 2 at a time. */
#ifndef FWD_UNROLL
#define FWD_UNROLL 1
#endif
/* Unrolling of the gradient's loop over the tile's images. */
#ifndef GRAD_UNROLL
#define GRAD_UNROLL 1
#endif

/* ---- Derived ------------------------------------------------------------ */
/* 8 waves at wave 64, two per SIMD: the LDS tile allows one block per CU,
 * and with one wave per SIMD every LDS or scalar-load latency would idle it. */
#define FUSED_THREADS 512
#define FWD_PARTS (FUSED_THREADS / TILE_IMAGES) /* 8: the forward's feature parts */
#define PART_ROWS (FWD_PARTS / 2)               /* parts p and p + 4 add into row p of part_sum */
#define PIXEL_WORDS (MODEL_PIXELS / 4)          /* 196 words of 4 pixels per image */
#define PIXEL_PAIRS (MODEL_PIXELS / 2)          /* 392 pairs: 49 per part */
/* A tile row in LDS: 784 bytes, padded to 197 words. The forward's lanes read
 * word d of 64 different rows: an odd stride puts them in 32 different banks
 * (a stride of 196 words would put them in 8). */
#define ROW_WORDS (PIXEL_WORDS + 1)
/* The tile in global memory: TILE_IMAGES x 784 consecutive bytes, read as
 * 16-byte pieces, 49 per image: TILE_LOADS per thread (7 at 64 images). */
#define PIECES_PER_IMAGE (MODEL_PIXELS / 16)
#define TILE_PIECES (TILE_IMAGES * PIECES_PER_IMAGE)
#define TILE_LOADS ((TILE_PIECES + FUSED_THREADS - 1) / FUSED_THREADS)
/* Gradient ownership: GRAD_OWNERS threads hold all 7,850 sums. Owner u has
 * 3 slots of pixels, u, u + 256 and u + 512, for all 10 classes (768 of the
 * 784 pixels); the other 16 pixels and the bias make 17 x 10 = 170 (class,
 * feature) pairs, one per owner u < 170: 31 sums per thread. The block's two
 * sets of owners take the even and the odd images of a tile. */
#define GRAD_OWNERS 256
#define GRAD_COPIES (FUSED_THREADS / GRAD_OWNERS)                           /* 2 */
#define GRAD_SLOTS (MODEL_PIXELS / GRAD_OWNERS)                             /* 3 */
#define REST_FEATURES (MODEL_FEATURES - GRAD_SLOTS * GRAD_OWNERS)            /* 17 */
#define REST_PAIRS (REST_FEATURES * MODEL_CLASSES)                           /* 170 */
/* At the end, one copy's 31 sums per owner pass through LDS, in the tile's
 * space: 31 KB, less than a 64-image tile, more than a 32-image one. */
#define HANDOVER_FLOATS ((GRAD_SLOTS * MODEL_CLASSES + 1) * GRAD_OWNERS)
#define TILE_SPACE_WORDS (TILE_IMAGES * ROW_WORDS > HANDOVER_FLOATS ? TILE_IMAGES * ROW_WORDS : HANDOVER_FLOATS)
#define INV_255 (1.0f / 255.0f)
/* #pragma unroll with a macro for its count (nvcc does not expand one). */
#define PRAGMA(text) _Pragma(#text)
#define UNROLL(count) PRAGMA(unroll count)

#if FUSED_THREADS % (2 * TILE_IMAGES) != 0 || REST_PAIRS > GRAD_OWNERS
#error "TILE_IMAGES must divide FUSED_THREADS / 2"
#endif

/* On gfx9 (gfx906, and the CDNA parts gfx908 and gfx90a, which share its
 * wave64, scalar unit and v_fmac_f32), the forward's part index is made
 * visibly uniform: wave p's lanes share p, and readfirstlane tells the
 * compiler so. Then W[c][k] at a uniform k is a scalar load into an SGPR
 * (s_load_dwordx2), and each v_fmac_f32 takes its weight from there: no VGPR
 * and no vector load for W. readfirstlane takes lane 0's value on trust, so
 * the CPU executor checks the claim in every lane instead. Elsewhere (and
 * when a tile is not whole waves) the plain value: the same results, W
 * through vector loads. */
#if TILE_IMAGES % WAVE_SIZE != 0
#define WAVE_UNIFORM(v) (v)
#elif defined(__gfx906__) || defined(__gfx908__) || defined(__gfx90a__)
#define WAVE_UNIFORM(v) __builtin_amdgcn_readfirstlane(v)
#elif defined(__HIPCPU__)
#define WAVE_UNIFORM(v) hipcpu_wave_uniform(v)
#else
#define WAVE_UNIFORM(v) (v)
#endif

/* 16 bytes: one 128-bit load (global_load_dwordx4 on gfx906). */
typedef struct __attribute__((aligned(16))) {
    uint32_t x, y, z, w;
} pixels16;

/* 4 residuals: one 128-bit LDS read (ds_read_b128), the same for every lane. */
typedef struct __attribute__((aligned(16))) {
    float r[4];
} residuals4;

const char chapter_name[] = "08-tuned-gfx906";
const int chapter_needs = NEEDS_PIXELS;

/* Tile `tile`'s pixels from global memory into registers: TILE_LOADS
 * 16-byte pieces per thread, consecutive across the threads, and the labels.
 * This only issues the loads (chapter 04's fetch). They are waited for at the
 * next __syncthreads(): on gfx906 the compiler puts s_waitcnt vmcnt(0) before
 * every s_barrier. Zeros past the last image. */
__device__ void fetch_tile(const uint8_t *__restrict__ pixels, const uint8_t *__restrict__ labels,
                           int images, int tile, int t, pixels16 *staged, int *label)
{
    int first = tile * TILE_IMAGES;
    const pixels16 *source = (const pixels16 *)(pixels + (size_t)first * MODEL_PIXELS);
    /* As in chapter 07: a constant compared with one value per thread. */
    int room = (images - first) * PIECES_PER_IMAGE - t;
#pragma unroll
    for (int l = 0; l < TILE_LOADS; l++) {
        if (l * FUSED_THREADS < room && l * FUSED_THREADS < TILE_PIECES - t) {
            staged[l] = source[t + l * FUSED_THREADS];
        } else {
            staged[l].x = staged[l].y = staged[l].z = staged[l].w = 0u;
        }
    }
    /* Threads t < TILE_IMAGES: the label of image t, -1 for none. */
    *label = t < TILE_IMAGES && first + t < images ? labels[first + t] : -1;
}

/* ...and from registers into the LDS tile: piece q is image q / 49, words
 * 4 (q % 49) to 4 (q % 49) + 3 of its row. */
__device__ void store_tile(uint32_t (*pix)[ROW_WORDS], int t, const pixels16 *staged)
{
#pragma unroll
    for (int l = 0; l < TILE_LOADS; l++) {
        int q = t + l * FUSED_THREADS;
        if (l * FUSED_THREADS < TILE_PIECES - t) {
            uint32_t *word = &pix[q / PIECES_PER_IMAGE][4 * (q % PIECES_PER_IMAGE)];
            word[0] = staged[l].x;
            word[1] = staged[l].y;
            word[2] = staged[l].z;
            word[3] = staged[l].w;
        }
    }
}

/* The phases of train_step, in the order it calls them. */

/* Epilogue, one thread per image, t < TILE_IMAGES: the parts, the scale, the
 * bias; prediction, loss and the residual 2 (Yhat - Y) / N, into res[t].
 * (*squared and *hits are read and written whatever the branches: then the
 * compiler makes the branches selects, as it did with this code inside the
 * kernel.) */
__device__ __forceinline__ void epilogue(const float (*part_sum)[MODEL_CLASSES][TILE_IMAGES],
                                         const float *__restrict__ w, int t, int label, float two_over_n,
                                         residuals4 (*res)[3], float *squared, unsigned int *hits)
{
    float r[MODEL_CLASSES];
    float sum = *squared;
    unsigned int right = *hits;
    int best = 0;
    float best_score = 0.0f;
#pragma unroll
    for (int c = 0; c < MODEL_CLASSES; c++) {
        float s = 0.0f;
#pragma unroll
        for (int p = 0; p < PART_ROWS; p++) s += part_sum[p][c][t];
        s = s * INV_255 + w[c * MODEL_FEATURES + MODEL_PIXELS];
        if (c == 0 || s > best_score) {
            best = c;
            best_score = s;
        }
        float error = s - (c == label ? 1.0f : 0.0f);
        r[c] = label >= 0 ? error * two_over_n : 0.0f;
        if (label >= 0) sum += error * error;
    }
    if (label >= 0) right += best == label;
    *squared = sum;
    *hits = right;
#pragma unroll
    for (int q = 0; q < 3; q++)
#pragma unroll
        for (int e = 0; e < 4; e++)
            res[t][q].r[e] = 4 * q + e < MODEL_CLASSES ? r[4 * q + e] : 0.0f;
}

/* Gradient, one image: owner u's 31 sums. The residuals are the same for
 * all lanes (three broadcast 16-byte LDS reads); the pixels are consecutive
 * bytes across the lanes. */
__device__ __forceinline__ void gradient_image(const uint8_t *row, const residuals4 *res_i, int u,
                                               int rest_c, int rest_k, int rest_read,
                                               float (*g)[MODEL_CLASSES], float *g_rest)
{
    float r[12];
#pragma unroll
    for (int q = 0; q < 3; q++)
#pragma unroll
        for (int e = 0; e < 4; e++) r[4 * q + e] = res_i[q].r[e];
#pragma unroll
    for (int j = 0; j < GRAD_SLOTS; j++) {
        float x = row[u + GRAD_OWNERS * j];
#pragma unroll
        for (int c = 0; c < MODEL_CLASSES; c++) g[j][c] += r[c] * x;
    }
    float x_rest = row[rest_read];
    if (rest_k == MODEL_PIXELS) x_rest = 255.0f; /* the bias, 255 / 255 */
    *g_rest += res_i[rest_c / 4].r[rest_c % 4] * x_rest;
}

/* Copy 1 hands its sums to copy 0 through LDS (the tile's space, free now). */
__device__ __forceinline__ void hand_over(uint32_t *handover, int u, const float (*g)[MODEL_CLASSES], float g_rest)
{
#pragma unroll
    for (int j = 0; j < GRAD_SLOTS; j++)
#pragma unroll
        for (int c = 0; c < MODEL_CLASSES; c++)
            handover[(j * MODEL_CLASSES + c) * GRAD_OWNERS + u] = __float_as_uint(g[j][c]);
    handover[GRAD_SLOTS * MODEL_CLASSES * GRAD_OWNERS + u] = __float_as_uint(g_rest);
}

/* ...and copy 0 adds them to its own: one store per block per weight,
 * scaled by 1/255 here, once. */
__device__ __forceinline__ void store_partial(float *__restrict__ partial, const uint32_t *handover, int u,
                                              int rest_c, int rest_k, const float (*g)[MODEL_CLASSES],
                                              float g_rest)
{
    float *out = partial + (size_t)blockIdx.x * MODEL_WEIGHTS;
#pragma unroll
    for (int j = 0; j < GRAD_SLOTS; j++)
#pragma unroll
        for (int c = 0; c < MODEL_CLASSES; c++)
            out[c * MODEL_FEATURES + u + GRAD_OWNERS * j] =
                (g[j][c] + __uint_as_float(handover[(j * MODEL_CLASSES + c) * GRAD_OWNERS + u])) *
                INV_255;
    if (u < REST_PAIRS)
        out[rest_c * MODEL_FEATURES + rest_k] =
            (g_rest + __uint_as_float(handover[GRAD_SLOTS * MODEL_CLASSES * GRAD_OWNERS + u])) *
            INV_255;
}

/* The block's loss and hits, as in chapter 06: each wave's sums through LDS,
 * then one atomic each. It has a barrier: every thread of the block calls it. */
__device__ __forceinline__ void add_block_loss_and_hits(float squared, unsigned int hits,
                                                        float *wave_loss, unsigned int *wave_hits,
                                                        float *loss_sum, unsigned int *correct)
{
    int lane = threadIdx.x % WAVE_SIZE, wave = threadIdx.x / WAVE_SIZE;
    squared = wave_sum(squared);
    hits = wave_count(hits);
    if (lane == 0) {
        wave_loss[wave] = squared;
        wave_hits[wave] = hits;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        float block_loss = 0.0f;
        unsigned int block_hits = 0;
        for (int w = 0; w < FUSED_THREADS / WAVE_SIZE; w++) {
            block_loss += wave_loss[w];
            block_hits += wave_hits[w];
        }
        atomicAdd(loss_sum, block_loss);
        atomicAdd(correct, block_hits);
    }
}

/* One iteration's forward, loss, accuracy and gradient for the tiles
 * blockIdx.x, blockIdx.x + gridDim.x, ... of TILE_IMAGES images each.
 * partial[blockIdx.x][c][k] = sum over the block's images n of
 * 2 (Yhat[c][n] - Y[c][n]) / N * x[n][k], stored once, at the end.
 *
 * x = pixel / 255 is not computed pixel by pixel: the sums run over the
 * pixels as integers (exact in float) and are multiplied by 1/255 once, the
 * forward's per score and the gradient's at the end. The same numbers up to
 * float rounding (a relative 1e-7 or so, against the check's 1e-4), and one
 * instruction fewer per pixel and per 10 FMAs. */
__global__ void __launch_bounds__(FUSED_THREADS)
train_step(const float *__restrict__ w, const uint8_t *__restrict__ pixels,
           const uint8_t *__restrict__ labels, float *__restrict__ partial,
           float *__restrict__ loss_sum, unsigned int *__restrict__ correct, int images)
{
    __shared__ uint32_t tile_space[TILE_SPACE_WORDS];                 /* 50,432 B */
    uint32_t (*pix)[ROW_WORDS] = (uint32_t (*)[ROW_WORDS])tile_space; /* [TILE_IMAGES] rows */
    __shared__ float part_sum[PART_ROWS][MODEL_CLASSES][TILE_IMAGES]; /* 10,240 B */
    __shared__ residuals4 res[TILE_IMAGES][3];  /* image i's 10 residuals, padded to 12 */
    __shared__ float wave_loss[FUSED_THREADS / WAVE_SIZE];
    __shared__ unsigned int wave_hits[FUSED_THREADS / WAVE_SIZE];
    int t = threadIdx.x;
    /* Forward mapping: image i of the tile, feature part p (uniform in a
     * wave when TILE_IMAGES is a multiple of the wave size). */
    int i_fwd = t % TILE_IMAGES;
    int part = WAVE_UNIFORM(t / TILE_IMAGES);
    int pair_begin = part * PIXEL_PAIRS / FWD_PARTS, pair_end = (part + 1) * PIXEL_PAIRS / FWD_PARTS;
    /* Gradient mapping: owner u of copy h takes images h, h + 2, ...: pixels
     * u + 256 j for all classes, and one leftover (class, feature) pair,
     * feature 768 + u % 17 (784 is the bias). */
    int u = t % GRAD_OWNERS, copy = t / GRAD_OWNERS;
    /* Owners past the 170 pairs compute a pair too (class 9, clamped), with
     * no branch in the loop, and never store it. */
    int rest_c = u / REST_FEATURES < MODEL_CLASSES ? u / REST_FEATURES : MODEL_CLASSES - 1;
    int rest_k = GRAD_SLOTS * GRAD_OWNERS + u % REST_FEATURES;
    /* The bias (feature 784) reads pixel 783, and replaces it by 255. */
    int rest_read = rest_k < MODEL_PIXELS ? rest_k : MODEL_PIXELS - 1;
    float g[GRAD_SLOTS][MODEL_CLASSES], g_rest = 0.0f;
#pragma unroll
    for (int j = 0; j < GRAD_SLOTS; j++)
#pragma unroll
        for (int c = 0; c < MODEL_CLASSES; c++) g[j][c] = 0.0f;
    float two_over_n = 2.0f / images;
    float squared = 0.0f;  /* in threads t < TILE_IMAGES: their images' squared errors */
    unsigned int hits = 0; /* ... and right predictions */
    int tiles = (images + TILE_IMAGES - 1) / TILE_IMAGES;
    pixels16 staged[TILE_LOADS];
    int label_next;
    fetch_tile(pixels, labels, images, blockIdx.x, t, staged, &label_next);
    int grid = gridDim.x; /* blocks in the grid: each takes every grid-th tile */
    for (int tile = blockIdx.x; tile < tiles; tile += grid) {
        store_tile(pix, t, staged);
        int label = label_next;
        __syncthreads();
        /* The next tile's loads go out now and overlap this tile's forward
         * only: the barrier after the forward waits for them (see
         * fetch_tile). Issued any later, they would overlap less. */
        if (tile + grid < tiles)
            fetch_tile(pixels, labels, images, tile + grid, t, staged, &label_next);

        /* Forward: lane i_fwd's image, this wave's eighth of the pixels, two
         * at a time (v_cvt_f32_ubyte0, 1), each pixel 10 FMAs with weights
         * that are the same in every lane: 20 SGPRs per step. (4 pixels a
         * step would want 40, and the compiler spills SGPRs.) This phase
         * stays in the kernel: as a function, even __forceinline__, the
         * compiler optimises its loop before inlining it, and with
         * FWD_UNROLL 2 or 4 (make tune) it then spills VGPRs. */
        float acc[MODEL_CLASSES];
#pragma unroll
        for (int c = 0; c < MODEL_CLASSES; c++) acc[c] = 0.0f;
        UNROLL(FWD_UNROLL)
        for (int e = pair_begin; e < pair_end; e++) {
            uint32_t two = pix[i_fwd][e / 2] >> (16 * (e % 2)); /* pixels 2e and 2e + 1 */
            const float *w2 = w + 2 * e;
#pragma unroll
            for (int b = 0; b < 2; b++) {
                float x = (float)((two >> (8 * b)) & 0xffu);
#pragma unroll
                for (int c = 0; c < MODEL_CLASSES; c++) acc[c] += w2[c * MODEL_FEATURES + b] * x;
            }
        }
        /* Parts 0-3 store their sums, parts 4-7 add theirs: 10 KB of LDS
         * instead of 20, for one more barrier. */
        if (part < PART_ROWS) {
#pragma unroll
            for (int c = 0; c < MODEL_CLASSES; c++) part_sum[part][c][i_fwd] = acc[c];
        }
        __syncthreads();
        if (part >= PART_ROWS) {
#pragma unroll
            for (int c = 0; c < MODEL_CLASSES; c++) part_sum[part - PART_ROWS][c][i_fwd] += acc[c];
        }
        __syncthreads();

        if (t < TILE_IMAGES) epilogue(part_sum, w, t, label, two_over_n, res, &squared, &hits);
        __syncthreads();

        /* Gradient: every thread, half the images of the tile. */
        const uint8_t *rows = (const uint8_t *)pix;
        UNROLL(GRAD_UNROLL)
        for (int i = copy; i < TILE_IMAGES; i += GRAD_COPIES)
            gradient_image(rows + i * ROW_WORDS * 4, res[i], u, rest_c, rest_k, rest_read, g, &g_rest);
        /* Every wave is done with pix and res: the next tile may overwrite
         * them. (part_sum is next written after the next barrier.) */
        __syncthreads();
    }
    /* The handover: copy 1's sums through LDS to copy 0, which stores them. */
    uint32_t *handover = tile_space; /* [31][GRAD_OWNERS], float bits */
    if (copy == 1) hand_over(handover, u, g, g_rest);
    __syncthreads();
    if (copy == 0) store_partial(partial, handover, u, rest_c, rest_k, g, g_rest);
    add_block_loss_and_hits(squared, hits, wave_loss, wave_hits, loss_sum, correct); /* a barrier */
}

/* The blocks' partial gradients are added in block order, so a run gives the
 * same bits every time. Unrolled by 8: each round's 8 loads are issued
 * before its first addition, in flight together. */
__global__ void update(float *w, const float *partial, int blocks, float learning_rate)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < MODEL_WEIGHTS) {
        float grad = 0.0f;
#pragma unroll 8
        for (int s = 0; s < blocks; s++) grad += partial[(size_t)s * MODEL_WEIGHTS + j];
        w[j] -= learning_rate * grad;
    }
}

typedef struct {
    int blocks;     /* train_step's grid: compute units x blocks per CU */
    float *partial; /* blocks x 10 x 785: one gradient per block */
} buffers;

static int blocks_for(int threads) { return (threads + BLOCK_SIZE - 1) / BLOCK_SIZE; }

void chapter_setup(const gpu_problem *p, void **scratch)
{
    buffers *b = (buffers *)malloc(sizeof *b);
    if (!b) fatal(1, "out of host memory");
    int per_cu = BLOCKS_PER_CU;
    if (per_cu == 0)
        HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, train_step, FUSED_THREADS, 0));
    if (per_cu < 1) fatal(1, "train_step: %d threads per block do not fit this device", FUSED_THREADS);
    b->blocks = p->compute_units * per_cu;
    b->partial = (float *)gpu_alloc((size_t)b->blocks * MODEL_WEIGHTS * sizeof(float), "partial");
    *scratch = b;
}

void chapter_iteration(const gpu_problem *p, void *scratch, int it)
{
    buffers *b = (buffers *)scratch;
    int n = p->images;
    hipLaunchKernelGGL(train_step, dim3(b->blocks), dim3(FUSED_THREADS), 0, 0,
                       p->w, p->pixels, p->labels, b->partial, p->loss_sum + it,
                       p->correct + it, n);
    HIP_CHECK_LAUNCH(train_step);
    hipLaunchKernelGGL(update, dim3(blocks_for(MODEL_WEIGHTS)), dim3(BLOCK_SIZE), 0, 0,
                       p->w, b->partial, b->blocks, p->learning_rate);
    HIP_CHECK_LAUNCH(update);
}

void chapter_teardown(void *scratch)
{
    buffers *b = (buffers *)scratch;
    gpu_free(b->partial);
    free(b);
}
