/* The executor's calls into its tracer, in one place. scheduler.cpp and
 * hip_runtime.h call these hooks unconditionally: in the trace build (-DHIPCPU_TRACE=1: `make
 * profile-N`, `make racecheck-N`) each one calls the tracer (trace.h) when
 * the launch is traced; in the plain build each is an empty inline function
 * and `traced()` a constant false, so the compiler removes the calls and the
 * code that only feeds them. This is the executor's one #if on the trace
 * build. Not for kernel code. */
#ifndef HIPCPU_TRACE_HOOKS_H
#define HIPCPU_TRACE_HOOKS_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h" /* declarations only; the plain build calls none of them */

#ifndef HIPCPU_TRACE
#define HIPCPU_TRACE 0
#endif

namespace hipcpu_hooks {

#if HIPCPU_TRACE
constexpr bool kTraceBuild = true;
inline bool tracing; /* this launch is traced: HIPCPU_PROFILE or HIPCPU_RACECHECK is set */
inline bool traced() { return tracing; }

/* Reads the tracer's settings (the first time) and starts its launch. */
inline void launch_begin(const char *kernel, const dim3 &grid, const dim3 &block) {
    tracing = trace_enabled();
    if (tracing) trace_launch_begin(kernel, grid, block);
}
inline void launch_end() {
    if (tracing) trace_launch_end();
}
inline void block_begin(uint64_t block_linear) {
    if (tracing) trace_block_begin(block_linear);
}
inline void barrier() {
    if (tracing) trace_barrier();
}
inline void wave_op(unsigned wave, int kind) {
    if (tracing) trace_wave_op(wave, kind);
}
/* Only called when traced(): the caller gathers the lanes' states for it. */
inline void round_end(unsigned wave, unsigned first, unsigned lanes, uint64_t live, unsigned at_access) {
    trace_round_end(wave, first, lanes, live, at_access);
}
/* Allocations are followed whether or not a launch is traced: the settings
 * are read at the first launch, after the first hipMalloc. */
inline void allocated(void *pointer, size_t bytes, size_t zone = 0) { trace_alloc(pointer, bytes, zone); }
/* About to be freed; true when the tracer keeps the memory (make sanitize): not to be freed. */
inline bool freeing(void *pointer) { return pointer && trace_free(pointer); }
/* make sanitize: bytes of red zone hipMalloc puts on each side (a multiple of align), else 0. */
inline size_t redzone(size_t align) { return trace_redzone(align); }
/* A host copy or fill of device memory: initcheck's map, and a freed buffer named. */
inline void host_range(const void *pointer, size_t n, bool writes, const char *call, const void *caller) {
    trace_host_range(pointer, n, writes, call, caller);
}
/* A device buffer's name, for the tables and messages. */
inline void named(const void *pointer, const char *name) {
    if (pointer && name) trace_name(pointer, name);
}
#else
constexpr bool kTraceBuild = false;
constexpr bool traced() { return false; }
inline void launch_begin(const char *, const dim3 &, const dim3 &) {}
inline void launch_end() {}
inline void block_begin(uint64_t) {}
inline void barrier() {}
inline void wave_op(unsigned, int) {}
inline void round_end(unsigned, unsigned, unsigned, uint64_t, unsigned) {}
inline void allocated(void *, size_t, size_t = 0) {}
inline bool freeing(void *) { return false; }
constexpr size_t redzone(size_t) { return 0; }
inline void host_range(const void *, size_t, bool, const char *, const void *) {}
inline void named(const void *, const char *) {}
#endif

} /* namespace hipcpu_hooks */

#endif
