/* The simulation (common/model/sim.h) on small kernels worked by hand:
 * the five mechanisms the terms model missed, each on a device of round
 * figures (1 GHz, so a nanosecond is a cycle) where the answer can be
 * counted on paper. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "model/code.h"
#include "model/sim.h"

/* One SM of 4 schedulers, 32 lanes each; latencies L1 20, L2 100, DRAM 400
 * cycles; an FFMA's result after 4 cycles; nothing costs a launch. */
static ModelDevice round_device(int nvidia) {
    ModelDevice d;
    model_device_init(&d, nvidia ? "round-nvidia" : "round-amd");
    d.clock_ghz = 1;
    d.compute_units = 1;
    d.simds_per_cu = 4;
    d.lanes_per_simd = nvidia ? 32 : 16;
    d.wave_size = nvidia ? 32 : 64;
    d.max_waves_per_simd = 16;
    d.max_blocks_per_cu = 16;
    d.max_one_wave_blocks_per_cu = 16;
    d.fp32_tflops = 1;
    d.dram_gbps = d.dram_stream_gbps = 1e6; /* bandwidth never binds unless a test says so */
    d.l2_gbps = 1e6;
    d.l2_bytes = 1 << 20;
    d.l1_bytes = 16384;
    d.l1_bytes_per_clock = 1e6;
    d.lds_bytes_per_clock = 128;
    d.dram_latency_ns = 400;
    d.l2_latency_ns = 100;
    d.l1_latency_ns = 20;
    d.lds_latency_cycles = 30;
    d.scalar_latency_cycles = 10;
    d.atomic_latency_cycles = 200;
    d.same_address_atomics_per_clock = 1;
    d.valu_issue_cycles = nvidia ? 1 : 4;
    d.valu_latency_cycles = 4;
    d.trans_lanes_per_simd = 4;
    d.trans_latency_cycles = 16;
    d.vmem_issue_cycles = nvidia ? 1 : 4;
    d.salu_issue_cycles = nvidia ? 1 : 4;
    d.smem_issue_cycles = nvidia ? 1 : 4;
    d.branch_issue_cycles = nvidia ? 1 : 4;
    d.dispatch_cycles = 1;
    d.launch_us = 0;
    d.barrier_cycles = 0;
    d.segment_bytes = nvidia ? 32 : 64;
    assert_null(model_device_missing(&d));
    return d;
}

static CodeInsn insn(const char *op, int pipe, int mem, int bytes) {
    CodeInsn in;
    code_insn_clear(&in);
    snprintf(in.op, sizeof in.op, "%s", op);
    in.pipe = (unsigned char)pipe;
    in.mem = (unsigned char)mem;
    in.bytes = (unsigned char)bytes;
    return in;
}

static void regs(CodeInsn *in, int dst, int src1, int src2) {
    if (dst >= 0) in->dst[in->ndst++] = dst;
    if (src1 >= 0) in->src[in->nsrc++] = src1;
    if (src2 >= 0) in->src[in->nsrc++] = src2;
}

static void end_kernel(CodeKernel *k) {
    CodeInsn e = insn("s_endpgm", CODE_PIPE_OTHER, CODE_MEM_NONE, 0);
    code_add_insn(k, &e, NULL);
}

static SimResult run(const ModelDevice *d, CodeFile *f, int nvidia, const double *runs, const SimMemory *mem,
                     double blocks, double threads) {
    char err[256] = "";
    assert_int_equal(code_finish(f, err, sizeof err), 0);
    SimLaunch launch;
    memset(&launch, 0, sizeof launch);
    launch.code = &f->kernels[0];
    launch.nvidia = nvidia;
    launch.block_runs = runs;
    launch.mem = mem;
    launch.launches = 1;
    launch.blocks = blocks;
    launch.threads = threads;
    SimResult r;
    assert_int_equal(sim_kernel(d, &launch, &r, err, sizeof err), 0);
    return r;
}

/* 1. A guarded staging load still waits: a loop of 10 trips, each loading
 * under an exec mask and waiting for it (s_waitcnt vmcnt(0)) before an FMA,
 * is 10 round trips of L2's 100 cycles (the tracer put the loads in L2), not
 * 10 trips of issue alone. Per trip: load (4) + 100 latency + FMA (4) + branch
 * (4): about 112; 10 trips about 1,120 cycles. */
static void test_guarded_staging_load_waits(void **state) {
    (void)state;
    ModelDevice d = round_device(0);
    CodeFile f;
    code_init(&f, CODE_KIND_GCN, "round");
    CodeKernel *k = code_add_kernel(&f, "staging");
    code_add_label(k, "loop");
    CodeInsn load = insn("global_load_dword", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 4);
    load.guarded = 1;
    code_add_insn(k, &load, NULL);
    CodeInsn wait = insn("s_waitcnt", CODE_PIPE_WAIT, CODE_MEM_NONE, 0);
    wait.wait[CODE_WAIT_VM] = 0;
    code_add_insn(k, &wait, NULL);
    CodeInsn fma = insn("v_fmac_f32", CODE_PIPE_VALU, CODE_MEM_NONE, 0);
    code_add_insn(k, &fma, NULL);
    CodeInsn back = insn("s_cbranch_scc1", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
    back.conditional = 1;
    code_add_insn(k, &back, "loop");
    end_kernel(k);
    double runs[2] = {10, 1};
    SimMemory mem[5];
    memset(mem, 0, sizeof mem);
    mem[0].units = 4; /* L2: l1 = dram = 0 */
    SimResult r = run(&d, &f, 0, runs, mem, 1, 64);
    assert_true(r.cycles_per_launch > 1050 && r.cycles_per_launch < 1200);
    assert_true(r.stall[SIM_memory] > 0.8);
    code_free(&f);
}

/* 2. NVIDIA issues a dependent FFMA every 4 cycles, not every cycle: a chain
 * of 100 FFMAs on one warp takes about 400 cycles. Four warps on one
 * scheduler hide each other's latency (one issue a cycle, 400 FFMAs in about
 * 400 cycles); eight take about 800, issue-bound. */
static void chain(CodeFile *f) {
    code_init(f, CODE_KIND_SASS, "round");
    CodeKernel *k = code_add_kernel(f, "chain");
    for (int i = 0; i < 100; i++) {
        CodeInsn fma = insn("FFMA", CODE_PIPE_VALU, CODE_MEM_NONE, 0);
        regs(&fma, 1, 1, 2);
        code_add_insn(k, &fma, NULL);
    }
    CodeInsn exit_insn = insn("EXIT", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
    code_add_insn(k, &exit_insn, NULL);
}

static void test_dependent_issue_on_nvidia(void **state) {
    (void)state;
    ModelDevice d = round_device(1);
    d.simds_per_cu = 1; /* one scheduler: every warp shares it */
    double runs[1] = {1};
    CodeFile f;
    chain(&f);
    SimResult one = run(&d, &f, 1, runs, NULL, 1, 32);
    assert_true(one.cycles_per_launch > 390 && one.cycles_per_launch < 420);
    assert_true(one.stall[SIM_dependency] > 0.6);
    code_free(&f);
    chain(&f);
    SimResult four = run(&d, &f, 1, runs, NULL, 1, 128);
    assert_true(four.cycles_per_launch > 395 && four.cycles_per_launch < 430);
    code_free(&f);
    chain(&f);
    SimResult eight = run(&d, &f, 1, runs, NULL, 1, 256);
    assert_true(eight.cycles_per_launch > 795 && eight.cycles_per_launch < 830);
    code_free(&f);
}

/* 3. Barrier phases add up: in a block of two warps, warp 0 loads from DRAM
 * (400 cycles) before the barrier and warp 1 runs a 100-FFMA chain (400
 * cycles) after it. The block takes about 800 cycles, not the larger 400. */
static void test_barrier_phases_add(void **state) {
    (void)state;
    ModelDevice d = round_device(1);
    CodeFile f;
    code_init(&f, CODE_KIND_SASS, "round");
    CodeKernel *k = code_add_kernel(&f, "phases");
    /* block 0: a branch on the warp (warp 0 falls into the load, warp 1 jumps over it) */
    CodeInsn skip = insn("BRA", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
    skip.conditional = 1;
    code_add_insn(k, &skip, "sync");
    /* block 1: warp 0's load and its use */
    CodeInsn load = insn("LDG.E", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 4);
    regs(&load, 5, 6, -1);
    code_add_insn(k, &load, NULL);
    CodeInsn use = insn("STS", CODE_PIPE_LDS, CODE_MEM_LDS_STORE, 4);
    regs(&use, -1, 5, -1);
    code_add_insn(k, &use, NULL);
    /* block 2: the barrier */
    code_add_label(k, "sync");
    CodeInsn bar = insn("BAR.SYNC", CODE_PIPE_BARRIER, CODE_MEM_NONE, 0);
    code_add_insn(k, &bar, NULL);
    CodeInsn skip2 = insn("BRA", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
    skip2.conditional = 1;
    code_add_insn(k, &skip2, "done");
    /* block 3: warp 1's chain */
    for (int i = 0; i < 100; i++) {
        CodeInsn fma = insn("FFMA", CODE_PIPE_VALU, CODE_MEM_NONE, 0);
        regs(&fma, 1, 1, 2);
        code_add_insn(k, &fma, NULL);
    }
    code_add_label(k, "done");
    CodeInsn exit_insn = insn("EXIT", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
    code_add_insn(k, &exit_insn, NULL);
    /* Half the warps run block 1 and half block 3: warp 0 the first, warp 1 the second (runs_for_wave deals 0.5 so). */
    double runs[5] = {1, 0.5, 1, 0.5, 1};
    SimMemory mem[110];
    memset(mem, 0, sizeof mem);
    mem[1].units = 4;
    mem[1].dram = 1;
    SimResult r = run(&d, &f, 1, runs, mem, 1, 64);
    assert_true(r.cycles_per_launch > 780 && r.cycles_per_launch < 860);
    assert_true(r.stall[SIM_barrier] > 0.3);
    code_free(&f);
}

/* 4. Loads in flight, as the machine code has them: a loop of 8 trips that
 * issues 16 independent loads before it uses any pays one round trip per
 * trip (8 x ~100), where one load and its use per trip (the PTX's view of the
 * same work, 128 trips) pays 128. */
static void loads_in_flight(CodeFile *f, int per_trip) {
    code_init(f, CODE_KIND_SASS, "round");
    CodeKernel *k = code_add_kernel(f, "unrolled");
    code_add_label(k, "loop");
    for (int i = 0; i < per_trip; i++) {
        CodeInsn load = insn("LDG.E", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 4);
        regs(&load, 10 + i, 2, -1);
        code_add_insn(k, &load, NULL);
    }
    for (int i = 0; i < per_trip; i++) {
        CodeInsn add = insn("FADD", CODE_PIPE_VALU, CODE_MEM_NONE, 0);
        regs(&add, 1, 1, 10 + i);
        code_add_insn(k, &add, NULL);
    }
    CodeInsn back = insn("BRA", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
    back.conditional = 1;
    code_add_insn(k, &back, "loop");
    CodeInsn exit_insn = insn("EXIT", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
    code_add_insn(k, &exit_insn, NULL);
}

static void test_loads_in_flight(void **state) {
    (void)state;
    ModelDevice d = round_device(1);
    CodeFile f;
    double unrolled_runs[2] = {8, 1};
    loads_in_flight(&f, 16);
    SimResult unrolled = run(&d, &f, 1, unrolled_runs, NULL, 1, 32);
    /* per trip: 16 issues, 100 latency, 16 dependent adds at 4 cycles: about 180 */
    assert_true(unrolled.cycles_per_launch > 8 * 150 && unrolled.cycles_per_launch < 8 * 200);
    code_free(&f);
    double rolled_runs[2] = {128, 1};
    loads_in_flight(&f, 1);
    SimResult rolled = run(&d, &f, 1, rolled_runs, NULL, 1, 32);
    assert_true(rolled.cycles_per_launch > 128 * 100 && rolled.cycles_per_launch < 128 * 115);
    code_free(&f);
}

/* 5. Reuse distance decides the level: a site whose segments the same block
 * re-reads within 2 KiB is served by L1 (20 cycles), one re-read from
 * beyond the L2's 1 MiB by DRAM. sim_memory reads the trace's columns. */
static void test_reuse_distance_sets_the_level(void **state) {
    (void)state;
    ModelDevice d = round_device(1);
    CodeFile f;
    code_init(&f, CODE_KIND_PTX, "round");
    CodeKernel *k = code_add_kernel(&f, "reuse");
    CodeInsn load = insn("ld.global.f32", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 4);
    load.line = code_line(k, "r.hip:5");
    regs(&load, 1, 2, -1);
    code_add_insn(k, &load, NULL);
    CodeInsn far = insn("ld.global.f32", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 4);
    far.line = code_line(k, "r.hip:6");
    regs(&far, 3, 2, -1);
    code_add_insn(k, &far, NULL);
    CodeInsn exit_insn = insn("ret", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
    code_add_insn(k, &exit_insn, NULL);
    char err[128];
    assert_int_equal(code_finish(&f, err, sizeof err), 0);
    TraceSite sites[2];
    memset(sites, 0, sizeof sites);
    for (int s = 0; s < 2; s++) {
        snprintf(sites[s].line, sizeof sites[s].line, "r.hip:%d", 5 + s);
        sites[s].space = TRACE_GLOBAL;
        sites[s].kind = TRACE_LOAD;
        sites[s].requests = 100;
        sites[s].lanes = 3200;
        sites[s].bytes = 12800;
        sites[s].segments = sites[s].sectors = 400;
    }
    for (int b = 0; b < TRACE_WITHIN_BUCKETS; b++) sites[0].within[b] = 400; /* every segment again within 2 KiB */
    for (int b = 0; b < TRACE_BEYOND_BUCKETS; b++) sites[1].beyond[b] = b < 2 ? 400 : 0; /* beyond 256 KiB and 1 MiB */
    TraceKernel t;
    memset(&t, 0, sizeof t);
    t.sites = sites;
    t.nsites = 2;
    t.traced_waves = 100;
    SimMemory mem[3];
    sim_memory(&d, &f.kernels[0], 1, &t, 1, mem);
    assert_true(mem[0].traced && mem[1].traced);
    assert_true(fabs(mem[0].l1 - 1) < 1e-9 && mem[0].dram == 0);
    assert_true(mem[1].l1 == 0 && fabs(mem[1].dram - 1) < 1e-9);
    assert_true(fabs(mem[0].units - 4) < 1e-9);
    /* With eight blocks sharing the 16 KiB L1, each has 2 KiB of it: still a hit. */
    sim_memory(&d, &f.kernels[0], 1, &t, 8, mem);
    assert_true(fabs(mem[0].l1 - 1) < 1e-9);
    code_free(&f);
}

/* The walk: a loop whose header ran 3 times per wave and an if inside it
 * that ran once are walked 3 and 1 times, and the wave ends. */
static void test_walk_follows_the_counts(void **state) {
    (void)state;
    ModelDevice d = round_device(0);
    CodeFile f;
    code_init(&f, CODE_KIND_GCN, "round");
    CodeKernel *k = code_add_kernel(&f, "walk");
    code_add_label(k, "head");
    CodeInsn v = insn("v_add_f32", CODE_PIPE_VALU, CODE_MEM_NONE, 0);
    code_add_insn(k, &v, NULL);
    CodeInsn skip = insn("s_cbranch_execz", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
    skip.conditional = 1;
    code_add_insn(k, &skip, "join");
    code_add_insn(k, &v, NULL); /* the if's body */
    code_add_label(k, "join");
    CodeInsn back = insn("s_cbranch_scc1", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
    back.conditional = 1;
    code_add_insn(k, &back, "head");
    end_kernel(k);
    double runs[4] = {3, 1, 3, 1};
    SimResult r = run(&d, &f, 0, runs, NULL, 1, 64);
    /* 3 x (add, branch, branch) + 1 add + endpgm = 11 instructions */
    assert_true(fabs(r.instructions_per_wave - 11) < 1e-9);
    code_free(&f);
}

/* A rotated loop, as hipcc lays out chapter 05's forward: the body's end
 * branches back to the loop's top on its last trip and otherwise falls into
 * the next tile's fetch, which then jumps back too. Runs: top 4 (3 trips and
 * the exit), body 3, fetch 2. The wave goes forward into the fetch on trips 1
 * and 2 and back on trip 3: 4 x 2 + 3 x 2 + 2 x 2 + 1 = 19 instructions. A
 * walk that always takes the back edge never fetches: 15. */
static void test_walk_enters_the_fetch_before_the_back_edge(void **state) {
    (void)state;
    ModelDevice d = round_device(0);
    CodeFile f;
    code_init(&f, CODE_KIND_GCN, "round");
    CodeKernel *k = code_add_kernel(&f, "rotated");
    CodeInsn v = insn("v_add_f32", CODE_PIPE_VALU, CODE_MEM_NONE, 0);
    CodeInsn cond = insn("s_cbranch_scc1", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
    cond.conditional = 1;
    CodeInsn jump = insn("s_branch", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
    code_add_label(k, "top");
    code_add_insn(k, &v, NULL);
    code_add_insn(k, &cond, "exit"); /* all trips done */
    code_add_insn(k, &v, NULL);       /* the body */
    code_add_insn(k, &cond, "top");   /* the last trip: no next tile */
    CodeInsn load = insn("global_load_dword", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 4);
    code_add_insn(k, &load, NULL);    /* the next tile's fetch */
    code_add_insn(k, &jump, "top");
    code_add_label(k, "exit");
    end_kernel(k);
    double runs[4] = {4, 3, 2, 1};
    SimResult r = run(&d, &f, 0, runs, NULL, 1, 64);
    assert_true(fabs(r.instructions_per_wave - 19) < 1e-9);
    code_free(&f);
}

/* A loop in a loop, as a tile loop holds an image loop: 3 tiles, 6 inner
 * trips in all. The inner loop loads from L2 (100 cycles) without waiting;
 * each tile then waits for its loads. The wave spreads the inner trips over
 * the tiles, 2 each: 3 x 1 + 6 x 2 + 3 x 2 + 1 = 22 instructions and three
 * waits of about 100 cycles. All 6 in the first tile would wait once, and
 * the later tiles would still fall into the inner loop: 26 instructions. */
static void test_inner_loop_trips_spread_over_the_outer(void **state) {
    (void)state;
    ModelDevice d = round_device(0);
    CodeFile f;
    code_init(&f, CODE_KIND_GCN, "round");
    CodeKernel *k = code_add_kernel(&f, "nested");
    CodeInsn v = insn("v_add_f32", CODE_PIPE_VALU, CODE_MEM_NONE, 0);
    CodeInsn load = insn("global_load_dword", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 4);
    CodeInsn again = insn("s_cbranch_scc1", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
    again.conditional = 1;
    CodeInsn wait = insn("s_waitcnt", CODE_PIPE_WAIT, CODE_MEM_NONE, 0);
    wait.wait[CODE_WAIT_VM] = 0;
    code_add_label(k, "tile");
    code_add_insn(k, &v, NULL);
    code_add_label(k, "image");
    code_add_insn(k, &load, NULL);
    code_add_insn(k, &again, "image");
    code_add_insn(k, &wait, NULL);
    code_add_insn(k, &again, "tile");
    end_kernel(k);
    double runs[4] = {3, 6, 3, 1};
    SimResult r = run(&d, &f, 0, runs, NULL, 1, 64);
    assert_true(fabs(r.instructions_per_wave - 22) < 1e-9);
    assert_true(r.cycles_per_launch > 300 && r.cycles_per_launch < 420);
    code_free(&f);
}

/* PTX as ptxas issues it: the loads of a block first, as far as their
 * registers and the memory order allow. ld r10; add r1 += r10; ld r11;
 * add r1 += r11; st; ld r12 becomes ld, ld, add, add, st, ld: the last load
 * may not pass the store. */
static void test_loads_hoisted_in_ptx(void **state) {
    (void)state;
    CodeFile f;
    code_init(&f, CODE_KIND_PTX, "round");
    CodeKernel *k = code_add_kernel(&f, "hoist");
    for (int i = 0; i < 2; i++) {
        CodeInsn load = insn("ld.global.f32", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 4);
        regs(&load, 10 + i, 2, -1);
        code_add_insn(k, &load, NULL);
        CodeInsn add = insn("add.f32", CODE_PIPE_VALU, CODE_MEM_NONE, 0);
        regs(&add, 1, 1, 10 + i);
        code_add_insn(k, &add, NULL);
    }
    CodeInsn store = insn("st.global.f32", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_STORE, 4);
    regs(&store, -1, 3, 1);
    code_add_insn(k, &store, NULL);
    CodeInsn last = insn("ld.global.f32", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 4);
    regs(&last, 12, 2, -1);
    code_add_insn(k, &last, NULL);
    CodeInsn ret = insn("ret", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
    code_add_insn(k, &ret, NULL);
    char err[128];
    assert_int_equal(code_finish(&f, err, sizeof err), 0);
    code_hoist_loads(&f.kernels[0]);
    const char *expected[] = {"ld.global.f32", "ld.global.f32", "add.f32", "add.f32", "st.global.f32", "ld.global.f32", "ret"};
    for (int i = 0; i < 7; i++) assert_string_equal(f.kernels[0].insns[i].op, expected[i]);
    assert_int_equal(f.kernels[0].insns[1].dst[0], 11);
    assert_int_equal(f.kernels[0].insns[5].dst[0], 12);
    code_free(&f);
}

/* A long loop is sampled, not walked trip by trip, when one round of blocks
 * would pass the instruction budget: 2,000 trips of a dependent FFMA and its
 * branch on one warp (2,000 x 4 cycles: the branch issues while the FFMA's
 * result is on its way) come out within 2% of the walk of every trip when
 * only a tenth of them is simulated. */
static void test_long_loops_are_sampled(void **state) {
    (void)state;
    ModelDevice d = round_device(1);
    double cycles[2];
    for (int budget = 0; budget < 2; budget++) {
        CodeFile f;
        code_init(&f, CODE_KIND_SASS, "round");
        CodeKernel *k = code_add_kernel(&f, "long");
        code_add_label(k, "loop");
        CodeInsn fma = insn("FFMA", CODE_PIPE_VALU, CODE_MEM_NONE, 0);
        regs(&fma, 1, 1, 2);
        code_add_insn(k, &fma, NULL);
        CodeInsn back = insn("BRA", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
        back.conditional = 1;
        code_add_insn(k, &back, "loop");
        CodeInsn exit_insn = insn("EXIT", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
        code_add_insn(k, &exit_insn, NULL);
        char err[128];
        assert_int_equal(code_finish(&f, err, sizeof err), 0);
        double runs[2] = {2000, 1};
        SimLaunch launch;
        memset(&launch, 0, sizeof launch);
        launch.code = &f.kernels[0];
        launch.nvidia = 1;
        launch.block_runs = runs;
        launch.launches = 1;
        launch.blocks = 1;
        launch.threads = 32;
        launch.instruction_budget = budget ? 400 : 0;
        SimResult r;
        assert_int_equal(sim_kernel(&d, &launch, &r, err, sizeof err), 0);
        cycles[budget] = r.cycles_per_launch;
        if (budget) assert_true(r.loop_share < 0.15);
        code_free(&f);
    }
    assert_true(cycles[0] > 2000 * 3.9 && cycles[0] < 2000 * 4.1);
    assert_true(fabs(cycles[1] / cycles[0] - 1) < 0.02);
}

/* An unrolled loop and its remainder share their line's runs: 10 runs a wave
 * of a line compiled 4 times into the main loop and once into the remainder
 * are 2 trips of the first and 2 of the second (not 2 each of 10 / 5). */
static void test_unrolled_loop_and_its_remainder(void **state) {
    (void)state;
    CodeFile f;
    code_init(&f, CODE_KIND_PTX, "round");
    CodeKernel *k = code_add_kernel(&f, "unrolled");
    int line = code_line(k, "u.hip:7");
    code_add_label(k, "main");
    for (int i = 0; i < 4; i++) {
        CodeInsn load = insn("ld.global.f32", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 4);
        load.line = line;
        code_add_insn(k, &load, NULL);
    }
    CodeInsn back = insn("bra", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
    back.conditional = 1;
    code_add_insn(k, &back, "main");
    code_add_label(k, "rest");
    CodeInsn load = insn("ld.global.f32", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 4);
    load.line = line;
    code_add_insn(k, &load, NULL);
    code_add_insn(k, &back, "rest");
    CodeInsn ret = insn("ret", CODE_PIPE_BRANCH, CODE_MEM_NONE, 0);
    code_add_insn(k, &ret, NULL);
    char err[128];
    assert_int_equal(code_finish(&f, err, sizeof err), 0);
    TraceSite site;
    memset(&site, 0, sizeof site);
    snprintf(site.line, sizeof site.line, "u.hip:7");
    site.space = TRACE_GLOBAL;
    site.kind = TRACE_LOAD;
    site.requests = 10 * 4; /* 4 waves */
    site.lanes = site.requests * 32;
    site.bytes = site.lanes * 4;
    TraceKernel t;
    memset(&t, 0, sizeof t);
    t.sites = &site;
    t.nsites = 1;
    t.traced_waves = 4;
    t.traced_blocks = 1;
    double runs[3];
    code_block_runs(&f.kernels[0], &t, runs, NULL);
    assert_true(fabs(runs[0] - 2) < 1e-9 && fabs(runs[1] - 2) < 1e-9);
    code_free(&f);
}

/* A device table's figures: each named, none taken as zero when the table lacks it. */
static void test_device_figures_are_named_and_all_needed(void **state) {
    (void)state;
    ModelDevice d;
    model_device_init(&d, "partial");
    assert_string_equal(model_device_missing(&d), "clock_ghz");
    assert_false(model_device_set(&d, "clock_mhz", 1000)); /* not a figure the simulation knows */
    d = round_device(1);
    assert_null(model_device_missing(&d));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guarded_staging_load_waits), cmocka_unit_test(test_dependent_issue_on_nvidia),
        cmocka_unit_test(test_barrier_phases_add),         cmocka_unit_test(test_loads_in_flight),
        cmocka_unit_test(test_reuse_distance_sets_the_level), cmocka_unit_test(test_walk_follows_the_counts),
        cmocka_unit_test(test_loads_hoisted_in_ptx),   cmocka_unit_test(test_long_loops_are_sampled),
        cmocka_unit_test(test_unrolled_loop_and_its_remainder), cmocka_unit_test(test_walk_enters_the_fetch_before_the_back_edge),
        cmocka_unit_test(test_inner_loop_trips_spread_over_the_outer),
        cmocka_unit_test(test_device_figures_are_named_and_all_needed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
