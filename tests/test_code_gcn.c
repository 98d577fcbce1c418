/* Unit tests of the GCN assembly reader (common/model/code_gcn.c) on
 * snippets of hipcc's gfx906 output (tests/model_code/gcn/, cut from the
 * .hip files there), each fact worked out by hand from the snippet's text:
 * its blocks, loops, instructions, waits, lines and resources. Paths are
 * from the repository root, where tests/run.sh runs the tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/code.h"

#define SNIPPETS "tests/model_code/gcn/"

static int read_path(const char *path, const char *names, CodeFile *file, char *err, size_t err_size) {
    FILE *in = fopen(path, "r");
    assert_non_null(in);
    int status = code_read_gcn(in, path, names, file, err, err_size);
    fclose(in);
    return status;
}

/* Reads a snippet that must read without error. */
static void read_snippet(const char *name, CodeFile *file) {
    char path[256], err[512] = "";
    snprintf(path, sizeof path, SNIPPETS "%s", name);
    int status = read_path(path, NULL, file, err, sizeof err);
    if (status != 0) print_error("%s\n", err);
    assert_int_equal(status, 0);
    assert_int_equal(file->kind, CODE_KIND_GCN);
}

/* Reads text (written to a temporary file) under the name `path`. */
static int read_text(const char *text, size_t len, const char *path, CodeFile *file, char *err, size_t err_size) {
    FILE *in = tmpfile();
    assert_non_null(in);
    assert_int_equal(fwrite(text, 1, len, in), len);
    rewind(in);
    int status = code_read_gcn(in, path, NULL, file, err, err_size);
    fclose(in);
    return status;
}

static int block_labelled(const CodeKernel *k, const char *label) {
    for (int b = 0; b < k->nblocks; b++)
        if (strcmp(k->blocks[b].label, label) == 0) return b;
    fail_msg("no block labelled %s", label);
    return -1;
}

/* The nth (from 0) instruction whose mnemonic is op. */
static const CodeInsn *nth_insn(const CodeKernel *k, const char *op, int nth) {
    for (int i = 0; i < k->ninsns; i++)
        if (strcmp(k->insns[i].op, op) == 0 && nth-- == 0) return &k->insns[i];
    fail_msg("no instruction %s", op);
    return NULL;
}

static const char *line_of(const CodeKernel *k, const CodeInsn *insn) {
    return insn->line >= 0 ? k->lines[insn->line] : "(none)";
}

static void assert_block(const CodeKernel *k, int b, int first, int count, int fallthrough, int target, int depth,
                         int header) {
    const CodeBlock *blk = &k->blocks[b];
    assert_int_equal(blk->first, first);
    assert_int_equal(blk->count, count);
    assert_int_equal(blk->fallthrough, fallthrough);
    assert_int_equal(blk->target, target);
    assert_int_equal(blk->loop_depth, depth);
    assert_int_equal(blk->loop_header, header);
}

static void assert_regs(const int *regs, int n, const int *want, int nwant) {
    assert_int_equal(n, nwant);
    for (int i = 0; i < nwant; i++) assert_int_equal(regs[i], want[i]);
}
#define ASSERT_DST(insn, ...) \
    assert_regs((insn)->dst, (insn)->ndst, (const int[]){__VA_ARGS__}, sizeof((int[]){__VA_ARGS__}) / sizeof(int))
#define ASSERT_SRC(insn, ...) \
    assert_regs((insn)->src, (insn)->nsrc, (const int[]){__VA_ARGS__}, sizeof((int[]){__VA_ARGS__}) / sizeof(int))

/* loop.s: dot_loop's guard blocks, its loop (one block branching to itself)
 * with a vector and a scalar load per trip and one wait for both. */
static void a_loop_with_both_waits(void **state) {
    (void)state;
    CodeFile f;
    read_snippet("loop.s", &f);
    assert_string_equal(f.arch, "gfx906");
    assert_int_equal(f.nkernels, 1);
    const CodeKernel *k = &f.kernels[0];
    assert_string_equal(k->name, "_Z8dot_loopPKfS0_Pfi");
    /* %bb.0: 3 s_load, wait, cmp, branch; %bb.1: 2 v_mov, execz; an unlabelled
     * s_branch; .LBB0_2: v_mov; .LBB0_3: 6; .LBB0_4 (the loop): 11; .LBB0_5: 6. */
    assert_int_equal(k->ninsns, 34);
    assert_int_equal(k->nblocks, 7);
    const char *labels[] = {"%bb.0", "%bb.1", "", ".LBB0_2", ".LBB0_3", ".LBB0_4", ".LBB0_5"};
    for (int b = 0; b < 7; b++) assert_string_equal(k->blocks[b].label, labels[b]);
    assert_block(k, 0, 0, 6, 1, 3, 0, -1);   /* s_cbranch_scc1 .LBB0_2 */
    assert_block(k, 1, 6, 3, 2, 4, 0, -1);   /* s_cbranch_execz .LBB0_3 */
    assert_block(k, 2, 9, 1, -1, 6, 0, -1);  /* s_branch .LBB0_5 */
    assert_block(k, 5, 17, 11, 6, 5, 1, 5);  /* s_cbranch_scc0 .LBB0_4: the loop */
    assert_block(k, 6, 28, 6, -1, -1, 0, -1);

    const CodeInsn *in = &k->insns[0]; /* s_load_dword s8, s[4:5], 0x18 */
    assert_string_equal(in->op, "s_load_dword");
    assert_int_equal(in->pipe, CODE_PIPE_SMEM);
    assert_int_equal(in->mem, CODE_MEM_SCALAR_LOAD);
    assert_int_equal(in->bytes, 4);
    ASSERT_DST(in, 1008);
    ASSERT_SRC(in, 1004, 1005);
    assert_string_equal(line_of(k, in), "kernels.hip:9");
    in = &k->insns[1]; /* s_load_dwordx4 s[0:3], s[4:5], 0x0 */
    assert_int_equal(in->bytes, 16);
    ASSERT_DST(in, 1000, 1001, 1002, 1003);
    in = &k->insns[3]; /* s_waitcnt lgkmcnt(0) */
    assert_int_equal(in->pipe, CODE_PIPE_WAIT);
    assert_int_equal(in->wait[CODE_WAIT_VM], -1);
    assert_int_equal(in->wait[CODE_WAIT_LGKM], 0);
    in = &k->insns[4]; /* s_cmp_gt_i32 s8, 0: reads only */
    assert_int_equal(in->pipe, CODE_PIPE_SALU);
    assert_int_equal(in->ndst, 0);
    ASSERT_SRC(in, 1008);
    in = &k->insns[5];
    assert_string_equal(in->op, "s_cbranch_scc1");
    assert_int_equal(in->pipe, CODE_PIPE_BRANCH);
    assert_true(in->conditional);
    assert_int_equal(in->target, 3);
    in = &k->insns[9];
    assert_string_equal(in->op, "s_branch");
    assert_false(in->conditional);
    assert_int_equal(in->target, 6);
    assert_string_equal(line_of(k, &k->insns[10]), "(none)"); /* .loc 0 0 5 */

    in = &k->insns[17]; /* global_load_dword v5, v[2:3], off */
    assert_string_equal(in->op, "global_load_dword");
    assert_int_equal(in->pipe, CODE_PIPE_VMEM);
    assert_int_equal(in->mem, CODE_MEM_GLOBAL_LOAD);
    assert_int_equal(in->bytes, 4);
    assert_false(in->guarded);
    ASSERT_DST(in, 5);
    ASSERT_SRC(in, 2, 3);
    assert_string_equal(line_of(k, in), "kernels.hip:9");
    in = &k->insns[21]; /* v_add_co_u32_e32 v2, vcc, 0x100, v2: the carry out reads as a source */
    ASSERT_DST(in, 2);
    ASSERT_SRC(in, 1200, 1201, 2);
    in = &k->insns[25]; /* s_waitcnt vmcnt(0) lgkmcnt(0) */
    assert_int_equal(in->wait[CODE_WAIT_VM], 0);
    assert_int_equal(in->wait[CODE_WAIT_LGKM], 0);
    in = &k->insns[26]; /* v_fmac_f32_e32 v4, s0, v5 */
    assert_string_equal(in->op, "v_fmac_f32_e32");
    assert_int_equal(in->pipe, CODE_PIPE_VALU);
    assert_int_equal(in->flops, 2);
    ASSERT_DST(in, 4);
    ASSERT_SRC(in, 1000, 5);
    assert_int_equal(k->insns[27].target, 5);

    in = nth_insn(k, "global_store_dword", 0); /* global_store_dword v[0:1], v4, off */
    assert_int_equal(in->mem, CODE_MEM_GLOBAL_STORE);
    assert_int_equal(in->ndst, 0);
    ASSERT_SRC(in, 0, 1, 4);
    assert_string_equal(line_of(k, in), "kernels.hip:10");
    in = nth_insn(k, "s_endpgm", 0);
    assert_int_equal(in->pipe, CODE_PIPE_OTHER);
    assert_string_equal(line_of(k, in), "kernels.hip:11");

    assert_int_equal(k->vgprs, 6);
    assert_int_equal(k->sgprs, 9);
    assert_int_equal(k->lds_bytes, 0);
    assert_int_equal(k->scratch_lane_bytes, 0);
    assert_int_equal(k->waves_per_simd, 10);
    code_free(&f);
}

/* barrier.s: tile_pairs, one block: LDS store, barrier, ds_read2. */
static void lds_and_a_barrier(void **state) {
    (void)state;
    CodeFile f;
    read_snippet("barrier.s", &f);
    const CodeKernel *k = &f.kernels[0];
    assert_int_equal(k->nblocks, 1);
    assert_int_equal(k->ninsns, 25);
    assert_block(k, 0, 0, 25, -1, -1, 0, -1);
    assert_string_equal(line_of(k, &k->insns[0]), "amd_hip_runtime.h:263");
    const CodeInsn *in = nth_insn(k, "ds_write_b32", 0); /* ds_write_b32 v4, v3 */
    assert_int_equal(in->pipe, CODE_PIPE_LDS);
    assert_int_equal(in->mem, CODE_MEM_LDS_STORE);
    assert_int_equal(in->bytes, 4);
    assert_int_equal(in->ndst, 0);
    ASSERT_SRC(in, 4, 3);
    assert_string_equal(line_of(k, in), "kernels.hip:17");
    in = nth_insn(k, "s_waitcnt", 2); /* after the store, before the barrier */
    assert_int_equal(in->wait[CODE_WAIT_LGKM], 0);
    assert_int_equal(in->wait[CODE_WAIT_VM], -1);
    assert_string_equal(line_of(k, in), "amd_device_functions.h:890");
    in = nth_insn(k, "s_barrier", 0);
    assert_int_equal(in->pipe, CODE_PIPE_BARRIER);
    assert_string_equal(line_of(k, in), "amd_device_functions.h:891");
    in = nth_insn(k, "ds_read2_b32", 0); /* ds_read2_b32 v[3:4], v0 offset1:32: two dwords */
    assert_int_equal(in->mem, CODE_MEM_LDS_LOAD);
    assert_int_equal(in->bytes, 8);
    ASSERT_DST(in, 3, 4);
    ASSERT_SRC(in, 0);
    assert_string_equal(line_of(k, in), "kernels.hip:20");
    assert_int_equal(nth_insn(k, "v_add_f32_e32", 0)->flops, 1);
    assert_int_equal(k->lds_bytes, 1024);
    assert_int_equal(k->sgprs, 7);
    code_free(&f);
}

/* guarded.s: an if's body after s_and_saveexec_b64 and s_cbranch_execz. The
 * branch skips the body where no lane is on, so its load is not guarded. */
static void a_branched_if_is_not_guarded(void **state) {
    (void)state;
    CodeFile f;
    read_snippet("guarded.s", &f);
    const CodeKernel *k = &f.kernels[0];
    assert_int_equal(k->nblocks, 3);
    assert_int_equal(k->ninsns, 28);
    assert_block(k, 0, 0, 13, 1, 2, 0, -1);
    assert_block(k, 1, 13, 14, 2, -1, 0, -1);
    assert_block(k, 2, 27, 1, -1, -1, 0, -1);
    assert_string_equal(k->blocks[1].label, "%bb.1");
    assert_string_equal(k->blocks[2].label, ".LBB2_2");
    const CodeInsn *in = nth_insn(k, "s_and_saveexec_b64", 0); /* s_and_saveexec_b64 s[0:1], vcc */
    assert_int_equal(in->pipe, CODE_PIPE_SALU);
    ASSERT_DST(in, 1000, 1001);
    ASSERT_SRC(in, 1200, 1201);
    assert_false(nth_insn(k, "global_load_dword", 0)->guarded);
    assert_false(nth_insn(k, "global_store_dword", 0)->guarded);
    assert_string_equal(line_of(k, &k->insns[0]), "amd_hip_runtime.h:268");
    assert_string_equal(line_of(k, &k->insns[27]), "kernels.hip:27");
    code_free(&f);
}

/* guarded_nobranch.s: the same, edited so that the load issues in the block
 * that narrowed exec, and exec is restored before the store. */
static void a_load_on_a_narrowed_exec_is_guarded(void **state) {
    (void)state;
    CodeFile f;
    read_snippet("guarded_nobranch.s", &f);
    const CodeKernel *k = &f.kernels[0];
    assert_int_equal(k->nblocks, 2);
    assert_int_equal(k->ninsns, 28);
    assert_block(k, 0, 0, 27, 1, -1, 0, -1);
    assert_true(nth_insn(k, "global_load_dword", 0)->guarded);
    assert_false(nth_insn(k, "s_load_dwordx4", 0)->guarded); /* scalar: the same for every lane */
    const CodeInsn *in = nth_insn(k, "s_or_b64", 0);        /* s_or_b64 exec, exec, s[10:11] */
    ASSERT_DST(in, 1202, 1203);
    ASSERT_SRC(in, 1202, 1203, 1010, 1011);
    assert_false(nth_insn(k, "global_store_dword", 0)->guarded);
    code_free(&f);
}

/* vector4.s: copy4's 16-byte load and store; names from a TSV. */
static void sixteen_byte_accesses_and_trace_names(void **state) {
    (void)state;
    CodeFile f;
    char err[512] = "";
    assert_int_equal(read_path(SNIPPETS "vector4.s", SNIPPETS "names.tsv", &f, err, sizeof err), 0);
    const CodeKernel *k = &f.kernels[0];
    assert_string_equal(k->name, "copy4(float4 const*, float4*)");
    assert_int_equal(k->nblocks, 1);
    assert_int_equal(k->ninsns, 23);
    const CodeInsn *in = nth_insn(k, "global_load_dwordx4", 0); /* global_load_dwordx4 v[0:3], v[0:1], off */
    assert_int_equal(in->mem, CODE_MEM_GLOBAL_LOAD);
    assert_int_equal(in->bytes, 16);
    ASSERT_DST(in, 0, 1, 2, 3);
    ASSERT_SRC(in, 0, 1);
    assert_string_equal(line_of(k, in), "kernels.hip:32");
    in = nth_insn(k, "global_store_dwordx4", 0); /* global_store_dwordx4 v[4:5], v[0:3], off */
    assert_int_equal(in->mem, CODE_MEM_GLOBAL_STORE);
    assert_int_equal(in->bytes, 16);
    ASSERT_SRC(in, 4, 5, 0, 1, 2, 3);
    assert_string_equal(line_of(k, in), "amd_hip_vector_types.h:726");
    assert_int_equal(k->vgprs, 7);
    code_free(&f);
}

/* scratch.s: a private array indexed at run time, stored in a loop and
 * read after it through buffer_ (scratch on gfx9). Two labels, one block. */
static void a_private_array_in_scratch(void **state) {
    (void)state;
    CodeFile f;
    read_snippet("scratch.s", &f);
    const CodeKernel *k = &f.kernels[0];
    assert_int_equal(k->nblocks, 6);
    assert_int_equal(k->ninsns, 44);
    int merged = block_labelled(k, ".LBB4_2"), loop = block_labelled(k, ".LBB4_4");
    assert_int_equal(merged, 3);
    assert_int_equal(k->blocks[0].target, merged);
    assert_int_equal(k->blocks[1].target, merged); /* s_cbranch_execz .LBB4_3: the same block */
    assert_block(k, loop, 17, 11, 5, loop, 1, loop);
    const CodeInsn *in = nth_insn(k, "buffer_store_dword", 0); /* buffer_store_dword v5, v6, s[0:3], 0 offen */
    assert_int_equal(in->pipe, CODE_PIPE_VMEM);
    assert_int_equal(in->mem, CODE_MEM_SCRATCH_STORE);
    assert_int_equal(in->bytes, 4);
    assert_int_equal(in->ndst, 0);
    ASSERT_SRC(in, 5, 6, 1000, 1001, 1002, 1003);
    assert_string_equal(line_of(k, in), "kernels.hip:39");
    assert_true(in >= &k->insns[17] && in < &k->insns[28]); /* in the loop */
    in = nth_insn(k, "buffer_load_dword", 0); /* buffer_load_dword v2, v2, s[0:3], 0 offen */
    assert_int_equal(in->mem, CODE_MEM_SCRATCH_LOAD);
    ASSERT_DST(in, 2);
    assert_string_equal(line_of(k, in), "kernels.hip:40");
    assert_int_equal(k->scratch_lane_bytes, 272);
    code_free(&f);
}

/* cas.s: atomicCAS in a loop whose latch (.LBB5_1) LLVM lays out before its
 * header (.LBB5_2) and falls into it: the header is the block every trip
 * enters by, not the first in layout. */
static void a_compare_and_swap_loop(void **state) {
    (void)state;
    CodeFile f;
    read_snippet("cas.s", &f);
    const CodeKernel *k = &f.kernels[0];
    assert_int_equal(k->nblocks, 5);
    assert_int_equal(k->ninsns, 40);
    assert_block(k, 0, 0, 21, -1, 2, 0, -1);  /* s_branch .LBB5_2 */
    assert_block(k, 1, 21, 5, 2, 4, 1, 2);    /* .LBB5_1: s_cbranch_execz .LBB5_4, else on into the header */
    assert_block(k, 2, 26, 5, 3, 1, 1, 2);    /* .LBB5_2: s_cbranch_execz .LBB5_1 */
    assert_block(k, 3, 31, 8, -1, 1, 1, 2);   /* %bb.3: s_branch .LBB5_1 */
    assert_block(k, 4, 39, 1, -1, -1, 0, -1); /* .LBB5_4: s_endpgm */
    const CodeInsn *in = nth_insn(k, "global_atomic_cmpswap", 0); /* v0, v1, v[2:3], s[0:1] glc */
    assert_int_equal(in->pipe, CODE_PIPE_VMEM);
    assert_int_equal(in->mem, CODE_MEM_GLOBAL_ATOMIC);
    assert_int_equal(in->bytes, 4);
    ASSERT_DST(in, 0); /* glc: it returns the old value */
    ASSERT_SRC(in, 1, 2, 3, 1000, 1001);
    assert_string_equal(line_of(k, in), "amd_hip_atomic.h:59");
    assert_int_equal(nth_insn(k, "s_waitcnt", 1)->line, -1); /* .loc 0 0 0 */
    assert_int_equal(nth_insn(k, "s_waitcnt", 3)->wait[CODE_WAIT_VM], 0);
    code_free(&f);
}

/* reduction.s: a tree reduction whose loop (.LBB6_5, .LBB6_4 and %bb.6)
 * LLVM lays out after s_endpgm, its exit a branch back to .LBB6_1: a branch
 * backwards in layout, to blocks that run once, not a loop. */
static void a_loop_laid_out_after_the_exit(void **state) {
    (void)state;
    CodeFile f;
    read_snippet("reduction.s", &f);
    const CodeKernel *k = &f.kernels[0];
    assert_int_equal(k->nblocks, 7);
    assert_int_equal(k->ninsns, 54);
    assert_block(k, 0, 0, 24, 1, 5, 0, -1);   /* s_cbranch_scc0 .LBB6_5: into the loop */
    assert_block(k, 1, 24, 4, 2, 3, 0, -1);   /* .LBB6_1: if (threadIdx.x == 0) */
    assert_block(k, 2, 28, 7, 3, -1, 0, -1);  /* %bb.2: the block's store */
    assert_block(k, 3, 35, 1, -1, -1, 0, -1); /* .LBB6_3: s_endpgm */
    assert_block(k, 4, 36, 7, 5, 1, 1, 5);    /* .LBB6_4: barrier, s_cbranch_scc1 .LBB6_1 (the exit), else the header */
    assert_block(k, 5, 43, 4, 6, 4, 1, 5);    /* .LBB6_5: the header */
    assert_block(k, 6, 47, 7, -1, 4, 1, 5);   /* %bb.6: s_branch .LBB6_4 */
    assert_int_equal(nth_insn(k, "s_barrier", 1) - k->insns, 40);
    const CodeInsn *in = nth_insn(k, "ds_read_b32", 1); /* ds_read_b32 v2, v2 in %bb.6 */
    assert_int_equal(in->mem, CODE_MEM_LDS_LOAD);
    assert_int_equal(in->bytes, 4);
    assert_int_equal(in - k->insns, 48);
    assert_int_equal(k->lds_bytes, 1024);
    code_free(&f);
}

/* two_kernels.s: a device function (skipped), then two kernels, the second
 * calling the function: the call returns, so its block falls through. */
static void two_kernels_and_a_device_function(void **state) {
    (void)state;
    CodeFile f;
    char err[512] = "";
    assert_int_equal(read_path(SNIPPETS "two_kernels.s", SNIPPETS "names.tsv", &f, err, sizeof err), 0);
    assert_int_equal(f.nkernels, 2);
    const CodeKernel *scale = &f.kernels[0], *twice = &f.kernels[1];
    assert_string_equal(scale->name, "scale(float*, float)");
    assert_string_equal(twice->name, "_Z9twice_allPf"); /* not in the TSV: its symbol */
    assert_int_equal(scale->nblocks, 1);
    assert_int_equal(scale->ninsns, 9);
    assert_int_equal(nth_insn(scale, "v_mul_f32_e32", 0)->flops, 1);
    assert_string_equal(line_of(scale, nth_insn(scale, "global_load_dword", 0)), "two_kernels.hip:6");
    assert_int_equal(scale->sgprs, 6);
    assert_int_equal(scale->waves_per_simd, 10);
    assert_int_equal(twice->nblocks, 2);
    assert_int_equal(twice->ninsns, 15);
    const CodeInsn *call = &twice->insns[12];
    assert_string_equal(call->op, "s_swappc_b64");
    assert_int_equal(call->pipe, CODE_PIPE_BRANCH);
    assert_block(twice, 0, 0, 13, 1, -1, 0, -1);
    assert_int_equal(twice->sgprs, 33);
    assert_int_equal(twice->waves_per_simd, 10);
    code_free(&f);
}

/* long_branch.s: every branch a long jump (s_getpc_b64, s_add_u32 with the
 * target label, s_setpc_b64), the loop's back edge among them. */
static void long_jumps_reach_their_labels(void **state) {
    (void)state;
    CodeFile f;
    read_snippet("long_branch.s", &f);
    const CodeKernel *k = &f.kernels[0];
    assert_int_equal(k->nblocks, 10);
    int header = block_labelled(k, ".LBB0_4"), latch = block_labelled(k, ".LBB0_10");
    assert_int_equal(header, 7);
    assert_int_equal(latch, 8);
    assert_int_equal(k->blocks[block_labelled(k, ".LBB0_12")].target, block_labelled(k, ".LBB0_2"));
    assert_int_equal(k->blocks[block_labelled(k, ".LBB0_6")].target, block_labelled(k, ".LBB0_5"));
    assert_int_equal(k->blocks[latch].target, header);
    assert_int_equal(k->blocks[latch].fallthrough, -1);
    for (int b = 0; b < k->nblocks; b++) {
        int in_loop = b == header || b == latch;
        assert_int_equal(k->blocks[b].loop_depth, in_loop);
        assert_int_equal(k->blocks[b].loop_header, in_loop ? header : -1);
    }
    code_free(&f);
}

/* One made-up kernel of instructions hipcc writes (some for gfx908 and
 * later), each read alone: pipe, memory, bytes, flops, waits, registers. */
static void each_mnemonic_its_pipe_and_memory(void **state) {
    (void)state;
    static const char text[] = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx90a:xnack-\"\n"
                               "\t.type\tk,@function\n"
                               "k:\n"
                               "\tv_exp_f32_e32 v1, v2\n"               /* 0 */
                               "\tv_fma_f64 v[0:1], v[2:3], v[4:5], v[6:7]\n"
                               "\tv_mfma_f32_4x4x1f32 a[0:3], v1, v2, a[0:3]\n"
                               "\tv_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[0:1]\n"
                               "\tv_mul_lo_u32 v1, v2, v3\n"
                               "\tv_accvgpr_write_b32 a3, v1\n"         /* 5 */
                               "\tds_add_u32 v5, v4\n"
                               "\tds_bpermute_b32 v0, v2, v0\n"
                               "\tds_read_b128 v[0:3], v4\n"
                               "\tglobal_load_ubyte v1, v[2:3], off\n"
                               "\tflat_load_dwordx2 v[0:1], v[0:1]\n"  /* 10 */
                               "\tglobal_atomic_add v[0:1], v10, off\n"
                               "\ts_load_dwordx16 s[8:23], s[4:5], 0x0\n"
                               "\ts_waitcnt 0\n"
                               "\ts_waitcnt vmcnt(3)\n"
                               "\ts_waitcnt_vmcnt null, 0x2\n"          /* 15 */
                               "\ts_nop 1\n"
                               "\ts_memtime s[0:1]\n"
                               "\ts_dcache_wb\n"
                               "\tv_add_f32_e64 v1, |v2|, -v3\n"
                               "\ts_endpgm\n";                           /* 20 */
    static const struct {
        int pipe, mem, bytes, flops, vm, lgkm;
    } want[] = {
        {CODE_PIPE_TRANS, CODE_MEM_NONE, 0, 0, -1, -1},          {CODE_PIPE_TRANS, CODE_MEM_NONE, 0, 0, -1, -1},
        {CODE_PIPE_VALU, CODE_MEM_NONE, 0, 0, -1, -1},           {CODE_PIPE_VALU, CODE_MEM_NONE, 0, 4, -1, -1},
        {CODE_PIPE_TRANS, CODE_MEM_NONE, 0, 0, -1, -1},          {CODE_PIPE_VALU, CODE_MEM_NONE, 0, 0, -1, -1},
        {CODE_PIPE_LDS, CODE_MEM_LDS_ATOMIC, 4, 0, -1, -1},      {CODE_PIPE_LDS, CODE_MEM_LDS_LOAD, 4, 0, -1, -1},
        {CODE_PIPE_LDS, CODE_MEM_LDS_LOAD, 16, 0, -1, -1},       {CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 1, 0, -1, -1},
        {CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 8, 0, -1, -1},    {CODE_PIPE_VMEM, CODE_MEM_GLOBAL_ATOMIC, 4, 0, -1, -1},
        {CODE_PIPE_SMEM, CODE_MEM_SCALAR_LOAD, 64, 0, -1, -1},   {CODE_PIPE_WAIT, CODE_MEM_NONE, 0, 0, 0, 0},
        {CODE_PIPE_WAIT, CODE_MEM_NONE, 0, 0, 3, -1},            {CODE_PIPE_WAIT, CODE_MEM_NONE, 0, 0, 2, -1},
        {CODE_PIPE_OTHER, CODE_MEM_NONE, 0, 0, -1, -1},          {CODE_PIPE_SMEM, CODE_MEM_NONE, 0, 0, -1, -1},
        {CODE_PIPE_OTHER, CODE_MEM_NONE, 0, 0, -1, -1},          {CODE_PIPE_VALU, CODE_MEM_NONE, 0, 1, -1, -1},
        {CODE_PIPE_OTHER, CODE_MEM_NONE, 0, 0, -1, -1},
    };
    CodeFile f;
    char err[512] = "";
    assert_int_equal(read_text(text, sizeof text - 1, "made_up.s", &f, err, sizeof err), 0);
    assert_string_equal(f.arch, "gfx90a");
    const CodeKernel *k = &f.kernels[0];
    assert_int_equal(k->ninsns, (int)(sizeof want / sizeof want[0]));
    for (int i = 0; i < k->ninsns; i++) {
        const CodeInsn *in = &k->insns[i];
        if (in->pipe != want[i].pipe || in->mem != want[i].mem || in->bytes != want[i].bytes) print_error("%s:\n", in->op);
        assert_int_equal(in->pipe, want[i].pipe);
        assert_int_equal(in->mem, want[i].mem);
        assert_int_equal(in->bytes, want[i].bytes);
        assert_int_equal(in->flops, want[i].flops);
        assert_int_equal(in->wait[CODE_WAIT_VM], want[i].vm);
        assert_int_equal(in->wait[CODE_WAIT_LGKM], want[i].lgkm);
    }
    ASSERT_DST(&k->insns[2], 256, 257, 258, 259); /* a[0:3]: accumulation registers */
    ASSERT_SRC(&k->insns[2], 1, 2, 256, 257, 258, 259);
    ASSERT_DST(&k->insns[5], 259);
    assert_int_equal(k->insns[6].ndst, 0); /* ds_add_u32: no return */
    ASSERT_DST(&k->insns[7], 0);           /* ds_bpermute_b32 reads LDS's crossbar into v0 */
    assert_int_equal(k->insns[11].ndst, 0); /* global_atomic_add without glc: no return */
    ASSERT_DST(&k->insns[12], 1008, 1009, 1010, 1011); /* s[8:23]: the first CODE_MAX_DST */
    ASSERT_SRC(&k->insns[19], 2, 3);                    /* |v2|, -v3 */
    code_free(&f);
}

static void expect_error(const char *text, size_t len, const char *path, const char *where, const char *what) {
    CodeFile f;
    char err[512] = "";
    assert_int_equal(read_text(text, len, path, &f, err, sizeof err), -1);
    if (!strstr(err, where) || !strstr(err, what)) print_error("%s\n", err);
    assert_non_null(strstr(err, where));
    assert_non_null(strstr(err, what));
    assert_int_equal(f.nkernels, 0); /* freed */
}

/* Errors name the file and the line, and what was wrong. */
static void bad_input_is_an_error_naming_the_line(void **state) {
    (void)state;
    CodeFile f;
    char err[512] = "";
    assert_int_equal(read_path(SNIPPETS "bad_branch.s", NULL, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, SNIPPETS "bad_branch.s:33:")); /* s_cbranch_execz .LBB2_9 */
    assert_non_null(strstr(err, ".LBB2_9"));
    assert_int_equal(read_path(SNIPPETS "empty.s", NULL, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, SNIPPETS "empty.s"));
    assert_non_null(strstr(err, "no kernel"));

    static const char head[] = "\t.type\tk,@function\nk:\n\ts_nop 0\n";
    char text[6000];
    int n = snprintf(text, sizeof text, "%s\tv_mov_b32 v0, %4200d\n", head, 1); /* line 4: 4200 columns */
    expect_error(text, (size_t)n, "long.s", "long.s:4:", "longer than 4095");
    n = snprintf(text, sizeof text, "%s\ts_nop 0\n\tv_mov_b32 v0, 1 X\n", head);
    text[n - 3] = '\0'; /* line 5: a NUL byte */
    expect_error(text, (size_t)n, "nul.s", "nul.s:5:", "NUL");
    n = snprintf(text, sizeof text, "%s\t.loc\t3 12 0\n\ts_endpgm\n", head);
    expect_error(text, (size_t)n, "loc.s", "loc.s:4:", "file 3");
    n = snprintf(text, sizeof text, "%s\ts_waitcnt vmcnt(x)\n", head);
    expect_error(text, (size_t)n, "wait.s", "wait.s:4:", "vmcnt(x)");
    n = snprintf(text, sizeof text, "%s\ts_branch\n", head);
    expect_error(text, (size_t)n, "branch.s", "branch.s:4:", "without a label");
    n = snprintf(text, sizeof text, "\t.type\tk,@function\nk:\n\t.amdhsa_kernel k\n");
    expect_error(text, (size_t)n, "bare.s", "bare.s:2:", "no instructions");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_loop_with_both_waits),
        cmocka_unit_test(lds_and_a_barrier),
        cmocka_unit_test(a_branched_if_is_not_guarded),
        cmocka_unit_test(a_load_on_a_narrowed_exec_is_guarded),
        cmocka_unit_test(sixteen_byte_accesses_and_trace_names),
        cmocka_unit_test(a_private_array_in_scratch),
        cmocka_unit_test(a_compare_and_swap_loop),
        cmocka_unit_test(a_loop_laid_out_after_the_exit),
        cmocka_unit_test(two_kernels_and_a_device_function),
        cmocka_unit_test(long_jumps_reach_their_labels),
        cmocka_unit_test(each_mnemonic_its_pipe_and_memory),
        cmocka_unit_test(bad_input_is_an_error_naming_the_line),
    };
    return cmocka_run_group_tests_name("GCN code reader", tests, NULL, NULL);
}
