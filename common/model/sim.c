/* The simulation (sim.h): one CU's resident waves issuing their compiled code. */
#include "sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const sim_stall_names[SIM_STALL_COUNT] = {
#define SIM_STALL_NAME(name, what) #name,
    SIM_STALLS(SIM_STALL_NAME)
#undef SIM_STALL_NAME
};

/* The units a wave's instruction can wait for: each SIMD's own pipes, then
 * the CU's shared servers. */
enum { UNIT_VALU, UNIT_TRANS, UNIT_SALU, UNIT_VMEM, UNIT_LDS, UNIT_SMEM, UNIT_BRANCH, UNIT_COUNT };

/* Loads in flight on one s_waitcnt counter, oldest first. The counters
 * count down in issue order (gfx9 ISA guide, s_waitcnt), so a load's
 * completion is held no earlier than the one before it. */
#define MAX_IN_FLIGHT 64
typedef struct {
    double done[MAX_IN_FLIGHT];
    int kind[MAX_IN_FLIGHT]; /* SIM_memory, SIM_lds or SIM_scalar: what a wait on it is */
    int head, count;
    double last_done;
} InFlight;

typedef struct {
    int alive, block, simd, at_barrier;
    long age;
    int pc, cur;              /* instruction index; its block */
    int *remaining;           /* runs of each block still to go */
    int *initial;             /* and at its start */
    int *trips;               /* per loop header: its trips since the wave last entered the loop */
    double next_issue;        /* no earlier, by its own issue cadence */
    double last_issue;        /* when it last issued (or arrived) */
    double memory_done;       /* when the last of its memory instructions is done (stores too) */
    int barrier_pc;           /* the barrier it waits at */
    double ready;             /* cached earliest issue of its next instruction; INFINITY at a barrier */
    int ready_reason;         /* SIM_* of the constraint that set ready */
    InFlight counter[CODE_WAIT_COUNTERS];
    double *reg_ready;        /* NVIDIA: per dense register */
    unsigned char *reg_kind;  /* what wrote it: SIM_memory, SIM_lds, SIM_scalar, SIM_dependency */
    long steps, step_cap;
    double stall[SIM_STALL_COUNT];
} Wave;

typedef struct {
    int waves_alive, waves_at_barrier, first_wave, nwaves;
    double barrier_last;
    double done;              /* its waves' ends and their memory's, the latest so far */
    int live;
} BlockSlot;

typedef struct {
    const ModelDevice *d;
    const SimLaunch *L;
    const CodeKernel *k;
    int nvidia, simds, wave_size;
    int walk_trace;           /* TIMESIM_WALK set: wave 0's blocks on stderr */
    double loop_share;        /* of each loop's trips, those simulated (1: all) */
    unsigned char *reach;     /* which blocks each block reaches: nblocks rows of reach_row bytes; NULL if too many */
    size_t reach_row;
    double unit_cycles[UNIT_COUNT];
    int unit_of_pipe[CODE_PIPE_COUNT];
    double cadence, dispatch, valu_latency, trans_latency;
    double unit_bytes, l1_lat, l2_lat, dram_lat;
    double l1_per_cycle, l2_per_cycle, dram_per_cycle, hot_per_cycle;
    /* Per SIMD: when each of its units and its dispatch are next free. */
    double (*simd_free)[UNIT_COUNT + 1];
    /* The CU's servers. */
    double l1_free, l2_free, dram_free, lds_free, hot_free;
    double dram_bytes, l2_bytes;
    int *reg_index;           /* register number -> dense index, via a hash */
    int *reg_keys, reg_slots, nregs;
    Wave *waves;
    int nwaves_max, waves_per_block;
    BlockSlot *slots;
    int resident;
    long issued, wave_counter;
    double *block_done_times;
    long blocks_done;
} Sim;

static int dense_reg(Sim *s, int reg) {
    unsigned h = (unsigned)reg * 2654435761u;
    for (int i = 0; i < s->reg_slots; i++) {
        int at = (int)((h + (unsigned)i) % (unsigned)s->reg_slots);
        if (s->reg_keys[at] == reg) return s->reg_index[at];
        if (s->reg_keys[at] == -1) {
            s->reg_keys[at] = reg;
            s->reg_index[at] = s->nregs++;
            return s->reg_index[at];
        }
    }
    return -1;
}

/* Blocks' runs for one wave: the per-wave average dealt in whole runs, so
 * that waves 0..n-1 together run n times the average (0.5: every other
 * wave; 8.25: three waves 8, one 9). */
static int runs_for_wave(double average, long wave) {
    if (!(average > 0)) return 0;
    return (int)(floor((double)(wave + 1) * average + 0.5) - floor((double)wave * average + 0.5));
}

static void wave_start(Sim *s, Wave *w, int block_slot, int simd, int first_of_block, long block_serial) {
    const CodeKernel *k = s->k;
    w->alive = 1;
    w->block = block_slot;
    w->simd = simd;
    w->at_barrier = 0;
    w->age = s->wave_counter;
    long total = 0;
    int per_block = s->waves_per_block;
    for (int b = 0; b < k->nblocks; b++) {
        /* Loops run a share of their trips when one round of blocks would take more than the budget. */
        double scale = k->blocks[b].loop_depth > 0 ? s->loop_share : 1;
        double average = s->L->block_runs[b] * scale;
        double lead = (s->L->lead_runs ? s->L->lead_runs[b] : s->L->block_runs[b]) * scale;
        if (per_block < 2 || !(lead > average)) {
            w->remaining[b] = runs_for_wave(average, s->wave_counter);
        } else if (first_of_block) { /* the block's busiest wave: thread 0's loop */
            w->remaining[b] = runs_for_wave(fmin(lead, average * per_block), block_serial);
        } else {
            double rest = fmax(0, (average * per_block - lead) / (per_block - 1));
            w->remaining[b] = runs_for_wave(rest, s->wave_counter);
        }
        w->initial[b] = w->remaining[b];
        w->trips[b] = 0;
        total += w->remaining[b];
    }
    s->wave_counter++;
    /* A walk ends at the kernel's end; the cap only stops counts that disagree with the edges from looping. */
    w->step_cap = 4 * total + 16L * k->nblocks + 1000;
    w->steps = 0;
    w->cur = 0;
    w->pc = k->nblocks ? k->blocks[0].first : 0;
    if (k->nblocks) w->remaining[0]--;
    memset(w->counter, 0, sizeof w->counter);
    w->memory_done = 0;
    if (w->reg_ready) {
        for (int r = 0; r < s->nregs; r++) w->reg_ready[r] = 0;
        memset(w->reg_kind, SIM_dependency, (size_t)s->nregs);
    }
    memset(w->stall, 0, sizeof w->stall);
    if (k->nblocks == 0 || k->ninsns == 0) w->alive = 0;
}

/* The instructions a wave still has to run in the blocks reachable from block x (itself
 * included), from the kernel's reachability (s->reach: one row of bits per block). */
static double work_reached(const Sim *s, const Wave *w, int x) {
    if (!s->reach) return 0;
    const unsigned char *row = s->reach + (size_t)x * s->reach_row;
    double work = 0;
    for (int b = 0; b < s->k->nblocks; b++)
        if (row[b / 8] & (1u << (b % 8))) work += (double)w->remaining[b] * s->k->blocks[b].count;
    return work;
}

/* The block a wave goes to after block b, by the branch and what is left of
 * each block's runs: the deeper of two blocks in loops (staying in a loop,
 * or entering an inner one) while it has runs left, a back edge once the
 * block ahead needs fewer visits than this branch has left, else the larger
 * share of runs left. -1: the wave ends. */
static int next_block(const Sim *s, const Wave *w, int b) {
    const CodeKernel *k = s->k;
    const CodeBlock *blk = &k->blocks[b];
    const CodeInsn *last = &k->insns[blk->first + blk->count - 1];
    int t = blk->target, f = blk->fallthrough;
    if (last->pipe == CODE_PIPE_BRANCH && !last->conditional) return t; /* -1 for an exit or return */
    if (last->pipe != CODE_PIPE_BRANCH) return f;
    int t_left = t >= 0 && w->remaining[t] > 0, f_left = f >= 0 && w->remaining[f] > 0;
    if (t_left && f_left) {
        /* Go into an inner loop; stay in one for this entry's share of its trips: the trips left,
         * with those done since it was entered, spread evenly over the times the wave still leaves
         * it (a tile loop's images per tile, not all of them in the first tile). */
        if (k->blocks[t].loop_depth != k->blocks[f].loop_depth) {
            int in = k->blocks[t].loop_depth > k->blocks[f].loop_depth ? t : f, out = in == t ? f : t;
            int loop = k->blocks[in].loop_header;
            if (loop >= 0 && k->blocks[b].loop_header == loop) {
                double done = w->trips[loop], left = w->remaining[in], exits = w->remaining[out];
                if (done >= (done + left) / exits) return out;
            }
            return in;
        }
        /* A back edge, unless the block ahead still needs as many visits as this branch has left: a
         * guarded part of the body (the next tile's loads, skipped on the last trip) comes first. */
        if (t <= b) return w->remaining[f] >= w->remaining[b] ? f : t;
        double rt = w->initial[t] > 0 ? (double)w->remaining[t] / w->initial[t] : 0;
        double rf = w->initial[f] > 0 ? (double)w->remaining[f] / w->initial[f] : 0;
        if (rt != rf) return rt > rf ? t : f;
        /* A tie (a branch the trace did not see: both once): the side that still reaches more runs. */
        return work_reached(s, w, t) > work_reached(s, w, f) ? t : f;
    }
    if (t_left) return t;
    if (f_left) return f;
    /* Neither has runs left (counts that disagree with the edges): leave loops, go forward. */
    if (t < 0 || f < 0) return t < 0 ? f : t;
    if (k->blocks[t].loop_depth != k->blocks[f].loop_depth)
        return k->blocks[t].loop_depth < k->blocks[f].loop_depth ? t : f;
    return t > b ? t : f;
}

/* When the oldest `count - limit` loads on a counter are back. */
static double counter_time(const InFlight *c, int limit) {
    if (limit < 0 || c->count <= limit) return 0;
    int idx = (c->head + c->count - limit - 1) % MAX_IN_FLIGHT;
    return c->done[idx];
}

static int counter_kind(const InFlight *c, int limit) {
    int idx = (c->head + c->count - limit - 1) % MAX_IN_FLIGHT;
    return c->kind[idx];
}

static void retire(InFlight *c, double now) {
    while (c->count > 0 && c->done[c->head] <= now) {
        c->head = (c->head + 1) % MAX_IN_FLIGHT;
        c->count--;
    }
}

static void push(InFlight *c, double done, int kind, double now) {
    retire(c, now);
    if (c->count == MAX_IN_FLIGHT) { /* the hardware's counters stop far below this: wait for the oldest */
        c->head = (c->head + 1) % MAX_IN_FLIGHT;
        c->count--;
    }
    if (done < c->last_done) done = c->last_done; /* in order */
    c->last_done = done;
    int idx = (c->head + c->count) % MAX_IN_FLIGHT;
    c->done[idx] = done;
    c->kind[idx] = kind;
    c->count++;
}

static int mem_wait_kind(int mem) {
    if (mem == CODE_MEM_LDS_LOAD || mem == CODE_MEM_LDS_STORE || mem == CODE_MEM_LDS_ATOMIC) return SIM_lds;
    if (mem == CODE_MEM_SCALAR_LOAD) return SIM_scalar;
    return SIM_memory;
}

/* The earliest a wave can issue its next instruction, and what holds it. */
static void wave_ready(Sim *s, Wave *w) {
    if (!w->alive || w->at_barrier) {
        w->ready = INFINITY;
        return;
    }
    const CodeInsn *in = &s->k->insns[w->pc];
    double t = w->next_issue;
    int reason = SIM_issue;
    const double *free = s->simd_free[w->simd];
    if (free[UNIT_COUNT] > t) t = free[UNIT_COUNT], reason = SIM_other;
    int unit = s->unit_of_pipe[in->pipe];
    if (unit >= 0 && free[unit] > t) t = free[unit], reason = SIM_pipe;
    if (!s->nvidia && in->pipe == CODE_PIPE_WAIT) {
        for (int c = 0; c < CODE_WAIT_COUNTERS; c++) {
            double when = counter_time(&w->counter[c], in->wait[c]);
            if (when > t) t = when, reason = counter_kind(&w->counter[c], in->wait[c]);
        }
    }
    if (s->nvidia && w->reg_ready) {
        for (int r = 0; r < in->nsrc; r++) {
            int x = dense_reg(s, in->src[r]);
            if (x >= 0 && w->reg_ready[x] > t) t = w->reg_ready[x], reason = w->reg_kind[x];
        }
        for (int r = 0; r < in->ndst; r++) { /* a load still writing the register */
            int x = dense_reg(s, in->dst[r]);
            if (x >= 0 && w->reg_ready[x] > t) t = w->reg_ready[x], reason = w->reg_kind[x];
        }
    }
    w->ready = t;
    w->ready_reason = reason;
}

/* A memory instruction's data: back after its level's latency plus the wait
 * for the CU's share of each level's bandwidth. */
static double memory_done(Sim *s, const CodeInsn *in, const SimMemory *m, double t) {
    const ModelDevice *d = s->d;
    SimMemory dflt = {0};
    if (!m) {
        dflt.units = ceil(in->bytes * (double)s->wave_size / s->unit_bytes);
        m = &dflt;
    }
    if (in->mem == CODE_MEM_SCALAR_LOAD) return t + d->scalar_latency_cycles;
    if (in->mem == CODE_MEM_LDS_LOAD || in->mem == CODE_MEM_LDS_STORE || in->mem == CODE_MEM_LDS_ATOMIC) {
        double cycles = m->bank_cycles > 0 ? m->bank_cycles : in->bytes * (double)s->wave_size / d->lds_bytes_per_clock;
        double start = fmax(t, s->lds_free);
        s->lds_free = start + cycles;
        return start + cycles + d->lds_latency_cycles;
    }
    /* Global, scratch and atomics. */
    double units = m->units > 0 ? m->units : 1;
    double bytes = units * s->unit_bytes;
    int store = in->mem == CODE_MEM_GLOBAL_STORE || in->mem == CODE_MEM_SCRATCH_STORE;
    int atomic = in->mem == CODE_MEM_GLOBAL_ATOMIC;
    int scratch = in->mem == CODE_MEM_SCRATCH_LOAD || in->mem == CODE_MEM_SCRATCH_STORE;
    double l1 = store || atomic || scratch ? 0 : m->l1, dram = store && !scratch ? 1 : m->dram;
    double l2 = fmax(0, 1 - l1 - dram);
    double latency = atomic ? d->atomic_latency_cycles : l1 * s->l1_lat + l2 * s->l2_lat + dram * s->dram_lat;
    double start_l1 = fmax(t, s->l1_free);
    s->l1_free = start_l1 + bytes / s->l1_per_cycle;
    double delay = start_l1 - t;
    double past_l1 = bytes * (1 - l1);
    if (past_l1 > 0) {
        double start = fmax(t, s->l2_free);
        s->l2_free = start + past_l1 / s->l2_per_cycle;
        delay = fmax(delay, start - t);
        s->l2_bytes += past_l1;
    }
    if (dram > 0) {
        double start = fmax(t, s->dram_free);
        s->dram_free = start + bytes * dram / s->dram_per_cycle;
        delay = fmax(delay, start - t);
        s->dram_bytes += bytes * dram;
    }
    if (atomic && m->hot_atomics > 0) { /* lanes on one address, one after another across the device */
        double start = fmax(t, s->hot_free);
        s->hot_free = start + m->hot_atomics / s->hot_per_cycle;
        delay = fmax(delay, s->hot_free - t);
    }
    return t + delay + bytes / s->l1_per_cycle + latency;
}

static void release_barrier(Sim *s, BlockSlot *slot) {
    double release = slot->barrier_last + s->d->barrier_cycles;
    for (int i = 0; i < slot->nwaves; i++) {
        Wave *w = &s->waves[slot->first_wave + i];
        if (!w->alive || !w->at_barrier) continue;
        w->at_barrier = 0;
        w->stall[SIM_barrier] += release - w->last_issue;
        if (s->L->insn_cycles) s->L->insn_cycles[(size_t)w->barrier_pc * SIM_STALL_COUNT + SIM_barrier] += release - w->last_issue;
        w->last_issue = release;
        if (w->next_issue < release) w->next_issue = release;
        wave_ready(s, w);
    }
    slot->waves_at_barrier = 0;
    slot->barrier_last = 0;
}

static void wave_arrive(Sim *s, Wave *w, double t, int pc) {
    BlockSlot *slot = &s->slots[w->block];
    w->barrier_pc = pc;
    w->at_barrier = 1;
    w->ready = INFINITY;
    slot->waves_at_barrier++;
    if (t > slot->barrier_last) slot->barrier_last = t;
    if (slot->waves_at_barrier >= slot->waves_alive) release_barrier(s, slot);
}

/* Issues wave w's next instruction at time t and moves it on. */
static void issue(Sim *s, Wave *w, double t, double *stall_sum) {
    const CodeKernel *k = s->k;
    const CodeInsn *in = &k->insns[w->pc];
    /* Where the time since its last issue went. */
    double gap = t - w->last_issue;
    double own = fmin(gap, s->cadence);
    int reason = w->ready_reason == SIM_issue ? SIM_other : w->ready_reason;
    w->stall[SIM_issue] += own;
    if (gap > own) w->stall[reason] += gap - own;
    if (s->L->insn_cycles) { /* the source view: each instruction's share, as Nsight Compute charges a stall */
        double *at = &s->L->insn_cycles[(size_t)w->pc * SIM_STALL_COUNT];
        at[SIM_issue] += own;
        if (gap > own) at[reason] += gap - own;
    }
    w->last_issue = t;
    w->next_issue = t + s->cadence;
    double *free = s->simd_free[w->simd];
    free[UNIT_COUNT] = t + s->dispatch;
    int unit = s->unit_of_pipe[in->pipe];
    if (unit >= 0) free[unit] = t + s->unit_cycles[unit];
    s->issued++;
    (void)stall_sum;

    if (in->mem != CODE_MEM_NONE) {
        const SimMemory *m = s->L->mem ? &s->L->mem[w->pc] : NULL;
        double done = memory_done(s, in, m, t);
        if (done > w->memory_done) w->memory_done = done;
        int kind = mem_wait_kind(in->mem);
        if (!s->nvidia) {
            int counter = (in->pipe == CODE_PIPE_VMEM) ? CODE_WAIT_VM : CODE_WAIT_LGKM;
            push(&w->counter[counter], done, kind, t);
        } else if (w->reg_ready) {
            for (int r = 0; r < in->ndst; r++) {
                int x = dense_reg(s, in->dst[r]);
                if (x >= 0) w->reg_ready[x] = done, w->reg_kind[x] = (unsigned char)kind;
            }
        }
    } else if (s->nvidia && w->reg_ready) {
        double latency = in->pipe == CODE_PIPE_TRANS ? s->trans_latency : s->valu_latency;
        for (int r = 0; r < in->ndst; r++) {
            int x = dense_reg(s, in->dst[r]);
            if (x >= 0) w->reg_ready[x] = t + latency, w->reg_kind[x] = SIM_dependency;
        }
    }

    /* Move on: the next instruction, or the next block by the walk. */
    int at_end = w->pc == k->blocks[w->cur].first + k->blocks[w->cur].count - 1;
    int barrier = in->pipe == CODE_PIPE_BARRIER;
    int issued_pc = w->pc;
    if (!at_end) {
        w->pc++;
    } else {
        int next = ++w->steps > w->step_cap ? -1 : next_block(s, w, w->cur);
        if (next < 0) {
            w->alive = 0;
            w->ready = INFINITY;
            BlockSlot *slot = &s->slots[w->block];
            slot->waves_alive--;
            /* Its slot is free when its stores are written too: a wave's memory drains before it leaves. */
            double end = fmax(t, w->memory_done);
            if (end > slot->done) slot->done = end;
            for (int i = 0; i < SIM_STALL_COUNT; i++) stall_sum[i] += w->stall[i];
            if (slot->waves_at_barrier > 0 && slot->waves_at_barrier >= slot->waves_alive) release_barrier(s, slot);
            return;
        }
        if (s->walk_trace && w->age == 0) fprintf(stderr, "walk: %d -> %d\n", w->cur, next);
        /* A loop's trips since the wave entered it: a header reached from inside the loop is a trip more. */
        if (k->blocks[next].loop_header == next) {
            int back = k->blocks[w->cur].loop_header == next || k->blocks[w->cur].loop_depth > k->blocks[next].loop_depth;
            w->trips[next] = back ? w->trips[next] + 1 : 1;
        }
        w->cur = next;
        w->remaining[next]--;
        w->pc = k->blocks[next].first;
    }
    if (barrier) wave_arrive(s, w, t, issued_pc);
    else wave_ready(s, w);
}

static void start_block(Sim *s, int slot_index, double t, long *next_block_id, double blocks_total) {
    BlockSlot *slot = &s->slots[slot_index];
    if ((double)*next_block_id >= blocks_total) {
        slot->live = 0;
        return;
    }
    (*next_block_id)++;
    slot->live = 1;
    slot->waves_alive = s->waves_per_block;
    slot->waves_at_barrier = 0;
    slot->barrier_last = 0;
    slot->done = t;
    for (int i = 0; i < s->waves_per_block; i++) {
        Wave *w = &s->waves[slot->first_wave + i];
        /* A block's waves go to the CU's SIMDs in turn. */
        wave_start(s, w, slot_index, (int)((slot_index * s->waves_per_block + i) % s->simds), i == 0, *next_block_id);
        w->next_issue = w->last_issue = t;
        if (!w->alive) slot->waves_alive--;
    }
    for (int i = 0; i < s->waves_per_block; i++) wave_ready(s, &s->waves[slot->first_wave + i]);
    if (slot->waves_alive == 0) slot->live = 0;
}

/* Which blocks each block of k reaches along its edges (itself included): a row of bits per
 * block, by repeated passes until nothing changes; NULL for a kernel too big to tabulate. */
static unsigned char *reachability(const CodeKernel *k, size_t *row_bytes) {
    int n = k->nblocks;
    if (n <= 0 || n > 8192) return NULL;
    size_t row = (size_t)(n + 7) / 8;
    unsigned char *reach = calloc((size_t)n, row);
    if (!reach) return NULL;
    for (int b = 0; b < n; b++) reach[(size_t)b * row + (size_t)b / 8] |= (unsigned char)(1u << (b % 8));
    for (int changed = 1; changed;) {
        changed = 0;
        for (int b = n - 1; b >= 0; b--) {
            int next[2] = {k->blocks[b].fallthrough, k->blocks[b].target};
            for (int e = 0; e < 2; e++) {
                if (next[e] < 0) continue;
                unsigned char *to = reach + (size_t)b * row, *from = reach + (size_t)next[e] * row;
                for (size_t i = 0; i < row; i++) {
                    unsigned char merged = to[i] | from[i];
                    if (merged != to[i]) to[i] = merged, changed = 1;
                }
            }
        }
    }
    *row_bytes = row;
    return reach;
}

static int by_time(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double sim_block_capacity(const ModelDevice *d, const SimLaunch *L) {
    if (!(L->blocks > 0) || !(L->threads > 0)) return 1;
    double waves_per_block = ceil(L->threads / L->blocks / d->wave_size);
    double occupancy = L->waves_per_simd > 0 ? fmin(L->waves_per_simd, d->max_waves_per_simd) : d->max_waves_per_simd;
    /* On GCN the block limit binds only blocks of more than one wave (they take a barrier resource each). */
    double block_limit = waves_per_block > 1 ? d->max_blocks_per_cu : d->max_one_wave_blocks_per_cu;
    return fmax(1, fmin(block_limit, floor(occupancy * d->simds_per_cu / waves_per_block)));
}

double sim_resident_blocks(const ModelDevice *d, const SimLaunch *L) {
    if (!(L->blocks > 0) || !(L->threads > 0)) return 1;
    double launches = L->launches > 0 ? L->launches : 1;
    return fmin(sim_block_capacity(d, L), ceil(L->blocks / launches / d->compute_units));
}

int sim_kernel(const ModelDevice *d, const SimLaunch *L, SimResult *out, char *err, size_t err_size) {
    memset(out, 0, sizeof *out);
    const CodeKernel *k = L->code;
    double launches = L->launches > 0 ? L->launches : 1;
    double blocks_per_launch = L->blocks / launches;
    if (!(blocks_per_launch > 0) || !(L->threads > 0)) {
        snprintf(err, err_size, "kernel %s: a launch with no blocks or threads", k->name);
        return -1;
    }
    Sim s;
    memset(&s, 0, sizeof s);
    s.d = d;
    s.L = L;
    s.k = k;
    s.nvidia = L->nvidia;
    s.walk_trace = getenv("TIMESIM_WALK") != NULL;
    s.reach = reachability(k, &s.reach_row);
    s.simds = (int)d->simds_per_cu;
    s.wave_size = (int)d->wave_size;
    double valu = d->wave_size / d->lanes_per_simd;
    s.unit_cycles[UNIT_VALU] = valu;
    s.unit_cycles[UNIT_TRANS] = d->wave_size / d->trans_lanes_per_simd;
    s.unit_cycles[UNIT_SALU] = d->salu_issue_cycles;
    s.unit_cycles[UNIT_VMEM] = d->vmem_issue_cycles;
    s.unit_cycles[UNIT_LDS] = d->vmem_issue_cycles;
    s.unit_cycles[UNIT_SMEM] = d->smem_issue_cycles;
    s.unit_cycles[UNIT_BRANCH] = d->branch_issue_cycles;
    int map[CODE_PIPE_COUNT] = {UNIT_VALU, UNIT_TRANS, UNIT_SALU, UNIT_VMEM, UNIT_LDS, UNIT_SMEM, UNIT_BRANCH, -1, -1, -1};
    /* AMD's transcendentals run on the VALU itself, at a quarter of its lanes. */
    if (!s.nvidia) map[CODE_PIPE_TRANS] = UNIT_TRANS, s.unit_cycles[UNIT_TRANS] = d->wave_size / d->trans_lanes_per_simd;
    memcpy(s.unit_of_pipe, map, sizeof map);
    s.cadence = d->valu_issue_cycles;
    s.dispatch = d->dispatch_cycles;
    s.valu_latency = d->valu_latency_cycles;
    s.trans_latency = d->trans_latency_cycles;
    s.unit_bytes = d->segment_bytes;
    s.l1_lat = d->l1_latency_ns * d->clock_ghz;
    s.l2_lat = d->l2_latency_ns * d->clock_ghz;
    s.dram_lat = d->dram_latency_ns * d->clock_ghz;
    double active_cus = fmin(d->compute_units, blocks_per_launch);
    s.l1_per_cycle = d->l1_bytes_per_clock;
    s.l2_per_cycle = d->l2_gbps / d->clock_ghz / active_cus;
    s.dram_per_cycle = d->dram_stream_gbps / d->clock_ghz / active_cus;
    s.hot_per_cycle = d->same_address_atomics_per_clock / active_cus;

    /* The launch's shape on the busiest CU. */
    s.waves_per_block = (int)ceil(L->threads / L->blocks / d->wave_size);
    double blocks_on_cu = ceil(blocks_per_launch / d->compute_units);
    double resident = sim_resident_blocks(d, L);
    s.resident = (int)resident;
    out->resident_blocks = resident;
    out->blocks_per_cu = blocks_on_cu;
    out->stream_nvidia = s.nvidia;

    s.nwaves_max = s.resident * s.waves_per_block;
    s.waves = calloc((size_t)s.nwaves_max, sizeof *s.waves);
    s.slots = calloc((size_t)s.resident, sizeof *s.slots);
    s.simd_free = calloc((size_t)s.simds, sizeof *s.simd_free);
    int max_regs = 0;
    for (int i = 0; i < k->ninsns; i++) max_regs += k->insns[i].ndst + k->insns[i].nsrc;
    s.reg_slots = 2 * max_regs + 16;
    s.reg_keys = malloc((size_t)s.reg_slots * sizeof *s.reg_keys);
    s.reg_index = malloc((size_t)s.reg_slots * sizeof *s.reg_index);
    long sample_cap = (long)blocks_on_cu;
    s.block_done_times = calloc((size_t)sample_cap + 1, sizeof *s.block_done_times);
    int ok = s.waves && s.slots && s.simd_free && s.reg_keys && s.reg_index && s.block_done_times;
    if (ok) {
        for (int i = 0; i < s.reg_slots; i++) s.reg_keys[i] = -1;
        for (int i = 0; i < k->ninsns; i++) {
            for (int r = 0; r < k->insns[i].ndst; r++) dense_reg(&s, k->insns[i].dst[r]);
            for (int r = 0; r < k->insns[i].nsrc; r++) dense_reg(&s, k->insns[i].src[r]);
        }
        for (int i = 0; i < s.nwaves_max && ok; i++) {
            s.waves[i].remaining = calloc((size_t)k->nblocks + 1, sizeof(int));
            s.waves[i].initial = calloc((size_t)k->nblocks + 1, sizeof(int));
            s.waves[i].trips = calloc((size_t)k->nblocks + 1, sizeof(int));
            ok = s.waves[i].remaining != NULL && s.waves[i].initial != NULL && s.waves[i].trips != NULL;
            if (ok && s.nvidia) {
                s.waves[i].reg_ready = calloc((size_t)s.nregs + 1, sizeof(double));
                s.waves[i].reg_kind = calloc((size_t)s.nregs + 1, 1);
                ok = s.waves[i].reg_ready && s.waves[i].reg_kind;
            }
        }
    }
    int status = 0;
    if (!ok) {
        snprintf(err, err_size, "kernel %s: out of memory for the simulation", k->name);
        status = -1;
    }
    double stall_sum[SIM_STALL_COUNT] = {0};
    double waves_resident_cycles = 0;
    long budget = L->instruction_budget > 0 ? L->instruction_budget : 4000000;
    /* One round of resident blocks must fit the budget: past it, loops run a share of their trips and
     * the time is scaled back (their steady rate; the code outside loops is counted that many times over). */
    double per_wave = 0;
    for (int b = 0; b < k->nblocks; b++) {
        double lead = L->lead_runs ? L->lead_runs[b] : L->block_runs[b];
        per_wave += fmax(L->block_runs[b], lead / s.waves_per_block) * k->blocks[b].count;
    }
    double round = per_wave * s.waves_per_block * s.resident;
    s.loop_share = round > budget ? budget / round : 1;
    long next_block_id = 0;
    double now = 0, finish = 0;
    if (status == 0) {
        for (int i = 0; i < s.resident; i++) {
            s.slots[i].first_wave = i * s.waves_per_block;
            s.slots[i].nwaves = s.waves_per_block;
            start_block(&s, i, 0, &next_block_id, blocks_on_cu);
        }
        /* Issue, earliest wave first (the oldest on a tie), until every block is done or the budget is spent. */
        for (;;) {
            Wave *best = NULL;
            for (int i = 0; i < s.nwaves_max; i++) {
                Wave *w = &s.waves[i];
                if (!w->alive || w->ready == INFINITY) continue;
                if (!best || w->ready < best->ready || (w->ready == best->ready && w->age < best->age)) best = w;
            }
            if (!best) {
                int any = 0;
                for (int i = 0; i < s.resident; i++) any |= s.slots[i].live;
                if (any) { /* waves held at a barrier that can never open */
                    snprintf(err, err_size, "kernel %s: the simulated waves wait at a barrier that no wave can open", k->name);
                    status = -1;
                }
                break;
            }
            now = best->ready;
            int slot_index = best->block;
            int simd = best->simd;
            issue(&s, best, now, stall_sum);
            /* Its SIMD's other waves see the SIMD busier now. */
            for (int i = 0; i < s.nwaves_max; i++)
                if (s.waves[i].alive && s.waves[i].simd == simd && &s.waves[i] != best && !s.waves[i].at_barrier)
                    wave_ready(&s, &s.waves[i]);
            BlockSlot *slot = &s.slots[slot_index];
            if (slot->live && slot->waves_alive == 0) {
                double done = fmax(now, slot->done);
                if (s.blocks_done < sample_cap) s.block_done_times[s.blocks_done] = done;
                if (done > finish) finish = done;
                s.blocks_done++;
                slot->live = 0;
                if (s.issued < budget) start_block(&s, slot_index, done, &next_block_id, blocks_on_cu);
            }
            if (s.blocks_done >= (long)blocks_on_cu) break;
            if (s.issued >= budget) {
                int any = 0;
                for (int i = 0; i < s.resident; i++) any |= s.slots[i].live;
                if (!any) break;
            }
        }
    }
    if (status == 0) {
        double cycles = fmax(now, finish);
        long done = s.blocks_done;
        out->simulated_blocks = (double)done;
        if ((double)done < blocks_on_cu && done > 0) {
            qsort(s.block_done_times, (size_t)done, sizeof *s.block_done_times, by_time);
            /* The rest at the steady rate of the later half of the blocks done. */
            long half = done / 2;
            double rate = half > 0 && done - half > 0 ? (s.block_done_times[done - 1] - s.block_done_times[half - 1]) / (double)(done - half)
                                                      : s.block_done_times[done - 1] / (double)done;
            if (!(rate > 0)) rate = s.block_done_times[done - 1] / (double)done;
            cycles = s.block_done_times[done - 1] + (blocks_on_cu - (double)done) * rate;
        }
        cycles /= s.loop_share;
        out->loop_share = s.loop_share;
        out->cycles_per_launch = cycles;
        out->launch_ms = launches * d->launch_us * 1e-3;
        out->ms = launches * cycles / (d->clock_ghz * 1e6) + out->launch_ms;
        double total = 0;
        for (int i = 0; i < SIM_STALL_COUNT; i++) total += stall_sum[i];
        waves_resident_cycles = total;
        for (int i = 0; i < SIM_STALL_COUNT; i++) out->stall[i] = total > 0 ? stall_sum[i] / total : 0;
        out->waves_per_simd = now > 0 ? waves_resident_cycles / (now * s.simds) : 0;
        out->issue_share = now > 0 ? (double)s.issued * fmax(s.dispatch, 1) / (now * s.simds) : 0;
        out->instructions_per_wave = s.wave_counter > 0 ? (double)s.issued / (double)s.wave_counter : 0;
        out->dram_bytes_per_cu = s.dram_bytes;
        out->l2_bytes_per_cu = s.l2_bytes;
        /* What binds: the largest share of a wave's time, "other" (another wave issued: the SIMD was
         * busy) counted with issuing. */
        int top = 0;
        for (int i = 1; i < SIM_STALL_COUNT; i++)
            if (i != SIM_issue && out->stall[i] + (i == SIM_other ? out->stall[SIM_issue] : 0) >
                                      out->stall[top] + (top == SIM_other ? out->stall[SIM_issue] : 0))
                top = i;
        static const char *const words[SIM_STALL_COUNT] = {
#define SIM_STALL_WORDS(name, what) what,
            SIM_STALLS(SIM_STALL_WORDS)
#undef SIM_STALL_WORDS
        };
        out->binding = top;
        double top_share = out->stall[top] + (top == SIM_other ? out->stall[SIM_issue] : 0);
        snprintf(out->binds, sizeof out->binds, "%s: %.0f%% of a wave's cycles; %.1f waves per SIMD",
                 top == SIM_other ? "issuing, or ready while another wave issued" : words[top], 100 * top_share,
                 out->waves_per_simd);
    }
    for (int i = 0; s.waves && i < s.nwaves_max; i++) {
        free(s.waves[i].remaining);
        free(s.waves[i].initial);
        free(s.waves[i].trips);
        free(s.waves[i].reg_ready);
        free(s.waves[i].reg_kind);
    }
    free(s.waves);
    free(s.slots);
    free(s.simd_free);
    free(s.reg_keys);
    free(s.reg_index);
    free(s.block_done_times);
    free(s.reach);
    return status;
}
