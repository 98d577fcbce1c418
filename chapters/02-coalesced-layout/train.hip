/* Chapter 02: coalesced layout.
 *
 * Chapter 01's kernels, with one change: every wave reads consecutive
 * addresses. The forward kernel reads a feature-major copy of the features
 * (x_cols), the gradient keeps the image-major rows (x_rows). Five kernels
 * per iteration:
 *   forward_scores   one thread per (class, image): a 785-long dot product
 *   residual_loss    one thread per image: prediction, loss, residual
 *   sum_records      one block: the iteration's loss and hits, added up
 *   gradient         one thread per weight: a loop over every image
 *   update           one thread per weight: W -= learning_rate * G
 * Everything else (data, timing, reports) is the harness in common/. */
#include <hip/hip_runtime.h>

#include "gpu_trainer.h"

#define BLOCK_SIZE 256 /* threads per block: a multiple of the wave size on every platform */
#define SUM_THREADS 1024 /* sum_records' one block: the most threads a block may have */

const char chapter_name[] = "02-coalesced-layout";
const int chapter_needs = NEEDS_X_ROWS | NEEDS_X_COLS;

/* scores[c * images + i] = sum_k w[c][k] * x[i][k].
 * Neighbouring threads take neighbouring images, and x_cols keeps feature k
 * of every image contiguous, so at each step k the lanes of a wave read
 * consecutive floats: one wide access instead of one per lane. */
__global__ void forward_scores(const float *w, const float *x_cols, float *scores, int images)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= images * MODEL_CLASSES) return;
    int c = t / images;
    int i = t % images;
    float sum = 0.0f;
    for (int k = 0; k < MODEL_FEATURES; k++)
        sum += w[c * MODEL_FEATURES + k] * x_cols[(size_t)k * images + i];
    scores[c * images + i] = sum;
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
 * Neighbouring threads take neighbouring features k, so the image-major rows
 * are already the coalesced layout here: at each image i the lanes read
 * consecutive floats of x_rows (and delta[c][i], one value per class). */
__global__ void gradient(const float *delta, const float *x_rows, float *grad, int images)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= MODEL_WEIGHTS) return;
    int c = j / MODEL_FEATURES;
    int k = j % MODEL_FEATURES;
    float sum = 0.0f;
    for (int i = 0; i < images; i++)
        sum += delta[c * images + i] * x_rows[(size_t)i * MODEL_FEATURES + k];
    grad[j] = sum;
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
    hipLaunchKernelGGL(forward_scores, dim3(blocks_for(n * MODEL_CLASSES)), dim3(BLOCK_SIZE), 0, 0,
                       p->w, p->x_cols, b->scores, n);
    HIP_CHECK_LAUNCH(forward_scores);
    hipLaunchKernelGGL(residual_loss, dim3(blocks_for(n)), dim3(BLOCK_SIZE), 0, 0,
                       b->scores, p->labels, b->delta, b->image_loss, b->image_hit, n);
    HIP_CHECK_LAUNCH(residual_loss);
    hipLaunchKernelGGL(sum_records, dim3(1), dim3(SUM_THREADS), 0, 0, b->image_loss, b->image_hit,
                       b->thread_loss, b->thread_hits, p->loss_sum + it, p->correct + it, n);
    HIP_CHECK_LAUNCH(sum_records);
    hipLaunchKernelGGL(gradient, dim3(blocks_for(MODEL_WEIGHTS)), dim3(BLOCK_SIZE), 0, 0,
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
