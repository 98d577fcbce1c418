/* Chapter 09 (extension): a hidden layer.
 *
 * A 784-H-10 MLP (common/mlp/mlp_model.h): ReLU hidden layer, softmax with
 * cross-entropy, mini-batch SGD. Per mini-batch of B images, four kernels:
 *   hidden_forward   a1 = max(X W1^T + b1, 0): a GEMM, B x H x 784, with LDS
 *                    tiles, ping-pong buffers and a 4 x 4 register tile per
 *                    thread; bias and ReLU in the epilogue
 *   output_layer     a wave per image: its lanes split the hidden units, a
 *                    butterfly of shuffles per class gives every lane the 10
 *                    scores; softmax, loss, prediction and dz2 = (p - y) / B
 *                    in the epilogue, then dz1 = (W2^T dz2) * [a1 > 0] (back
 *                    through W2 and the ReLU); loss and accuracy summed over
 *                    the block's images with a shuffle reduction, one atomic
 *                    per block
 *   hidden_gradient  dW1 = dz1^T X and db1 (the bias as a feature of value 1):
 *                    a GEMM, H x 785 x B, tiled like hidden_forward; the SGD
 *                    update of W1 and b1 in the epilogue
 *   output_gradient  dW2 = dz2^T a1 and db2: one wave per hidden unit, the
 *                    images split over its lanes, a shuffle reduction per
 *                    class; the SGD update of W2 and b2 by lane 0
 * The test set goes through the first two only. a1 and dz1 are stored
 * image-major ([B][H]: unit h of image i at i * H + h), so that a wave's
 * lanes in output_layer, one per unit, read consecutive addresses; dz2 is
 * class-major ([10][B]), for output_gradient's lanes, one per image.
 * Everything else (data, shuffling, timing, reports) is the harness in
 * common/mlp/mlp_trainer.hip. */
#include <hip/hip_runtime.h>

#include "mlp_trainer.h"
#include "wave_reduce.h" /* wave_sum, wave_count (chapter 06), wave_allsum (chapter 07) */

/* hidden_forward: a block computes 32 images x 32 hidden units, stepping
 * through the 784 inputs 16 at a time (49 steps, none partial). Each of its
 * 64 threads keeps a 4 x 4 tile of sums: images ti + 8r, units tu + 8s
 * (tu = t % 8: the epilogue's stores are 8 consecutive units of an image).
 * The 16 sums and the prefetched tile take 80 VGPRs on gfx906: more than the
 * 64 a kernel may use when its block size is unknown (chapter 05), hence
 * __launch_bounds__ below; hidden_gradient likewise (88). */
#define HF_IMAGES 32
#define HF_UNITS 32
#define HF_K 16
#define HF_THREADS 64 /* one wave on gfx906 */
#define HF_R 4        /* images and units per thread: HF_IMAGES / 8 */
#define HF_STEPS (MLP_INPUTS / HF_K) /* 49 */
#define HF_WORDS (HF_K / 4)          /* a tile row of an image: 4 words of 4 pixels */
#define HF_X_LOADS (HF_IMAGES * HF_WORDS / HF_THREADS) /* 2 */
#define HF_W_LOADS (HF_UNITS * HF_K / HF_THREADS)      /* 8 */

/* output_layer: a wave per image, OUT_WAVES images a block. */
#define OUT_THREADS 256
#define OUT_WAVES (OUT_THREADS / WAVE_SIZE) /* 4 at wave 64, 8 at wave 32 */

/* hidden_gradient: a block computes 32 hidden units x 32 features (the
 * 785th feature is the bias, of value 1), stepping through the images 16 at
 * a time. Each of its 64 threads keeps a 4 x 4 tile: units tu + 8r,
 * features tk + 8s. */
#define HG_UNITS 32
#define HG_FEATURES 32
#define HG_IMAGES 16
#define HG_THREADS 64
#define HG_R 4
#define HG_WORDS (HG_FEATURES / 4)                       /* 8 */
#define HG_X_LOADS (HG_IMAGES * HG_WORDS / HG_THREADS)   /* 2 */
#define HG_D_LOADS (HG_UNITS * HG_IMAGES / HG_THREADS)   /* 8 */
#define HG_BLOCKS_K ((MLP_INPUTS + 1 + HG_FEATURES - 1) / HG_FEATURES) /* 25 */

/* output_gradient: one wave per hidden unit (and one for the bias). */
#define OG_THREADS 256

const char chapter_name[] = "09-hidden-layer";

/* The image behind position `local` of a call. */
__device__ int image_index(const int *order, int first, int local)
{
    return order ? order[first + local] : first + local;
}

/* ---- hidden_forward ------------------------------------------------------ */

/* Step k0's tiles from global memory into registers: 4 pixels per word of
 * each image (zeros past the last image), 16 consecutive weights of each
 * unit's W1 row (zeros past the last unit). */
__device__ void hidden_fetch(const unsigned int *pixels, const int *order, const float *w1,
                             int first, int count, int hidden, int image0, int unit0, int k0,
                             int t, unsigned int *x_next, float *w_next)
{
#pragma unroll
    for (int l = 0; l < HF_X_LOADS; l++) {
        int e = t + l * HF_THREADS;
        int i = image0 + e / HF_WORDS, word = e % HF_WORDS;
        x_next[l] = i < count ? pixels[(size_t)image_index(order, first, i) * (MLP_INPUTS / 4) +
                                       k0 / 4 + word]
                              : 0u;
    }
#pragma unroll
    for (int l = 0; l < HF_W_LOADS; l++) {
        int e = t + l * HF_THREADS;
        int u = unit0 + e / HF_K;
        w_next[l] = u < hidden ? w1[(size_t)u * MLP_INPUTS + k0 + e % HF_K] : 0.0f;
    }
}

/* ...and into LDS, transposed (k-major) so that the arithmetic reads along
 * images and units. The pixels become features here: byte * (1/255). */
__device__ void hidden_store(float (*x_tile)[HF_IMAGES], float (*w_tile)[HF_UNITS + 1], int t,
                             const unsigned int *x_next, const float *w_next)
{
#pragma unroll
    for (int l = 0; l < HF_X_LOADS; l++) {
        int e = t + l * HF_THREADS;
        int i = e / HF_WORDS, word = e % HF_WORDS;
#pragma unroll
        for (int j = 0; j < 4; j++)
            x_tile[4 * word + j][i] = (float)((x_next[l] >> (8 * j)) & 255u) * MLP_PIXEL_SCALE;
    }
#pragma unroll
    for (int l = 0; l < HF_W_LOADS; l++) {
        int e = t + l * HF_THREADS;
        w_tile[e % HF_K][e / HF_K] = w_next[l];
    }
}

/* a1[h][i] = max(b1[h] + sum_k W1[h][k] x_i[k], 0) for the block's 32 x 32. */
__global__ void __launch_bounds__(HF_THREADS)
hidden_forward(const unsigned int *pixels, const int *order, int first, int count,
               const float *w1, const float *b1, float *a1, int hidden)
{
    __shared__ float x_tile[2][HF_K][HF_IMAGES];
    /* One float of padding per row: the stores walk down a column (16
     * consecutive k of one unit), which would otherwise hit one bank. */
    __shared__ float w_tile[2][HF_K][HF_UNITS + 1];
    unsigned int x_next[HF_X_LOADS];
    float w_next[HF_W_LOADS];
    int t = threadIdx.x, ti = t / 8, tu = t % 8;
    int image0 = blockIdx.x * HF_IMAGES, unit0 = blockIdx.y * HF_UNITS;
    float sum[HF_R][HF_R];
#pragma unroll
    for (int r = 0; r < HF_R; r++)
#pragma unroll
        for (int s = 0; s < HF_R; s++) sum[r][s] = 0.0f;

    hidden_fetch(pixels, order, w1, first, count, hidden, image0, unit0, 0, t, x_next, w_next);
    for (int step = 0; step < HF_STEPS; step++) {
        int b = step % 2;
        hidden_store(x_tile[b], w_tile[b], t, x_next, w_next);
        __syncthreads(); /* the one barrier of the step, as in chapter 04 */
        if (step + 1 < HF_STEPS)
            hidden_fetch(pixels, order, w1, first, count, hidden, image0, unit0,
                         (step + 1) * HF_K, t, x_next, w_next);
#pragma unroll
        for (int kk = 0; kk < HF_K; kk++) {
            float x[HF_R], w[HF_R]; /* 8 LDS reads, 16 multiply-adds */
#pragma unroll
            for (int r = 0; r < HF_R; r++) x[r] = x_tile[b][kk][ti + 8 * r];
#pragma unroll
            for (int s = 0; s < HF_R; s++) w[s] = w_tile[b][kk][tu + 8 * s];
#pragma unroll
            for (int r = 0; r < HF_R; r++)
#pragma unroll
                for (int s = 0; s < HF_R; s++) sum[r][s] += x[r] * w[s];
        }
    }
    /* Epilogue: bias and ReLU. a1 > 0 is the ReLU's mask for the backward. */
#pragma unroll
    for (int s = 0; s < HF_R; s++) {
        int u = unit0 + tu + 8 * s;
        if (u >= hidden) continue;
        float bias = b1[u];
#pragma unroll
        for (int r = 0; r < HF_R; r++) {
            int i = image0 + ti + 8 * r;
            float z = sum[r][s] + bias;
            if (i < count) a1[(size_t)i * hidden + u] = z > 0.0f ? z : 0.0f;
        }
    }
}

/* ---- output_layer -------------------------------------------------------- */

/* A wave per image: lane l takes the hidden units l, l + WAVE_SIZE, ...,
 * reading a1 (consecutive across the lanes) and W2's columns (likewise; 5 KB
 * that every wave reads, from the cache). The butterflies give every lane
 * the 10 scores z2 = W2 a1 + b2; then the softmax, the cross-entropy, the
 * prediction and, when training (dz1 not NULL), the gradient:
 * dz2 = (p - onehot) / count, and dz1 = (W2^T dz2) * [a1 > 0] for the lane's
 * units. A wave without an image (past the last) computes nothing, but
 * reaches the barrier. */
__global__ void output_layer(const float *a1, const float *w2, const float *b2,
                             const uint8_t *labels, const int *order, int first, int count,
                             int hidden, float *dz2, float *dz1, float *loss_sum,
                             unsigned int *correct)
{
    __shared__ float wave_loss[OUT_THREADS / 32]; /* one per wave, at either wave size */
    __shared__ unsigned int wave_right[OUT_THREADS / 32];
    int lane = threadIdx.x % WAVE_SIZE, wave = threadIdx.x / WAVE_SIZE;
    int i = blockIdx.x * OUT_WAVES + wave;
    float loss = 0.0f;
    unsigned int right = 0u;
    if (i < count) { /* the same for every lane of the wave */
        const float *a = a1 + (size_t)i * hidden;
        float z[MLP_CLASSES];
#pragma unroll
        for (int c = 0; c < MLP_CLASSES; c++) z[c] = 0.0f;
        for (int h = lane; h < hidden; h += WAVE_SIZE) {
            float v = a[h];
#pragma unroll
            for (int c = 0; c < MLP_CLASSES; c++) z[c] += w2[(size_t)c * hidden + h] * v;
        }
#pragma unroll
        for (int c = 0; c < MLP_CLASSES; c++) z[c] = wave_allsum(z[c]) + b2[c];

        /* Epilogue: softmax, cross-entropy, prediction (ties to the lowest
         * class), in every lane. */
        int label = labels[image_index(order, first, i)];
        int best = 0;
#pragma unroll
        for (int c = 1; c < MLP_CLASSES; c++)
            if (z[c] > z[best]) best = c;
        float top = z[best], total = 0.0f, z_label = 0.0f, p[MLP_CLASSES];
#pragma unroll
        for (int c = 0; c < MLP_CLASSES; c++) {
            p[c] = expf(z[c] - top);
            total += p[c];
            z_label = c == label ? z[c] : z_label;
        }
        loss = logf(total) - (z_label - top);
        right = best == label ? 1u : 0u;

        if (dz1) {
            /* dz2 = (p - onehot) / count: this image's share of the mean. */
#pragma unroll
            for (int c = 0; c < MLP_CLASSES; c++) {
                p[c] = (p[c] / total - (c == label ? 1.0f : 0.0f)) / (float)count;
                if (lane == c) dz2[(size_t)c * count + i] = p[c];
            }
            /* Back through W2 and the ReLU, for the lane's units. */
            float *d = dz1 + (size_t)i * hidden;
            for (int h = lane; h < hidden; h += WAVE_SIZE) {
                float g = 0.0f;
#pragma unroll
                for (int c = 0; c < MLP_CLASSES; c++) g += p[c] * w2[(size_t)c * hidden + h];
                d[h] = a[h] > 0.0f ? g : 0.0f;
            }
        }
    }

    /* Loss and accuracy: lane 0 of each wave holds its image's; the first
     * wave adds the block's with a shuffle reduction, then one atomic each
     * per block. */
    if (lane == 0) {
        wave_loss[wave] = loss;
        wave_right[wave] = right;
    }
    __syncthreads();
    if (wave == 0) {
        loss = wave_sum(lane < OUT_WAVES ? wave_loss[lane] : 0.0f);
        right = wave_count(lane < OUT_WAVES ? wave_right[lane] : 0u);
        if (lane == 0) {
            atomicAdd(loss_sum, loss);
            atomicAdd(correct, right);
        }
    }
}

/* ---- hidden_gradient ----------------------------------------------------- */

/* Step i0's tiles into registers: 32 units of dz1 for each of 16 images
 * (consecutive in memory), and the images' 32 features as 8 words of 4
 * pixels. Zeros past the last image, unit and pixel. */
__device__ void gradient_fetch(const float *dz1, const unsigned int *pixels, const int *order,
                               int first, int count, int hidden, int unit0, int k0, int i0, int t,
                               float *d_next, unsigned int *x_next)
{
#pragma unroll
    for (int l = 0; l < HG_D_LOADS; l++) {
        int e = t + l * HG_THREADS;
        int i = i0 + e / HG_UNITS, u = unit0 + e % HG_UNITS;
        d_next[l] = u < hidden && i < count ? dz1[(size_t)i * hidden + u] : 0.0f;
    }
#pragma unroll
    for (int l = 0; l < HG_X_LOADS; l++) {
        int e = t + l * HG_THREADS;
        int i = i0 + e / HG_WORDS, k = k0 + 4 * (e % HG_WORDS);
        x_next[l] = i < count && k < MLP_INPUTS
                        ? pixels[(size_t)image_index(order, first, i) * (MLP_INPUTS / 4) + k / 4]
                        : 0u;
    }
}

/* ...and into LDS. Feature 784 is the bias: 1 for every image. */
__device__ void gradient_store(float (*d_tile)[HG_UNITS], float (*x_tile)[HG_FEATURES + 1],
                               int k0, int t, const float *d_next, const unsigned int *x_next)
{
#pragma unroll
    for (int l = 0; l < HG_D_LOADS; l++) {
        int e = t + l * HG_THREADS;
        d_tile[e / HG_UNITS][e % HG_UNITS] = d_next[l];
    }
#pragma unroll
    for (int l = 0; l < HG_X_LOADS; l++) {
        int e = t + l * HG_THREADS;
        int i = e / HG_WORDS, word = e % HG_WORDS;
#pragma unroll
        for (int j = 0; j < 4; j++) {
            int k = k0 + 4 * word + j;
            x_tile[i][4 * word + j] = k == MLP_INPUTS ? 1.0f
                                      : (float)((x_next[l] >> (8 * j)) & 255u) * MLP_PIXEL_SCALE;
        }
    }
}

/* dW1[h][k] = sum_i dz1[h][i] x_i[k] (k = 784: db1[h]) for the block's
 * 32 x 32, then W1 -= learning_rate * dW1: each weight is summed by one
 * thread, which may update it at once. */
__global__ void __launch_bounds__(HG_THREADS)
hidden_gradient(const float *dz1, const unsigned int *pixels, const int *order, int first,
                int count, float *w1, float *b1, int hidden, float learning_rate)
{
    __shared__ float d_tile[2][HG_IMAGES][HG_UNITS];
    /* One float of padding per row: a wave stores the same columns of 8
     * images' rows, which would otherwise meet in the same banks. */
    __shared__ float x_tile[2][HG_IMAGES][HG_FEATURES + 1];
    float d_next[HG_D_LOADS];
    unsigned int x_next[HG_X_LOADS];
    int t = threadIdx.x, tk = t % 8, tu = t / 8;
    int k0 = blockIdx.x * HG_FEATURES, unit0 = blockIdx.y * HG_UNITS;
    int steps = (count + HG_IMAGES - 1) / HG_IMAGES;
    float sum[HG_R][HG_R];
#pragma unroll
    for (int r = 0; r < HG_R; r++)
#pragma unroll
        for (int s = 0; s < HG_R; s++) sum[r][s] = 0.0f;

    gradient_fetch(dz1, pixels, order, first, count, hidden, unit0, k0, 0, t, d_next, x_next);
    for (int step = 0; step < steps; step++) {
        int b = step % 2;
        gradient_store(d_tile[b], x_tile[b], k0, t, d_next, x_next);
        __syncthreads();
        if (step + 1 < steps)
            gradient_fetch(dz1, pixels, order, first, count, hidden, unit0, k0,
                           (step + 1) * HG_IMAGES, t, d_next, x_next);
#pragma unroll
        for (int ii = 0; ii < HG_IMAGES; ii++) {
            float d[HG_R], x[HG_R];
#pragma unroll
            for (int r = 0; r < HG_R; r++) d[r] = d_tile[b][ii][tu + 8 * r];
#pragma unroll
            for (int s = 0; s < HG_R; s++) x[s] = x_tile[b][ii][tk + 8 * s];
#pragma unroll
            for (int r = 0; r < HG_R; r++)
#pragma unroll
                for (int s = 0; s < HG_R; s++) sum[r][s] += d[r] * x[s];
        }
    }
    /* Epilogue: the SGD step. */
#pragma unroll
    for (int r = 0; r < HG_R; r++) {
        int u = unit0 + tu + 8 * r;
        if (u >= hidden) continue;
#pragma unroll
        for (int s = 0; s < HG_R; s++) {
            int k = k0 + tk + 8 * s;
            if (k < MLP_INPUTS) w1[(size_t)u * MLP_INPUTS + k] -= learning_rate * sum[r][s];
            else if (k == MLP_INPUTS) b1[u] -= learning_rate * sum[r][s];
        }
    }
}

/* ---- output_gradient ----------------------------------------------------- */

/* dW2[c][h] = sum_i dz2[c][i] a1[i][h] for one h per wave (h = hidden: db2,
 * with a1 = 1), all 10 classes: each lane sums every WAVE_SIZE-th image,
 * then 10 shuffle reductions, and lane 0 takes the SGD step. The lanes read
 * dz2 consecutively, a1 a row apart: 4 B from each of B rows, which
 * hidden_forward has just written (in the cache), for H + 1 waves of
 * parallel work instead of the (H + 1) / WAVE_SIZE of a lane per unit. */
__global__ void output_gradient(const float *dz2, const float *a1, float *w2, float *b2,
                                int count, int hidden, float learning_rate)
{
    int lane = threadIdx.x % WAVE_SIZE;
    int h = blockIdx.x * (OG_THREADS / WAVE_SIZE) + threadIdx.x / WAVE_SIZE;
    if (h > hidden) return; /* a whole wave: its shuffles are not reached at all */
    float sum[MLP_CLASSES];
#pragma unroll
    for (int c = 0; c < MLP_CLASSES; c++) sum[c] = 0.0f;
    for (int i = lane; i < count; i += WAVE_SIZE) {
        float a = h < hidden ? a1[(size_t)i * hidden + h] : 1.0f;
#pragma unroll
        for (int c = 0; c < MLP_CLASSES; c++) sum[c] += dz2[(size_t)c * count + i] * a;
    }
#pragma unroll
    for (int c = 0; c < MLP_CLASSES; c++) sum[c] = wave_sum(sum[c]);
    if (lane == 0) {
#pragma unroll
        for (int c = 0; c < MLP_CLASSES; c++) {
            if (h < hidden) w2[(size_t)c * hidden + h] -= learning_rate * sum[c];
            else b2[c] -= learning_rate * sum[c];
        }
    }
}

/* ---- The steps ----------------------------------------------------------- */

typedef struct {
    float *a1;  /* max_images x hidden: the ReLU activations, image-major */
    float *dz1; /* max_images x hidden */
    float *dz2; /* 10 x max_images: class-major */
} buffers;

void chapter_mlp_setup(const mlp_problem *p, void **scratch)
{
    buffers *b = (buffers *)malloc(sizeof *b);
    if (!b) fatal(1, "out of host memory");
    size_t units = (size_t)p->hidden * p->max_images;
    b->a1 = (float *)gpu_alloc(units * sizeof(float), "a1");
    b->dz1 = (float *)gpu_alloc(units * sizeof(float), "dz1");
    b->dz2 = (float *)gpu_alloc((size_t)MLP_CLASSES * p->max_images * sizeof(float), "dz2");
    *scratch = b;
}

/* The forward pass, and with dz2/dz1 non-NULL the output layer's backward. */
static void forward(const mlp_problem *p, buffers *s, const mlp_batch *m, float *dz2, float *dz1)
{
    int n = m->count;
    hipLaunchKernelGGL(hidden_forward,
                       dim3((n + HF_IMAGES - 1) / HF_IMAGES, (p->hidden + HF_UNITS - 1) / HF_UNITS),
                       dim3(HF_THREADS), 0, 0,
                       m->pixels, m->order, m->first, n, p->w1, p->b1, s->a1, p->hidden);
    HIP_CHECK_LAUNCH(hidden_forward);
    hipLaunchKernelGGL(output_layer, dim3((n + OUT_WAVES - 1) / OUT_WAVES), dim3(OUT_THREADS),
                       0, 0,
                       s->a1, p->w2, p->b2, m->labels, m->order, m->first, n, p->hidden, dz2, dz1,
                       m->loss_sum, m->correct);
    HIP_CHECK_LAUNCH(output_layer);
}

void chapter_mlp_train(const mlp_problem *p, void *scratch, const mlp_batch *m)
{
    buffers *s = (buffers *)scratch;
    int n = m->count;
    forward(p, s, m, s->dz2, s->dz1);
    hipLaunchKernelGGL(hidden_gradient,
                       dim3(HG_BLOCKS_K, (p->hidden + HG_UNITS - 1) / HG_UNITS), dim3(HG_THREADS),
                       0, 0,
                       s->dz1, m->pixels, m->order, m->first, n, p->w1, p->b1, p->hidden,
                       p->learning_rate);
    HIP_CHECK_LAUNCH(hidden_gradient);
    /* hidden + 1 waves: one per unit, one for the bias. */
    int waves_per_block = OG_THREADS / WAVE_SIZE;
    hipLaunchKernelGGL(output_gradient, dim3((p->hidden + 1 + waves_per_block - 1) / waves_per_block),
                       dim3(OG_THREADS), 0, 0,
                       s->dz2, s->a1, p->w2, p->b2, n, p->hidden, p->learning_rate);
    HIP_CHECK_LAUNCH(output_gradient);
}

void chapter_mlp_evaluate(const mlp_problem *p, void *scratch, const mlp_batch *m)
{
    forward(p, (buffers *)scratch, m, NULL, NULL);
}

void chapter_mlp_teardown(void *scratch)
{
    buffers *b = (buffers *)scratch;
    gpu_free(b->a1);
    gpu_free(b->dz1);
    gpu_free(b->dz2);
    free(b);
}
