/* What chapter 09 (the MLP of mlp_model.h) is written against, as
 * gpu_trainer.h is for the linear chapters: its train.hip holds only its
 * kernels and its steps.
 *
 * The one GPU harness (common/harness/harness.h) parses the command line
 * (mlp_session.h), opens the device and times the epochs; this model's
 * harness file (mlp_trainer.hip) uploads the training and test images and
 * labels once and the parameters initialised on the host (mlp_init_params,
 * the same values on every platform). Each epoch it shuffles the training
 * images on the host (mlp_shuffle), uploads the order, and calls
 * chapter_mlp_train() once per mini-batch; then chapter_mlp_evaluate() over
 * the test set in chunks. The loss and accuracy the kernels record on the
 * device are read back, and at the end the parameters, which the host
 * evaluates and reports. */
#ifndef COMMON_MLP_TRAINER_H
#define COMMON_MLP_TRAINER_H

#include "errors.h"  /* fatal */
#include "harness.h" /* chapter_name; WAVE_SIZE, HIP_CHECK, HIP_CHECK_LAUNCH, gpu_alloc, ... */
#include "mlp_model.h"

/* Test images per chapter_mlp_evaluate() call, at least (or the batch size,
 * when larger): the scratch buffers hold this many images. */
#define MLP_EVALUATE_CHUNK 1024

typedef struct {
    int hidden;          /* H */
    int batch;           /* images per mini-batch (the last one may have fewer) */
    int max_images;      /* the most images of one call: max(batch, evaluation chunk) */
    float learning_rate;
    /* On the device, in the layout of mlp_model.h (one allocation). */
    float *w1, *b1, *w2, *b2;
} mlp_problem;

/* One call's images: order[first], ..., order[first + count - 1] of a set
 * (order NULL: first, ..., first + count - 1). Everything on the device. */
typedef struct {
    const unsigned int *pixels; /* the set's images, 784 bytes each, read as
                                   32-bit words of 4 pixels (little-endian) */
    const uint8_t *labels;
    const int *order;
    int first, count;
    float *loss_sum;        /* += the images' cross-entropy, at the parameters before the update */
    unsigned int *correct;  /* += the images predicted right (ties to the lowest class) */
} mlp_batch;

#ifdef __cplusplus
extern "C" {
#endif
/* What chapter 09 defines, with chapter_name (harness.h). */
void chapter_mlp_setup(const mlp_problem *problem, void **scratch);
/* Forward, loss, backward and update for one mini-batch. No host
 * synchronisation: the harness times the epoch with events. */
void chapter_mlp_train(const mlp_problem *problem, void *scratch, const mlp_batch *batch);
/* Forward and loss only: the test set, at the current parameters. */
void chapter_mlp_evaluate(const mlp_problem *problem, void *scratch, const mlp_batch *batch);
void chapter_mlp_teardown(void *scratch);
#ifdef __cplusplus
}
#endif

#endif
