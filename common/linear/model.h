/* The model every chapter trains: a linear classifier with squared loss.
 *   x[k] = pixel/255 for k < 784, x[784] = 1 (the bias feature)
 *   scores   Yhat = W X^T                (W is 10 x 785)
 *   loss     L = (1/N) sum_images sum_classes (Yhat - Y)^2,  Y one-hot
 *   gradient G = (2/N) (Yhat - Y) X
 *   update   W -= learning_rate * G       (full batch, every iteration) */
#ifndef COMMON_MODEL_H
#define COMMON_MODEL_H

#include <limits.h>
#include <stdint.h>

#include "mnist.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MODEL_CLASSES 10
#define MODEL_PIXELS 784                   /* 28 x 28 */
#define MODEL_FEATURES (MODEL_PIXELS + 1)  /* pixels and the bias */
#define MODEL_WEIGHTS (MODEL_CLASSES * MODEL_FEATURES)
/* The most training images a GPU chapter takes: its kernels index the 10
 * scores and residuals of image i at c * images + i in int, which must not
 * overflow (INT_MAX / 10 = 214,748,364). The trainer refuses more. */
#define MODEL_GPU_MAX_IMAGES (INT_MAX / MODEL_CLASSES)
#define MODEL_INIT_SEED 1234567u
#define MODEL_INIT_SCALE 0.01f

/* A uniform number in [0, 1) from a 32-bit integer hash of s. */
float model_hash_uniform(uint32_t s);

/* W[i] = 0.01 * (u(i + 1234567) - 0.5) for every flat index i. */
void model_init_weights(float *w);

/* Index of the largest score for one image; ties go to the lowest class. */
int model_predict(const float *w, const uint8_t *image);

/* Fraction of `set` that the weights classify correctly, computed on the host. */
double model_accuracy(const float *w, const mnist_set *set);

/* The loss at weights w over `set`, in double precision, on the host. */
double model_loss(const float *w, const mnist_set *set);

#ifdef __cplusplus
}
#endif
#endif
