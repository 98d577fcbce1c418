/* --kernel-times: how an iteration's time splits over its kernels.
 *
 * When it is on, the harness records an event when an iteration starts, and
 * HIP_CHECK_LAUNCH records one after every launch (the runtime's
 * after-launch hook), named by the kernel. The time between two events is
 * the launch's time on the GPU (plus the gap between launches, if any). At
 * the end, per kernel: the median over the iterations of its time in one
 * iteration (the sum, if an iteration launches it more than once), and that
 * median's share of the median iteration.
 *
 * On the CPU executor a launch runs to completion before the call returns,
 * so an event is the host's wall clock: the table is how long the executor
 * took, labelled so, not a GPU time.
 *
 * Plain C on the runtime's events (gpu_events.h); used by the GPU harness. */
#ifndef COMMON_KERNEL_TIMES_H
#define COMMON_KERNEL_TIMES_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kernel_times kernel_times;

/* Turns --kernel-times on for up to `samples` iterations (or epochs): the
 * runtime's after-launch hook records into the returned record. Every
 * function below takes NULL for "off" and then does nothing. */
kernel_times *kernel_times_begin(int samples);

/* Before a sample's first launch. */
void kernel_times_sample_start(kernel_times *times);

/* After a sample's last launch: waits for it and books each launch to its
 * kernel. */
void kernel_times_sample_end(kernel_times *times);

/* The table on stdout, and with a `path` (--kernel-times-out) the same as a
 * TSV, written under a temporary name and renamed: `unit` names a sample
 * ("iteration", "epoch"). Exits with status 1 when the file cannot be
 * written. */
void kernel_times_report(const kernel_times *times, const char *unit, const char *path,
                         const char *chapter, const char *platform);

/* Removes the hook and frees the record. */
void kernel_times_end(kernel_times *times);

#ifdef __cplusplus
}
#endif
#endif
