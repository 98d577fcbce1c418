/* The time model's library (timemodel.h; the terms and their limits: README.md beside it). */
#include "timemodel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double max2(double a, double b) { return a > b ? a : b; }

/* How much busier the busiest of `units` is than the average, when `items`
 * (blocks, waves) are dealt to them whole: 123 waves on 240 SIMDs leave the
 * busiest with 1, not 0.51. */
static double imbalance(double items, double units) {
    if (items <= 0 || units <= 0) return 1;
    return ceil(items / units) / (items / units);
}

static const char *plural(double n) { return fabs(n - 1) < 1e-9 ? "" : "s"; }

/* Of counts of re-reads beyond each of model_reuse_bytes, those beyond
 * `capacity`: between two distances, in a straight line in log2 of the
 * distance; below the first, the first's; above the last, the last's. NAN
 * if the counts are unknown. */
static double beyond_capacity(const double *beyond, double capacity) {
    if (isnan(beyond[0])) return NAN;
    if (capacity <= model_reuse_bytes[0]) return beyond[0];
    for (int i = 0; i + 1 < MODEL_REUSE_BUCKETS; i++)
        if (capacity <= model_reuse_bytes[i + 1]) {
            const double f = log2(capacity / model_reuse_bytes[i]) / log2(model_reuse_bytes[i + 1] / model_reuse_bytes[i]);
            return beyond[i] + f * (beyond[i + 1] - beyond[i]);
        }
    return beyond[MODEL_REUSE_BUCKETS - 1];
}

/* The cycles of a wait's data: a global load's are L2's, or DRAM's for the
 * share of its requests that reach DRAM (first touch, or a convoy behind
 * one: the trace's dram_requests); a scalar load's, the scalar cache's, or
 * L2's for the share its working set does not fit; an LDS read's, the LDS's.
 * Latencies in nanoseconds become cycles at the device's own clock. */
static double wait_latency(const ModelDevice *d, const ModelWait *w, const ModelResult *r) {
    const double l2 = d->l2_latency_ns * d->clock_ghz, dram = d->dram_latency_ns * d->clock_ghz;
    if (w->counter == MODEL_WAIT_MEMORY) {
        double share = r->dram_share;
        if (!isnan(w->dram_share)) {
            const double reread = beyond_capacity(w->beyond_share, d->l2_bytes);
            share = fmin(1, w->dram_share + (isnan(reread) ? 0 : reread));
        }
        return l2 + share * (dram - l2);
    }
    if (w->counter == MODEL_WAIT_LDS) return d->lds_latency_cycles;
    return d->scalar_latency_cycles + r->scalar_miss * (l2 - d->scalar_latency_cycles);
}

/* The cycles a wait leaves a wave waiting: its latency less what the
 * instructions since its load covered. */
static double exposed(const ModelDevice *d, const ModelWait *w, const ModelResult *r) {
    return max2(0, wait_latency(d, w, r) - w->distance * d->valu_issue_cycles);
}

/* The share of a working set that a cache of `capacity` bytes cannot hold:
 * what lies beyond the capacity misses (0 when it fits). */
static double beyond(double working_set, double capacity) {
    return working_set > capacity && working_set > 0 ? 1 - capacity / working_set : 0;
}

static int is_bandwidth_term(int t) {
    return t == MODEL_TERM_dram || t == MODEL_TERM_l2 || t == MODEL_TERM_l1 || t == MODEL_TERM_lds;
}

/* What model_kernel's steps hand on to each other: the launch's shape on
 * the device, the bytes through each cache level, the critical path. */
typedef struct {
    double ms_per_cycle, launches, simds;
    double waves_per_block, per_wave, waves_per_launch, blocks_per_launch;
    double simd_waves; /* waves on the busiest SIMD, per launch */
    double cu_factor;  /* the busiest CU's blocks over the average CU's */
    double batches;    /* rounds of resident blocks on the busiest CU, over all launches */
    double segment_bytes;
    int sectors; /* the device's memory unit is a 32-byte sector (NVIDIA), not a 64-byte segment */
    double l1_bytes, l2_bytes;
    double trips, path, memory_exposed_per_wave;
    double hot_atomics; /* atomics on the busiest address, over all launches */
    int cas;            /* they are compare-and-swap loops */
} KernelShape;

/* The device's waves, and where they go: blocks to CUs, waves to SIMDs,
 * how many at a time. */
static void place_blocks(const ModelDevice *d, const ModelCounters *c, const ModelCode *code, KernelShape *s,
                         ModelResult *out) {
    const double hz = d->clock_ghz * 1e9;
    s->ms_per_cycle = 1e3 / hz;
    s->launches = c->launches > 0 ? c->launches : 1;
    s->simds = d->compute_units * d->simds_per_cu;

    /* The device's waves: each block rounded up to whole waves of its size.
     * The compiled code's counts are per wave, whatever its width. */
    const double threads_per_block = c->blocks > 0 ? c->threads / c->blocks : 0;
    s->waves_per_block = ceil(threads_per_block / d->wave_size);
    out->waves = c->blocks * s->waves_per_block;
    s->per_wave = c->traced_waves > 0 ? 1 / c->traced_waves : 0;
    s->waves_per_launch = out->waves / s->launches;
    s->blocks_per_launch = c->blocks / s->launches;
    /* Placement: blocks are dealt whole to the CUs, and a block's waves to
     * the SIMDs of its CU (a workgroup runs on one CU: GCN whitepaper; CUDA
     * guide, thread hierarchy). 25 blocks of 5 waves on 60 CUs leave the
     * busiest SIMD 2 waves, not the 0.52 of 125 waves over 240 SIMDs. */
    out->busiest_cu_blocks = s->blocks_per_launch > 0 ? ceil(s->blocks_per_launch / d->compute_units) : 0;
    s->simd_waves = ceil(out->busiest_cu_blocks * s->waves_per_block / d->simds_per_cu); /* per launch */
    s->cu_factor = imbalance(s->blocks_per_launch, d->compute_units);
    const double occupancy = code->waves_per_simd > 0 ? fmin(code->waves_per_simd, d->max_waves_per_simd)
                                                      : d->max_waves_per_simd;
    out->occupancy = occupancy;
    out->fill = s->waves_per_launch / (s->simds * occupancy);
    /* Blocks at a time on a CU: as many as its wave slots hold, and no more
     * than the device's limit, which on GCN binds only blocks of more than
     * one wave (they take a barrier resource each). */
    const double block_limit = s->waves_per_block > 1 ? d->max_blocks_per_cu : d->max_one_wave_blocks_per_cu;
    out->resident_blocks = s->waves_per_block > 0
                               ? fmax(1, fmin(block_limit, floor(occupancy * d->simds_per_cu / s->waves_per_block)))
                               : 1;
    out->resident_blocks = fmax(1, fmin(out->resident_blocks, out->busiest_cu_blocks));
    out->resident = fmin(s->simd_waves, ceil(out->resident_blocks * s->waves_per_block / d->simds_per_cu));
    s->batches = out->busiest_cu_blocks > 0 ? s->launches * ceil(out->busiest_cu_blocks / out->resident_blocks) : 0;
}

/* Memory, through each level: DRAM, L2, L1 and LDS. */
static void memory_terms(const ModelDevice *d, const ModelCounters *c, const ModelCode *code, KernelShape *s,
                         ModelResult *out) {
    s->segment_bytes = d->segment_bytes;
    s->sectors = s->segment_bytes < 64;
    const double phase_units = s->sectors ? c->load_phase_sectors : c->load_phase_segments;
    const double store_units = s->sectors ? c->store_sectors : c->store_segments;
    /* The trace counts the source's loads; the compiler may vectorise them
     * (4 floats of a lane in one dwordx4): each of its requests touches the
     * segments of the scalar ones it replaced, so fewer requests, fewer
     * segment visits, the same distinct segments. */
    const double vectorised = c->load_requests > 0 && code->vmem_loads > 0 ? fmin(1, code->vmem_loads / c->load_requests) : 1;
    const double visits = (s->sectors ? c->load_sectors : c->load_segments) * vectorised;
    /* L1 keeps what a block re-reads between two barriers only while the
     * resident blocks' lines fit: a block-phase's distinct bytes times the
     * blocks on a CU at a time, against the L1's bytes. */
    const double phases = c->blocks + c->barriers;
    const double live_bytes = phases > 0 ? phase_units * s->segment_bytes / phases * out->resident_blocks : 0;
    out->l1_miss = beyond(live_bytes, d->l1_bytes);
    /* Scratch: what the compiler spills goes to memory through L1 and L2,
     * each lane's words side by side (LLVM AMDGPU usage, "Private
     * segment"; CUDA's local memory likewise: CUDA guide, device memory
     * accesses). A spilled word is written and read back long after, with
     * every resident wave's scratch in between: the L2 keeps the share of
     * the resident waves' scratch it can hold, the rest goes to DRAM. */
    out->scratch_bytes = c->traced_waves > 0 ? code->scratch_bytes * c->threads / c->traced_waves : 0;
    const double scratch_set = d->compute_units * d->simds_per_cu * out->resident * d->wave_size * code->scratch_lane_bytes;
    out->scratch_miss = beyond(scratch_set, d->l2_bytes);
    s->l2_bytes = (phase_units + out->l1_miss * max2(0, visits - phase_units) + store_units) * s->segment_bytes +
                  out->scratch_bytes;
    s->l1_bytes = (visits + store_units) * s->segment_bytes + out->scratch_bytes;
    /* DRAM at the rate a streaming kernel reaches (STREAM, BabelStream), not
     * the data sheet's peak: the unique bytes, and the re-reads that come
     * after more other data than the L2 holds. */
    const double reread_segments = beyond_capacity(c->segments_beyond, d->l2_bytes);
    out->l2_miss_bytes = isnan(reread_segments) ? 0 : reread_segments * 64;
    out->term_ms[MODEL_TERM_dram] = (c->unique_bytes + out->l2_miss_bytes + out->scratch_bytes * out->scratch_miss) /
                                    (d->dram_stream_gbps * 1e9) * 1e3;
    out->term_ms[MODEL_TERM_l2] = s->l2_bytes / (d->l2_gbps * 1e9) * 1e3;
    out->term_ms[MODEL_TERM_l1] =
        s->l1_bytes / d->l1_bytes_per_clock * s->cu_factor / d->compute_units * s->ms_per_cycle;
    /* The bank model counts 128 bytes a cycle (32 banks of 4 bytes). */
    out->term_ms[MODEL_TERM_lds] =
        c->lds_bank_cycles * (128 / d->lds_bytes_per_clock) * s->cu_factor / d->compute_units * s->ms_per_cycle;
}

/* Issue, per pipe: a SIMD issues each kind of instruction at its own rate. */
static void issue_terms(const ModelDevice *d, const ModelCode *code, const KernelShape *s, ModelResult *out) {
    const double issue_launch = s->launches * s->simd_waves * s->ms_per_cycle;
    out->term_ms[MODEL_TERM_valu] = issue_launch * code->valu * s->per_wave * d->valu_issue_cycles;
    out->term_ms[MODEL_TERM_salu] = issue_launch * code->salu * s->per_wave * d->salu_issue_cycles;
    out->term_ms[MODEL_TERM_smem] = issue_launch * code->smem * s->per_wave * d->smem_issue_cycles;
    out->term_ms[MODEL_TERM_branch] = issue_launch * code->branch * s->per_wave * d->branch_issue_cycles;
    /* Dispatch: the pipes above are separate, but a SIMD's scheduler hands
     * out every instruction, whatever its pipe: dispatch_cycles per warp
     * instruction of any kind. On GCN it passes up to five of different
     * kinds per 4-cycle slot, so this rarely binds there; on an NVIDIA
     * scheduler (one warp instruction per clock, or per 4 on G80) it binds
     * whenever the pipes together issue more than the VALU alone. */
    const double dispatched = code->valu + code->salu + code->smem + code->vmem + code->lds + code->branch;
    out->term_ms[MODEL_TERM_issue] = issue_launch * dispatched * s->per_wave * d->dispatch_cycles;
    out->term_ms[MODEL_TERM_vmem] = s->launches * out->busiest_cu_blocks * s->waves_per_block * code->vmem *
                                    s->per_wave * d->vmem_issue_cycles * s->ms_per_cycle;
}

/* What the waits cost: the share of global loads that reach DRAM, and of
 * scalar loads that miss the scalar cache. The cache is shared by
 * cus_per_scalar_cache neighbouring CUs; their blocks' scalar working
 * sets overlap as much as the launch's own distinct scalar bytes say
 * (all blocks sweeping one table share it whole). */
static void wait_levels(const ModelDevice *d, const ModelCounters *c, const KernelShape *s, ModelResult *out) {
    /* A kernel's share: its first loads and convoys, and its re-reads beyond
     * L2 as requests (segments at the kernel's segments per request). */
    if (!isnan(c->dram_load_requests) && c->load_requests > 0) {
        const double per_request = c->load_segments > 0 ? c->load_requests / c->load_segments : 1;
        out->dram_share = fmin(1, (c->dram_load_requests + out->l2_miss_bytes / 64 * per_request) / c->load_requests);
    } else {
        out->dram_share =
            !isnan(c->dram_load_requests) ? 1 : (s->l2_bytes > 0 ? fmin(1, c->unique_bytes / s->l2_bytes) : 1);
    }
    const double l2_cycles = d->l2_latency_ns * d->clock_ghz, dram_cycles = d->dram_latency_ns * d->clock_ghz;
    out->memory_latency = l2_cycles + out->dram_share * (dram_cycles - l2_cycles);
    const double uniform_blocks = !isnan(c->uniform_blocks) && c->uniform_blocks > 0 ? c->uniform_blocks : c->blocks;
    if (!isnan(c->uniform_block_segments) && uniform_blocks > 0) {
        /* No block's set is larger than the launch's (a count extended from
         * two slices can say otherwise: it grows with the images, while the
         * launch's distinct set stays). */
        double block_set = c->uniform_block_segments * 64 / uniform_blocks;
        if (!isnan(c->uniform_launch_segments)) block_set = fmin(block_set, c->uniform_launch_segments * 64 / s->launches);
        double shared_set = block_set * fmin(d->cus_per_scalar_cache, s->blocks_per_launch);
        if (!isnan(c->uniform_launch_segments))
            shared_set = fmin(shared_set, c->uniform_launch_segments * 64 / s->launches);
        out->scalar_miss = beyond(fmax(block_set, shared_set), d->scalar_cache_bytes);
    }
}

/* Latency: a block's critical path. A barrier waits for the slowest
 * wave, so each phase costs its busiest wave's instructions (at one per
 * valu_issue_cycles) and exposed waits (the trace's critical runs);
 * without them, one average wave's. A wait exposes what of its latency
 * the instructions since its load did not cover; a barrier costs its own
 * cycles. Resident blocks overlap, so the busiest CU takes one path per
 * batch of them. */
static void latency_term(const ModelDevice *d, const ModelCounters *c, const ModelCode *code, const ModelWait *waits,
                         size_t wait_count, KernelShape *s, ModelResult *out) {
    double path = code->instructions * s->per_wave * d->valu_issue_cycles, exposed_per_wave = 0, trips = 0;
    double memory_exposed_per_wave = 0; /* of it, the waits on global memory (the overlap's Mem) */
    int critical = !isnan(code->critical_instructions) && c->blocks > 0;
    for (size_t i = 0; i < wait_count; i++) {
        const double e = exposed(d, &waits[i], out);
        exposed_per_wave += waits[i].runs * s->per_wave * e;
        if (waits[i].counter == MODEL_WAIT_MEMORY) {
            trips += waits[i].runs * s->per_wave;
            memory_exposed_per_wave += waits[i].runs * s->per_wave * e;
        }
        if (isnan(waits[i].critical_runs)) critical = 0;
    }
    path += exposed_per_wave;
    if (critical) {
        path = code->critical_instructions / c->blocks * d->valu_issue_cycles;
        for (size_t i = 0; i < wait_count; i++) path += waits[i].critical_runs / c->blocks * exposed(d, &waits[i], out);
    }
    if (c->blocks > 0) path += c->barriers / c->blocks * d->barrier_cycles;
    s->trips = trips;
    s->path = path;
    s->memory_exposed_per_wave = memory_exposed_per_wave;
    out->round_trips_per_wave = trips;
    out->path_cycles_per_wave = path;
    out->term_ms[MODEL_TERM_latency] = s->batches * path * s->ms_per_cycle;
}

/* Atomics on one address: a compare-and-swap loop lands about one per
 * round trip; a native atomic, as fast as the L2 takes them. */
static void atomic_term(const ModelDevice *d, const ModelCounters *c, const ModelCode *code, KernelShape *s,
                        ModelResult *out) {
    s->cas = code->cas_loop && d->cas_float_atomics > 0;
    s->hot_atomics = c->atomics_max_one_address * s->launches;
    out->term_ms[MODEL_TERM_atomic] = s->cas ? s->hot_atomics * d->atomic_latency_cycles * s->ms_per_cycle
                                             : s->hot_atomics / d->same_address_atomics_per_clock * s->ms_per_cycle;
}

/* The term that binds, what the others leave exposed beside it, the
 * launches, and the floor. */
static void bind_terms(const ModelDevice *d, const ModelCounters *c, const ModelCode *code, const KernelShape *s,
                       ModelResult *out) {
    out->launch_ms = s->launches * d->launch_us / 1e3;
    out->binding = 0;
    for (int t = 1; t < MODEL_TERM_COUNT; t++)
        if (out->term_ms[t] > out->term_ms[out->binding]) out->binding = t;
    /* The terms overlap, but not wholly (Hong and Kim, ISCA 2009, section 3:
     * the cases of their execution-time equations). A kernel is memory-bound
     * when its waves' memory periods outlast what the other resident waves
     * compute meanwhile: a wave's exposed waits on global memory at least
     * (resident - 1) times its computation (their CWP >= MWP; LDS, scalar
     * and shuffle waits are not their memory periods), and always when a
     * bandwidth term binds. Then the last memory period is followed by the computation
     * of the other resident waves that waited behind it, (resident - 1)
     * times a wave's computation per round trip (their Comp_p x (MWP - 1)).
     * Otherwise it is compute-bound, and one memory round trip is left that
     * no other wave's work covers (their + Mem_L): here its exposed part.
     * Their equations charge this once per repetition, for waves run in
     * synchronous batches; a GPU hands a CU the next block as soon as one
     * retires, so the batches flow into each other and only each launch's
     * last one leaves it exposed: once per launch. Atomics on one address
     * serialise everything behind them: nothing. */
    if (s->trips > 0 && out->binding != MODEL_TERM_atomic) {
        const double compute_per_wave = code->instructions * s->per_wave * d->valu_issue_cycles;
        const double others = max2(0, out->resident - 1);
        const int memory_bound =
            is_bandwidth_term(out->binding) ||
            (out->binding == MODEL_TERM_latency && s->memory_exposed_per_wave >= others * compute_per_wave);
        out->overlap_ms = memory_bound ? s->launches * compute_per_wave / s->trips * others * s->ms_per_cycle
                                       : s->launches * s->memory_exposed_per_wave / s->trips * s->ms_per_cycle;
    }
    out->model_ms = out->term_ms[out->binding] + out->overlap_ms + out->launch_ms;
    out->launch_bound = out->launch_ms > out->term_ms[out->binding] + out->overlap_ms;
    /* Each wave-level run of an instruction is done by the traced wave's lanes: threads per traced wave. */
    out->flops = c->traced_waves > 0 ? code->flops_per_lane * c->threads / c->traced_waves : 0;
    out->floor_ms = max2(c->unique_bytes / (d->dram_gbps * 1e9) * 1e3, out->flops / (d->fp32_tflops * 1e12) * 1e3) +
                    out->launch_ms;
}

/* The instructions per wave of the issue term that binds. */
static double binding_instructions(const ModelCode *code, int binding) {
    switch (binding) {
    case MODEL_TERM_valu: return code->valu;
    case MODEL_TERM_issue: return code->valu + code->salu + code->smem + code->vmem + code->lds + code->branch;
    case MODEL_TERM_salu: return code->salu;
    case MODEL_TERM_smem: return code->smem;
    case MODEL_TERM_vmem: return code->vmem;
    default: return code->branch;
    }
}

/* The binding term in words. */
static void explain_binding(const ModelDevice *d, const ModelCounters *c, const ModelCode *code, const KernelShape *s,
                            ModelResult *out) {
    const double waves_per_simd_avg = s->waves_per_launch / s->simds;
    const double launches = s->launches, hot = s->hot_atomics, trips = s->trips, path = s->path;
    if (out->launch_bound) {
        snprintf(out->why, sizeof out->why, "launch: %.0f launch%s at %.3g us cost more than the work (%.3g us)",
                 launches, launches > 1 ? "es" : "", d->launch_us, out->term_ms[out->binding] * 1e3);
        return;
    }
    switch (out->binding) {
    case MODEL_TERM_atomic:
        if (s->cas)
            snprintf(out->why, sizeof out->why,
                     "%.0f float atomics on one address, each a compare-and-swap retry loop: about one lands per "
                     "%.0f-cycle round trip", hot, d->atomic_latency_cycles);
        else
            snprintf(out->why, sizeof out->why, "%.0f atomics on one address, one after another at the L2", hot);
        break;
    case MODEL_TERM_latency:
        /* With no dependent round trip the path is still there: instructions, the waits they leave
           exposed and barriers, and too few waves to overlap it. */
        if (trips > 0)
            snprintf(out->why, sizeof out->why,
                     "latency: %.0f dependent memory round trip%s per wave, one after another, on a %.0f-cycle "
                     "critical path per block; %.0f block%s per CU at a time, %.2g wave%s per SIMD in the whole "
                     "launch", trips, plural(trips), path, out->resident_blocks,
                     plural(out->resident_blocks), waves_per_simd_avg, plural(waves_per_simd_avg));
        else
            snprintf(out->why, sizeof out->why,
                     "latency: no dependent memory round trip, but a %.0f-cycle critical path per block (its "
                     "instructions, the waits they leave exposed, its barriers); %.0f block%s per CU at a time, "
                     "%.2g wave%s per SIMD in the whole launch", path, out->resident_blocks,
                     plural(out->resident_blocks), waves_per_simd_avg, plural(waves_per_simd_avg));
        break;
    case MODEL_TERM_lds:
        snprintf(out->why, sizeof out->why, "LDS: %.3g bank cycles per CU", c->lds_bank_cycles * s->cu_factor /
                 d->compute_units);
        break;
    case MODEL_TERM_l1:
        snprintf(out->why, sizeof out->why, "L1: %.3g MB of %.0f-byte %s through the CUs' L1", s->l1_bytes / 1e6,
                 s->segment_bytes, s->sectors ? "sectors" : "segments");
        break;
    case MODEL_TERM_l2:
        snprintf(out->why, sizeof out->why, "L2: %.3g MB past L1", s->l2_bytes / 1e6);
        break;
    case MODEL_TERM_dram:
        if (out->scratch_bytes * out->scratch_miss > 0)
            snprintf(out->why, sizeof out->why, "memory: %.3g MB of unique bytes, %.3g MB re-read after L2 let it go, "
                     "%.3g MB of spills to scratch", c->unique_bytes / 1e6, out->l2_miss_bytes / 1e6,
                     out->scratch_bytes * out->scratch_miss / 1e6);
        else if (out->l2_miss_bytes > 0)
            snprintf(out->why, sizeof out->why, "memory: %.3g MB of unique bytes and %.3g MB re-read after L2 let it go",
                     c->unique_bytes / 1e6, out->l2_miss_bytes / 1e6);
        else
            snprintf(out->why, sizeof out->why, "memory: %.3g MB of unique bytes", c->unique_bytes / 1e6);
        break;
    default:
        snprintf(out->why, sizeof out->why, "%s: %.0f instructions per wave, %.0f wave%s on the busiest SIMD",
                 out->binding == MODEL_TERM_issue ? "dispatch (every pipe's instructions)"
                 : out->binding == MODEL_TERM_valu ? "valu issue" : out->binding == MODEL_TERM_salu ? "salu issue"
                 : out->binding == MODEL_TERM_smem ? "smem issue" : out->binding == MODEL_TERM_vmem ? "vmem issue"
                                                   : "branch issue",
                 binding_instructions(code, out->binding) * s->per_wave,
                 s->simd_waves * launches, plural(s->simd_waves * launches));
    }
}

/* The steps in order: each reads what the ones before it wrote (the waits'
 * costs need the DRAM share and the scalar misses; the overlap, the path). */
void model_kernel(const ModelDevice *d, const ModelCounters *c, const ModelCode *code, const ModelWait *waits,
                  size_t wait_count, ModelResult *out) {
    memset(out, 0, sizeof *out);
    KernelShape s;
    memset(&s, 0, sizeof s);
    place_blocks(d, c, code, &s, out);
    memory_terms(d, c, code, &s, out);
    issue_terms(d, code, &s, out);
    wait_levels(d, c, &s, out);
    latency_term(d, c, code, waits, wait_count, &s, out);
    atomic_term(d, c, code, &s, out);
    bind_terms(d, c, code, &s, out);
    explain_binding(d, c, code, &s, out);
}

void model_line_shares(const ModelDevice *d, const ModelCounters *c, const ModelCode *code, const ModelWait *waits,
                       size_t wait_count, const ModelResult *r, const ModelLine *lines, size_t line_count,
                       double *share) {
    (void)c;
    (void)code;
    double total = 0;
    for (size_t i = 0; i < line_count; i++) {
        const ModelLine *l = &lines[i];
        double v = 0;
        switch (r->binding) {
        case MODEL_TERM_dram: case MODEL_TERM_l2: case MODEL_TERM_l1: v = l->segments; break;
        case MODEL_TERM_lds: v = l->lds_bank_cycles; break;
        case MODEL_TERM_atomic: v = l->atomics; break;
        case MODEL_TERM_valu: v = l->valu; break;
        case MODEL_TERM_salu: v = l->salu; break;
        case MODEL_TERM_smem: v = l->smem; break;
        case MODEL_TERM_vmem: v = l->vmem; break;
        case MODEL_TERM_branch: v = l->branch; break;
        case MODEL_TERM_issue: v = l->valu + l->salu + l->smem + l->vmem + l->lds + l->branch; break;
        default: v = l->instructions * d->valu_issue_cycles; /* latency: the waits are added below */
        }
        share[i] = r->launch_bound ? 0 : v;
    }
    if (r->binding == MODEL_TERM_latency && !r->launch_bound)
        for (size_t i = 0; i < wait_count; i++)
            if (waits[i].line >= 0 && (size_t)waits[i].line < line_count)
                share[waits[i].line] += waits[i].runs * exposed(d, &waits[i], r);
    for (size_t i = 0; i < line_count; i++) total += share[i];
    for (size_t i = 0; i < line_count; i++) share[i] = total > 0 ? share[i] / total : 0;
}
