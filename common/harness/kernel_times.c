/* --kernel-times (see kernel_times.h). */
#include "kernel_times.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "gpu_events.h"
#include "report.h"
#include "timing.h"

#define KERNEL_TIMES_MAX_KERNELS 32

struct kernel_times {
    int samples, capacity;                   /* samples recorded, room for */
    gpu_event **events;                      /* this sample's: start, then one per launch */
    const char **event_kernel;               /* the kernel behind events[i], i >= 1 */
    int event_count, event_capacity;
    const char *kernel[KERNEL_TIMES_MAX_KERNELS]; /* in order of first launch */
    double *ms[KERNEL_TIMES_MAX_KERNELS];    /* [capacity]: per sample */
    int kernels;
    double *sample_ms;                       /* [capacity]: start to last launch */
};

static void *grow(void *array, int count, size_t size)
{
    void *grown = realloc(array, (size_t)count * size);
    if (!grown) fatal(1, "out of host memory for --kernel-times");
    return grown;
}

static void *zeroed(int count, size_t size)
{
    void *array = calloc((size_t)count, size);
    if (!array) fatal(1, "out of host memory for --kernel-times");
    return array;
}

/* An event now, booked to `kernel` (NULL: the sample's start). */
static void mark(kernel_times *k, const char *kernel)
{
    if (k->event_count == k->event_capacity) {
        int capacity = k->event_capacity ? 2 * k->event_capacity : 16;
        k->events = grow(k->events, capacity, sizeof *k->events);
        k->event_kernel = grow(k->event_kernel, capacity, sizeof *k->event_kernel);
        for (int i = k->event_capacity; i < capacity; i++) k->events[i] = gpu_event_create();
        k->event_capacity = capacity;
    }
    k->event_kernel[k->event_count] = kernel;
    gpu_event_record(k->events[k->event_count++]);
}

/* The runtime's after-launch hook: launches outside a sample (setup, the
 * test set's evaluation) are not booked. */
static void after_launch(void *context, const char *kernel)
{
    kernel_times *k = context;
    if (k->event_count > 0) mark(k, kernel);
}

kernel_times *kernel_times_begin(int samples)
{
    kernel_times *k = zeroed(1, sizeof *k);
    k->capacity = samples;
    k->sample_ms = zeroed(samples, sizeof *k->sample_ms);
    gpu_set_after_launch(after_launch, k);
    return k;
}

void kernel_times_sample_start(kernel_times *k)
{
    if (!k) return;
    k->event_count = 0;
    mark(k, NULL);
}

/* The index of `kernel` in k->kernel, added there at its first launch. */
static int kernel_index(kernel_times *k, const char *kernel)
{
    int which = 0;
    while (which < k->kernels && strcmp(k->kernel[which], kernel) != 0) which++;
    if (which == k->kernels) {
        if (k->kernels == KERNEL_TIMES_MAX_KERNELS)
            fatal(1, "--kernel-times: more than %d kernels", KERNEL_TIMES_MAX_KERNELS);
        k->kernel[which] = kernel;
        k->ms[which] = zeroed(k->capacity, sizeof *k->ms[which]);
        k->kernels++;
    }
    return which;
}

void kernel_times_sample_end(kernel_times *k)
{
    if (!k || k->event_count == 0 || k->samples == k->capacity) return;
    int sample = k->samples++;
    gpu_event_wait(k->events[k->event_count - 1]);
    for (int e = 1; e < k->event_count; e++) {
        double ms = gpu_event_elapsed_ms(k->events[e - 1], k->events[e]);
        k->ms[kernel_index(k, k->event_kernel[e])][sample] += ms;
        k->sample_ms[sample] += ms;
    }
    k->event_count = 0;
}

/* The TSV behind --kernel-times-out: a row per kernel, then the sample's. */
static void write_tsv(const kernel_times *k, const char *unit, const char *path,
                      const char *chapter, const char *platform)
{
    const char *clock = gpu_events_on_host_clock() ? "host wall clock" : "GPU events";
    char tmp[4096], err[ERROR_TEXT_SIZE];
    FILE *tsv = report_open_temporary(path, tmp, sizeof tmp, err, sizeof err);
    if (!tsv) fatal(1, "--kernel-times-out: %s", err);
    double total = timing_median(k->sample_ms, k->samples);
    fprintf(tsv, "chapter\tplatform\tkernel\tmedian_ms\tshare\tsamples\tclock\n");
    for (int i = 0; i < k->kernels; i++) {
        double median = timing_median(k->ms[i], k->samples);
        fprintf(tsv, "%s\t%s\t%s\t%.6f\t%.4f\t%d\t%s\n", chapter, platform, k->kernel[i], median,
                total > 0.0 ? median / total : 0.0, k->samples, clock);
    }
    fprintf(tsv, "%s\t%s\t(%s)\t%.6f\t1.0000\t%d\t%s\n", chapter, platform, unit, total,
            k->samples, clock);
    if (report_commit_file(tsv, tmp, path, err, sizeof err) != 0)
        fatal(1, "--kernel-times-out: %s", err);
}

void kernel_times_report(const kernel_times *k, const char *unit, const char *path,
                         const char *chapter, const char *platform)
{
    if (!k || k->samples == 0) return;
    double total = timing_median(k->sample_ms, k->samples);
    printf("\nkernel times: median of %d %s%s, an event after every launch\n  (%s)\n",
           k->samples, unit, k->samples == 1 ? "" : "s",
           gpu_events_on_host_clock() ? "CPU executor: the host's wall clock per launch, not a GPU time"
                                      : "GPU time between events");
    printf("  %-24s %12s %8s\n", "kernel", "ms", "share");
    for (int i = 0; i < k->kernels; i++) {
        double median = timing_median(k->ms[i], k->samples);
        printf("  %-24s %12.4f %7.1f%%\n", k->kernel[i], median,
               total > 0.0 ? 100.0 * median / total : 0.0);
    }
    printf("  %-24s %12.4f %7.1f%%\n", unit, total, 100.0);
    if (path) write_tsv(k, unit, path, chapter, platform);
}

void kernel_times_end(kernel_times *k)
{
    if (!k) return;
    gpu_set_after_launch(NULL, NULL);
    for (int i = 0; i < k->event_capacity; i++) gpu_event_destroy(k->events[i]);
    for (int i = 0; i < k->kernels; i++) free(k->ms[i]);
    free(k->events);
    free(k->event_kernel);
    free(k->sample_ms);
    free(k);
}
