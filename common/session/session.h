/* The skeleton every trainer shares, so a chapter holds only its training step.
 * A trainer's verbs, in the order it calls them:
 *   session_begin    command line, dataset, limit, history buffers (a bad
 *                    command line exits here, before any device is opened)
 *   session_start    the header, once the device is known (the GPU harness
 *                    opens it between the two)
 *   session_progress a line every 10 iterations (unless --quiet; none once
 *                    the loss is NaN or inf)
 *   session_finish   divergence check, host evaluation, summary, output files,
 *                    viewer: the process's exit status (the linear model's, in
 *                    linear_session.h; the MLP's is mlp_session_finish)
 *   session_end      frees what begin allocated (the harness reads the options
 *                    for --kernel-times between finish and end)
 * What a model's own code calls:
 *   session_finish_model   session_finish's steps for any model, which says
 *                          how through a session_model
 *   session_check_compare  --check: the run's first steps against the
 *                          CPU reference's */
#ifndef COMMON_SESSION_H
#define COMMON_SESSION_H

#include <stddef.h>

#include "cli.h"
#include "mnist.h"
#include "report.h"
#include "viewer.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SESSION_PROGRESS_EVERY 10

typedef struct {
    options opts;
    mnist_data data;
    report_run run;
    float *loss;           /* [iterations]: loss at the weights before each update */
    float *train_accuracy; /* [iterations]: accuracy at the same weights */
    double *iteration_ms;  /* [iterations] */
    double upload_ms;      /* host-to-device copies, reported apart */
} session;

/* Exits with status 2 on a bad command line and 1 on a dataset problem. */
void session_begin(session *s, int argc, char **argv, const char *chapter, const char *platform);
void session_start(session *s, const char *device);
void session_progress(const session *s, int iteration);
/* What session_finish_model asks of a model; `model` is passed to each hook. */
typedef struct {
    const char *step;        /* the history's unit: "iteration", "epoch" */
    const char *step_at;     /* in the divergence message: "at iteration", "in epoch" */
    const char *parameters;  /* "weights", "parameters" */
    int steps;               /* how many ran: the history's length */
    const float *values;     /* the final parameters: checked finite, --weights-out */
    size_t count;
    const void *model;
    /* The final parameters' train and test accuracy and training loss
     * into r; 0, or -1 when out of memory. */
    int (*evaluate)(const void *model, const session *s, report_result *r);
    void (*summary)(const void *model, const session *s, const report_result *r);
    int (*write_csv)(const void *model, const session *s, const char *path, char *err,
                     size_t err_size);
    viewer_predict predict;  /* --predictions-out and --view */
} session_model;

/* The steps every trainer ends with, for any model: the loss and the
 * parameters checked finite, the host's evaluation, the summary, --csv,
 * --weights-out, --bench-out, --predictions-out, then --view. Returns the
 * process exit status: 0, or 1 when training diverged or an output file
 * could not be written. */
int session_finish_model(session *s, const session_model *m);

/* --check: one array of the model's parameters after the checked steps, as
 * the run left it and as the reference did. */
typedef struct {
    const char *name;       /* "W", "W1", "b2" */
    const float *run, *reference;
    size_t count;
    int columns;            /* > 0: element i is name[i / columns][i % columns]; 0: name[i] */
} session_check_tensor;

typedef struct {
    const char *reference;  /* "chapter 00", "chapter 09's CPU reference" */
    const char *what;       /* "weight", "parameter" */
    const char *step_name;  /* "iteration", "mini-batch step" */
    int steps;              /* how many were checked */
    const float *run_loss, *reference_loss; /* [steps], each at the parameters before its step */
    const session_check_tensor *tensors;
    int tensor_count;
    double reference_ms;    /* the host's time for the reference's steps */
    const char *timing_note;/* how the check stays out of (or in) the timings */
} session_check;

/* Per tensor max|run - reference| / max|reference| (tests/compare_runs.c's
 * measure), and per step |loss_run - loss_ref| / |loss_ref|, each within
 * CLI_CHECK_LIMIT. On a match prints "matches REFERENCE: max relative WHAT
 * difference X (limit 1e-4)" and a line of details, and returns 0; otherwise
 * names, on stderr, the element and the loss that differ most, and returns 1. */
int session_check_compare(const session_check *c);
void session_end(session *s);

#ifdef __cplusplus
}
#endif
#endif
