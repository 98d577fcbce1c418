/* The model of chapter 09: a 784-H-10 multilayer perceptron.
 *   x[k]  = pixel/255, k < 784                       (no bias column: b1 is apart)
 *   z1    = W1 x + b1,   a1 = max(z1, 0)             (H hidden units, ReLU)
 *   z2    = W2 a1 + b2,  p = softmax(z2)             (10 classes)
 *   loss  = -log p[label], averaged over a mini-batch
 *   W -= learning_rate * dloss/dW for W1, b1, W2, b2 (mini-batch SGD)
 *
 * The four parameter tensors live in one float array, in this order:
 *   W1  hidden x 784   row h holds hidden unit h's input weights
 *   b1  hidden
 *   W2  10 x hidden    row c holds class c's weights
 *   b2  10
 * which is also the layout of --weights-out (little-endian float32).
 *
 * Initialisation (He et al. 2015: variance 2 / fan-in, here from a uniform),
 * with u() the hash generator of the linear model (model_hash_uniform):
 *   W1[j] = sqrtf(6.0f / 784) * (2 * u(j + 1234567) - 1),  j < hidden * 784
 *   W2[j] = sqrtf(6.0f / hidden) * (2 * u(j + 7654321) - 1), j < 10 * hidden
 *   b1 = b2 = 0
 * A uniform on [-a, a) has variance a^2 / 3, so a = sqrt(6 / fan_in) gives
 * 2 / fan_in (= sqrt(2 / fan_in) * sqrt(3), the He standard deviation
 * times sqrt(3)). Every platform starts from the same parameters. */
#ifndef COMMON_MLP_MODEL_H
#define COMMON_MLP_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "mnist.h"
#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MLP_INPUTS MODEL_PIXELS /* 784 */
#define MLP_CLASSES MODEL_CLASSES
#define MLP_DEFAULT_HIDDEN 128
#define MLP_MAX_HIDDEN 4096
#define MLP_DEFAULT_BATCH 256
#define MLP_MAX_BATCH 60000
#define MLP_DEFAULT_EPOCHS 10
#define MLP_DEFAULT_LEARNING_RATE 0.6f
#define MLP_SEED_W1 1234567u /* the linear model's seed */
#define MLP_SEED_W2 7654321u
#define MLP_SHUFFLE_SEED 20261122u

/* Where each tensor starts in the parameter array, and its length. */
typedef struct {
    int hidden;
    size_t w1, b1, w2, b2; /* offsets, in floats */
    size_t count;          /* all parameters: hidden * 785 + 10 * hidden + 10 */
} mlp_layout;

void mlp_layout_init(mlp_layout *layout, int hidden);

/* The initial parameters (formula above) into params[layout->count]. */
void mlp_init_params(const mlp_layout *layout, float *params);

/* The order of the training images in epoch `epoch` (0-based): a
 * Fisher-Yates shuffle of 0..count-1 driven by the same hash,
 *   for i = count-1 down to 1: swap order[i] and order[j],
 *   j = floor(u(MLP_SHUFFLE_SEED + 0x9e3779b9 * epoch + i) * (i + 1)),
 * so every platform and the reference see the same mini-batches. */
void mlp_shuffle(int *order, int count, int epoch);

/* The feature of a pixel, x = pixel * (1/255) in float: the reference and
 * the kernels compute it with this one expression. */
#define MLP_PIXEL_SCALE (1.0f / 255.0f)

/* Host-side evaluation in double, independent of any kernel: the prediction
 * (ties to the lowest class) and, when loss_out is not NULL, the
 * cross-entropy of one image with its label. `work` holds `hidden` doubles. */
int mlp_predict(const mlp_layout *layout, const float *params, const uint8_t *image,
                double *work, double *loss_out, int label);

/* Accuracy and mean cross-entropy of the parameters over `set`. Returns -1
 * when out of memory, else 0. */
int mlp_evaluate(const mlp_layout *layout, const float *params, const mnist_set *set,
                 double *accuracy, double *loss);

#ifdef __cplusplus
}
#endif
#endif
