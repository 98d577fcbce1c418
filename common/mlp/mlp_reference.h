/* The CPU reference of chapter 09's MLP (see mlp_model.h), in plain C: the
 * oracle the chapter's kernels are checked against. Like chapter 00 it
 * favours exactness over speed: the parameters are stored as float (as the
 * kernels store them), everything else is double. It is fast anyway, because
 * it skips the zero pixels (most of an MNIST image), which changes no sum. */
#ifndef COMMON_MLP_REFERENCE_H
#define COMMON_MLP_REFERENCE_H

#include <stdint.h>

#include "mlp_model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    mlp_layout layout;
    double *params; /* [layout.count]: the parameters as double */
    double *grad;   /* [layout.count]: the last gradient */
    double *a1;     /* [hidden] */
    double *da1;    /* [hidden] */
} mlp_reference;

/* Returns 0, or -1 when out of memory. */
int mlp_reference_init(mlp_reference *r, int hidden);
void mlp_reference_free(mlp_reference *r);

/* The gradient of the mean cross-entropy of one mini-batch at `params`
 * (double) into r->grad, all in double. The mini-batch is the images
 * order[first], ..., order[first + count - 1] of `pixels` and `labels`
 * (order NULL: first, ..., first + count - 1). Returns the sum of the
 * images' losses; adds the right predictions (ties to the lowest class)
 * into *correct. */
double mlp_reference_gradient(mlp_reference *r, const double *params, const uint8_t *pixels,
                              const uint8_t *labels, const int *order, int first, int count,
                              long *correct);

/* One SGD step on the float parameters, as the chapter takes it: the
 * gradient at the parameters before the step, then
 *   params[j] -= (float)(learning_rate * grad[j]).
 * Returns the mini-batch's loss sum, adds its right predictions to *correct. */
double mlp_reference_step(mlp_reference *r, float *params, float learning_rate,
                          const uint8_t *pixels, const uint8_t *labels, const int *order,
                          int first, int count, long *correct);

#ifdef __cplusplus
}
#endif
#endif
