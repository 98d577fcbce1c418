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
 * Layout of this file: configuration, contexts and stacks, the per-launch
 * state, fibers and scheduling, wave operations, launch, then the HIP API. */
#include <hip/hip_runtime.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include "settings.h"
#include "trace/hooks.h" /* the calls into the trace build's tracer: nothing in the plain build */

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
#if HIPCPU_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(HIPCPU_USE_UCONTEXT)
#define HIPCPU_ASM_SWITCH 1
#else
#define HIPCPU_ASM_SWITCH 0
#include <ucontext.h>
#endif

/* Every abort goes through these (Messages, below). */
[[noreturn]] static void die(const char *format, ...) __attribute__((format(printf, 1, 2)));
[[noreturn]] static void die_in_block(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* ---- Configuration ---------------------------------------------------------- */

static constexpr unsigned kMaxThreads = 1024;             /* per block */
static constexpr unsigned kWave = HIPCPU_WAVE_SIZE;
static constexpr unsigned kMaxWaves = kMaxThreads / kWave;
/* Fiber stacks: ASan's redzones make frames several times larger. */
static constexpr size_t kDefaultStackBytes = (HIPCPU_ASAN ? 256 : 64) * 1024;
/* An inaccessible region below each stack, large enough that a kernel with a
 * big local array cannot jump over it into a neighbour's stack. */
static constexpr size_t kGuardBytes = 64 * 1024;

/* ---- Contexts --------------------------------------------------------------- */

#if HIPCPU_ASM_SWITCH
extern "C" void hipcpu_switch(void **save, void *target);
extern "C" void hipcpu_fiber_start(void);

/* A suspended context is its stack pointer; the registers are on its stack. */
struct Context {
    void *sp;
};

/* Prepares a context that, when first switched to, calls fn(arg) on the
 * given stack. The initial frame mirrors what hipcpu_switch pops. */
static void context_init(Context *c, char *stack, size_t size, void (*fn)(void *), void *arg) {
    uintptr_t top = (reinterpret_cast<uintptr_t>(stack) + size) & ~uintptr_t(15);
    void **sp = reinterpret_cast<void **>(top);
#if defined(__x86_64__)
    *--sp = reinterpret_cast<void *>(hipcpu_fiber_start); /* return address */
    *--sp = nullptr;                                       /* rbp */
    *--sp = arg;                                           /* rbx */
    *--sp = reinterpret_cast<void *>(fn);                  /* r12 */
    *--sp = nullptr;                                       /* r13 */
    *--sp = nullptr;                                       /* r14 */
    *--sp = nullptr;                                       /* r15 */
#else /* aarch64: a 176-byte frame, see fiber_aarch64.S */
    sp -= 176 / sizeof(void *);
    memset(sp, 0, 176);
    sp[0] = arg;                                            /* x19 */
    sp[1] = reinterpret_cast<void *>(fn);                   /* x20 */
    sp[11] = reinterpret_cast<void *>(hipcpu_fiber_start);  /* x30 */
#endif
    c->sp = sp;
}

static inline void context_switch(Context *from, Context *to) { hipcpu_switch(&from->sp, to->sp); }

#else /* portable fallback: slower, swapcontext saves the signal mask with a system call */
struct Context {
    ucontext_t uc;
};

/* makecontext passes int arguments only: pointers travel as two halves. */
static void context_entry(unsigned fn_hi, unsigned fn_lo, unsigned arg_hi, unsigned arg_lo) {
    auto join = [](unsigned hi, unsigned lo) {
        return static_cast<uintptr_t>((static_cast<uint64_t>(hi) << 32) | lo);
    };
    auto fn = reinterpret_cast<void (*)(void *)>(join(fn_hi, fn_lo));
    fn(reinterpret_cast<void *>(join(arg_hi, arg_lo)));
    die("internal error: a fiber's entry function returned");
}

static void context_init(Context *c, char *stack, size_t size, void (*fn)(void *), void *arg) {
    uint64_t f = reinterpret_cast<uintptr_t>(fn), a = reinterpret_cast<uintptr_t>(arg);
    getcontext(&c->uc);
    c->uc.uc_stack.ss_sp = stack;
    c->uc.uc_stack.ss_size = size;
    c->uc.uc_link = nullptr;
    makecontext(&c->uc, reinterpret_cast<void (*)()>(context_entry), 4, unsigned(f >> 32),
                unsigned(f), unsigned(a >> 32), unsigned(a));
}

static inline void context_switch(Context *from, Context *to) { swapcontext(&from->uc, &to->uc); }
#endif

/* ---- State ------------------------------------------------------------------ */

/* A worker is a stack with a context on it. Free workers are parked in
 * worker_main, waiting for a thread to run. A thread that suspends keeps its
 * worker until it returns. Workers are created on demand, at most one per
 * thread of the largest block, and live as long as the process. */
struct Worker {
    Context ctx;
    char *guard; /* start of the mapping: kGuardBytes of PROT_NONE */
    char *stack; /* the usable stack, just above the guard */
    size_t stack_size;
    Worker *next_free;
};

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
#if HIPCPU_ASAN
    const void *scheduler_stack;
    size_t scheduler_stack_size;
#endif
};

/* Not static: the context switch is an opaque call that must be seen to
 * read and write this state. */
Executor hipcpu_executor;
static Executor &ex = hipcpu_executor;

extern "C" {
const hipcpu_thread_view *hipcpu_current_thread = nullptr;
dim3 hipcpu_block_idx, hipcpu_block_dim, hipcpu_grid_dim;
unsigned hipcpu_current_linear = 0;
}

/* __shared__ variables live in this section (see hip_runtime.h); the linker
 * defines its bounds. Weak: a program may have none. */
extern "C" char __start_hipcpu_shared[] __attribute__((weak));
extern "C" char __stop_hipcpu_shared[] __attribute__((weak));

/* Dynamic shared memory (HIP_DYNAMIC_SHARED): one CU's LDS, in the same
 * section, so the trace build counts it as LDS. A launch may use what the
 * static __shared__ variables leave of the 64 KiB. */
static constexpr size_t kLdsBytes = 65536;
extern "C" {
__attribute__((section("hipcpu_shared"), aligned(256))) unsigned char hipcpu_dynamic_shared[kLdsBytes];
}
static size_t static_shared_bytes() {
    return size_t(__stop_hipcpu_shared - __start_hipcpu_shared) - kLdsBytes;
}
static size_t dynamic_shared_bytes; /* this launch's */

static std::mutex launch_mutex;         /* one launch at a time in the process */
static thread_local bool in_launch;     /* catches launches from inside a kernel */
static thread_local hipError_t last_error = hipSuccess;

static hipError_t record(hipError_t e) {
    if (e != hipSuccess) last_error = e;
    return e;
}

/* ---- Messages --------------------------------------------------------------- */

#define D3(d) (d).x, (d).y, (d).z

/* Where an abort comes from: the program, the running block, or the running
 * block's SIGSEGV handler, which must not use stdio (the fault may have hit
 * inside it). */
enum Origin { kProgram, kBlock, kSignal };

/* Every abort of the executor and its tracer: "hipcpu: " and the message,
 * with "kernel 'NAME' block (X,Y,Z): " in front for one from inside a block,
 * written to stderr in one piece. */
[[noreturn]] static void vdie(Origin origin, const char *format, va_list args) {
    char text[1024], line[4096];
    vsnprintf(text, sizeof text, format, args);
    const int n = origin == kProgram ? snprintf(line, sizeof line, "hipcpu: %s\n", text)
                                     : snprintf(line, sizeof line, "hipcpu: kernel '%s' block (%u,%u,%u): %s\n",
                                                ex.kernel, D3(hipcpu_block_idx), text);
    if (origin != kSignal) {
        fflush(stdout); /* keep the kernel's own printf output */
        fflush(stderr);
    }
    ssize_t written = write(2, line, n < 0 ? 0 : size_t(n) < sizeof line ? size_t(n) : sizeof line - 1);
    (void)written;
    _exit(1);
}

static void die(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vdie(kProgram, format, args);
}

static void die_in_block(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vdie(kBlock, format, args);
}

/* The same two, for the tracer (trace.h). */
void hipcpu_die(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vdie(kProgram, format, args);
}

void hipcpu_die_in_block(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vdie(kBlock, format, args);
}

/* ---- Settings (settings.h) --------------------------------------------------- */

const char *hipcpu_setting_text(hipcpu_env id) {
    const char *value = getenv(hipcpu_settings[int(id)].name);
    return value ? value : "";
}

unsigned long long hipcpu_setting_value(hipcpu_env id) {
    const hipcpu_setting &s = hipcpu_settings[int(id)];
    const char *value = hipcpu_setting_text(id);
    if (!*value) return s.fallback;
    if (s.kind == HIPCPU_TEXT) return 1;
    if (s.kind == HIPCPU_CHOICE) {
        unsigned long long index = 0;
        for (const char *word = s.choices;; word += strcspn(word, "|") + 1, index++) {
            const size_t length = strcspn(word, "|");
            if (strlen(value) == length && strncmp(value, word, length) == 0) return index;
            if (!word[length]) break;
        }
    } else {
        char *end;
        errno = 0;
        const unsigned long long n = strtoull(value, &end, s.base);
        if (*end == '\0' && errno == 0 && *value != '-' && n >= s.low && n <= s.high) return n;
    }
    die("%s must be %s, not '%s'", s.name, s.what, value);
}

/* A setting that only the trace build reads stops a build without the
 * tracer at its first launch, rather than silently counting nothing. */
static void refuse_trace_settings() {
    static bool checked;
    if (hipcpu_hooks::kTraceBuild || checked) return;
    checked = true;
    for (const hipcpu_setting &s : hipcpu_settings)
        if (s.needs_trace && *hipcpu_setting_text(hipcpu_env(&s - hipcpu_settings)))
            die("%s needs the executor's trace build (make profile-N or make racecheck-N); this program was built "
                "without it", s.name);
}

static const char *op_name(int kind) {
    switch (kind) {
    case HIPCPU_SHFL_IDX: return "__shfl";
    case HIPCPU_SHFL_UP: return "__shfl_up";
    case HIPCPU_SHFL_DOWN: return "__shfl_down";
    case HIPCPU_SHFL_XOR: return "__shfl_xor";
    case HIPCPU_WAVE_BALLOT: return "__ballot";
    case HIPCPU_WAVE_ANY: return "__any";
    case HIPCPU_WAVE_ALL: return "__all";
    case HIPCPU_WAVE_UNIFORM: return "hipcpu_wave_uniform";
    }
    return "a wave operation";
}

/* ---- Stacks ----------------------------------------------------------------- */

static void worker_main(void *arg);

static Worker *new_worker() {
    if (ex.stack_size == 0) {
        ex.stack_size = kDefaultStackBytes;
        const unsigned long long kb = hipcpu_setting_value(hipcpu_env::HIPCPU_STACK_KB); /* 0: unset */
        if (kb) ex.stack_size = size_t(kb) * 1024;
    }
    if (ex.nworkers == kMaxThreads) die("internal error: out of fiber stacks");
    char *base = static_cast<char *>(mmap(nullptr, kGuardBytes + ex.stack_size, PROT_READ | PROT_WRITE,
                                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (base == MAP_FAILED || mprotect(base, kGuardBytes, PROT_NONE) != 0)
        die("cannot map a %zu KiB fiber stack: %s", ex.stack_size / 1024, strerror(errno));
    Worker *w = &ex.workers[ex.nworkers++];
    w->guard = base;
    w->stack = base + kGuardBytes;
    w->stack_size = ex.stack_size;
    context_init(&w->ctx, w->stack, w->stack_size, worker_main, w);
    return w;
}

#if !HIPCPU_ASAN
/* Stack overflow: a fault in a guard region gets a message instead of a
 * bare "Segmentation fault". Other faults go to the previous handler. Not
 * installed under ASan, which reports overflows itself. */
static struct sigaction previous_segv;

[[noreturn]] static void die_in_handler(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void die_in_handler(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vdie(kSignal, format, args);
}

static void on_segv(int, siginfo_t *info, void *) {
    const char *addr = static_cast<const char *>(info->si_addr);
    for (unsigned i = 0; i < ex.nworkers; i++) {
        const Worker &w = ex.workers[i];
        if (addr >= w.guard && addr < w.stack && ex.current)
            die_in_handler("thread (%u,%u,%u) overflowed its %zu KiB fiber stack (set HIPCPU_STACK_KB to "
                           "enlarge it)", D3(ex.current->view.index), w.stack_size / 1024);
    }
    sigaction(SIGSEGV, &previous_segv, nullptr); /* the fault repeats and goes there */
}

static void install_overflow_handler() {
    static thread_local bool have_altstack;
    if (!have_altstack) { /* the handler cannot run on the stack that overflowed */
        have_altstack = true;
        stack_t current;
        if (sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE)) {
            const size_t size = 64 * 1024;
            void *mem = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (mem != MAP_FAILED) {
                stack_t alt = {};
                alt.ss_sp = mem;
                alt.ss_size = size;
                sigaltstack(&alt, nullptr);
            }
        }
    }
    static bool installed; /* once: a system call per launch would cost more than small kernels */
    if (installed) return;
    installed = true;
    struct sigaction mine = {};
    mine.sa_sigaction = on_segv;
    mine.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&mine.sa_mask);
    sigaction(SIGSEGV, &mine, &previous_segv);
}
#else
static void install_overflow_handler() {}
#endif

/* ---- Switching -------------------------------------------------------------- */

/* A round is a list of fibers (lanes of one wave) to run until each suspends
 * or returns. The scheduler starts the first; from then on every fiber that
 * gives up the CPU switches straight to the next one in the list, and the
 * last switches back to the scheduler: one context switch per fiber. */

static inline void set_current(Fiber *t) {
    ex.current = t;
    hipcpu_current_thread = t ? &t->view : nullptr;
    hipcpu_current_linear = t ? unsigned(t - ex.fibers) : 0;
}

/* Takes the next fiber of the round and returns the worker to switch to, or
 * nullptr (the scheduler) when the round is over. A fiber not yet started
 * gets a free worker, which will read ex.to_start. */
static Worker *next_in_round() {
    if (ex.order_pos == ex.order_len) return nullptr;
    Fiber *t = ex.order[ex.order_pos++];
    if (t->state == kNotStarted) {
        Worker *w = ex.free_workers;
        if (w)
            ex.free_workers = w->next_free;
        else
            w = new_worker();
        ex.to_start = t;
        return w;
    }
    t->state = kRunning;
    set_current(t);
    return t->worker;
}

/* ASan must be told about every stack switch, or it reports false positives
 * and loses track of fake stacks. It also tells the fiber switched to where
 * the stack it came from lies; the scheduler's is remembered from that. */
#if HIPCPU_ASAN
static bool from_scheduler;

static void asan_arrived(void *fake) {
    const void *bottom;
    size_t size;
    __sanitizer_finish_switch_fiber(fake, &bottom, &size);
    if (from_scheduler) {
        ex.scheduler_stack = bottom;
        ex.scheduler_stack_size = size;
        from_scheduler = false;
    }
}
#endif

/* Scheduler -> worker w. Returns when the round is over. */
static void enter_worker(Worker *w) {
#if HIPCPU_ASAN
    void *fake = nullptr;
    from_scheduler = true;
    __sanitizer_start_switch_fiber(&fake, w->stack, w->stack_size);
#endif
    context_switch(&ex.scheduler, &w->ctx);
#if HIPCPU_ASAN
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
}

/* Worker `from` -> worker `to`, or the scheduler if `to` is null. Returns
 * when something switches back to `from`. */
static void switch_worker(Worker *from, Worker *to) {
#if HIPCPU_ASAN
    void *fake = nullptr;
    if (to)
        __sanitizer_start_switch_fiber(&fake, to->stack, to->stack_size);
    else
        __sanitizer_start_switch_fiber(&fake, ex.scheduler_stack, ex.scheduler_stack_size);
#endif
    context_switch(&from->ctx, to ? &to->ctx : &ex.scheduler);
#if HIPCPU_ASAN
    asan_arrived(fake);
#endif
}

/* Runs on a worker's stack forever: start the thread it was given, and when
 * that returns, start the following not-yet-started threads of the round on
 * this very stack (no switch at all). Then park among the free workers and
 * pass the CPU on. */
static void worker_main(void *arg) {
    Worker *w = static_cast<Worker *>(arg);
#if HIPCPU_ASAN
    asan_arrived(nullptr);
#endif
    for (;;) {
        Fiber *t = ex.to_start;
        for (;;) {
            t->worker = w;
            t->state = kRunning;
            set_current(t);
            ex.invoke(ex.body); /* the kernel; may suspend and resume many times */
            t->state = kDone;
            t->worker = nullptr;
            if (ex.order_pos == ex.order_len || ex.order[ex.order_pos]->state != kNotStarted) break;
            t = ex.order[ex.order_pos++];
        }
        Worker *next = next_in_round(); /* a suspended fiber or nothing: needs no worker */
        w->next_free = ex.free_workers;
        ex.free_workers = w;
        switch_worker(w, next);
    }
}

/* Called on the fiber: wait in state s until it is resumed. The counts
 * spare the scheduler a scan of every thread after every round. */
static void suspend(Fiber *t, State s) {
    t->state = s;
    if (s == kAtBarrier)
        ex.at_barrier++;
    else if (s == kAtWaveOp)
        ex.waves[t->wave].at_op++;
    switch_worker(t->worker, next_in_round());
}

/* The trace build's tracer: a lane stops at a memory access (trace.h). */
void hipcpu_suspend_at_access(void) { suspend(ex.current, kAtAccess); }

/* The tracer's name for the running kernel, from its code (trace.h). */
void hipcpu_name_launch(const char *name) { ex.kernel = name; }

/* ---- Scheduling ------------------------------------------------------------- */

static uint64_t next_random() { /* splitmix64 */
    uint64_t z = (ex.rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t random_below(uint64_t n) { return next_random() % n; }

/* The round: the wave's lanes that can run, in lane order or shuffled. */
static void build_round(const Wave &wave) {
    unsigned n = 0;
    for (unsigned i = 0; i < wave.lanes; i++) {
        Fiber *t = &ex.fibers[wave.first + i];
        if (t->state == kNotStarted || t->state == kReady) ex.order[n++] = t;
    }
    if (ex.random)
        for (unsigned i = n; i > 1; i--) {
            unsigned j = unsigned(random_below(i));
            Fiber *swap = ex.order[i - 1];
            ex.order[i - 1] = ex.order[j];
            ex.order[j] = swap;
        }
    ex.order_len = n;
    ex.order_pos = 0;
}

/* Runs every fiber of the round until it suspends or returns. */
static void run_round() {
    if (Worker *w = next_in_round()) enter_worker(w);
    set_current(nullptr);
}

/* After a round, each lane of the wave is at a wave operation, at the
 * barrier, or done. If all are at the wave operation, let them through and
 * return true: the wave needs another round. If only some are, abort. */
static bool complete_wave_op(Wave &wave) {
    if (wave.at_op == 0) return false;
    Fiber *lanes = &ex.fibers[wave.first];
    const unsigned wave_id = unsigned(&wave - ex.waves);
    const Fiber *op = &lanes[0];
    if (wave.at_op < wave.lanes) {
        const Fiber *other = nullptr;
        for (unsigned i = wave.lanes; i-- > 0;) {
            if (lanes[i].state == kAtWaveOp)
                op = &lanes[i];
            else
                other = &lanes[i];
        }
        die_in_block("%s reached by %u of %u lanes of wave %u; thread (%u,%u,%u) %s", op_name(op->op_kind),
                     wave.at_op, wave.lanes, wave_id, D3(other->view.index),
                     other->state == kDone ? "returned without reaching it"
                                           : "is waiting at __syncthreads instead");
    }
    hipcpu_hooks::wave_op(wave_id, op->op_kind);
    for (unsigned i = 0; i < wave.lanes; i++) {
        if (lanes[i].op_kind != op->op_kind || lanes[i].op_width != op->op_width)
            die_in_block("lanes of wave %u reached different wave operations: thread (%u,%u,%u) called %s "
                         "with width %d, thread (%u,%u,%u) called %s with width %d",
                         wave_id, D3(op->view.index), op_name(op->op_kind), op->op_width,
                         D3(lanes[i].view.index), op_name(lanes[i].op_kind), lanes[i].op_width);
        lanes[i].state = kReady;
    }
    wave.at_op = 0;
    wave.parity ^= 1;
    return true;
}

/* A traced round is over: tells the tracer which lanes are live and which
 * stopped at a memory access, and readies those to run on. True if any did. */
static bool traced_round_end(Wave &wave) {
    uint64_t live = 0;
    unsigned at_access = 0;
    for (unsigned i = 0; i < wave.lanes; i++) {
        Fiber &lane = ex.fibers[wave.first + i];
        live |= uint64_t(lane.state != kDone) << i;
        if (lane.state == kAtAccess) {
            lane.state = kReady;
            at_access++;
        }
    }
    hipcpu_hooks::round_end(unsigned(&wave - ex.waves), wave.first, wave.lanes, live, at_access);
    return at_access != 0;
}

/* One round of a wave, then what follows from it. Returns true if the wave
 * has more to run before the barrier: lanes stopped at a memory access (trace
 * build), or a wave operation that every lane reached. */
static bool step_wave(Wave &wave) {
    build_round(wave);
    run_round();
    if (hipcpu_hooks::traced() && traced_round_end(wave)) return true;
    return complete_wave_op(wave);
}

/* A GPU hands a block whatever its LDS held before: garbage. So every block
 * starts with its __shared__ variables filled with 0xFF bytes (NaN as float,
 * -1 as int), and a kernel that reads shared memory it has not written gets
 * a visibly wrong answer rather than the zeros of a fresh program. */
static void poison_shared_memory() {
    /* The static variables around the dynamic area, and as much of the area
     * as the launch asked for: filling all 64 KiB per block would cost more
     * than a small block's work. */
    char *area = reinterpret_cast<char *>(hipcpu_dynamic_shared);
    memset(__start_hipcpu_shared, 0xFF, size_t(area - __start_hipcpu_shared));
    memset(area, 0xFF, dynamic_shared_bytes);
    memset(area + kLdsBytes, 0xFF, size_t(__stop_hipcpu_shared - (area + kLdsBytes)));
}

/* Runs the block whose index is in hipcpu_block_idx, one barrier phase at a
 * time. In-order mode finishes wave 0's phase, then wave 1's, and so on; the
 * random mode interleaves the waves at every wave operation. */
static void run_block() {
    poison_shared_memory();
    for (unsigned i = 0; i < ex.nthreads; i++) ex.fibers[i].state = kNotStarted;
    for (unsigned w = 0; w < ex.nwaves; w++) {
        ex.waves[w].parity = 0;
        ex.waves[w].at_op = 0;
    }
    ex.at_barrier = 0;
    for (;;) {
        if (!ex.random) {
            for (unsigned w = 0; w < ex.nwaves; w++)
                while (step_wave(ex.waves[w])) {
                }
        } else {
            unsigned active[kMaxWaves], n = ex.nwaves;
            for (unsigned w = 0; w < n; w++) active[w] = w;
            while (n > 0) {
                unsigned k = unsigned(random_below(n));
                if (!step_wave(ex.waves[active[k]])) active[k] = active[--n];
            }
        }
        /* Every thread is now at the barrier or done. */
        if (ex.at_barrier == 0) return;
        if (ex.at_barrier < ex.nthreads) {
            unsigned i = 0;
            while (ex.fibers[i].state != kDone) i++;
            die_in_block("__syncthreads reached by %u of %u threads; thread (%u,%u,%u) returned without "
                         "reaching it", ex.at_barrier, ex.nthreads, D3(ex.fibers[i].view.index));
        }
        for (unsigned i = 0; i < ex.nthreads; i++) ex.fibers[i].state = kReady;
        ex.at_barrier = 0;
        hipcpu_hooks::barrier();
    }
}

/* ---- Device-side entry points ----------------------------------------------- */

extern "C" void __syncthreads(void) {
    if (!ex.current) die("__syncthreads called outside a kernel");
    suspend(ex.current, kAtBarrier);
}

extern "C" uint64_t hipcpu_wave_op(uint64_t value, int kind, int arg, int width) {
    Fiber *t = ex.current;
    if (!t) die("%s called outside a kernel", op_name(kind));
    if (width < 1 || width > int(kWave) || (width & (width - 1)) != 0)
        die_in_block("thread (%u,%u,%u) called %s with width %d; the width must be a power of two from 1 "
                     "to warpSize (%u)", D3(t->view.index), op_name(kind), width, kWave);
    Wave &wave = ex.waves[t->wave];
    const unsigned p = wave.parity;
    wave.slot[p][t->lane] = value;
    t->op_kind = uint8_t(kind);
    t->op_width = width;
    suspend(t, kAtWaveOp);

    /* Every lane of the wave has written slot[p] by now. */
    const uint64_t *slot = wave.slot[p];
    if (kind == HIPCPU_WAVE_BALLOT || kind == HIPCPU_WAVE_ANY || kind == HIPCPU_WAVE_ALL) {
        uint64_t mask = 0;
        for (unsigned i = 0; i < wave.lanes; i++) mask |= (slot[i] & 1) << i;
        const uint64_t all = wave.lanes == 64 ? ~uint64_t(0) : (uint64_t(1) << wave.lanes) - 1;
        return kind == HIPCPU_WAVE_BALLOT ? mask : kind == HIPCPU_WAVE_ANY ? mask != 0 : mask == all;
    }
    if (kind == HIPCPU_WAVE_UNIFORM) {
        for (unsigned i = 1; i < wave.lanes; i++)
            if (slot[i] != slot[0])
                die_in_block("wave %u: a value the kernel declares uniform (the same in every lane) is %d "
                             "in lane 0 but %d in lane %u; readfirstlane on a GPU would silently use lane "
                             "0's", t->wave, int(uint32_t(slot[0])), int(uint32_t(slot[i])), i);
        return slot[0];
    }
    /* Source lane, as HIP computes it; out of the segment reads one's own. */
    const long long self = t->lane, start = self & ~(long long)(width - 1), delta = unsigned(arg);
    long long src = self;
    switch (kind) {
    case HIPCPU_SHFL_IDX: src = start + (arg & (width - 1)); break; /* srcLane modulo width */
    case HIPCPU_SHFL_UP: src = self - delta >= start ? self - delta : self; break;
    case HIPCPU_SHFL_DOWN: src = (self - start) + delta < width ? self + delta : self; break;
    case HIPCPU_SHFL_XOR:
        src = self ^ arg;
        if (src < 0 || src >= start + width) src = self;
        break;
    }
    if (src >= (long long)wave.lanes)
        die_in_block("thread (%u,%u,%u) %s reads lane %lld of wave %u, which does not exist: the block's "
                     "last wave has only %u lanes", D3(t->view.index), op_name(kind), src, t->wave,
                     wave.lanes);
    return slot[src];
}

/* ---- Launch ----------------------------------------------------------------- */

/* HIPCPU_SCHEDULE and HIPCPU_SEED are read at every launch. The random
 * sequence restarts from the seed when random mode is switched on or the
 * seed changes, so a run is reproducible. */
static void read_schedule() {
    const bool random = hipcpu_setting_value(hipcpu_env::HIPCPU_SCHEDULE) == 1; /* 0: inorder */
    const uint64_t seed = hipcpu_setting_value(hipcpu_env::HIPCPU_SEED);
    if (random && (!ex.random || seed != ex.seed)) ex.rng = seed;
    ex.random = random;
    ex.seed = seed;
}

/* Thread coordinates, waves and lanes: kept until a launch has another
 * block shape, since the divisions cost more than a small kernel. */
static void set_block_shape(dim3 block) {
    hipcpu_block_dim = block;
    ex.nthreads = block.x * block.y * block.z;
    ex.nwaves = (ex.nthreads + kWave - 1) / kWave;
    for (unsigned i = 0; i < ex.nthreads; i++) {
        Fiber &t = ex.fibers[i];
        t.view.index = dim3(i % block.x, i / block.x % block.y, i / (block.x * block.y));
        t.wave = i / kWave;
        t.lane = i % kWave;
    }
    for (unsigned w = 0; w < ex.nwaves; w++) {
        ex.waves[w].first = w * kWave;
        ex.waves[w].lanes = ex.nthreads - w * kWave < kWave ? ex.nthreads - w * kWave : kWave;
    }
}

static uint64_t gcd(uint64_t a, uint64_t b) {
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

extern "C" hipError_t hipcpu_launch(const char *kernel_name, dim3 grid, dim3 block, size_t shared_bytes,
                                    hipStream_t, void (*invoke)(void *), void *body) {
    const uint64_t nthreads = uint64_t(block.x) * block.y * block.z;
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || nthreads == 0 || nthreads > kMaxThreads ||
        block.z > 64 || grid.x > 0x7FFFFFFFu || grid.y > 65535 || grid.z > 65535)
        return record(hipErrorInvalidConfiguration);
    if (shared_bytes > kLdsBytes - static_shared_bytes()) return record(hipErrorInvalidValue); /* more than the LDS */
    if (in_launch) die("kernel '%s' launched from inside a kernel: not supported", kernel_name);

    std::lock_guard<std::mutex> lock(launch_mutex);
    in_launch = true;
    read_schedule();
    install_overflow_handler();
    refuse_trace_settings();
    hipcpu_hooks::launch_begin(kernel_name, grid, block);
    ex.kernel = kernel_name;
    dynamic_shared_bytes = shared_bytes;
    ex.invoke = invoke;
    ex.body = body;
    hipcpu_grid_dim = grid;
    if (block.x != hipcpu_block_dim.x || block.y != hipcpu_block_dim.y || block.z != hipcpu_block_dim.z ||
        ex.nthreads != unsigned(nthreads))
        set_block_shape(block);

    /* Block order: in order (x fastest), or a random permutation - shuffled
     * explicitly up to 2^20 blocks, beyond that (a*i + c) mod n. */
    const uint64_t nblocks = uint64_t(grid.x) * grid.y * grid.z;
    std::vector<uint32_t> permutation;
    uint64_t a = 1, c = 0;
    if (ex.random && nblocks <= (1u << 20)) {
        permutation.resize(nblocks);
        for (uint32_t i = 0; i < nblocks; i++) permutation[i] = i;
        for (uint64_t i = nblocks; i > 1; i--) {
            uint64_t j = random_below(i);
            uint32_t swap = permutation[i - 1];
            permutation[i - 1] = permutation[j];
            permutation[j] = swap;
        }
    } else if (ex.random && nblocks < (uint64_t(1) << 32)) {
        do a = 1 + random_below(nblocks - 1); while (gcd(a, nblocks) != 1);
        c = random_below(nblocks);
    }
    for (uint64_t b = 0; b < nblocks; b++) {
        const uint64_t id = !permutation.empty() ? permutation[b] : (a * b + c) % nblocks;
        hipcpu_block_idx = dim3(uint32_t(id % grid.x), uint32_t(id / grid.x % grid.y),
                                uint32_t(id / grid.x / grid.y));
        hipcpu_hooks::block_begin(id);
        run_block();
    }
    hipcpu_hooks::launch_end();
    in_launch = false;
    return hipSuccess;
}

/* ---- Runtime API ------------------------------------------------------------ */

struct ihipStream_t {
    int unused;
};

struct ihipEvent_t {
    long long ns; /* CLOCK_MONOTONIC */
    bool recorded;
};

static long long now_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* HIPCPU_FAIL_ALLOC=N: the N-th hipMalloc call fails. The variable is read
 * at every call and the count restarts whenever its value changes, so a
 * program or a test may set it at any time: the N-th call after that fails. */
static bool inject_alloc_failure() {
    static std::mutex mutex;
    static char seen[32];
    static unsigned long long calls;
    std::lock_guard<std::mutex> lock(mutex);
    const char *value = hipcpu_setting_text(hipcpu_env::HIPCPU_FAIL_ALLOC);
    if (strncmp(value, seen, sizeof seen - 1) != 0) {
        snprintf(seen, sizeof seen, "%s", value);
        calls = 0;
    }
    calls++;
    if (*value == '\0') return false;
    return hipcpu_setting_value(hipcpu_env::HIPCPU_FAIL_ALLOC) == calls;
}

extern "C" {

hipError_t hipMalloc(void **ptr, size_t size) {
    if (!ptr) return record(hipErrorInvalidValue);
    *ptr = nullptr;
    if (inject_alloc_failure()) return record(hipErrorOutOfMemory);
    if (size == 0) return hipSuccess;
    /* GPU allocations are 256-byte aligned. Large ones get transparent huge
     * pages where the kernel offers them: touching a big buffer page by page
     * can cost more than the kernels that use it. Exactly `size` bytes are
     * allocated, not a rounded-up size, so that AddressSanitizer reports an
     * access one past the end. */
    const size_t huge = size_t(2) << 20, align = size >= huge ? huge : 256;
    void *p = nullptr;
    if (posix_memalign(&p, align, size) != 0) return record(hipErrorOutOfMemory);
#ifdef MADV_HUGEPAGE
    if (align == huge) madvise(p, size, MADV_HUGEPAGE); /* a hint: failure is harmless */
#endif
    memset(p, 0xFF, size); /* device memory starts as garbage, not zeros: NaN, -1 */
    *ptr = p;
    hipcpu_hooks::alloc(p, size);
    return hipSuccess;
}

hipError_t hipFree(void *ptr) {
    hipcpu_hooks::free(ptr);
    free(ptr);
    return hipSuccess;
}

void hipcpu_name_allocation(const void *ptr, const char *name) {
    hipcpu_hooks::name(ptr, name);
}

hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int) {
    if (!ptr) return record(hipErrorInvalidValue);
    *ptr = size ? malloc(size) : nullptr;
    return size && !*ptr ? record(hipErrorOutOfMemory) : hipSuccess;
}

hipError_t hipHostFree(void *ptr) {
    free(ptr);
    return hipSuccess;
}

hipError_t hipMemcpy(void *dst, const void *src, size_t size, hipMemcpyKind kind) {
    if (unsigned(kind) > hipMemcpyDefault || (size && (!dst || !src))) return record(hipErrorInvalidValue);
    if (size) memcpy(dst, src, size);
    return hipSuccess;
}

hipError_t hipMemcpyAsync(void *dst, const void *src, size_t size, hipMemcpyKind kind, hipStream_t) {
    return hipMemcpy(dst, src, size, kind);
}

hipError_t hipMemset(void *dst, int value, size_t size) {
    if (size && !dst) return record(hipErrorInvalidValue);
    if (size) memset(dst, value, size);
    return hipSuccess;
}

hipError_t hipMemsetAsync(void *dst, int value, size_t size, hipStream_t) {
    return hipMemset(dst, value, size);
}

hipError_t hipMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
    if (!free_bytes || !total_bytes) return record(hipErrorInvalidValue);
    const long page = sysconf(_SC_PAGESIZE), total = sysconf(_SC_PHYS_PAGES), avail = sysconf(_SC_AVPHYS_PAGES);
    *total_bytes = total > 0 ? size_t(total) * size_t(page) : 0;
    *free_bytes = avail > 0 ? size_t(avail) * size_t(page) : 0;
    return hipSuccess;
}

hipError_t hipDeviceSynchronize(void) { return hipSuccess; } /* launches are synchronous */
hipError_t hipDeviceReset(void) { return hipSuccess; }

hipError_t hipGetDeviceCount(int *count) {
    if (!count) return record(hipErrorInvalidValue);
    *count = 1;
    return hipSuccess;
}

hipError_t hipSetDevice(int device) { return device == 0 ? hipSuccess : record(hipErrorInvalidDevice); }

hipError_t hipGetDevice(int *device) {
    if (!device) return record(hipErrorInvalidValue);
    *device = 0;
    return hipSuccess;
}

/* The CUs the executor reports: gfx906's 60, so that a grid sized from the
 * device (multiProcessorCount x blocks per CU) is the grid a Radeon Pro VII
 * or MI50 gets, and the trace counts what it would do. HIPCPU_COMPUTE_UNITS
 * sets another count (e.g. 132, an H100's SMs). Blocks still run one at a
 * time. */
static int compute_units() {
    return int(hipcpu_setting_value(hipcpu_env::HIPCPU_COMPUTE_UNITS));
}

extern "C" hipError_t hipcpu_occupancy(int *blocks, int block_size) {
    if (!blocks || block_size < 1 || unsigned(block_size) > kMaxThreads) return record(hipErrorInvalidValue);
    *blocks = 1;
    return hipSuccess;
}

/* The modelled device's limits per CU (common/cpu/model/devices.tsv): at wave
 * 64 gfx906's 40 waves (10 per SIMD), 16 blocks (40 of one wave) and 64 KiB of
 * LDS; at wave 32 an H100 SM's 64 warps, 32 blocks and 228 KiB of shared
 * memory, 1 KiB of it reserved per block. Registers are not counted: the
 * executor does not know them. */
static constexpr int kWavesPerCu = kWave == 64 ? 40 : 64;
static constexpr int kBlocksPerCu = kWave == 64 ? 16 : 32, kOneWaveBlocksPerCu = kWave == 64 ? 40 : 32;
static constexpr size_t kLdsPerCu = kWave == 64 ? 65536 : 233472, kLdsReservedPerBlock = kWave == 64 ? 0 : 1024;

static int blocks_per_cu(int block_size, size_t dynamic_shared) {
    const int waves = (block_size + int(kWave) - 1) / int(kWave);
    int blocks = std::min(kWavesPerCu / waves, waves == 1 ? kOneWaveBlocksPerCu : kBlocksPerCu);
    const size_t lds = static_shared_bytes() + dynamic_shared + kLdsReservedPerBlock;
    if (lds) blocks = std::min<size_t>(blocks, kLdsPerCu / lds);
    return blocks;
}

extern "C" hipError_t hipcpu_occupancy_limits(int *blocks, int block_size, size_t dynamic_shared) {
    if (!blocks || block_size < 1 || unsigned(block_size) > kMaxThreads) return record(hipErrorInvalidValue);
    *blocks = blocks_per_cu(block_size, dynamic_shared);
    return hipSuccess;
}

/* The block size (a power of two from a wave to the limit) with the most
 * waves resident per CU, the largest of equals; the grid that fills every CU. */
extern "C" hipError_t hipcpu_occupancy_block_size(int *grid_size, int *block_size, size_t dynamic_shared, int limit) {
    if (!grid_size || !block_size || limit < 0) return record(hipErrorInvalidValue);
    const int most = limit == 0 || unsigned(limit) > kMaxThreads ? int(kMaxThreads) : limit;
    int best = 0, best_waves = -1;
    for (int size = int(kWave) <= most ? int(kWave) : most; size <= most; size *= 2) {
        const int waves = blocks_per_cu(size, dynamic_shared) * ((size + int(kWave) - 1) / int(kWave));
        if (waves >= best_waves && blocks_per_cu(size, dynamic_shared) > 0) best = size, best_waves = waves;
    }
    if (best == 0) return record(hipErrorInvalidValue);
    *block_size = best;
    *grid_size = blocks_per_cu(best, dynamic_shared) * compute_units();
    return hipSuccess;
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device) {
    if (!prop) return record(hipErrorInvalidValue);
    if (device != 0) return record(hipErrorInvalidDevice);
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "HIP CPU executor (wave%u)", kWave);
    snprintf(prop->gcnArchName, sizeof prop->gcnArchName, "cpu");
    size_t free_bytes;
    hipMemGetInfo(&free_bytes, &prop->totalGlobalMem);
    prop->sharedMemPerBlock = 65536;
    prop->regsPerBlock = 65536;
    prop->warpSize = warpSize;
    prop->maxThreadsPerBlock = int(kMaxThreads);
    prop->maxThreadsDim[0] = 1024;
    prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 0x7FFFFFFF;
    prop->maxGridSize[1] = 65535;
    prop->maxGridSize[2] = 65535;
    prop->clockRate = 1000000; /* nominal */
    prop->memoryClockRate = 1000000;
    prop->memoryBusWidth = 64;
    prop->totalConstMem = 65536;
    prop->major = 1;
    prop->minor = 0;
    prop->multiProcessorCount = compute_units();
    prop->maxThreadsPerMultiProcessor = kWavesPerCu * int(kWave); /* the modelled device's: 2560 on gfx906 */
    prop->maxSharedMemoryPerMultiProcessor = kLdsPerCu;
    prop->l2CacheSize = kWave == 64 ? 4 << 20 : 50 << 20;
    prop->concurrentKernels = 1;
    prop->integrated = 1;
    return hipSuccess;
}

hipError_t hipStreamCreate(hipStream_t *stream) {
    if (!stream) return record(hipErrorInvalidValue);
    *stream = static_cast<hipStream_t>(calloc(1, sizeof(ihipStream_t)));
    return *stream ? hipSuccess : record(hipErrorOutOfMemory);
}

hipError_t hipStreamDestroy(hipStream_t stream) {
    free(stream);
    return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t) { return hipSuccess; }
hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int) { return hipStreamCreate(stream); }
hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t event, unsigned int) {
    return event ? hipSuccess : record(hipErrorInvalidHandle);
}
hipError_t hipStreamQuery(hipStream_t) { return hipSuccess; } /* every stream has finished */
hipError_t hipMallocHost(void **ptr, size_t size) { return hipHostMalloc(ptr, size, 0); }
hipError_t hipFreeHost(void *ptr) { return hipHostFree(ptr); }

/* The attributes hipGetDeviceProperties reports, one at a time. */
hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attribute, int device) {
    if (!value) return record(hipErrorInvalidValue);
    hipDeviceProp_t p;
    if (hipGetDeviceProperties(&p, device) != hipSuccess) return hipErrorInvalidDevice;
    switch (attribute) {
    case hipDeviceAttributeMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case hipDeviceAttributeMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case hipDeviceAttributeMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case hipDeviceAttributeMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case hipDeviceAttributeMaxGridDimX: *value = p.maxGridSize[0]; break;
    case hipDeviceAttributeMaxGridDimY: *value = p.maxGridSize[1]; break;
    case hipDeviceAttributeMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock:
    case hipDeviceAttributeSharedMemPerBlockOptin: *value = int(p.sharedMemPerBlock); break;
    case hipDeviceAttributeTotalConstantMemory: *value = int(p.totalConstMem); break;
    case hipDeviceAttributeWarpSize: *value = p.warpSize; break;
    case hipDeviceAttributeMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case hipDeviceAttributeClockRate: *value = p.clockRate; break;
    case hipDeviceAttributeMemoryClockRate: *value = p.memoryClockRate; break;
    case hipDeviceAttributeMemoryBusWidth: *value = p.memoryBusWidth; break;
    case hipDeviceAttributeMultiprocessorCount: *value = p.multiProcessorCount; break;
    case hipDeviceAttributeComputeCapabilityMajor: *value = p.major; break;
    case hipDeviceAttributeComputeCapabilityMinor: *value = p.minor; break;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: *value = int(p.maxSharedMemoryPerMultiProcessor); break;
    case hipDeviceAttributeL2CacheSize: *value = p.l2CacheSize; break;
    case hipDeviceAttributeIntegrated: *value = p.integrated; break;
    case hipDeviceAttributeConcurrentKernels: *value = p.concurrentKernels; break;
    case hipDeviceAttributeCooperativeLaunch: *value = 1; break; /* grid sync itself is refused by the front end */
    case hipDeviceAttributeCooperativeMultiDeviceLaunch: *value = 0; break;
    case hipDeviceAttributeManagedMemory:
    case hipDeviceAttributeUnifiedAddressing: *value = 1; break;
    default: return record(hipErrorInvalidValue);
    }
    return hipSuccess;
}

/* __device__ globals met by the host API (HIP_SYMBOL): a buffer of the trace
 * build, once, named after the variable or, for a bare symbol, by the symbol
 * table. */
void hipcpu_register_symbol(const void *address, size_t size, const char *name) {
    static std::mutex mutex;
    static std::vector<const void *> seen;
    std::lock_guard<std::mutex> lock(mutex);
    if (!address || !size || std::find(seen.begin(), seen.end(), address) != seen.end()) return;
    seen.push_back(address);
    hipcpu_hooks::alloc(const_cast<void *>(address), size);
    if (name) hipcpu_hooks::name(address, name);
}

/* hipMalloc's first argument as written, "&d_x" or "(void **)&d_x", to "d_x". */
void hipcpu_name_from_text(const void *ptr, const char *text) {
    if (!ptr || !text) return;
    const char *amp = strrchr(text, '&');
    std::string name = amp ? amp + 1 : text;
    while (!name.empty() && (name[0] == ' ' || name[0] == '(')) name.erase(0, 1);
    while (!name.empty() && (name.back() == ' ' || name.back() == ')')) name.pop_back();
    if (!name.empty()) hipcpu_hooks::name(ptr, name.c_str());
}

hipError_t hipEventCreate(hipEvent_t *event) {
    if (!event) return record(hipErrorInvalidValue);
    *event = static_cast<hipEvent_t>(calloc(1, sizeof(ihipEvent_t)));
    return *event ? hipSuccess : record(hipErrorOutOfMemory);
}

hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned int) { return hipEventCreate(event); }

hipError_t hipEventDestroy(hipEvent_t event) {
    if (!event) return record(hipErrorInvalidHandle);
    free(event);
    return hipSuccess;
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t) {
    if (!event) return record(hipErrorInvalidHandle);
    event->ns = now_ns();
    event->recorded = true;
    return hipSuccess;
}

hipError_t hipEventSynchronize(hipEvent_t event) { return event ? hipSuccess : record(hipErrorInvalidHandle); }
hipError_t hipEventQuery(hipEvent_t event) { return event ? hipSuccess : record(hipErrorInvalidHandle); }

hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop) {
    if (!ms) return record(hipErrorInvalidValue);
    if (!start || !stop || !start->recorded || !stop->recorded) return record(hipErrorInvalidHandle);
    *ms = float(double(stop->ns - start->ns) / 1e6);
    return hipSuccess;
}

hipError_t hipGetLastError(void) {
    hipError_t e = last_error;
    last_error = hipSuccess;
    return e;
}

hipError_t hipPeekAtLastError(void) { return last_error; }

static const struct {
    hipError_t code;
    const char *name, *text;
} error_table[] = {
    {hipSuccess, "hipSuccess", "no error"},
    {hipErrorInvalidValue, "hipErrorInvalidValue", "invalid argument"},
    {hipErrorOutOfMemory, "hipErrorOutOfMemory", "out of memory"},
    {hipErrorNotInitialized, "hipErrorNotInitialized", "initialization error"},
    {hipErrorInvalidConfiguration, "hipErrorInvalidConfiguration", "invalid configuration argument"},
    {hipErrorInvalidDevice, "hipErrorInvalidDevice", "invalid device ordinal"},
    {hipErrorInvalidHandle, "hipErrorInvalidHandle", "invalid resource handle"},
    {hipErrorNotReady, "hipErrorNotReady", "device not ready"},
    {hipErrorLaunchFailure, "hipErrorLaunchFailure", "unspecified launch failure"},
    {hipErrorNotSupported, "hipErrorNotSupported", "operation not supported"},
    {hipErrorUnknown, "hipErrorUnknown", "unknown error"},
};

const char *hipGetErrorName(hipError_t error) {
    for (const auto &e : error_table)
        if (e.code == error) return e.name;
    return "hipErrorUnknown";
}

const char *hipGetErrorString(hipError_t error) {
    for (const auto &e : error_table)
        if (e.code == error) return e.text;
    return "unknown error";
}

} /* extern "C" */
