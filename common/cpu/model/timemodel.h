/* The time model: what a kernel's counted work would cost on a real GPU.
 *
 * One pure function, model_kernel(): the executor's counters for a kernel
 * (common/cpu/trace/trace.h), the facts of its compiled code (instructions a wave
 * issues per pipe, its waits on memory, its occupancy: isa_facts.awk) and one
 * device's figures (devices.tsv, each with its public source) in; a table of
 * terms out, in milliseconds, with the one that binds. common/cpu/model/README.md
 * says what each term is and where it is wrong. */
#ifndef TIMEMODEL_H
#define TIMEMODEL_H

#include <stddef.h>

/* The re-read distances the trace tells apart: 256 KiB, 1, 4, 16, 64 and
 * 256 MiB (common/cpu/trace: a segment re-read after more than that much
 * other data came in). The model reads the two around its device's L2. */
#define MODEL_REUSE_BUCKETS 6
extern const double model_reuse_bytes[MODEL_REUSE_BUCKETS];
extern const char *const model_reuse_names[MODEL_REUSE_BUCKETS];

/* The device figures the model reads, by the names devices.tsv gives them. */
#define MODEL_DEVICE_FIGURES(X)                                                            \
    X(clock_ghz) X(compute_units) X(simds_per_cu) X(lanes_per_simd) X(wave_size)             \
    X(max_waves_per_simd) X(max_blocks_per_cu) X(max_one_wave_blocks_per_cu) X(fp32_tflops) X(dram_gbps) X(dram_stream_gbps)  \
    X(l2_gbps) X(l2_bytes) X(l1_bytes) X(l1_bytes_per_clock) X(lds_bytes_per_clock)              \
    X(dram_latency_ns) X(l2_latency_ns) X(l1_latency_ns) X(lds_latency_cycles)                  \
    X(scalar_latency_cycles) X(scalar_cache_bytes) X(cus_per_scalar_cache)                      \
    X(atomic_latency_cycles) X(same_address_atomics_per_clock) X(cas_float_atomics)          \
    X(valu_issue_cycles) X(valu_latency_cycles) X(trans_lanes_per_simd) X(trans_latency_cycles) X(vmem_issue_cycles) X(salu_issue_cycles) X(smem_issue_cycles)     \
    X(branch_issue_cycles) X(dispatch_cycles) X(launch_us) X(barrier_cycles) X(segment_bytes)

typedef struct {
    char name[32];
#define MODEL_FIGURE_FIELD(name) double name;
    MODEL_DEVICE_FIGURES(MODEL_FIGURE_FIELD)
#undef MODEL_FIGURE_FIELD
} ModelDevice;

/* What the trace build counted for one kernel (sums over its launches). */
typedef struct {
    double launches, blocks, threads;
    double traced_waves;           /* waves as the executor ran them (its WAVE) */
    double load_requests;          /* wave-level loads, as the source asks for them (no vectorising) */
    double load_segments, load_sectors;             /* per request, summed */
    double load_phase_segments, load_phase_sectors; /* distinct per block between barriers */
    double store_segments, store_sectors;
    double unique_bytes;
    double lds_bank_cycles;        /* counted for traced waves of 64 lanes */
    double barriers;               /* summed over blocks */
    double atomics_max_one_address;
    double dram_load_requests;     /* loads that reach DRAM (first touch, or a convoy behind one); NAN: unknown */
    double uniform_blocks;         /* blocks that made a uniform load; NAN: unknown (then all blocks) */
    double uniform_block_segments; /* distinct 64-byte segments each block's uniform loads touch, summed; NAN: unknown */
    double uniform_launch_segments; /* the same per launch, over all blocks, summed over launches; NAN: unknown */
    double segments_beyond[MODEL_REUSE_BUCKETS]; /* load segments re-read after more than model_reuse_bytes[i]; NAN: unknown */
} ModelCounters;

/* The compiled code (gfx906 assembly, run counts from the trace): wave-level
 * instructions issued, summed over all traced waves. */
typedef struct {
    double valu, salu, smem, vmem, lds, branch, instructions;
    double vmem_loads;             /* of vmem: the loads, vectorised as the compiler made them */
    double critical_instructions;  /* issued by each barrier phase's busiest wave, summed over blocks; NAN: unknown */
    double flops_per_lane;         /* FLOPs a lane did, summed over waves: x lanes = FLOPs */
    int cas_loop;                  /* a float atomicAdd compiled as a compare-and-swap loop */
    double waves_per_simd;         /* occupancy the compiler reports; 0: the device's most */
    double scratch_bytes;          /* bytes a lane moved to and from scratch (spills), summed over waves */
    double scratch_lane_bytes;     /* scratch the compiler gives each lane */
} ModelCode;

enum { MODEL_WAIT_MEMORY, MODEL_WAIT_LDS, MODEL_WAIT_SCALAR };

/* One wait of the compiled code on data it just asked for. */
typedef struct {
    int counter;                   /* MODEL_WAIT_* */
    double runs;                   /* times it ran, summed over traced waves */
    double critical_runs;          /* the times each barrier phase's busiest wave ran it, summed over blocks; NAN: unknown */
    double distance;               /* instructions the wave issued between the load and it */
    double dram_share;             /* of its load's requests, those that reach DRAM (first loads, convoys); NAN: the kernel's share */
    double beyond_share[MODEL_REUSE_BUCKETS]; /* and those re-read after more than model_reuse_bytes[i]; NAN: unknown */
    int line;                      /* the load's source line, an index into model_line_shares' lines; -1: none */
} ModelWait;

/* What one source line of a kernel did, for the source view: its share of
 * each term's counter (sums over traced waves, like ModelCode's). */
typedef struct {
    double segments;               /* global segments (sectors) its requests touched */
    double lds_bank_cycles, atomics;
    double valu, salu, smem, vmem, lds, branch, instructions; /* compiled instructions it issued */
} ModelLine;

/* The terms, in the order the tables print them. X(name, what it charges). */
#define MODEL_TERMS(X)                                                                         \
    X(dram, "unique bytes at the memory bandwidth")                                            \
    X(l2, "bytes past L1 (distinct per block between barriers) at the L2 bandwidth")            \
    X(l1, "segments every request touches, at the L1's bytes per clock per CU")                 \
    X(lds, "LDS bank cycles per CU")                                                           \
    X(valu, "vector instructions issued on the busiest SIMD")                                  \
    X(salu, "scalar instructions issued on the busiest SIMD")                                  \
    X(smem, "scalar memory instructions issued on the busiest SIMD")                            \
    X(vmem, "vector memory instructions issued through the busiest CU")                        \
    X(branch, "branches issued on the busiest SIMD")                                           \
    X(issue, "instructions of every pipe through the busiest SIMD's one dispatch")              \
    X(latency, "each block's critical path (issue, exposed waits, barriers), in batches of resident blocks") \
    X(atomic, "atomics on the busiest address, one after another")

enum {
#define MODEL_TERM_ENUM(name, what) MODEL_TERM_##name,
    MODEL_TERMS(MODEL_TERM_ENUM)
#undef MODEL_TERM_ENUM
    MODEL_TERM_COUNT
};

extern const char *const model_term_names[MODEL_TERM_COUNT];

typedef struct {
    double term_ms[MODEL_TERM_COUNT];
    double launch_ms;              /* launches x the device's launch cost, added to the largest term */
    double overlap_ms;             /* what the other side leaves exposed (Hong and Kim), added to the largest term */
    double model_ms;               /* the largest term + overlap_ms + launch_ms */
    double floor_ms;               /* max(unique bytes / DRAM, FLOPs / peak) + launch_ms */
    double flops;
    int binding;                   /* MODEL_TERM_* of the largest term */
    int launch_bound;              /* the launches cost more than the largest term */
    double waves;                  /* the device's waves (warps) */
    double occupancy;              /* waves per SIMD the registers and LDS allow (or the device's most) */
    double fill;                   /* waves per launch / (SIMDs x occupancy): below 1, idle slots */
    double resident;               /* waves per SIMD at a time */
    double round_trips_per_wave;   /* dependent waits on memory, per wave */
    double memory_latency;         /* cycles of a global load, L2's and DRAM's mixed as the kernel's loads reach DRAM */
    double dram_share;             /* of the kernel's loads, the share that reach DRAM (a wait without its own) */
    double l2_miss_bytes;          /* re-read bytes the device's L2 no longer holds: DRAM traffic beyond the unique bytes */
    double scratch_bytes;          /* bytes spilled to and reloaded from scratch, all lanes */
    double scratch_miss;           /* of them, the share the L2 cannot hold: DRAM traffic too */
    double scalar_miss;            /* of the scalar loads, the share the scalar cache cannot hold */
    double l1_miss;                /* of the re-reads within a barrier phase, the share L1 cannot hold */
    double resident_blocks;        /* blocks per CU at a time */
    double busiest_cu_blocks;      /* blocks per launch on the busiest CU */
    double path_cycles_per_wave;   /* latency term: one block's critical path, in cycles */
    char why[320];                 /* the binding term in words */
} ModelResult;

void model_kernel(const ModelDevice *device, const ModelCounters *counters, const ModelCode *code,
                  const ModelWait *waits, size_t wait_count, ModelResult *out);

/* The source view: each line's share (0 to 1) of the term that binds r, by
 * that term's own counter: segments for dram, l2 and l1, bank cycles for
 * lds, atomics, a pipe's instructions; for latency, the line's instructions
 * at the issue rate plus the exposed waits on its loads. All 0 when the
 * launches bind. */
void model_line_shares(const ModelDevice *device, const ModelCounters *counters, const ModelCode *code,
                       const ModelWait *waits, size_t wait_count, const ModelResult *result, const ModelLine *lines,
                       size_t line_count, double *share);

/* Sets a figure by name; 0 if the model has no figure of that name. */
int model_device_set(ModelDevice *device, const char *figure, double value);
/* The first figure still unset (NaN), or NULL: model_device_init sets all to NaN. */
void model_device_init(ModelDevice *device, const char *name);
const char *model_device_missing(const ModelDevice *device);
/* The devices of a device table (devices.tsv), in its order; with code_for (a comma-separated
 * list), only those it names, each of which must be there. At most `most`; every figure set.
 * Errors name the file and exit (tsv.h). Returns how many. */
int model_devices_read(const char *path, const char *code_for, ModelDevice *devices, int most);

#endif
