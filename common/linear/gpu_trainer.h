/* The GPU trainer harness: everything a GPU chapter shares, so that a
 * chapter's train.hip holds only its kernels and its training step.
 *
 * The harness parses the command line, loads the data, builds the layouts the
 * chapter asks for, uploads them, initialises W (the same values on every
 * platform), runs the iterations through chapter_iteration(), times each one
 * with events, copies back the loss and accuracy that the chapter's kernels
 * recorded on the device, evaluates the final W on the host and reports. */
#ifndef COMMON_GPU_TRAINER_H
#define COMMON_GPU_TRAINER_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "errors.h"
#include "gpu_runtime.h" /* WAVE_SIZE, HIP_CHECK, HIP_CHECK_LAUNCH, gpu_alloc, ... */
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
    /* Per-iteration records, zeroed before training. Iteration t adds into
     * loss_sum[t] the sum of squared residuals and into correct[t] the number
     * of right predictions, both at the weights before its update. */
    float *loss_sum;
    unsigned int *correct;
} gpu_problem;

/* What each chapter defines. */
#ifdef __cplusplus
extern "C" {
#endif
extern const char chapter_name[]; /* e.g. "01-naive-gemm" */
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
