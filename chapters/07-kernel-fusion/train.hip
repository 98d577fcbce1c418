/* Chapter 07: kernel fusion.
 *
 * Chapter 06 ran five kernels per iteration and handed their results on
 * through global memory: the scores, the residuals and the loss's parts
 * from one kernel to the next, and x_cols was read twice. Here one
 * kernel does all of it for a tile of images while the tile sits in LDS, so
 * each training image is read from global memory once per iteration, and
 * the scores and residuals never leave the chip. Two kernels per iteration:
 *   train_step   a persistent grid, as many blocks as the device holds at
 *                once, each taking tiles of TILE_IMAGES images in turn. A wave per class: its lanes split the features of
 *                an image, a wave reduction (chapter 06's shuffles, as a
 *                butterfly) gives every lane the class's score, and each lane
 *                adds its features' share of the gradient in registers. The
 *                residual, loss and accuracy are the epilogue of each image's
 *                forward. One partial gradient per block, stored at the end.
 *   update       one thread per weight: W -= learning_rate * (sum of the
 *                partials)
 * Everything else (data, timing, reports) is the harness in common/. */
#include <hip/hip_runtime.h>

#include "gpu_trainer.h"
#include "wave_reduce.h" /* wave_sum, wave_count (chapter 06), wave_allsum, block_add_records */

#define BLOCK_SIZE 256 /* threads per block: a multiple of the wave size on every platform */

/* The fused kernel: a wave per class, MODEL_CLASSES waves per block (640
 * threads at wave 64, 320 at wave 32). Lane l of the wave for class c holds
 * W[c][k] and the gradient's partial sum for k = l + WAVE_SIZE * j, for the
 * FUSED_SLOTS values of j that cover the 785 features (13 at wave 64). */
#define FUSED_THREADS (MODEL_CLASSES * WAVE_SIZE)
#define FUSED_SLOTS ((MODEL_FEATURES + WAVE_SIZE - 1) / WAVE_SIZE)
/* A tile: TILE_IMAGES rows of x_rows, as they are in global memory (25 KB
 * of LDS for 8 images), passed through TILE_LOADS registers per thread. */
#define TILE_IMAGES 8
#define TILE_FLOATS (TILE_IMAGES * MODEL_FEATURES) /* 6,280 */
#define TILE_LOADS ((TILE_FLOATS + FUSED_THREADS - 1) / FUSED_THREADS) /* 10 at wave 64 */

const char chapter_name[] = "07-kernel-fusion";
const int chapter_needs = NEEDS_X_ROWS;

/* Tile `tile`'s rows from global memory into registers: they are
 * consecutive in x_rows, so this is one coalesced copy. This only issues the
 * loads (as chapter 04's forward_fetch): a wave waits for them where
 * store_tile uses them. Zeros past the last image; label -1 for no image. */
__device__ void fetch_tile(const float *x_rows, const uint8_t *labels, int images, int tile,
                           int t, float *staged, int *label)
{
    int first = tile * TILE_IMAGES;
    const float *source = x_rows + (size_t)first * MODEL_FEATURES;
    /* The guards compare l * FUSED_THREADS, a constant, with one value per
     * thread: the TILE_LOADS offsets t + l * FUSED_THREADS, kept in
     * registers, would not fit beside W and G. The images left are capped
     * at a tile first, so the product stays small for any image count. */
    int room = min(images - first, TILE_IMAGES) * MODEL_FEATURES - t;
#pragma unroll
    for (int l = 0; l < TILE_LOADS; l++)
        staged[l] = l * FUSED_THREADS < room && l * FUSED_THREADS < TILE_FLOATS - t
                        ? source[t + l * FUSED_THREADS] : 0.0f;
    *label = t < TILE_IMAGES && first + t < images ? labels[first + t] : -1;
}

/* ...and from registers into LDS. */
__device__ void store_tile(float *x_tile, int *label_tile, int t, const float *staged, int label)
{
#pragma unroll
    for (int l = 0; l < TILE_LOADS; l++)
        if (l * FUSED_THREADS < TILE_FLOATS - t) x_tile[t + l * FUSED_THREADS] = staged[l];
    if (t < TILE_IMAGES) label_tile[t] = label;
}

/* The phases of train_step, in the order it calls them. */

/* This lane's weights of class c, W[c][k] for k = lane + WAVE_SIZE * j, and
 * its gradient sums, zeroed: in registers for the whole kernel (after
 * unrolling, every index into them is a constant). Lanes past feature 784
 * have a weight of zero in the last slot, and their gradient sums are never
 * stored: the loops need no guard. */
__device__ __forceinline__ void load_weights(const float *w, float *w_lane, float *g)
{
    int lane = threadIdx.x % WAVE_SIZE, c = threadIdx.x / WAVE_SIZE;
#pragma unroll
    for (int j = 0; j < FUSED_SLOTS; j++) {
        int k = lane + WAVE_SIZE * j;
        w_lane[j] = k < MODEL_FEATURES ? w[c * MODEL_FEATURES + k] : 0.0f;
        g[j] = 0.0f;
    }
}

/* Forward: this lane's share of an image's dot product with class c's
 * weights. The x values stay in registers for the gradient. */
__device__ __forceinline__ float forward(const float *x_image, int lane, const float *w_lane, float *x)
{
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < FUSED_SLOTS; j++) {
        x[j] = x_image[lane + WAVE_SIZE * j];
        s += w_lane[j] * x[j];
    }
    return s;
}

/* Epilogue, from the score s of class c, the same in every lane of the wave:
 * the residual 2 (s - y) / N, 0 for no image, and the squared error, added
 * to *squared in lane 0. (*squared is read and written whatever the branch:
 * then the compiler makes the branches selects, as it did with this code
 * inside the kernel.) */
__device__ __forceinline__ float epilogue(float s, int label, int c, int lane, float two_over_n, float *squared)
{
    float r = 0.0f, sum = *squared;
    if (label >= 0) {
        float error = s - (c == label ? 1.0f : 0.0f);
        r = error * two_over_n;
        if (lane == 0) sum += error * error;
    }
    *squared = sum;
    return r;
}

/* One store per block per weight: no atomics, and no zeroing of G. */
__device__ __forceinline__ void store_partial(float *partial, const float *g)
{
    int lane = threadIdx.x % WAVE_SIZE, c = threadIdx.x / WAVE_SIZE;
#pragma unroll
    for (int j = 0; j < FUSED_SLOTS; j++) {
        int k = lane + WAVE_SIZE * j;
        if (k < MODEL_FEATURES)
            partial[(size_t)blockIdx.x * MODEL_WEIGHTS + c * MODEL_FEATURES + k] = g[j];
    }
}

/* One iteration's forward, loss, accuracy and gradient for the tiles
 * blockIdx.x, blockIdx.x + gridDim.x, ... of TILE_IMAGES images each.
 * partial[blockIdx.x][c][k] = sum over the block's images n of
 * 2 (Yhat[c][n] - Y[c][n]) / N * x[n][k], stored once, at the end. */
__global__ void __launch_bounds__(FUSED_THREADS)
train_step(const float *w, const float *x_rows, const uint8_t *labels, float *partial,
           float *loss_sum, unsigned int *correct, int images)
{
    /* Image i's features at i * MODEL_FEATURES, then WAVE_SIZE zeros: in the
     * last slot, lanes past feature 784 read the next image's first
     * features, or these zeros, and multiply them by a weight of zero. */
    __shared__ float x_tile[TILE_FLOATS + WAVE_SIZE];
    __shared__ int label_tile[TILE_IMAGES]; /* -1: no image */
    __shared__ float score_tile[TILE_IMAGES][MODEL_CLASSES];
    __shared__ float wave_loss[FUSED_THREADS / WAVE_SIZE]; /* one per wave: per class */
    __shared__ unsigned int wave_hits[FUSED_THREADS / WAVE_SIZE];
    int t = threadIdx.x;
    int lane = t % WAVE_SIZE, c = t / WAVE_SIZE;
    float w_lane[FUSED_SLOTS], g[FUSED_SLOTS];
    load_weights(w, w_lane, g);
    if (t < WAVE_SIZE) x_tile[TILE_FLOATS + t] = 0.0f;
    float two_over_n = 2.0f / images;
    float squared = 0.0f;  /* class c's squared errors, in lane 0 of its wave */
    unsigned int hits = 0; /* right predictions, in threads t < TILE_IMAGES */
    int tiles = (images + TILE_IMAGES - 1) / TILE_IMAGES;
    float staged[TILE_LOADS];
    int label_next;
    fetch_tile(x_rows, labels, images, blockIdx.x, t, staged, &label_next);
    int grid = gridDim.x; /* blocks in the grid: each takes every grid-th tile */
    for (int tile = blockIdx.x; tile < tiles; tile += grid) {
        store_tile(x_tile, label_tile, t, staged, label_next);
        __syncthreads();
        /* The next tile's loads go out now and are in flight while this
         * tile is computed: one block per CU has no other block to run
         * while it waits (chapter 04's ping-pong, through registers). */
        if (tile + grid < tiles)
            fetch_tile(x_rows, labels, images, tile + grid, t, staged, &label_next);
#pragma unroll 1 /* unrolled, the images' LDS reads would be hoisted together, and spill */
        for (int i = 0; i < TILE_IMAGES; i++) {
            float x[FUSED_SLOTS];
            float s = forward(x_tile + i * MODEL_FEATURES, lane, w_lane, x);
            s = wave_allsum(s); /* image i's score for class c, in every lane */
            float r = epilogue(s, label_tile[i], c, lane, two_over_n, &squared);
            if (lane == 0) score_tile[i][c] = s; /* for the prediction, after the tile */
            /* Gradient: the same x values, times the residual. */
#pragma unroll
            for (int j = 0; j < FUSED_SLOTS; j++) g[j] += r * x[j];
        }
        /* All 10 scores are in score_tile, and no wave reads x_tile any
         * more: the next tile may overwrite it. score_tile is next written
         * after the next barrier. */
        __syncthreads();
        /* The prediction needs all 10 classes: one thread per image. */
        if (t < TILE_IMAGES && label_tile[t] >= 0) {
            int best = 0;
            for (int k = 1; k < MODEL_CLASSES; k++)
                if (score_tile[t][k] > score_tile[t][best]) best = k;
            hits += best == label_tile[t];
        }
    }
    store_partial(partial, g);
    block_add_records(squared, hits, wave_loss, wave_hits, loss_sum, correct); /* a barrier */
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
    /* A persistent grid: exactly as many blocks as the device runs at once.
     * On gfx906 the kernel's 80 VGPRs leave room for 3 of its waves per SIMD,
     * so one block of 10 per CU: 60 blocks. The executor reports 60 CUs. */
    int per_cu = 0;
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
                       p->w, p->x_rows, p->labels, b->partial, p->loss_sum + it,
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
