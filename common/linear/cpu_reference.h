/* Chapter 00's training step, callable from the GPU harness for --check.
 *
 * Defined in chapters/00-cpu-reference/train.c, which stays the model in plain
 * C: the Makefile compiles that file a second time with
 * -DCPU_REFERENCE_STEP_ONLY (no main) into the object the GPU trainers link,
 * so the check runs chapter 00's own code, not a copy of it. */
#ifndef COMMON_CPU_REFERENCE_H
#define COMMON_CPU_REFERENCE_H

#include "model.h" /* MODEL_WEIGHTS, MODEL_FEATURES, MODEL_CLASSES */

#ifdef __cplusplus
extern "C" {
#endif

/* One full-batch iteration on `images` feature rows (images x 785, bias
 * last): the loss and accuracy at w, then w -= learning_rate * gradient.
 * `gradient` is scratch for MODEL_WEIGHTS doubles. */
void train_iteration(const float *x, const unsigned char *labels, int images, float *w,
                     float learning_rate, double *gradient, float *loss, float *accuracy);

#ifdef __cplusplus
}
#endif
#endif
