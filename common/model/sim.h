/* The simulation: a kernel's compiled code (code.h) played out on one CU
 * (SM) of a device, wave by wave, as the hardware issues it.
 *
 * The busiest CU's blocks run in rounds, as many at a time as its registers,
 * LDS and wave slots allow. Each resident wave walks its instructions in the
 * order the trace's block counts give; each SIMD (NVIDIA: each scheduler)
 * issues one instruction at a time from its oldest wave that can go. A wave
 * cannot go while:
 *  - the pipe its instruction needs is busy (VALU for wave_size/lanes cycles);
 *  - its s_waitcnt counter has too many loads in flight (gfx906), or a
 *    register its instruction reads is not written yet (NVIDIA scoreboard);
 *  - it waits at a barrier for the slowest wave of its block.
 * A load's data comes back after its level's latency (L1, L2 or DRAM, as
 * the trace's reuse distances place it), or later when the CU's share of
 * that level's bandwidth is queued up. The time of the launch is the busiest
 * CU's, plus the launch cost. Every figure is the device's (devices.tsv, each
 * with its source). */
#ifndef SIM_H
#define SIM_H

#include "code.h"
#include "device.h"

/* What the trace measured of one memory site (a source line, a space and a
 * kind): the per-site table of common/tracer, summed over launches. */
enum { TRACE_GLOBAL, TRACE_SHARED };
enum { TRACE_LOAD, TRACE_STORE, TRACE_ATOMIC };
#define TRACE_WITHIN_BUCKETS 4
extern const double trace_within_bytes[TRACE_WITHIN_BUCKETS]; /* 2, 8, 32, 128 KiB */
/* The re-read distances the trace tells apart across blocks: a segment re-read after more than
 * 256 KiB, 1, 4, 16, 64 or 256 MiB of other data came in (common/tracer). */
#define TRACE_BEYOND_BUCKETS 6
extern const double trace_beyond_bytes[TRACE_BEYOND_BUCKETS];

typedef struct {
    char line[128]; /* "file.hip:42", the file without its folders */
    int space, kind;
    double requests, lanes, bytes, segments, sectors, bank_cycles, atomics, dram_requests;
    double beyond[TRACE_BEYOND_BUCKETS];      /* segments re-read after more than trace_beyond_bytes[i]; NAN unknown */
    double within[TRACE_WITHIN_BUCKETS];     /* segments the same block re-read within trace_within_bytes[i]; NAN unknown */
} TraceSite;

typedef struct {
    char line[128];
    double wave_runs, critical_runs;
} TraceLine;

typedef struct {
    const TraceSite *sites;
    int nsites;
    const TraceLine *lines;
    int nlines;
    double traced_waves, traced_blocks;
    double launches, blocks, threads;
    double atomics_max_one_address;
} TraceKernel;

/* How often each block of the code ran, per traced wave (code_counts.c): the
 * compiled code's memory instructions anchored to the trace's sites, as
 * README.md says. runs has k->nblocks entries; lead, if not NULL, gets the
 * runs of each block's busiest wave (the first of its block, in the
 * simulation), from the trace's critical runs. */
void code_block_runs(const CodeKernel *k, const TraceKernel *t, double *runs, double *lead);

/* Where a memory instruction's requests go, per instruction of the kernel. */
typedef struct {
    double units;        /* cache units (64-byte segments on AMD, 32-byte sectors on NVIDIA) per request */
    double l1, dram;     /* shares of its units served by L1 and by DRAM (the rest: L2) */
    double bank_cycles;  /* LDS: cycles of the CU's LDS per request */
    double hot_atomics;  /* atomics: lanes per request that serialise on one address */
    int traced;          /* a trace site gave these; else defaults (coalesced, L2) */
} SimMemory;

/* Fills mem (k->ninsns entries) for device d, with `resident_blocks` blocks
 * sharing a CU's L1. */
void sim_memory(const ModelDevice *d, const CodeKernel *k, int nvidia, const TraceKernel *t, double resident_blocks,
                SimMemory *mem);

/* Where a wave's cycles went, the sum over the simulated waves. */
#define SIM_STALLS(X)                                                                 \
    X(issue, "issuing")                                                               \
    X(pipe, "waiting for its pipe (VALU, LDS, memory unit) to take the instruction")  \
    X(dependency, "waiting on an arithmetic result")                                  \
    X(memory, "waiting for global memory")                                            \
    X(lds, "waiting for shared memory (LDS)")                                         \
    X(scalar, "waiting for scalar or constant loads")                                 \
    X(barrier, "waiting at a barrier")                                                \
    X(other, "not chosen: another wave issued")

enum {
#define SIM_STALL_ENUM(name, what) SIM_##name,
    SIM_STALLS(SIM_STALL_ENUM)
#undef SIM_STALL_ENUM
        SIM_STALL_COUNT
};
extern const char *const sim_stall_names[SIM_STALL_COUNT];

typedef struct {
    double ms;                  /* the launches' time, launch cost included */
    double cycles_per_launch;   /* the busiest CU's */
    double launch_ms;
    double resident_blocks;     /* blocks at a time on a CU */
    double waves_per_simd;      /* resident waves per SIMD, on average while the CU was busy */
    double blocks_per_cu;       /* blocks the busiest CU runs per launch */
    double simulated_blocks;    /* of them, simulated (the rest at the steady rate) */
    double loop_share;          /* of each loop's trips, those simulated (the time scaled back by it) */
    double instructions_per_wave;
    double issue_share;         /* of the SIMDs' cycles, those that issued */
    double stall[SIM_STALL_COUNT]; /* shares of a wave's resident cycles */
    double dram_bytes_per_cu, l2_bytes_per_cu;
    int stream_nvidia;          /* the dependency rule: scoreboard (1) or s_waitcnt (0) */
    int binding;                /* the stall that binds (SIM_other: issuing, or another wave issuing) */
    char binds[160];            /* what binds, in words */
} SimResult;

typedef struct {
    const CodeKernel *code;
    int nvidia;                 /* registers, not s_waitcnt, hold a wave (PTX, SASS) */
    const double *block_runs;   /* per block: runs per wave (code_block_runs) */
    const double *lead_runs;    /* per block: the runs of each block's first wave; NULL: as the others */
    const SimMemory *mem;       /* per instruction; NULL: all loads coalesced, from L2 */
    double launches, blocks, threads;  /* the launches' sums, as the trace counted them */
    double lds_bytes_per_block; /* static and dynamic */
    int waves_per_simd;         /* the compiler's occupancy; 0: the device's most */
    long instruction_budget;    /* most instructions to simulate per launch (0: a default); beyond it, blocks at the steady rate */
    double *insn_cycles;        /* if not NULL (ninsns x SIM_STALL_COUNT, zeroed): the simulated waves' cycles
                                   before each instruction issued, by what held them (the source view) */
} SimLaunch;

/* Blocks a CU can hold at once: its wave slots at the compiler's occupancy, the device's block limit. */
double sim_block_capacity(const ModelDevice *d, const SimLaunch *launch);
/* Blocks at a time on a CU: that capacity, or fewer where the grid has fewer. */
double sim_resident_blocks(const ModelDevice *d, const SimLaunch *launch);

/* 0, or -1 with a message in err (a launch with no blocks, a walk that cannot end). */
int sim_kernel(const ModelDevice *d, const SimLaunch *launch, SimResult *out, char *err, size_t err_size);

#endif
