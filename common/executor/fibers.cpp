/* Fibers: their contexts, their stacks (with a guard below each), and the
 * switches between them that run a round of a wave's lanes, which the
 * scheduler (scheduler.cpp) builds. executor_internal.h: the parts. */
#include "executor_internal.h"

#include <errno.h>
#include <execinfo.h>
#include <atomic>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

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

/* The program's path and load address, read at the first launch: addr2line (the binutils a
 * build needs) turns an instruction into its source line for a fault's message, from the signal
 * handler (fork, exec, read and waitpid are what a handler may call). */
static char program_path[PATH_MAX];
static uintptr_t program_bias;

static int first_object(struct dl_phdr_info *info, size_t, void *bias) {
    *static_cast<uintptr_t *>(bias) = info->dlpi_addr;
    return 1; /* the main program is the first */
}

/* "file.hip:12": the innermost frame of pc, then of the stack it was called from, outside the
 * executor, its tracer, its HIP header and the system's headers (the trace build spends most of
 * its time in the tracer's code, called at each access), the file without its folders; "" when addr2line is
 * missing or knows no line. */
void source_line_of(uintptr_t pc, char *out, size_t size) {
    out[0] = '\0';
    if (!program_path[0]) {
        ssize_t n = readlink("/proc/self/exe", program_path, sizeof program_path - 1);
        program_path[n > 0 ? n : 0] = '\0';
        dl_iterate_phdr(first_object, &program_bias);
    }
    int fds[2];
    if (!pc || !program_path[0] || pipe(fds) != 0) return;
    enum { kFrames = 24 };
    void *frames[kFrames];
    const int nframes = backtrace(frames, kFrames); /* the handler's own frames come first: filtered below */
    char addresses[kFrames + 1][32];
    const char *argv[kFrames + 6] = {"addr2line", "-i", "-e", program_path};
    int argc = 4;
    snprintf(addresses[0], sizeof addresses[0], "0x%lx", (unsigned long)(pc - program_bias));
    argv[argc++] = addresses[0];
    for (int i = 0; i < nframes; i++) { /* return addresses: one byte back is inside the call */
        snprintf(addresses[i + 1], sizeof addresses[i + 1], "0x%lx",
                 (unsigned long)(uintptr_t(frames[i]) - 1 - program_bias));
        argv[argc++] = addresses[i + 1];
    }
    argv[argc] = nullptr;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 2);
        close(fds[0]);
        execvp("addr2line", const_cast<char *const *>(argv));
        _exit(127);
    }
    close(fds[1]);
    char text[16384];
    size_t length = 0;
    ssize_t n;
    while (pid > 0 && length < sizeof text - 1 && (n = read(fds[0], text + length, sizeof text - 1 - length)) > 0)
        length += size_t(n);
    close(fds[0]);
    if (pid > 0) waitpid(pid, nullptr, 0);
    text[length] = '\0';
    for (char *line = text; *line;) { /* one frame a line, innermost first */
        char *end = strchr(line, '\n');
        if (end) *end = '\0';
        char *cut = strstr(line, " (discriminator");
        if (cut) *cut = '\0';
        if (!strstr(line, "hip/hip_runtime.h") && !strstr(line, "common/executor/") && !strstr(line, "common/tracer/") &&
            strncmp(line, "/usr/", 5) != 0 /* the C++ library's headers, inlined into the tracer's code */ &&
            line[0] != '?' && !strstr(line, ":?") && !strstr(line, ":0")) {
            const char *base = strrchr(line, '/');
            snprintf(out, size, "%s", base ? base + 1 : line);
            return;
        }
        if (!end) break;
        line = end + 1;
    }
}

/* The instruction a signal interrupted. */
static uintptr_t fault_pc(void *context) {
    const ucontext_t *uc = static_cast<const ucontext_t *>(context);
#if defined(__x86_64__)
    return uintptr_t(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    return uintptr_t(uc->uc_mcontext.pc);
#else
    (void)uc;
    return 0;
#endif
}

/* The watchdog: SIGALRM every second of a launch. A lane that reaches a barrier, a wave
 * operation or its end makes progress (the trace build's stops at every access do not); a launch
 * with none for HIPCPU_WATCHDOG_S seconds is a kernel that never ends, stopped with where its
 * running thread was. */
static std::atomic<unsigned> lanes_progressed; /* lock-free: the handler may read it */
static unsigned progress_seen;
static volatile sig_atomic_t watchdog_seconds, watchdog_limit;
static struct sigaction previous_alarm;

static void on_alarm(int, siginfo_t *, void *context) {
    const unsigned ended = lanes_progressed.load(std::memory_order_relaxed);
    if (ended != progress_seen) {
        progress_seen = ended;
        watchdog_seconds = 0;
        return;
    }
    if (++watchdog_seconds < watchdog_limit || !ex.current) return;
    char line[512];
    source_line_of(fault_pc(context), line, sizeof line);
    die_in_signal_handler("no thread reached a barrier, a wave operation or its end in %d s (HIPCPU_WATCHDOG_S); thread (%u,%u,%u) was "
                          "running%s%s: a loop that never ends?", int(watchdog_limit), D3(ex.current->view.index),
                          line[0] ? " at " : "", line);
}

void watchdog_arm() {
    watchdog_limit = sig_atomic_t(hipcpu_setting_value(hipcpu_env::HIPCPU_WATCHDOG_S));
    if (watchdog_limit == 0) return;
    watchdog_seconds = 0;
    progress_seen = lanes_progressed.load(std::memory_order_relaxed);
    struct sigaction mine = {};
    mine.sa_sigaction = on_alarm;
    mine.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&mine.sa_mask);
    sigaction(SIGALRM, &mine, &previous_alarm);
    struct itimerval every_second = {{1, 0}, {1, 0}};
    setitimer(ITIMER_REAL, &every_second, nullptr);
}

void watchdog_disarm() {
    if (watchdog_limit == 0) return;
    struct itimerval off = {};
    setitimer(ITIMER_REAL, &off, nullptr);
    sigaction(SIGALRM, &previous_alarm, nullptr);
}

#if !HIPCPU_ASAN
/* A fault in a kernel gets a message naming the kernel, block and thread instead of a bare
 * "Segmentation fault" or "Floating point exception": a stack overflow (a fault in a guard
 * region), a load or store no mapping holds, a division by zero, a bus error, an illegal
 * instruction. A fault outside a kernel goes to the previous handler. Not installed under
 * ASan, which reports these itself. */
static const int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
static struct sigaction previous_action[sizeof kFaultSignals / sizeof kFaultSignals[0]];

static const char *fault_name(int signal_number, int code) {
    switch (signal_number) {
    case SIGFPE:
        return code == FPE_INTDIV ? "an integer division by zero (SIGFPE)"
               : code == FPE_INTOVF ? "an integer division that overflows, INT_MIN / -1 (SIGFPE)"
                                    : "an arithmetic fault (SIGFPE)";
    case SIGBUS: return "a bus error, an access the memory cannot serve (SIGBUS)";
    case SIGILL: return "an illegal instruction (SIGILL)";
    default: return "a load or store at an address no allocation holds (SIGSEGV)";
    }
}

static void on_fault(int signal_number, siginfo_t *info, void *context) {
    const char *addr = static_cast<const char *>(info->si_addr);
    if (signal_number == SIGSEGV)
        for (unsigned i = 0; i < ex.nworkers; i++) {
            const Worker &w = ex.workers[i];
            if (addr >= w.guard && addr < w.stack && ex.current)
                die_in_signal_handler("thread (%u,%u,%u) overflowed its %zu KiB fiber stack (set HIPCPU_STACK_KB "
                                      "to enlarge it)", D3(ex.current->view.index), w.stack_size / 1024);
        }
    if (ex.current) {
        char line[512];
        source_line_of(fault_pc(context), line, sizeof line);
        if (signal_number == SIGSEGV || signal_number == SIGBUS)
            die_in_signal_handler("thread (%u,%u,%u) stopped on %s%s%s, address %p", D3(ex.current->view.index),
                                  fault_name(signal_number, info->si_code), line[0] ? " at " : "", line, info->si_addr);
        die_in_signal_handler("thread (%u,%u,%u) stopped on %s%s%s", D3(ex.current->view.index),
                              fault_name(signal_number, info->si_code), line[0] ? " at " : "", line);
    }
    for (size_t i = 0; i < sizeof kFaultSignals / sizeof kFaultSignals[0]; i++)
        if (kFaultSignals[i] == signal_number) sigaction(signal_number, &previous_action[i], nullptr);
    /* the fault repeats and goes there */
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
    char unused[8];
    source_line_of(0, unused, sizeof unused); /* reads the program's path now, outside any handler */
    struct sigaction mine = {};
    mine.sa_sigaction = on_fault;
    mine.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&mine.sa_mask);
    for (size_t i = 0; i < sizeof kFaultSignals / sizeof kFaultSignals[0]; i++)
        sigaction(kFaultSignals[i], &mine, &previous_action[i]);
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
            lanes_progressed.fetch_add(1, std::memory_order_relaxed);
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
    if (s != kAtAccess) lanes_progressed.fetch_add(1, std::memory_order_relaxed);
    if (s == kAtBarrier)
        ex.at_barrier++;
    else if (s == kAtWaveOp)
        ex.waves[t->wave].at_op++;
    switch_worker(t->worker, next_in_round());
}

/* Called on the fiber: back to the scheduler at once, never to resume. Its
 * worker, and those of the block's suspended fibers, are left as they are:
 * no launch runs after a trap (sticky_error). */
void abandon_block(Fiber *t) {
    t->state = kDone;
    ex.trapped = true;
    Worker *w = t->worker;
    t->worker = nullptr;
    switch_worker(w, nullptr);
    __builtin_unreachable();
}

} /* namespace hipcpu_exec */

using hipcpu_exec::ex;

/* The trace build's tracer: a lane stops at a memory access (trace.h). */
void hipcpu_suspend_at_access(void) { hipcpu_exec::suspend(ex.current, hipcpu_exec::kAtAccess); }

/* The tracer's name for the running kernel, from its code (trace.h). */
void hipcpu_name_launch(const char *name) { ex.kernel = name; }
