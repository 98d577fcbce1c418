/* The trainer skeleton of chapter 09 (the MLP), shared by its kernels'
 * harness file (mlp_trainer.hip) and its CPU reference: session.h's skeleton,
 * in epochs of mini-batches.
 *   mlp_session_begin   command line (the shared one, plus --hidden, --batch
 *                       and --epochs; EPOCHS in place of ITERATIONS), dataset
 *   mlp_session_start   the header, once the device is known
 *   mlp_session_epoch   a line per epoch: loss, train and test accuracy, time
 *   mlp_session_finish  divergence check, host evaluation, summary, output
 *                       files (--csv, --weights-out, --bench-out,
 *                       --predictions-out), viewer */
#ifndef COMMON_MLP_SESSION_H
#define COMMON_MLP_SESSION_H

#include "cli.h"
#include "mlp_model.h"
#include "session.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { MLP_OPTION_HIDDEN, MLP_OPTION_BATCH, MLP_OPTIONS };

typedef struct {
    /* The shared session; its per-iteration arrays are per epoch here:
     * loss and train_accuracy over the epoch's mini-batches, each at the
     * parameters before its update, and iteration_ms the epoch's training
     * time. */
    session base;
    cli_option options[MLP_OPTIONS];
    cli_chapter cli;
    mlp_layout layout;
    int epochs;
    int batch;   /* images per mini-batch: --batch, at most the training set */
    int batches; /* per epoch; the last one may be smaller */
    float *test_loss;     /* [epochs]: at the parameters after the epoch */
    float *test_accuracy; /* [epochs] */
    double evaluation_ms; /* the per-epoch test-set evaluations, in all */
} mlp_session;

/* Exits with status 2 on a bad command line and 1 on a dataset problem. */
void mlp_session_begin(mlp_session *s, int argc, char **argv, const char *chapter,
                       const char *platform);
void mlp_session_start(mlp_session *s, const char *device);
void mlp_session_epoch(const mlp_session *s, int epoch);
/* Returns the process exit status: 0, or 1 when training diverged or an
 * output file could not be written. */
int mlp_session_finish(mlp_session *s, const float *params);
void mlp_session_end(mlp_session *s);

/* Images in mini-batch `b` of an epoch: batch, or what is left for the last. */
int mlp_batch_count(const mlp_session *s, int b);

#ifdef __cplusplus
}
#endif
#endif
