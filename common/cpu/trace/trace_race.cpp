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

/* What a thread did to the byte, as the messages say it: "<thread> read it". */
const char *did(uint8_t kind) {
    return kind == kStore ? "wrote it" : kind == kAtomic ? "updated it atomically" : "read it";
}

[[noreturn]] void race(const std::string &what, unsigned other, uint8_t other_kind, uint32_t other_site,
                       unsigned self, uint8_t self_kind, uint32_t self_site) {
    hipcpu_die_in_block("race on %s: %s %s at %s and %s %s at %s, with no __syncthreads between",
                        what.c_str(), thread_name(other).c_str(), did(other_kind), where(other_site).c_str(),
                        thread_name(self).c_str(), did(self_kind), where(self_site).c_str());
}

[[noreturn]] void block_race(const std::string &what, uint32_t other_block, unsigned other_thread,
                             uint8_t other_kind, uint32_t other_site, unsigned self, uint8_t self_kind,
                             uint32_t self_site) {
    hipcpu_die_in_block("race between blocks on %s: %s %s %s at %s and %s of this block %s at %s, in one "
                        "launch (blocks are not ordered: two may share a byte only if both read it or both update "
                        "it atomically)",
                        what.c_str(), block_name(other_block).c_str(), thread_name(other_thread).c_str(),
                        did(other_kind), where(other_site).c_str(), thread_name(self).c_str(), did(self_kind),
                        where(self_site).c_str());
}

Shadow *shadow_of(Alloc *a) {
    if (!a->shadow) {
        a->shadow = static_cast<Shadow *>(calloc(a->end - a->base, sizeof(Shadow)));
        if (!a->shadow) hipcpu_die("out of memory for the race check of '%s'", a->name.c_str());
    }
    return a->shadow;
}

/* A reader slot's thread field: the thread + 1, with kAtomicSlot when its
 * access was an atomic, not a plain read (threads + 1 need 11 bits). */
constexpr uint16_t kAtomicSlot = 0x8000;
inline uint16_t slot(unsigned thread_plus_1, Kind kind) {
    return uint16_t(thread_plus_1 | (kind == kAtomic ? kAtomicSlot : 0));
}
inline unsigned slot_thread(uint16_t s) { return s & ~kAtomicSlot; }
inline Kind slot_kind(uint16_t s) { return s & kAtomicSlot ? kAtomic : kLoad; }

/* Two accesses to one byte, unordered, by different threads (or blocks):
 * a race unless both are plain reads or both are atomics. */
inline bool conflict(Kind a, Kind b) { return a != b || a == kStore; }

/* The rule (README "The checks"): a store against anything, and a plain read
 * against an atomic, by two threads of a block between the same barriers or
 * by two blocks of one launch, is a race. Per byte, per phase (and per
 * launch, for blocks): the last writer (one: a second would have raced) and
 * the first two distinct (reader, kind) pairs, plain reads and atomics being
 * readers. That is enough to catch every race at its second access: the
 * recorded pairs never conflict with each other (or that would have been
 * reported), so they are either one thread's read and atomic, or two
 * threads' accesses of one kind, and an access that conflicts with some
 * earlier unrecorded one conflicts with a recorded one too. */
void race_check(uintptr_t addr, unsigned size, Kind kind, Space space, Alloc *a, uint32_t site) {
    const unsigned self = hipcpu_current_linear + 1;
    const uint32_t block = uint32_t(block_linear + 1);
    const uint16_t mine = slot(self, kind);
    Shadow *base = space == kShared ? shared_shadow + (addr - shared_lo) : shadow_of(a) + (addr - a->base);
    for (unsigned i = 0; i < size; i++) {
        Shadow &sh = base[i];
        auto what = [&]() { return space == kShared ? describe_shared(addr + i) : describe_global(addr + i); };
        if (space == kShared && kind != kStore && shared_written[addr + i - shared_lo] != block_stamp)
            hipcpu_die_in_block("uninitialised read of %s: %s %s at %s, and no thread of this block has "
                                "written it since the block began (a GPU would hand back garbage)",
                                what().c_str(), thread_name(self).c_str(), did(kind), where(site).c_str());
        /* Threads of this block, between two barriers. */
        if (sh.phase != phase_stamp) {
            sh.phase = phase_stamp;
            sh.writer = sh.reader = sh.reader2 = 0;
        }
        if (sh.writer && sh.writer != self) race(what(), sh.writer, kStore, sh.writer_site, self, kind, site);
        if (sh.reader && slot_thread(sh.reader) != self && conflict(slot_kind(sh.reader), kind))
            race(what(), slot_thread(sh.reader), slot_kind(sh.reader), sh.reader_site, self, kind, site);
        if (sh.reader2 && slot_thread(sh.reader2) != self && conflict(slot_kind(sh.reader2), kind))
            race(what(), slot_thread(sh.reader2), slot_kind(sh.reader2), sh.reader2_site, self, kind, site);
        if (kind == kStore) {
            sh.writer = uint16_t(self);
            sh.writer_site = uint16_t(site);
            if (space == kShared) shared_written[addr + i - shared_lo] = block_stamp;
        } else if (!sh.reader) {
            sh.reader = mine;
            sh.reader_site = uint16_t(site);
        } else if (sh.reader != mine && !sh.reader2) {
            sh.reader2 = mine;
            sh.reader2_site = uint16_t(site);
        }
        /* Blocks of this launch: global memory (shared memory is the block's own). */
        if (space != kGlobal) continue;
        if (sh.launch != launch_stamp) {
            sh.launch = launch_stamp;
            sh.block_writer = sh.block_reader = sh.block_reader2 = 0;
        }
        if (sh.block_writer && sh.block_writer != block)
            block_race(what(), sh.block_writer, sh.block_writer_thread, kStore, sh.block_writer_site, self, kind,
                       site);
        if (sh.block_reader && sh.block_reader != block && conflict(slot_kind(sh.block_reader_thread), kind))
            block_race(what(), sh.block_reader, slot_thread(sh.block_reader_thread),
                       slot_kind(sh.block_reader_thread), sh.block_reader_site, self, kind, site);
        if (sh.block_reader2 && sh.block_reader2 != block && conflict(slot_kind(sh.block_reader2_thread), kind))
            block_race(what(), sh.block_reader2, slot_thread(sh.block_reader2_thread),
                       slot_kind(sh.block_reader2_thread), sh.block_reader2_site, self, kind, site);
        if (kind == kStore) {
            sh.block_writer = block;
            sh.block_writer_thread = uint16_t(self);
            sh.block_writer_site = uint16_t(site);
        } else {
            /* A (block, kind) pair: the thread is the first of its block to make it. */
            auto same = [&](uint32_t b, uint16_t s) { return b == block && slot_kind(s) == kind; };
            if (!sh.block_reader) {
                sh.block_reader = block;
                sh.block_reader_thread = mine;
                sh.block_reader_site = uint16_t(site);
            } else if (!same(sh.block_reader, sh.block_reader_thread) && !sh.block_reader2) {
                sh.block_reader2 = block;
                sh.block_reader2_thread = mine;
                sh.block_reader2_site = uint16_t(site);
            }
        }
    }
}

} /* namespace hipcpu_trace */
