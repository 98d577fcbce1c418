/* Unit tests of the time model (common/cpu/model/timemodel.c), each against a
 * figure worked out by hand in its comment. The device is a toy with round
 * figures, so the arithmetic can be followed: 1 GHz (1 cycle = 1 ns = 1e-6
 * ms), 2 CUs of 4 SIMDs, wave 64. Counts a test does not set are unknown
 * (NAN) where the model has a fallback for them. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cpu/model/timemodel.h"

static ModelDevice toy(void) {
    ModelDevice d;
    model_device_init(&d, "toy");
    const struct { const char *figure; double value; } figures[] = {
        {"clock_ghz", 1}, {"compute_units", 2}, {"simds_per_cu", 4}, {"lanes_per_simd", 16}, {"wave_size", 64},
        {"max_waves_per_simd", 10}, {"max_blocks_per_cu", 8}, {"max_one_wave_blocks_per_cu", 40}, {"fp32_tflops", 1}, {"dram_gbps", 100},
        {"dram_stream_gbps", 80}, {"l2_gbps", 200}, {"l2_bytes", 1048576},
        {"l1_bytes", 1e9}, /* as good as unlimited, but in the test of L1's capacity */
        {"l1_bytes_per_clock", 64}, {"lds_bytes_per_clock", 128}, {"dram_latency_ns", 500},
        {"l2_latency_ns", 300}, {"l1_latency_ns", 100}, {"lds_latency_cycles", 50}, {"scalar_latency_cycles", 40},
        {"scalar_cache_bytes", 1024}, {"cus_per_scalar_cache", 2}, {"atomic_latency_cycles", 400},
        {"same_address_atomics_per_clock", 1}, {"cas_float_atomics", 1}, {"valu_issue_cycles", 4},
        {"valu_latency_cycles", 4}, {"trans_lanes_per_simd", 4}, {"trans_latency_cycles", 16}, {"vmem_issue_cycles", 4}, {"salu_issue_cycles", 4}, {"smem_issue_cycles", 4},
        {"branch_issue_cycles", 4}, {"dispatch_cycles", 0.8}, {"launch_us", 5}, {"barrier_cycles", 16}, {"segment_bytes", 64},
    };
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
        assert_true(model_device_set(&d, figures[i].figure, figures[i].value));
    return d;
}

/* One launch of 2 blocks of 256 threads: 8 waves, one per SIMD. */
static ModelCounters one_wave_per_simd(void) {
    ModelCounters c;
    memset(&c, 0, sizeof c);
    c.launches = 1;
    c.blocks = 2;
    c.threads = 512;
    c.traced_waves = 8;
    c.dram_load_requests = c.uniform_blocks = c.uniform_block_segments = c.uniform_launch_segments = NAN;
    return c;
}

static ModelCode no_code(void) {
    ModelCode code;
    memset(&code, 0, sizeof code);
    code.critical_instructions = NAN;
    return code;
}

/* A wait right after its load, run `runs` times in all, `critical` of them on
 * blocks' critical paths, `dram` of its load's requests reaching DRAM (NAN:
 * unknown); no re-reads counted beyond any distance. */
static ModelWait wait_of(int counter, double runs, double critical, double dram) {
    ModelWait w;
    memset(&w, 0, sizeof w);
    w.counter = counter;
    w.runs = runs;
    w.critical_runs = critical;
    w.dram_share = dram;
    for (int b = 0; b < MODEL_REUSE_BUCKETS; b++) w.beyond_share[b] = isnan(dram) ? NAN : 0;
    w.line = -1;
    return w;
}

/* A wait on memory, its critical runs and DRAM share unknown. */
static ModelWait memory_wait(double runs) { return wait_of(MODEL_WAIT_MEMORY, runs, NAN, NAN); }

#define MS(cycles) ((cycles) * 1e-6) /* at 1 GHz */

static void device_figures_are_named_and_all_needed(void **state) {
    (void)state;
    ModelDevice d;
    model_device_init(&d, "partial");
    assert_string_equal(model_device_missing(&d), "clock_ghz");
    assert_false(model_device_set(&d, "clock_mhz", 1000)); /* not a figure the model knows */
    d = toy();
    assert_null(model_device_missing(&d));
}

/* unique 1 MB at the 80 GB/s a stream reaches: 0.0125 ms. Past L1, 10,000
 * segments of 64 bytes at 200 GB/s: 0.0032 ms. Through L1, 100,000 segments
 * at 64 bytes a clock on 2 CUs: 50,000 cycles, 0.05 ms: it binds; plus a 5 us
 * launch: 0.055 ms. */
static void memory_terms_and_the_binding_one(void **state) {
    (void)state;
    ModelDevice d = toy();
    ModelCounters c = one_wave_per_simd();
    c.unique_bytes = 1e6;
    c.load_phase_segments = 10000;
    c.load_segments = 100000;
    ModelCode code = no_code();
    ModelResult r;
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.term_ms[MODEL_TERM_dram], 0.0125, 1e-12);
    assert_float_equal(r.term_ms[MODEL_TERM_l2], 0.0032, 1e-12);
    assert_float_equal(r.term_ms[MODEL_TERM_l1], 0.05, 1e-12);
    assert_int_equal(r.binding, MODEL_TERM_l1);
    assert_false(r.launch_bound);
    assert_float_equal(r.model_ms, 0.055, 1e-12);
    /* The floor: unique bytes at the data sheet's 100 GB/s (no FLOPs) plus the launch. */
    assert_float_equal(r.floor_ms, 0.015, 1e-12);
    assert_non_null(strstr(r.why, "L1"));
}

/* The compiler vectorised 4 loads into 1: 1,000 traced requests, 250
 * compiled; the L1 sees a quarter of the traced segment visits (25,000). */
static void vectorised_loads_touch_fewer_segments(void **state) {
    (void)state;
    ModelDevice d = toy();
    ModelCounters c = one_wave_per_simd();
    c.load_requests = 1000;
    c.load_segments = 100000;
    ModelCode code = no_code();
    code.vmem_loads = 250;
    code.vmem = 250;
    ModelResult r;
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.term_ms[MODEL_TERM_l1], MS(100000 * 0.25 / 2), 1e-12);
}

/* A wave of 1,000 instructions waits 100 times on memory, each right after
 * its load: 1,000 x 4 issue cycles + 100 x 500 (every byte misses L2: no
 * bytes counted, so DRAM's latency) = 54,000 cycles, one wave per SIMD. */
static void dependent_loads_cost_their_latency(void **state) {
    (void)state;
    ModelDevice d = toy();
    ModelCounters c = one_wave_per_simd();
    ModelCode code = no_code();
    code.instructions = 8 * 1000;
    ModelWait wait = memory_wait(8 * 100);
    ModelResult r;
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_float_equal(r.round_trips_per_wave, 100, 1e-9);
    assert_float_equal(r.path_cycles_per_wave, 54000, 1e-6);
    assert_float_equal(r.term_ms[MODEL_TERM_latency], MS(54000), 1e-12);
    assert_int_equal(r.binding, MODEL_TERM_latency);
    assert_non_null(strstr(r.why, "100 dependent memory round trips per wave"));
    /* 100 instructions between load and wait hide 400 of the 500 cycles. */
    wait.distance = 100;
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_float_equal(r.path_cycles_per_wave, 4000 + 100 * 100, 1e-6);
    /* Half the traffic hits L2: the latency is 300 + 0.5 x (500 - 300). */
    c.load_phase_segments = 1000;
    c.unique_bytes = 1000 * 64 / 2;
    wait.distance = 0;
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_float_equal(r.path_cycles_per_wave, 4000 + 100 * 400, 1e-6);
}

/* Which level a wait pays, from the trace: of 1,000 load requests 250 reach
 * DRAM (a first touch, or a convoy behind one), so a wait with no share of
 * its own pays 300 + 0.25 x (500 - 300) = 350 cycles; a wait whose load
 * always reaches DRAM (a first-touch stream) pays all 500. The latencies are
 * nanoseconds: at 2 GHz the 500 ns are 1,000 cycles, the 300 ns 600. */
static void each_wait_pays_its_own_level(void **state) {
    (void)state;
    ModelDevice d = toy();
    ModelCounters c = one_wave_per_simd();
    c.load_requests = 1000;
    c.dram_load_requests = 250;
    ModelCode code = no_code();
    code.instructions = 8 * 1000;
    ModelWait wait = memory_wait(8 * 100);
    ModelResult r;
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_float_equal(r.dram_share, 0.25, 1e-12);
    assert_float_equal(r.path_cycles_per_wave, 4000 + 100 * 350, 1e-6);
    wait.dram_share = 1;
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_float_equal(r.path_cycles_per_wave, 4000 + 100 * 500, 1e-6);
    model_device_set(&d, "clock_ghz", 2);
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_float_equal(r.path_cycles_per_wave, 4000 + 100 * 1000, 1e-6);
    assert_float_equal(r.term_ms[MODEL_TERM_latency], (4000 + 100 * 1000) * 0.5e-6, 1e-12);
}

/* Re-reads the L2 no longer holds. Of the loads, 1,000 segments were
 * re-read after more than 256 KiB of other data, 800 after 1 MiB, 400 after
 * 4 MiB, 100 after 16 MiB. The toy's L2 holds 1 MiB: 800 segments (51,200
 * bytes) come from DRAM again, on top of the 1 MB of unique bytes, 0.01314 ms
 * at 80 GB/s. A 2 MiB L2 lies halfway (in log2) between the 1 and 4 MiB
 * counts: 600 segments. A wait whose load's requests are 10% first loads and
 * 40% re-reads beyond 1 MiB pays DRAM's latency for half: 300 + 0.5 x 200. */
static void rereads_the_l2_no_longer_holds(void **state) {
    (void)state;
    ModelDevice d = toy();
    ModelCounters c = one_wave_per_simd();
    c.unique_bytes = 1e6;
    const double beyond[MODEL_REUSE_BUCKETS] = {1000, 800, 400, 100, 0, 0};
    memcpy(c.segments_beyond, beyond, sizeof beyond);
    ModelCode code = no_code();
    code.instructions = 8 * 1000;
    ModelWait wait = wait_of(MODEL_WAIT_MEMORY, 8 * 100, NAN, 0.1);
    const double shares[MODEL_REUSE_BUCKETS] = {0.5, 0.4, 0.2, 0.1, 0, 0};
    memcpy(wait.beyond_share, shares, sizeof shares);
    ModelResult r;
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_float_equal(r.l2_miss_bytes, 800 * 64, 1e-9);
    assert_float_equal(r.term_ms[MODEL_TERM_dram], (1e6 + 800 * 64) / 80e9 * 1e3, 1e-15);
    assert_float_equal(r.path_cycles_per_wave, 4000 + 100 * 400, 1e-6);
    model_device_set(&d, "l2_bytes", 2097152);
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_float_equal(r.l2_miss_bytes, 600 * 64, 1e-9);
}

/* Spills: each of the 8 waves moves 1,000 bytes a lane to and from scratch,
 * 512,000 bytes in all (64 lanes a wave), through L1 and L2: 2.56 us at the
 * L2's 200 GB/s, 1 us through two L1s of 256 bytes a clock. With 4 KiB of
 * scratch a lane, the 8 resident waves (one a SIMD) hold 8 x 64 x 4096 =
 * 2 MiB of it, twice the 1 MiB L2: half the spilled bytes go to DRAM,
 * 256,000 bytes at 80 GB/s, 3.2 us, and DRAM binds. With 1 KiB a lane
 * (512 KiB) the L2 holds it all: DRAM is idle. */
static void spills_beyond_the_l2_go_to_dram(void **state) {
    (void)state;
    ModelDevice d = toy();
    model_device_set(&d, "l1_bytes_per_clock", 256);
    ModelCounters c = one_wave_per_simd();
    ModelCode code = no_code();
    code.scratch_bytes = 8 * 1000;
    code.scratch_lane_bytes = 4096;
    ModelResult r;
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.scratch_bytes, 512000, 1e-9);
    assert_float_equal(r.scratch_miss, 0.5, 1e-12);
    assert_float_equal(r.term_ms[MODEL_TERM_l2], 512000 / 200e9 * 1e3, 1e-15);
    assert_float_equal(r.term_ms[MODEL_TERM_l1], 512000 / 256.0 / 2 * 1e-6, 1e-15);
    assert_float_equal(r.term_ms[MODEL_TERM_dram], 256000 / 80e9 * 1e3, 1e-15);
    assert_int_equal(r.binding, MODEL_TERM_dram);
    code.scratch_lane_bytes = 1024;
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.scratch_miss, 0, 1e-12);
    assert_float_equal(r.term_ms[MODEL_TERM_dram], 0, 1e-15);
    assert_int_equal(r.binding, MODEL_TERM_l2);
}

/* Scalar loads: each of the 2 blocks sweeps 2 KB (32 segments) through a
 * 1 KB scalar cache: half of it misses, and a scalar wait pays 40 + 0.5 x
 * (300 - 40) = 170 cycles. Both blocks read the same 2 KB (the launch's
 * distinct set is 32 segments too), so the 2 CUs sharing one cache add
 * nothing; reading disjoint 2 KB each (64 in the launch), the shared cache
 * holds 1 KB of 4: 40 + 0.75 x 260 = 235. A 1 KB table fits: 40. */
static void scalar_loads_beyond_the_cache_pay_l2(void **state) {
    (void)state;
    ModelDevice d = toy();
    ModelCounters c = one_wave_per_simd();
    c.uniform_block_segments = 2 * 32;
    c.uniform_launch_segments = 32;
    ModelCode code = no_code();
    ModelWait wait = wait_of(MODEL_WAIT_SCALAR, 8, NAN, NAN);
    ModelResult r;
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_float_equal(r.scalar_miss, 0.5, 1e-12);
    assert_float_equal(r.path_cycles_per_wave, 170, 1e-9);
    c.uniform_launch_segments = 64;
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_float_equal(r.path_cycles_per_wave, 235, 1e-9);
    c.uniform_block_segments = 2 * 16;
    c.uniform_launch_segments = 16;
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_float_equal(r.path_cycles_per_wave, 40, 1e-9);
    /* One block of the two made the uniform loads, and a count extended from
     * two slices says 64 segments for it: no block holds more than the
     * launch's 32 distinct ones (2 KB), so half misses again: 170. */
    c.uniform_blocks = 1;
    c.uniform_block_segments = 64;
    c.uniform_launch_segments = 32;
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_float_equal(r.path_cycles_per_wave, 170, 1e-9);
}

/* A barrier waits for the block's slowest wave. 2 blocks of 4 waves, each
 * wave 100 instructions, and wave 0 of each block an epilogue of 300 more
 * after the block's barrier; wave 0 also waits once on a first-touch load.
 * The average wave's path, (8 x 100 + 2 x 300) / 8 x 4 = 700 cycles, would
 * dilute the epilogue 4 times; the block's critical path is its busiest
 * wave's: 400 x 4 = 1,600, + 500 for the wait (once per block), + 16 for
 * the barrier = 2,116 cycles, one batch. */
static void a_barrier_waits_for_the_busiest_wave(void **state) {
    (void)state;
    ModelDevice d = toy();
    ModelCounters c = one_wave_per_simd();
    c.barriers = 2;
    ModelCode code = no_code();
    code.instructions = 8 * 100 + 2 * 300;
    code.critical_instructions = 2 * 400;
    ModelWait wait = wait_of(MODEL_WAIT_MEMORY, 2, 2, 1);
    ModelResult r;
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_float_equal(r.path_cycles_per_wave, 1600 + 500 + 16, 1e-9);
    assert_float_equal(r.term_ms[MODEL_TERM_latency], MS(2116), 1e-12);
    /* Without the critical runs: the average wave, 700 + 2 / 8 x 500 + 16. */
    code.critical_instructions = NAN;
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_float_equal(r.path_cycles_per_wave, 700 + 125 + 16, 1e-9);
}

/* Blocks go whole to a CU, and their waves to its SIMDs: on 60 CUs, 25
 * blocks of 5 waves put 2 waves on the busiest SIMD (not the 1 that 125
 * waves spread over 240 SIMDs would), so 1,000 VALU instructions a wave take
 * 2 x 4,000 cycles there. */
static void blocks_place_their_waves_on_one_cu(void **state) {
    (void)state;
    ModelDevice d = toy();
    model_device_set(&d, "compute_units", 60);
    ModelCounters c = one_wave_per_simd();
    c.blocks = 25;
    c.threads = 25 * 320;
    c.traced_waves = 125;
    ModelCode code = no_code();
    code.valu = 125 * 1000;
    ModelResult r;
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.busiest_cu_blocks, 1, 1e-12);
    assert_float_equal(r.term_ms[MODEL_TERM_valu], MS(2 * 4000), 1e-12);
}

/* L1 keeps a block-phase's re-reads only while the resident blocks' lines
 * fit. Each of 2 blocks (1 per CU) loads 512 distinct segments (32 KB) in its
 * one phase, each 4 times: 1,024 distinct, 3,072 re-reads. A 16 KB L1 holds
 * half of the 32 KB: half the re-reads go to L2, (1,024 + 1,536) x 64 bytes
 * at 200 GB/s = 0.00081920 ms; a 64 KB L1 holds it all: 1,024 x 64 bytes,
 * 0.00032768 ms. */
static void rereads_beyond_l1_go_to_l2(void **state) {
    (void)state;
    ModelDevice d = toy();
    model_device_set(&d, "l1_bytes", 16384);
    ModelCounters c = one_wave_per_simd();
    c.load_phase_segments = 2 * 512;
    c.load_segments = 2 * 2048;
    ModelCode code = no_code();
    ModelResult r;
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.l1_miss, 0.5, 1e-12);
    assert_float_equal(r.term_ms[MODEL_TERM_l2], (1024 + 1536) * 64 / 200e9 * 1e3, 1e-15);
    model_device_set(&d, "l1_bytes", 65536);
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.term_ms[MODEL_TERM_l2], 1024 * 64 / 200e9 * 1e3, 1e-15);
}

/* How the sides overlap (Hong and Kim 2009), once per launch. 16 blocks of 4
 * waves on 2 CUs: 8 blocks a CU, all resident (8 waves a SIMD), one batch.
 * Memory-bound: a wave's 50,000 cycles of waits outlast the 7 x 4,000 the
 * others compute. Each wave issues
 * 1,000 instructions (4,000 cycles) and waits 100 times on DRAM (500 each):
 * a 54,000-cycle path binds, and after the last return the 7 other waves'
 * computation per round trip (4,000 / 100 = 40 cycles each) follows: 280
 * more. With 10,000 instructions a wave the SIMD's issue binds (8 x 40,000
 * = 320,000 cycles), and one round trip's exposed wait, 500, follows it. */
static void the_other_side_shows_past_the_binding_term(void **state) {
    (void)state;
    ModelDevice d = toy();
    ModelCounters c = one_wave_per_simd();
    c.blocks = 16;
    c.threads = 16 * 256;
    c.traced_waves = 64;
    ModelCode code = no_code();
    code.instructions = code.valu = 64 * 1000;
    ModelWait wait = memory_wait(64 * 100);
    wait.dram_share = 1;
    ModelResult r;
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_float_equal(r.resident, 8, 1e-12);
    assert_int_equal(r.binding, MODEL_TERM_latency);
    assert_float_equal(r.term_ms[MODEL_TERM_latency], MS(54000), 1e-12);
    assert_float_equal(r.overlap_ms, MS(280), 1e-12);
    assert_float_equal(r.model_ms, MS(54280) + 0.005, 1e-12);
    code.instructions = code.valu = 64 * 10000;
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_int_equal(r.binding, MODEL_TERM_valu);
    assert_float_equal(r.term_ms[MODEL_TERM_valu], MS(320000), 1e-12);
    assert_float_equal(r.overlap_ms, MS(500), 1e-12);
    /* A path that binds but is mostly issue: 10,000 instructions a wave
     * (40,000 cycles), 1,000 of them VALU, and one DRAM wait: 40,500 cycles
     * against the VALU's 8 x 4,000. Its waits (500) are far less than what
     * the other 7 waves compute (7 x 40,000): compute-bound in Hong and
     * Kim's sense, so one exposed round trip follows, not 7 waves' work. */
    code.instructions = 64 * 10000;
    code.valu = 64 * 1000;
    wait = memory_wait(64);
    wait.dram_share = 1;
    model_kernel(&d, &c, &code, &wait, 1, &r);
    assert_int_equal(r.binding, MODEL_TERM_latency);
    assert_float_equal(r.term_ms[MODEL_TERM_latency], MS(40500), 1e-12);
    assert_float_equal(r.overlap_ms, MS(500), 1e-12);
    /* Ten LDS waits a wave too (50 cycles each): they lengthen the path by
     * 500, but they are no memory period: still one DRAM trip's 500 after it. */
    ModelWait both[2] = {wait, wait_of(MODEL_WAIT_LDS, 64 * 10, NAN, NAN)};
    model_kernel(&d, &c, &code, both, 2, &r);
    assert_float_equal(r.term_ms[MODEL_TERM_latency], MS(41000), 1e-12);
    assert_float_equal(r.overlap_ms, MS(500), 1e-12);
}

/* 64 waves on 8 SIMDs: 8 each; the compiler allows 2 resident, so a SIMD
 * runs 4 batches of 2, each taking one wave's path (1,000 x 4 cycles). */
static void occupancy_sets_the_batches(void **state) {
    (void)state;
    ModelDevice d = toy();
    ModelCounters c = one_wave_per_simd();
    c.blocks = 16;
    c.threads = 16 * 256;
    c.traced_waves = 64;
    ModelCode code = no_code();
    code.instructions = 64 * 1000;
    code.waves_per_simd = 2;
    ModelResult r;
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.resident, 2, 1e-12);
    assert_float_equal(r.occupancy, 2, 1e-12);
    assert_float_equal(r.fill, 64.0 / (8 * 2), 1e-12);
    assert_float_equal(r.term_ms[MODEL_TERM_latency], MS(4 * 4000), 1e-12);
    /* The blocks a CU holds at a time: 80 one-wave blocks, 40 a CU, all 40
     * at once (10 waves on each of 4 SIMDs; the toy's limit of 8 blocks binds
     * only blocks of more than one wave, as on GCN): one batch. 40 blocks of
     * 2 waves, 20 a CU: 8 at a time, 3 batches. */
    c.blocks = 80;
    c.threads = 80 * 64;
    c.traced_waves = 80;
    code.instructions = 80 * 1000;
    code.waves_per_simd = 0;
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.resident_blocks, 40, 1e-12);
    assert_float_equal(r.term_ms[MODEL_TERM_latency], MS(4000), 1e-12);
    c.blocks = 40;
    c.threads = 40 * 128;
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.resident_blocks, 8, 1e-12);
    assert_float_equal(r.term_ms[MODEL_TERM_latency], MS(3 * 4000), 1e-12);
}

/* 9 waves on 8 SIMDs: the busiest SIMD issues 2 waves' VALU instructions,
 * 2 x 1,000 x 4 cycles = 8,000; its CU's VMEM pipe takes 5 waves (9 on 2 CUs)
 * x 10 loads x 4 cycles = 200. */
static void issue_counts_the_busiest_simd(void **state) {
    (void)state;
    ModelDevice d = toy();
    ModelCounters c = one_wave_per_simd();
    c.blocks = 9;
    c.threads = 9 * 64;
    c.traced_waves = 9;
    ModelCode code = no_code();
    code.valu = 9 * 1000;
    code.vmem = 9 * 10;
    ModelResult r;
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.term_ms[MODEL_TERM_valu], MS(8000), 1e-12);
    assert_float_equal(r.term_ms[MODEL_TERM_vmem], MS(200), 1e-12);
    assert_int_equal(r.binding, MODEL_TERM_valu);
}

/* One dispatch for every pipe. 8 waves, one per SIMD, each issuing 1,000 VALU,
 * 600 SALU, 100 scalar loads, 200 vector memory, 300 LDS and 400 branch
 * instructions: 2,600. With GCN's dispatch (5 kinds per 4-cycle slot, 0.8
 * cycles each) they take 2,080 cycles, less than the VALU's own 4,000: the
 * VALU binds. With one instruction unit taking 4 cycles a warp instruction of
 * any kind (G80), the 2,600 take 10,400 cycles: the dispatch binds, 0.0104 ms
 * (more than the 5 us launch). The source view then shares it by each line's
 * instructions of every pipe: 1,000 of 2,600 on the first line, 1,600 on the
 * second. */
static void every_pipe_shares_one_dispatch(void **state) {
    (void)state;
    ModelDevice d = toy();
    ModelCounters c = one_wave_per_simd();
    ModelCode code = no_code();
    code.valu = 8 * 1000;
    code.salu = 8 * 600;
    code.smem = 8 * 100;
    code.vmem = 8 * 200;
    code.lds = 8 * 300;
    code.branch = 8 * 400;
    ModelResult r;
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.term_ms[MODEL_TERM_issue], MS(2080), 1e-12);
    assert_float_equal(r.term_ms[MODEL_TERM_valu], MS(4000), 1e-12);
    assert_int_equal(r.binding, MODEL_TERM_valu);
    model_device_set(&d, "dispatch_cycles", 4);
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.term_ms[MODEL_TERM_issue], MS(10400), 1e-12);
    assert_int_equal(r.binding, MODEL_TERM_issue);
    assert_non_null(strstr(r.why, "dispatch (every pipe's instructions): 2600 instructions per wave"));
    ModelLine lines[2];
    memset(lines, 0, sizeof lines);
    lines[0].valu = 8 * 1000;
    lines[1].salu = 8 * 600;
    lines[1].smem = 8 * 100;
    lines[1].vmem = 8 * 200;
    lines[1].lds = 8 * 300;
    lines[1].branch = 8 * 400;
    double share[2];
    model_line_shares(&d, &c, &code, NULL, 0, &r, lines, 2, share);
    assert_float_equal(share[0], 1000.0 / 2600, 1e-12);
    assert_float_equal(share[1], 1600.0 / 2600, 1e-12);
}

/* 1,000 float atomics on one address: a compare-and-swap loop lands one per
 * 400-cycle round trip, 0.4 ms; with native float atomics the L2 takes one a
 * clock, 0.001 ms. */
static void atomics_on_one_address(void **state) {
    (void)state;
    ModelDevice d = toy();
    ModelCounters c = one_wave_per_simd();
    c.atomics_max_one_address = 1000;
    ModelCode code = no_code();
    code.cas_loop = 1;
    ModelResult r;
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.term_ms[MODEL_TERM_atomic], 0.4, 1e-12);
    assert_int_equal(r.binding, MODEL_TERM_atomic);
    assert_non_null(strstr(r.why, "compare-and-swap"));
    model_device_set(&d, "cas_float_atomics", 0);
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.term_ms[MODEL_TERM_atomic], 0.001, 1e-12);
}

/* LDS: 1,000,000 bank cycles over 2 CUs, 500,000 cycles = 0.5 ms; half the
 * bytes per clock doubles it. */
static void lds_bank_cycles_per_cu(void **state) {
    (void)state;
    ModelDevice d = toy();
    ModelCounters c = one_wave_per_simd();
    c.lds_bank_cycles = 1e6;
    ModelCode code = no_code();
    ModelResult r;
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.term_ms[MODEL_TERM_lds], 0.5, 1e-12);
    model_device_set(&d, "lds_bytes_per_clock", 64);
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.term_ms[MODEL_TERM_lds], 1.0, 1e-12);
}

/* A kernel whose work is shorter than its launch is bound by the launch:
 * 100 issue cycles against 5,000 ns. Its FLOPs (100 per lane, 512 lanes) at
 * 1 TFLOP/s are 5.12e-8 ms. */
static void a_small_kernel_is_bound_by_its_launch(void **state) {
    (void)state;
    ModelDevice d = toy();
    ModelCounters c = one_wave_per_simd();
    ModelCode code = no_code();
    code.valu = 8 * 25;
    code.flops_per_lane = 8 * 100;
    ModelResult r;
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_true(r.launch_bound);
    assert_float_equal(r.model_ms, MS(100) + 0.005, 1e-12);
    assert_float_equal(r.flops, 100 * 512, 1e-9);
    assert_float_equal(r.floor_ms, 100 * 512 / 1e12 * 1e3 + 0.005, 1e-15);
    assert_non_null(strstr(r.why, "launch"));
}

/* A device of wave 32 runs twice the waves of a wave64 trace, each the same
 * instruction stream: 16 warps on 8 SIMDs, 2 each. */
static void narrower_waves_double_the_waves(void **state) {
    (void)state;
    ModelDevice d = toy();
    model_device_set(&d, "wave_size", 32);
    ModelCounters c = one_wave_per_simd();
    ModelCode code = no_code();
    code.valu = 8 * 1000;
    ModelResult r;
    model_kernel(&d, &c, &code, NULL, 0, &r);
    assert_float_equal(r.waves, 16, 1e-12);
    assert_float_equal(r.term_ms[MODEL_TERM_valu], MS(2 * 1000 * 4), 1e-12);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(device_figures_are_named_and_all_needed),
        cmocka_unit_test(memory_terms_and_the_binding_one),
        cmocka_unit_test(vectorised_loads_touch_fewer_segments),
        cmocka_unit_test(dependent_loads_cost_their_latency),
        cmocka_unit_test(each_wait_pays_its_own_level),
        cmocka_unit_test(rereads_the_l2_no_longer_holds),
        cmocka_unit_test(spills_beyond_the_l2_go_to_dram),
        cmocka_unit_test(scalar_loads_beyond_the_cache_pay_l2),
        cmocka_unit_test(a_barrier_waits_for_the_busiest_wave),
        cmocka_unit_test(blocks_place_their_waves_on_one_cu),
        cmocka_unit_test(rereads_beyond_l1_go_to_l2),
        cmocka_unit_test(the_other_side_shows_past_the_binding_term),
        cmocka_unit_test(occupancy_sets_the_batches),
        cmocka_unit_test(issue_counts_the_busiest_simd),
        cmocka_unit_test(every_pipe_shares_one_dispatch),
        cmocka_unit_test(atomics_on_one_address),
        cmocka_unit_test(lds_bank_cycles_per_cu),
        cmocka_unit_test(a_small_kernel_is_bound_by_its_launch),
        cmocka_unit_test(narrower_waves_double_the_waves),
    };
    return cmocka_run_group_tests_name("time model", tests, NULL, NULL);
}
