/* The tracer's view of memory: the device allocations (by address, with the
 * names the harness gave them) and the __shared__ section. trace_internal.h:
 * the parts. */
#include "trace_internal.h"

#include <stdlib.h>
#include <string.h>

#include <algorithm>

namespace hipcpu_trace {

/* ---- Memory: device allocations and the shared section ------------------------ */




/* Kernels alternate between a few buffers (an MLP layer: inputs, weights,
 * biases, outputs), and between them and memory that is no buffer (a
 * thread's local array on its fiber stack): remember the last four buffers
 * found, the oldest replaced, and the last gap between buffers. */
constexpr unsigned kRecentAllocs = 4;
Alloc *recent_alloc[kRecentAllocs];
unsigned recent_next;
uintptr_t gap_lo, gap_hi;
const Alloc *gap_below, *gap_above; /* the allocations either side of that gap, or null */

void forget_found_allocs() {
    for (Alloc *&a : recent_alloc) a = nullptr;
    gap_lo = gap_hi = 0;
    gap_below = gap_above = nullptr;
}

Alloc *find_alloc_slow(uintptr_t addr) {
    size_t lo = 0, hi = tracer.allocs.size();
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (tracer.allocs[mid].end <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < tracer.allocs.size() && addr >= tracer.allocs[lo].base) return &tracer.allocs[lo];
    gap_below = lo ? &tracer.allocs[lo - 1] : nullptr;
    gap_above = lo < tracer.allocs.size() ? &tracer.allocs[lo] : nullptr;
    gap_lo = lo ? tracer.allocs[lo - 1].end : 0;
    gap_hi = lo < tracer.allocs.size() ? tracer.allocs[lo].base : UINTPTR_MAX;
    return nullptr;
}

Alloc *find_alloc(uintptr_t addr) {
    for (Alloc *a : recent_alloc)
        if (a && addr - a->base < a->end - a->base) return a;
    if (addr - gap_lo < gap_hi - gap_lo) return nullptr;
    Alloc *a = find_alloc_slow(addr);
    if (a) recent_alloc[recent_next++ % kRecentAllocs] = a;
    return a;
}

void nearest_allocs(uintptr_t addr, const Alloc **below, const Alloc **above) {
    if (!(addr - gap_lo < gap_hi - gap_lo) || (!gap_below && !gap_above)) find_alloc_slow(addr);
    *below = gap_below;
    *above = gap_above;
}

std::string buffer_name_at(uintptr_t addr) {
    Alloc *a = find_alloc(addr);
    return !a ? "" : a->name.empty() ? "unnamed buffer" : a->name;
}

std::string describe_global(uintptr_t addr) {
    Alloc *a = find_alloc(addr);
    char text[512];
    if (!a) return "device memory";
    snprintf(text, sizeof text, "device buffer '%s' (byte %lu of %lu)",
             a->name.empty() ? "unnamed" : a->name.c_str(), (unsigned long)(addr - a->base),
             (unsigned long)(a->end - a->base));
    return text;
}

std::string describe_shared(uintptr_t addr) {
    uintptr_t offset;
    std::string name = shared_variable(addr, &offset);
    char text[1024];
    if (name.empty())
        snprintf(text, sizeof text, "__shared__ memory (byte %lu of the section)",
                 (unsigned long)(addr - tracer.shared_lo));
    else
        snprintf(text, sizeof text, "__shared__ %s, byte %lu", name.c_str(), (unsigned long)offset);
    return text;
}

} /* namespace hipcpu_trace */
