/* Unit tests of the PTX reader (common/model/code_ptx.c) on nvcc's own
 * output: tests/model_code/ptx/kernels.ptx and vectors.ptx, compiled from
 * the .hip files beside them with the project's flags (nvcc -O3 -std=c++17
 * -arch=sm_90 -x cu -lineinfo --ptx). Each expectation is read off the PTX
 * by hand: instructions are counted from 0 in a kernel, registers are
 * numbered in the order they first appear, predicates from
 * CODE_REG_PREDICATE. Run from the repository root. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/code.h"

#define P(n) (CODE_REG_PREDICATE + (n))

#define CODE_READER code_read_ptx
#include "code_test_helpers.h"

static const char *line_of(const CodeKernel *k, int insn) {
    return k->insns[insn].line >= 0 ? k->lines[k->insns[insn].line] : "(none)";
}

/* Two kernels; .file lines after them; the toolkit's headers as nvidia-. */
static void kernels_and_their_names(void **state) {
    (void)state;
    CodeFile file = read_ok("tests/model_code/ptx/kernels.ptx", NULL);
    assert_int_equal(file.kind, CODE_KIND_PTX);
    assert_string_equal(file.arch, "sm_90");
    assert_int_equal(file.nkernels, 2);
    assert_string_equal(file.kernels[0].name, "_Z9block_sumPKfPfi");
    assert_string_equal(file.kernels[1].name, "_Z5scalePffi");
    assert_int_equal(file.kernels[0].ninsns, 45);
    assert_int_equal(file.kernels[1].ninsns, 16);
    code_free(&file);

    char names[] = "/tmp/test_code_ptx_names_XXXXXX";
    FILE *tsv = fdopen(mkstemp(names), "w");
    assert_non_null(tsv);
    fputs("_Z5scalePffi\tscale(float*, float, int)\n", tsv);
    fclose(tsv);
    file = read_ok("tests/model_code/ptx/kernels.ptx", names);
    remove(names);
    assert_string_equal(file.kernels[0].name, "_Z9block_sumPKfPfi"); /* not in the TSV: its symbol */
    assert_string_equal(file.kernels[1].name, "scale(float*, float, int)");
    code_free(&file);
}

/* block_sum: 0-9 up to "@%p1 bra $L__BB0_3"; 10-13; $L__BB0_2 14-20, the
 * grid-stride loop ("@%p2 bra $L__BB0_2"); $L__BB0_3 21-30; 31-35 (the
 * st.shared); $L__BB0_5 36-38; 39-43 (the atom); $L__BB0_7 44 (ret). */
static void blocks_and_the_loop(void **state) {
    (void)state;
    CodeFile file = read_ok("tests/model_code/ptx/kernels.ptx", NULL);
    const CodeKernel *k = &file.kernels[0];
    assert_int_equal(k->nblocks, 8);
    const int first[] = {0, 10, 14, 21, 31, 36, 39, 44};
    const int fall[] = {1, 2, 3, 4, 5, 6, 7, -1};
    const int target[] = {3, -1, 2, 5, -1, 7, -1, -1};
    for (int b = 0; b < 8; b++) {
        assert_int_equal(k->blocks[b].first, first[b]);
        assert_int_equal(k->blocks[b].fallthrough, fall[b]);
        assert_int_equal(k->blocks[b].target, target[b]);
        assert_int_equal(k->blocks[b].loop_depth, b == 2);
        assert_int_equal(k->blocks[b].loop_header, b == 2 ? 2 : -1);
    }
    assert_string_equal(k->blocks[2].label, "$L__BB0_2");
    assert_string_equal(k->blocks[1].label, "");
    assert_int_equal(k->insns[20].target, 2); /* the back edge */
    assert_true(k->insns[20].conditional);
    assert_true(k->insns[20].guarded);
    assert_false(k->insns[44].conditional); /* ret */
    assert_int_equal(k->insns[44].pipe, CODE_PIPE_BRANCH);
    code_free(&file);
}

static void pipes_memory_and_flops(void **state) {
    (void)state;
    CodeFile file = read_ok("tests/model_code/ptx/kernels.ptx", NULL);
    const CodeKernel *k = &file.kernels[0];
    const struct {
        int insn, pipe, mem, bytes, flops;
    } expected[] = {
        {0, CODE_PIPE_SMEM, CODE_MEM_SCALAR_LOAD, 8, 0},    /* ld.param.u64 */
        {2, CODE_PIPE_SMEM, CODE_MEM_SCALAR_LOAD, 4, 0},    /* ld.param.u32 */
        {6, CODE_PIPE_VALU, CODE_MEM_NONE, 0, 0},           /* mad.lo.s32: integer */
        {16, CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 4, 0},   /* ld.global.f32 */
        {17, CODE_PIPE_VALU, CODE_MEM_NONE, 0, 1},          /* add.f32 */
        {25, CODE_PIPE_VALU, CODE_MEM_NONE, 0, 0},          /* shfl.sync.down.b32 */
        {35, CODE_PIPE_LDS, CODE_MEM_LDS_STORE, 4, 0},      /* st.shared.f32 */
        {36, CODE_PIPE_BARRIER, CODE_MEM_NONE, 0, 0},       /* bar.sync */
        {39, CODE_PIPE_LDS, CODE_MEM_LDS_LOAD, 4, 0},       /* ld.shared.f32 */
        {43, CODE_PIPE_VMEM, CODE_MEM_GLOBAL_ATOMIC, 4, 0}, /* atom.global.add.f32 */
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        const CodeInsn *in = &k->insns[expected[i].insn];
        assert_int_equal(in->pipe, expected[i].pipe);
        assert_int_equal(in->mem, expected[i].mem);
        assert_int_equal(in->bytes, expected[i].bytes);
        assert_int_equal(in->flops, expected[i].flops);
        assert_int_equal(in->wait[CODE_WAIT_VM], -1); /* PTX has no waits */
    }
    assert_string_equal(k->insns[16].op, "ld.global.f32");
    assert_int_equal(file.kernels[1].insns[14].pipe, CODE_PIPE_VMEM); /* scale's st.global.f32 */
    assert_int_equal(file.kernels[1].insns[14].mem, CODE_MEM_GLOBAL_STORE);
    code_free(&file);
}

/* %rd2 0, %rd3 1, %r7 2, %r1 3, %r8 4, %r2 5, %r20 6, %f14 7, ... %r10 14,
 * %r11 15, %r12 16, %r13 17, %r14 18; %p1 P(0), %p2 P(1), %p3 P(2). */
static void registers_read_and_written(void **state) {
    (void)state;
    CodeFile file = read_ok("tests/model_code/ptx/kernels.ptx", NULL);
    const CodeKernel *k = &file.kernels[0];
    DST(&k->insns[3], 3); /* mov.u32 %r1, %ntid.x: no special register */
    assert_int_equal(k->insns[3].nsrc, 0);
    DST(&k->insns[6], 6); /* mad.lo.s32 %r20, %r8, %r1, %r2 */
    SRC(&k->insns[6], 4, 3, 5);
    DST(&k->insns[7], P(0)); /* setp.ge.s32 %p1, %r20, %r7 */
    SRC(&k->insns[7], 6, 2);
    assert_int_equal(k->insns[9].ndst, 0); /* @%p1 bra: the guard read */
    SRC(&k->insns[9], P(0));
    DST(&k->insns[16], 13); /* ld.global.f32 %f7, [%rd5]: the address read */
    SRC(&k->insns[16], 12);
    DST(&k->insns[25], 18, P(2)); /* shfl.sync.down.b32 %r14|%p3, %r10, %r12, %r11, %r13 */
    SRC(&k->insns[25], 14, 16, 15, 17);
    assert_int_equal(k->insns[35].ndst, 0); /* st.shared.f32 [%r19], %f4 */
    SRC(&k->insns[35], 25, 20);
    DST(&k->insns[43], 30); /* atom.global.add.f32 %f12, [%rd6], %f11 */
    SRC(&k->insns[43], 29, 28);
    DST(&file.kernels[1].insns[0], 0); /* numbered afresh in each kernel */
    code_free(&file);
}

/* .loc lines, inlined ones as the callee's; .loc 2 and 3 name the toolkit's headers. */
static void source_lines(void **state) {
    (void)state;
    CodeFile file = read_ok("tests/model_code/ptx/kernels.ptx", NULL);
    const CodeKernel *k = &file.kernels[0];
    assert_string_equal(line_of(k, 0), "kernels.hip:2");
    assert_string_equal(line_of(k, 16), "kernels.hip:6");
    assert_string_equal(line_of(k, 19), "kernels.hip:5");
    assert_string_equal(line_of(k, 25), "nvidia-sm_30_intrinsics.hpp:440");
    assert_string_equal(line_of(k, 43), "nvidia-sm_20_atomic_functions.hpp:84");
    assert_string_equal(line_of(k, 44), "kernels.hip:11");
    for (int i = 0; i < k->nlines; i++) /* one entry per line */
        for (int j = 0; j < i; j++) assert_string_not_equal(k->lines[i], k->lines[j]);
    assert_string_equal(line_of(&file.kernels[1], 15), "kernels.hip:16");
    code_free(&file);

    char err[512];
    assert_int_equal(
        read_text(".target sm_90\n.visible .entry k()\n{\n\t.loc 1 7 0\n\tret;\n}\n\t.file 1 \"/a/b/k.hip\"\n",
                  "lines.ptx", err, sizeof err),
        0);
    FILE *in = tmpfile();
    fputs(".target sm_90\n.visible .entry k()\n{\n\t.loc 1 0 0\n\tret;\n}\n\t.file 1 \"k.hip\"\n", in);
    rewind(in);
    assert_int_equal(code_read_ptx(in, "zero.ptx", NULL, &file, err, sizeof err), 0);
    fclose(in);
    assert_int_equal(file.kernels[0].insns[0].line, -1); /* line 0: unknown */
    code_free(&file);
}

/* dot4: vector loads and stores, inline assembly's guarded load, a call to
 * a .func the reader skips; one kernel, blocks 0-35 (up to call.uni) and 36-39. */
static void vectors_guards_and_calls(void **state) {
    (void)state;
    CodeFile file = read_ok("tests/model_code/ptx/vectors.ptx", NULL);
    assert_int_equal(file.nkernels, 1);
    const CodeKernel *k = &file.kernels[0];
    assert_string_equal(k->name, "_Z4dot4PK6float4PKfPfi");
    assert_int_equal(k->ninsns, 40);
    assert_int_equal(k->nblocks, 2);
    assert_int_equal(k->blocks[0].fallthrough, 1); /* a call returns */
    assert_int_equal(k->blocks[0].target, -1);
    assert_true(k->insns[35].conditional);
    assert_int_equal(k->insns[35].pipe, CODE_PIPE_BRANCH);

    const CodeInsn *v4 = &k->insns[17]; /* ld.global.v4.u32 {%r12, %r13, %r14, %r15}, [%rd8] */
    assert_int_equal(v4->mem, CODE_MEM_GLOBAL_LOAD);
    assert_int_equal(v4->bytes, 16);
    DST(v4, 17, 18, 19, 20);
    SRC(v4, 16);
    assert_int_equal(k->insns[18].mem, CODE_MEM_LDS_STORE); /* st.shared.v4.u32 [%r10], {...} */
    assert_int_equal(k->insns[18].bytes, 16);
    SRC(&k->insns[18], 13, 17, 18, 19, 20);
    assert_int_equal(k->insns[23].mem, CODE_MEM_LDS_LOAD); /* ld.shared.v4.f32 */
    assert_int_equal(k->insns[23].bytes, 16);
    assert_int_equal(k->insns[25].flops, 2); /* fma.rn.f32 */
    assert_int_equal(k->insns[24].flops, 1); /* mul.f32 */

    /* setp.ne.b32 guard, %r1, 0 then @guard ld.global.f32 %f1, [%rd1]: guard is .reg .pred, the second predicate */
    DST(&k->insns[31], P(1));
    const CodeInsn *guarded = &k->insns[32];
    assert_true(guarded->guarded);
    assert_int_equal(guarded->pipe, CODE_PIPE_VMEM);
    assert_int_equal(guarded->mem, CODE_MEM_GLOBAL_LOAD);
    assert_int_equal(guarded->bytes, 4);
    DST(guarded, 33);
    SRC(guarded, P(1), 31);
    assert_string_equal(line_of(k, 32), "vectors.hip:5");
    assert_false(k->insns[31].guarded);
    code_free(&file);
}

static void errors_name_the_file_and_line(void **state) {
    (void)state;
    char err[512];
    assert_int_equal(read_text("", "empty.ptx", err, sizeof err), -1);
    assert_non_null(strstr(err, "empty.ptx"));

    assert_int_equal(read_text(".version 9.0\n.target sm_90\n", "bare.ptx", err, sizeof err), -1);
    assert_non_null(strstr(err, "bare.ptx:2: no kernel"));

    const char *missing = ".target sm_90\n.visible .entry k()\n{\n\tbra.uni \t$L__BB0_9;\n$L__BB0_1:\n\tret;\n}\n";
    assert_int_equal(read_text(missing, "missing.ptx", err, sizeof err), -1);
    assert_non_null(strstr(err, "missing.ptx:4:"));
    assert_non_null(strstr(err, "$L__BB0_9"));

    const char *dots = ".target sm_90\n.visible .entry k()\n{\n\t@%p1 ...;\n}\n"; /* no opcode between the dots */
    assert_int_equal(read_text(dots, "dots.ptx", err, sizeof err), -1);
    assert_non_null(strstr(err, "dots.ptx:4:"));

    assert_int_equal(read_text(".target sm_90\n.visible .entry k()\n{\n\tret;\n", "cut.ptx", err, sizeof err), -1);
    assert_non_null(strstr(err, "cut.ptx:4:"));

    const char *no_file = ".target sm_90\n.visible .entry k()\n{\n\t.loc 3 7 0\n\tret;\n}\n";
    assert_int_equal(read_text(no_file, "nofile.ptx", err, sizeof err), -1);
    assert_non_null(strstr(err, "nofile.ptx:4:"));

    static char long_line[70000 + 64];
    strcpy(long_line, ".target sm_90\n// ");
    memset(long_line + strlen(long_line), 'x', 70000);
    assert_int_equal(read_text(long_line, "long.ptx", err, sizeof err), -1);
    assert_non_null(strstr(err, "long.ptx:2: a line longer than"));
}

/* ptxas -v's report of kernels.ptx (kernels.ptxas): block_sum 14 registers and 128 bytes of
 * shared memory, scale 8 registers and none. The occupancy, by hand (code_ptx.c's limits):
 * block_sum in blocks of 256 threads is 8 warps; 14 x 32 = 448 registers a warp, 512 allocated;
 * the 64 warps an SM holds allow 8 blocks, the registers 16, the shared memory 202 (1,152 bytes a
 * block with the 1 KB reserved): 8 blocks of 8 warps over 4 schedulers, 16. At 64 registers in
 * blocks of 1,024 threads: 2,048 registers a warp, 8 warps a scheduler, one block: 32 / 4 = 8.
 * At 128 registers the block does not fit: 0. */
static void ptxas_resources_and_the_occupancy_they_allow(void **state) {
    (void)state;
    CodeFile file = read_ok("tests/model_code/ptx/kernels.ptx", NULL);
    FILE *report = fopen("tests/model_code/ptx/kernels.ptxas", "r");
    assert_non_null(report);
    char err[256] = "";
    assert_int_equal(code_read_ptxas(report, "kernels.ptxas", NULL, &file, err, sizeof err), 0);
    fclose(report);
    CodeKernel *block_sum = &file.kernels[0], *scale = &file.kernels[1];
    assert_int_equal(block_sum->vgprs, 14);
    assert_int_equal(block_sum->lds_bytes, 128);
    assert_int_equal(scale->vgprs, 8);
    assert_int_equal(scale->lds_bytes, 0);
    assert_float_equal(code_sm90_warps_per_scheduler(block_sum, 256), 16, 0);
    block_sum->vgprs = 64;
    assert_float_equal(code_sm90_warps_per_scheduler(block_sum, 1024), 8, 0);
    block_sum->vgprs = 128;
    assert_float_equal(code_sm90_warps_per_scheduler(block_sum, 1024), 0, 0);
    code_free(&file);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_and_their_names),
        cmocka_unit_test(blocks_and_the_loop),
        cmocka_unit_test(pipes_memory_and_flops),
        cmocka_unit_test(registers_read_and_written),
        cmocka_unit_test(source_lines),
        cmocka_unit_test(vectors_guards_and_calls),
        cmocka_unit_test(errors_name_the_file_and_line),
        cmocka_unit_test(ptxas_resources_and_the_occupancy_they_allow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
