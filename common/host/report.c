#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "errors.h"

void report_header(const report_run *run)
{
    report_header_dataset(run);
    printf("training %d iterations, learning rate %g, full batch\n", run->iterations,
           (double)run->learning_rate);
    fflush(stdout);
}

/* The first lines of every trainer's header, each within 80 columns (the
 * device on its own line: a GPU's name can be long). */
void report_header_dataset(const report_run *run)
{
    printf("chapter %s | platform %s\n", run->chapter, run->platform);
    printf("device %s\n", run->device);
    /* "dataset in dataset/: ...": the folder reads as one, whatever its name */
    size_t dir_length = strlen(run->dataset_dir);
    const char *slash = dir_length && run->dataset_dir[dir_length - 1] == '/' ? "" : "/";
    printf("dataset in %s%s: %d training images, %d test images, %dx%d pixels\n", run->dataset_dir, slash,
           run->train_available, run->test_images, run->rows, run->cols);
    if (run->train_images != run->train_available)
        printf("  using the first %d training images (--train-limit)\n", run->train_images);
}

void report_progress(int iteration, double loss, double train_accuracy, double ms)
{
    printf("  iteration %6d  loss %.6f  train accuracy %6.2f%%  %9.3f ms\n", iteration, loss,
           100.0 * train_accuracy, ms);
    fflush(stdout);
}

void report_summary_in(const report_run *run, const report_result *r, const report_units *u)
{
    char label[32];
    printf("summary (accuracy and loss computed on the host from the final %s)\n", u->parameters);
    printf("  train accuracy     %6.2f%% of %d images\n", 100.0 * r->train_accuracy,
           run->train_images);
    printf("  test accuracy      %6.2f%% of %d images\n", 100.0 * r->test_accuracy,
           run->test_images);
    printf("  final loss         %.6f%s\n", r->final_loss, u->loss_note);
    snprintf(label, sizeof label, "ms per %s", u->step);
    printf("  %-19smedian %.*f  min %.*f  max %.*f\n", label, u->ms_decimals, r->time.median_ms,
           u->ms_decimals, r->time.min_ms, u->ms_decimals, r->time.max_ms);
    snprintf(label, sizeof label, "timed %ss", u->step);
    printf("  %-19s%d, after %d warm-up\n", label, r->time.measured, r->time.warmup);
    if (u->after_timing) printf("%s\n", u->after_timing);
    printf("  training time      %.1f ms measured\n", r->time.total_ms);
    printf("  upload             %.1f ms (not in the per-%s time)\n", r->upload_ms, u->step);
    if (u->closing) printf("%s\n", u->closing);
    fflush(stdout);
}

void report_summary(const report_run *run, const report_result *r)
{
    const report_units linear = {"iteration", "weights", "", 4, NULL, NULL};
    report_summary_in(run, r, &linear);
}

FILE *report_open_temporary(const char *path, char *tmp, size_t tmp_size, char *err,
                            size_t err_size)
{
    snprintf(tmp, tmp_size, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) error_set(err, err_size, "%s: cannot write: %s", path, strerror(errno));
    return f;
}

int report_commit_file(FILE *f, const char *tmp, const char *path, char *err, size_t err_size)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        remove(tmp);
        return error_set(err, err_size, "%s: write failed: %s", path, strerror(errno));
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return error_set(err, err_size, "%s: cannot replace: %s", path, strerror(e));
    }
    return 0;
}

int report_write_csv(const char *path, const float *loss, const float *train_accuracy,
                     int iterations, char *err, size_t err_size)
{
    char tmp[4096];
    FILE *f = report_open_temporary(path, tmp, sizeof tmp, err, err_size);
    if (!f) return -1;
    fprintf(f, "iteration,loss,train_accuracy\n");
    for (int i = 0; i < iterations; i++)
        fprintf(f, "%d,%.9g,%.9g\n", i + 1, (double)loss[i], (double)train_accuracy[i]);
    return report_commit_file(f, tmp, path, err, err_size);
}

int report_write_weights(const char *path, const float *w, size_t count, char *err,
                         size_t err_size)
{
    char tmp[4096];
    FILE *f = report_open_temporary(path, tmp, sizeof tmp, err, err_size);
    if (!f) return -1;
    for (size_t i = 0; i < count; i++) { /* little-endian whatever the host */
        uint32_t bits;
        memcpy(&bits, &w[i], sizeof bits);
        unsigned char b[4] = {(unsigned char)bits, (unsigned char)(bits >> 8),
                              (unsigned char)(bits >> 16), (unsigned char)(bits >> 24)};
        fwrite(b, 1, sizeof b, f);
    }
    return report_commit_file(f, tmp, path, err, err_size);
}

/* The last three are the program's own facts, so that a reader of the row
 * (make compare's title and floor) copies none: the iterations left out of
 * the timing, the pixels of an image, the model's parameters. */
const char report_bench_columns[] =
    "chapter\tplatform\tdevice\timages\titerations\tmedian_ms\tmin_ms\tmax_ms\t"
    "train_accuracy\ttest_accuracy\tfinal_loss\tdate\twarmup_iterations\tpixels_per_image\t"
    "parameters\n";

int report_append_bench(const char *path, const report_run *run, const report_result *r,
                        size_t parameters, char *err, size_t err_size)
{
    char tmp[4096];
    FILE *f = report_open_temporary(path, tmp, sizeof tmp, err, err_size);
    if (!f) return -1;
    /* Copy the rows already there, then add ours: appending through a
     * temporary keeps the old file whole if this run is killed. */
    FILE *old = fopen(path, "rb");
    if (old) {
        char buffer[8192];
        size_t n, total = 0;
        while ((n = fread(buffer, 1, sizeof buffer, old)) > 0) {
            fwrite(buffer, 1, n, f);
            total += n;
        }
        fclose(old);
        if (total == 0) fputs(report_bench_columns, f);
    } else {
        fputs(report_bench_columns, f);
    }
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    /* Tabs in a device name would shift the columns. */
    char device[256];
    snprintf(device, sizeof device, "%s", run->device);
    for (char *p = device; *p; p++)
        if (*p == '\t' || *p == '\n') *p = ' ';
    fprintf(f, "%s\t%s\t%s\t%d\t%d\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%s\t%d\t%d\t%zu\n",
            run->chapter, run->platform, device, run->train_images, run->iterations,
            r->time.median_ms, r->time.min_ms, r->time.max_ms, r->train_accuracy, r->test_accuracy,
            r->final_loss, date, r->time.warmup, run->rows * run->cols, parameters);
    return report_commit_file(f, tmp, path, err, err_size);
}

int report_write_predictions(const char *path, const unsigned char *labels,
                             const unsigned char *predictions, const unsigned char *images,
                             int count, int pixels, char *err, size_t err_size)
{
    char tmp[4096];
    FILE *f = report_open_temporary(path, tmp, sizeof tmp, err, err_size);
    if (!f) return -1;
    fprintf(f, "index\tlabel\tprediction\tpixels\n");
    for (int i = 0; i < count; i++) {
        fprintf(f, "%d\t%d\t%d\t", i, labels[i], predictions[i]);
        const unsigned char *img = images + (size_t)i * pixels;
        for (int k = 0; k < pixels; k++) fprintf(f, k ? ",%d" : "%d", img[k]);
        fputc('\n', f);
    }
    return report_commit_file(f, tmp, path, err, err_size);
}
