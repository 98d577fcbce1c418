/* The skeleton every trainer shares, so a chapter holds only its training step:
 *   session_begin   command line, dataset, limit, history buffers
 *   session_start   the header, once the device is known
 *   session_progress a line every 10 iterations (unless --quiet)
 *   session_finish  divergence check, host evaluation, summary, output files, viewer */
#ifndef COMMON_SESSION_H
#define COMMON_SESSION_H

#include "cli.h"
#include "mnist.h"
#include "model.h"
#include "report.h"

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
/* Returns the process exit status: 0, or 1 when training diverged or an
 * output file could not be written. */
int session_finish(session *s, const float *final_weights);
void session_end(session *s);

#ifdef __cplusplus
}
#endif
#endif
