/* One output format for every chapter: header, progress lines, summary, and
 * the files behind --csv, --weights-out, --bench-out and --predictions-out.
 * Files are written to a temporary name and renamed when complete, so a
 * killed run never leaves a half-written file that looks whole. */
#ifndef COMMON_REPORT_H
#define COMMON_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "timing.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *chapter;  /* e.g. "01-naive-gemm" */
    const char *platform; /* "cpu" (chapter 00 and the executor), "amd", "nvidia" */
    const char *device;   /* what ran the kernels */
    int train_images, train_available, test_images, rows, cols;
    int iterations;
    float learning_rate;
    const char *dataset_dir;
} report_run;

typedef struct {
    double train_accuracy, test_accuracy, final_loss; /* host, from the final W */
    timing_stats time;
    double upload_ms;
} report_result;

/* The header and the summary: every line within 80 columns with the dataset
 * folder `dataset` (a longer folder name or device name widens its line). */
void report_header(const report_run *run);
/* The header's first lines: the chapter, the device and the dataset. */
void report_header_dataset(const report_run *run);
void report_progress(int iteration, double loss, double train_accuracy, double ms);
/* The summary in a model's own words: the linear model's report_summary
 * and chapter 09's differ only in these. */
typedef struct {
    const char *step;         /* "iteration", "epoch" */
    const char *parameters;   /* "weights", "parameters" */
    const char *loss_note;    /* after the final loss: "" or " (training cross-entropy)" */
    int ms_decimals;          /* of the per-step times */
    const char *after_timing; /* a line of its own after the timed steps' count, or NULL */
    const char *closing;      /* a last line, or NULL */
} report_units;
void report_summary_in(const report_run *run, const report_result *result, const report_units *u);
/* report_summary_in for the linear model: iterations, weights. */
void report_summary(const report_run *run, const report_result *result);

/* Opens PATH.tmp.PID for writing (tmp receives that name); on failure returns
 * NULL with a message. report_commit_file() closes it and renames it over
 * PATH, or removes it and returns -1 with a message. */
FILE *report_open_temporary(const char *path, char *tmp, size_t tmp_size, char *err,
                            size_t err_size);
int report_commit_file(FILE *f, const char *tmp, const char *path, char *err, size_t err_size);

/* Each returns 0, or -1 with a message naming the file. */
int report_write_csv(const char *path, const float *loss, const float *train_accuracy,
                     int iterations, char *err, size_t err_size);
int report_write_weights(const char *path, const float *w, size_t count, char *err,
                         size_t err_size);
/* --bench-out's header line, newline included: a file it appends to must begin with it. */
extern const char report_bench_columns[];
/* The bench row ends with what the run was: the iterations left out of its
 * timing, the pixels of an image and `parameters`, the model's count. */
int report_append_bench(const char *path, const report_run *run, const report_result *result,
                        size_t parameters, char *err, size_t err_size);
int report_write_predictions(const char *path, const unsigned char *labels,
                             const unsigned char *predictions, const unsigned char *images,
                             int count, int pixels, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif
#endif
