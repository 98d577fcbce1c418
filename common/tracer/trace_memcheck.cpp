/* make sanitize's memory checks (HIPCPU_SANITIZE=1): memcheck and initcheck,
 * as compute-sanitizer's tools of those names do them on a GPU. The race
 * check (trace_race.cpp) runs beside them.
 *
 * - Out of bounds, global: hipMalloc puts a 64 KiB red zone on each side of
 *   the allocation (runtime_api.cpp); an access that lands in one, or that
 *   starts inside the allocation and runs past its end, is reported with the
 *   buffer's name and the offset.
 * - Out of bounds, shared: an access in the __shared__ section outside every
 *   variable, or past the launch's dynamic shared bytes.
 * - Out of bounds, any array of known size (local, shared, global): the
 *   checked build compiles the kernel with -fsanitize=array-bounds, whose
 *   failure handler is here; the access that follows it says which memory
 *   the array is in. An index past a thread's own array ends the run
 *   there: a store would overwrite the thread's stack. clang's check lets `a[i]++`
 *   reach a[size], one past the end (it treats the operand as an address).
 * - Misaligned: an access of 2, 4, 8 or 16 bytes at an address that is not
 *   a multiple of its size, on which a GPU faults (a float4 off a multiple
 *   of 16). A struct the compiler copies with memcpy counts when the copy is
 *   8 or 16 bytes, a vector's size: a learner's struct of four floats,
 *   copied whole from an address 4 bytes off, would be reported too.
 * - Use after free: hipFree keeps the memory (never reused), so an access to
 *   it names the freed buffer.
 * - initcheck: a byte per byte of each hipMalloc allocation says whether a
 *   copy, a fill or a kernel has written it; a kernel's read of a byte that
 *   nothing wrote is reported.
 * - Leaks: allocations never freed are listed at exit, as a warning.
 * trace_internal.h: the parts; common/executor/README.md, "make sanitize". */
#include "trace_internal.h"

#include <stdlib.h>
#include <string.h>

#include <algorithm>

namespace hipcpu_trace {

/* ---- Red zones and quarantine --------------------------------------------------- */

/* 64 KiB: a learner's kernel that overruns by a row of a 128 x 128 float
 * matrix (512 bytes) or a block's worth of elements still lands in it. */
constexpr size_t kRedZone = 64 << 10;

size_t redzone_for(size_t align) { return hipcpu_sanitizing() ? std::max(kRedZone, align) : 0; }

/* The allocation's name, for messages. */
static std::string buffer_label(const Alloc *a) {
    char text[512];
    snprintf(text, sizeof text, "device buffer '%s' (%lu bytes, from hipMalloc)",
             a->name.empty() ? "unnamed" : a->name.c_str(), (unsigned long)(a->end - a->base));
    return text;
}

static bool misaligned(uintptr_t addr, unsigned size) {
    const unsigned unit = copy_bytes ? (copy_bytes == 8 || copy_bytes == 16 ? copy_bytes : 0) : size;
    return unit > 1 && (unit & (unit - 1)) == 0 && unit <= 16 && (addr & (unit - 1)) != 0;
}

static const char *access_word(Kind kind) {
    return kind == kStore ? "wrote" : kind == kAtomic ? "updated atomically" : "read";
}

/* "thread (3,0,0) read 4 bytes at add.hip:12" */
static std::string who(Kind kind, unsigned size, uint32_t site) {
    char text[512];
    snprintf(text, sizeof text, "%s %s %u byte%s at %s", thread_name(hipcpu_current_linear + 1).c_str(),
             access_word(kind), size, size == 1 ? "" : "s", where(site).c_str());
    return text;
}

/* ---- __shared__: which variable each byte of the section belongs to -------------- */

static std::vector<uint16_t> shared_owner; /* per byte: 1 + index into shared_vars, 0: none */
static std::vector<SharedVariable> shared_vars;
static uint16_t dynamic_owner;             /* hipcpu_dynamic_shared's index + 1 */

static void map_shared_section() {
    shared_owner.assign(tracer.shared_size, 0);
    shared_vars = shared_variables();
    for (size_t i = 0; i < shared_vars.size() && i < 65535; i++) {
        const SharedVariable &v = shared_vars[i];
        if (v.offset >= tracer.shared_size) continue;
        const uintptr_t end = std::min<uintptr_t>(v.offset + v.size, tracer.shared_size);
        for (uintptr_t b = v.offset; b < end; b++) shared_owner[b] = uint16_t(i + 1);
        if (v.dynamic) dynamic_owner = uint16_t(i + 1);
    }
}

/* ---- Out-of-bounds indexes, from -fsanitize=array-bounds ------------------------- */

/* clang's UBSan handler data (compiler-rt's ubsan_handlers.h and ubsan_value.h): a
 * stable ABI, read here so that no UBSan runtime is linked. */
struct UbsanLocation {
    const char *file;
    uint32_t line, column;
};
struct UbsanType {
    uint16_t kind, info; /* kind 0: integer; info: log2(bits) << 1 | signed */
    char name[1];
};
struct UbsanOutOfBounds {
    UbsanLocation location;
    const UbsanType *array_type, *index_type;
};

/* An index past its array, waiting for the access it feeds, which says
 * where the array lives. */
static struct {
    bool waiting;
    unsigned thread;
    const char *file;
    uint32_t line;
    const char *type;
    long long index;
} bad_index;

static long long index_value(const UbsanType *type, uintptr_t handle) {
    const unsigned bits = 1u << (type->info >> 1);
    if (bits > 64) return (long long)handle;
    const uint64_t value = bits == 64 ? handle : handle & ((uint64_t(1) << bits) - 1);
    if ((type->info & 1) && bits < 64 && (value >> (bits - 1)) & 1) return (long long)(value | ~((uint64_t(1) << bits) - 1));
    return (long long)value;
}


/* The waiting index, reported: `space` the memory its access went to, or
 * null when no access followed it in this thread. */
static void report_bad_index(const char *space) {
    bad_index.waiting = false;
    if (hipcpu_finding_counted(HIPCPU_MEMCHECK)) return;
    hipcpu_finding(HIPCPU_MEMCHECK, true, "out of bounds%s%s: %s indexes an array of type %s with %lld at %s:%u",
                   space ? ", " : "", space ? space : "", thread_name(bad_index.thread + 1).c_str(), bad_index.type,
                   bad_index.index, bad_index.file, bad_index.line);
}

void flush_bad_index() {
    if (bad_index.waiting) report_bad_index(nullptr);
}

/* ---- Every access of a sanitized run -------------------------------------------- */

/* Bytes [lo, hi) of a's initcheck map: any not written? */
static bool unwritten(const Alloc *a, uintptr_t lo, uintptr_t hi) {
    for (uintptr_t b = lo; b < hi; b++)
        if (!a->written[b]) return true;
    return false;
}

/* An address in no allocation and outside the shared section: a red zone, a
 * thread's stack (its local arrays) or the executor's own state. */
static void outside_access(uintptr_t addr, unsigned size, Kind kind, uintptr_t pc) {
    const Alloc *below = nullptr, *above = nullptr;
    nearest_allocs(addr, &below, &above);
    const bool past = below && below->zone && addr - below->end < below->zone;
    const bool before = !past && above && above->zone && above->base - addr <= above->zone;
    if (!past && !before) return;
    if (hipcpu_finding_counted(HIPCPU_MEMCHECK)) return;
    const SiteRef site = site_of(pc, kind, addr);
    hipcpu_finding(HIPCPU_MEMCHECK, true, "out of bounds, global: %s, %lu bytes %s %s",
                   who(kind, size, site.index).c_str(),
                   past ? (unsigned long)(addr - below->end) : (unsigned long)(above->base - addr),
                   past ? "past the end of" : "before the start of", buffer_label(past ? below : above).c_str());
}

static void report_misaligned(uintptr_t addr, unsigned size, Kind kind, uint32_t site, const std::string &what) {
    if (hipcpu_finding_counted(HIPCPU_MEMCHECK)) return;
    const unsigned unit = copy_bytes ? unsigned(copy_bytes) : size;
    hipcpu_finding(HIPCPU_MEMCHECK, true,
                   "misaligned access: %s, at address 0x%lx in %s, which is not a multiple of %u (a GPU faults)",
                   who(kind, unit, site).c_str(), (unsigned long)addr, what.c_str(), unit);
}

/* A traced block's access under HIPCPU_SANITIZE: memcheck, initcheck, then
 * the race check. */
void sanitized_access(uintptr_t addr, unsigned size, Kind kind, uintptr_t pc) {
    Space space;
    Alloc *a;
    const bool known = classify(addr, &space, &a);
    if (bad_index.waiting) {
        if (bad_index.thread != hipcpu_current_linear) {
            report_bad_index(nullptr);
        } else {
            report_bad_index(!known ? "local (the thread's own array)" : space == kShared ? "shared" : "global");
            if (!known) {
                fprintf(stderr, "hipcpu: sanitize: the run stops here: a thread's array lies on its stack in the "
                                "executor, which the next store past it would overwrite\n");
                hipcpu_findings_end();
            }
        }
        return;
    }
    if (!known) return outside_access(addr, size, kind, pc);
    need_kernel_named();
    const SiteRef site = site_of(pc, kind, addr);
    /* A load the compiler moved (no source line: see traced_access) is not the program's. */
    if (kind == kLoad && site.moved) return;
    if (space == kGlobal) {
        if (a->freed) {
            if (hipcpu_finding_counted(HIPCPU_MEMCHECK)) return;
            return hipcpu_finding(HIPCPU_MEMCHECK, true, "use after free: %s, byte %lu of %s, freed by hipFree before this launch",
                                  who(kind, size, site.index).c_str(), (unsigned long)(addr - a->base),
                                  buffer_label(a).c_str());
        }
        if (addr + size > a->end) {
            if (hipcpu_finding_counted(HIPCPU_MEMCHECK)) return;
            return hipcpu_finding(HIPCPU_MEMCHECK, true, "out of bounds, global: %s, bytes %lu to %lu of %s",
                                  who(kind, size, site.index).c_str(), (unsigned long)(addr - a->base),
                                  (unsigned long)(addr + size - 1 - a->base), buffer_label(a).c_str());
        }
        if (misaligned(addr, size)) return report_misaligned(addr, size, kind, site.index, describe_global(addr));
        if (a->written) {
            const uintptr_t lo = addr - a->base;
            if (kind != kStore && unwritten(a, lo, lo + size) && !hipcpu_finding_counted(HIPCPU_INITCHECK))
                hipcpu_finding(HIPCPU_INITCHECK, true,
                               "uninitialised read of global memory: %s, byte %lu of %s, which no copy, fill or "
                               "kernel has written (a GPU would hand back garbage)",
                               who(kind, size, site.index).c_str(), (unsigned long)lo, buffer_label(a).c_str());
            if (kind != kLoad) memset(a->written + lo, 1, size);
        }
    } else {
        if (shared_owner.size() != tracer.shared_size) map_shared_section();
        const uintptr_t lo = addr - tracer.shared_lo;
        const uintptr_t hi = std::min<uintptr_t>(lo + size, tracer.shared_size);
        const uint16_t owner = shared_owner[lo];
        bool outside = owner == 0 || hi < lo + size;
        for (uintptr_t b = lo + 1; b < hi && !outside; b++) outside = shared_owner[b] != owner;
        if (!outside && owner == dynamic_owner && lo + size - shared_vars[owner - 1].offset > hipcpu_dynamic_shared_bytes()) {
            if (hipcpu_finding_counted(HIPCPU_MEMCHECK)) return;
            return hipcpu_finding(HIPCPU_MEMCHECK, true,
                                  "out of bounds, shared: %s, byte %lu of the dynamic shared memory, of which the "
                                  "launch asked for %zu bytes",
                                  who(kind, size, site.index).c_str(),
                                  (unsigned long)(lo - shared_vars[owner - 1].offset), hipcpu_dynamic_shared_bytes());
        }
        if (outside) {
            if (hipcpu_finding_counted(HIPCPU_MEMCHECK)) return;
            return hipcpu_finding(HIPCPU_MEMCHECK, true,
                                  "out of bounds, shared: %s, at byte %lu of the __shared__ section, outside every "
                                  "__shared__ variable (%s)",
                                  who(kind, size, site.index).c_str(), (unsigned long)lo,
                                  describe_shared(addr).c_str());
        }
    }
    if (space == kShared && misaligned(addr, size))
        return report_misaligned(addr, size, kind, site.index, describe_shared(addr));
    race_check(addr, size, kind, space, a, site.index);
}

/* ---- Host calls: copies and fills -------------------------------------------- */

void host_range(const void *pointer, size_t n, bool writes, const char *call, const void *caller) {
    const uintptr_t addr = reinterpret_cast<uintptr_t>(pointer);
    Alloc *a = find_alloc(addr);
    if (!a || !n) return;
    if (a->freed) {
        if (hipcpu_finding_counted(HIPCPU_MEMCHECK)) return;
        char line[512];
        hipcpu_exec::source_line_of(reinterpret_cast<uintptr_t>(caller) - 1, line, sizeof line);
        hipcpu_finding(HIPCPU_MEMCHECK, false, "use after free: %s%s%s on %s, freed by hipFree before it", call,
                       line[0] ? " at " : "", line, buffer_label(a).c_str());
        return;
    }
    if (writes && a->written) {
        const uintptr_t lo = addr - a->base;
        memset(a->written + lo, 1, std::min<uintptr_t>(n, a->end - addr));
    }
}

/* ---- At exit: leaks, then the findings' summary --------------------------------- */

static void at_exit() {
    std::string list;
    unsigned leaks = 0;
    for (const Alloc &a : tracer.allocs)
        if (a.zone && !a.freed) {
            if (++leaks <= 4) {
                char text[512];
                snprintf(text, sizeof text, "%s'%s' (%lu bytes)", list.empty() ? "" : ", ",
                         a.name.empty() ? "unnamed" : a.name.c_str(), (unsigned long)(a.end - a.base));
                list += text;
            }
        }
    if (leaks) {
        fflush(stdout);
        fprintf(stderr, "hipcpu: sanitize: warning: %u hipMalloc allocation%s never freed (a leak): %s%s\n", leaks,
                leaks == 1 ? " was" : "s were", list.c_str(), leaks > 4 ? ", ..." : "");
    }
    hipcpu_findings_end();
}

void sanitize_start() {
    static bool started;
    if (started) return;
    started = true;
    atexit(at_exit);
}

} /* namespace hipcpu_trace */

using namespace hipcpu_trace;

extern "C" {

/* -fsanitize=array-bounds (the sanitize build): an index past its array's
 * declared size, before the access it feeds. In host code it is reported at
 * once. */
void __ubsan_handle_out_of_bounds(UbsanOutOfBounds *data, uintptr_t index) {
    if (!hipcpu_sanitizing()) return;
    const long long value = index_value(data->index_type, index);
    if (!tracer.active) {
        if (!hipcpu_finding_counted(HIPCPU_MEMCHECK))
            hipcpu_finding(HIPCPU_MEMCHECK, false, "out of bounds in host code: an array of type %s indexed with %lld at %s:%u",
                           data->array_type->name, value, data->location.file, data->location.line);
        return;
    }
    flush_bad_index();
    bad_index = {true, hipcpu_current_linear, data->location.file, data->location.line, data->array_type->name, value};
}

void __ubsan_handle_out_of_bounds_abort(UbsanOutOfBounds *data, uintptr_t index) {
    __ubsan_handle_out_of_bounds(data, index);
}

} /* extern "C" */
