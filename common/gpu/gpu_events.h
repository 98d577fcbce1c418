/* The runtime's events and its after-launch hook in plain C: what host code
 * that times launches (the harness's --kernel-times, kernel_times.c) needs
 * of the runtime, without the HIP headers, which only the platform's
 * compiler reads. Defined in gpu_runtime.hip; gpu_runtime.h includes it. */
#ifndef COMMON_GPU_EVENTS_H
#define COMMON_GPU_EVENTS_H

#ifdef __cplusplus
extern "C" {
#endif

/* A runtime event (hipEvent_t), behind a type the C compiler can name. */
typedef struct gpu_event gpu_event;

gpu_event *gpu_event_create(void);
void gpu_event_destroy(gpu_event *event);
/* Records the event on the default stream, behind the launches before it. */
void gpu_event_record(gpu_event *event);
/* Waits until the event has happened. */
void gpu_event_wait(gpu_event *event);
/* Milliseconds from `start` to `end`, both recorded and happened. */
float gpu_event_elapsed_ms(gpu_event *start, gpu_event *end);

/* 1 on the CPU executor, where a launch runs to completion before the call
 * returns: its events are the host's wall clock, not a GPU's time. */
int gpu_events_on_host_clock(void);

/* Called by hip_check_launch after every launch that did not fail, with
 * `context` and the kernel's name; NULL removes it. --kernel-times sets it
 * (kernel_times.c) to record an event there. */
typedef void (*gpu_launch_hook)(void *context, const char *kernel);
void gpu_set_after_launch(gpu_launch_hook hook, void *context);

#ifdef __cplusplus
}
#endif
#endif
