/* The time model (model.h; the terms and their limits: README.md beside it). */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const model_term_names[MODEL_TERM_COUNT] = {
#define MODEL_TERM_NAME(name, what) #name,
    MODEL_TERMS(MODEL_TERM_NAME)
#undef MODEL_TERM_NAME
};

void model_device_init(ModelDevice *device, const char *name) {
    memset(device, 0, sizeof *device);
    snprintf(device->name, sizeof device->name, "%s", name);
#define MODEL_FIGURE_NAN(name) device->name = NAN;
    MODEL_DEVICE_FIGURES(MODEL_FIGURE_NAN)
#undef MODEL_FIGURE_NAN
}

int model_device_set(ModelDevice *device, const char *figure, double value) {
#define MODEL_FIGURE_SET(name)                                                                     \
    if (strcmp(figure, #name) == 0) {                                                              \
        device->name = value;                                                                      \
        return 1;                                                                                  \
    }
    MODEL_DEVICE_FIGURES(MODEL_FIGURE_SET)
#undef MODEL_FIGURE_SET
    return 0;
}

const char *model_device_missing(const ModelDevice *device) {
#define MODEL_FIGURE_MISSING(name)                                                                 \
    if (isnan(device->name)) return #name;
    MODEL_DEVICE_FIGURES(MODEL_FIGURE_MISSING)
#undef MODEL_FIGURE_MISSING
    return NULL;
}

static double max2(double a, double b) { return a > b ? a : b; }

/* How much busier the busiest of `units` is than the average, when `items`
 * (blocks, waves) are dealt to them whole: 123 waves on 240 SIMDs leave the
 * busiest with 1, not 0.51. */
static double imbalance(double items, double units) {
    if (items <= 0 || units <= 0) return 1;
    return ceil(items / units) / (items / units);
}

static const char *plural(double n) { return fabs(n - 1) < 1e-9 ? "" : "s"; }

/* A load's latency: L2's, or DRAM's as often as the traffic past L1 misses. */
static double memory_latency(const ModelDevice *d, double unique_bytes, double l2_bytes) {
    const double miss = l2_bytes > 0 ? fmin(1, unique_bytes / l2_bytes) : 1;
    return d->l2_latency_cycles + miss * (d->dram_latency_cycles - d->l2_latency_cycles);
}

/* The cycles a wait leaves a wave waiting: its latency less what the
 * instructions since the load covered. */
static double exposed(const ModelDevice *d, const ModelWait *w, double memory) {
    const double latency = w->counter == MODEL_WAIT_MEMORY ? memory
                           : w->counter == MODEL_WAIT_LDS  ? d->lds_latency_cycles
                                                           : d->scalar_latency_cycles;
    return max2(0, latency - w->distance * d->valu_issue_cycles);
}

void model_kernel(const ModelDevice *d, const ModelCounters *c, const ModelCode *code, const ModelWait *waits,
                  size_t wait_count, ModelResult *out) {
    memset(out, 0, sizeof *out);
    const double hz = d->clock_ghz * 1e9;
    const double ms_per_cycle = 1e3 / hz;
    const double launches = c->launches > 0 ? c->launches : 1;
    const double simds = d->compute_units * d->simds_per_cu;

    /* The device's waves: each block rounded up to whole waves of its size.
     * The compiled code's counts are per wave, whatever its width. */
    const double threads_per_block = c->blocks > 0 ? c->threads / c->blocks : 0;
    out->waves = c->blocks * ceil(threads_per_block / d->wave_size);
    const double per_wave = c->traced_waves > 0 ? 1 / c->traced_waves : 0;
    const double waves_per_launch = out->waves / launches;
    const double blocks_per_launch = c->blocks / launches;
    const double simd_waves = ceil(waves_per_launch / simds); /* on the busiest SIMD, per launch */
    const double cu_factor = imbalance(blocks_per_launch, d->compute_units);

    /* Memory, through each level. */
    const double segment_bytes = d->segment_bytes;
    const int sectors = segment_bytes < 64;
    const double l2_bytes = ((sectors ? c->load_phase_sectors : c->load_phase_segments) +
                             (sectors ? c->store_sectors : c->store_segments)) * segment_bytes;
    /* The trace counts the source's loads; the compiler may vectorise them
     * (4 floats of a lane in one dwordx4): each of its requests touches the
     * segments of the scalar ones it replaced, so fewer requests, fewer
     * segment visits, the same distinct segments. */
    const double vectorised = c->load_requests > 0 && code->vmem_loads > 0 ? fmin(1, code->vmem_loads / c->load_requests) : 1;
    const double l1_bytes = ((sectors ? c->load_sectors : c->load_segments) * vectorised +
                             (sectors ? c->store_sectors : c->store_segments)) * segment_bytes;
    out->term_ms[MODEL_TERM_dram] = c->unique_bytes / (d->dram_gbps * 1e9) * 1e3;
    out->term_ms[MODEL_TERM_l2] = l2_bytes / (d->l2_gbps * 1e9) * 1e3;
    out->term_ms[MODEL_TERM_l1] =
        l1_bytes / d->l1_bytes_per_clock * cu_factor / d->compute_units * ms_per_cycle;
    /* The bank model counts 128 bytes a cycle (32 banks of 4 bytes). */
    out->term_ms[MODEL_TERM_lds] =
        c->lds_bank_cycles * (128 / d->lds_bytes_per_clock) * cu_factor / d->compute_units * ms_per_cycle;

    /* Issue, per pipe: a SIMD issues each kind of instruction at its own rate. */
    const double issue_launch = launches * simd_waves * ms_per_cycle;
    out->term_ms[MODEL_TERM_valu] = issue_launch * code->valu * per_wave * d->valu_issue_cycles;
    out->term_ms[MODEL_TERM_salu] = issue_launch * code->salu * per_wave * d->salu_issue_cycles;
    out->term_ms[MODEL_TERM_smem] = issue_launch * code->smem * per_wave * d->smem_issue_cycles;
    out->term_ms[MODEL_TERM_branch] = issue_launch * code->branch * per_wave * d->branch_issue_cycles;
    /* Dispatch: the pipes above are separate, but a SIMD's scheduler hands
     * out every instruction, whatever its pipe: dispatch_cycles per warp
     * instruction of any kind. On GCN it passes up to five of different
     * kinds per 4-cycle slot, so this rarely binds there; on an NVIDIA
     * scheduler (one warp instruction per clock, or per 4 on G80) it binds
     * whenever the pipes together issue more than the VALU alone. */
    const double dispatched = code->valu + code->salu + code->smem + code->vmem + code->lds + code->branch;
    out->term_ms[MODEL_TERM_issue] = issue_launch * dispatched * per_wave * d->dispatch_cycles;
    out->term_ms[MODEL_TERM_vmem] = launches * ceil(waves_per_launch / d->compute_units) * code->vmem * per_wave *
                                    d->vmem_issue_cycles * ms_per_cycle;

    /* Latency. A wave issues one instruction per valu_issue_cycles at best; a
     * wait exposes what of the latency the instructions since its load did
     * not cover; a barrier costs its own cycles. Resident waves overlap each
     * other's paths, so a SIMD takes one path per batch of them. A load that
     * misses L2 as often as the kernel's unique bytes say pays DRAM's latency. */
    out->memory_latency = memory_latency(d, c->unique_bytes, l2_bytes);
    double path = code->instructions * per_wave * d->valu_issue_cycles, trips = 0;
    for (size_t i = 0; i < wait_count; i++) {
        path += waits[i].runs * per_wave * exposed(d, &waits[i], out->memory_latency);
        if (waits[i].counter == MODEL_WAIT_MEMORY) trips += waits[i].runs * per_wave;
    }
    if (c->blocks > 0) path += c->barriers / c->blocks * d->barrier_cycles;
    const double resident_limit = code->waves_per_simd > 0 ? fmin(code->waves_per_simd, d->max_waves_per_simd)
                                                           : d->max_waves_per_simd;
    out->occupancy = resident_limit;
    out->fill = waves_per_launch / (simds * resident_limit);
    out->resident = fmin(resident_limit, simd_waves);
    out->round_trips_per_wave = trips;
    out->path_cycles_per_wave = path;
    out->term_ms[MODEL_TERM_latency] =
        out->resident > 0 ? launches * ceil(simd_waves / out->resident) * path * ms_per_cycle : 0;

    /* Atomics on one address: a compare-and-swap loop lands about one per
     * round trip; a native atomic, as fast as the L2 takes them. */
    const int cas = code->cas_loop && d->cas_float_atomics > 0;
    const double hot = c->atomics_max_one_address * launches;
    out->term_ms[MODEL_TERM_atomic] =
        cas ? hot * d->atomic_latency_cycles * ms_per_cycle : hot / d->same_address_atomics_per_clock * ms_per_cycle;

    out->launch_ms = launches * d->launch_us / 1e3;
    out->binding = 0;
    for (int t = 1; t < MODEL_TERM_COUNT; t++)
        if (out->term_ms[t] > out->term_ms[out->binding]) out->binding = t;
    out->model_ms = out->term_ms[out->binding] + out->launch_ms;
    out->launch_bound = out->launch_ms > out->term_ms[out->binding];
    /* Each wave-level run of an instruction is done by the traced wave's lanes: threads per traced wave. */
    out->flops = c->traced_waves > 0 ? code->flops_per_lane * c->threads / c->traced_waves : 0;
    out->floor_ms = max2(c->unique_bytes / (d->dram_gbps * 1e9) * 1e3, out->flops / (d->fp32_tflops * 1e12) * 1e3) +
                    out->launch_ms;

    /* The binding term in words. */
    const double waves_per_simd_avg = waves_per_launch / simds;
    if (out->launch_bound) {
        snprintf(out->why, sizeof out->why, "launch: %.0f launch%s at %.3g us cost more than the work (%.3g us)",
                 launches, launches > 1 ? "es" : "", d->launch_us, out->term_ms[out->binding] * 1e3);
        return;
    }
    switch (out->binding) {
    case MODEL_TERM_atomic:
        if (cas)
            snprintf(out->why, sizeof out->why,
                     "%.0f float atomics on one address, each a compare-and-swap retry loop: about one lands per "
                     "%.0f-cycle round trip", hot, d->atomic_latency_cycles);
        else
            snprintf(out->why, sizeof out->why, "%.0f atomics on one address, one after another at the L2", hot);
        break;
    case MODEL_TERM_latency:
        snprintf(out->why, sizeof out->why,
                 "latency: %.0f dependent memory round trip%s per wave, %.2g wave%s per SIMD to hide them "
                 "(%.0f resident at most)", trips, plural(trips), waves_per_simd_avg, plural(waves_per_simd_avg),
                 resident_limit);
        break;
    case MODEL_TERM_lds:
        snprintf(out->why, sizeof out->why, "LDS: %.3g bank cycles per CU", c->lds_bank_cycles * cu_factor /
                 d->compute_units);
        break;
    case MODEL_TERM_l1:
        snprintf(out->why, sizeof out->why, "L1: %.3g MB of %.0f-byte %s through the CUs' L1", l1_bytes / 1e6,
                 segment_bytes, sectors ? "sectors" : "segments");
        break;
    case MODEL_TERM_l2:
        snprintf(out->why, sizeof out->why, "L2: %.3g MB past L1", l2_bytes / 1e6);
        break;
    case MODEL_TERM_dram:
            snprintf(out->why, sizeof out->why, "memory: %.3g MB of unique bytes", c->unique_bytes / 1e6);
        break;
    default:
        snprintf(out->why, sizeof out->why, "%s: %.0f instructions per wave, %.0f wave%s on the busiest SIMD",
                 out->binding == MODEL_TERM_issue ? "dispatch (every pipe's instructions)"
                 : out->binding == MODEL_TERM_valu ? "valu issue" : out->binding == MODEL_TERM_salu ? "salu issue"
                 : out->binding == MODEL_TERM_smem ? "smem issue" : out->binding == MODEL_TERM_vmem ? "vmem issue"
                                                   : "branch issue",
                 (out->binding == MODEL_TERM_valu     ? code->valu
                  : out->binding == MODEL_TERM_issue  ? code->valu + code->salu + code->smem + code->vmem + code->lds +
                                                            code->branch
                  : out->binding == MODEL_TERM_salu   ? code->salu
                  : out->binding == MODEL_TERM_smem   ? code->smem
                  : out->binding == MODEL_TERM_vmem   ? code->vmem
                                                      : code->branch) * per_wave,
                 simd_waves * launches, plural(simd_waves * launches));
    }
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
                share[waits[i].line] += waits[i].runs * exposed(d, &waits[i], r->memory_latency);
    for (size_t i = 0; i < line_count; i++) total += share[i];
    for (size_t i = 0; i < line_count; i++) share[i] = total > 0 ? share[i] / total : 0;
}
