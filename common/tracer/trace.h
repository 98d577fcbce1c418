/* The interface between the executor's scheduler (scheduler.cpp) and its
 * tracer (trace.cpp and trace_*.cpp), which exists only in the trace build (-DHIPCPU_TRACE:
 * `make profile-N`, `make racecheck-N`); the executor calls it through
 * hooks.h, which is empty in the plain build. Not for kernel code.
 *
 * In the trace build the chapter's kernels are compiled by clang with
 * -fsanitize-coverage=func,trace-loads,trace-stores, so every load and store
 * they make calls __sanitizer_cov_load4 (and the like) with its address. The
 * tracer keeps what falls in device memory (hipMalloc) or in __shared__
 * variables, and drops the rest (fiber stacks, the executor's own state). See
 * common/executor/README.md, "The trace build". */
#ifndef HIPCPU_TRACE_H
#define HIPCPU_TRACE_H

#include <stddef.h>
#include <stdint.h>

struct dim3;

/* ---- The executor tells the tracer ------------------------------------------ */

/* Reads HIPCPU_PROFILE and HIPCPU_RACECHECK; true if either is on. */
bool trace_enabled(void);
/* text: the launch's kernel argument as written; the tracer counts the launch
 * under the kernel it runs once its code says which (trace.cpp). */
void trace_launch_begin(const char *text, const dim3 &grid, const dim3 &block);
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
void trace_alloc(void *pointer, size_t bytes, size_t zone);
bool trace_free(void *pointer); /* true: the tracer keeps the memory (make sanitize) */
size_t trace_redzone(size_t align); /* make sanitize: hipMalloc's red zone on each side, else 0 */
/* a copy or fill; caller: its return address into the program */
void trace_host_range(const void *pointer, size_t n, bool writes, const char *call, const void *caller);
void trace_name(const void *pointer, const char *name);

/* ---- Tests read the counters ------------------------------------------------- */

/* One kernel's counters, summed over its launches since the last reset. The
 * list is written once: the struct, HIPCPU_PROFILE's columns (same names) and
 * tests/test_trace_*.cpp all come from it, so a new counter is one line here
 * and the line in trace_requests.cpp that counts it. X(name, what it counts). */
#define HIPCPU_KERNEL_COUNTERS(X)                                                                   \
    X(launches, "launches of the kernel")                                                           \
    X(blocks, "blocks, over all launches")                                                          \
    X(threads, "threads")                                                                           \
    X(waves, "waves (per block, rounded up)")                                                       \
    X(global_load_requests, "wave-level loads from global memory")                                  \
    X(global_load_bytes, "bytes the lanes loaded")                                                  \
    X(global_load_segments, "distinct 64-byte segments per load request, summed")                   \
    X(global_load_sectors, "distinct 32-byte sectors per load request, summed")                     \
    X(global_load_phase_segments, "distinct 64-byte segments a block loads between two barriers")   \
    X(global_load_phase_sectors, "distinct 32-byte sectors a block loads between two barriers")     \
    X(uniform_load_requests, "load requests whose lanes all read one address (scalar-load shape)")  \
    X(uniform_blocks, "blocks that made a uniform load")                                           \
    X(uniform_block_segments, "distinct 64-byte segments a block's uniform loads touch, summed")     \
    X(uniform_launch_segments, "distinct 64-byte segments a launch's uniform loads touch, summed")   \
    X(global_load_dram_requests, "load requests with a segment no earlier block or phase brought in") \
    X(load_segments_beyond_256k, "segments re-read after more than 256 KiB of other data came in")  \
    X(load_segments_beyond_1m, "the same after more than 1 MiB")                                     \
    X(load_segments_beyond_4m, "the same after more than 4 MiB")                                     \
    X(load_segments_beyond_16m, "the same after more than 16 MiB")                                   \
    X(load_segments_beyond_64m, "the same after more than 64 MiB")                                   \
    X(load_segments_beyond_256m, "the same after more than 256 MiB")                                 \
    X(global_store_requests, "wave-level stores to global memory")                                  \
    X(global_store_bytes, "bytes the lanes stored")                                                 \
    X(global_store_segments, "distinct 64-byte segments per store request, summed")                 \
    X(global_store_sectors, "distinct 32-byte sectors per store request, summed")                   \
    X(unique_bytes, "distinct bytes of global memory touched in a launch, summed over launches")   \
    X(lds_read_requests, "wave-level reads of __shared__ memory")                                   \
    X(lds_write_requests, "wave-level writes of __shared__ memory")                                 \
    X(lds_requests, "both")                                                                         \
    X(lds_bytes, "bytes the lanes read or wrote in __shared__ memory")                              \
    X(lds_bank_cycles, "LDS bank cycles of those requests (common/executor/README.md's bank model)")    \
    X(barriers, "__syncthreads passed, summed over blocks")                                         \
    X(shuffles, "shuffle wave operations, summed over waves")                                       \
    X(atomics, "atomic operations, one per lane")                                                   \
    X(atomics_max_one_address, "the most atomics on one address in one launch")                     \
    X(load_segments_block_within_2k, "load segments re-read by their block within 2 KiB of its loads") \
    X(load_segments_block_within_8k, "the same within 8 KiB (those within 2 KiB included)")         \
    X(load_segments_block_within_32k, "the same within 32 KiB")                                     \
    X(load_segments_block_within_128k, "the same within 128 KiB")

struct hipcpu_kernel_counters {
#define HIPCPU_COUNTER_FIELD(name, what) uint64_t name;
    HIPCPU_KERNEL_COUNTERS(HIPCPU_COUNTER_FIELD)
#undef HIPCPU_COUNTER_FIELD
};
/* False if the kernel has not run since the last reset. */
extern "C" bool hipcpu_trace_counters(const char *kernel, hipcpu_kernel_counters *out);
extern "C" void hipcpu_trace_reset(void);

/* ---- The tracer asks the executor ------------------------------------------- */

/* The running thread's linear index in its block; meaningful in a launch. */
extern "C" unsigned hipcpu_current_linear;
/* The running launch's kernel is `name` (the tracer knows it from the code
 * the launch runs): the executor's messages name it so. */
void hipcpu_name_launch(const char *name);
/* Suspends the running thread at a memory access until the next round. */
void hipcpu_suspend_at_access(void);
/* Aborts like every executor error: "hipcpu: kernel 'K' block (x,y,z): ...". */
[[noreturn]] void hipcpu_die_in_block(const char *format, ...) __attribute__((format(printf, 1, 2)));
[[noreturn]] void hipcpu_die(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* make sanitize's four classes, as compute-sanitizer names its tools. */
enum hipcpu_check { HIPCPU_MEMCHECK, HIPCPU_INITCHECK, HIPCPU_RACECHECK, HIPCPU_SYNCCHECK };
/* HIPCPU_SANITIZE=1 is set: findings are counted, not fatal. */
bool hipcpu_sanitizing(void);
/* A finding: under HIPCPU_SANITIZE the first of its class is printed
 * ("hipcpu: memcheck: kernel 'K' block (x,y,z): ..." where in_block) and the
 * run goes on, ending with status 1; otherwise it aborts as hipcpu_die does. */
void hipcpu_finding(hipcpu_check check, bool in_block, const char *format, ...) __attribute__((format(printf, 3, 4)));
/* Under HIPCPU_SANITIZE, once a class has been shown: counts one more and is
 * true, so that the caller need not build the message. */
bool hipcpu_finding_counted(hipcpu_check check);
/* At exit: the findings' summary, and status 1, if there were any. */
void hipcpu_findings_end(void);
/* "file.hip:12" for an address in the program (outside the executor), or "". */
namespace hipcpu_exec {
void source_line_of(uintptr_t pc, char *out, size_t size);
}
/* The running launch's dynamic shared memory, in bytes. */
size_t hipcpu_dynamic_shared_bytes(void);

#endif
