#define _POSIX_C_SOURCE 200809L
#include "timing.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

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

void timing_compute(const double *ms, int count, timing_stats *out)
{
    memset(out, 0, sizeof *out);
    if (count <= 0) return;
    int warmup = count > TIMING_WARMUP ? TIMING_WARMUP : 0;
    int n = count - warmup;
    double *sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted) return;
    memcpy(sorted, ms + warmup, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, compare_doubles);
    out->median_ms = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    out->min_ms = sorted[0];
    out->max_ms = sorted[n - 1];
    for (int i = 0; i < n; i++) out->total_ms += sorted[i];
    out->measured = n;
    out->warmup = warmup;
    free(sorted);
}
