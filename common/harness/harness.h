/* The one GPU harness (harness.hip): the main() of every GPU chapter, for
 * either model. A model says what it is through a trainer_model, defined in
 * its own harness file: common/linear/gpu_trainer.hip (chapters 01-08, full
 * batch) and common/mlp/mlp_trainer.hip (chapter 09, mini-batches). Those
 * files turn the harness's calls into the calls their chapters are written
 * against (gpu_trainer.h, mlp_trainer.h), so that a chapter sees only its
 * model's own hooks.
 *
 * Training is epochs of steps. Full-batch training is the case of one step
 * per epoch, its batch the whole training set: an iteration is an epoch.
 * The harness opens the device, uploads the initial parameters, allocates
 * the records the kernels add their loss and right predictions into, times
 * every epoch with events (the host waits only every few hundred epochs, or
 * after each one when the model evaluates the test set), reads the records
 * back into the session's history, runs --check after the first steps
 * (copying the parameters aside on the device when they end inside an
 * epoch), and hands the final parameters to the model's finish.
 *
 * What a model is on the host alone (its evaluation, prediction, summary and
 * CSV row) is its session_model (session.h), which its finish uses, as the
 * CPU-only trainers (chapter 00, chapter 09's reference) do. */
#ifndef COMMON_HARNESS_H
#define COMMON_HARNESS_H

#include <stddef.h>

#include "gpu_runtime.h" /* WAVE_SIZE, HIP_CHECK, HIP_CHECK_LAUNCH, gpu_alloc, ... */
#include "session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every chapter defines it, e.g. "01-naive-gemm". */
extern const char chapter_name[];

/* What the model's begin says about this run. */
typedef struct {
    session *session;    /* the model's session: options, data, and the history the harness fills */
    int epochs;          /* the history's length */
    int steps;           /* steps per epoch: 1 for full batch */
    int check_steps;     /* --check: the first steps compared with the reference; 0: no check */
    size_t parameters;   /* floats, in one device buffer */
} trainer_shape;

/* Where a step (or a test-set evaluation) adds its loss sum and its right
 * predictions: loss_sum[record] and correct[record], on the device. */
typedef struct {
    float *loss_sum;
    unsigned int *correct;
    int record;
} trainer_records;

typedef struct {
    const char *epoch_unit;      /* --kernel-times' sample: "iteration", "epoch" */
    const char *parameters_name; /* the device buffer's name: "w", "parameters" */
    /* The command line and the dataset (exits on a bad one); fills *shape. */
    void (*begin)(int argc, char **argv, trainer_shape *shape);
    /* The header, once the device is known. */
    void (*start)(const char *device, int compute_units);
    /* The model's data on the device (timed with the parameters' upload). */
    void (*upload)(void);
    /* The initial parameters, on the host: the same values on every platform. */
    void (*init)(float *params);
    /* The chapter's own buffers, once the parameters are on the device. */
    void (*setup)(float *device_params);
    /* Before an epoch's timing starts (the MLP's shuffle); may be NULL. */
    void (*epoch_begin)(int epoch);
    /* Launches one step: forward, loss into `records`, backward, update. */
    void (*step)(int epoch, int step, const trainer_records *records);
    /* Launches the test set's evaluation at the epoch's final parameters;
     * NULL when the model evaluates only at the end, on the host. */
    void (*evaluate)(const trainer_records *records);
    /* The epoch is in the session's history: the model's progress line.
     * The test set's loss and accuracy when it evaluated, and the time that took. */
    void (*epoch_end)(int epoch, float test_loss, float test_accuracy, double evaluation_ms);
    /* --check: the parameters after the first `steps` steps and each step's
     * loss sum (the model knows its steps' images), against the model's
     * reference; 0 when they match. */
    int (*check)(const float *run_params, const float *run_loss_sums, int steps);
    void (*teardown)(void);
    /* Evaluation, summary, output files: the process's exit status. */
    int (*finish)(const float *params);
    void (*end)(void);
} trainer_model;

/* Defined by the model's harness file. (A function, not a const global:
 * hipcc's device pass would take a const global for device data, and its
 * pointers to host functions for symbols to link there.) */
const trainer_model *harness_model(void);

#ifdef __cplusplus
}
#endif
#endif
