/* The interface between the executor's scheduler (hipcpu.cpp) and its
 * tracer (trace.cpp), which exists only in the trace build (-DHIPCPU_TRACE:
 * `make profile-N`, `make racecheck-N`). Not for kernel code.
 *
 * In the trace build the chapter's kernels are compiled by clang with
 * -fsanitize-coverage=func,trace-loads,trace-stores, so every load and store
 * they make calls __sanitizer_cov_load4 (and the like) with its address. The
 * tracer keeps what falls in device memory (hipMalloc) or in __shared__
 * variables, and drops the rest (fiber stacks, the executor's own state). See
 * common/cpu/README.md, "The trace build". */
#ifndef HIPCPU_TRACE_H
#define HIPCPU_TRACE_H

#include <stddef.h>
#include <stdint.h>

struct dim3;

/* ---- The executor tells the tracer ------------------------------------------ */

/* Reads HIPCPU_PROFILE and HIPCPU_RACECHECK; true if either is on. */
bool trace_enabled(void);
void trace_launch_begin(const char *kernel, const dim3 &grid, const dim3 &block);
void trace_launch_end(void);
void trace_block_begin(uint64_t block_linear);
/* The block's threads passed a __syncthreads: a new race-check phase. */
void trace_barrier(void);
/* All lanes of wave `wave` passed wave operation `kind` (HIPCPU_SHFL_*, ...). */
void trace_wave_op(unsigned wave, int kind);
/* A round of wave `wave` is over: its lanes first..first+lanes-1 each stopped
 * at a memory access, a barrier, a wave operation, or returned. `live` has a
 * bit per lane that has not returned (bit 0: lane 0); `at_access` of them
 * stopped at an access and run again.
 * When at_access is 0 the wave has reached a sync point (or its end). */
void trace_round_end(unsigned wave, unsigned first, unsigned lanes, uint64_t live, unsigned at_access);
void trace_alloc(void *pointer, size_t bytes);
void trace_free(void *pointer);
void trace_name(const void *pointer, const char *name);

/* ---- Tests read the counters ------------------------------------------------- */

/* One kernel's counters, summed over its launches since the last reset
 * (tests/test_trace.cpp). Global requests are by kind: [0] loads, [1] stores. */
struct hipcpu_kernel_counters {
    uint64_t launches, blocks, threads, waves;
    uint64_t global_requests[2], global_bytes[2], global_segments[2], global_sectors[2];
    uint64_t unique_bytes;
    uint64_t lds_requests[2], lds_bytes, lds_bank_cycles;
    uint64_t barriers, shuffles, atomics, atomics_max_one_address;
};
/* False if the kernel has not run since the last reset. */
extern "C" bool hipcpu_trace_counters(const char *kernel, hipcpu_kernel_counters *out);
extern "C" void hipcpu_trace_reset(void);

/* ---- The tracer asks the executor ------------------------------------------- */

/* The running thread's linear index in its block; meaningful in a launch. */
extern "C" unsigned hipcpu_current_linear;
/* Suspends the running thread at a memory access until the next round. */
void hipcpu_suspend_at_access(void);
/* Aborts like every executor error: "hipcpu: kernel 'K' block (x,y,z): ...". */
[[noreturn]] void hipcpu_die_in_block(const char *format, ...) __attribute__((format(printf, 1, 2)));
[[noreturn]] void hipcpu_die(const char *format, ...) __attribute__((format(printf, 1, 2)));

#endif
