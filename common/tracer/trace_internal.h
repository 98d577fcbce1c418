/* The tracer's parts (trace.cpp and trace_*.cpp), and what they share: the
 * trace build's internals, not an interface (trace.h is the executor's).
 *
 *   trace.cpp           settings, every access, the executor's hooks and the
 *                       kernel code's entry points (the callbacks)
 *   trace_symbols.cpp   call sites, and addresses to file:line (addr2line)
 *                       or to a __shared__ variable's name (nm)
 *   trace_memory.cpp    the device allocations and the shared section
 *   trace_requests.cpp  lanes in step, their wave-level requests, the
 *                       counters, basic-block runs
 *   trace_race.cpp      the race and uninitialised-read checks
 *   trace_memcheck.cpp  make sanitize's memory checks: bounds, alignment,
 *                       freed and unwritten memory, leaks
 *   trace_report.cpp    HIPCPU_PROFILE's tables */
#ifndef HIPCPU_TRACE_INTERNAL_H
#define HIPCPU_TRACE_INTERNAL_H

#include <hip/hip_runtime.h> /* the executor's (common/executor/hip/): CPU platform only */

#include "../executor/device_limits.h"
#include "trace.h"

#include <stdint.h>
#include <stdio.h>

#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace hipcpu_trace {

using hipcpu_limits::kWave; /* the device's limits, the executor's too (../device_limits.h) */
using hipcpu_limits::kMaxThreads;
using hipcpu_limits::kMaxWaves;
constexpr unsigned kMaxSites = 2048;  /* distinct call sites in one program */
constexpr unsigned kMaxOpenGroups = 4096; /* per wave; the oldest is counted when full */
constexpr unsigned kMergeLimit = 16;  /* bytes: the widest access a lane makes (dwordx4) */
constexpr unsigned kLogLength = 64;   /* accesses a lane makes before it stops for its wave */

enum Space : uint8_t { kGlobal, kShared };
enum Kind : uint8_t { kLoad, kStore, kAtomic };
const char *const kKindName[] = {"load", "store", "atomic"};
const char *const kSpaceName[] = {"global", "shared"};

/* The re-read distances the tracer tells apart (trace_requests.cpp): the
 * model reads the two around its device's L2 size. */
constexpr unsigned kReuseBuckets = 6;
constexpr uint64_t kReuseBytes[kReuseBuckets] = {256ull << 10, 1ull << 20, 4ull << 20, 16ull << 20, 64ull << 20, 256ull << 20};
const char *const kReuseName[kReuseBuckets] = {"256k", "1m", "4m", "16m", "64m", "256m"};

/* The same block's re-read distances (trace_requests.cpp): L1 sizes, for
 * one block; the model scales them by the blocks a CU holds. */
constexpr unsigned kBlockReuseBuckets = 4;
constexpr uint64_t kBlockReuseBytes[kBlockReuseBuckets] = {2u << 10, 8u << 10, 32u << 10, 128u << 10};
const char *const kBlockReuseName[kBlockReuseBuckets] = {"2k", "8k", "32k", "128k"};

struct SiteStats {
    uint64_t requests, lanes, bytes, segments, sectors, bank_cycles, atomics;
    uint64_t dram_requests; /* global loads: those a GPU would send to DRAM (trace_requests.cpp) */
    uint64_t beyond[kReuseBuckets]; /* global loads re-reading a segment after more than kReuseBytes[i] came in */
    /* global loads: segments (not requests) their block re-read within kBlockReuseBytes[i] of its own loads */
    uint64_t block_within[kBlockReuseBuckets];
};

/* What the tracer knows of one 64-byte segment of device memory in a launch:
 * who first touched it (the convoy test), when it was last touched (its
 * re-read distance), both 0 before its first touch (trace_requests.cpp),
 * which of its bytes were touched (unique_bytes), and the block clock after
 * its last load by a traced block (TraceState::block_clock). One record, so
 * that an access finds them all together. */
struct SegmentState {
    uint64_t first, last;
    uint64_t touched; /* a bit per byte */
    uint64_t block_loaded;
};

struct Site {
    uintptr_t pc;
    std::string kernel;   /* the kernel it was first seen in */
    std::string location; /* "file:line", resolved when needed */
    int line_id;          /* location as a number, for merging; -1 unresolved */
    bool no_line;         /* the compiler gave it no source line: a load it moved (see race_check) */
    uintptr_t first_addr; /* the first address it accessed */
    std::string buffer;   /* the device buffer of that address, or empty (shared) */
    uint8_t kind;
    SiteStats stats[2];   /* by Space */
};

/* The race check's record of one 4-byte word (or of one byte of a word that
 * an access covered only in part: trace_race.cpp): which thread stored last,
 * which threads read it or updated it atomically in this barrier phase, and
 * which blocks in this launch. Each access is an actor (thread, kind, call
 * site) with a stamp, a phase_stamp value, that also names its block and
 * launch; 0: none. 36 bytes: 9 per byte of memory. */
struct Shadow {
    uint32_t store_stamp, store;     /* the last plain store */
    uint32_t phase, reader, reader2; /* the first two readers of phase `phase` (plain or atomic) */
    uint32_t block_reader_stamp, block_reader; /* the first two (block, kind) readers of the launch */
    uint32_t block_reader2_stamp, block_reader2;
};

/* A region's records: one per word, allocated whole at the first access
 * (calloc maps zero pages, so the words no kernel touches cost nothing), and
 * four per split word. */
struct ShadowMap {
    Shadow *words;
    std::vector<Shadow> bytes;
};

struct Alloc {
    uintptr_t base, end;
    std::string name;
    SegmentState *segments; /* profile: per 64-byte segment, in this launch (trace_requests.cpp) */
    bool segments_dirty;
    ShadowMap shadow;   /* race check */
    size_t zone;        /* make sanitize: the red zone on each side (hipMalloc's own), 0: none */
    bool freed;         /* make sanitize: hipFree'd, kept so that a later access names it */
    uint8_t *written;   /* make sanitize: per byte, written by a copy, a fill or a kernel (initcheck) */
};

struct KernelStats {
    std::string name;
    hipcpu_kernel_counters c;         /* trace.h's list */
    std::vector<uint64_t> block_runs; /* [guard]: wave-level runs of each basic block */
    std::vector<uint64_t> critical_runs; /* [guard]: per barrier phase, its busiest wave's runs, summed */
};

struct Access {
    uintptr_t addr;
    uint64_t merged;  /* a bit per call site (modulo 64) widened into it */
    uint32_t site, n;
    uint16_t size;
    uint8_t kind, space;
    bool valid;
};

/* A lane's accesses since its wave's last round. The last one is still open:
 * the next, if contiguous, widens it. */
struct Lane {
    Access log[kLogLength];
    unsigned length;
    bool stopped;  /* stopped with a full log in this round */
    std::vector<uint32_t> counted; /* sites with a count, to reset */
};

/* The lanes of one wave at one site for the n-th time: one request. */
struct Group {
    uint32_t site, n;
    uint8_t kind, space, wave;
    uint32_t order; /* the wave's how-manieth request in its phase */
    unsigned count;
    uint64_t joined; /* a bit per lane that has joined */
    uint64_t age;
    uintptr_t addr[kWave];
    uint16_t size[kWave];
    uint8_t lane[kWave];
};

/* ---- trace_symbols.cpp ------------------------------------------------------ */
void resolve(Site &site);                                /* site.location: "file:line" */
/* A call site, as every access asks for it: its index into `sites` and
 * whether it is a moved load (Site::no_line). */
struct SiteRef {
    uintptr_t key; /* the instruction, and the kind in the top bits */
    uint32_t index;
    bool moved;
};
const SiteRef &find_site(uintptr_t pc, Kind kind, uintptr_t addr); /* made at first sight */
/* A direct-mapped cache in front of find_site's table, indexed by the
 * instruction's address itself: the sites of a kernel's hot loops lie within
 * 8 KiB of code, and so in slots of their own (a multiplicative hash put 6 of
 * chapter 09's 20 hot sites in shared slots). 64 KiB, of which the hot
 * entries take a few cache lines; one line per look-up. */
constexpr unsigned kSiteCache = 4096;

/* ---- What the parts share ----------------------------------------------------- */

/* The tracer's state that more than one of its files reads, in one place:
 * the one instance is `tracer` (trace.cpp). What a single file keeps is that
 * file's own. The fields every access reads come first, in one cache line. */
struct TraceState {
    bool active;      /* in a launch, with a mode on */
    bool light;       /* trace_sample.cpp: the running block is not traced (only tallied) */
    bool light_plain; /* light, and no atomic in progress: on_access's quickest path */
    bool sampling;    /* this launch traces some of its blocks */
    bool profile_on, race_on;
    bool sanitize_on;               /* HIPCPU_SANITIZE: trace_memcheck.cpp's checks, race_on too */
    bool counting_blocks;           /* the lines table is asked for: basic-block runs counted */
    uintptr_t shared_lo, shared_size; /* the __shared__ section */
    uint64_t all_bytes[2][2];       /* [space][load/store]: a sampled launch's bytes, every block's */

    /* trace.cpp: settings */
    std::string profile_path, sites_path, lines_path;

    /* trace_symbols.cpp: call sites */
    std::vector<Site> sites;
    std::string current_kernel; /* the running launch's kernel, as its rows name it */
    SiteRef site_cache[kSiteCache];

    /* trace_memory.cpp */
    std::vector<Alloc> allocs; /* sorted by base */
    ShadowMap shared_shadow;
    uint32_t *shared_written;  /* block stamp of the last write, per shared byte */

    /* trace_requests.cpp: counters, requests, basic-block runs */
    std::vector<KernelStats> kernels;
    KernelStats *kernel;
    std::unordered_map<uintptr_t, uint64_t> atomics_by_address; /* this launch */
    uint32_t guard_total;                  /* guards numbered 1..guard_total */
    std::vector<uintptr_t> guard_pc;       /* [guard]: the block's first instruction */
    std::vector<uint32_t> guard_lane_runs; /* [guard * kMaxThreads + thread], this sync interval */
    std::vector<uint32_t> guard_wave_most; /* [guard]: scratch for one wave */
    std::vector<uint32_t> wave_phase_runs; /* [wave * (guard_total + 1) + guard] */
    std::vector<uint32_t> guards_touched[kMaxThreads];
    Lane lane_state[kMaxThreads];
    std::vector<uint32_t> site_counts;     /* [site][thread]: times the thread reached the site this phase */
    std::vector<Group> open_groups[kMaxWaves];
    uint64_t block_ordinal;  /* of the running block in its launch, from 1 */
    unsigned block_phase;    /* barriers the running block has passed */
    uint64_t fresh_segments; /* segments first touched in this launch: the re-read clock */
    /* The traced blocks' own re-read clock: 64 bytes per segment of each of
     * their load requests, never reset; and its value when the running
     * block began (a segment loaded since has a later stamp). */
    uint64_t block_clock, block_clock_start;
};
extern TraceState tracer;

inline uintptr_t site_key(uintptr_t pc, Kind kind) { return pc ^ (uintptr_t(kind) << 60); }
inline unsigned site_slot(uintptr_t key) { return unsigned((key >> 1) + (key >> 60)) % kSiteCache; }
inline const SiteRef &site_of(uintptr_t pc, Kind kind, uintptr_t addr) {
    const SiteRef &cached = tracer.site_cache[site_slot(site_key(pc, kind))];
    return cached.key == site_key(pc, kind) ? cached : find_site(pc, kind, addr);
}
std::string shared_variable(uintptr_t addr, uintptr_t *offset);
struct SharedVariable {
    uintptr_t offset, size; /* in the __shared__ section */
    bool dynamic;           /* the dynamic area (extern __shared__) */
};
std::vector<SharedVariable> shared_variables(); /* the section's variables, from the symbol table */
std::string line_of_block(uintptr_t pc);
bool in_kernel_code(uintptr_t pc);   /* pc lies in a __global__ function */
const char *kernel_at(uintptr_t pc); /* that kernel's name ("tile_kernel<32, 8>"), or null if unknown */
const char *lasting_name(const std::string &name);

/* ---- trace_memory.cpp ------------------------------------------------------- */
void forget_found_allocs(); /* find_alloc's caches, when allocs changes */
Alloc *find_alloc(uintptr_t addr);
void nearest_allocs(uintptr_t addr, const Alloc **below, const Alloc **above); /* addr in none */
/* Where addr lies: shared memory, a device allocation (*a), or neither (a
 * thread's own stack, the executor's state): false. */
inline bool classify(uintptr_t addr, Space *space, Alloc **a) {
    *a = nullptr;
    if (addr - tracer.shared_lo < tracer.shared_size) {
        *space = kShared;
        return true;
    }
    *a = find_alloc(addr);
    *space = kGlobal;
    return *a != nullptr;
}
std::string buffer_name_at(uintptr_t addr); /* a device buffer's name, or "" */
std::string describe_global(uintptr_t addr);
std::string describe_shared(uintptr_t addr);
void mark_touched_across(Alloc *a, uintptr_t addr, unsigned size); /* trace_requests.cpp: any access */
/* Inline: every global access of a sampled launch's untraced blocks marks its bytes. */
inline void mark_touched(Alloc *a, uintptr_t addr, unsigned size) {
    if ((addr & 63) + size > 64 || !a->segments) return mark_touched_across(a, addr, size);
    a->segments_dirty = true;
    a->segments[(addr >> 6) - a->base / 64].touched |= (size == 64 ? ~uint64_t(0) : (uint64_t(1) << size) - 1)
                                                       << (addr & 63); /* the usual case: one segment */
}

/* ---- trace_requests.cpp ----------------------------------------------------- */
void end_phase();
void launch_requests_begin(unsigned concurrent_blocks);
void block_requests_begin();
void phase_requests_begin(bool new_block);
void launch_requests_end();
void count_request(const Group &g);
void count_block_reuse(); /* after a round's requests: the same block's re-reads, in each wave's order */
void add_to_group(unsigned wave, unsigned lane, const Access &a, size_t hint);
void end_block_counts(unsigned first, unsigned lanes);
void reset_counts(unsigned thread);
void profile_access(uintptr_t addr, unsigned size, Kind kind, Space space, uint32_t site);
SegmentState *segment_state(uint64_t unit, uintptr_t addr);

/* ---- trace_sample.cpp: HIPCPU_SAMPLE_BLOCKS --------------------------------- */
void sample_launch_begin(uint64_t blocks, unsigned threads, unsigned concurrent);
void sample_kernel_known();
void sample_block_begin(uint64_t ordinal, unsigned concurrent);
void sample_tally(Space space, Kind kind, unsigned size);
void light_access(uintptr_t addr, unsigned size, Kind kind, uintptr_t pc); /* global memory, or none */
void sample_uniform_block(const std::unordered_set<uint64_t> &segments);
uint64_t sample_uniform_launch_segments();
void light_phase_begin();
void sample_launch_end(uint64_t blocks);
void sample_full_launch();
void write_sampling(const std::string &path);

/* ---- trace_race.cpp --------------------------------------------------------- */
void next_phase();                 /* a barrier: a new phase */
void race_launch_begin();
void race_block_begin(uint64_t id); /* a new phase, and block */
void race_check(uintptr_t addr, unsigned size, Kind kind, Space space, Alloc *a, uint32_t site);
std::string thread_name(unsigned thread_plus_1); /* "thread (x,y,z)" */
const std::string &where(uint32_t site);         /* a call site's "file:line" */

/* ---- trace_memcheck.cpp: HIPCPU_SANITIZE ------------------------------------ */
void sanitize_start();
size_t redzone_for(size_t align);
void sanitized_access(uintptr_t addr, unsigned size, Kind kind, uintptr_t pc);
extern size_t copy_bytes; /* trace.cpp: a memcpy's whole size while its pieces are checked, else 0 */
void host_range(const void *pointer, size_t n, bool writes, const char *call, const void *caller);
void flush_bad_index(); /* an out-of-bounds index no access followed */
void need_kernel_named(); /* trace.cpp: the launch's counters have their kernel */

/* ---- trace_report.cpp ------------------------------------------------------- */
void write_profile();

} /* namespace hipcpu_trace */

#endif
