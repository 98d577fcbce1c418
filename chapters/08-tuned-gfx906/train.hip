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
 *                - forward: lane i of wave p takes image i and the words
 *                  (4 pixels) p, p + 8, p + 16, ... of its row. W is the
 *                  same in every lane of a wave, so on gfx906 it comes
 *                  through scalar loads into SGPRs, from a transposed copy
 *                  wt[k][c], where a word's 40 weights are consecutive:
 *                  three loads (16 + 16 + 8 dwords) per word; each pixel,
 *                  read as 4 in one LDS read and converted once, serves 10
 *                  FMAs;
 *                - epilogue: one thread per image adds the eighths, scales
 *                  by 1/255, adds the bias, and gives the prediction, the
 *                  loss and the residual;
 *                - gradient: thread u of each quarter of the block owns 10
 *                  classes x 6 pixels (the pairs 2u + 256 p, p = 0, 1, 2)
 *                  and, for u < 85, one of the 17 features left over (the
 *                  last 16 pixels and the bias) for two classes: 62 sums in
 *                  registers; each image's 10 residuals, read once, serve
 *                  62 FMAs. The quarters take the images i = 0, 1, 2, 3
 *                  (mod 4), and add up through LDS at the end.
 *                One partial gradient per block, stored at the end.
 *   update       four waves per 64 weights, each adding a quarter of the
 *                blocks' partials with 16 loads in flight; then W -=
 *                learning_rate * sum, into W and into wt.
 * Everything else (data, timing, reports) is the harness in common/. The
 * tunable sizes are #ifndef macros: `make tune` times sets of them. */
#include <hip/hip_runtime.h>

#include "gpu_trainer.h"
#include "wave_reduce.h" /* chapter 06's wave_sum and wave_count */

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
/* Unrolling of the forward's loop over a wave's words (24 or 25). On gfx9
 * none: a word's 40 weights take 40 SGPRs of the 102, and unrolled, the
 * compiler no longer loads them together (or spills SGPRs). None on the
 * CPU executor either: the time model takes its trace as the rolled loop
 * and divides by the compiled copies. Elsewhere 5 (the fastest on an H100,
 * make tune). */
#ifndef FWD_UNROLL
#if defined(__gfx906__) || defined(__gfx908__) || defined(__gfx90a__) || defined(__HIPCPU__)
#define FWD_UNROLL 1
#else
#define FWD_UNROLL 5
#endif
#endif
/* Unrolling of the gradient's loop over a quarter's images. */
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
/* Part p takes the words p + FWD_PARTS m < 196: 25 in parts p < 196 % 8 = 4,
 * 24 in the others. */
#define WORD_WEIGHTS (4 * MODEL_CLASSES) /* a word's 40 weights, consecutive in wt */
#define FWD_STEPS ((PIXEL_WORDS + FWD_PARTS - 1) / FWD_PARTS)
/* A tile row in LDS: 784 bytes, padded to 197 words. The forward's lanes read
 * word d of 64 different rows: an odd stride puts them in 32 different banks
 * (a stride of 196 words would put them in 8). The pad's first byte is 255:
 * the bias's feature (784), so the gradient reads it like a pixel. */
#define ROW_WORDS (PIXEL_WORDS + 1)
#define ROW_BYTES (4 * ROW_WORDS)
/* The tile in global memory: TILE_IMAGES x 784 consecutive bytes, read as
 * 16-byte pieces, 49 per image, in rounds of 10 whole images (490 pieces,
 * threads t < 490): thread t's piece of round l is piece t % 49 of image
 * t / 49 + 10 l, so its LDS address moves by 10 rows a round: a constant
 * step added to one base register, not one address register per round.
 * TILE_LOADS per thread: 7 at 64 images. */
#define PIECES_PER_IMAGE (MODEL_PIXELS / 16)
#define TILE_PIECES (TILE_IMAGES * PIECES_PER_IMAGE)
#define ROUND_IMAGES (FUSED_THREADS / PIECES_PER_IMAGE)  /* 10 */
#define ROUND_PIECES (ROUND_IMAGES * PIECES_PER_IMAGE)   /* 490 */
#define TILE_LOADS ((TILE_PIECES + ROUND_PIECES - 1) / ROUND_PIECES)
/* Gradient ownership: GRAD_OWNERS threads hold all 7,850 sums. Owner u (the
 * variable owner; its sums owner_sums, and rest_sums for the leftovers) has
 * the pixel pairs u, u + 128 and u + 256 (pixels 2u + 256 p and 2u + 256 p
 * + 1: three 2-byte reads from one address register) for all 10 classes,
 * 768 of the 784 pixels; the other 16 pixels and the bias make 17 x 10 =
 * 170 (class, feature) pairs: owner u < 85 has feature 768 + u % 17 for the
 * classes u / 17 and u / 17 + 5 (one byte, two residuals 5 floats apart).
 * 62 sums per thread. The block's four sets of owners take the images
 * i = 0, 1, 2, 3 (mod 4) of a tile: the fewer owners, the more FMAs each
 * broadcast of an image's residuals serves. */
#define GRAD_OWNERS 128
#define GRAD_COPIES (FUSED_THREADS / GRAD_OWNERS)                        /* 4 */
#define GRAD_PAIRS 3                                                     /* pixel pairs per owner */
#define GRAD_SLOTS (2 * GRAD_PAIRS)                                      /* 6 pixels */
#define REST_START (GRAD_SLOTS * GRAD_OWNERS)                            /* 768 */
#define REST_FEATURES (MODEL_FEATURES - REST_START)                      /* 17 */
#define REST_CLASSES (MODEL_CLASSES / 2)                                 /* 5: c and c + 5 */
#define REST_OWNERS (REST_FEATURES * REST_CLASSES)                       /* 85 */
#define GRAD_SUMS (GRAD_SLOTS * MODEL_CLASSES + 2)                       /* 62 */
/* At the end, the copies' sums pass through LDS, one copy at a time, in the
 * tile's space: 31 KB, less than a 64-image tile, more than a 32-image one. */
#define HANDOVER_FLOATS (GRAD_SUMS * GRAD_OWNERS)
#define TILE_SPACE_WORDS (TILE_IMAGES * ROW_WORDS > HANDOVER_FLOATS ? TILE_IMAGES * ROW_WORDS : HANDOVER_FLOATS)
/* update: UPDATE_SPLIT waves per WAVE_SIZE weights, wave q adding rows
 * q * UPDATE_BATCH .. + UPDATE_BATCH - 1 of every UPDATE_ROWS; the partials
 * are padded with zero rows to a multiple of UPDATE_ROWS, so each wave's
 * loads go out in whole batches. */
#define UPDATE_SPLIT 4
#define UPDATE_BATCH 16
#define UPDATE_ROWS (UPDATE_SPLIT * UPDATE_BATCH)
#define INV_255 (1.0f / 255.0f)
/* #pragma unroll with a macro for its count (nvcc does not expand one). */
#define PRAGMA(text) _Pragma(#text)
#define UNROLL(count) PRAGMA(unroll count)

#if FUSED_THREADS % (2 * TILE_IMAGES) != 0
#error "TILE_IMAGES must divide FUSED_THREADS / 2"
#endif
#if REST_OWNERS > GRAD_OWNERS || GRAD_OWNERS % WAVE_SIZE != 0 || MODEL_CLASSES % 2 != 0
#error "the gradient's ownership does not fit"
#endif

/* On gfx9 (gfx906, and the CDNA parts gfx908 and gfx90a, which share its
 * wave64, scalar unit and v_fmac_f32), the forward's part index is made
 * visibly uniform: wave p's lanes share p, and readfirstlane tells the
 * compiler so. Then Wt[k][c] at a uniform k is a scalar load into an SGPR
 * (s_load_dwordx16), and each v_fmac_f32 takes its weight from there: no
 * VGPR and no vector load for W. readfirstlane takes lane 0's value on
 * trust, so the CPU executor checks the claim in every lane instead.
 * Elsewhere (and when a tile is not whole waves) the plain value: the same
 * results, W through vector loads. */
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

/* An image's residuals in LDS: 10 floats, padded to 12 so that each row is
 * 16-byte aligned: ds_read_b128, ds_read_b128, ds_read_b64. */
#define RES_STRIDE 12

const char chapter_name[] = "08-tuned-gfx906";
const int chapter_needs = NEEDS_PIXELS;

/* Tile `tile`'s pixels from global memory into registers: TILE_LOADS
 * 16-byte pieces per thread, consecutive across the threads. This only
 * issues the loads (chapter 04's fetch). They are waited for at the next
 * __syncthreads(): on gfx906 the compiler puts s_waitcnt vmcnt(0) before
 * every s_barrier. Zeros past the last image. */
__device__ void fetch_tile(const uint8_t *__restrict__ pixels, int images, int tile, int t, pixels16 *staged)
{
    int first = tile * TILE_IMAGES;
    /* A uniform base and a 32-bit offset per thread: only the offset stays
     * in a register across the rounds, not TILE_LOADS 64-bit addresses. */
    const uint8_t *base = pixels + (size_t)first * MODEL_PIXELS;
    unsigned int offset = 16u * (unsigned int)t;
    if (first + TILE_IMAGES <= images) {
        /* A whole tile (all but the last): only the last round has threads
         * past the tile's end, and the test is a constant per round. */
#pragma unroll
        for (int l = 0; l < TILE_LOADS; l++)
            if (t < ROUND_PIECES && l * ROUND_PIECES < TILE_PIECES - t)
                staged[l] = *(const pixels16 *)(base + offset + 16u * ROUND_PIECES * l);
    } else {
        /* As in chapter 07: a constant compared with one value per thread. */
        int room = (images - first) * PIECES_PER_IMAGE - t;
#pragma unroll
        for (int l = 0; l < TILE_LOADS; l++) {
            if (t < ROUND_PIECES && l * ROUND_PIECES < room && l * ROUND_PIECES < TILE_PIECES - t) {
                staged[l] = *(const pixels16 *)(base + offset + 16u * ROUND_PIECES * l);
            } else {
                staged[l].x = staged[l].y = staged[l].z = staged[l].w = 0u;
            }
        }
    }
}

/* ...and from registers into the LDS tile: round l's piece is words
 * 4 (t % 49) to 4 (t % 49) + 3 of row t / 49 + 10 l. */
__device__ void store_tile(uint32_t (*pix)[ROW_WORDS], int t, const pixels16 *staged)
{
    uint32_t *word = &pix[t / PIECES_PER_IMAGE][4 * (t % PIECES_PER_IMAGE)];
#pragma unroll
    for (int l = 0; l < TILE_LOADS; l++) {
        if (t < ROUND_PIECES && l * ROUND_PIECES < TILE_PIECES - t) {
            uint32_t *round = word + l * ROUND_IMAGES * ROW_WORDS;
            round[0] = staged[l].x;
            round[1] = staged[l].y;
            round[2] = staged[l].z;
            round[3] = staged[l].w;
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
                                         const float *__restrict__ wt, int t, int label, float two_over_n,
                                         float (*res)[RES_STRIDE], float *squared, unsigned int *hits)
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
        s = s * INV_255 + wt[MODEL_PIXELS * MODEL_CLASSES + c];
        if (c == 0 || s > best_score) {
            best = c;
            best_score = s;
        }
        /* No image (label -1): error 0, so residual and loss 0 (a select
         * with the constant 0, no register for it). */
        float error = label >= 0 ? s - (c == label ? 1.0f : 0.0f) : 0.0f;
        r[c] = error * two_over_n;
        sum += error * error;
    }
    if (label >= 0) right += best == label;
    *squared = sum;
    *hits = right;
#pragma unroll
    for (int c = 0; c < MODEL_CLASSES; c++) res[t][c] = r[c];
}

/* An image's pixels for owner u's gradient: three pairs, consecutive across
 * the lanes, and the leftover byte. Read before any of the image's FMAs, so
 * that the four LDS reads are in flight together (read where each is used,
 * hipcc waits for each in turn). */
typedef struct {
    uint32_t pair[GRAD_PAIRS];
    uint32_t rest;
} owner_pixels;

__device__ __forceinline__ owner_pixels read_owner_pixels(const uint8_t *row, int owner, int rest_k)
{
    owner_pixels x;
    const uint16_t *pairs = (const uint16_t *)row + owner;
#pragma unroll
    for (int p = 0; p < GRAD_PAIRS; p++) x.pair[p] = pairs[GRAD_OWNERS * p];
    x.rest = row[rest_k];
    return x;
}

/* Gradient, one image: owner u's 62 sums. The 10 residuals are the same for
 * all lanes (broadcast LDS reads: 16, 16 and 8 bytes). */
__device__ __forceinline__ void gradient_image(owner_pixels x_in, const float *res_i, int rest_c,
                                               float (*owner_sums)[MODEL_CLASSES], float *rest_sums)
{
    float r[MODEL_CLASSES];
#pragma unroll
    for (int c = 0; c < MODEL_CLASSES; c++) r[c] = res_i[c];
#pragma unroll
    for (int p = 0; p < GRAD_PAIRS; p++) {
        uint32_t two = x_in.pair[p];
#pragma unroll
        for (int b = 0; b < 2; b++) {
            float x = (float)((two >> (8 * b)) & 0xffu); /* v_cvt_f32_ubyte0, 1 */
#pragma unroll
            for (int c = 0; c < MODEL_CLASSES; c++) owner_sums[2 * p + b][c] += r[c] * x;
        }
    }
    float x_rest = (float)x_in.rest;
    rest_sums[0] += res_i[rest_c] * x_rest;
    rest_sums[1] += res_i[rest_c + REST_CLASSES] * x_rest;
}

/* Copy `copy` hands its sums to copy 0 through LDS (the tile's space, free
 * now): sum s of owner u at handover[s][u]. */
__device__ __forceinline__ void hand_over(uint32_t *handover, int owner, const float (*owner_sums)[MODEL_CLASSES],
                                          const float *rest_sums)
{
#pragma unroll
    for (int j = 0; j < GRAD_SLOTS; j++)
#pragma unroll
        for (int c = 0; c < MODEL_CLASSES; c++)
            handover[(j * MODEL_CLASSES + c) * GRAD_OWNERS + owner] = __float_as_uint(owner_sums[j][c]);
#pragma unroll
    for (int h = 0; h < 2; h++)
        handover[(GRAD_SLOTS * MODEL_CLASSES + h) * GRAD_OWNERS + owner] = __float_as_uint(rest_sums[h]);
}

/* ...and copy 0 adds them to its own. */
__device__ __forceinline__ void take_over(const uint32_t *handover, int owner, float (*owner_sums)[MODEL_CLASSES],
                                          float *rest_sums)
{
#pragma unroll
    for (int j = 0; j < GRAD_SLOTS; j++)
#pragma unroll
        for (int c = 0; c < MODEL_CLASSES; c++)
            owner_sums[j][c] += __uint_as_float(handover[(j * MODEL_CLASSES + c) * GRAD_OWNERS + owner]);
#pragma unroll
    for (int h = 0; h < 2; h++)
        rest_sums[h] += __uint_as_float(handover[(GRAD_SLOTS * MODEL_CLASSES + h) * GRAD_OWNERS + owner]);
}

/* Copy 0 stores the block's sums, scaled by 1/255 here, once: one store per
 * block per weight, in W's layout. */
__device__ __forceinline__ void store_partial(float *__restrict__ partial, int owner, int rest_c, int rest_k,
                                              const float (*owner_sums)[MODEL_CLASSES], const float *rest_sums)
{
    float *out = partial + (size_t)blockIdx.x * MODEL_WEIGHTS;
#pragma unroll
    for (int c = 0; c < MODEL_CLASSES; c++)
#pragma unroll
        for (int j = 0; j < GRAD_SLOTS; j++)
            out[c * MODEL_FEATURES + 2 * GRAD_OWNERS * (j / 2) + 2 * owner + j % 2] = owner_sums[j][c] * INV_255;
    if (owner < REST_OWNERS) {
        out[rest_c * MODEL_FEATURES + rest_k] = rest_sums[0] * INV_255;
        out[(rest_c + REST_CLASSES) * MODEL_FEATURES + rest_k] = rest_sums[1] * INV_255;
    }
}

/* Chapter 07's block_add_records, tuned: the wave index uniform (an SGPR),
 * the wave count a constant. A barrier: every thread of the block calls it. */
__device__ __forceinline__ void add_block_loss_and_hits(float squared, unsigned int hits,
                                                        float *wave_loss, unsigned int *wave_hits,
                                                        float *loss_sum, unsigned int *correct)
{
    int lane = threadIdx.x % WAVE_SIZE, wave = WAVE_UNIFORM(threadIdx.x / WAVE_SIZE);
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
 * wt is W transposed, wt[k][c] (the update keeps it); two_over_n is 2 / N,
 * from the host (a kernel argument lives in an SGPR, not in a VGPR).
 *
 * x = pixel / 255 is not computed pixel by pixel: the sums run over the
 * pixels as integers (exact in float) and are multiplied by 1/255 once, the
 * forward's per score and the gradient's at the end. The same numbers up to
 * float rounding (a relative 1e-7 or so, against the check's 1e-4), and one
 * instruction fewer per pixel and per 10 FMAs. */
__global__ void __launch_bounds__(FUSED_THREADS)
train_step(const float *__restrict__ wt, const uint8_t *__restrict__ pixels,
           const uint8_t *__restrict__ labels, float *__restrict__ partial,
           float *__restrict__ loss_sum, unsigned int *__restrict__ correct, int images, float two_over_n)
{
    __shared__ uint32_t tile_space[TILE_SPACE_WORDS];                 /* 50,432 B */
    uint32_t (*pix)[ROW_WORDS] = (uint32_t (*)[ROW_WORDS])tile_space; /* [TILE_IMAGES] rows */
    __shared__ float part_sum[PART_ROWS][MODEL_CLASSES][TILE_IMAGES]; /* 10,240 B */
    __shared__ __attribute__((aligned(16))) float res[TILE_IMAGES][RES_STRIDE]; /* image i's 10 residuals */
    __shared__ float wave_loss[FUSED_THREADS / WAVE_SIZE];
    __shared__ unsigned int wave_hits[FUSED_THREADS / WAVE_SIZE];
    __shared__ float image_loss[TILE_IMAGES];
    __shared__ unsigned int image_hits[TILE_IMAGES];
    int t = threadIdx.x;
    /* Forward mapping: image i of the tile, feature part p (uniform in a
     * wave when TILE_IMAGES is a multiple of the wave size). */
    int i_fwd = t % TILE_IMAGES;
    int part = WAVE_UNIFORM(t / TILE_IMAGES);
    /* Gradient mapping: owner u of copy h takes images h, h + 4, ... Copy
     * is uniform in a wave (GRAD_OWNERS is whole waves): the image loop's
     * count and addresses are scalar. */
    int owner = t % GRAD_OWNERS, copy = WAVE_UNIFORM(t / GRAD_OWNERS);
    /* Owner u's leftover feature, 768 + u % 17 (784 is the bias, whose byte
     * is the row's pad, 255), for the classes u / 17 and u / 17 + 5. Owners
     * past the 85 compute one too (owner 84's, clamped), with no branch in
     * the loop, and never store it. */
    int rest_owner = owner < REST_OWNERS ? owner : REST_OWNERS - 1;
    int rest_c = rest_owner / REST_FEATURES, rest_k = REST_START + rest_owner % REST_FEATURES;
    float owner_sums[GRAD_SLOTS][MODEL_CLASSES], rest_sums[2] = {0.0f, 0.0f};
#pragma unroll
    for (int j = 0; j < GRAD_SLOTS; j++)
#pragma unroll
        for (int c = 0; c < MODEL_CLASSES; c++) owner_sums[j][c] = 0.0f;
    /* Thread t < TILE_IMAGES's images' squared errors and right predictions:
     * in LDS, not in registers that the gradient's 62 sums need. */
    if (t < TILE_IMAGES) {
        image_loss[t] = 0.0f;
        image_hits[t] = 0;
    }
    int tiles = (images + TILE_IMAGES - 1) / TILE_IMAGES;
    /* The rows' pads: byte 784 is 255 (255 / 255 = 1, the bias's feature).
     * No tile overwrites them; the handover does, after a barrier. */
    if (t < TILE_IMAGES) pix[t][PIXEL_WORDS] = 0xffu;
    pixels16 staged[TILE_LOADS];
    fetch_tile(pixels, images, blockIdx.x, t, staged);
    int grid = gridDim.x; /* blocks in the grid: each takes every grid-th tile */
    for (int tile = blockIdx.x; tile < tiles; tile += grid) {
        store_tile(pix, t, staged);
        __syncthreads();
        /* The next tile's loads go out now and overlap this tile's forward
         * only: the barrier after the forward waits for them (see
         * fetch_tile). Issued any later, they would overlap less. */
        if (tile + grid < tiles) fetch_tile(pixels, images, tile + grid, t, staged);
        /* Threads t < TILE_IMAGES: the label of image t, -1 for none, for the
         * epilogue. */
        int first = tile * TILE_IMAGES;
        int label = t < TILE_IMAGES && first + t < images ? labels[first + t] : -1;

        /* Forward: lane i_fwd's image, this wave's words, 4 pixels each
         * (one ds_read_b32, v_cvt_f32_ubyte0..3), each pixel 10 FMAs with
         * weights that are the same in every lane: a word's 40 weights are
         * consecutive in wt, three scalar loads (16 + 16 + 8 dwords) into
         * SGPRs. Copied into w[] before the first FMA, all three go out
         * together and one wait covers them (where each FMA reads its weight
         * from wt, hipcc issues the third after the first wait: two waits a
         * word). This phase stays in the kernel: as a function, even
         * __forceinline__, the compiler optimises its loop before inlining
         * it. */
        float acc[MODEL_CLASSES];
#pragma unroll
        for (int c = 0; c < MODEL_CLASSES; c++) acc[c] = 0.0f;
        const uint32_t *x_words = pix[i_fwd] + part;
        const float *w_words = wt + part * WORD_WEIGHTS;
        UNROLL(FWD_UNROLL)
        for (int m = 0; m < FWD_STEPS; m++) {
            /* Only the last step can be past the row: part + 8 m < 196. */
            if (m < FWD_STEPS - 1 || part + FWD_PARTS * m < PIXEL_WORDS) {
                uint32_t four = x_words[FWD_PARTS * m];
                const float *w4 = w_words + FWD_PARTS * WORD_WEIGHTS * m;
                float w[WORD_WEIGHTS];
#pragma unroll
                for (int j = 0; j < WORD_WEIGHTS; j++) w[j] = w4[j];
#pragma unroll
                for (int b = 0; b < 4; b++) {
                    float x = (float)((four >> (8 * b)) & 0xffu);
#pragma unroll
                    for (int c = 0; c < MODEL_CLASSES; c++) acc[c] += w[b * MODEL_CLASSES + c] * x;
                }
            }
        }
        /* Parts 0-3 store their sums, parts 4-7 add theirs: 10 KB of LDS
         * instead of 20, for one more barrier. */
        float *sums = &part_sum[part % PART_ROWS][0][i_fwd]; /* one address, 10 offsets */
        if (part < PART_ROWS) {
#pragma unroll
            for (int c = 0; c < MODEL_CLASSES; c++) sums[c * TILE_IMAGES] = acc[c];
        }
        __syncthreads();
        if (part >= PART_ROWS) {
#pragma unroll
            for (int c = 0; c < MODEL_CLASSES; c++) sums[c * TILE_IMAGES] += acc[c];
        }
        __syncthreads();

        if (t < TILE_IMAGES) epilogue(part_sum, wt, t, label, two_over_n, res, &image_loss[t], &image_hits[t]);
        __syncthreads();

        /* Gradient: every thread, a quarter of the images of the tile. */
        const uint8_t *rows = (const uint8_t *)pix;
        UNROLL(GRAD_UNROLL)
        for (int i = copy; i < TILE_IMAGES; i += GRAD_COPIES)
            gradient_image(read_owner_pixels(rows + i * ROW_BYTES, owner, rest_k), res[i], rest_c, owner_sums,
                           rest_sums);
        /* Every wave is done with pix and res: the next tile may overwrite
         * them. (part_sum is next written after the next barrier.) */
        __syncthreads();
    }
    /* The handover: copies 3, 2, 1 in turn through LDS to copy 0, which
     * adds them (in that order: the same bits every run) and stores. */
    uint32_t *handover = tile_space; /* [GRAD_SUMS][GRAD_OWNERS], float bits */
    /* Once per block: in a block with no tile (fewer tiles than blocks), the
     * only barrier between the pads' store and the handover's. */
    __syncthreads();
    for (int giver = GRAD_COPIES - 1; giver > 0; giver--) {
        if (copy == giver) hand_over(handover, owner, owner_sums, rest_sums);
        __syncthreads();
        if (copy == 0) take_over(handover, owner, owner_sums, rest_sums);
        if (giver > 1) __syncthreads(); /* read before the next copy writes */
    }
    if (copy == 0) store_partial(partial, owner, rest_c, rest_k, owner_sums, rest_sums);
    float squared = t < TILE_IMAGES ? image_loss[t] : 0.0f;
    unsigned int hits = t < TILE_IMAGES ? image_hits[t] : 0;
    add_block_loss_and_hits(squared, hits, wave_loss, wave_hits, loss_sum, correct); /* a barrier */
}

/* The blocks' partial gradients, rows padded with zeros to a multiple of
 * UPDATE_ROWS. Block b's wave q adds, for WAVE_SIZE weights, the rows
 * UPDATE_BATCH q .. UPDATE_BATCH q + 15 of every UPDATE_ROWS: each batch's
 * 16 loads go out before its first addition, one round trip per batch (one
 * in all for 60 blocks). Wave 0 adds the waves' sums in order (the same bits
 * every run) and updates W and its transposed copy wt. */
__global__ void __launch_bounds__(UPDATE_SPLIT * WAVE_SIZE)
update(float *__restrict__ w, float *__restrict__ wt, const float *__restrict__ partial, int rows,
       float learning_rate)
{
    __shared__ float wave_grad[UPDATE_SPLIT][WAVE_SIZE];
    int lane = threadIdx.x % WAVE_SIZE, q = threadIdx.x / WAVE_SIZE;
    int j = blockIdx.x * WAVE_SIZE + lane;
    /* Lanes past the last weight read the last one (every lane reaches the barrier). */
    const float *column = partial + (j < MODEL_WEIGHTS ? j : MODEL_WEIGHTS - 1);
    float grad = 0.0f;
    for (int s = UPDATE_BATCH * q; s < rows; s += UPDATE_ROWS) {
        float v[UPDATE_BATCH];
#pragma unroll
        for (int b = 0; b < UPDATE_BATCH; b++) v[b] = column[(size_t)(s + b) * MODEL_WEIGHTS];
#pragma unroll
        for (int b = 0; b < UPDATE_BATCH; b++) grad += v[b];
    }
    wave_grad[q][lane] = grad;
    __syncthreads();
    if (q == 0 && j < MODEL_WEIGHTS) {
        grad = wave_grad[0][lane];
#pragma unroll
        for (int p = 1; p < UPDATE_SPLIT; p++) grad += wave_grad[p][lane];
        float updated = w[j] - learning_rate * grad;
        w[j] = updated;
        wt[(j % MODEL_FEATURES) * MODEL_CLASSES + j / MODEL_FEATURES] = updated;
    }
}

typedef struct {
    int blocks;     /* train_step's grid: compute units x blocks per CU */
    int rows;       /* blocks, rounded up to a multiple of UPDATE_ROWS */
    float *partial; /* rows x 10 x 785: one gradient per block, then zeros */
    float *wt;      /* W transposed: 785 x 10 */
} buffers;

void chapter_setup(const gpu_problem *p, void **scratch)
{
    buffers *b = (buffers *)malloc(sizeof *b);
    if (!b) fatal(1, "out of host memory");
    int per_cu = BLOCKS_PER_CU;
    if (per_cu == 0)
        HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, train_step, FUSED_THREADS, 0));
    if (per_cu < 1) fatal(1, "train_step: %d threads per block do not fit this device", FUSED_THREADS);
    b->blocks = p->compute_units * per_cu;
    b->rows = (b->blocks + UPDATE_ROWS - 1) / UPDATE_ROWS * UPDATE_ROWS;
    size_t row_bytes = (size_t)MODEL_WEIGHTS * sizeof(float);
    b->partial = (float *)gpu_alloc((size_t)b->rows * row_bytes, "partial");
    /* The padding rows stay zero: train_step writes rows 0 .. blocks - 1 only. */
    HIP_CHECK(hipMemset(b->partial + (size_t)b->blocks * MODEL_WEIGHTS, 0, (size_t)(b->rows - b->blocks) * row_bytes));
    /* wt from the initial W, on the host; update keeps it from then on. */
    float w[MODEL_WEIGHTS], w_t[MODEL_WEIGHTS];
    HIP_CHECK(hipMemcpy(w, p->w, sizeof w, hipMemcpyDeviceToHost));
    for (int c = 0; c < MODEL_CLASSES; c++)
        for (int k = 0; k < MODEL_FEATURES; k++) w_t[k * MODEL_CLASSES + c] = w[c * MODEL_FEATURES + k];
    b->wt = (float *)upload(w_t, sizeof w_t, "wt");
    *scratch = b;
}

void chapter_iteration(const gpu_problem *p, void *scratch, int it)
{
    buffers *b = (buffers *)scratch;
    int n = p->images;
    hipLaunchKernelGGL(train_step, dim3(b->blocks), dim3(FUSED_THREADS), 0, 0,
                       b->wt, p->pixels, p->labels, b->partial, p->loss_sum + it,
                       p->correct + it, n, 2.0f / n);
    HIP_CHECK_LAUNCH(train_step);
    hipLaunchKernelGGL(update, dim3((MODEL_WEIGHTS + WAVE_SIZE - 1) / WAVE_SIZE), dim3(UPDATE_SPLIT * WAVE_SIZE),
                       0, 0, p->w, b->wt, b->partial, b->rows, p->learning_rate);
    HIP_CHECK_LAUNCH(update);
}

void chapter_teardown(void *scratch)
{
    buffers *b = (buffers *)scratch;
    gpu_free(b->partial);
    gpu_free(b->wt);
    free(b);
}
