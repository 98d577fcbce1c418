/* --kernel-times: how an iteration's time splits over its kernels.
 *
 * When it is on, the harness records an event when an iteration starts, and
 * HIP_CHECK_LAUNCH records one after every launch, named by the kernel. The
 * time between two events is the launch's time on the GPU (plus the gap
 * between launches, if any). At the end, per kernel: the median over the
 * iterations of its time in one iteration (the sum, if an iteration launches
 * it more than once), and that median's share of the median iteration.
 *
 * On the CPU executor a launch runs to completion before the call returns,
 * so an event is the host's wall clock: the table is how long the executor
 * took, labelled so, not a GPU time.
 *
 * Included by the GPU harness only (harness.hip). */
#ifndef COMMON_KERNEL_TIMES_H
#define COMMON_KERNEL_TIMES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "gpu_runtime.h"

#define KERNEL_TIMES_MAX_KERNELS 32

typedef struct {
    int enabled;
    int iterations, capacity;                /* iterations recorded, room for */
    hipEvent_t *events;                      /* this iteration's: start, then one per launch */
    const char **event_kernel;               /* the kernel behind events[i], i >= 1 */
    int event_count, event_capacity;
    const char *kernel[KERNEL_TIMES_MAX_KERNELS]; /* in order of first launch */
    double *ms[KERNEL_TIMES_MAX_KERNELS];    /* [capacity]: per iteration */
    int kernels;
    double *iteration_ms;                    /* [capacity]: start to last launch */
} kernel_times_state;

static kernel_times_state kernel_times;

static void *kernel_times_grow(void *array, int count, size_t size)
{
    void *grown = realloc(array, (size_t)count * size);
    if (!grown) fatal(1, "out of host memory for --kernel-times");
    return grown;
}

static void kernel_times_mark(const char *kernel)
{
    kernel_times_state *k = &kernel_times;
    if (k->event_count == k->event_capacity) {
        int capacity = k->event_capacity ? 2 * k->event_capacity : 16;
        k->events = (hipEvent_t *)kernel_times_grow(k->events, capacity, sizeof(hipEvent_t));
        k->event_kernel = (const char **)kernel_times_grow(k->event_kernel, capacity, sizeof(char *));
        for (int i = k->event_capacity; i < capacity; i++) HIP_CHECK(hipEventCreate(&k->events[i]));
        k->event_capacity = capacity;
    }
    k->event_kernel[k->event_count] = kernel;
    HIP_CHECK(hipEventRecord(k->events[k->event_count++], 0));
}

/* Called by HIP_CHECK_LAUNCH (through hip_check_launch and gpu_after_launch,
 * which kernel_times_begin sets) after each launch. */
static void kernel_times_after_launch(const char *kernel)
{
    if (kernel_times.enabled && kernel_times.event_count > 0) kernel_times_mark(kernel);
}

static void kernel_times_begin(int iterations)
{
    kernel_times.enabled = 1;
    gpu_after_launch = kernel_times_after_launch;
    kernel_times.capacity = iterations;
    kernel_times.iteration_ms = (double *)calloc((size_t)iterations, sizeof(double));
    if (!kernel_times.iteration_ms) fatal(1, "out of host memory for --kernel-times");
}

/* Called by the harness before an iteration's first launch. */
static void kernel_times_iteration_start(void)
{
    if (!kernel_times.enabled) return;
    kernel_times.event_count = 0;
    kernel_times_mark(NULL);
}


/* Called by the harness after an iteration's last launch: waits for it
 * (only when --kernel-times is on) and books each launch to its kernel. */
static void kernel_times_iteration_end(void)
{
    kernel_times_state *k = &kernel_times;
    if (!k->enabled || k->event_count == 0 || k->iterations == k->capacity) return;
    int it = k->iterations++;
    HIP_CHECK(hipEventSynchronize(k->events[k->event_count - 1]));
    for (int e = 1; e < k->event_count; e++) {
        float ms = 0.0f;
        HIP_CHECK(hipEventElapsedTime(&ms, k->events[e - 1], k->events[e]));
        int which = 0;
        while (which < k->kernels && strcmp(k->kernel[which], k->event_kernel[e]) != 0) which++;
        if (which == k->kernels) {
            if (k->kernels == KERNEL_TIMES_MAX_KERNELS) fatal(1, "--kernel-times: more than %d kernels", KERNEL_TIMES_MAX_KERNELS);
            k->kernel[which] = k->event_kernel[e];
            k->ms[which] = (double *)calloc((size_t)k->capacity, sizeof(double));
            if (!k->ms[which]) fatal(1, "out of host memory for --kernel-times");
            k->kernels++;
        }
        k->ms[which][it] += ms;
        k->iteration_ms[it] += ms;
    }
    k->event_count = 0;
}

static int kernel_times_compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double kernel_times_median(const double *values, int count)
{
    double *sorted = (double *)malloc((size_t)count * sizeof(double));
    if (!sorted) fatal(1, "out of host memory for --kernel-times");
    memcpy(sorted, values, (size_t)count * sizeof(double));
    qsort(sorted, (size_t)count, sizeof(double), kernel_times_compare);
    double median = count % 2 ? sorted[count / 2] : 0.5 * (sorted[count / 2 - 1] + sorted[count / 2]);
    free(sorted);
    return median;
}

/* The table, on stdout, and with --kernel-times-out FILE a TSV of it: `unit`
 * names what one sample is ("iteration" or "epoch"). Frees everything. */
static void kernel_times_report(const char *unit, const char *path, const char *chapter,
                                const char *platform)
{
#if defined(__HIPCPU__)
    const int on_executor = 1;
#else
    const int on_executor = 0;
#endif
    kernel_times_state *k = &kernel_times;
    if (!k->enabled) return;
    FILE *tsv = NULL;
    if (path && k->iterations > 0) {
        tsv = fopen(path, "w");
        if (!tsv) fatal(1, "--kernel-times-out: cannot write %s", path);
        fprintf(tsv, "chapter\tplatform\tkernel\tmedian_ms\tshare\tsamples\tclock\n");
    }
    if (k->iterations > 0) {
        double total = kernel_times_median(k->iteration_ms, k->iterations);
        printf("\nkernel times: median of %d %s%s, an event after every launch\n  (%s)\n",
               k->iterations, unit, k->iterations == 1 ? "" : "s",
               on_executor ? "CPU executor: the host's wall clock per launch, not a GPU time"
                           : "GPU time between events");
        printf("  %-24s %12s %8s\n", "kernel", "ms", "share");
        for (int i = 0; i < k->kernels; i++) {
            double median = kernel_times_median(k->ms[i], k->iterations);
            double share = total > 0.0 ? median / total : 0.0;
            printf("  %-24s %12.4f %7.1f%%\n", k->kernel[i], median, 100.0 * share);
            if (tsv)
                fprintf(tsv, "%s\t%s\t%s\t%.6f\t%.4f\t%d\t%s\n", chapter, platform, k->kernel[i],
                        median, share, k->iterations, on_executor ? "host wall clock" : "GPU events");
        }
        printf("  %-24s %12.4f %7.1f%%\n", unit, total, 100.0);
        if (tsv)
            fprintf(tsv, "%s\t%s\t(%s)\t%.6f\t1.0000\t%d\t%s\n", chapter, platform, unit, total,
                    k->iterations, on_executor ? "host wall clock" : "GPU events");
    }
    if (tsv && fclose(tsv) != 0) fatal(1, "--kernel-times-out: cannot write %s", path);
    for (int i = 0; i < k->event_capacity; i++) HIP_CHECK(hipEventDestroy(k->events[i]));
    for (int i = 0; i < k->kernels; i++) free(k->ms[i]);
    free(k->events);
    free(k->event_kernel);
    free(k->iteration_ms);
    memset(k, 0, sizeof *k);
    gpu_after_launch = NULL;
}

#endif
