/* The tracer's counters: lanes in step, their accesses grouped into
 * wave-level requests (segments, sectors, LDS bank cycles), what a block
 * loads between two barriers, basic-block runs. trace_internal.h: the parts;
 * common/executor/README.md, "How accesses become requests": the rules. */
#include "trace_internal.h"

#include <string.h>

#include <algorithm>

namespace hipcpu_trace {

/* ---- Counters ----------------------------------------------------------------- */



/* What the running block has loaded since its last barrier: 64-byte segments
 * and 32-byte sectors. Counted once each per phase, they are the loads that
 * reach L2 when L1 (or the LDS a kernel stages into) keeps what a block
 * re-reads between two barriers. */
std::unordered_set<uint64_t> phase_segments, phase_sectors;
/* What the running block's uniform loads (every lane one address: what a GPU
 * serves from its scalar cache) have touched: the block's scalar working set. */
std::unordered_set<uint64_t> block_uniform_segments, launch_uniform_segments;

/* The busiest wave of each barrier phase: a barrier waits for the slowest
 * wave, so a block's time is the sum over its phases of that wave's path,
 * not the average wave's (one wave's epilogue is not shared by the others).
 * Per guard and wave, the runs in this phase; at the phase's end each guard
 * adds its most (common/model/README.md: the critical path). */
std::vector<uint32_t> phase_guards[kMaxWaves];

void end_phase() {
    if (tracer.kernel) {
        tracer.kernel->c.global_load_phase_segments += phase_segments.size();
        tracer.kernel->c.global_load_phase_sectors += phase_sectors.size();
    }
    phase_segments.clear();
    phase_sectors.clear();
    if (!tracer.counting_blocks || !tracer.kernel) return;
    std::vector<uint64_t> &critical = tracer.kernel->critical_runs;
    if (critical.size() <= tracer.guard_total) critical.resize(tracer.guard_total + 1);
    for (unsigned w = 0; w < kMaxWaves; w++)
        for (uint32_t g : phase_guards[w]) {
            uint32_t &n = tracer.wave_phase_runs[size_t(w) * (tracer.guard_total + 1) + g];
            tracer.guard_wave_most[g] = std::max(tracer.guard_wave_most[g], n);
            n = 0;
        }
    for (unsigned w = 0; w < kMaxWaves; w++) {
        for (uint32_t g : phase_guards[w]) {
            critical[g] += tracer.guard_wave_most[g];
            tracer.guard_wave_most[g] = 0;
        }
        phase_guards[w].clear();
    }
}

/* ---- Which loads reach DRAM --------------------------------------------------- */

/* A load waits for DRAM when its segment is not in L2:
 * - its first load in the launch (every launch starts with a cold L2);
 * - the loads that come while that first one is still in flight (a convoy:
 *   waves in step read one line together, and all of them wait the whole
 *   trip): another wave of the same block in the same barrier phase, or a
 *   block running at the same time at the same point of its work, the same
 *   phase and the same request of its wave. Blocks run at the same time when
 *   they are in the same round of `concurrent_blocks` (a block per CU, in
 *   order);
 * - a re-read after more data came in since its last touch than L2 holds.
 *   The distance is counted in segments first touched in between (the
 *   launch's cold misses: a lower bound on the distinct data between); the
 *   tracer counts re-reads beyond each of kReuseBytes, and the model takes
 *   the two around its device's L2 size.
 * Stores bring their segments in too. */
unsigned concurrent_blocks = 1;
uint32_t wave_requests[kMaxWaves]; /* requests each wave has made in this phase */

void launch_requests_begin(unsigned concurrent) {
    concurrent_blocks = concurrent ? concurrent : 1;
    tracer.block_ordinal = 0;
    tracer.fresh_segments = 0;
}

void phase_requests_begin(bool new_block) {
    tracer.block_phase = new_block ? 0 : tracer.block_phase + 1;
    for (uint32_t &n : wave_requests) n = 0;
    if (tracer.sampling) light_phase_begin();
}

void end_block() {
    if (tracer.kernel) {
        tracer.kernel->c.uniform_blocks += !block_uniform_segments.empty();
        tracer.kernel->c.uniform_block_segments += block_uniform_segments.size();
        if (tracer.sampling && !tracer.light) sample_uniform_block(block_uniform_segments);
    }
    block_uniform_segments.clear();
}

void block_requests_begin() {
    count_block_reuse(); /* none left, but for a request counted outside a round */
    end_block();
    tracer.block_ordinal++;
    tracer.block_clock_start = tracer.block_clock;
    phase_requests_begin(true);
}

void launch_requests_end() {
    count_block_reuse(); /* before the segments' records are cleared */
    end_block();
    if (tracer.kernel)
        tracer.kernel->c.uniform_launch_segments +=
            tracer.sampling ? sample_uniform_launch_segments() : launch_uniform_segments.size();
    launch_uniform_segments.clear();
    for (Alloc &a : tracer.allocs)
        if (a.segments_dirty) {
            const size_t n = (a.end - 1) / 64 - a.base / 64 + 1;
            uint64_t touched = 0;
            for (size_t i = 0; i < n; i++) touched += __builtin_popcountll(a.segments[i].touched);
            if (tracer.kernel) tracer.kernel->c.unique_bytes += touched;
            memset(a.segments, 0, n * sizeof(SegmentState));
            a.segments_dirty = false;
        }
}

/* The allocation's records, made at its first touch in a profile. */
static SegmentState *segment_table(Alloc *a) {
    if (!a->segments) {
        a->segments = static_cast<SegmentState *>(calloc((a->end - 1) / 64 - a->base / 64 + 1, sizeof(SegmentState)));
        if (!a->segments) hipcpu_die("out of memory for the trace of '%s'", a->name.c_str());
    }
    a->segments_dirty = true;
    return a->segments;
}

SegmentState *segment_state(uint64_t unit, uintptr_t addr) {
    Alloc *a = find_alloc(uintptr_t(unit << 6) < addr ? addr : uintptr_t(unit << 6));
    if (!a) return nullptr;
    return &segment_table(a)[unit - a->base / 64];
}

void mark_touched_across(Alloc *a, uintptr_t addr, unsigned size) {
    SegmentState *table = segment_table(a);
    const uintptr_t last = (a->end - 1) / 64; /* the bytes past the buffer's last segment are none of its */
    for (uintptr_t byte = addr; byte < addr + size && byte >> 6 <= last; byte++)
        table[(byte >> 6) - a->base / 64].touched |= uint64_t(1) << (byte & 63);
}

/* Where a request's data comes from, by the rules above: dram (a first load
 * or a convoy), and per kReuseBytes the segments re-read from beyond it (0
 * when dram). Records who touched each segment and when; a load's segments
 * also wait for count_block_reuse. `first` holds the first access's block
 * ordinal (bits 40-63), its block's phase (28-39), its wave (22-27) and its
 * request in the wave's phase (0-21); phases and requests past their fields
 * saturate (and then never match another block's). */
struct RequestSource {
    bool dram;
    unsigned beyond[kReuseBuckets];
};

/* ---- What L1 would keep: the same block's re-reads ------------------------------ */

/* A CU's L1 sees only the blocks it runs, so a load's segment counts per
 * kBlockReuseBytes when the same block loaded it before, within that many
 * bytes of the block's own loads in between: 64 per segment of each of its
 * load requests, repeats included. A first touch by the block is in none,
 * another block's touch does not count (the model scales the distance by the
 * blocks a CU holds), a convoy's wait does (its line is on its way into L1).
 * Stores neither count nor move the clock: an L1 writes through, and a store
 * is not taken to bring its line in.
 * This is the distance since the last touch, not the LRU stack distance
 * (distinct segments in between): never less, so a segment counted within N
 * bytes would hit in an N-byte LRU cache of this block's loads (a lower bound
 * of its hits). The re-reads L1 serves, a tile read again on the next trip of
 * a loop or a neighbour's row by the next wave, have few repeats in between,
 * and the exact distance would cost a search tree over the block's history
 * at every segment; this costs a compare.
 * The clock follows each wave's own order of requests (their age): a round's
 * requests are counted in another order (trace_round_end), which would move
 * a segment's distance by up to a round's loads. So count_request leaves each
 * load's segments here, and count_block_reuse takes them by age once the
 * round's requests are counted. Waves interleave a round at a time. */
struct PendingLoad {
    uint64_t age;
    uint32_t site, first, n; /* its segments: pending_segments[first .. first + n) */
};
std::vector<PendingLoad> pending_loads;
std::vector<SegmentState *> pending_segments;

void count_block_reuse() {
    if (pending_loads.empty()) return;
    std::sort(pending_loads.begin(), pending_loads.end(),
              [](const PendingLoad &x, const PendingLoad &y) { return x.age < y.age; });
    uint64_t counted[kBlockReuseBuckets] = {};
    for (const PendingLoad &p : pending_loads) {
        /* Stamped with the clock after this request: the distance counts only the requests in between. */
        const uint64_t clock = tracer.block_clock, after = clock + 64 * uint64_t(p.n);
        uint64_t *within = tracer.sites[p.site].stats[kGlobal].block_within;
        for (uint32_t j = p.first; j < p.first + p.n; j++) {
            SegmentState *s = pending_segments[j];
            if (s->block_loaded > tracer.block_clock_start) /* this block loaded it */
                for (unsigned b = 0; b < kBlockReuseBuckets; b++) {
                    const bool in = clock - s->block_loaded <= kBlockReuseBytes[b];
                    within[b] += in;
                    counted[b] += in;
                }
            s->block_loaded = after;
        }
        tracer.block_clock = after;
    }
    hipcpu_kernel_counters &c = tracer.kernel->c;
    c.load_segments_block_within_2k += counted[0];
    c.load_segments_block_within_8k += counted[1];
    c.load_segments_block_within_32k += counted[2];
    c.load_segments_block_within_128k += counted[3];
    pending_loads.clear();
    pending_segments.clear();
}

RequestSource request_source(const Group &g) {
    RequestSource src = {};
    const uint64_t when = uint64_t(std::min(tracer.block_phase, 0xFFFu)) << 28 | std::min<uint64_t>(g.order, 0x3FFFFF);
    const uint64_t me = tracer.block_ordinal << 40 | uint64_t(g.wave) << 22 | when;
    uint64_t units[2 * kWave];
    uintptr_t at[2 * kWave];
    unsigned n = 0;
    for (unsigned i = 0; i < g.count; i++)
        for (uint64_t unit = g.addr[i] >> 6; unit <= (g.addr[i] + g.size[i] - 1) >> 6; unit++) {
            bool seen = false;
            for (unsigned j = 0; j < n && !seen; j++) seen = units[j] == unit;
            if (!seen) { units[n] = unit; at[n++] = g.addr[i]; }
        }
    const bool load = g.kind != kStore;
    const size_t pending_first = pending_segments.size();
    for (unsigned j = 0; j < n; j++) {
        SegmentState *s = segment_state(units[j], at[j]);
        if (!s) continue;
        if (load) pending_segments.push_back(s);
        if (s->first == 0) {
            s->first = me;
            s->last = ++tracer.fresh_segments;
            src.dram = true;
            continue;
        }
        const uint64_t block = s->first >> 40, phase = s->first >> 28 & 0xFFF, wave = s->first >> 22 & 0x3F;
        if (block == tracer.block_ordinal)
            src.dram |= phase == std::min(tracer.block_phase, 0xFFFu) && wave != g.wave;
        else
            src.dram |= (block - 1) / concurrent_blocks == (tracer.block_ordinal - 1) / concurrent_blocks &&
                        (s->first & 0xFFF03FFFFFull) == when; /* the same phase and request, any wave */
        const uint64_t distance = (tracer.fresh_segments - s->last) * 64;
        for (unsigned b = 0; b < kReuseBuckets; b++) src.beyond[b] += distance > kReuseBytes[b];
        s->last = tracer.fresh_segments;
    }
    if (load)
        pending_loads.push_back(PendingLoad{g.age, g.site, uint32_t(pending_first),
                                            uint32_t(pending_segments.size() - pending_first)});
    if (src.dram || !load) src = RequestSource{load && src.dram, {}};
    return src;
}

/* ---- Basic blocks: how often each wave ran each one ------------------------------ */

/* The trace build also asks for a call at the start of every basic block of
 * the kernel's code (-fsanitize-coverage=bb,trace-pc-guard), each with its own
 * guard number. A lane's runs of a block are counted until its wave's next
 * sync point; the wave ran the block as often as its busiest lane did. Per
 * kernel and source line, those counts say how often a wave executed the
 * line: the trip counts that make the compiled code's instruction mix into
 * instructions issued (common/model/). */

/* ---- Lanes in step, and their requests -------------------------------------- */





uint64_t group_clock;

/* Distinct values of ids[0..n): sorted input is the common case. */
unsigned count_distinct(uint64_t *ids, unsigned n) {
    if (n == 0) return 0;
    bool sorted = true;
    for (unsigned i = 1; i < n && sorted; i++) sorted = ids[i - 1] <= ids[i];
    if (!sorted) std::sort(ids, ids + n);
    unsigned distinct = 1;
    for (unsigned i = 1; i < n; i++) distinct += ids[i] != ids[i - 1];
    return distinct;
}

/* LDS bank cycles of one request (the model, stated in common/executor/README.md):
 * 32 banks of 4 bytes. The lanes are served in passes of 128 bytes' worth:
 * 32 lanes for accesses of up to 4 bytes, 16 for 8 bytes, 8 for 16 bytes, so
 * a wave64 request takes at least 2 passes, 4, or 8. A pass costs as many
 * cycles as the most distinct 4-byte words that fall in one bank; lanes
 * reading the same word share it (a broadcast). */
unsigned bank_cycles(const Group &g) {
    unsigned widest = 0;
    for (unsigned i = 0; i < g.count; i++) widest = std::max<unsigned>(widest, g.size[i]);
    const unsigned per_pass = widest <= 4 ? 32 : widest <= 8 ? 16 : 8;
    unsigned cycles = 0;
    for (unsigned pass = 0; pass * per_pass < kWave; pass++) {
        /* The pass's distinct words, chained per bank: a word is looked for
         * among its bank's only (usually none or one), and a broadcast's
         * repeats of the last word are skipped at once. */
        uint64_t words[kWave * (kMergeLimit / 4 + 1)];
        int next_in_bank[kWave * (kMergeLimit / 4 + 1)], bank_last[32];
        unsigned per_bank[32] = {}, most = 0, n = 0;
        uint64_t last = ~uint64_t(0);
        for (unsigned i = 0; i < g.count; i++) {
            if (g.lane[i] / per_pass != pass) continue;
            for (uint64_t w = g.addr[i] / 4; w <= (g.addr[i] + g.size[i] - 1) / 4; w++) {
                if (w == last) continue;
                last = w;
                const unsigned bank = unsigned(w % 32);
                bool seen = false;
                for (int k = per_bank[bank] ? bank_last[bank] : -1; k >= 0 && !seen; k = next_in_bank[k])
                    seen = words[k] == w;
                if (seen) continue;
                words[n] = w;
                next_in_bank[n] = per_bank[bank] ? bank_last[bank] : -1;
                bank_last[bank] = int(n++);
                most = std::max(most, ++per_bank[bank]);
            }
        }
        cycles += most;
    }
    return cycles;
}

/* Distinct (1 << shift)-byte units (segments, sectors) one global request
 * touches; a load's are also remembered in its block's phase set. */
unsigned count_units(const Group &g, unsigned shift, std::unordered_set<uint64_t> *phase) {
    uint64_t ids[2 * kWave]; /* an access of up to 16 bytes spans at most 2 units */
    unsigned n = 0;
    for (unsigned i = 0; i < g.count; i++)
        for (uint64_t unit = g.addr[i] >> shift; unit <= (g.addr[i] + g.size[i] - 1) >> shift; unit++) ids[n++] = unit;
    const unsigned distinct = count_distinct(ids, n); /* sorts ids */
    if (phase)
        for (unsigned i = 0; i < n; i++)
            if (i == 0 || ids[i] != ids[i - 1]) phase->insert(ids[i]);
    return distinct;
}

void count_request(const Group &g) {
    Site &site = tracer.sites[g.site];
    SiteStats &s = site.stats[g.space];
    uint64_t bytes = 0;
    for (unsigned i = 0; i < g.count; i++) bytes += g.size[i];
    s.requests++;
    s.lanes += g.count;
    s.bytes += bytes;
    if (g.space == kGlobal) {
        std::unordered_set<uint64_t> *segment_set = g.kind == kStore ? nullptr : &phase_segments;
        const unsigned segments = count_units(g, 6, segment_set);
        const unsigned sectors = count_units(g, 5, segment_set ? &phase_sectors : nullptr);
        s.segments += segments;
        s.sectors += sectors;
        const RequestSource src = request_source(g);
        const bool dram = src.dram;
        s.dram_requests += dram;
        for (unsigned b = 0; b < kReuseBuckets; b++) s.beyond[b] += src.beyond[b] > 0;
        hipcpu_kernel_counters &c = tracer.kernel->c;
        if (g.kind == kStore) {
            c.global_store_requests++;
            c.global_store_bytes += bytes;
            c.global_store_segments += segments;
            c.global_store_sectors += sectors;
        } else {
            c.global_load_requests++;
            c.global_load_bytes += bytes;
            c.global_load_segments += segments;
            c.global_load_sectors += sectors;
            bool uniform = true;
            for (unsigned i = 1; i < g.count && uniform; i++)
                uniform = g.addr[i] == g.addr[0] && g.size[i] == g.size[0];
            c.uniform_load_requests += uniform;
            c.global_load_dram_requests += dram;
            c.load_segments_beyond_256k += src.beyond[0];
            c.load_segments_beyond_1m += src.beyond[1];
            c.load_segments_beyond_4m += src.beyond[2];
            c.load_segments_beyond_16m += src.beyond[3];
            c.load_segments_beyond_64m += src.beyond[4];
            c.load_segments_beyond_256m += src.beyond[5];
            if (uniform)
                for (uint64_t unit = g.addr[0] >> 6; unit <= (g.addr[0] + g.size[0] - 1) >> 6; unit++)
                    block_uniform_segments.insert(unit), launch_uniform_segments.insert(unit);
        }
    } else {
        const unsigned cycles = bank_cycles(g);
        s.bank_cycles += cycles;
        hipcpu_kernel_counters &c = tracer.kernel->c;
        (g.kind == kStore ? c.lds_write_requests : c.lds_read_requests)++;
        c.lds_requests++;
        c.lds_bytes += bytes;
        c.lds_bank_cycles += cycles;
    }
}

/* `hint`: where the group is when the lanes run the same code, the usual case. */
void add_to_group(unsigned wave, unsigned lane, const Access &a, size_t hint) {
    std::vector<Group> &groups = tracer.open_groups[wave];
    Group *g = nullptr;
    auto same = [&](const Group &x) { return x.site == a.site && x.n == a.n && x.space == a.space; };
    if (hint < groups.size() && same(groups[hint])) {
        g = &groups[hint];
    } else {
        for (size_t i = groups.size(); i-- > 0;)
            if (same(groups[i])) {
                g = &groups[i];
                break;
            }
    }
    if (!g) {
        if (groups.size() >= kMaxOpenGroups) { /* count the oldest now, as it is */
            auto oldest = std::min_element(groups.begin(), groups.end(),
                                           [](const Group &x, const Group &y) { return x.age < y.age; });
            count_request(*oldest);
            *oldest = groups.back();
            groups.pop_back();
        }
        groups.emplace_back();
        g = &groups.back();
        g->site = a.site;
        g->n = a.n;
        g->kind = a.kind;
        g->space = a.space;
        g->wave = uint8_t(wave);
        g->order = wave_requests[wave]++;
        g->count = 0;
        g->joined = 0;
        g->age = group_clock++;
    }
    g->addr[g->count] = a.addr;
    g->size[g->count] = a.size;
    g->lane[g->count] = uint8_t(lane);
    g->count++;
    g->joined |= uint64_t(1) << lane;
}

/* A wave reached a sync point: each basic block its lanes ran since the last
 * one counts as many wave-level runs as its busiest lane made. */
void end_block_counts(unsigned first, unsigned lanes) {
    std::vector<uint64_t> &runs = tracer.kernel->block_runs;
    if (runs.size() <= tracer.guard_total) runs.resize(tracer.guard_total + 1);
    for (unsigned i = 0; i < lanes; i++)
        for (uint32_t g : tracer.guards_touched[first + i]) {
            uint32_t &n = tracer.guard_lane_runs[size_t(g) * kMaxThreads + first + i];
            tracer.guard_wave_most[g] = std::max(tracer.guard_wave_most[g], n);
            n = 0;
        }
    const unsigned wave = first / kWave;
    uint32_t *phase_runs = &tracer.wave_phase_runs[size_t(wave) * (tracer.guard_total + 1)];
    for (unsigned i = 0; i < lanes; i++) {
        for (uint32_t g : tracer.guards_touched[first + i]) {
            if (tracer.guard_wave_most[g] && phase_runs[g] == 0) phase_guards[wave].push_back(g);
            phase_runs[g] += tracer.guard_wave_most[g];
            runs[g] += tracer.guard_wave_most[g];
            tracer.guard_wave_most[g] = 0;
        }
        tracer.guards_touched[first + i].clear();
    }
}

void reset_counts(unsigned thread) {
    Lane &l = tracer.lane_state[thread];
    for (uint32_t s : l.counted) tracer.site_counts[size_t(s) * kMaxThreads + thread] = 0;
    l.counted.clear();
}

/* A thread's access, in the profile: widen its open access, or log a new one;
 * with a full log, first stop so that the wave's other lanes catch up. */
void profile_access(uintptr_t addr, unsigned size, Kind kind, Space space, uint32_t site) {
    const unsigned thread = hipcpu_current_linear;
    Lane &l = tracer.lane_state[thread];
    for (int pass = 0; pass < 2; pass++) {
        if (l.length) {
            Access &open = l.log[l.length - 1];
            /* Other instructions of the same line, on the next bytes: one wider
             * access, as a struct copy or an unrolled body compiles to on a GPU.
             * The same instruction again is a loop's next iteration: not merged. */
            const uint64_t bit = uint64_t(1) << (site % 64);
            if (open.kind == kind && open.space == space && open.addr + open.size == addr &&
                open.size + size <= kMergeLimit && !(open.merged & bit) &&
                tracer.sites[open.site].line_id == tracer.sites[site].line_id) {
                open.size = uint16_t(open.size + size);
                open.merged |= bit;
                return;
            }
        }
        if (l.length < kLogLength) break;
        l.stopped = true;
        hipcpu_suspend_at_access(); /* the round's end keeps only the open access */
    }
    uint32_t &count = tracer.site_counts[size_t(site) * kMaxThreads + thread];
    if (count++ == 0) l.counted.push_back(site);
    l.log[l.length++] = {addr, uint64_t(1) << (site % 64), site, count, uint16_t(size), uint8_t(kind),
                         uint8_t(space), true};
}

} /* namespace hipcpu_trace */
