/* Sampling (HIPCPU_SAMPLE_BLOCKS=N, profile only): a launch of more blocks
 * than N traces about N of them in full and scales their counts to the
 * grid, as GPU simulators sample a kernel's thread blocks rather than
 * simulate all of them. The other blocks still run, so the program's results
 * stay right, in a light mode: no lane stops at an access and no request is
 * formed, but each access is tallied by space and kind, global ones mark
 * their bytes touched (unique_bytes) and their segments' first and last touch
 * (what later traced blocks read as DRAM or re-read distance), and atomics,
 * barriers and shuffles are counted as in a full trace.
 *
 * The traced blocks are whole rounds of concurrent_blocks consecutive blocks
 * (the blocks a GPU would run at once: trace_requests.cpp's convoys), spread
 * evenly over the launch. A counter of requests is scaled by the exact
 * bytes of its space and kind over the traced blocks' bytes (a ratio
 * estimator: a tail tile's or a data-dependent block's lighter work weighs
 * less), per kernel and per call site; common/executor/README.md, "Sampling". */
#include "trace_internal.h"

#include "../executor/settings.h"

#include <math.h>
#include <string.h>

#include <algorithm>

namespace hipcpu_trace {

uint64_t sample_rounds, launch_rounds; /* traced rounds, and all of them, in this launch */
uint64_t sample_grid_blocks, traced_blocks_now; /* blocks in this launch, and traced so far */
unsigned block_threads;
uint64_t round_first; /* the ordinal of the running block's round's first block */
uint64_t traced_bytes[2][2]; /* [space][load/store]: the traced blocks' bytes (TraceState::all_bytes: every block's) */
std::unordered_map<uint64_t, uint32_t> uniform_seen; /* uniform segment: traced blocks that loaded it */

/* The untraced blocks' loads from DRAM and re-reads, counted exactly as
 * trace_requests.cpp's request_source counts them, per request: a lane's
 * n-th global access in its barrier phase stands for its wave's n-th
 * request (the lanes of an untraced block run one after another, and a
 * wave's lanes take the same path). Only untraced blocks compare these
 * numbers with each other: rounds are traced or untraced whole. */
constexpr unsigned kLightOrders = 4096; /* requests per wave and phase told apart; later ones each count */
struct LightLane {
    uint64_t phase;     /* light_phase when the fields below were last reset */
    uint32_t order;     /* global accesses (merged as profile_access merges them) in this phase */
    uint32_t since_stop; /* global accesses since the lane last stopped for its wave */
    uintptr_t end;      /* the end of the last access, for merging */
    uint32_t site, size;
};
LightLane light_lane[kMaxThreads];
uint64_t light_phase; /* a new number at every barrier phase of an untraced block */
/* Per request: bit 7 made, bit 0 DRAM, bit 1 + b beyond kReuseBytes[b]. */
uint8_t light_counted[kMaxWaves][kLightOrders];
/* Per request: the last 64-byte segment and 32-byte sector its lanes touched,
 * so that the lanes' ascending addresses (the usual order) count each once. */
uint64_t light_last_segment[kMaxWaves][kLightOrders], light_last_sector[kMaxWaves][kLightOrders];
uint32_t light_top[kMaxWaves];          /* orders used in this phase (the highest + 1), for the reset */
uint64_t light_dram, light_beyond[kReuseBuckets];
struct LightSite {
    uint64_t requests, lanes, bytes, segments, sectors, dram, beyond[kReuseBuckets];
};
std::vector<LightSite> light_sites; /* [site]: the untraced blocks' global accesses, exact */

/* Before the launch's counts: the kernel's and the sites' totals, so that
 * only this launch's part is scaled. */
hipcpu_kernel_counters before;
std::vector<uint64_t> before_runs, before_critical;
std::vector<SiteStats> before_sites; /* [site * 2 + space] */

/* What the report says, per kernel: sampled launches, traced and all blocks. */
struct SampleNote {
    std::string kernel;
    uint64_t launches, traced, blocks, full_launches;
    bool missing_class; /* a space and kind the untraced blocks used and no traced block did */
};
std::vector<SampleNote> notes;

static SampleNote &note_for(const std::string &name) {
    for (SampleNote &n : notes)
        if (n.kernel == name) return n;
    notes.push_back(SampleNote{name, 0, 0, 0, 0, false});
    return notes.back();
}

void sample_launch_begin(uint64_t blocks, unsigned threads, unsigned concurrent) {
    tracer.sampling = tracer.light = tracer.light_plain = false;
    const uint64_t wanted = hipcpu_setting_value(hipcpu_env::HIPCPU_SAMPLE_BLOCKS);
    if (!wanted || tracer.race_on || !tracer.profile_on) return; /* the race check sees every block */
    launch_rounds = (blocks + concurrent - 1) / concurrent;
    sample_rounds = (wanted + concurrent - 1) / concurrent;
    if (sample_rounds >= launch_rounds) return; /* a grid no bigger than the sample: traced whole */
    tracer.sampling = true;
    sample_grid_blocks = blocks;
    block_threads = threads;
    traced_blocks_now = 0;
    memset(tracer.all_bytes, 0, sizeof tracer.all_bytes);
    memset(traced_bytes, 0, sizeof traced_bytes);
    light_dram = 0;
    memset(light_beyond, 0, sizeof light_beyond);
    light_sites.assign(tracer.sites.size(), LightSite());
    uniform_seen.clear();
}

/* The kernel is known: remember its totals before this launch. */
void sample_kernel_known() {
    if (!tracer.sampling) return;
    before = tracer.kernel->c;
    before_runs = tracer.kernel->block_runs;
    before_critical = tracer.kernel->critical_runs;
    before_sites.resize(tracer.sites.size() * 2);
    for (size_t i = 0; i < tracer.sites.size(); i++)
        for (int s = 0; s < 2; s++) before_sites[i * 2 + s] = tracer.sites[i].stats[s];
}

/* Block `ordinal` (from 1, in run order) begins. The traced rounds are the
 * middle ones of sample_rounds equal stretches of the launch: the first
 * round (a cold cache) and the last (a tail) are typical of nothing. */
void sample_block_begin(uint64_t ordinal, unsigned concurrent) {
    if (!tracer.sampling) return;
    const uint64_t r = (ordinal - 1) / concurrent;
    const uint64_t k = r * sample_rounds / launch_rounds; /* the stretch r lies in */
    tracer.light = r != (2 * k + 1) * launch_rounds / (2 * sample_rounds);
    round_first = r * concurrent + 1;
    tracer.light_plain = tracer.light;
    traced_blocks_now += !tracer.light;
}

/* A traced access, for the ratios. */
void sample_tally(Space space, Kind kind, unsigned size) {
    tracer.all_bytes[space][kind != kLoad] += size;
    traced_bytes[space][kind != kLoad] += size;
}

void light_phase_begin() {
    light_phase++;
    for (unsigned w = 0; w < kMaxWaves; w++)
        if (light_top[w]) { /* a call per wave at every barrier costs more than the bytes it clears */
            memset(light_counted[w], 0, light_top[w]);
            light_top[w] = 0;
        }
}

/* The lanes of a wave go in step, as a trace's do (kLogLength accesses at a
 * time), so that a segment's re-read distance is what a trace sees. */
static inline void lane_step(LightLane &lane) {
    if (++lane.since_stop >= kLogLength) {
        lane.since_stop = 0;
        hipcpu_suspend_at_access();
    }
}

/* An untraced block's access: tallied, and a global one's bytes and
 * segments marked, its DRAM and re-read counted, as a traced one's would be.
 * Its segments' first touch is stamped as request_source stamps them, with
 * the lane's global access number for the request. */
void light_access(uintptr_t addr, unsigned size, Kind kind, uintptr_t pc) {
    Alloc *a = find_alloc(addr);
    if (!a) return;
    tracer.all_bytes[kGlobal][kind != kLoad] += size;
    mark_touched(a, addr, size);
    const unsigned thread = hipcpu_current_linear, wave = thread / kWave;
    LightLane &lane = light_lane[thread];
    if (lane.phase != light_phase) lane = LightLane{light_phase, 0, 0, 0, 0, 0}; /* a barrier: a trace flushes its lanes there too */
    const uint32_t site = site_of(pc, kind, addr).index;
    if (site >= light_sites.size()) light_sites.resize(tracer.sites.size(), LightSite());
    LightSite &ls = light_sites[site];
    ls.bytes += size;
    /* The next bytes from another instruction of the same line: one wider
     * access, as profile_access widens it. */
    const std::vector<Site> &sites = tracer.sites;
    const bool merged = lane.order && addr == lane.end && site != lane.site && lane.size + size <= kMergeLimit &&
                        sites[site].line_id == sites[lane.site].line_id && sites[site].kind == sites[lane.site].kind;
    lane.end = addr + size;
    lane.site = site;
    lane.size = merged ? lane.size + size : size;
    const uint32_t order = merged ? lane.order - 1 : lane.order++;
    uint8_t none = 0, *counted = order < kLightOrders ? &light_counted[wave][order] : &none;
    if (order < kLightOrders) light_top[wave] = std::max(light_top[wave], order + 1);
    if (!merged) {
        ls.lanes++;
        if (!(*counted & 0x80)) { /* the first lane of its wave there: a request */
            *counted |= 0x80;
            ls.requests++;
            if (order < kLightOrders) light_last_segment[wave][order] = light_last_sector[wave][order] = ~0ull;
        }
    }
    uint64_t no_segment = ~0ull, no_sector = ~0ull;
    uint64_t &last_segment = order < kLightOrders ? light_last_segment[wave][order] : no_segment;
    uint64_t &last_sector = order < kLightOrders ? light_last_sector[wave][order] : no_sector;
    for (uint64_t unit = addr >> 5; unit <= (addr + size - 1) >> 5; unit++) {
        if (unit != last_sector) ls.sectors++;
        if (unit >> 1 != last_segment) ls.segments++;
        last_sector = unit;
        last_segment = unit >> 1;
    }
    const uint64_t phase = std::min(tracer.block_phase, 0xFFFu);
    const uint64_t when = phase << 28 | std::min<uint64_t>(order, 0x3FFFFF);
    bool dram = false, reread = false;
    unsigned beyond_segments[kReuseBuckets] = {}; /* segments re-read past each distance */
    for (uint64_t unit = addr >> 6; unit <= (addr + size - 1) >> 6; unit++) {
        /* The allocation's own table, without a second look-up, in the usual case. */
        SegmentState *s = a->segments && unit >= a->base / 64 && unit <= (a->end - 1) / 64
                              ? (a->segments_dirty = true, &a->segments[unit - a->base / 64])
                              : segment_state(unit, addr);
        if (!s) continue;
        if (s->first == 0) {
            s->first = tracer.block_ordinal << 40 | uint64_t(wave) << 22 | when;
            s->last = ++tracer.fresh_segments;
            dram = true;
            continue;
        }
        const uint64_t block = s->first >> 40;
        if (block == tracer.block_ordinal)
            dram |= (s->first >> 28 & 0xFFF) == phase && (s->first >> 22 & 0x3F) != wave;
        else
            dram |= block >= round_first && (s->first & 0xFFF03FFFFFull) == when;
        const uint64_t distance = (tracer.fresh_segments - s->last) * 64;
        /* The distances grow with the bucket: the first one not passed ends the count. */
        for (unsigned b = 0; b < kReuseBuckets && distance > kReuseBytes[b]; b++) {
            beyond_segments[b]++;
            reread = true;
        }
        s->last = tracer.fresh_segments;
    }
    if (kind != kLoad) return lane_step(lane);
    /* A request from DRAM is no re-read (request_source): the first lane's
     * DRAM stands for its request's. */
    dram |= (*counted & 1) != 0;
    if (dram && !(*counted & 1)) { /* the site's counters are per request */
        *counted |= 1;
        light_dram++;
        ls.dram++;
    }
    if (reread && !dram)
        for (unsigned b = 0; b < kReuseBuckets && beyond_segments[b]; b++) {
            light_beyond[b] += beyond_segments[b]; /* the kernel's counter is per segment */
            if (!(*counted >> (b + 1) & 1)) {
                *counted |= uint8_t(2u << b);
                ls.beyond[b]++;
            }
        }
    lane_step(lane);
}

/* A traced block's uniform segments, for uniform_launch_segments. */
void sample_uniform_block(const std::unordered_set<uint64_t> &segments) {
    for (uint64_t s : segments) uniform_seen[s]++;
}

/* Distinct segments the launch's uniform loads touch: those two or more
 * traced blocks loaded are taken to be every block's, those one loaded one
 * block's own, of which the untraced blocks have as many again each. */
uint64_t sample_uniform_launch_segments() {
    uint64_t shared = 0, own = 0;
    for (const auto &e : uniform_seen) (e.second > 1 ? shared : own)++;
    uniform_seen.clear();
    return shared + uint64_t(llround(double(own) * double(sample_grid_blocks) / double(traced_blocks_now)));
}

static double ratio(uint64_t all, uint64_t traced, double fallback, bool *missing) {
    if (traced) return double(all) / double(traced);
    if (all) *missing = true;
    return fallback;
}

static uint64_t scaled(uint64_t before_value, uint64_t now, double factor) {
    return before_value + uint64_t(llround(double(now - before_value) * factor));
}

/* The kernel's basic-block runs in this launch, scaled by `factor`. */
static void scale_runs(KernelStats &k, double factor) {
    for (size_t g = 0; g < k.block_runs.size(); g++)
        k.block_runs[g] = scaled(g < before_runs.size() ? before_runs[g] : 0, k.block_runs[g], factor);
    for (size_t g = 0; g < k.critical_runs.size(); g++)
        k.critical_runs[g] = scaled(g < before_critical.size() ? before_critical[g] : 0, k.critical_runs[g], factor);
}

/* The same block's re-reads (block_within) come from traced blocks alone:
 * an untraced block's lanes run one after another, with no order of
 * requests to measure a block's distance by. Per load site, they are scaled
 * by the site's segments, all blocks' (exact) over the traced blocks', so
 * that their share of the site's segments is the traced blocks'; a site no
 * traced block reached gets the launch's traced share. The kernel's counts
 * are its sites' sums. `traced`: [site] the traced blocks' load segments in
 * this launch; the sites' segments are every block's by now. */
static void scale_block_within(hipcpu_kernel_counters &c, const std::vector<uint64_t> &traced) {
    uint64_t *within[kBlockReuseBuckets] = {&c.load_segments_block_within_2k, &c.load_segments_block_within_8k,
                                            &c.load_segments_block_within_32k, &c.load_segments_block_within_128k};
    uint64_t launch_within[kBlockReuseBuckets] = {}, launch_segments = 0;
    for (size_t i = 0; i < traced.size(); i++) {
        const SiteStats &s = tracer.sites[i].stats[kGlobal];
        const SiteStats b = i * 2 < before_sites.size() ? before_sites[i * 2] : SiteStats();
        launch_segments += traced[i];
        for (unsigned k = 0; k < kBlockReuseBuckets; k++) launch_within[k] += s.block_within[k] - b.block_within[k];
    }
    for (size_t i = 0; i < traced.size(); i++) {
        SiteStats &s = tracer.sites[i].stats[kGlobal];
        const SiteStats b = i * 2 < before_sites.size() ? before_sites[i * 2] : SiteStats();
        const uint64_t all = s.segments - b.segments;
        if (tracer.sites[i].kind != kLoad || all == traced[i]) continue; /* no untraced block's load here */
        for (unsigned k = 0; k < kBlockReuseBuckets; k++) {
            const uint64_t now = s.block_within[k] - b.block_within[k];
            const uint64_t estimate =
                traced[i] ? uint64_t(llround(double(now) * double(all) / double(traced[i])))
                : launch_segments ? uint64_t(llround(double(all) * double(launch_within[k]) / double(launch_segments)))
                                  : 0;
            s.block_within[k] = b.block_within[k] + estimate;
            *within[k] += estimate - now; /* the traced blocks' part is in already */
        }
    }
}

/* The launch is over (its unique bytes added, its atomics' most not yet: both
 * exact): each counter of the traced blocks scaled to the grid. */
void sample_launch_end(uint64_t blocks) {
    if (!tracer.sampling) return;
    tracer.light = tracer.light_plain = false;
    tracer.sampling = false;
    hipcpu_kernel_counters &c = tracer.kernel->c;
    SampleNote &note = note_for(tracer.kernel->name);
    note.launches++;
    note.traced += traced_blocks_now;
    note.blocks += blocks;
    bool missing = false;
    const uint64_t(&all_bytes)[2][2] = tracer.all_bytes;
    const double by_blocks = double(blocks) / double(traced_blocks_now);
    const double gl = ratio(all_bytes[kGlobal][0], traced_bytes[kGlobal][0], by_blocks, &missing);
    const double sr = ratio(all_bytes[kShared][0], traced_bytes[kShared][0], by_blocks, &missing);
    const double sw = ratio(all_bytes[kShared][1], traced_bytes[kShared][1], by_blocks, &missing);
    /* Basic-block runs follow the work: every access's bytes (a tally per
     * basic block would cost the untraced blocks more than all the rest). */
    const double work = ratio(all_bytes[0][0] + all_bytes[0][1] + all_bytes[1][0] + all_bytes[1][1],
                              traced_bytes[0][0] + traced_bytes[0][1] + traced_bytes[1][0] + traced_bytes[1][1], by_blocks,
                              &missing);

    /* Global call sites: requests, lanes, bytes, DRAM and re-reads exact (the
     * untraced blocks counted them); segments and sectors by the site's bytes. */
    uint64_t requests[2] = {}, segments[2] = {}, sectors[2] = {}, traced_loads = 0; /* this launch's, [load/store] */
    std::vector<size_t> shared_sites;
    std::vector<uint64_t> traced_segments(tracer.sites.size()); /* [site]: its traced blocks' load segments */
    for (size_t i = 0; i < tracer.sites.size(); i++)
        for (int space = 0; space < 2; space++) {
            SiteStats &s = tracer.sites[i].stats[space];
            const SiteStats b = i * 2 + space < before_sites.size() ? before_sites[i * 2 + space] : SiteStats();
            const bool store = tracer.sites[i].kind != kLoad;
            if (space == kShared) { /* requests as the global ones go (below), lanes and bytes as the bytes */
                shared_sites.push_back(i);
                const double f = store ? sw : sr;
                s.lanes = scaled(b.lanes, s.lanes, f);
                s.bytes = scaled(b.bytes, s.bytes, f);
                continue;
            }
            const LightSite ls = i < light_sites.size() ? light_sites[i] : LightSite();
            if (!store) traced_loads += s.requests - b.requests;
            if (!store) traced_segments[i] = s.segments - b.segments;
            s.requests += ls.requests;
            s.lanes += ls.lanes;
            s.bytes += ls.bytes;
            s.segments += ls.segments;
            s.sectors += ls.sectors;
            s.dram_requests += ls.dram;
            for (unsigned k = 0; k < kReuseBuckets; k++) s.beyond[k] += ls.beyond[k];
            requests[store] += s.requests - b.requests;
            segments[store] += s.segments - b.segments;
            sectors[store] += s.sectors - b.sectors;
        }
    const double load_requests = ratio(requests[0], traced_loads, gl, &missing);
    /* LDS requests and basic-block runs go by waves and their trips, as the
     * global requests do (exact), not by bytes (a tail tile's partial waves
     * make as many requests with fewer bytes). */
    uint64_t traced_requests = 0;
    for (size_t i = 0; i < tracer.sites.size(); i++) {
        const SiteStats b = i * 2 < before_sites.size() ? before_sites[i * 2] : SiteStats();
        const uint64_t light_requests = i < light_sites.size() ? light_sites[i].requests : 0;
        traced_requests += tracer.sites[i].stats[kGlobal].requests - b.requests - light_requests;
    }
    const double by_requests = ratio(requests[0] + requests[1], traced_requests, work, &missing);
    c.uniform_load_requests = scaled(before.uniform_load_requests, c.uniform_load_requests, load_requests);
    c.global_load_requests = before.global_load_requests + requests[0];
    c.global_load_segments = before.global_load_segments + segments[0];
    c.global_load_sectors = before.global_load_sectors + sectors[0];
    c.global_store_requests = before.global_store_requests + requests[1];
    c.global_store_segments = before.global_store_segments + segments[1];
    c.global_store_sectors = before.global_store_sectors + sectors[1];
#define HIPCPU_SCALE(name, factor) c.name = scaled(before.name, c.name, factor);
    HIPCPU_SCALE(global_load_phase_segments, gl)
    HIPCPU_SCALE(global_load_phase_sectors, gl)
    HIPCPU_SCALE(uniform_blocks, by_blocks)
    HIPCPU_SCALE(uniform_block_segments, by_blocks)
    HIPCPU_SCALE(lds_read_requests, by_requests)
    HIPCPU_SCALE(lds_write_requests, by_requests)
    HIPCPU_SCALE(lds_bank_cycles, by_requests)
#undef HIPCPU_SCALE
    /* DRAM and re-reads: counted in every block, not scaled. */
    c.global_load_dram_requests += light_dram;
    uint64_t *beyond[kReuseBuckets] = {&c.load_segments_beyond_256k, &c.load_segments_beyond_1m, &c.load_segments_beyond_4m,
                                       &c.load_segments_beyond_16m, &c.load_segments_beyond_64m, &c.load_segments_beyond_256m};
    for (unsigned k = 0; k < kReuseBuckets; k++) *beyond[k] += light_beyond[k];
    scale_block_within(c, traced_segments);
    for (size_t i : shared_sites) {
        SiteStats &s = tracer.sites[i].stats[kShared];
        const SiteStats b = i * 2 + 1 < before_sites.size() ? before_sites[i * 2 + 1] : SiteStats();
        s.requests = scaled(b.requests, s.requests, by_requests);
        s.bank_cycles = scaled(b.bank_cycles, s.bank_cycles, by_requests);
    }
    c.lds_requests = c.lds_read_requests + c.lds_write_requests + (before.lds_requests - before.lds_read_requests -
                                                                   before.lds_write_requests);
    /* Bytes are exact: every block's were tallied. */
    c.global_load_bytes = before.global_load_bytes + all_bytes[kGlobal][0];
    c.global_store_bytes = before.global_store_bytes + all_bytes[kGlobal][1];
    c.lds_bytes = before.lds_bytes + all_bytes[kShared][0] + all_bytes[kShared][1];
    scale_runs(*tracer.kernel, by_requests);
    note.missing_class |= missing;
}

/* A launch of a kernel traced whole while sampling was asked for. */
void sample_full_launch() {
    if (hipcpu_setting_value(hipcpu_env::HIPCPU_SAMPLE_BLOCKS) && tracer.kernel)
        note_for(tracer.kernel->name).full_launches++;
}

/* One line per kernel, to HIPCPU_PROFILE's file + ".sampling": what was
 * sampled, from how many blocks. */
void write_sampling(const std::string &path) {
    if (!hipcpu_setting_value(hipcpu_env::HIPCPU_SAMPLE_BLOCKS)) return;
    FILE *f = fopen((path + ".sampling").c_str(), "w");
    if (!f) return;
    fprintf(f, "kernel\tsampled_launches\ttraced_blocks\tblocks\tfull_launches\tnote\n");
    for (const SampleNote &n : notes)
        fprintf(f, "%s\t%lu\t%lu\t%lu\t%lu\t%s\n", n.kernel.c_str(), (unsigned long)n.launches,
                (unsigned long)n.traced, (unsigned long)n.blocks, (unsigned long)n.full_launches,
                n.missing_class ? "approximate: the traced blocks made no access of a kind the others made" : "-");
    fclose(f);
}

} /* namespace hipcpu_trace */
