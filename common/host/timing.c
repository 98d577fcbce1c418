#define _POSIX_C_SOURCE 200809L
#include "timing.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errors.h"

double timing_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* values[0..count), sorted, in a new array the caller frees. */
static double *sorted_copy(const double *values, int count)
{
    double *sorted = malloc((size_t)count * sizeof *sorted);
    if (!sorted) fatal(1, "out of host memory for the timing statistics of %d values", count);
    memcpy(sorted, values, (size_t)count * sizeof *sorted);
    qsort(sorted, (size_t)count, sizeof *sorted, compare_doubles);
    return sorted;
}

static double median_of_sorted(const double *sorted, int count)
{
    return count % 2 ? sorted[count / 2] : 0.5 * (sorted[count / 2 - 1] + sorted[count / 2]);
}

double timing_median(const double *values, int count)
{
    if (count <= 0) return 0.0;
    double *sorted = sorted_copy(values, count);
    double median = median_of_sorted(sorted, count);
    free(sorted);
    return median;
}

void timing_compute(const double *ms, int count, timing_stats *out)
{
    memset(out, 0, sizeof *out);
    if (count <= 0) return;
    int warmup = count > TIMING_WARMUP ? TIMING_WARMUP : 0;
    int n = count - warmup;
    double *sorted = sorted_copy(ms + warmup, n);
    out->median_ms = median_of_sorted(sorted, n);
    out->min_ms = sorted[0];
    out->max_ms = sorted[n - 1];
    for (int i = 0; i < n; i++) out->total_ms += sorted[i];
    out->measured = n;
    out->warmup = warmup;
    free(sorted);
}
