/* The CPU executor: runs HIP kernels on the host with GPU semantics.
 *
 * Every GPU thread of a block is a fiber (a user-space thread with its own
 * stack). Blocks run one after another on the launching OS thread. Inside a
 * block the scheduler works wave by wave: it runs each lane of a wave until
 * the lane returns, reaches __syncthreads, or reaches a wave operation (a
 * shuffle, ballot, any or all). When every lane of the wave has reached the
 * wave operation, the operation completes and the wave runs on; when every
 * wave is at __syncthreads, the barrier opens. Anything else - part of a block
 * at a barrier while the rest returned, part of a wave at a shuffle - is a
 * bug in the kernel, and the executor aborts with a message naming the
 * kernel, the block and a thread.
 *
 * Speed: a fiber that returns without ever yielding does not need a context
 * of its own. The "worker" whose stack it ran on simply calls the kernel again
 * for the next lane of the same round, so a kernel without barriers costs one
 * indirect call per thread plus a few stores. Context switches are
 * hand-written (fiber_x86_64.S, fiber_aarch64.S; ucontext elsewhere).
 *
 * The executor's parts, and what they share (this header: the executor's
 * internals, not an interface; hip/hip_runtime.h is the kernels' and the
 * host's, tracer/trace.h the tracer's):
 *
 *   fibers.cpp       contexts, stacks and their guards, switching between
 *                    fibers: a round of a wave's lanes, suspending one
 *   scheduler.cpp    the block's waves, barriers and wave operations, the
 *                    launch and its blocks, shared memory
 *   runtime_api.cpp  the HIP API: memory, devices and their properties,
 *                    occupancy, streams, events, symbols, errors
 *   messages.cpp     every abort's message
 *   settings.cpp     the HIPCPU_* settings' readers (settings.h)
 *   device_limits.h  the modelled device's limits, shared with the tracer */
#ifndef HIPCPU_EXECUTOR_INTERNAL_H
#define HIPCPU_EXECUTOR_INTERNAL_H

#include <hip/hip_runtime.h> /* the executor's (hip/ beside this file): CPU platform only */

#include <stddef.h>
#include <stdint.h>

#include "device_limits.h"
#include "settings.h"
#include "tracer/hooks.h" /* the calls into the trace build's tracer: nothing in the plain build */

#if defined(__SANITIZE_ADDRESS__)
#define HIPCPU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HIPCPU_ASAN 1
#endif
#endif
#ifndef HIPCPU_ASAN
#define HIPCPU_ASAN 0
#endif

#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(HIPCPU_USE_UCONTEXT)
#define HIPCPU_ASM_SWITCH 1
#else
#define HIPCPU_ASM_SWITCH 0
#include <ucontext.h>
#endif

/* A dim3's three coordinates, for a message's "(%u,%u,%u)". */
#define D3(d) (d).x, (d).y, (d).z

namespace hipcpu_exec {

using hipcpu_limits::kMaxThreads;
using hipcpu_limits::kMaxWaves;
using hipcpu_limits::kWave;

/* ---- Contexts and workers (fibers.cpp) ----------------------------------------- */

#if HIPCPU_ASM_SWITCH
/* A suspended context is its stack pointer; the registers are on its stack. */
struct Context {
    void *sp;
};
#else /* portable fallback: slower, swapcontext saves the signal mask with a system call */
struct Context {
    ucontext_t uc;
};
#endif

/* A worker is a stack with a context on it. Free workers are parked in
 * worker_main, waiting for a thread to run. A thread that suspends keeps its
 * worker until it returns. Workers are created on demand, at most one per
 * thread of the largest block, and live as long as the process. */
struct Worker {
    Context ctx;
    char *guard; /* start of the mapping: an inaccessible guard region */
    char *stack; /* the usable stack, just above the guard */
    size_t stack_size;
    Worker *next_free;
};

/* ---- The running block ------------------------------------------------------- */

enum State : uint8_t {
    kNotStarted, /* has not run yet in this block */
    kReady,      /* suspended, allowed to go on */
    kRunning,
    kAtBarrier,  /* suspended in __syncthreads */
    kAtWaveOp,   /* suspended in a shuffle, ballot, any or all */
    kAtAccess,   /* trace build: suspended at a memory access, so that a wave's
                    lanes make their accesses in step */
    kDone        /* returned from the kernel */
};

/* One GPU thread of the running block. */
struct Fiber {
    hipcpu_thread_view view; /* what threadIdx reads */
    State state;
    uint8_t op_kind;         /* the wave operation it waits in */
    int op_width;
    unsigned wave, lane;
    Worker *worker;          /* the stack it runs on while started */
    const char *barrier_file; /* where it called __syncthreads last, for a message */
    int barrier_line;
};

struct Wave {
    unsigned first;  /* linear thread id of lane 0 */
    unsigned lanes;  /* lanes that exist: fewer in a block's partial last wave */
    unsigned parity; /* half of slot[] the next wave operation writes */
    unsigned at_op;  /* lanes suspended in a wave operation */
    /* Values exchanged by a wave operation. Each lane writes slot[p][lane],
     * then all lanes read slot[p] after the wave has synchronised. The next
     * operation writes the other half, so a lane that runs ahead into it
     * cannot overwrite values a slower lane has yet to read: one sync per
     * shuffle suffices. */
    uint64_t slot[2][kWave];
};

struct Executor {
    /* The launch */
    const char *kernel;
    void (*invoke)(void *);
    void *body;
    unsigned nthreads, nwaves;
    bool random;
    uint64_t seed, rng;
    /* The running block */
    Fiber fibers[kMaxThreads];
    Wave waves[kMaxWaves];
    Fiber *current;
    unsigned at_barrier; /* threads suspended in __syncthreads */
    /* The round being run: lanes of one wave, in the order they run */
    Fiber *order[kWave];
    unsigned order_len, order_pos;
    Fiber *to_start; /* the thread a worker is resumed to start */
    /* Contexts */
    Context scheduler;
    Worker workers[kMaxThreads];
    unsigned nworkers;
    Worker *free_workers;
    size_t stack_size;
    bool trapped; /* a kernel's assert failed: the launch stops, and no later one runs */
#if HIPCPU_ASAN
    const void *scheduler_stack;
    size_t scheduler_stack_size;
#endif
};

/* The executor's one state (scheduler.cpp). Not static: the context switch
 * is an opaque call that must be seen to read and write it. */
extern Executor ex;

/* ---- Between the parts ------------------------------------------------------- */

/* fibers.cpp: runs every fiber of the round (ex.order) until it suspends or
 * returns. */
void run_round();
/* fibers.cpp, called on the fiber: waits in state s until it is resumed. */
void suspend(Fiber *t, State s);
/* fibers.cpp: a message, not a bare "Segmentation fault", for a fiber stack's
 * overflow (not under ASan, which reports overflows itself). */
void install_overflow_handler();
/* fibers.cpp: the watchdog of a launch, armed before its first block and disarmed after its last:
 * a launch in which no round ends for HIPCPU_WATCHDOG_S seconds (a kernel that never ends) stops
 * with the kernel, block and thread it was running, and that thread's source line. */
void watchdog_arm();
void watchdog_disarm();

/* scheduler.cpp: the bytes of the static __shared__ variables. */
size_t static_shared_bytes();

/* runtime_api.cpp: e, kept for hipGetLastError unless it is hipSuccess. */
hipError_t record(hipError_t e);
/* runtime_api.cpp: the sticky error (a kernel's failed assert, as on a GPU), or
 * hipSuccess; once set, every synchronising call and launch returns it. */
hipError_t sticky_error();
void set_sticky_error(hipError_t e);
/* fibers.cpp, called on the fiber: ends the round here, leaving this fiber
 * and the others of the block where they are (a failed assert). */
[[noreturn]] void abandon_block(Fiber *t);

/* settings.cpp: a setting only the trace build reads stops a build without
 * the tracer at its first launch, rather than silently counting nothing. */
void refuse_trace_settings();

/* messages.cpp: hipcpu_die_in_block (tracer/trace.h) for the SIGSEGV handler,
 * which must not use stdio: the fault may have hit inside it. */
[[noreturn]] void die_in_signal_handler(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* fibers.cpp: "file.hip:12", the source line of an instruction of the program (addr2line on
 * its debug lines), outside the executor's HIP header; "" where unknown. Safe in a signal
 * handler once a launch has run. */
void source_line_of(uintptr_t pc, char *out, size_t size);

} /* namespace hipcpu_exec */

#endif
