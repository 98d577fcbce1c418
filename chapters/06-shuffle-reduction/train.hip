/* Chapter 06: shuffle reductions.
 *
 * Chapter 05's kernels, with the gradient's sum over the images split across
 * many threads and blocks instead of run down by one thread per weight. Each
 * thread sums its share of the images, the lanes of a wave add their sums with
 * shuffles (__shfl_down), the waves of a block through LDS, and each block
 * stores one partial sum per weight; the update adds the partials. The loss
 * and hits are added up the same way, to one part per block. Five kernels
 * per iteration:
 *   forward_scores   one thread per image (10 scores), a block per 128 images:
 *                    tiles of W and x_cols
 *   residual_loss    one thread per image: prediction, loss, residual; the
 *                    block's loss and hits added up (shuffles, then LDS)
 *   sum_records      one block: the blocks' loss and hits, added up
 *   gradient         a block per 4 features and slice of the images, one
 *                    thread per image at a time (x_cols): 40 sums per thread,
 *                    reduced over the block into one partial per weight
 *   update           one thread per weight: W -= learning_rate * (sum of the
 *                    partials)
 * Everything else (data, timing, reports) is the harness in common/. */
#include <hip/hip_runtime.h>

#include "gpu_trainer.h"

#define BLOCK_SIZE 256 /* threads per block: a multiple of the wave size on every platform */
#define SUM_THREADS 1024 /* sum_records' one block: the most threads a block may have */

/* Forward: a block computes all 10 classes of FWD_TILE_IMAGES images, one
 * thread per image, stepping through the features FWD_TILE_K at a time. The
 * unrolled step is FWD_TILE_K x 10 multiply-adds; from 8 up, the registers
 * the compiler wants for it exceed the 64 it may use here, and it spills. */
#define FWD_TILE_IMAGES 128
#define FWD_TILE_K 4
#define FWD_THREADS FWD_TILE_IMAGES /* 128: a multiple of 64 */
#define FWD_STEPS ((MODEL_FEATURES + FWD_TILE_K - 1) / FWD_TILE_K) /* 197 */
/* Each thread's share of one step's loads, rounded up (the last round is
 * guarded): compile-time counts, so that they can wait in registers. */
#define FWD_X_LOADS ((FWD_TILE_K * FWD_TILE_IMAGES + FWD_THREADS - 1) / FWD_THREADS) /* 4 */
#define FWD_W_LOADS ((MODEL_CLASSES * FWD_TILE_K + FWD_THREADS - 1) / FWD_THREADS)   /* 1 */

/* Gradient: a block computes all 10 classes of GRAD_FEATURES features over
 * one of GRAD_SLICES slices of the images. Its threads split the slice, image
 * by image (thread t takes images t, t + GRAD_THREADS, ...), so the sum over
 * the images is spread over 197 x GRAD_SLICES blocks of GRAD_THREADS threads
 * instead of run down by one thread per weight. 4 features x 10 classes = 40
 * sums per thread, and 14 loads in flight: more than the 64 VGPRs a kernel
 * may use when its block size is unknown, hence __launch_bounds__ below. */
#define GRAD_FEATURES 4
#define GRAD_SLICES 2
#define GRAD_THREADS 256 /* a multiple of the wave size on every platform */
#define GRAD_WAVES (GRAD_THREADS / WAVE_SIZE)
#define GRAD_SUMS (MODEL_CLASSES * GRAD_FEATURES) /* 40 per thread */
#define GRAD_GROUPS ((MODEL_FEATURES + GRAD_FEATURES - 1) / GRAD_FEATURES) /* 197 */

const char chapter_name[] = "06-shuffle-reduction";
const int chapter_needs = NEEDS_X_COLS;

/* The sum of v over the lanes of a wave, in lane 0. Each step adds the value
 * `offset` lanes up: after the steps WAVE_SIZE/2, ..., 2, 1, lane 0 holds the
 * whole wave's sum (the other lanes hold partial sums, unused). */
__device__ float wave_sum(float v)
{
    for (int offset = WAVE_SIZE / 2; offset > 0; offset /= 2)
        v += __shfl_down(v, offset);
    return v;
}

/* The same for a count. */
__device__ unsigned int wave_count(unsigned int v)
{
    for (int offset = WAVE_SIZE / 2; offset > 0; offset /= 2)
        v += __shfl_down(v, offset);
    return v;
}

/* The forward's tiles at feature k0, from global memory into registers
 * (unrolled: x_next[l] is a register only where l is a constant).
 * This only issues the loads: a wave waits for them where forward_store
 * uses them. Zeros past the last feature and the last image: the sum needs
 * no guard, and a missing image adds nothing. */
__device__ void forward_fetch(const float *w, const float *x_cols, int images, int first, int k0,
                              int t, float *x_next, float *w_next)
{
#pragma unroll
    for (int l = 0; l < FWD_X_LOADS; l++) {
        int e = t + l * FWD_THREADS;
        int k = k0 + e / FWD_TILE_IMAGES, n = first + e % FWD_TILE_IMAGES;
        x_next[l] = e < FWD_TILE_K * FWD_TILE_IMAGES && k < MODEL_FEATURES && n < images
                        ? x_cols[(size_t)k * images + n] : 0.0f;
    }
#pragma unroll
    for (int l = 0; l < FWD_W_LOADS; l++) {
        int e = t + l * FWD_THREADS;
        int k = k0 + e % FWD_TILE_K;
        w_next[l] = e < MODEL_CLASSES * FWD_TILE_K && k < MODEL_FEATURES
                        ? w[(e / FWD_TILE_K) * MODEL_FEATURES + k] : 0.0f;
    }
}

/* ...and from registers into one of the two LDS buffers. */
__device__ void forward_store(float (*x_tile)[FWD_TILE_IMAGES], float (*w_tile)[FWD_TILE_K], int t,
                              const float *x_next, const float *w_next)
{
#pragma unroll
    for (int l = 0; l < FWD_X_LOADS; l++) {
        int e = t + l * FWD_THREADS;
        if (e < FWD_TILE_K * FWD_TILE_IMAGES)
            x_tile[e / FWD_TILE_IMAGES][e % FWD_TILE_IMAGES] = x_next[l];
    }
#pragma unroll
    for (int l = 0; l < FWD_W_LOADS; l++) {
        int e = t + l * FWD_THREADS;
        if (e < MODEL_CLASSES * FWD_TILE_K)
            w_tile[e / FWD_TILE_K][e % FWD_TILE_K] = w_next[l];
    }
}

/* scores[c * images + i] = sum_k w[c][k] * x[i][k].
 * The block stages FWD_TILE_K features of W (10 rows) and of its images (from
 * x_cols: each tile row is one coalesced read) in LDS. From there each W value
 * serves the block's 128 images and each x value, read once into a register,
 * its 10 classes. Threads with no image still help load and reach every
 * barrier: no early return. */
__global__ void forward_scores(const float *w, const float *x_cols, float *scores, int images)
{
    /* No padding: a wave reads one address of w_tile (a broadcast) and
     * consecutive floats of x_tile, so no two of its lanes meet in one of the
     * 32 LDS banks at different addresses. */
    __shared__ float w_tile[2][MODEL_CLASSES][FWD_TILE_K]; /* two of each tile: step s uses s % 2 */
    __shared__ float x_tile[2][FWD_TILE_K][FWD_TILE_IMAGES];
    float x_next[FWD_X_LOADS], w_next[FWD_W_LOADS];
    int t = threadIdx.x;
    int first = blockIdx.x * FWD_TILE_IMAGES;
    int i = first + threadIdx.x;
    /* Image i's 10 scores, in registers: after unrolling, every index into
     * sum[] is a constant. */
    float sum[MODEL_CLASSES];
#pragma unroll
    for (int c = 0; c < MODEL_CLASSES; c++) sum[c] = 0.0f;
    forward_fetch(w, x_cols, images, first, 0, t, x_next, w_next);
    for (int step = 0; step < FWD_STEPS; step++) {
        int b = step % 2;
        forward_store(x_tile[b], w_tile[b], t, x_next, w_next);
        /* The one barrier of the step: tile `step` is complete, and every
         * thread has finished step - 1, the last reader of the other buffer,
         * so the next step may fill it. */
        __syncthreads();
        /* The next tile's loads go out before this tile's arithmetic, and
         * are in flight while it runs. */
        if (step + 1 < FWD_STEPS)
            forward_fetch(w, x_cols, images, first, (step + 1) * FWD_TILE_K, t, x_next, w_next);
#pragma unroll
        for (int kk = 0; kk < FWD_TILE_K; kk++) {
            float x = x_tile[b][kk][threadIdx.x]; /* one LDS read, ten multiply-adds */
#pragma unroll
            for (int c = 0; c < MODEL_CLASSES; c++)
                sum[c] += w_tile[b][c][kk] * x;
        }
    }
    if (i < images) {
#pragma unroll
        for (int c = 0; c < MODEL_CLASSES; c++) scores[c * images + i] = sum[c];
    }
}

/* One thread per image: the prediction (ties to the lowest class), the
 * squared error, and the residual scaled for the gradient, 2 (Yhat - Y) / N.
 * The block's squared errors and hits are added up (shuffles within each
 * wave, LDS across the waves) into one part per block: sum_records then adds
 * 235 parts instead of 60,000. */
__global__ void residual_loss(const float *scores, const uint8_t *labels, float *delta,
                              float *block_loss, unsigned int *block_hits, int images)
{
    __shared__ float wave_loss[BLOCK_SIZE / WAVE_SIZE];
    __shared__ unsigned int wave_hits[BLOCK_SIZE / WAVE_SIZE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float squared = 0.0f;
    unsigned int hit = 0;
    /* No early return: threads past the last image add zeros, but every lane
     * must reach the shuffles and the barrier. */
    if (i < images) {
        int label = labels[i];
        int best = 0;
        for (int c = 0; c < MODEL_CLASSES; c++) {
            float s = scores[c * images + i];
            if (s > scores[best * images + i]) best = c;
            float r = s - (c == label ? 1.0f : 0.0f);
            squared += r * r;
            delta[c * images + i] = 2.0f * r / images;
        }
        hit = best == label;
    }
    squared = wave_sum(squared);
    hit = wave_count(hit);
    int lane = threadIdx.x % WAVE_SIZE, wave = threadIdx.x / WAVE_SIZE;
    if (lane == 0) {
        wave_loss[wave] = squared;
        wave_hits[wave] = hit;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        float loss = 0.0f;
        unsigned int hits = 0;
        for (int w = 0; w < BLOCK_SIZE / WAVE_SIZE; w++) {
            loss += wave_loss[w];
            hits += wave_hits[w];
        }
        block_loss[blockIdx.x] = loss;
        block_hits[blockIdx.x] = hits;
    }
}

/* One block adds up the parts of the loss and hits (one per image here)
 * into the iteration's two records. Thread t sums parts t, t + SUM_THREADS,
 * ... (neighbouring threads, neighbouring slots), stores its sums, and after
 * the barrier thread 0 adds the SUM_THREADS of them: the more threads, the
 * fewer loads each waits for in turn. A fixed order of plain adds: the same
 * total on every run. (An atomicAdd per image into one float, the obvious
 * alternative, makes 60,000 threads queue on one address: see the README.) */
__global__ void sum_records(const float *loss_parts, const unsigned int *hit_parts,
                            float *thread_loss, unsigned int *thread_hits, float *loss_sum,
                            unsigned int *correct, int parts)
{
    int t = threadIdx.x;
    float loss = 0.0f;
    unsigned int hits = 0;
    for (int i = t; i < parts; i += SUM_THREADS) {
        loss += loss_parts[i];
        hits += hit_parts[i];
    }
    thread_loss[t] = loss;
    thread_hits[t] = hits;
    __syncthreads(); /* every thread's sums are stored before thread 0 reads them */
    if (t != 0) return;
    for (int u = 1; u < SUM_THREADS; u++) {
        loss += thread_loss[u];
        hits += thread_hits[u];
    }
    *loss_sum = loss;
    *correct = hits;
}

/* gradient partial[slice][c][k] = sum over the slice's images i of
 * delta[c][i] * x[i][k], for the block's GRAD_FEATURES features k. Lane t of
 * a wave reads image i's residuals and features from delta and x_cols, where
 * consecutive images are consecutive addresses: every load is coalesced.
 * Then three levels of sums: over the images each thread took (registers),
 * over the lanes of each wave (shuffles), over the waves of the block (LDS). */
__global__ void __launch_bounds__(GRAD_THREADS)
gradient(const float *delta, const float *x_cols, float *partial, int images)
{
    __shared__ float wave_sums[GRAD_WAVES][GRAD_SUMS];
    int first = blockIdx.x * GRAD_FEATURES;
    int slice = (images + GRAD_SLICES - 1) / GRAD_SLICES;
    int begin = blockIdx.y * slice;
    int end = begin + slice < images ? begin + slice : images;
    /* The block's rows of x_cols. Past the last feature (the last block has
     * 1 of its 4) they repeat feature 784: those sums are never stored, and
     * the loop needs no guard. */
    const float *x_row[GRAD_FEATURES];
    float sum[GRAD_FEATURES][MODEL_CLASSES];
#pragma unroll
    for (int f = 0; f < GRAD_FEATURES; f++) {
        int k = first + f < MODEL_FEATURES ? first + f : MODEL_FEATURES - 1;
        x_row[f] = x_cols + (size_t)k * images;
#pragma unroll
        for (int c = 0; c < MODEL_CLASSES; c++) sum[f][c] = 0.0f;
    }
    for (int i = begin + threadIdx.x; i < end; i += GRAD_THREADS) {
        /* All 14 loads first, so that they are in flight together. */
        float d[MODEL_CLASSES], x[GRAD_FEATURES];
#pragma unroll
        for (int c = 0; c < MODEL_CLASSES; c++) d[c] = delta[(size_t)c * images + i];
#pragma unroll
        for (int f = 0; f < GRAD_FEATURES; f++) x[f] = x_row[f][i];
#pragma unroll
        for (int f = 0; f < GRAD_FEATURES; f++)
#pragma unroll
            for (int c = 0; c < MODEL_CLASSES; c++) sum[f][c] += d[c] * x[f]; /* 40 from 14 loads */
    }
    /* Every thread gets here (no early return), as the shuffles and the
     * barrier need: a thread without images adds zeros. */
    int lane = threadIdx.x % WAVE_SIZE, wave = threadIdx.x / WAVE_SIZE;
#pragma unroll
    for (int f = 0; f < GRAD_FEATURES; f++)
#pragma unroll
        for (int c = 0; c < MODEL_CLASSES; c++) {
            float s = wave_sum(sum[f][c]);
            if (lane == 0) wave_sums[wave][f * MODEL_CLASSES + c] = s;
        }
    __syncthreads();
    /* One store per block per weight: no atomics, and no zeroing of G. */
    if (threadIdx.x < GRAD_SUMS) {
        int f = threadIdx.x / MODEL_CLASSES, c = threadIdx.x % MODEL_CLASSES;
        int k = first + f;
        float s = 0.0f;
        for (int w = 0; w < GRAD_WAVES; w++) s += wave_sums[w][threadIdx.x];
        if (k < MODEL_FEATURES)
            partial[(size_t)blockIdx.y * MODEL_WEIGHTS + c * MODEL_FEATURES + k] = s;
    }
}

/* The slices' partial gradients are added in slice order, so a run gives the
 * same bits every time. */
__global__ void update(float *w, const float *partial, float learning_rate)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < MODEL_WEIGHTS) {
        float grad = 0.0f;
        for (int s = 0; s < GRAD_SLICES; s++) grad += partial[s * MODEL_WEIGHTS + j];
        w[j] -= learning_rate * grad;
    }
}

typedef struct {
    float *scores; /* 10 x images */
    float *delta;  /* 10 x images: 2 (Yhat - Y) / N */
    float *partial; /* GRAD_SLICES x 10 x 785: one gradient per slice of the images */
    float *block_loss;         /* one per residual_loss block: its squared errors */
    unsigned int *block_hits;  /* one per block: its right predictions */
    float *thread_loss;        /* SUM_THREADS: sum_records' partial sums */
    unsigned int *thread_hits; /* SUM_THREADS */
} buffers;

static int blocks_for(int threads) { return (threads + BLOCK_SIZE - 1) / BLOCK_SIZE; }

void chapter_setup(const gpu_problem *p, void **scratch)
{
    buffers *b = (buffers *)malloc(sizeof *b);
    if (!b) fatal(1, "out of host memory");
    b->scores = (float *)gpu_alloc((size_t)MODEL_CLASSES * p->images * sizeof(float), "scores");
    b->delta = (float *)gpu_alloc((size_t)MODEL_CLASSES * p->images * sizeof(float), "delta");
    b->partial = (float *)gpu_alloc((size_t)GRAD_SLICES * MODEL_WEIGHTS * sizeof(float), "partial");
    b->block_loss = (float *)gpu_alloc(blocks_for(p->images) * sizeof(float), "block_loss");
    b->block_hits = (unsigned int *)gpu_alloc(blocks_for(p->images) * sizeof(unsigned int), "block_hits");
    b->thread_loss = (float *)gpu_alloc(SUM_THREADS * sizeof(float), "thread_loss");
    b->thread_hits = (unsigned int *)gpu_alloc(SUM_THREADS * sizeof(unsigned int), "thread_hits");
    *scratch = b;
}

void chapter_iteration(const gpu_problem *p, void *scratch, int it)
{
    buffers *b = (buffers *)scratch;
    int n = p->images;
    hipLaunchKernelGGL(forward_scores, dim3((n + FWD_TILE_IMAGES - 1) / FWD_TILE_IMAGES),
                       dim3(FWD_TILE_IMAGES), 0, 0,
                       p->w, p->x_cols, b->scores, n);
    HIP_CHECK_LAUNCH(forward_scores);
    hipLaunchKernelGGL(residual_loss, dim3(blocks_for(n)), dim3(BLOCK_SIZE), 0, 0,
                       b->scores, p->labels, b->delta, b->block_loss, b->block_hits, n);
    HIP_CHECK_LAUNCH(residual_loss);
    hipLaunchKernelGGL(sum_records, dim3(1), dim3(SUM_THREADS), 0, 0, b->block_loss, b->block_hits,
                       b->thread_loss, b->thread_hits, p->loss_sum + it, p->correct + it, blocks_for(n));
    HIP_CHECK_LAUNCH(sum_records);
    hipLaunchKernelGGL(gradient, dim3(GRAD_GROUPS, GRAD_SLICES), dim3(GRAD_THREADS), 0, 0,
                       b->delta, p->x_cols, b->partial, n);
    HIP_CHECK_LAUNCH(gradient);
    hipLaunchKernelGGL(update, dim3(blocks_for(MODEL_WEIGHTS)), dim3(BLOCK_SIZE), 0, 0,
                       p->w, b->partial, p->learning_rate);
    HIP_CHECK_LAUNCH(update);
}

void chapter_teardown(void *scratch)
{
    buffers *b = (buffers *)scratch;
    gpu_free(b->scores);
    gpu_free(b->delta);
    gpu_free(b->partial);
    gpu_free(b->block_loss);
    gpu_free(b->block_hits);
    gpu_free(b->thread_loss);
    gpu_free(b->thread_hits);
    free(b);
}
