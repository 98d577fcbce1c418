/* What a GPU chapter of the linear model is written against, so that its
 * train.hip holds only its kernels and its training step.
 *
 * The one GPU harness (common/harness/harness.h) parses the command line, loads
 * the data, opens the device and times the iterations; this model's harness
 * file (gpu_trainer.hip) builds the layouts the chapter asks for, uploads
 * them, initialises W (the same values on every platform), and calls the
 * chapter's hooks below: chapter_iteration() once per iteration. The loss and
 * accuracy the chapter's kernels record on the device are read back, and the
 * final W evaluated on the host and reported. */
#ifndef COMMON_GPU_TRAINER_H
#define COMMON_GPU_TRAINER_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "errors.h"
#include "harness.h"     /* chapter_name; WAVE_SIZE, HIP_CHECK, HIP_CHECK_LAUNCH, gpu_alloc, ... */
#include "model.h"

/* Which copies of the training data a chapter wants on the device. */
enum {
    NEEDS_X_ROWS = 1, /* float, images x 785: image i's features contiguous */
    NEEDS_X_COLS = 2, /* float, 785 x images: feature k of every image contiguous */
    NEEDS_PIXELS = 4  /* uint8_t, images x 784: the raw bytes, no bias column */
};

typedef struct {
    int images;             /* N, the training images in use */
    int compute_units;      /* the device's CUs (SMs on NVIDIA): grids of
                               persistent kernels are sized from it */
    int iterations;
    float learning_rate;
    const float *x_rows;    /* NEEDS_X_ROWS, else NULL */
    const float *x_cols;    /* NEEDS_X_COLS, else NULL */
    const uint8_t *pixels;  /* NEEDS_PIXELS, else NULL */
    const uint8_t *labels;  /* images, each 0..9 */
    float *w;               /* 10 x 785, initialised */
    /* Records, zeroed before training, set before each chapter_iteration(p,
     * scratch, t): it adds into loss_sum[t] the sum of squared residuals and
     * into correct[t] the number of right predictions, both at the weights
     * before its update. (t is the iteration; the iterations --check compares
     * get arrays of their own.) */
    float *loss_sum;
    unsigned int *correct;
} gpu_problem;

/* What each chapter defines, with chapter_name (harness.h). */
#ifdef __cplusplus
extern "C" {
#endif
extern const int chapter_needs;   /* NEEDS_* flags */
/* Allocate the chapter's own buffers (may set *scratch to NULL). */
void chapter_setup(const gpu_problem *problem, void **scratch);
/* Launch one full-batch iteration: record loss and accuracy, update W. No
 * host synchronisation: the harness times it with events. */
void chapter_iteration(const gpu_problem *problem, void *scratch, int iteration);
void chapter_teardown(void *scratch);
#ifdef __cplusplus
}
#endif

#endif
