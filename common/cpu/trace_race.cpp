/* The tracer's checks (HIPCPU_RACECHECK=1): races within a block and between
 * blocks, and reads of shared memory no thread of the block has written.
 * trace_internal.h: the parts; common/cpu/README.md, "The checks": the rules. */
#include "trace_internal.h"

#include <stdlib.h>

namespace hipcpu_trace {

/* ---- The race check -------------------------------------------------------------- */

uint32_t phase_stamp, block_stamp, launch_stamp;
uint64_t block_linear;

std::string thread_name(unsigned thread_plus_1) {
    const unsigned t = thread_plus_1 - 1;
    const dim3 &b = hipcpu_block_dim;
    char text[64];
    snprintf(text, sizeof text, "thread (%u,%u,%u)", t % b.x, t / b.x % b.y, t / (b.x * b.y));
    return text;
}

std::string block_name(uint32_t block_plus_1) {
    const uint64_t id = block_plus_1 - 1;
    const dim3 &g = hipcpu_grid_dim;
    char text[64];
    snprintf(text, sizeof text, "block (%u,%u,%u)", unsigned(id % g.x), unsigned(id / g.x % g.y),
             unsigned(id / g.x / g.y));
    return text;
}

const std::string &where(uint32_t site) {
    resolve(sites[site]);
    return sites[site].location;
}

const char *verb(uint8_t kind) { return kind == kStore ? "wrote" : kind == kAtomic ? "updated atomically" : "read"; }

[[noreturn]] void race(const std::string &what, unsigned other, uint8_t other_kind, uint32_t other_site,
                       unsigned self, uint8_t self_kind, uint32_t self_site) {
    hipcpu_die_in_block("race on %s: %s %s it at %s and %s %s it at %s, with no __syncthreads between",
                        what.c_str(), thread_name(other).c_str(), verb(other_kind), where(other_site).c_str(),
                        thread_name(self).c_str(), verb(self_kind), where(self_site).c_str());
}

[[noreturn]] void block_race(const std::string &what, uint32_t other_block, unsigned other_thread,
                             uint8_t other_kind, uint32_t other_site, unsigned self, uint8_t self_kind,
                             uint32_t self_site) {
    hipcpu_die_in_block("race between blocks on %s: %s %s %s it at %s and %s of this block %s it at %s, in "
                        "one launch (blocks are not ordered; only atomics may share a byte)",
                        what.c_str(), block_name(other_block).c_str(), thread_name(other_thread).c_str(),
                        verb(other_kind), where(other_site).c_str(), thread_name(self).c_str(), verb(self_kind),
                        where(self_site).c_str());
}

Shadow *shadow_of(Alloc *a) {
    if (!a->shadow) {
        a->shadow = static_cast<Shadow *>(calloc(a->end - a->base, sizeof(Shadow)));
        if (!a->shadow) hipcpu_die("out of memory for the race check of '%s'", a->name.c_str());
    }
    return a->shadow;
}

void race_check(uintptr_t addr, unsigned size, Kind kind, Space space, Alloc *a, uint32_t site) {
    const unsigned self = hipcpu_current_linear + 1;
    const uint32_t block = uint32_t(block_linear + 1);
    Shadow *base = space == kShared ? shared_shadow + (addr - shared_lo) : shadow_of(a) + (addr - a->base);
    for (unsigned i = 0; i < size; i++) {
        Shadow &sh = base[i];
        auto what = [&]() { return space == kShared ? describe_shared(addr + i) : describe_global(addr + i); };
        if (space == kShared && kind != kStore && shared_written[addr + i - shared_lo] != block_stamp)
            hipcpu_die_in_block("uninitialised read of %s: %s %s it at %s, and no thread of this block has "
                                "written it since the block began (a GPU would hand back garbage)",
                                what().c_str(), thread_name(self).c_str(), verb(kind), where(site).c_str());
        /* Threads of this block, between two barriers. */
        if (sh.phase != phase_stamp) {
            sh.phase = phase_stamp;
            sh.writer = sh.reader = sh.reader2 = 0;
        }
        if (sh.writer && sh.writer != self) race(what(), sh.writer, kStore, sh.writer_site, self, kind, site);
        if (kind == kStore) {
            const unsigned other = sh.reader && sh.reader != self ? sh.reader : sh.reader2;
            if (other) {
                const uint16_t other_site = other == sh.reader ? sh.reader_site : sh.reader2_site;
                race(what(), other, kLoad, other_site, self, kind, site);
            }
            sh.writer = uint16_t(self);
            sh.writer_site = uint16_t(site);
            if (space == kShared) shared_written[addr + i - shared_lo] = block_stamp;
        } else if (!sh.reader) {
            sh.reader = uint16_t(self);
            sh.reader_site = uint16_t(site);
        } else if (sh.reader != self && !sh.reader2) {
            sh.reader2 = uint16_t(self);
            sh.reader2_site = uint16_t(site);
        }
        /* Blocks of this launch: global memory, plain accesses only. */
        if (space != kGlobal || kind == kAtomic) continue;
        if (sh.launch != launch_stamp) {
            sh.launch = launch_stamp;
            sh.block_writer = sh.block_reader = sh.block_reader2 = 0;
        }
        if (sh.block_writer && sh.block_writer != block)
            block_race(what(), sh.block_writer, sh.block_writer_thread, kStore, sh.block_writer_site, self, kind,
                       site);
        if (kind == kStore) {
            const bool first = sh.block_reader && sh.block_reader != block;
            const uint32_t other = first ? sh.block_reader : sh.block_reader2;
            if (other)
                block_race(what(), other, first ? sh.block_reader_thread : sh.block_reader2_thread, kLoad,
                           first ? sh.block_reader_site : sh.block_reader2_site, self, kind, site);
            sh.block_writer = block;
            sh.block_writer_thread = uint16_t(self);
            sh.block_writer_site = uint16_t(site);
        } else if (!sh.block_reader) {
            sh.block_reader = block;
            sh.block_reader_thread = uint16_t(self);
            sh.block_reader_site = uint16_t(site);
        } else if (sh.block_reader != block && !sh.block_reader2) {
            sh.block_reader2 = block;
            sh.block_reader2_thread = uint16_t(self);
            sh.block_reader2_site = uint16_t(site);
        }
    }
}

} /* namespace hipcpu_trace */
