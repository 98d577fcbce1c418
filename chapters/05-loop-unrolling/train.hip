/* Chapter 05: loop unrolling.
 *
 * Chapter 04's kernels, with the inner tile loops unrolled (#pragma unroll)
 * and the reuse that unrolling makes possible taken: a forward thread keeps
 * all 10 scores of its image in registers, so each x value it reads from LDS
 * serves 10 multiply-adds. Five kernels per iteration:
 *   forward_scores   one thread per image (10 scores), a block per 128 images:
 *                    tiles of W and x_cols
 *   residual_loss    one thread per image: prediction, loss, residual
 *   sum_records      one block: the iteration's loss and hits, added up
 *   gradient         one thread per weight, a block per 32 features:
 *                    tiles of delta and x_rows
 *   update           one thread per weight: W -= learning_rate * G
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

/* Gradient: a block computes all 10 classes of GRAD_TILE_K features,
 * stepping through the images GRAD_TILE_IMAGES at a time. Its 10 rows of
 * threads split each tile's images (row g takes images g, g + 10, ...), and
 * each thread keeps its feature's 10 class sums in registers. 32 features
 * give 25 blocks: fewer, wider blocks would leave more CUs idle. */
#define GRAD_TILE_K 32
#define GRAD_ROWS MODEL_CLASSES /* rows of threads: one image group each, then one class each */
#define GRAD_TILE_IMAGES 100 /* a multiple of GRAD_ROWS; the LDS holds 46 KB of 48 */
#define GRAD_THREADS (GRAD_ROWS * GRAD_TILE_K) /* 320: a multiple of 64 */
#define GRAD_X_LOADS ((GRAD_TILE_IMAGES * GRAD_TILE_K + GRAD_THREADS - 1) / GRAD_THREADS) /* 10 */
#define GRAD_D_LOADS ((MODEL_CLASSES * GRAD_TILE_IMAGES + GRAD_THREADS - 1) / GRAD_THREADS) /* 4 */

const char chapter_name[] = "05-loop-unrolling";
const int chapter_needs = NEEDS_X_ROWS | NEEDS_X_COLS;

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
 * Each image's loss and hit go to a slot of their own: no two threads write
 * one address, so nothing here waits for another thread. */
__global__ void residual_loss(const float *scores, const uint8_t *labels, float *delta,
                              float *image_loss, unsigned int *image_hit, int images)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= images) return;
    int label = labels[i];
    int best = 0;
    float squared = 0.0f;
    for (int c = 0; c < MODEL_CLASSES; c++) {
        float s = scores[c * images + i];
        if (s > scores[best * images + i]) best = c;
        float r = s - (c == label ? 1.0f : 0.0f);
        squared += r * r;
        delta[c * images + i] = 2.0f * r / images;
    }
    image_loss[i] = squared;
    image_hit[i] = best == label;
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

/* The gradient's tiles at image i0, from global memory into registers (as
 * forward_fetch). Zeros past the last image and the last feature. */
__device__ void gradient_fetch(const float *delta, const float *x_rows, int images, int first,
                               int i0, int t, float *x_next, float *d_next)
{
#pragma unroll
    for (int l = 0; l < GRAD_X_LOADS; l++) {
        int e = t + l * GRAD_THREADS;
        int n = i0 + e / GRAD_TILE_K, f = first + e % GRAD_TILE_K;
        x_next[l] = e < GRAD_TILE_IMAGES * GRAD_TILE_K && n < images && f < MODEL_FEATURES
                        ? x_rows[(size_t)n * MODEL_FEATURES + f] : 0.0f;
    }
#pragma unroll
    for (int l = 0; l < GRAD_D_LOADS; l++) {
        int e = t + l * GRAD_THREADS;
        int n = i0 + e % GRAD_TILE_IMAGES;
        d_next[l] = e < MODEL_CLASSES * GRAD_TILE_IMAGES && n < images
                        ? delta[(e / GRAD_TILE_IMAGES) * images + n] : 0.0f;
    }
}

/* ...and from registers into one of the two LDS buffers. */
__device__ void gradient_store(float (*x_tile)[GRAD_TILE_K],
                               float (*delta_tile)[MODEL_CLASSES], int t,
                               const float *x_next, const float *d_next)
{
#pragma unroll
    for (int l = 0; l < GRAD_X_LOADS; l++) {
        int e = t + l * GRAD_THREADS;
        if (e < GRAD_TILE_IMAGES * GRAD_TILE_K)
            x_tile[e / GRAD_TILE_K][e % GRAD_TILE_K] = x_next[l];
    }
#pragma unroll
    for (int l = 0; l < GRAD_D_LOADS; l++) {
        int e = t + l * GRAD_THREADS;
        if (e < MODEL_CLASSES * GRAD_TILE_IMAGES)
            delta_tile[e % GRAD_TILE_IMAGES][e / GRAD_TILE_IMAGES] = d_next[l];
    }
}

/* gradient[c][k] = sum_i delta[c][i] * x[i][k].
 * The block stages GRAD_TILE_IMAGES images of its 32 features (from x_rows:
 * each tile row is one coalesced read) and of the residuals in LDS. A thread
 * reads each of its images' x values once, into a register, for 10
 * multiply-adds; its row's 10 sums per feature are added up at the end.
 * The unrolled step wants about 100 registers: __launch_bounds__ says a block
 * has 320 threads, 2 waves per SIMD, so the compiler may use 128, not 64. */
__global__ void __launch_bounds__(GRAD_THREADS)
gradient(const float *delta, const float *x_rows, float *grad, int images)
{
    /* No padding either: a wave reads two rows of delta_tile (broadcasts) and
     * two rows of x_tile, 32 consecutive floats each. */
    __shared__ float delta_tile[2][GRAD_TILE_IMAGES][MODEL_CLASSES];
    __shared__ float x_tile[2][GRAD_TILE_IMAGES][GRAD_TILE_K];
    __shared__ float row_sums[GRAD_ROWS][MODEL_CLASSES][GRAD_TILE_K];
    float x_next[GRAD_X_LOADS], d_next[GRAD_D_LOADS];
    int t = threadIdx.y * GRAD_TILE_K + threadIdx.x;
    int row = threadIdx.y;
    int first = blockIdx.x * GRAD_TILE_K;
    int k = first + threadIdx.x;
    int steps = (images + GRAD_TILE_IMAGES - 1) / GRAD_TILE_IMAGES;
    /* Feature k's 10 class sums over this row's images, in registers: after
     * unrolling, every index into sum[] is a constant. */
    float sum[MODEL_CLASSES];
#pragma unroll
    for (int c = 0; c < MODEL_CLASSES; c++) sum[c] = 0.0f;
    gradient_fetch(delta, x_rows, images, first, 0, t, x_next, d_next);
    for (int step = 0; step < steps; step++) {
        int b = step % 2;
        gradient_store(x_tile[b], delta_tile[b], t, x_next, d_next);
        __syncthreads(); /* the one barrier of the step, as in the forward */
        if (step + 1 < steps)
            gradient_fetch(delta, x_rows, images, first, (step + 1) * GRAD_TILE_IMAGES, t,
                           x_next, d_next);
#pragma unroll
        for (int j = 0; j < GRAD_TILE_IMAGES / GRAD_ROWS; j++) {
            int nn = j * GRAD_ROWS + row;
            float x = x_tile[b][nn][threadIdx.x]; /* one LDS read, ten multiply-adds */
#pragma unroll
            for (int c = 0; c < MODEL_CLASSES; c++)
                sum[c] += delta_tile[b][nn][c] * x;
        }
    }
#pragma unroll
    for (int c = 0; c < MODEL_CLASSES; c++) row_sums[row][c][threadIdx.x] = sum[c];
    __syncthreads(); /* every row's sums are stored before they are added */
    int c = threadIdx.y; /* now one thread per weight, as in chapter 04 */
    float total = 0.0f;
    for (int r = 0; r < GRAD_ROWS; r++) total += row_sums[r][c][threadIdx.x];
    if (k < MODEL_FEATURES) grad[c * MODEL_FEATURES + k] = total;
}

__global__ void update(float *w, const float *grad, float learning_rate)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < MODEL_WEIGHTS) w[j] -= learning_rate * grad[j];
}

typedef struct {
    float *scores; /* 10 x images */
    float *delta;  /* 10 x images: 2 (Yhat - Y) / N */
    float *grad;   /* 10 x 785 */
    float *image_loss;         /* images: each image's squared error */
    unsigned int *image_hit;   /* images: 1 where the prediction is right */
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
    b->grad = (float *)gpu_alloc(MODEL_WEIGHTS * sizeof(float), "grad");
    b->image_loss = (float *)gpu_alloc((size_t)p->images * sizeof(float), "image_loss");
    b->image_hit = (unsigned int *)gpu_alloc((size_t)p->images * sizeof(unsigned int), "image_hit");
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
                       b->scores, p->labels, b->delta, b->image_loss, b->image_hit, n);
    HIP_CHECK_LAUNCH(residual_loss);
    hipLaunchKernelGGL(sum_records, dim3(1), dim3(SUM_THREADS), 0, 0, b->image_loss, b->image_hit,
                       b->thread_loss, b->thread_hits, p->loss_sum + it, p->correct + it, n);
    HIP_CHECK_LAUNCH(sum_records);
    hipLaunchKernelGGL(gradient, dim3((MODEL_FEATURES + GRAD_TILE_K - 1) / GRAD_TILE_K),
                       dim3(GRAD_TILE_K, MODEL_CLASSES), 0, 0,
                       b->delta, p->x_rows, b->grad, n);
    HIP_CHECK_LAUNCH(gradient);
    hipLaunchKernelGGL(update, dim3(blocks_for(MODEL_WEIGHTS)), dim3(BLOCK_SIZE), 0, 0,
                       p->w, b->grad, p->learning_rate);
    HIP_CHECK_LAUNCH(update);
}

void chapter_teardown(void *scratch)
{
    buffers *b = (buffers *)scratch;
    gpu_free(b->scores);
    gpu_free(b->delta);
    gpu_free(b->grad);
    gpu_free(b->image_loss);
    gpu_free(b->image_hit);
    gpu_free(b->thread_loss);
    gpu_free(b->thread_hits);
    free(b);
}
