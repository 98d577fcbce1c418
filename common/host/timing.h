/* Per-iteration timing: every iteration trains, the first TIMING_WARMUP are
 * left out of the statistics (caches, clocks and first-launch costs settle). */
#ifndef COMMON_TIMING_H
#define COMMON_TIMING_H

#ifdef __cplusplus
extern "C" {
#endif

#define TIMING_WARMUP 3

typedef struct {
    double median_ms, min_ms, max_ms, total_ms; /* over the measured iterations */
    int measured;                               /* iterations in the statistics */
    int warmup;                                 /* iterations left out */
} timing_stats;

/* Milliseconds on the monotonic clock (CPU timing; GPUs use events). */
double timing_now_ms(void);

/* Statistics over ms[warmup..count-1]; when count <= TIMING_WARMUP every
 * iteration is measured, so that short runs still report something. */
void timing_compute(const double *ms, int count, timing_stats *out);

/* The median of values[0..count) (the mean of the middle two for an even
 * count; 0 for none), all of them, no warm-up left out. */
double timing_median(const double *values, int count);

#ifdef __cplusplus
}
#endif
#endif
