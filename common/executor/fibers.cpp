/* Fibers: their contexts, their stacks (with a guard below each), and the
 * switches between them that run a round of a wave's lanes, which the
 * scheduler (scheduler.cpp) builds. executor_internal.h: the parts. */
#include "executor_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#if HIPCPU_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#if HIPCPU_ASM_SWITCH /* fiber_x86_64.S, fiber_aarch64.S */
extern "C" void hipcpu_switch(void **save, void *target);
extern "C" void hipcpu_fiber_start(void);
#endif

namespace hipcpu_exec {

/* Fiber stacks: ASan's redzones make frames several times larger. */
static constexpr size_t kDefaultStackBytes = (HIPCPU_ASAN ? 256 : 64) * 1024;
/* An inaccessible region below each stack, large enough that a kernel with a
 * big local array cannot jump over it into a neighbour's stack. */
static constexpr size_t kGuardBytes = 64 * 1024;

/* ---- Contexts --------------------------------------------------------------- */

#if HIPCPU_ASM_SWITCH
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

#else /* the portable fallback */
/* makecontext passes int arguments only: pointers travel as two halves. */
static void context_entry(unsigned fn_hi, unsigned fn_lo, unsigned arg_hi, unsigned arg_lo) {
    auto join = [](unsigned hi, unsigned lo) {
        return static_cast<uintptr_t>((static_cast<uint64_t>(hi) << 32) | lo);
    };
    auto fn = reinterpret_cast<void (*)(void *)>(join(fn_hi, fn_lo));
    fn(reinterpret_cast<void *>(join(arg_hi, arg_lo)));
    hipcpu_die("internal error: a fiber's entry function returned");
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

/* ---- Stacks ----------------------------------------------------------------- */

static void worker_main(void *arg);

static Worker *new_worker() {
    if (ex.stack_size == 0) {
        ex.stack_size = kDefaultStackBytes;
        const unsigned long long kb = hipcpu_setting_value(hipcpu_env::HIPCPU_STACK_KB); /* 0: unset */
        if (kb) ex.stack_size = size_t(kb) * 1024;
    }
    if (ex.nworkers == kMaxThreads) hipcpu_die("internal error: out of fiber stacks");
    char *base = static_cast<char *>(mmap(nullptr, kGuardBytes + ex.stack_size, PROT_READ | PROT_WRITE,
                                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (base == MAP_FAILED || mprotect(base, kGuardBytes, PROT_NONE) != 0)
        hipcpu_die("cannot map a %zu KiB fiber stack: %s", ex.stack_size / 1024, strerror(errno));
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

static void on_segv(int, siginfo_t *info, void *) {
    const char *addr = static_cast<const char *>(info->si_addr);
    for (unsigned i = 0; i < ex.nworkers; i++) {
        const Worker &w = ex.workers[i];
        if (addr >= w.guard && addr < w.stack && ex.current)
            die_in_signal_handler("thread (%u,%u,%u) overflowed its %zu KiB fiber stack (set HIPCPU_STACK_KB "
                                  "to enlarge it)", D3(ex.current->view.index), w.stack_size / 1024);
    }
    sigaction(SIGSEGV, &previous_segv, nullptr); /* the fault repeats and goes there */
}

void install_overflow_handler() {
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
void install_overflow_handler() {}
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

/* The scheduler's side of a round: it starts the first fiber, and is back
 * when the last has suspended or returned. */
void run_round() {
    if (Worker *w = next_in_round()) enter_worker(w);
    set_current(nullptr);
}

/* Called on the fiber: wait in state s until it is resumed. The counts
 * spare the scheduler a scan of every thread after every round. */
void suspend(Fiber *t, State s) {
    t->state = s;
    if (s == kAtBarrier)
        ex.at_barrier++;
    else if (s == kAtWaveOp)
        ex.waves[t->wave].at_op++;
    switch_worker(t->worker, next_in_round());
}

} /* namespace hipcpu_exec */

using hipcpu_exec::ex;

/* The trace build's tracer: a lane stops at a memory access (trace.h). */
void hipcpu_suspend_at_access(void) { hipcpu_exec::suspend(ex.current, hipcpu_exec::kAtAccess); }

/* The tracer's name for the running kernel, from its code (trace.h). */
void hipcpu_name_launch(const char *name) { ex.kernel = name; }
