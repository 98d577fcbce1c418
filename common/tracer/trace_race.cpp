/* The tracer's checks (HIPCPU_RACECHECK=1): races within a block and between
 * blocks, and reads of shared memory no thread of the block has written.
 * trace_internal.h: the parts; common/executor/README.md, "The checks": the rules. */
#include "trace_internal.h"

#include <stdlib.h>

#include <algorithm>

namespace hipcpu_trace {

static_assert(sizeof(Shadow) == 36, "README.md, \"The checks\", gives the race check's 9 bytes per byte");

/* ---- The race check -------------------------------------------------------------- */

/* Stamps: phase_stamp grows by one at every block and every barrier, so a
 * stamp names a phase, and the block and launch it belongs to: this block's
 * stamps are those from block_stamp on, this launch's those from
 * launch_first_stamp on. launch_blocks maps a stamp back to its block, for
 * the messages. */
uint32_t phase_stamp, block_stamp, launch_first_stamp;
uint64_t block_linear;
struct BlockStart {
    uint32_t stamp;
    uint64_t block;
};
std::vector<BlockStart> launch_blocks;

/* A word's store_stamp that marks it split: its bytes' own records are
 * ShadowMap::bytes[store .. store + 3]. No phase gets this stamp. */
constexpr uint32_t kSplit = ~0u;

void next_phase() {
    if (++phase_stamp == kSplit && tracer.race_on)
        hipcpu_die("the race check counts at most %u blocks and barriers in a run", kSplit - 1);
}

void race_launch_begin() {
    launch_first_stamp = phase_stamp + 1;
    launch_blocks.clear();
}

void race_block_begin(uint64_t id) {
    next_phase();
    block_linear = id;
    block_stamp = phase_stamp;
    if (tracer.race_on) launch_blocks.push_back({block_stamp, id});
}

uint64_t block_at(uint32_t stamp) {
    auto after = std::upper_bound(launch_blocks.begin(), launch_blocks.end(), stamp,
                                  [](uint32_t s, const BlockStart &b) { return s < b.stamp; });
    return (after - 1)->block;
}

std::string thread_name(unsigned thread_plus_1) {
    const unsigned t = thread_plus_1 - 1;
    const dim3 &b = hipcpu_block_dim;
    char text[64];
    snprintf(text, sizeof text, "thread (%u,%u,%u)", t % b.x, t / b.x % b.y, t / (b.x * b.y));
    return text;
}

std::string block_name(uint64_t id) {
    const dim3 &g = hipcpu_grid_dim;
    char text[64];
    snprintf(text, sizeof text, "block (%u,%u,%u)", unsigned(id % g.x), unsigned(id / g.x % g.y),
             unsigned(id / g.x / g.y));
    return text;
}

const std::string &where(uint32_t site) {
    resolve(tracer.sites[site]);
    return tracer.sites[site].location;
}

/* What a thread did to the byte, as the messages say it: "<thread> read it". */
const char *did(uint8_t kind) {
    return kind == kStore ? "wrote it" : kind == kAtomic ? "updated it atomically" : "read it";
}

void race(const std::string &what, unsigned other, uint8_t other_kind, uint32_t other_site,
                       unsigned self, uint8_t self_kind, uint32_t self_site) {
    hipcpu_finding(HIPCPU_RACECHECK, true, "race on %s: %s %s at %s and %s %s at %s, with no __syncthreads between",
                        what.c_str(), thread_name(other).c_str(), did(other_kind), where(other_site).c_str(),
                        thread_name(self).c_str(), did(self_kind), where(self_site).c_str());
}

void block_race(const std::string &what, uint64_t other_block, unsigned other_thread,
                             uint8_t other_kind, uint32_t other_site, unsigned self, uint8_t self_kind,
                             uint32_t self_site) {
    hipcpu_finding(HIPCPU_RACECHECK, true, "race between blocks on %s: %s %s %s at %s and %s of this block %s at %s, in one "
                        "launch (blocks are not ordered: two may share a byte only if both read it or both update "
                        "it atomically)",
                        what.c_str(), block_name(other_block).c_str(), thread_name(other_thread).c_str(),
                        did(other_kind), where(other_site).c_str(), thread_name(self).c_str(), did(self_kind),
                        where(self_site).c_str());
}

ShadowMap &shadow_of(Alloc *a) {
    if (!a->shadow.words) {
        a->shadow.words = static_cast<Shadow *>(calloc((a->end - a->base + 3) / 4, sizeof(Shadow)));
        if (!a->shadow.words) hipcpu_die("out of memory for the race check of '%s'", a->name.c_str());
    }
    return a->shadow;
}

/* An access as the records keep it, an actor: the thread + 1 (which needs
 * 11 bits), kAtomicSlot when it was an atomic rather than a plain read (for
 * readers), and its call site in the top 16 bits. */
constexpr uint32_t kAtomicSlot = 0x8000;
inline uint32_t actor(unsigned thread_plus_1, Kind kind, uint32_t site) {
    return thread_plus_1 | (kind == kAtomic ? kAtomicSlot : 0) | site << 16;
}
inline unsigned actor_thread(uint32_t a) { return a & (kAtomicSlot - 1); }
inline Kind actor_kind(uint32_t a) { return a & kAtomicSlot ? kAtomic : kLoad; }
inline uint32_t actor_site(uint32_t a) { return a >> 16; }
inline uint32_t actor_who(uint32_t a) { return a & 0xFFFF; } /* thread and kind: one reader */

/* Two accesses to one byte, unordered, by different threads (or blocks):
 * a race unless both are plain reads or both are atomics. */
inline bool conflict(Kind a, Kind b) { return a != b || a == kStore; }

/* The access being checked. */
struct Checked {
    unsigned self; /* thread + 1 */
    Kind kind;
    uint32_t site, mine; /* mine: its actor */
    Space space;
};

/* The reports, out of the checks' way. `at`: the byte they name; `other`
 * the earlier access's actor, whose kind is `other_kind`. */
[[gnu::noinline, gnu::cold]] void report(uintptr_t at, const Checked &c, uint32_t other, Kind other_kind) {
    if (hipcpu_finding_counted(HIPCPU_RACECHECK)) return;
    race(c.space == kShared ? describe_shared(at) : describe_global(at), actor_thread(other), other_kind,
         actor_site(other), c.self, c.kind, c.site);
}

[[gnu::noinline, gnu::cold]] void report_blocks(uintptr_t at, const Checked &c, uint32_t other_stamp,
                                                          uint32_t other, Kind other_kind) {
    if (hipcpu_finding_counted(HIPCPU_RACECHECK)) return;
    block_race(describe_global(at), block_at(other_stamp), actor_thread(other), other_kind, actor_site(other),
               c.self, c.kind, c.site);
}

/* A thread reads a byte of shared memory that no thread of its block has
 * written since the block began. */
[[gnu::noinline, gnu::cold]] void report_unwritten(uintptr_t offset, const Checked &c) {
    if (hipcpu_finding_counted(HIPCPU_INITCHECK)) return;
    hipcpu_finding(HIPCPU_INITCHECK, true, "uninitialised read of %s: %s %s at %s, and no thread of this block has "
                        "written it since the block began (a GPU would hand back garbage)",
                        describe_shared(tracer.shared_lo + offset).c_str(), thread_name(c.self).c_str(), did(c.kind),
                        where(c.site).c_str());
}

inline void check_written(uintptr_t offset, const Checked &c) {
    if (tracer.shared_written[offset] != block_stamp) report_unwritten(offset, c);
}

/* The rule (README "The checks"): a store against anything, and a plain read
 * against an atomic, by two threads of a block between the same barriers or
 * by two blocks of one launch, is a race. A record keeps, per byte (or word,
 * below): the last store, whose stamp says whether it was in this phase (a
 * writer to this block's threads) or in another block of this launch (to
 * other blocks); and the first two distinct (reader, kind) pairs of the
 * phase, and of the launch (the reader there a block, with the first of its
 * threads to make the pair), plain reads and atomics being readers. That is
 * enough to catch every race at its second access: the recorded pairs never
 * conflict with each other (or that would have been reported), so they are
 * either one thread's read and atomic, or two threads' accesses of one kind,
 * and an access that conflicts with some earlier unrecorded one conflicts
 * with a recorded one too. Checks first, within the block then between
 * blocks, then the record's update; `at` is the byte the messages name. */
[[gnu::always_inline]] inline void check(Shadow &sh, uintptr_t at, const Checked &c) {
    /* Threads of this block, between two barriers. */
    if (sh.phase != phase_stamp) {
        sh.phase = phase_stamp;
        sh.reader = sh.reader2 = 0;
    }
    if (sh.store_stamp == phase_stamp && actor_thread(sh.store) != c.self) report(at, c, sh.store, kStore);
    if (sh.reader && actor_thread(sh.reader) != c.self && conflict(actor_kind(sh.reader), c.kind))
        report(at, c, sh.reader, actor_kind(sh.reader));
    if (sh.reader2 && actor_thread(sh.reader2) != c.self && conflict(actor_kind(sh.reader2), c.kind))
        report(at, c, sh.reader2, actor_kind(sh.reader2));
    /* Blocks of this launch: global memory (shared memory is the block's own). */
    const bool global = c.space == kGlobal;
    const bool reader1 = global && sh.block_reader_stamp >= launch_first_stamp;
    const bool reader2 = global && sh.block_reader2_stamp >= launch_first_stamp;
    if (global) {
        if (sh.store_stamp >= launch_first_stamp && sh.store_stamp < block_stamp)
            report_blocks(at, c, sh.store_stamp, sh.store, kStore);
        if (reader1 && sh.block_reader_stamp < block_stamp && conflict(actor_kind(sh.block_reader), c.kind))
            report_blocks(at, c, sh.block_reader_stamp, sh.block_reader, actor_kind(sh.block_reader));
        if (reader2 && sh.block_reader2_stamp < block_stamp && conflict(actor_kind(sh.block_reader2), c.kind))
            report_blocks(at, c, sh.block_reader2_stamp, sh.block_reader2, actor_kind(sh.block_reader2));
    }
    if (c.kind == kStore) {
        sh.store_stamp = phase_stamp;
        sh.store = c.mine;
        return;
    }
    if (!sh.reader)
        sh.reader = c.mine;
    else if (!sh.reader2 && actor_who(sh.reader) != actor_who(c.mine))
        sh.reader2 = c.mine;
    if (!global) return;
    if (!reader1) {
        sh.block_reader_stamp = phase_stamp;
        sh.block_reader = c.mine;
        sh.block_reader2_stamp = sh.block_reader2 = 0;
    } else if (!reader2 && !(sh.block_reader_stamp >= block_stamp && actor_kind(sh.block_reader) == c.kind)) {
        /* a (block, kind) pair other than the first */
        sh.block_reader2_stamp = phase_stamp;
        sh.block_reader2 = c.mine;
    }
}

/* The bytes lo..hi-1 (offsets into the region) of one word, each with its
 * own record: the word is split first if it is not yet. */
[[gnu::noinline]] void check_bytes(ShadowMap &map, uintptr_t base, uintptr_t lo, uintptr_t hi, const Checked &c) {
    Shadow &word = map.words[lo / 4];
    if (word.store_stamp != kSplit) {
        const Shadow whole = word;
        word.store_stamp = kSplit;
        word.store = uint32_t(map.bytes.size());
        map.bytes.insert(map.bytes.end(), 4, whole);
    }
    Shadow *bytes = &map.bytes[word.store];
    for (uintptr_t b = lo; b < hi; b++) {
        if (c.space == kShared && c.kind != kStore) check_written(b, c);
        check(bytes[b % 4], base + b, c);
    }
}

/* A record per 4-byte word, for all of its bytes alike while every access
 * to it covered the whole word; an access that covers part of a word splits
 * it into a record per byte, for good. Kernels rarely touch part of a word
 * (bytes, or a misaligned access), so the shadow costs sizeof(Shadow) / 4
 * bytes per byte of memory, and a 4-byte access one record. The checks are
 * those of a record per byte: a word's bytes have had the same accesses, so
 * the first byte the access covers is the first to conflict. A shared read's
 * uninitialised-byte check comes before the byte's race check, as per byte. */
void race_check(uintptr_t addr, unsigned size, Kind kind, Space space, Alloc *a, uint32_t site) {
    const unsigned self = hipcpu_current_linear + 1;
    const Checked c = {self, kind, site, actor(self, kind, site), space};
    ShadowMap &map = space == kShared ? tracer.shared_shadow : shadow_of(a);
    const uintptr_t base = space == kShared ? tracer.shared_lo : a->base;
    const uintptr_t region = space == kShared ? tracer.shared_size : a->end - a->base;
    const uintptr_t first = addr - base, end = std::min<uintptr_t>(first + size, region); /* not past its end */
    const bool shared_read = space == kShared && kind != kStore;
    const uint32_t *written = tracer.shared_written;
    for (uintptr_t lo = first; lo < end;) {
        const uintptr_t hi = std::min<uintptr_t>(end, (lo & ~uintptr_t(3)) + 4);
        Shadow &word = map.words[lo / 4];
        if (hi - lo < 4 || word.store_stamp == kSplit) {
            check_bytes(map, base, lo, hi, c);
        } else if (shared_read && (written[lo] != block_stamp || written[lo + 1] != block_stamp ||
                                   written[lo + 2] != block_stamp || written[lo + 3] != block_stamp)) {
            check_written(lo, c);
            check(word, base + lo, c);
            for (uintptr_t b = lo + 1; b < hi; b++) check_written(b, c); /* one of them reports */
        } else {
            check(word, base + lo, c);
        }
        lo = hi;
    }
    if (space == kShared && kind == kStore)
        for (uintptr_t b = first; b < end; b++) tracer.shared_written[b] = block_stamp;
}

} /* namespace hipcpu_trace */
