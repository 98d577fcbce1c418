/* The executor's tracer: the trace build's eyes (see trace.h for how it is
 * wired, common/executor/README.md "The trace build" for what it reports).
 *
 * Every load and store a kernel makes arrives here with its address and the
 * address of the instruction that made it (its call site). Three things are
 * done with it:
 *
 * - HIPCPU_PROFILE=FILE: counters. A wave's lanes run in step: each logs its
 *   accesses and, after 64 of them (or at a barrier, a wave operation or its
 *   end), waits for the rest of its wave, so the n-th access of every lane at
 *   one call site forms one wave-level request, as one instruction does on a
 *   GPU. Each request is counted (bytes, 64-byte segments, 32-byte sectors,
 *   LDS bank cycles), then dropped. Written per kernel to FILE at exit, per
 *   call site to HIPCPU_PROFILE_SITES, and how often a wave ran each source
 *   line to HIPCPU_PROFILE_LINES.
 * - HIPCPU_RACECHECK=1: checks. A shadow record per 4-byte word of device
 *   and shared memory (per byte, once an access covers part of the word)
 *   says which threads and blocks wrote it, read it or updated it
 *   atomically, and when; a race (two unordered accesses, not both plain
 *   reads or both atomics: trace_race.cpp) or a read of unwritten shared
 *   memory aborts with both call sites.
 * - HIPCPU_SANITIZE=1 (make sanitize): the race check and trace_memcheck.cpp's
 *   memory checks, every finding counted rather than fatal.
 *
 * Addresses outside device allocations and __shared__ variables (fiber stacks
 * holding a thread's local arrays, the executor's own state) are ignored. */
#include "trace_internal.h"

#include "../executor/settings.h"

#include <stdlib.h>
#include <string.h>

#include <algorithm>

extern "C" char __start_hipcpu_shared[] __attribute__((weak));
extern "C" char __stop_hipcpu_shared[] __attribute__((weak));

namespace hipcpu_trace {

TraceState tracer;

/* ---- Settings --------------------------------------------------------------- */

bool settings_read;
/* Guards numbered by the instrumented code's constructors, which may run
 * before `tracer` is constructed: a plain counter, copied into
 * tracer.guard_total with the settings, at the first launch. */
uint32_t guards_numbered;

/* ---- Every access ---------------------------------------------------------------- */

uintptr_t atomic_lo, atomic_hi; /* the atomic in progress: its own load and store are not plain */
size_t copy_bytes; /* a memcpy's whole size while copy_accesses hands on its pieces */

/* ---- The running launch's kernel ------------------------------------------------ */

/* A launch is counted under the kernel it runs, known at the first basic
 * block it enters in a kernel's code: the launch's text would name a template
 * kernel "(sgemm<MTi, KTi, NTi>)" or a kernel called through a pointer by the
 * pointer's name, neither of which the time model finds in hipcc's code. Until
 * then (a kernel compiled without the trace build's instrumentation never
 * says), the launch's text stands in. */
struct {
    const char *text;
    dim3 grid, block;
} launch;
bool kernel_unknown; /* this launch's counters have no kernel yet */
unsigned launch_concurrent; /* HIPCPU_COMPUTE_UNITS: blocks a GPU runs at once */

void count_launch_as(const char *name) {
    kernel_unknown = false;
    tracer.current_kernel = name;
    tracer.kernel = nullptr;
    for (KernelStats &k : tracer.kernels)
        if (k.name == name) tracer.kernel = &k;
    if (!tracer.kernel) {
        tracer.kernels.emplace_back();
        tracer.kernel = &tracer.kernels.back();
        *tracer.kernel = KernelStats();
        tracer.kernel->name = name;
    }
    const dim3 &grid = launch.grid, &block = launch.block;
    const uint64_t blocks = uint64_t(grid.x) * grid.y * grid.z, threads = uint64_t(block.x) * block.y * block.z;
    hipcpu_kernel_counters &c = tracer.kernel->c;
    c.launches++;
    c.blocks += blocks;
    c.threads += blocks * threads;
    c.waves += blocks * ((threads + kWave - 1) / kWave);
    sample_kernel_known();
    hipcpu_name_launch(lasting_name(tracer.current_kernel)); /* the executor's messages name it too */
}

/* Before anything is counted: the launch's text if no kernel code said which it is. */
inline void need_kernel() {
    if (kernel_unknown) count_launch_as(launch.text);
}

void need_kernel_named() { need_kernel(); }

/* An untraced block's access while an atomic is in progress (on_access has
 * left out the atomic's own load and store, which are not plain). */
[[gnu::noinline]] void light_access_any(uintptr_t addr, unsigned size, Kind kind, uintptr_t pc) {
    if (addr - tracer.shared_lo < tracer.shared_size)
        tracer.all_bytes[kShared][kind != kLoad] += size;
    else
        light_access(addr, size, kind, pc);
}

/* A traced block's access: classified, counted and checked (addresses in
 * neither shared memory nor a device allocation are ignored, except by make
 * sanitize's checks). */
[[gnu::noinline]] void traced_access(uintptr_t addr, unsigned size, Kind kind, uintptr_t pc) {
    if (tracer.sanitize_on) return sanitized_access(addr, size, kind, pc);
    Space space;
    Alloc *a;
    if (!classify(addr, &space, &a)) return;
    need_kernel();
    const SiteRef site = site_of(pc, kind, addr);
    /* A load the compiler gave no source line is one it moved, e.g. made
     * unconditional from `if (t == 0) v = tile[0]` (it keeps only thread 0's
     * value): not the program's access, so not a race. */
    if (tracer.race_on && !(kind == kLoad && site.moved)) race_check(addr, size, kind, space, a, site.index);
    if (tracer.profile_on) {
        if (a) mark_touched(a, addr, size);
        if (tracer.sampling) sample_tally(space, kind, size);
        profile_access(addr, size, kind, space, site.index);
    }
}

/* Every load and store of kernel code comes here, billions in a big grid:
 * the two most frequent cases, no launch traced and an untraced block's
 * shared access, take a few instructions and save no register, so that a
 * sampled launch's untraced blocks cost little more than an untraced run. */
[[gnu::always_inline]] inline void on_access(const void *pointer, unsigned size, Kind kind, const void *pc) {
    if (!tracer.active) return;
    const uintptr_t addr = reinterpret_cast<uintptr_t>(pointer);
    if (tracer.light_plain) {
        if (addr - tracer.shared_lo < tracer.shared_size) { /* an untraced block's shared access: only tallied */
            tracer.all_bytes[kShared][kind != kLoad] += size;
            return;
        }
        return light_access(addr, size, kind, reinterpret_cast<uintptr_t>(pc));
    }
    if (addr - atomic_lo < atomic_hi - atomic_lo) return;
    if (tracer.light) return light_access_any(addr, size, kind, reinterpret_cast<uintptr_t>(pc));
    traced_access(addr, size, kind, reinterpret_cast<uintptr_t>(pc));
}

} /* namespace hipcpu_trace */

using namespace hipcpu_trace;

/* ---- The executor's hooks ------------------------------------------------------------ */

bool trace_enabled(void) {
    if (!settings_read) {
        settings_read = true;
        tracer.guard_total = guards_numbered;
        if (const char *p = hipcpu_setting_text(hipcpu_env::HIPCPU_PROFILE); *p) {
            tracer.profile_on = true;
            tracer.profile_path = p;
            tracer.sites_path = hipcpu_setting_text(hipcpu_env::HIPCPU_PROFILE_SITES);
            tracer.lines_path = hipcpu_setting_text(hipcpu_env::HIPCPU_PROFILE_LINES);
            atexit(write_profile);
        }
        tracer.sanitize_on = hipcpu_sanitizing();
        tracer.race_on = hipcpu_setting_value(hipcpu_env::HIPCPU_RACECHECK) == 1 || tracer.sanitize_on;
        if (tracer.sanitize_on) sanitize_start();
        if (__start_hipcpu_shared && __stop_hipcpu_shared > __start_hipcpu_shared) {
            tracer.shared_lo = reinterpret_cast<uintptr_t>(__start_hipcpu_shared);
            tracer.shared_size = uintptr_t(__stop_hipcpu_shared - __start_hipcpu_shared);
        }
        if (tracer.race_on && tracer.shared_size) {
            tracer.shared_shadow.words = static_cast<Shadow *>(calloc((tracer.shared_size + 3) / 4, sizeof(Shadow)));
            tracer.shared_written = static_cast<uint32_t *>(calloc(tracer.shared_size, sizeof(uint32_t)));
            if (!tracer.shared_shadow.words || !tracer.shared_written) hipcpu_die("out of memory for the race check");
        }
        if (tracer.profile_on) tracer.site_counts.assign(size_t(kMaxThreads) * kMaxSites, 0);
        if (tracer.profile_on && !tracer.lines_path.empty() && tracer.guard_total) {
            tracer.counting_blocks = true;
            tracer.guard_pc.assign(tracer.guard_total + 1, 0);
            tracer.guard_lane_runs.assign(size_t(tracer.guard_total + 1) * kMaxThreads, 0);
            tracer.guard_wave_most.assign(tracer.guard_total + 1, 0);
            tracer.wave_phase_runs.assign(size_t(tracer.guard_total + 1) * kMaxWaves, 0);
        }
    }
    return tracer.profile_on || tracer.race_on;
}

void trace_launch_begin(const char *text, const dim3 &grid, const dim3 &block) {
    launch.text = text;
    launch.grid = grid;
    launch.block = block;
    kernel_unknown = true;
    tracer.kernel = nullptr;
    race_launch_begin();
    launch_concurrent = unsigned(hipcpu_setting_value(hipcpu_env::HIPCPU_COMPUTE_UNITS));
    launch_requests_begin(launch_concurrent);
    sample_launch_begin(uint64_t(grid.x) * grid.y * grid.z, block.x * block.y * block.z, launch_concurrent);
    tracer.atomics_by_address.clear();
    tracer.active = true;
}

void trace_launch_end(void) {
    flush_bad_index();
    need_kernel();
    end_phase();
    launch_requests_end();
    if (tracer.sampling)
        sample_launch_end(uint64_t(launch.grid.x) * launch.grid.y * launch.grid.z);
    else
        sample_full_launch();
    tracer.active = false;
    uint64_t most = 0;
    for (const auto &entry : tracer.atomics_by_address) most = std::max(most, entry.second);
    tracer.kernel->c.atomics_max_one_address = std::max(tracer.kernel->c.atomics_max_one_address, most);
}

void trace_block_begin(uint64_t id) {
    flush_bad_index();
    end_phase();
    race_block_begin(id);
    block_requests_begin();
    sample_block_begin(tracer.block_ordinal, launch_concurrent);
}

void trace_barrier(void) {
    flush_bad_index();
    need_kernel();
    next_phase();
    end_phase();
    phase_requests_begin(false);
    if (tracer.kernel) tracer.kernel->c.barriers++;
}

void trace_wave_op(unsigned, int kind) {
    need_kernel();
    if (kind <= HIPCPU_SHFL_XOR && tracer.kernel) tracer.kernel->c.shuffles++;
}

void trace_round_end(unsigned wave, unsigned first, unsigned lanes, uint64_t live, unsigned at_access) {
    /* An untraced block's lanes log nothing and open no request: nothing to do. */
    if (!tracer.profile_on || tracer.light) return;
    need_kernel();
    std::vector<Group> &groups = tracer.open_groups[wave];
    const size_t already_open = groups.size();
    for (unsigned i = 0; i < lanes; i++) {
        Lane &l = tracer.lane_state[first + i];
        /* A lane that stopped with a full log keeps its open access for the
         * next round; one that stopped at a barrier, a wave operation or its
         * end has made its last access of this phase. */
        const unsigned complete = l.stopped ? l.length - 1 : l.length;
        for (unsigned j = 0; j < complete; j++) add_to_group(wave, i, l.log[j], already_open + j);
        if (l.stopped) {
            l.log[0] = l.log[l.length - 1];
            l.length = 1;
        } else {
            l.length = 0;
        }
        l.stopped = false;
    }
    /* A request is complete when every lane that has not returned has joined
     * it; at a sync point (no lane at an access) every open request is. Then
     * the same block's re-reads, in the wave's own order of requests. */
    for (size_t i = 0; i < groups.size();) {
        if (at_access == 0 || (live & ~groups[i].joined) == 0) {
            count_request(groups[i]);
            groups[i] = groups.back();
            groups.pop_back();
        } else {
            i++;
        }
    }
    count_block_reuse();
    if (at_access == 0) {
        for (unsigned i = 0; i < lanes; i++) reset_counts(first + i);
        if (tracer.counting_blocks) end_block_counts(first, lanes);
    }
}

void trace_alloc(void *pointer, size_t bytes, size_t zone) {
    Alloc a = {};
    a.base = reinterpret_cast<uintptr_t>(pointer);
    a.end = a.base + bytes;
    a.zone = zone;
    if (zone) { /* make sanitize: initcheck's map (calloc: zero pages until written) */
        a.written = static_cast<uint8_t *>(calloc(bytes, 1));
        if (!a.written) hipcpu_die("out of memory for initcheck's map of a %zu-byte allocation", bytes);
        sanitize_start();
    }
    auto at = std::lower_bound(tracer.allocs.begin(), tracer.allocs.end(), a.base,
                               [](const Alloc &x, uintptr_t base) { return x.base < base; });
    tracer.allocs.insert(at, a);
    forget_found_allocs();
}

/* True when the tracer keeps the memory (make sanitize's quarantine): the
 * caller must not free it. */
bool trace_free(void *pointer) {
    const uintptr_t base = reinterpret_cast<uintptr_t>(pointer);
    bool kept = false;
    for (size_t i = 0; i < tracer.allocs.size(); i++)
        if (tracer.allocs[i].base == base && !tracer.allocs[i].freed) {
            Alloc &a = tracer.allocs[i];
            free(a.segments);
            free(a.shadow.words);
            a.segments = nullptr;
            a.shadow.words = nullptr;
            a.shadow.bytes.clear();
            if (a.zone) {
                kept = a.freed = true;
                free(a.written);
                a.written = nullptr;
            } else {
                tracer.allocs.erase(tracer.allocs.begin() + long(i));
            }
            break;
        }
    forget_found_allocs();
    return kept;
}

size_t trace_redzone(size_t align) { return redzone_for(align); }

void trace_host_range(const void *pointer, size_t n, bool writes, const char *call, const void *caller) {
    if (hipcpu_sanitizing()) host_range(pointer, n, writes, call, caller);
}

void trace_name(const void *pointer, const char *name) {
    if (Alloc *a = find_alloc(reinterpret_cast<uintptr_t>(pointer))) a->name = name;
}

bool hipcpu_trace_counters(const char *name, hipcpu_kernel_counters *out) {
    for (const KernelStats &k : tracer.kernels)
        if (k.name == name) {
            *out = k.c;
            return true;
        }
    return false;
}

void hipcpu_trace_reset(void) {
    tracer.kernels.clear();
    tracer.kernel = nullptr;
    for (Site &site : tracer.sites) site.stats[0] = site.stats[1] = SiteStats();
}

/* ---- Entry points from kernel code ----------------------------------------------- */

extern "C" {

void hipcpu_atomic_begin(const void *address, unsigned size) {
    if (!tracer.active) return;
    const uintptr_t addr = reinterpret_cast<uintptr_t>(address);
    atomic_lo = addr;
    atomic_hi = addr + size;
    tracer.light_plain = false;
    if (tracer.sanitize_on)
        return sanitized_access(addr, size, kAtomic, reinterpret_cast<uintptr_t>(__builtin_return_address(0)));
    Space space;
    Alloc *a;
    if (!classify(addr, &space, &a)) return;
    need_kernel();
    const uint32_t site = site_of(reinterpret_cast<uintptr_t>(__builtin_return_address(0)), kAtomic, addr).index;
    if (tracer.race_on) race_check(addr, size, kAtomic, space, a, site);
    if (tracer.profile_on) {
        if (a) mark_touched(a, addr, size);
        tracer.sites[site].stats[space].atomics++;
        tracer.kernel->c.atomics++;
        tracer.atomics_by_address[addr]++;
    }
}

void hipcpu_atomic_end(void) {
    atomic_lo = atomic_hi = 0;
    tracer.light_plain = tracer.light;
}

/* Copies the compiler keeps as a memcpy or memset (a 16-byte struct copied
 * into a local array: chapter 08's staged pixels) are no load or store to
 * -fsanitize-coverage. The trace build also compiles the chapter with
 * AddressSanitizer's instrumentation, every check turned off but this: it
 * calls these instead, and no ASan runtime is linked. Each copy is a load and
 * a store of up to 16 bytes at a time, as a GPU would issue it. */
static void copy_accesses(uintptr_t pointer, size_t n, Kind kind, const void *pc) {
    copy_bytes = n;
    for (size_t done = 0; done < n; done += kMergeLimit)
        on_access(reinterpret_cast<const void *>(pointer + done), unsigned(n - done < kMergeLimit ? n - done : kMergeLimit),
                  kind, pc);
    copy_bytes = 0;
}

void *__asan_memcpy(void *dst, const void *src, size_t n) {
    copy_accesses(reinterpret_cast<uintptr_t>(src), n, kLoad, __builtin_return_address(0));
    copy_accesses(reinterpret_cast<uintptr_t>(dst), n, kStore, __builtin_return_address(0));
    return memcpy(dst, src, n);
}

void *__asan_memmove(void *dst, const void *src, size_t n) {
    copy_accesses(reinterpret_cast<uintptr_t>(src), n, kLoad, __builtin_return_address(0));
    copy_accesses(reinterpret_cast<uintptr_t>(dst), n, kStore, __builtin_return_address(0));
    return memmove(dst, src, n);
}

void *__asan_memset(void *dst, int value, size_t n) {
    copy_accesses(reinterpret_cast<uintptr_t>(dst), n, kStore, __builtin_return_address(0));
    return memset(dst, value, n);
}

/* -fsanitize-coverage=trace-pc-guard: numbers every guard once, at start-up,
 * then calls the second at the start of each basic block. */
void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop) {
    if (start == stop || *start) return;
    for (uint32_t *g = start; g < stop; g++) *g = ++guards_numbered;
}

/* A basic block entered in a traced block (or the launch's first in a
 * kernel's code, which names the kernel). */
[[gnu::noinline]] static void block_entered(uint32_t *guard, uintptr_t pc) {
    if (kernel_unknown && in_kernel_code(pc)) { /* the launch's first block in a kernel: its entry */
        const char *name = kernel_at(pc);
        count_launch_as(name ? name : launch.text);
    }
    if (!tracer.counting_blocks || *guard > tracer.guard_total) return;
    if (tracer.light) return;
    const uint32_t g = *guard;
    const unsigned thread = hipcpu_current_linear;
    if (!tracer.guard_pc[g]) tracer.guard_pc[g] = pc;
    if (tracer.guard_lane_runs[size_t(g) * kMaxThreads + thread]++ == 0) tracer.guards_touched[thread].push_back(g);
}

/* Called at every basic block: the untraced cases return at once, saving no register. */
void __sanitizer_cov_trace_pc_guard(uint32_t *guard) {
    if (!tracer.active || (tracer.light && !kernel_unknown)) return; /* no launch traced, or an untraced block */
    block_entered(guard, reinterpret_cast<uintptr_t>(__builtin_return_address(0)));
}

/* What the instrumentation's module constructor and noreturn calls expect. */
void __asan_init(void) {}
void __asan_version_mismatch_check_v8(void) {}
void __asan_handle_no_return(void) {}

/* -fsanitize-coverage=trace-loads,trace-stores calls these before every load
 * and store of an instrumented function, with its address. */
#define HIPCPU_TRACE_CALLBACKS(bytes, T)                                                         \
    void __sanitizer_cov_load##bytes(T *address) {                                               \
        on_access(address, bytes, kLoad, __builtin_return_address(0));                           \
    }                                                                                            \
    void __sanitizer_cov_store##bytes(T *address) {                                              \
        on_access(address, bytes, kStore, __builtin_return_address(0));                          \
    }
HIPCPU_TRACE_CALLBACKS(1, uint8_t)
HIPCPU_TRACE_CALLBACKS(2, uint16_t)
HIPCPU_TRACE_CALLBACKS(4, uint32_t)
HIPCPU_TRACE_CALLBACKS(8, uint64_t)
HIPCPU_TRACE_CALLBACKS(16, __int128)
#undef HIPCPU_TRACE_CALLBACKS

} /* extern "C" */
