/* Chapter 03: shared-memory tiles.
 *
 * Chapter 02's kernels, with the two GEMMs tiled: a block copies a slice of
 * each of its inputs from global memory into LDS (__shared__) once, and its
 * threads read every value from there many times. Five kernels per iteration:
 *   forward_scores   one thread per (class, image), a block per 64 images:
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
 * thread per score, stepping through the features FWD_TILE_K at a time. */
#define FWD_TILE_IMAGES 64
#define FWD_TILE_K 32
#define FWD_THREADS (MODEL_CLASSES * FWD_TILE_IMAGES) /* 640: a multiple of 64 */

/* Gradient: a block computes all 10 classes of GRAD_TILE_K features, one
 * thread per weight, stepping through the images GRAD_TILE_IMAGES at a time.
 * 32 features give 25 blocks: fewer, wider blocks would leave more CUs idle. */
#define GRAD_TILE_K 32
#define GRAD_TILE_IMAGES 32
#define GRAD_THREADS (MODEL_CLASSES * GRAD_TILE_K) /* 320: a multiple of 64 */

const char chapter_name[] = "03-shared-memory-tiles";
const int chapter_needs = NEEDS_X_ROWS | NEEDS_X_COLS;

/* scores[c * images + i] = sum_k w[c][k] * x[i][k].
 * The block stages FWD_TILE_K features of W (10 rows) and of its images (from
 * x_cols: each tile row is one coalesced read) in LDS. From there each W value
 * serves the block's 64 images and each x value its 10 classes. Threads with
 * no image still help load and reach every barrier: no early return. */
__global__ void forward_scores(const float *w, const float *x_cols, float *scores, int images)
{
    /* No padding: a wave reads one address of w_tile (a broadcast) and
     * consecutive floats of x_tile, so no two of its lanes meet in one of the
     * 32 LDS banks at different addresses. */
    __shared__ float w_tile[MODEL_CLASSES][FWD_TILE_K];
    __shared__ float x_tile[FWD_TILE_K][FWD_TILE_IMAGES];
    int t = threadIdx.y * FWD_TILE_IMAGES + threadIdx.x;
    int c = threadIdx.y;
    int first = blockIdx.x * FWD_TILE_IMAGES;
    int i = first + threadIdx.x;
    float sum = 0.0f;
    for (int k0 = 0; k0 < MODEL_FEATURES; k0 += FWD_TILE_K) {
        /* Zeros past the last feature and the last image: the sum below needs
         * no guard, and a missing image adds nothing. */
        for (int e = t; e < FWD_TILE_K * FWD_TILE_IMAGES; e += FWD_THREADS) {
            int k = k0 + e / FWD_TILE_IMAGES, n = first + e % FWD_TILE_IMAGES;
            x_tile[e / FWD_TILE_IMAGES][e % FWD_TILE_IMAGES] =
                k < MODEL_FEATURES && n < images ? x_cols[(size_t)k * images + n] : 0.0f;
        }
        for (int e = t; e < MODEL_CLASSES * FWD_TILE_K; e += FWD_THREADS) {
            int k = k0 + e % FWD_TILE_K;
            w_tile[e / FWD_TILE_K][e % FWD_TILE_K] =
                k < MODEL_FEATURES ? w[(e / FWD_TILE_K) * MODEL_FEATURES + k] : 0.0f;
        }
        __syncthreads(); /* the tiles are complete */
        for (int kk = 0; kk < FWD_TILE_K; kk++)
            sum += w_tile[c][kk] * x_tile[kk][threadIdx.x];
        __syncthreads(); /* every thread is done with them before the next load */
    }
    if (i < images) scores[c * images + i] = sum;
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

/* gradient[c][k] = sum_i delta[c][i] * x[i][k]: one thread per weight.
 * The block stages GRAD_TILE_IMAGES images of its 32 features (from x_rows:
 * each tile row is one coalesced read) and of the residuals in LDS. From
 * there each x value serves 10 classes and each residual 32 features. */
__global__ void gradient(const float *delta, const float *x_rows, float *grad, int images)
{
    /* No padding either: the LDS serves 32 lanes at a time, and 32 lanes
     * read one address of delta_tile and the same 32 floats of x_tile. */
    __shared__ float delta_tile[MODEL_CLASSES][GRAD_TILE_IMAGES];
    __shared__ float x_tile[GRAD_TILE_IMAGES][GRAD_TILE_K];
    int t = threadIdx.y * GRAD_TILE_K + threadIdx.x;
    int c = threadIdx.y;
    int first = blockIdx.x * GRAD_TILE_K;
    int k = first + threadIdx.x;
    float sum = 0.0f;
    for (int i0 = 0; i0 < images; i0 += GRAD_TILE_IMAGES) {
        /* Zeros past the last image and the last feature, as in the forward. */
        for (int e = t; e < GRAD_TILE_IMAGES * GRAD_TILE_K; e += GRAD_THREADS) {
            int n = i0 + e / GRAD_TILE_K, f = first + e % GRAD_TILE_K;
            x_tile[e / GRAD_TILE_K][e % GRAD_TILE_K] =
                n < images && f < MODEL_FEATURES ? x_rows[(size_t)n * MODEL_FEATURES + f] : 0.0f;
        }
        for (int e = t; e < MODEL_CLASSES * GRAD_TILE_IMAGES; e += GRAD_THREADS) {
            int n = i0 + e % GRAD_TILE_IMAGES;
            delta_tile[e / GRAD_TILE_IMAGES][e % GRAD_TILE_IMAGES] =
                n < images ? delta[(e / GRAD_TILE_IMAGES) * images + n] : 0.0f;
        }
        __syncthreads(); /* the tiles are complete */
        for (int nn = 0; nn < GRAD_TILE_IMAGES; nn++)
            sum += delta_tile[c][nn] * x_tile[nn][threadIdx.x];
        __syncthreads(); /* every thread is done with them before the next load */
    }
    if (k < MODEL_FEATURES) grad[c * MODEL_FEATURES + k] = sum;
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
                       dim3(FWD_TILE_IMAGES, MODEL_CLASSES), 0, 0,
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
