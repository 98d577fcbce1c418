/* How often each block of the compiled code ran (sim.h: code_block_runs),
 * and where each memory instruction's requests went (sim_memory).
 *
 * The trace build runs the source as written, without unrolling or
 * vectorising; the compilers do both. A block's memory instructions are its
 * anchors: a line whose lanes move 8 bytes per run in the trace (two floats)
 * and whose compiled code moves 40 bytes (dwordx4 + dword, twice) was
 * unrolled 5 times, so each of those instructions ran a fifth as often as the
 * line's requests. A block in a loop runs as often as its most frequent
 * anchor, or without one as its loop's (the most of any anchor in the same
 * innermost loop), no more often than its own traced line where that ran
 * fewer times (a branch inside the loop); with neither, as its line. A block
 * in no loop runs once per wave, or fewer where every traced line of it ran
 * fewer times than the kernel has waves (a branch: if (tid < 64)). */
#include "sim.h"

#include <math.h>
#include <string.h>

const double trace_within_bytes[TRACE_WITHIN_BUCKETS] = {2048, 8192, 32768, 131072};
const double trace_beyond_bytes[TRACE_BEYOND_BUCKETS] = {262144.0, 1048576.0, 4194304.0, 16777216.0, 67108864.0,
                                                        268435456.0};

static int is_lds(int mem) { return mem == CODE_MEM_LDS_LOAD || mem == CODE_MEM_LDS_STORE; }
static int is_global_access(int mem) { return mem == CODE_MEM_GLOBAL_LOAD || mem == CODE_MEM_GLOBAL_STORE; }

/* The trace's name for a compiled line: both are "file:line", the file without folders. */
static const char *line_of(const CodeKernel *k, const CodeInsn *in) { return in->line >= 0 ? k->lines[in->line] : NULL; }

/* A line's sites of one space: their most requests, their bytes and most lanes. */
typedef struct {
    double runs, bytes, lanes;
} LineSites;

static LineSites line_sites(const TraceKernel *t, const char *line, int space) {
    LineSites s = {0, 0, 0};
    for (int i = 0; i < t->nsites; i++) {
        const TraceSite *x = &t->sites[i];
        if (x->space != space || x->kind == TRACE_ATOMIC || strcmp(x->line, line) != 0) continue;
        s.bytes += x->bytes;
        if (x->lanes > s.lanes) s.lanes = x->lanes;
        if (x->requests > s.runs) s.runs = x->requests;
    }
    return s;
}

static double line_runs(const TraceKernel *t, const char *line) {
    for (int i = 0; i < t->nlines; i++)
        if (strcmp(t->lines[i].line, line) == 0) return t->lines[i].wave_runs;
    return -1;
}

/* The compiled bytes per lane of a line's memory instructions of one space, over the kernel. */
static double compiled_bytes(const CodeKernel *k, const char *line, int space) {
    double bytes = 0;
    for (int i = 0; i < k->ninsns; i++) {
        const CodeInsn *in = &k->insns[i];
        const char *l = line_of(k, in);
        if (!l || strcmp(l, line) != 0) continue;
        if ((space == TRACE_SHARED && is_lds(in->mem)) || (space == TRACE_GLOBAL && is_global_access(in->mem)))
            bytes += in->bytes;
    }
    return bytes;
}

static int same_space(const CodeInsn *in, int space) {
    return (space == TRACE_SHARED && is_lds(in->mem)) || (space == TRACE_GLOBAL && is_global_access(in->mem));
}

/* The runs of loop `header` by line l's count: compilers unroll a loop and add a remainder loop
 * (and may peel copies out of it), so the line's compiled copies sit in several loops. The
 * line's runs per wave are dealt to them, the loop with the most copies a trip first, each
 * taking whole trips (the unrolled loop runs floor(n / 4) trips, its remainder what is left):
 * the copies outside loops once per wave. */
static double loop_runs(const CodeKernel *k, const TraceKernel *t, int header, const char *l, int space, LineSites s) {
    enum { MOST_LOOPS = 64 };
    int heads[MOST_LOOPS], nloops = 0;
    double copies[MOST_LOOPS], outside = 0, per_run = s.bytes / s.lanes;
    for (int b = 0; b < k->nblocks; b++) {
        const CodeBlock *blk = &k->blocks[b];
        for (int i = blk->first; i < blk->first + blk->count; i++) {
            const CodeInsn *in = &k->insns[i];
            const char *m = line_of(k, in);
            if (!m || strcmp(m, l) != 0 || !same_space(in, space)) continue;
            double c = in->bytes / per_run;
            if (blk->loop_depth == 0) {
                outside += c;
                continue;
            }
            int x = 0;
            while (x < nloops && heads[x] != blk->loop_header) x++;
            if (x == nloops) {
                if (nloops == MOST_LOOPS) continue;
                heads[nloops] = blk->loop_header, copies[nloops++] = 0;
            }
            copies[x] += c;
        }
    }
    double waves = t->traced_waves > 0 ? t->traced_waves : 1;
    double n = fmax(0, s.runs / waves - outside); /* the line's runs per wave left for its loops */
    for (int dealt = 0; dealt < nloops; dealt++) {
        int most = -1;
        for (int x = 0; x < nloops; x++)
            if (copies[x] > 0 && (most < 0 || copies[x] > copies[most])) most = x;
        if (most < 0) break;
        double trips = dealt == nloops - 1 ? n / copies[most] : floor(n / copies[most]);
        if (heads[most] == header) return trips * waves;
        n -= trips * copies[most];
        copies[most] = 0;
    }
    return 0;
}

/* Runs of block b's most frequent anchor; -1: none. Its line in *line if line is not NULL. */
static double anchor_runs(const CodeKernel *k, const TraceKernel *t, int b, const char **line) {
    const CodeBlock *blk = &k->blocks[b];
    double best = -1;
    for (int i = blk->first; i < blk->first + blk->count; i++) {
        const CodeInsn *in = &k->insns[i];
        const char *l = line_of(k, in);
        int space = is_lds(in->mem) ? TRACE_SHARED : is_global_access(in->mem) ? TRACE_GLOBAL : -1;
        if (!l || space < 0) continue;
        LineSites s = line_sites(t, l, space);
        if (s.lanes <= 0 || s.bytes <= 0 || compiled_bytes(k, l, space) <= 0) continue;
        double runs = blk->loop_depth > 0 ? loop_runs(k, t, blk->loop_header, l, space, s)
                                          : s.runs / fmax(1, compiled_bytes(k, l, space) / (s.bytes / s.lanes));
        if (runs > best) {
            best = runs;
            if (line) *line = l;
        }
    }
    return best;
}

/* The runs of the traced line most of block b's instructions belong to; -1: none. Its line in *line. */
static double block_line_runs(const CodeKernel *k, const TraceKernel *t, int b, const char **line) {
    const CodeBlock *blk = &k->blocks[b];
    int best_count = 0;
    double best = -1;
    for (int i = blk->first; i < blk->first + blk->count; i++) {
        const char *l = line_of(k, &k->insns[i]);
        if (!l) continue;
        double runs = line_runs(t, l);
        if (runs < 0) continue;
        int count = 0;
        for (int j = blk->first; j < blk->first + blk->count; j++) {
            const char *m = line_of(k, &k->insns[j]);
            count += m && strcmp(m, l) == 0;
        }
        if (count > best_count) {
            best_count = count, best = runs;
            if (line) *line = l;
        }
    }
    return best;
}

/* A block in no loop: the most of its traced lines' runs (wave runs, or
 * site requests), leaving out a loop's lines peeled here (more runs than
 * waves), if fewer than the waves; else once per wave. */
static double once_or_fewer(const CodeKernel *k, const TraceKernel *t, int b) {
    const CodeBlock *blk = &k->blocks[b];
    double most = -1;
    for (int i = blk->first; i < blk->first + blk->count; i++) {
        const char *l = line_of(k, &k->insns[i]);
        if (!l) continue;
        double runs = line_runs(t, l);
        LineSites global = line_sites(t, l, TRACE_GLOBAL), shared = line_sites(t, l, TRACE_SHARED);
        if (global.lanes > 0 && global.runs > runs) runs = global.runs;
        if (shared.lanes > 0 && shared.runs > runs) runs = shared.runs;
        if (runs < 0 || runs > t->traced_waves) continue;
        if (runs > most) most = runs;
    }
    return most >= 0 && most < t->traced_waves ? most : t->traced_waves;
}

/* How much more than the average wave of its block the busiest one ran a
 * line (the trace's critical_runs: each barrier phase's busiest wave): 1
 * when the waves share it evenly, the waves per block when one wave ran it
 * all (thread 0's loop). */
static double lead_ratio(const TraceKernel *t, const char *line) {
    if (!line || !(t->traced_blocks > 0) || !(t->traced_waves > 0)) return 1;
    for (int i = 0; i < t->nlines; i++)
        if (strcmp(t->lines[i].line, line) == 0) {
            const TraceLine *l = &t->lines[i];
            if (!(l->wave_runs > 0) || isnan(l->critical_runs)) return 1;
            double ratio = (l->critical_runs / t->traced_blocks) / (l->wave_runs / t->traced_waves);
            double most = t->traced_waves / t->traced_blocks;
            return ratio < 1 ? 1 : ratio > most ? most : ratio;
        }
    return 1;
}

void code_block_runs(const CodeKernel *k, const TraceKernel *t, double *runs, double *lead) {
    double waves = t->traced_waves > 0 ? t->traced_waves : 1;
    for (int b = 0; b < k->nblocks; b++) {
        const CodeBlock *blk = &k->blocks[b];
        const char *line = NULL;
        double r;
        if (blk->loop_depth == 0) {
            r = once_or_fewer(k, t, b);
            block_line_runs(k, t, b, &line);
        } else {
            r = anchor_runs(k, t, b, &line);
            if (r < 0) {
                double trips = -1;
                const char *trip_line = NULL;
                for (int x = 0; x < k->nblocks; x++)
                    if (k->blocks[x].loop_depth && k->blocks[x].loop_header == blk->loop_header) {
                        const char *l = NULL;
                        double a = anchor_runs(k, t, x, &l);
                        if (a > trips) trips = a, trip_line = l;
                    }
                const char *own = NULL;
                double mine = block_line_runs(k, t, b, &own);
                if (trips >= 0 && !(mine >= 0 && mine < trips)) r = trips, line = trip_line;
                else r = mine, line = own;
                if (r < 0) r = waves; /* nothing traced: once per wave */
            }
        }
        runs[b] = r / waves;
        if (lead) lead[b] = runs[b] * lead_ratio(t, line);
    }
}

/* Of segments re-read beyond each trace_beyond_bytes, those beyond capacity
 * (in a straight line in log2 of the distance between two buckets). */
static double interpolate(const double *counts, const double *bytes, int n, double capacity) {
    if (isnan(counts[0])) return NAN;
    if (capacity <= bytes[0]) return counts[0];
    for (int i = 0; i + 1 < n; i++)
        if (capacity <= bytes[i + 1]) {
            double f = log2(capacity / bytes[i]) / log2(bytes[i + 1] / bytes[i]);
            return counts[i] + f * (counts[i + 1] - counts[i]);
        }
    return counts[n - 1];
}

void sim_memory(const ModelDevice *d, const CodeKernel *k, int nvidia, const TraceKernel *t, double resident_blocks,
                SimMemory *mem) {
    double atomic_lanes = 0;
    for (int i = 0; i < t->nsites; i++)
        if (t->sites[i].kind == TRACE_ATOMIC && t->sites[i].space == TRACE_GLOBAL) atomic_lanes += t->sites[i].atomics;
    double hot_share = atomic_lanes > 0 && t->atomics_max_one_address > 0 ? fmin(1, t->atomics_max_one_address / atomic_lanes) : 0;
    for (int i = 0; i < k->ninsns; i++) {
        const CodeInsn *in = &k->insns[i];
        SimMemory *m = &mem[i];
        memset(m, 0, sizeof *m);
        if (in->mem == CODE_MEM_NONE) continue;
        m->units = ceil(in->bytes * d->wave_size / d->segment_bytes);
        if (in->mem == CODE_MEM_SCRATCH_LOAD || in->mem == CODE_MEM_SCRATCH_STORE) {
            /* Spills: every resident lane's scratch at once is the working set; what the L2 cannot hold goes to DRAM. */
            double waves_per_block = t->blocks > 0 ? ceil(t->threads / t->blocks / d->wave_size) : 1;
            double set = k->scratch_lane_bytes * d->wave_size * waves_per_block * resident_blocks * d->compute_units;
            m->dram = set > d->l2_bytes ? 1 - d->l2_bytes / set : 0;
            m->traced = 1;
            continue;
        }
        const char *l = line_of(k, in);
        if (!l) continue;
        int space = (in->mem == CODE_MEM_LDS_LOAD || in->mem == CODE_MEM_LDS_STORE || in->mem == CODE_MEM_LDS_ATOMIC)
                        ? TRACE_SHARED
                        : TRACE_GLOBAL;
        int kind = (in->mem == CODE_MEM_GLOBAL_LOAD || in->mem == CODE_MEM_LDS_LOAD || in->mem == CODE_MEM_SCALAR_LOAD)
                       ? TRACE_LOAD
                   : (in->mem == CODE_MEM_GLOBAL_STORE || in->mem == CODE_MEM_LDS_STORE) ? TRACE_STORE
                                                                                        : TRACE_ATOMIC;
        /* The line's sites of this space and kind, summed (two buffers on one line share their counts). */
        double requests = 0, lanes = 0, bytes = 0, units = 0, bank = 0, dram_requests = 0, segments = 0;
        double beyond[TRACE_BEYOND_BUCKETS] = {0}, within[TRACE_WITHIN_BUCKETS] = {0};
        int beyond_known = 1, within_known = 1;
        for (int s = 0; s < t->nsites; s++) {
            const TraceSite *x = &t->sites[s];
            if (x->space != space || x->kind != kind || strcmp(x->line, l) != 0) continue;
            requests += x->requests;
            lanes += x->lanes;
            bytes += x->bytes;
            units += nvidia ? x->sectors : x->segments;
            segments += x->segments;
            bank += x->bank_cycles;
            dram_requests += x->dram_requests;
            for (int b = 0; b < TRACE_BEYOND_BUCKETS; b++) {
                if (isnan(x->beyond[b])) beyond_known = 0;
                beyond[b] += x->beyond[b];
            }
            for (int b = 0; b < TRACE_WITHIN_BUCKETS; b++) {
                if (isnan(x->within[b])) within_known = 0;
                within[b] += x->within[b];
            }
        }
        if (!(requests > 0) || !(lanes > 0)) continue;
        m->traced = 1;
        /* The compiled instruction moves `scale` times a traced request's bytes per lane. */
        double scale = in->bytes > 0 ? in->bytes / (bytes / lanes) : 1;
        m->units = fmax(1, units / requests * scale);
        m->bank_cycles = bank / requests * scale;
        if (kind == TRACE_ATOMIC) m->hot_atomics = hot_share * lanes / requests;
        if (space == TRACE_GLOBAL && kind == TRACE_LOAD && segments > 0) {
            double l1 = 0;
            if (within_known && resident_blocks > 0) {
                double hits = interpolate(within, trace_within_bytes, TRACE_WITHIN_BUCKETS, d->l1_bytes / resident_blocks);
                if (d->l1_bytes / resident_blocks < trace_within_bytes[0])
                    hits *= d->l1_bytes / resident_blocks / trace_within_bytes[0];
                l1 = fmin(1, hits / segments);
            }
            double dram = dram_requests / requests;
            if (beyond_known) dram += interpolate(beyond, trace_beyond_bytes, TRACE_BEYOND_BUCKETS, d->l2_bytes) / segments;
            m->l1 = l1;
            m->dram = fmin(1 - l1, dram);
        }
    }
}
