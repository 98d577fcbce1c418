/* The scheduler: a block's waves run round by round (fibers.cpp runs a
 * round), through their wave operations and the block's barriers, in order
 * or in a random order; the launch runs its blocks one after another. Also
 * the state the kernels read (threadIdx, blockIdx, ...) and their shared
 * memory. executor_internal.h: the parts. */
#include "executor_internal.h"

#include <errno.h> /* program_invocation_short_name */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mutex>
#include <vector>

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
 * static __shared__ variables leave of it. */
extern "C" {
__attribute__((section("hipcpu_shared"), aligned(256))) unsigned char hipcpu_dynamic_shared[hipcpu_limits::kLdsBytes];
}

namespace hipcpu_exec {

using namespace hipcpu_limits;

Executor ex; /* not static: executor_internal.h says why */

size_t static_shared_bytes() {
    return size_t(__stop_hipcpu_shared - __start_hipcpu_shared) - kLdsBytes;
}
static size_t dynamic_shared_bytes; /* this launch's */

static std::mutex launch_mutex;         /* one launch at a time in the process */
static thread_local bool in_launch;     /* catches launches from inside a kernel */

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
    case HIPCPU_WAVE_SYNC: return "__syncwarp";
    }
    return "a wave operation";
}

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
        hipcpu_die_in_block("%s reached by %u of %u lanes of wave %u; thread (%u,%u,%u) %s", op_name(op->op_kind),
                            wave.at_op, wave.lanes, wave_id, D3(other->view.index),
                            other->state == kDone ? "returned without reaching it"
                                                  : "is waiting at __syncthreads instead");
    }
    hipcpu_hooks::wave_op(wave_id, op->op_kind);
    for (unsigned i = 0; i < wave.lanes; i++) {
        if (lanes[i].op_kind != op->op_kind || lanes[i].op_width != op->op_width)
            hipcpu_die_in_block("lanes of wave %u reached different wave operations: thread (%u,%u,%u) called %s "
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
    if (ex.trapped) return false;
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

/* make sanitize: every thread of the block waits at the same __syncthreads.
 * A GPU's barrier counts arrivals, not places, so threads at two different
 * ones pass each other's: undefined in CUDA and HIP alike. */
static void check_one_barrier() {
    const Fiber &first = ex.fibers[0];
    for (unsigned i = 1; i < ex.nthreads; i++) {
        const Fiber &f = ex.fibers[i];
        if (f.barrier_line == first.barrier_line && f.barrier_file == first.barrier_file) continue;
        if (hipcpu_finding_counted(HIPCPU_SYNCCHECK)) return;
        auto base = [](const char *path) {
            const char *slash = path ? strrchr(path, '/') : nullptr;
            return slash ? slash + 1 : path ? path : "a __syncthreads without a line";
        };
        hipcpu_finding(HIPCPU_SYNCCHECK, true,
                       "divergent barrier: thread (%u,%u,%u) waits at __syncthreads at %s:%d and thread (%u,%u,%u) at "
                       "%s:%d (a GPU counts arrivals, not places: each passes the other's barrier)",
                       D3(first.view.index), base(first.barrier_file), first.barrier_line, D3(f.view.index),
                       base(f.barrier_file), f.barrier_line);
        return;
    }
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
            for (unsigned w = 0; w < ex.nwaves && !ex.trapped; w++)
                while (step_wave(ex.waves[w])) {
                }
        } else {
            unsigned active[kMaxWaves], n = ex.nwaves;
            for (unsigned w = 0; w < n; w++) active[w] = w;
            while (n > 0 && !ex.trapped) {
                unsigned k = unsigned(random_below(n));
                if (!step_wave(ex.waves[active[k]])) active[k] = active[--n];
            }
        }
        /* Every thread is now at the barrier or done, or a thread's assert failed. */
        if (ex.at_barrier == 0 || ex.trapped) return;
        if (ex.at_barrier < ex.nthreads) {
            unsigned i = 0, waiting = 0;
            while (ex.fibers[i].state != kDone) i++;
            while (ex.fibers[waiting].state != kAtBarrier) waiting++;
            const Fiber &at = ex.fibers[waiting];
            const char *file = at.barrier_file ? strrchr(at.barrier_file, '/') : nullptr;
            file = file ? file + 1 : at.barrier_file;
            char where[512] = "";
            if (file) snprintf(where, sizeof where, " at %s:%d", file, at.barrier_line);
            hipcpu_finding(HIPCPU_SYNCCHECK, true,
                           "__syncthreads%s reached by %u of %u threads; thread (%u,%u,%u) returned without "
                           "reaching it", where, ex.at_barrier, ex.nthreads, D3(ex.fibers[i].view.index));
        } else if (hipcpu_sanitizing()) {
            check_one_barrier();
        }
        for (unsigned i = 0; i < ex.nthreads; i++) ex.fibers[i].state = kReady;
        ex.at_barrier = 0;
        hipcpu_hooks::barrier();
    }
}

} /* namespace hipcpu_exec */

using namespace hipcpu_exec;

size_t hipcpu_dynamic_shared_bytes(void) { return dynamic_shared_bytes; }

/* ---- Device-side entry points ----------------------------------------------- */

extern "C" void hipcpu_syncthreads_at(const char *file, int line) {
    if (!ex.current) hipcpu_die("__syncthreads called outside a kernel");
    ex.current->barrier_file = file;
    ex.current->barrier_line = line;
    suspend(ex.current, kAtBarrier);
}

extern "C" void (__syncthreads)(void) {
    if (!ex.current) hipcpu_die("__syncthreads called outside a kernel");
    ex.current->barrier_file = nullptr;
    suspend(ex.current, kAtBarrier);
}

extern "C" uint64_t hipcpu_wave_op(uint64_t value, int kind, int arg, int width) {
    Fiber *t = ex.current;
    if (!t) hipcpu_die("%s called outside a kernel", op_name(kind));
    if (width < 1 || width > int(kWave) || (width & (width - 1)) != 0)
        hipcpu_die_in_block("thread (%u,%u,%u) called %s with width %d; the width must be a power of two from 1 "
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
                hipcpu_die_in_block("wave %u: a value the kernel declares uniform (the same in every lane) is %d "
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
        hipcpu_die_in_block("thread (%u,%u,%u) %s reads lane %lld of wave %u, which does not exist: the block's "
                            "last wave has only %u lanes", D3(t->view.index), op_name(kind), src, t->wave,
                            wave.lanes);
    return slot[src];
}

/* ---- Launch ----------------------------------------------------------------- */

namespace hipcpu_exec {

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

/* A long launch's progress on stderr, a line rewritten once a second: blocks done of all and the
 * time left at the rate so far (HIPCPU_PROGRESS: on, from the first second; auto, when stderr is
 * a terminal, from the fifth, so that a chapter's launches of a second or two stay quiet). A grid
 * that would run for an hour says so within seconds, instead of seeming to hang. */
struct Progress {
    bool shown = false, wanted = false;
    long long start_ns = 0, next_ns = 0;
};

static long long monotonic_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void progress_begin(Progress *p) {
    const unsigned long long mode = hipcpu_setting_value(hipcpu_env::HIPCPU_PROGRESS); /* auto, on, off */
    p->wanted = mode == 1 || (mode == 0 && isatty(2));
    p->start_ns = monotonic_ns();
    p->next_ns = p->start_ns + (mode == 1 ? 1 : 5) * 1000000000LL;
}

static void progress_step(Progress *p, uint64_t done, uint64_t all) {
    if (!p->wanted || (done & 63) != 0) return; /* the clock every 64 blocks */
    const long long now = monotonic_ns();
    if (now < p->next_ns) return;
    p->next_ns = now + 1000000000LL;
    const double seconds = double(now - p->start_ns) * 1e-9, left = seconds * double(all - done) / double(done ? done : 1);
    fprintf(stderr, "\rhipcpu: kernel '%s': %llu of %llu blocks (%.1f%%), about %.0f s left ", ex.kernel,
            (unsigned long long)done, (unsigned long long)all, 100.0 * double(done) / double(all), left);
    fflush(stderr);
    p->shown = true;
}

static void progress_end(const Progress *p) {
    if (p->shown) fprintf(stderr, "\n");
}

static uint64_t gcd(uint64_t a, uint64_t b) {
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

} /* namespace hipcpu_exec */

extern "C" hipError_t hipcpu_launch(const char *kernel_name, dim3 grid, dim3 block, size_t shared_bytes,
                                    hipStream_t, void (*invoke)(void *), void *body) {
    const uint64_t nthreads = uint64_t(block.x) * block.y * block.z;
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || nthreads == 0 || nthreads > kMaxThreads ||
        block.z > kMaxBlockDimZ || grid.x > kMaxGridDimX || grid.y > kMaxGridDimY || grid.z > kMaxGridDimZ)
        return record(hipErrorInvalidConfiguration);
    if (shared_bytes > kLdsBytes - static_shared_bytes()) return record(hipErrorInvalidValue); /* more than the LDS */
    if (in_launch) hipcpu_die("kernel '%s' launched from inside a kernel: not supported", kernel_name);
    if (sticky_error() != hipSuccess) return sticky_error(); /* a GPU after a failed assert runs nothing more */

    std::lock_guard<std::mutex> lock(launch_mutex);
    in_launch = true;
    read_schedule();
    install_overflow_handler();
    refuse_trace_settings();
    watchdog_arm();
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
    Progress progress;
    progress_begin(&progress);
    for (uint64_t b = 0; b < nblocks; b++) {
        progress_step(&progress, b, nblocks);
        const uint64_t id = !permutation.empty() ? permutation[b] : (a * b + c) % nblocks;
        hipcpu_block_idx = dim3(uint32_t(id % grid.x), uint32_t(id / grid.x % grid.y),
                                uint32_t(id / grid.x / grid.y));
        hipcpu_hooks::block_begin(id);
        run_block();
        if (ex.trapped) break;
    }
    progress_end(&progress);
    watchdog_disarm();
    hipcpu_hooks::launch_end();
    in_launch = false;
    if (ex.trapped) set_sticky_error(hipErrorAssert);
    return hipSuccess; /* a GPU reports the assert at the next synchronising call */
}

/* A kernel's assert (glibc's assert() calls __assert_fail): CUDA's and HIP's
 * message, naming the block and the thread; then the launch stops, and from
 * then on every synchronising call returns hipErrorAssert (cudaErrorAssert),
 * as on a GPU. A GPU prints every thread whose assert failed; this prints the
 * first, and stops. Outside a kernel: glibc's message and abort(). */
extern "C" void __assert_fail(const char *assertion, const char *file, unsigned int line,
                              const char *function) noexcept {
    Fiber *t = ex.current;
    if (!t || !in_launch) {
        fprintf(stderr, "%s: %s:%u: %s%sAssertion `%s' failed.\n", program_invocation_short_name, file, line,
                function ? function : "", function ? ": " : "", assertion);
        abort();
    }
    fflush(stdout); /* the kernel's printf first, as a GPU flushes them at the sync */
    fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file, line,
            function ? function : ex.kernel, D3(hipcpu_block_idx), D3(t->view.index), assertion);
    abandon_block(t);
}
